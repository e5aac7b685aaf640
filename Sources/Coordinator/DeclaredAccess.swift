import Threading

/// Who each `/v1` route allows, as its registration declared it (`APIRouter`): the isolation test
/// walks every route by it, so a route's test follows its declaration, not a list kept by hand.
final class DeclaredAccess: Sendable {
    private let routes = LockedValue([String: Access]())

    func record(method: String, path: String, _ access: Access) {
        routes.withLock { $0["\(method) \(path)"] = access }
    }

    func access(method: String, path: String) -> Access? {
        routes.withLock { $0["\(method) \(path)"] }
    }
}
