import Hummingbird
import Logging
import Queue
import ReelworkCore
import Store

/// `GET /healthz`, open to anyone: 200 when both Redis and PostgreSQL answer, else 503 saying
/// which did not. The error itself goes to the log only: its text can name hosts, ports and users.
struct HealthRoutes {
    let backends: Backends

    func register(on router: Router<APIRequestContext>) {
        router.get("/healthz") { _, _ in
            let redis: String
            do { _ = try await backends.redis { try $0.command("PING") }; redis = "ok" } catch {
                backends.logger.warning("health check: Redis: \(error)")
                redis = "unavailable"
            }
            let postgres: String
            do { _ = try await backends.sql { try $0.query("SELECT 1") }; postgres = "ok" } catch {
                backends.logger.warning("health check: PostgreSQL: \(error)")
                postgres = "unavailable"
            }
            let healthy = redis == "ok" && postgres == "ok"
            return try JSONResponse.make(HealthView(status: healthy ? "ok" : "unavailable", redis: redis, postgres: postgres),
                                         status: healthy ? .ok : .serviceUnavailable)
        }
    }
}
