import ReelworkCore

/// The pieces of a sport's one-line summary of a result (`SportPlugin.summary(of:)`).
public enum ResultSummary {
    /// Shown when a result holds nothing to summarise (a diagnostic run's, a sport without a plug-in's).
    public static let nothing = "-"

    /// "3 shots", "1 swing": how many rows `value` holds, with `noun` in the singular or plural;
    /// nil when `value` is no array.
    public static func count(_ value: JSONValue?, _ noun: String) -> String? {
        guard case .array(let rows)? = value else { return nil }
        return "\(rows.count) \(noun)\(rows.count == 1 ? "" : "s")"
    }
}
