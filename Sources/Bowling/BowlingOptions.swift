import ReelworkCore

/// A job's bowling options, parsed and validated before any frame is decoded:
/// `hand`, `ballProfile` {`color` {h, s, v}, `colorTolerance`, `markerColor`}, `calibration`
/// (seed 000's `CalibrationProfile` fields, or `{"lanePoints": {...}}`).
public struct BowlingOptions: Sendable {
    public var hand: Hand
    public var ballProfile: BallProfile
    /// nil: no calibration; the trajectory is reported in pixels only.
    public var calibration: LaneCalibration?

    public init(hand: Hand = .right, ballProfile: BallProfile, calibration: LaneCalibration? = nil) {
        (self.hand, self.ballProfile, self.calibration) = (hand, ballProfile, calibration)
    }

    /// Throws `ReelworkError.invalidInput` for malformed options and `.needsPerson` for ones only a
    /// person can fix (invalid calibration geometry), each naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> BowlingOptions {
        guard case .object = options else {
            throw ReelworkError.invalidInput("bowling options must be an object with ballProfile")
        }
        try OptionKeys.check(options, known: ["hand", "ballProfile", "calibration", "pose"], sport: .bowling)
        switch options["pose"] {
        case nil, .null?, .bool?: break
        default: throw ReelworkError.invalidInput("option pose must be true or false (true: find the bowler's pose on sampled frames)")
        }
        return BowlingOptions(hand: try Hand.parse(options, key: "hand"),
                              ballProfile: try BallProfile.parse(options["ballProfile"]),
                              calibration: try LaneCalibration.parse(options["calibration"]))
    }
}
