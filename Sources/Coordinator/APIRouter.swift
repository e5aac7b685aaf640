import Hummingbird
import ReelworkCore

/// Registers the `/v1` routes, each with the keys that may call it: a route cannot be added
/// without saying who may use it. The handler gets the authenticated caller; a key whose role
/// the route does not allow gets 403 before the handler runs.
struct APIRouter {
    typealias Handler = @Sendable (Request, APIRequestContext, Caller) async throws -> Response

    let router: Router<APIRequestContext>
    /// Where each route's access is recorded as it is registered.
    var declared = DeclaredAccess()

    func get(_ path: RouterPath, _ access: Access, _ handler: @escaping Handler) {
        on(path, .get, access, handler)
    }

    func post(_ path: RouterPath, _ access: Access, _ handler: @escaping Handler) {
        on(path, .post, access, handler)
    }

    func put(_ path: RouterPath, _ access: Access, _ handler: @escaping Handler) {
        on(path, .put, access, handler)
    }

    func delete(_ path: RouterPath, _ access: Access, _ handler: @escaping Handler) {
        on(path, .delete, access, handler)
    }

    private func on(_ path: RouterPath, _ method: HTTPRequest.Method, _ access: Access, _ handler: @escaping Handler) {
        declared.record(method: String(describing: method), path: String(describing: path), access)
        router.on(path, method: method) { request, context in
            // The middleware authenticated every /v1 request; a route without a caller is a wiring mistake.
            guard let caller = context.caller else {
                throw APIError(.unauthorized, "unauthorized", "this endpoint needs an API key")
            }
            guard access.allows(caller.role) else {
                throw APIError(.forbidden, "forbidden", "a \(caller.role.rawValue) key may not call \(method) \(path)")
            }
            return try await handler(request, context, caller)
        }
    }
}
