/// A state kept by its name, in PostgreSQL's text columns (`jobs.status`, `job_stages.status`,
/// `webhook_deliveries.status`) or in Redis's scripts (a stall's verdict, a run's outcome, a
/// script's answer): the names are the raw values of one enum, written there and nowhere else.
///
/// The convention: SQL and Lua never spell a state. A statement or script that names a fixed state
/// or group interpolates it when its text is built, `status = \(JobStatus.running.sql)` giving
/// `status = 'running'` and `status IN \(JobStatus.waiting.sql)` giving
/// `status IN ('queued', 'retry_scheduled')`; a state that varies per call is bound as a
/// parameter (`status.rawValue`). Constants, not parameters, for the fixed ones: the statement's
/// text stays what a hand would write, and the partial indexes whose `WHERE` names states
/// (`jobs_club_waiting`, `jobs_batch_open`, `jobs_failed`, `webhook_deliveries_due`) serve a query
/// only when it names the same constants, which the generic plan of a cached prepared statement
/// cannot prove of a parameter.
///
/// Raw values are plain names (lower case letters and `_`, checked by `JobStatusGroupsTests`), so a
/// quoted one is a valid literal in SQL and Lua alike, with nothing to escape.
public protocol NamedState: RawRepresentable<String>, CaseIterable, Sendable {}

extension NamedState {
    /// The state as an SQL literal: `'running'`.
    public var sql: String { "'\(rawValue)'" }

    /// The state as a Lua string literal (the same quoting as SQL's): `'failed'`.
    public var lua: String { sql }
}

extension Array where Element: NamedState {
    /// The states as a list for SQL's `IN`: `('queued', 'retry_scheduled')`.
    public var sql: String { "(" + map(\.sql).joined(separator: ", ") + ")" }
}
