/// Stage names as the API shows them. A run is an ordered list of stages.
public enum StageName: String, Codable, CaseIterable, Sendable {
    case probe, decode
    /// People, balls and rackets in each sampled frame (the detector), as frames stream out of `decode`.
    case objects
    /// Body landmarks of each tracked person in each sampled frame, from the same stream of frames.
    case pose
    /// Tennis: swing candidates from the dominant wrist's speed, with type and keyframes.
    case swings
    /// Tennis: each swing's metrics (seed 004 `SegmentMetrics`).
    case metrics
    /// Bowling: the ball found and tracked in every decoded frame, cut into shots.
    case ball
    /// Bowling: each shot's speeds, boards, entry angle, rev rate and strike probability.
    case shotMetrics = "shot_metrics"
    /// The diagnostic pipeline's only stage (job option `noop`): waits, reports progress, may fail on
    /// purpose. It measures and tests the queue without video work.
    case noop

    /// The stages a run of `sport` with `options` goes through, in order. Sport pipelines extend this.
    ///
    /// `decode`, `objects` and `pose` run together over one streamed decode: every frame is decoded
    /// once (counted, sampled for frame quality), and the sampled frames flow on to the detector and
    /// the pose model as they come out of the decoder.
    /// `ball` looks at every decoded frame in the same pass. Bowling runs `objects` and `pose` only
    /// with the job option `"pose": true`.
    public static func plan(for sport: Sport, options: JSONValue = .emptyObject) -> [StageName] {
        if options["noop"] != nil { return [.noop] }
        switch sport {
        case .tennis:
            return [.probe, .decode, .objects, .pose, .swings, .metrics]
        case .bowling:
            let pose: [StageName] = options["pose"] == .bool(true) ? [.objects, .pose] : []
            return [.probe, .decode] + pose + [.ball, .shotMetrics]
        case .archery, .basketball:
            return [.probe, .decode, .objects, .pose]
        }
    }

    /// The stages that consume decoded frames as they stream out of one decode pass.
    public var isStreamed: Bool { self == .decode || self == .objects || self == .pose || self == .ball }
}

/// The diagnostic pipeline's settings: `{"noop": {"seconds": 2, "failAttempts": 1}}`.
public struct NoopOptions: Codable, Sendable, Equatable {
    /// How long the stage runs (reporting progress every 50 ms).
    public var seconds: Double
    /// Attempts up to this number fail with a transient error (to exercise retries).
    public var failAttempts: Int
    /// Attempts up to this number fail with an invalid-input error (to exercise permanent failure).
    public var invalidAttempts: Int

    public init(seconds: Double = 0, failAttempts: Int = 0, invalidAttempts: Int = 0) {
        self.seconds = seconds
        self.failAttempts = failAttempts
        self.invalidAttempts = invalidAttempts
    }

    public static func parse(_ options: JSONValue) throws -> NoopOptions? {
        guard let value = options["noop"] else { return nil }
        func number(_ key: String) throws -> Double {
            switch value[key] {
            case nil, .null?: return 0
            case .number(let n)? where n >= 0 && n.isFinite: return n
            default: throw ReelworkError.invalidInput("option noop.\(key) must be a number ≥ 0")
            }
        }
        guard case .object = value else { throw ReelworkError.invalidInput("option 'noop' must be an object") }
        return NoopOptions(seconds: try number("seconds"), failAttempts: Int(try number("failAttempts")),
                           invalidAttempts: Int(try number("invalidAttempts")))
    }
}
