import CoreMetrics
import Prometheus
import ReelworkCore
import Threading

/// This process's metrics in Prometheus's text format. The code records through the swift-metrics
/// API (`Counter`, `Timer`, `Gauge`); `bootstrap()` makes this exporter's registry their backend.
/// Values that only mean something at the moment of a scrape (an age) are set by collectors,
/// which `render()` runs first.
public final class MetricsExporter: Sendable {
    public let registry: PrometheusCollectorRegistry
    private let collectors = LockedValue<[@Sendable () -> Void]>([])

    /// An exporter that is not the swift-metrics backend: renders only what is recorded into its
    /// registry directly (the route lists in tests build routers with one).
    public init() {
        registry = PrometheusCollectorRegistry()
    }

    /// Makes a new exporter the backend of every swift-metrics call in the process, with the
    /// duration buckets of `MetricName.durationBuckets`. swift-metrics takes one backend per
    /// process: call this once, first thing, before any metric is created (one created earlier
    /// stays a no-op).
    public static func bootstrap() -> MetricsExporter {
        let exporter = MetricsExporter()
        var factory = PrometheusMetricsFactory(registry: exporter.registry)
        for (name, bounds) in MetricName.durationBuckets {
            factory.durationHistogramBuckets[name] = bounds.map { Duration.seconds($0) }
        }
        MetricsSystem.bootstrap(factory)
        return exporter
    }

    /// Runs `collect` before every scrape (it sets gauges whose value is computed then).
    public func addCollector(_ collect: @escaping @Sendable () -> Void) {
        collectors.withLock { $0.append(collect) }
    }

    /// Every metric, in the text exposition format (version 0.0.4).
    public func render() -> [UInt8] {
        for collect in collectors.withLock({ $0 }) { collect() }
        return registry.emitToBuffer()
    }

    /// The content type of `render()`'s bytes.
    public static let contentType = "text/plain; version=0.0.4; charset=utf-8"
}
