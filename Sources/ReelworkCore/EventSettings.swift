import Foundation

/// The live event stream (`GET /v1/events`). Defaults are named here; each has an environment
/// variable (docs/CONFIGURATION.md lists them) and a bad value is an error naming it.
public struct EventSettings: Sendable, Equatable {
    /// Entries the Redis stream keeps (trimmed approximately, `MAXLEN ~`): how far back a
    /// reconnecting client can resume. 100,000 events of ~300 bytes is ~30 MB of Redis memory.
    public static let defaultStreamCap = 100_000
    public var streamCap = defaultStreamCap
    /// A comment line sent to an idle subscriber this often, so proxies keep the connection and a
    /// client gone away is noticed.
    public var heartbeatSeconds = 15.0
    /// Events one subscriber may have waiting to be written; a client that falls further behind is
    /// sent `reconnect` and disconnected (its memory is bounded by this, whatever it does).
    public var subscriberBuffer = 512
    /// An events response ends (with `reconnect`) after this long; 0: never. Bounds what one
    /// request holds; clients reconnect with `Last-Event-ID` and miss nothing (the browser's
    /// `EventSource` does so by itself).
    public var maxStreamSeconds = 1800.0
    /// Event streams one API key may have open on one coordinator at once; more get 429.
    public var maxStreamsPerKey = 8

    public init() {}

    public enum Env {
        public static let streamCap = "REELWORK_EVENTS_STREAM_CAP"
        public static let heartbeatSeconds = "REELWORK_EVENTS_HEARTBEAT_SECONDS"
        public static let subscriberBuffer = "REELWORK_EVENTS_CLIENT_BUFFER"
        public static let maxStreamSeconds = "REELWORK_EVENTS_MAX_STREAM_SECONDS"
        public static let maxStreamsPerKey = "REELWORK_EVENTS_MAX_STREAMS_PER_KEY"
    }

    public static func fromEnvironment(_ env: [String: String]) throws -> EventSettings {
        var s = EventSettings()
        try ReelworkConfig.whole(Env.streamCap, env, &s.streamCap, in: 100...100_000_000)
        try ReelworkConfig.seconds(Env.heartbeatSeconds, env, &s.heartbeatSeconds, in: 0.05...3_600)
        try ReelworkConfig.whole(Env.subscriberBuffer, env, &s.subscriberBuffer, in: 1...1_000_000)
        try ReelworkConfig.seconds(Env.maxStreamSeconds, env, &s.maxStreamSeconds, in: 0...86_400)
        try ReelworkConfig.whole(Env.maxStreamsPerKey, env, &s.maxStreamsPerKey, in: 1...10_000)
        return s
    }
}
