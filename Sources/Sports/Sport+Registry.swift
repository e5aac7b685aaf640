import ReelworkCore

extension Sport {
    /// Parses an API name, in any case, as one of the registry's sports, or throws
    /// `ReelworkError.invalidRequest` listing them ("unknown sport 'curling'; expected one of:
    /// tennis, bowling, archery, basketball"). A `Sport` decodes from any string, so every name a
    /// client sends comes through here (or `SportRegistry.sport(named:)` for a stored one).
    public static func parse(_ name: String) throws -> Sport {
        try parse(name, among: SportRegistry.sports)
    }
}
