/// A sport Reelwork analyses, by the API's name (the raw value, also the text stored in PostgreSQL
/// and Redis).
///
/// Open, so that a sport is added without editing this module: each sport declares its constant
/// beside its plug-in (`extension Sport { public static let tennis = Sport(rawValue: "tennis") }`),
/// and the sports a process knows are the Sports module's registry (`SportRegistry.sports`), not
/// this type. Any string therefore makes a `Sport`, and decodes as one (a single string, as the
/// enum it was did): whatever takes a name from a client or a stored row checks it against the
/// registry where it comes in (`Sport.parse(_:)` or `SportRegistry.sport(named:)`, Sports module).
public struct Sport: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// The name, as the enum this was printed in text.
    public var description: String { rawValue }

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Parses an API name, in any case, as one of `known`, or throws an error that lists them
    /// (the Sports module's `Sport.parse(_:)` passes the registry's sports).
    public static func parse(_ name: String, among known: [Sport]) throws -> Sport {
        let sport = Sport(rawValue: name.lowercased())
        guard known.contains(sport) else {
            throw ReelworkError.invalidRequest(
                "unknown sport '\(name)'; expected one of: \(listed(known))")
        }
        return sport
    }

    /// The sports' names for help texts and messages: "tennis, bowling, archery, basketball".
    public static func listed(_ sports: [Sport]) -> String { sports.map(\.rawValue).joined(separator: ", ") }
}
