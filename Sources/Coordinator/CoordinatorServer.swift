import Foundation
import Hummingbird
import Logging
import ReelworkCore
import Store

/// Builds the coordinator's HTTP application from configuration.
public enum CoordinatorServer {
    public static func makeApplication(config: ReelworkConfig, logger: Logger) throws -> some ApplicationProtocol {
        let (host, port) = try config.bindAddress()
        let backends = try Backends(config: config)
        let storage = VideoStorage(root: config.storageDir)
        try storage.prepare()

        let router = Router()
        router.add(middleware: ErrorMiddleware())
        HealthRoutes(backends: backends).register(on: router)
        VideoRoutes(backends: backends, storage: storage).register(on: router)
        JobRoutes(backends: backends).register(on: router)
        router.get("/v1/**") { _, _ -> Response in throw APIError(.notFound, "not_found", "no such endpoint") }

        return Application(router: router, configuration: .init(address: .hostname(host, port: port), serverName: "reelwork"),
                           logger: logger)
    }
}
