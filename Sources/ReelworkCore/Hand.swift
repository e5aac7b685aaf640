/// The player's or bowler's throwing / dominant hand (job options `hand`, `dominantHand`).
public enum Hand: String, Codable, CaseIterable, Sendable {
    case right, left

    /// Reads `options[key]`: absent means right-handed; anything but "right"/"left" is an invalid-input error.
    public static func parse(_ options: JSONValue, key: String) throws -> Hand {
        switch options[key] {
        case nil, .null?: return .right
        case .string(let name)?:
            guard let hand = Hand(rawValue: name.lowercased()) else {
                throw ReelworkError.invalidInput("option '\(key)' must be \"right\" or \"left\", not \"\(name)\"")
            }
            return hand
        default:
            throw ReelworkError.invalidInput("option '\(key)' must be \"right\" or \"left\"")
        }
    }
}
