import Foundation
import ReelworkCore

/// The typed result rows (bowling shots, tennis swings; `ResultTable` lists the columns): written
/// from the result document inside the statement that stores it, read back for CSV.
public struct ResultRowsRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// CTEs to append to the statement that stores a result: they drop rows older attempts wrote and
    /// insert this attempt's rows from the result document (rows without a usable number are
    /// skipped, a repeated number keeps the first) — only if `ownedCTE` returned a row, so a
    /// run that lost its job writes nothing. `$1` is the job id, `$2` the attempt, `resultParam` the
    /// result document (jsonb). Without `insert` (the result has no rows for the table) only the
    /// older rows are dropped, and the statement stays small.
    static func writeCTEs(_ table: ResultTable, resultParam: String, ownedCTE: String, insert: Bool = true) -> String {
        let cleared = """
            , \(table.sqlTable)_cleared AS (
                DELETE FROM \(table.sqlTable) WHERE job_id = $1 AND attempt <> $2 AND EXISTS (SELECT 1 FROM \(ownedCTE))
            )
            """
        guard insert else { return cleared }
        let elements = Self.elements("\(resultParam)::jsonb", key: table.resultKey)
        let typed = table.columns.map { (sql: $0.sqlName, value: Self.extract($0)) }
        let extra = Self.extraColumns(table)
        let names = (["job_id", "attempt"] + typed.map(\.sql) + extra.map(\.sql)).joined(separator: ", ")
        let values = (["$1", "$2"] + typed.map(\.value) + extra.map(\.value)).joined(separator: ",\n               ")
        return cleared + """
            , \(table.sqlTable)_saved AS (
                INSERT INTO \(table.sqlTable) (\(names))
                SELECT \(values)
                FROM \(ownedCTE), \(elements)
                WHERE \(isInteger("e -> '\(table.numberColumn)'", "e ->> '\(table.numberColumn)'")) AND (e ->> '\(table.numberColumn)')::numeric >= 1
                ON CONFLICT DO NOTHING
            )
            """
    }

    /// The rows of a JSON document at `key` as `e`, one each; none when it holds no array there.
    private static func elements(_ document: String, key: String) -> String {
        "jsonb_array_elements(CASE WHEN jsonb_typeof(\(document) -> '\(key)') = 'array' THEN \(document) -> '\(key)' ELSE '[]'::jsonb END) AS e"
    }

    /// The SQL that reads one column's value out of a row's JSON (`e`). Total: a value of the wrong
    /// JSON type (or an integer out of range) becomes NULL instead of an error, because these rows
    /// are written by the statement that stores the whole result, which must not fail on them.
    private static func extract(_ column: ResultTable.Column) -> String {
        let path = "'{\(column.path.joined(separator: ","))}'"
        let json = "e #> \(path)", text = "e #>> \(path)"
        switch column.type {
        case .integer: return "CASE WHEN \(isInteger(json, text)) THEN (\(text))::numeric::integer END"
        case .number: return "CASE WHEN jsonb_typeof(\(json)) = 'number' THEN (\(text))::double precision END"
        case .text: return "CASE WHEN jsonb_typeof(\(json)) = 'string' THEN \(text) END"
        case .boolean: return "CASE WHEN jsonb_typeof(\(json)) = 'boolean' THEN (\(text))::boolean END"
        case .flags: return jsonArray(json)
        }
    }

    private static func isInteger(_ json: String, _ text: String) -> String {
        "jsonb_typeof(\(json)) = 'number' AND abs((\(text))::numeric) < 2147483648"
    }

    /// Columns outside the CSV: reasons for missing metrics, and a shot's trajectory, compacted to
    /// one array per point.
    private static func extraColumns(_ table: ResultTable) -> [(sql: String, value: String)] {
        let unavailable = (sql: "unavailable", value: "CASE WHEN jsonb_typeof(e -> 'unavailable') = 'object' THEN e -> 'unavailable' ELSE '{}'::jsonb END")
        guard table.storesTrajectory else { return [unavailable] }
        let trajectory = """
            (SELECT COALESCE(jsonb_agg(jsonb_build_array(p -> 't', p -> 'x', p -> 'y', p -> 'board', p -> 'distanceFt',
                                                          p -> 'phase', p -> 'interpolated') ORDER BY n), '[]'::jsonb)
                    FROM jsonb_array_elements(\(jsonArray("e -> 'trajectory'"))) WITH ORDINALITY AS q(p, n))
            """
        return [unavailable, (sql: "trajectory", value: trajectory)]
    }

    private static func jsonArray(_ expression: String) -> String {
        "CASE WHEN jsonb_typeof(\(expression)) = 'array' THEN \(expression) ELSE '[]'::jsonb END"
    }

    /// The rows the job's stored result wrote, in order, one value per column of `table`.
    public func rows(jobId: UUID, table: ResultTable) throws -> [[JSONValue?]] {
        let rows = try db.query("""
            SELECT \(Self.selectList(table)) FROM \(table.sqlTable)
            WHERE job_id = $1 AND attempt = (SELECT attempt FROM results WHERE job_id = $1)
            ORDER BY \(ResultTable.Column.snakeCase(table.numberColumn))
            """, [jobId]).rows
        return try rows.map { try Self.values($0, table) }
    }

    /// Most jobs one season export holds: a bigger one is narrowed (a batch, a date range) or asked
    /// for in parts, so one request never builds a file of unbounded size.
    public static let maxExportJobs = 10_000

    /// Every succeeded job matching `search` (its sport's `table`) as one CSV, oldest job first
    /// (a batch's jobs, made together, by file name), one row per shot, swing or arrow, each headed by its job's id and file name:
    /// a corrected job's rows are its newest confirmed version's (`result_confirmations`). Throws
    /// `.invalidRequest` when more than `maxExportJobs` jobs match.
    public func seasonCSV(_ search: JobSearch, table: ResultTable) throws -> String {
        let matching = try DashboardRepository(db).count(search, statuses: [.succeeded], upTo: Self.maxExportJobs)
        guard matching <= Self.maxExportJobs else {
            throw ReelworkError.invalidRequest("more than \(Self.maxExportJobs) succeeded jobs match; narrow the export (a batch, a club, from/to dates)")
        }
        var (conditions, params) = search.conditions()
        conditions.append("j.status = \(JobStatus.succeeded.sql)")
        let job = "j.id AS export_job_id, j.file_name AS export_file_name, j.created_at AS export_created_at"
        let wanted = conditions.joined(separator: " AND ")
        // The confirmed rows are read out of the newest version's JSON by the same expressions that
        // write the typed rows from a result, so both halves have the same columns and types.
        let confirmedColumns = table.columns.map { column in
            column.type == .flags ? "(\(Self.extract(column)))::text AS \(column.sqlName)" : "\(Self.extract(column)) AS \(column.sqlName)"
        }.joined(separator: ", ")
        let rows = try db.query("""
            SELECT \(job), \(Self.selectList(table, alias: "t."))
            FROM jobs j JOIN results r ON r.job_id = j.id JOIN \(table.sqlTable) t ON t.job_id = j.id AND t.attempt = r.attempt
            WHERE \(wanted) AND NOT EXISTS (SELECT 1 FROM result_confirmations c WHERE c.job_id = j.id)
            UNION ALL
            SELECT \(job), \(confirmedColumns)
            FROM jobs j JOIN results r ON r.job_id = j.id
            JOIN LATERAL (SELECT confirmed FROM result_confirmations c WHERE c.job_id = j.id ORDER BY c.version DESC LIMIT 1) c ON true,
            \(Self.elements("c.confirmed", key: table.resultKey))
            WHERE \(wanted)
            ORDER BY export_created_at, export_file_name, export_job_id, \(ResultTable.Column.snakeCase(table.numberColumn))
            """, params).rows
        let lines = try rows.map { row in
            [try row.uuid("export_job_id").uuidString.lowercased(), row["export_file_name"] ?? ""] + table.cells(try Self.values(row, table))
        }
        return CSV.render(header: ["jobId", "fileName"] + table.columns.map(\.name), rows: lines)
    }

    private static func selectList(_ table: ResultTable, alias: String = "") -> String {
        table.columns.map { $0.type == .flags ? "\(alias)\($0.sqlName)::text AS \($0.sqlName)" : "\(alias)\($0.sqlName)" }.joined(separator: ", ")
    }

    /// One stored row's values, one per column of `table`.
    private static func values(_ row: PGRow, _ table: ResultTable) throws -> [JSONValue?] {
        try table.columns.map { column in
            guard let text = row[column.sqlName] else { return nil }
            switch column.type {
            case .integer, .number:
                guard let value = Double(text) else { throw PostgresError(message: "column \(column.sqlName): '\(text)' is not a number") }
                return .number(value)
            case .text: return .string(text)
            case .boolean: return .bool(text == "t" || text == "true")
            case .flags: return try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(text.utf8))
            }
        }
    }

    /// The job's typed rows as CSV, headed by the seeds' field names; a corrected job's newest
    /// confirmed rows (`result_confirmations`) instead of the detected ones.
    public func csv(jobId: UUID, table: ResultTable) throws -> String {
        if let confirmation = try ConfirmationRepository(db, .results).latest(jobId: jobId) {
            return table.csv(rowsOf: confirmation.confirmed)
        }
        return CSV.render(header: table.columns.map(\.name), rows: try rows(jobId: jobId, table: table).map(table.cells))
    }
}
