import Hummingbird
import Metrics
import ReelworkCore

/// Times every request, from routing until the last byte of its answer is written, into
/// `reelwork_http_request_duration_seconds{route, method, status}`. `route` is the pattern the
/// router matched (`/v1/jobs/{id}`), never the path sent, so ids and probes of random paths add
/// no series; a path no route matches counts as `unmatched`.
///
/// Added first, so it sees the status the error middleware turned a thrown error into.
struct HTTPMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    static var unmatched: String { "unmatched" }
    static var knownMethods: Set<String> { ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        // A client may send any method token: only the known ones become label values.
        let method = Self.knownMethods.contains(request.method.rawValue) ? request.method.rawValue : "other"
        do {
            var response = try await next(request, context)
            let timer = Self.timer(route: context.endpointPath, method: method, status: response.status.code)
            let body = response.body
            response.body = ResponseBody(contentLength: body.contentLength) { writer in
                defer { timer.record(duration: ContinuousClock.now - started) }
                try await body.write(writer)
            }
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            Self.timer(route: context.endpointPath, method: method, status: status).record(duration: ContinuousClock.now - started)
            throw error
        }
    }

    /// The router sets `NotFound` when nothing matched.
    static func timer(route: String?, method: String, status: Int) -> Metrics.Timer {
        let pattern = route.flatMap { $0 == "NotFound" ? nil : $0 } ?? unmatched
        return Metrics.Timer(label: MetricName.httpRequestDuration,
                             dimensions: [("route", pattern), ("method", method), ("status", String(status))])
    }
}
