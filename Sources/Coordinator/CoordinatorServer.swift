import Foundation
import Hummingbird
import ServiceLifecycle
import Logging
import NIOCore
import ObjectStorage
import Queue
import ReelworkCore
import S3Storage
import Sports
import Store
import Telemetry

/// Builds the coordinator's HTTP application from configuration.
public enum CoordinatorServer {
    /// - Parameter exporter: the process's metrics (`MetricsExporter.bootstrap()`), served at `/metrics`.
    public static func makeApplication(config: ReelworkConfig, logger: Logger,
                                       exporter: MetricsExporter = MetricsExporter()) async throws -> some ApplicationProtocol {
        let (host, port) = try config.bindAddress()
        let backends = try Backends(config: config, logger: logger)
        // A webhook address block that cannot be read stops the start, naming the setting.
        _ = try config.webhooks.urlPolicy()
        // A store that cannot be used (no bucket, credentials refused) stops the start with the reason.
        // Part URLs and redirects are signed on Redis's clock, as workers' reads are (RedisClock).
        let clock = RedisClock(url: try RedisURL(parsing: config.redisURL), logger: logger)
        let store = ObjectStores.make(config, now: { clock.now() })
        try await store.prepare()
        logger.info("videos are stored in the \(store.location)")
        let spool = UploadSpool(storageDir: config.storageDir)
        try spool.prepare()
        // Uploads a coordinator was receiving when it died leave their files in the spool.
        let swept = spool.sweep()
        if !swept.isEmpty { logger.info("removed \(swept.count) abandoned upload file(s) from \(spool.directory.path)") }

        let router = try makeRouter(backends: backends, store: store, spool: spool, exporter: exporter)

        // A connection that sends nothing for the idle timeout is closed, also in the middle of a
        // request body: the upload's receiver then fails and deletes its temporary file.
        let idle = TimeAmount.milliseconds(Int64(Int(clampedRounding: config.limits.idleTimeoutSeconds * 1000)))
        return Application(router: router, server: .http1(configuration: .init(idleTimeout: idle)),
                           configuration: .init(address: .hostname(host, port: port), serverName: "reelwork"),
                           services: [MaintenanceService(loop: MaintenanceLoop(config: config, logger: logger)),
                                      UploadSweeper(backends: backends, store: store),
                                      EventFeedService(reader: EventReader(config: config, feed: backends.events, logger: logger),
                                                       feed: backends.events),
                                      WebhookDispatcher(config: config, logger: logger),
                                      QueueGauges(config: config, logger: logger, exporter: exporter)], logger: logger)
    }
}

extension CoordinatorServer {
    /// Every route, timed, behind the error middleware and the per-address limit, and `/v1` behind
    /// authentication too. Routes outside `/v1` are
    /// open, but for `/metrics` (an operator key or the scrape token, checked by the route); every
    /// `/v1` route is registered through `APIRouter` with the keys it allows.
    static func makeRouter(backends: Backends, store: any PartUploads, spool: UploadSpool, exporter: MetricsExporter,
                           declared: DeclaredAccess = DeclaredAccess()) throws -> Router<APIRequestContext> {
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: HTTPMetricsMiddleware())
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: AddressLimitMiddleware(limiter: RateBuckets(ratePerSecond: backends.config.clubLimits.requestsPerSecondPerAddress)))
        HealthRoutes(backends: backends).register(on: router)
        APIDocumentRoutes().register(on: router)
        MetricsRoute(exporter: exporter, access: ScrapeAccess(token: backends.config.metrics.scrapeToken, keys: backends.db))
            .register(on: router)
        router.add(middleware: AuthMiddleware(authenticator: Authenticator(backends: backends), rateLimiter: RateLimiter(backends: backends)))
        let api = APIRouter(router: router, declared: declared)
        let videos = VideoRoutes(backends: backends, store: store, spool: spool)
        videos.register(on: api)
        UploadRoutes(backends: backends, store: store, spool: spool, videos: videos).register(on: api)
        let jobs = JobRoutes(backends: backends)
        jobs.register(on: api)
        let batches = BatchRoutes(backends: backends, jobs: jobs)
        batches.register(on: api)
        let reports = ReportRoutes(backends: backends, jobs: jobs, batches: batches, store: store)
        reports.register(on: api)
        // A sport's own correction routes (archery's arrows), in a fixed order.
        for (sport, route) in SportRegistry.confirmationRoutes {
            ConfirmationRoutes(backends: backends, jobs: jobs, sport: sport, route: route).register(on: api)
        }
        let corrections = CorrectionRoutes(backends: backends, jobs: jobs)
        corrections.register(on: api)
        ResultExportRoutes(backends: backends, batches: batches).register(on: api)
        WebhookRoutes(backends: backends, jobs: jobs).register(on: api)
        let control = ControlRoutes(backends: backends)
        control.register(on: api)
        let events = EventRoutes(backends: backends)
        events.register(on: api)
        DashboardRoutes(backends: backends, jobs: jobs, corrections: corrections, control: control, events: events, reports: reports, store: store,
                        renderer: try DashboardRenderer(), stillCache: StillCache(),
                        stillLimiter: RateBuckets(ratePerSecond: backends.config.clubLimits.stillsPerSecondPerKey)).register(on: router)
        router.get("/v1/**") { _, _ -> Response in throw APIError(.notFound, "not_found", "no such endpoint") }
        return router
    }

    /// The method, path and declared access (`clubData`, `operatorOnly`, `videoContent`; nil outside
    /// `/v1`) of every registered route: the isolation and contract tests walk them.
    public static func routeList(config: ReelworkConfig, logger: Logger) throws -> [(method: String, path: String, access: String?)] {
        let declared = DeclaredAccess()
        let router = try makeRouter(backends: try Backends(config: config, logger: logger), store: ObjectStores.make(config),
                                    spool: UploadSpool(storageDir: config.storageDir), exporter: MetricsExporter(), declared: declared)
        return router.routes.map { route in
            let method = String(describing: route.method), path = String(describing: route.path)
            return (method, path, declared.access(method: method, path: path).map { "\($0)" })
        }
    }
}

/// Runs the maintenance loop for as long as the application runs.
struct MaintenanceService: Service {
    let loop: MaintenanceLoop

    func run() async throws {
        loop.start()
        // Returns when the application shuts down (SIGTERM/SIGINT).
        try? await gracefulShutdown()
        await loop.stopped()
    }
}
