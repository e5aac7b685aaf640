import Hummingbird

/// The coordinator's request context: Hummingbird's core storage plus the caller, which the
/// authentication middleware sets on every `/v1` request before any route runs.
struct APIRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var caller: Caller?
    /// The peer's IP address as text (the connection's, never a header a client can write), or
    /// "unknown"; the per-address limit counts by it.
    let clientAddress: String

    init(source: Source) {
        coreContext = .init(source: source)
        caller = nil
        clientAddress = source.channel.remoteAddress?.ipAddress ?? "unknown"
    }
}
