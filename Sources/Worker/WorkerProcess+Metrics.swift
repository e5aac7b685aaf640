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

    /// Exports `reelwork_worker_abandoned_threads{worker}`, read at each scrape.
    public func exportAbandonedThreads(to exporter: MetricsExporter) {
        let gauge = Gauge(label: MetricName.abandonedThreads, dimensions: [("worker", workerID)])
        exporter.addCollector { [weak self] in
            guard let self else { return }
            gauge.record(self.abandonedThreads)
        }
    }
}
