import Foundation
import ReelworkCore

/// What the dashboard's jobs page filters by, as SQL over `jobs j`. The same
/// conditions list a page, count the matches for a confirmation, and choose the rows a bulk retry
/// or cancel changes, so a bulk action touches exactly what the page shows for that filter.
public struct JobSearch: Sendable, Equatable {
    public var status: JobStatus?
    public var sport: Sport?
    public var club: String?
    public var batchId: UUID?
    /// `transient`, `invalid_input`, `needs_person`, `internal` or `stalled`.
    public var errorKind: String?
    /// Created at or after.
    public var from: Date?
    /// Created before.
    public var to: Date?
    /// Part of the job's file name or of the last error's text, case-insensitive.
    public var text: String?

    public init(status: JobStatus? = nil, sport: Sport? = nil, club: String? = nil, batchId: UUID? = nil, errorKind: String? = nil,
                from: Date? = nil, to: Date? = nil, text: String? = nil) {
        self.status = status
        self.sport = sport
        self.club = club
        self.batchId = batchId
        self.errorKind = errorKind
        self.from = from
        self.to = to
        self.text = text
    }

    /// The conditions (ANDed, over `j`) and their parameters, numbered from `$1`, with the text
    /// matched as `text` says (the two ways match exactly the same jobs).
    func conditions(text match: TextMatch = .trigramIndexes) -> (sql: [String], params: [(any PGParam)?]) {
        var sql: [String] = []
        var params: [(any PGParam)?] = []
        func add(_ condition: String, _ value: any PGParam) {
            params.append(value)
            sql.append(condition.replacingOccurrences(of: "?", with: "$\(params.count)"))
        }
        if let status { add("j.status = ?", status.rawValue) }
        if let sport { add("j.sport = ?", sport.rawValue) }
        if let club { add("j.club = ?", club) }
        if let batchId { add("j.batch_id = ?", batchId) }
        if let errorKind { add("j.last_error_kind = ?", errorKind) }
        if let from { add("j.created_at >= ?", from) }
        if let to { add("j.created_at < ?", to) }
        if let pattern {
            switch match {
            case .trigramIndexes:
                add("j.id IN (SELECT id FROM jobs WHERE file_name ILIKE ? UNION ALL SELECT id FROM jobs WHERE last_error ILIKE ?)", pattern)
            case .eachRow:
                add("(j.file_name ILIKE ? OR j.last_error ILIKE ?)", pattern)
            }
        }
        return (sql, params)
    }

    /// The text as a LIKE pattern for a literal substring (LIKE's own wildcards in the text match
    /// themselves), or nil when there is no text.
    var pattern: String? {
        guard let text, !text.isEmpty else { return nil }
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return "%\(escaped)%"
    }

    /// How the text is matched. Through the trigram indexes of migrations 0009 and 0014 (the ids of the jobs
    /// whose file name or error contains it) costs in proportion to how many jobs contain it, so it
    /// suits a rare text; testing each row the rest of the query reads, and stopping when it has
    /// enough, suits a text in many jobs. `DashboardRepository.textMatch` chooses.
    public enum TextMatch: Sendable {
        case trigramIndexes
        case eachRow
    }

    /// The text's test of one row of `j`, with the pattern as parameter `$n`.
    static func textTest(_ n: Int) -> String {
        "(j.file_name ILIKE $\(n) OR j.last_error ILIKE $\(n))"
    }
}
