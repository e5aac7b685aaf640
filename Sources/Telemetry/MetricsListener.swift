import Hummingbird
import Logging
import ReelworkCore
import ServiceLifecycle
import Store

/// A worker's `/metrics`, on its own small HTTP listener (`REELWORK_WORKER_METRICS_BIND`): a
/// worker has no API, and its metrics must be readable while it is busy or stopping. Operator
/// keys are checked against PostgreSQL on a connection of the listener's own.
public enum MetricsListener {
    /// The listener as a service, or nil when `config` names no address. Run it in the worker's
    /// service group before the worker, so that it stops after it (a group stops its services in
    /// reverse order): a draining worker can still be watched.
    public static func service(config: ReelworkConfig, exporter: MetricsExporter, logger: Logger) throws -> (any Service)? {
        guard let bind = config.metrics.workerBind else { return nil }
        let (host, port) = try HostPort.parse(bind, setting: MetricsSettings.Env.workerBind)
        let access = ScrapeAccess(token: config.metrics.scrapeToken, keys: PGPool(conninfo: config.databaseURL, size: 1))
        let router = Router()
        MetricsRoute(exporter: exporter, access: access).register(on: router)
        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "reelwork-worker"),
                           logger: logger)
    }
}
