import Foundation
import ReelworkCore

/// A job as a row of the dashboard's jobs page: the job and its video's file name.
public struct JobListing: Sendable {
    public var job: JobView
    public var fileName: String? { job.fileName }
}

/// Failed jobs that share an error kind and message, as the failed page groups them.
public struct FailureGroup: Sendable, Equatable {
    public var club: String
    public var errorKind: String?
    public var message: String?
    public var count: Int
    public var lastFailedAt: Date?
}

/// Jobs that ended in one minute.
public struct ThroughputMinute: Sendable, Equatable {
    public var minute: Date
    public var succeeded: Int
    public var failed: Int
}

/// The dashboard's reads and bulk actions over `jobs`. Every read is bounded (a page, a group
/// limit, an hour, a count's ceiling), and each is served by an index of migration 0009, so the
/// pages stay fast with millions of jobs (loadtest/dashboard-bench.sh measures them). `club` (a
/// club key's own) restricts every query; nil is an operator's view.
public struct DashboardRepository {
    let db: PGConnection
    /// The most candidates a text search tests one by one, newest first, before it asks the
    /// trigram indexes instead.
    let textScanLimit: Int

    public init(_ db: PGConnection, textScanLimit: Int = 20_000) {
        self.db = db
        self.textScanLimit = textScanLimit
    }

    /// A page of jobs matching `search`, newest first, after the job `cursor` (the last of the previous page).
    public func jobs(_ search: JobSearch, limit: Int, after cursor: UUID?) throws -> (jobs: [JobListing], more: Bool) {
        try jobs(search, limit: limit, after: cursor, text: try search.pattern.map { try textMatch($0, rowsWanted: limit + 1) } ?? .trigramIndexes)
    }

    /// The page with the text matched as `match` says.
    func jobs(_ search: JobSearch, limit: Int, after cursor: UUID?, text match: JobSearch.TextMatch) throws -> (jobs: [JobListing], more: Bool) {
        // A text in many jobs (a word of many file names) would have the indexes list every one of
        // them before the newest are chosen; reading the newest jobs in order finds a page sooner.
        if let pattern = search.pattern, match == .eachRow, let page = try newestWithText(search, pattern: pattern, limit: limit, after: cursor) {
            return page
        }
        var (conditions, params) = search.conditions(text: .trigramIndexes)
        JobRepository.addCursor(cursor, club: search.club, alias: "j.", to: &conditions, &params)
        params.append(limit + 1)
        let rows = try db.query("""
            SELECT j.* FROM jobs j
            \(Self.whereClause(conditions)) ORDER BY j.created_at DESC, j.id DESC LIMIT $\(params.count)
            """, params).rows
        return try Self.page(rows, limit: limit)
    }

    /// How to match `pattern` when `rowsWanted` matches are needed (nil: every one). For a few
    /// matches: row by row when the planner's statistics say the text is common enough that reading
    /// rows in order finds them within `textScanLimit` rows, and sooner than the indexes would list
    /// all its matches (a row read and tested costs about a quarter of a match listed by the
    /// indexes: `rowsReadPerMatchListed`). For every match: row by row when the indexes would list more than
    /// `textScanLimit`. Both ways give the same jobs; this only chooses the faster.
    func textMatch(_ pattern: String, rowsWanted: Int?) throws -> JobSearch.TextMatch {
        let jobs = try db.query(SQL.estimatedJobs).rows[0].double("jobs")
        // Never analysed (a new database): few rows, where either way is quick.
        guard jobs > 0 else { return .eachRow }
        let share = try estimatedRows("jobs WHERE file_name ILIKE $1", pattern) / jobs
            + estimatedRows("jobs WHERE last_error ILIKE $1", pattern) / jobs
        let matches = share * jobs
        guard let rowsWanted else { return matches > Double(textScanLimit) ? .eachRow : .trigramIndexes }
        let rowsToRead = Double(rowsWanted) / max(share, 1e-9)
        return rowsToRead <= Double(textScanLimit) && rowsToRead <= Self.rowsReadPerMatchListed * matches ? .eachRow : .trigramIndexes
    }

    /// How many rows reading in order tests in the time the trigram indexes list one match
    /// (dashboard-bench's EXPLAIN ANALYZE and page timings on a million jobs, docs/benchmarks/dashboard.md). The
    /// estimate of a text's share can be off by a third or more, so a choice near the boundary
    /// leans to reading in order, whose cost `textScanLimit` bounds.
    static let rowsReadPerMatchListed = 4.0

    /// The planner's estimate of how many rows of `from` (a table and a condition on `$1`) the
    /// condition keeps. `ALTER … SET STATISTICS` in migration 0010 makes the text columns' samples
    /// large enough to tell 1 in 100 from 1 in 1,000.
    private func estimatedRows(_ from: String, _ pattern: String) throws -> Double {
        let plan = try db.query("EXPLAIN (FORMAT JSON) SELECT 1 FROM \(from)", [pattern]).rows[0].string("QUERY PLAN")
        guard let document = try JSONSerialization.jsonObject(with: Data(plan.utf8)) as? [[String: Any]],
              let rows = (document.first?["Plan"] as? [String: Any])?["Plan Rows"] as? NSNumber else { return 0 }
        return rows.doubleValue
    }

    /// The page from testing the text on the newest jobs that match the rest of `search`, up to
    /// `textScanLimit` of them, or nil when those held too few and older candidates remain.
    private func newestWithText(_ search: JobSearch, pattern: String, limit: Int, after cursor: UUID?) throws -> (jobs: [JobListing], more: Bool)? {
        var rest = search
        rest.text = nil
        var (conditions, params) = rest.conditions()
        JobRepository.addCursor(cursor, club: search.club, alias: "j.", to: &conditions, &params)
        let candidates = "SELECT * FROM jobs j \(Self.whereClause(conditions)) ORDER BY j.created_at DESC, j.id DESC LIMIT \(textScanLimit)"
        // The candidates come newest first, each tested in turn, so PostgreSQL stops reading them
        // at the page's last match.
        let textParam = params.count + 1
        let rows = try db.query("""
            SELECT j.* FROM (\(candidates)) j
            WHERE \(JobSearch.textTest(textParam)) ORDER BY j.created_at DESC, j.id DESC LIMIT $\(textParam + 1)
            """, params + [pattern as (any PGParam)?, limit + 1]).rows
        if rows.count <= limit, try db.query("SELECT count(*) AS n FROM (\(candidates)) j", params).rows[0].int("n") == textScanLimit {
            return nil
        }
        return try Self.page(rows, limit: limit)
    }

    /// The conditions of `search` for an action on every job it matches, with its text matched the
    /// faster way for that.
    private func conditionsForEveryMatch(_ search: JobSearch) throws -> (sql: [String], params: [(any PGParam)?]) {
        guard let pattern = search.pattern else { return search.conditions() }
        return search.conditions(text: try textMatch(pattern, rowsWanted: nil))
    }

    static func page(_ rows: [PGRow], limit: Int) throws -> (jobs: [JobListing], more: Bool) {
        let listings = try rows.prefix(limit).map { JobListing(job: try JobRepository.view($0)) }
        return (listings, rows.count > limit)
    }

    /// How many jobs match `search` and are in one of `statuses` (all statuses when nil), counting
    /// no further than `upTo` + 1 when it is given: counting every one of a million jobs would read
    /// them all, while "more than `upTo`" is found in the first few.
    public func count(_ search: JobSearch, statuses: [JobStatus]? = nil, upTo: Int? = nil) throws -> Int {
        try count(search, statuses: statuses, upTo: upTo, text: try search.pattern.map { try textMatch($0, rowsWanted: upTo.map { $0 + 1 }) })
    }

    /// The count with the text matched as `match` says (nil: there is no text).
    func count(_ search: JobSearch, statuses: [JobStatus]?, upTo: Int?, text match: JobSearch.TextMatch?) throws -> Int {
        var (conditions, params) = search.conditions(text: match ?? .trigramIndexes)
        if let statuses {
            params.append("{\(statuses.map(\.rawValue).joined(separator: ","))}")
            conditions.append("j.status = ANY($\(params.count)::text[])")
        }
        let limit = upTo.map { " LIMIT \($0 + 1)" } ?? ""
        return try db.query("""
            SELECT count(*) AS n FROM (SELECT 1 FROM jobs j \(Self.whereClause(conditions))\(limit)) matching
            """, params).rows[0].int("n")
    }

    /// Statuses a bulk retry takes back into the queue; a bulk cancel's are the open ones.
    public static let retryable = JobStatus.retryable
    public static let cancellable = JobStatus.open

    /// Requeues every failed or cancelled job matching `search` with fresh budgets (like the API's
    /// retry) and opens their completed batches again. Returns what to enqueue.
    public func retry(_ search: JobSearch) throws -> [QueueEntry] {
        var (conditions, params) = try conditionsForEveryMatch(search)
        conditions.append("j.status IN \(Self.retryable.sql)")
        return try db.transaction { db in
            let rows = try db.query("""
                UPDATE jobs SET \(JobRepository.SQL.retrySet)
                WHERE id IN (SELECT j.id FROM jobs j \(Self.whereClause(conditions)))
                RETURNING id, club, priority, attempt, batch_id
                """, params).rows
            try BatchCompletion.reopen(Set(rows.compactMap { $0.optionalUUID("batch_id") }), on: db)
            return try rows.map(JobRepository.entry)
        }
    }

    /// Cancels every waiting job matching `search` (with their webhooks) and asks the running ones
    /// to stop. Returns the waiting ones' ids (Redis must forget them) and how many were asked.
    public func cancel(_ search: JobSearch, by: String = Cancel.byOperator) throws -> (cancelled: [UUID], requested: Int) {
        var (conditions, params) = try conditionsForEveryMatch(search)
        let matching = "SELECT j.id FROM jobs j \(Self.whereClause(conditions))"
        params.append(by)
        let byParam = "$\(params.count)"
        let (rows, requested) = try db.transaction { db in
            let rows = try db.query("""
                WITH changed AS (
                    UPDATE jobs SET status = \(JobStatus.cancelled.sql), finished_at = now(), updated_at = now(), next_attempt_at = NULL, \(Cancel.waitingSet(byParam))
                    WHERE id IN (\(matching)) AND status IN \(JobStatus.waiting.sql) RETURNING *
                )\(WebhookOutbox.jobEvents(from: "changed"))
                SELECT id, sport FROM changed
                """, params).rows
            let requested = try db.query("""
                UPDATE jobs SET cancel_requested = true, updated_at = now(), cancelled_by = \(byParam)
                WHERE id IN (\(matching)) AND status = \(JobStatus.running.sql)
                """, params).affectedRows
            return (rows, requested)
        }
        for (sport, jobs) in Dictionary(grouping: try rows.map { try $0.string("sport") }, by: { $0 }) {
            FinishedJobs.count(sport: sport, status: .cancelled, errorKind: nil, jobs: jobs.count)
        }
        return (try rows.map { try $0.uuid("id") }, requested)
    }

    /// Failed jobs grouped by club, error kind and message, largest groups first.
    public func failureGroups(club: String?, limit: Int) throws -> [FailureGroup] {
        // Grouped by the message's MD5 (last_error_md5), as the index jobs_failed holds it, so the
        // groups are counted from the index alone; then one job of each group is read for the
        // message's text (two messages with one MD5 would have to be made so on purpose, and would
        // only share a row here: retrying a group matches the text itself).
        try db.query(SQL.failureGroups, [club, limit]).rows.map {
            FailureGroup(club: try $0.string("club"), errorKind: $0["last_error_kind"], message: $0["last_error"], count: try $0.int("n"),
                         lastFailedAt: $0.optionalDate("last_at"))
        }
    }

    /// Requeues the failed jobs of one group (club, kind and message exactly; a nil kind or message matches NULL).
    public func retryGroup(club: String, errorKind: String?, message: String?) throws -> [QueueEntry] {
        try db.transaction { db in
            let rows = try db.query(SQL.retryGroup, [club, errorKind, message]).rows
            try BatchCompletion.reopen(Set(rows.compactMap { $0.optionalUUID("batch_id") }), on: db)
            return try rows.map(JobRepository.entry)
        }
    }

    /// Failed jobs per club (the overview's column).
    public func failedByClub(club: String?) throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for row in try db.query(SQL.failedByClub, [club]).rows {
            counts[try row.string("club")] = try row.int("n")
        }
        return counts
    }

    /// Every club with a key (a club key: its own).
    public func clubNames(club: String?) throws -> [String] {
        try db.query(SQL.clubNames, [club]).rows.map { try $0.string("name") }
    }

    /// Jobs that ended in each of the last `minutes` minutes (succeeded, and failed), oldest first,
    /// with empty minutes present.
    public func throughput(club: String?, minutes: Int) throws -> [ThroughputMinute] {
        try db.query(SQL.throughput, [club, minutes]).rows.map {
            ThroughputMinute(minute: try $0.date("minute"), succeeded: try $0.int("succeeded"), failed: try $0.int("failed"))
        }
    }

    static func whereClause(_ conditions: [String]) -> String {
        conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
    }
}
