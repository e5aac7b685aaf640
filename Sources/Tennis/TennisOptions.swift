import ReelworkCore

/// A job's tennis options: `dominantHand` ("right"/"left", default right), `playerHeight` (metres,
/// optional: speeds in m/s when given). Sampling rate is the vision setting `sampleFps`.
public struct TennisOptions: Sendable, Equatable {
    public var dominantHand: Hand
    public var playerHeight: Double?

    public init(dominantHand: Hand = .right, playerHeight: Double? = nil) {
        self.dominantHand = dominantHand
        self.playerHeight = playerHeight
    }

    /// Heights outside this range (metres) are typing mistakes (cm, feet), not players.
    static let playerHeightRange = 1.0...2.5

    /// Throws `ReelworkError.invalidInput` naming the option and the problem.
    public static func parse(_ options: JSONValue) throws -> TennisOptions {
        switch options {
        case .object, .null: break
        default: throw ReelworkError.invalidInput("tennis options must be an object")
        }
        try OptionKeys.check(options, known: ["dominantHand", "playerHeight"], sport: .tennis)
        let hand = try Hand.parse(options, key: "dominantHand")
        let height: Double?
        switch options["playerHeight"] {
        case nil, .null?:
            height = nil
        case .number(let metres)? where metres.isFinite && playerHeightRange.contains(metres):
            height = metres
        case .number(let metres)?:
            throw ReelworkError.invalidInput("option 'playerHeight' must be in metres, between 1.0 and 2.5, not \(metres)")
        default:
            throw ReelworkError.invalidInput("option 'playerHeight' must be a number of metres between 1.0 and 2.5")
        }
        return TennisOptions(dominantHand: hand, playerHeight: height)
    }
}
