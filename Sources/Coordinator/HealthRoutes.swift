import Hummingbird
import Queue
import ReelworkCore
import Store

/// `GET /healthz`: 200 when both Redis and PostgreSQL answer, else 503 naming the one that did not.
struct HealthRoutes {
    let backends: Backends

    func register(on router: Router<BasicRequestContext>) {
        router.get("/healthz") { _, _ in
            let redis: String
            do { _ = try await backends.redis { try $0.command("PING") }; redis = "ok" } catch { redis = "\(error)" }
            let postgres: String
            do { _ = try await backends.sql { try $0.query("SELECT 1") }; postgres = "ok" } catch { postgres = "\(error)" }
            let healthy = redis == "ok" && postgres == "ok"
            return try JSONResponse.make(HealthView(status: healthy ? "ok" : "unavailable", redis: redis, postgres: postgres),
                                         status: healthy ? .ok : .serviceUnavailable)
        }
    }
}
