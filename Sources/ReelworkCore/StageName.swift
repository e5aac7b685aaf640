/// Stage names as the API shows them (the raw value, also the text stored in PostgreSQL and Redis
/// and the `stage` label of the metrics). A run is an ordered list of stages.
///
/// Open, as `Sport` is: the stages every run may have are declared here, and each sport declares
/// its own beside its plug-in (`extension StageName { public static let swings = … }`). The
/// stages a process knows are the Sports module's registry (`SportRegistry.stages`).
public struct StageName: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The API's name, in text too.
    public var description: String { rawValue }

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let probe = StageName(rawValue: "probe")
    public static let decode = StageName(rawValue: "decode")
    /// People, balls and rackets in each sampled frame (the detector), as frames stream out of `decode`.
    public static let objects = StageName(rawValue: "objects")
    /// Body landmarks of each tracked person in each sampled frame, from the same stream of frames.
    public static let pose = StageName(rawValue: "pose")
    /// The diagnostic pipeline's only stage (job option `noop`): waits, reports progress, may fail on
    /// purpose. It measures and tests the queue without video work.
    public static let noop = StageName(rawValue: "noop")

    /// The stages that belong to no sport, in the order the registry lists them first.
    public static let generic: [StageName] = [.probe, .decode, .objects, .pose, .noop]

    // A run's plan (`StageName.plan(for:options:)`) is the Sports module's: each sport's plug-in
    // names its own stages.
}

/// The diagnostic pipeline's settings: `{"noop": {"seconds": 2, "failAttempts": 1, "probe": true}}`. Accepted by a
/// coordinator only with diagnostics on (`REELWORK_DIAGNOSTICS=1`), since it runs no analysis.
public struct NoopOptions: Codable, Sendable, Equatable {
    /// How long the stage runs (reporting progress every 50 ms), at most `maxSeconds`.
    public var seconds: Double
    /// Attempts up to this number fail with a transient error (to exercise retries).
    public var failAttempts: Int
    /// Attempts up to this number fail with an invalid-input error (to exercise permanent failure).
    public var invalidAttempts: Int
    /// Probe the job's video first (the `probe` stage, as an analysis would): the worker's way to
    /// its videos is then part of the job (a shared directory, or the coordinator over HTTP).
    public var probe: Bool

    /// A diagnostic job must not hold a slot for long: ten minutes covers every test and load run.
    public static let maxSeconds = 600.0
    /// Attempts are counted in tens at most (`maxAttempts` is 1–10); 100 leaves room to say "always".
    public static let maxFailingAttempts = 100

    public init(seconds: Double = 0, failAttempts: Int = 0, invalidAttempts: Int = 0, probe: Bool = false) {
        self.seconds = seconds
        self.failAttempts = failAttempts
        self.invalidAttempts = invalidAttempts
        self.probe = probe
    }

    /// The settings under `options.noop`, nil when there is none; `.invalidInput` naming the field and
    /// its allowed range for anything else than an object of numbers in range.
    public static func parse(_ options: JSONValue) throws -> NoopOptions? {
        guard let value = options["noop"] else { return nil }
        guard case .object = value else { throw ReelworkError.invalidInput("option noop must be an object") }
        try OptionKeys.check(value, known: ["seconds", "failAttempts", "invalidAttempts", "probe"], path: "noop")
        func given(_ key: String) -> JSONValue? {
            value[key] == .null ? nil : value[key]
        }
        return NoopOptions(
            seconds: try given("seconds").map { try OptionReader.number($0, name: "noop.seconds", in: 0...maxSeconds) } ?? 0,
            failAttempts: try given("failAttempts").map {
                try OptionReader.integer($0, name: "noop.failAttempts", in: 0...maxFailingAttempts)
            } ?? 0,
            invalidAttempts: try given("invalidAttempts").map {
                try OptionReader.integer($0, name: "noop.invalidAttempts", in: 0...maxFailingAttempts)
            } ?? 0,
            probe: try given("probe").map {
                guard case .bool(let probe) = $0 else { throw ReelworkError.invalidInput("option noop.probe must be true or false") }
                return probe
            } ?? false)
    }
}
