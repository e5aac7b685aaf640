import Foundation

/// How the coordinator sends webhooks. Defaults are named here; each has an environment variable
/// (docs/CONFIGURATION.md lists them) and a bad value is an error naming it.
public struct WebhookSettings: Sendable, Equatable {
    /// Standard Webhooks' schedule: at once, then after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h
    /// (about a day and a half in all), each delay counted from the attempt before.
    public static let standardRetrySchedule: [TimeInterval] = [0, 5, 300, 1_800, 7_200, 18_000, 36_000, 36_000]
    /// More steps than this would be a schedule that never gives up in practice.
    public static let maxRetrySteps = 50
    /// A week: no step of a schedule may wait longer.
    public static let maxRetryStepSeconds: TimeInterval = 7 * 86_400

    /// Accept endpoint URLs that resolve to loopback, private, link-local or other internal
    /// addresses (tests and local stacks). Off in production: a club could otherwise make the
    /// coordinator call services on its own network.
    public var allowPrivate = false
    /// Internal address blocks (CIDR, e.g. `10.20.0.5/32`) that endpoints may resolve to although
    /// `allowPrivate` is off: an operator's own receiver, with every other internal address still
    /// refused. Parsed and checked by the Webhooks module when the coordinator starts.
    public var allowAddresses: [String] = []
    /// The wait before each attempt of a delivery, the first being 0; when it runs out the delivery
    /// is abandoned.
    public var retrySchedule = standardRetrySchedule
    /// One attempt may take this long (connect, send, and read the answer) before it counts as failed.
    public var timeoutSeconds = 15.0
    /// A `Retry-After` longer than this is cut to it, so a receiver cannot park a delivery for ever.
    public var maxRetryAfterSeconds = 36_000.0
    /// How often the dispatcher looks for due deliveries when it found none.
    public var pollIntervalSeconds = 1.0
    /// After a rotation, how long the old secret still signs (both signatures are sent).
    public var rotationGraceSeconds = 86_400.0

    public init() {}

    public enum Env {
        public static let allowPrivate = "REELWORK_WEBHOOK_ALLOW_PRIVATE"
        public static let allowAddresses = "REELWORK_WEBHOOK_ALLOW_ADDRESSES"
        public static let retrySchedule = "REELWORK_WEBHOOK_RETRY_SCHEDULE"
        public static let timeoutSeconds = "REELWORK_WEBHOOK_TIMEOUT_SECONDS"
        public static let maxRetryAfterSeconds = "REELWORK_WEBHOOK_MAX_RETRY_AFTER_SECONDS"
        public static let pollIntervalSeconds = "REELWORK_WEBHOOK_POLL_SECONDS"
        public static let rotationGraceSeconds = "REELWORK_WEBHOOK_ROTATION_GRACE_SECONDS"
    }

    /// Reads the environment; a bad value is an error naming the variable and what it must be.
    public static func fromEnvironment(_ env: [String: String]) throws -> WebhookSettings {
        var s = WebhookSettings()
        s.allowPrivate = try ReelworkConfig.flag(Env.allowPrivate, env[Env.allowPrivate])
        if let text = env[Env.allowAddresses] {
            s.allowAddresses = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        if let text = env[Env.retrySchedule], !text.isEmpty { s.retrySchedule = try parseSchedule(text) }
        try ReelworkConfig.seconds(Env.timeoutSeconds, env, &s.timeoutSeconds, in: 0.1...600)
        try ReelworkConfig.seconds(Env.maxRetryAfterSeconds, env, &s.maxRetryAfterSeconds, in: 0...maxRetryStepSeconds)
        try ReelworkConfig.seconds(Env.pollIntervalSeconds, env, &s.pollIntervalSeconds, in: 0.01...60)
        try ReelworkConfig.seconds(Env.rotationGraceSeconds, env, &s.rotationGraceSeconds, in: 0...maxRetryStepSeconds)
        return s
    }

    /// Parses `0,5,300,…`: seconds before each attempt, the first 0 (a delivery is tried as soon as
    /// it is recorded), every step from 0 to a week, at most `maxRetrySteps` steps.
    public static func parseSchedule(_ text: String) throws -> [TimeInterval] {
        let name = Env.retrySchedule
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard items.count <= maxRetrySteps else {
            throw ReelworkError.configuration("\(name) has \(items.count) steps; at most \(maxRetrySteps) are allowed")
        }
        let delays = try items.enumerated().map { index, item in
            guard let v = Double(item), v.isFinite, (0...maxRetryStepSeconds).contains(v) else {
                throw ReelworkError.configuration(
                    "\(name)='\(text)': step \(index + 1) ('\(item)') must be a number of seconds from 0 to \(ReelworkConfig.bound(maxRetryStepSeconds))"
                )
            }
            return v
        }
        guard delays.first == 0 else {
            throw ReelworkError.configuration("\(name)='\(text)' must start with 0: the first attempt is made as soon as the event is recorded")
        }
        return delays
    }
}
