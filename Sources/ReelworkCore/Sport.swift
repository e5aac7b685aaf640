/// The sports Reelwork analyses. The raw value is the API's name.
public enum Sport: String, Codable, CaseIterable, Sendable {
    case tennis, bowling, archery, basketball

    /// Parses an API name, or throws an error that lists the valid names.
    public static func parse(_ name: String) throws -> Sport {
        guard let sport = Sport(rawValue: name.lowercased()) else {
            throw ReelworkError.invalidRequest(
                "unknown sport '\(name)'; expected one of: \(Sport.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return sport
    }
}
