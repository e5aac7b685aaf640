/// The rule for a club's name where clubs are records (API keys, issue 12): 1–64 of A–Z a–z 0–9
/// `-` `_` `.`, so a name is safe in a URL path, a Redis key and a shell without quoting.
/// The `clubs` table checks the same pattern.
public enum ClubName {
    public static let maxLength = 64

    /// Returns `name` unchanged when it follows the rule; otherwise an `invalidRequest` naming what is wrong.
    public static func validate(_ name: String) throws -> String {
        guard !name.isEmpty else { throw ReelworkError.invalidRequest("a club name cannot be empty") }
        let scalars = name.unicodeScalars
        guard scalars.count <= maxLength else {
            throw ReelworkError.invalidRequest("club name is \(scalars.count) characters long; at most \(maxLength) are allowed")
        }
        if let bad = scalars.firstIndex(where: { !isAllowed($0) }) {
            // Escaped, so a control character in the name cannot rewrite the terminal showing the error.
            let shown = scalars.map { $0.escaped(asASCII: true) }.joined()
            let position = scalars.distance(from: scalars.startIndex, to: bad) + 1
            throw ReelworkError.invalidRequest(
                "club name '\(shown)' has '\(scalars[bad].escaped(asASCII: true))' at character \(position); "
                    + "use only letters A-Z a-z, digits, '-', '_' and '.'")
        }
        return name
    }

    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".": return true
        default: return false
        }
    }
}
