import Hummingbird

/// The coordinator's request context: Hummingbird's core storage plus the caller, which the
/// authentication middleware sets on every `/v1` request before any route runs.
struct APIRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var caller: Caller?

    init(source: Source) {
        coreContext = .init(source: source)
        caller = nil
    }
}
