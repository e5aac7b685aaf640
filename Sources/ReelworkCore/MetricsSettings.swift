import Foundation

/// Who may read `/metrics` and where a worker serves it. Defaults are named here; each has its
/// environment variable (docs/CONFIGURATION.md; docs/OPERATIONS.md, "Metrics").
public struct MetricsSettings: Sendable, Equatable {
    /// A bearer token a scraper may present instead of an operator key (nil: operator keys only).
    /// It is a setting, not a row, so a Prometheus server needs no account in the database.
    public var scrapeToken: String?
    /// host:port a worker serves `/metrics` on; nil: no listener. Off by default because workers
    /// share machines: a fixed default port would let only the first worker on a host start.
    public var workerBind: String?
    /// How often a coordinator refreshes its queue gauges (waiting and running per club) from Redis.
    /// A scrape only reads the last snapshot, so it never waits on Redis.
    public var refreshSeconds = 5.0

    /// A shorter token is refused at start: it could be guessed (32 characters of `openssl rand -hex 16`
    /// are 128 random bits).
    public static let minimumTokenLength = 32
    /// The deploy files' placeholders start with this; a token that contains it was never replaced.
    static let placeholderMark = "change-me"

    public init() {}

    public enum Env {
        public static let scrapeToken = "REELWORK_METRICS_TOKEN"
        public static let workerBind = "REELWORK_WORKER_METRICS_BIND"
        public static let refreshSeconds = "REELWORK_METRICS_REFRESH_SECONDS"
    }

    /// Reads the environment; a bad value is an error naming the variable.
    public static func fromEnvironment(_ env: [String: String]) throws -> MetricsSettings {
        var settings = MetricsSettings()
        if let token = env[Env.scrapeToken], !token.isEmpty {
            guard token.count >= minimumTokenLength, !token.contains(where: \.isWhitespace) else {
                throw ReelworkError.configuration("\(Env.scrapeToken) must be at least \(minimumTokenLength) characters without spaces "
                                                      + "(make one with `openssl rand -hex 32`)")
            }
            guard !token.lowercased().contains(placeholderMark) else {
                throw ReelworkError.configuration("\(Env.scrapeToken) is still the placeholder of the deploy files; "
                                                      + "replace it with a secret of your own (`openssl rand -hex 32`)")
            }
            settings.scrapeToken = token
        }
        if let bind = env[Env.workerBind], !bind.isEmpty {
            _ = try HostPort.parse(bind, setting: Env.workerBind)
            settings.workerBind = bind
        }
        if let text = env[Env.refreshSeconds], !text.isEmpty {
            guard let seconds = Double(text), seconds.isFinite, (0.05...3600).contains(seconds) else {
                throw ReelworkError.configuration("\(Env.refreshSeconds)='\(text)' must be a number of seconds from 0.05 to 3600")
            }
            settings.refreshSeconds = seconds
        }
        return settings
    }
}

/// A `host:port` setting, split.
public enum HostPort {
    /// Splits `text` into host and port, or throws an error naming `setting`.
    public static func parse(_ text: String, setting: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
              (0...65535).contains(port) else {
            throw ReelworkError.configuration("\(setting)='\(text)' is not host:port")
        }
        return (String(text[..<colon]), port)
    }
}
