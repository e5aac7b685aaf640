import Hummingbird
import Logging

/// Turns every error a route throws into the API's JSON error, and logs server-side failures.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            let api = APIError.from(error)
            if api.status.code >= 500 {
                context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            }
            return try api.response(from: request, context: context)
        }
    }
}
