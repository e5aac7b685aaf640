/// Refuses option keys a sport does not read. A misspelt key (`threePointDistanceFT`) or another
/// sport's option would otherwise create a job that silently ignores it; the message names the key,
/// the nearest known one when the slip is small, and every key that is known there.
///
/// Each parser names its keys (`check`), and the check refuses only where a client sends options:
/// the coordinator's check binds `refusesUnknown` around the parse. A worker reading a stored job's
/// options parses them as they were accepted, so a job queued before an upgrade still runs.
public enum OptionKeys {
    @TaskLocal public static var refusesUnknown = false

    /// Runs `parse` with unknown keys refused.
    public static func refusingUnknown<T>(_ parse: () throws -> T) rethrows -> T {
        try $refusesUnknown.withValue(true, operation: parse)
    }

    /// Throws `ReelworkError.invalidInput` for the first unknown key (in sorted order, so the
    /// message is the same on every run) of `value` when it is an object and `refusesUnknown` is
    /// bound; anything else passes (the parser that reads `value` refuses a wrong type with its
    /// own message). `path` is the option holding `value` ("ballProfile"), nil at the top of a
    /// sport's options.
    public static func check(_ value: JSONValue?, known: [String], path: String? = nil, sport: Sport? = nil) throws {
        guard refusesUnknown, case .object(let fields)? = value else { return }
        guard let unknown = fields.keys.filter({ !known.contains($0) }).sorted().first else { return }
        let qualified = { (key: String) in path.map { "\($0).\(key)" } ?? key }
        var message = "unknown option '\(qualified(unknown))'"
        if let near = nearest(to: unknown, in: known) { message += " (did you mean '\(qualified(near))'?)" }
        let keys = known.sorted().joined(separator: ", ")
        if let path {
            message += "; option \(path) takes: \(keys)"
        } else {
            message += "; \(sport.map { "\($0.rawValue) options" } ?? "the options") are: \(keys)"
        }
        throw ReelworkError.invalidInput(message)
    }

    /// The known key closest to `key` by edit distance, ignoring case, when the slip is small: at
    /// most two edits, or a third of the key's length for long keys; else a known key of four
    /// letters or more that the key contains (tennis's `dominantHand` on a bowling clip: `hand`).
    /// Nil when nothing is that close (archery's `expectedArrowCount` on a basketball clip).
    static func nearest(to key: String, in known: [String]) -> String? {
        let lowered = key.lowercased()
        let allowed = max(2, lowered.count / 3)
        let scored = known.map { ($0, editDistance(Array(lowered), Array($0.lowercased()))) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed { return best.0 }
        return known.filter { $0.count >= 4 && lowered.contains($0.lowercased()) }.max { $0.count < $1.count }
    }

    /// Levenshtein distance (insertions, deletions and substitutions each cost one).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        var previous = Array(0...b.count)
        for (i, ca) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, cb) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
