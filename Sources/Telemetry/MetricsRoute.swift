import Foundation
import Hummingbird
import Logging
import NIOCore
import ReelworkCore

/// `GET /metrics`: the process's metrics in Prometheus's text format, for an operator key or the
/// scrape token (`ScrapeAccess`). The coordinator serves it beside its API; a worker on its own
/// listener (`MetricsListener`). Refusals are the API's JSON error, the same from both.
public struct MetricsRoute: Sendable {
    public static let path = "/metrics"

    let exporter: MetricsExporter
    let access: ScrapeAccess

    public init(exporter: MetricsExporter, access: ScrapeAccess) {
        self.exporter = exporter
        self.access = access
    }

    public func register<Context: RequestContext>(on router: Router<Context>) {
        router.get(RouterPath(stringLiteral: Self.path)) { request, context in
            try await answer(request, logger: context.logger)
        }
    }

    func answer(_ request: Request, logger: Logger) async throws -> Response {
        let verdict: ScrapeAccess.Verdict
        do {
            verdict = try await access.check(authorization: request.headers[.authorization])
        } catch {
            // The key store did not answer: the key may be fine, so this is not a 401. (The
            // scrape token needs no store: a scraper holding it is answered even then.)
            logger.warning("/metrics: cannot check the presented key: \(error)")
            return try Self.refusal(.serviceUnavailable, "unavailable", "cannot check the key now: PostgreSQL is unavailable")
        }
        switch verdict {
        case .allowed:
            return Response(status: .ok, headers: [.contentType: MetricsExporter.contentType],
                            body: .init(byteBuffer: ByteBuffer(bytes: exporter.render())))
        case .unauthorized(let message):
            var response = try Self.refusal(.unauthorized, "unauthorized", message)
            response.headers[.wwwAuthenticate] = "Bearer"
            return response
        case .forbidden(let message):
            return try Self.refusal(.forbidden, "forbidden", message)
        }
    }

    static func refusal(_ status: HTTPResponse.Status, _ code: String, _ message: String) throws -> Response {
        let body = try ReelworkJSON.encoder.encode(APIErrorBody(code: code, message: message))
        return Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
