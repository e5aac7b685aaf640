import Metrics
import ReelworkCore
import Telemetry

extension WorkerProcess {
    /// Exports `reelwork_worker_heartbeat_age_seconds{worker}`, read at each scrape.
    public func exportHeartbeatAge(to exporter: MetricsExporter) {
        let gauge = Gauge(label: MetricName.heartbeatAge, dimensions: [("worker", workerID)])
        exporter.addCollector { [weak self] in
            guard let self else { return }
            gauge.record(self.heartbeatAge.inSeconds)
        }
    }
}
