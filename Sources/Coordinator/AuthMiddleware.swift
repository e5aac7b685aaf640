import Hummingbird

/// Authenticates every `/v1` request and applies the key's request rate, before routing. Paths
/// outside `/v1` (the health check, the API document) pass untouched.
struct AuthMiddleware: RouterMiddleware {
    typealias Context = APIRequestContext
    let authenticator: Authenticator
    let rateLimiter: RateLimiter

    func handle(_ request: Request, context: APIRequestContext,
                next: (Request, APIRequestContext) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        guard path == "/v1" || path.hasPrefix("/v1/") else { return try await next(request, context) }
        var context = context
        let caller = try await authenticator.caller(for: request)
        try await rateLimiter.admit(caller)
        context.caller = caller
        return try await next(request, context)
    }
}
