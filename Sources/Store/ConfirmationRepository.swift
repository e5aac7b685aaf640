import Foundation
import ReelworkCore

/// A table of confirmed versions (`result_confirmations`, or a sport's own such as
/// `archery_confirmations`): versions count from 1 per job, the newest is the current one.
public struct ConfirmationRepository {
    /// A table of confirmations: `results`, every sport's corrected rows, or the one a sport's own
    /// correction route names (`ConfirmationRoute.confirmationsTable`), so that the store links no
    /// sport module, as with `ResultTable`.
    public struct Table: Sendable, Equatable {
        public let name: String

        /// The rows corrected through `/v1/jobs/{id}/corrections`, whatever the sport.
        public static let results = Table("result_confirmations")

        /// `name` comes from code (a plug-in), never from a request; it is put into SQL as it is,
        /// so anything but a plain lower-case identifier is a programming error.
        public init(_ name: String) {
            precondition(!name.isEmpty && name.allSatisfy { $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0) },
                         "confirmation table '\(name)' is not a plain identifier")
            self.name = name
        }
    }

    let db: PGConnection
    let table: Table

    public init(_ db: PGConnection, _ table: Table) { (self.db, self.table) = (db, table) }

    /// Stores the next version of job `jobId`'s confirmation. Two at once both get stored, one after
    /// the other (the loser of a race on a version number takes the next).
    public func add(jobId: UUID, corrections: JSONValue, confirmed: JSONValue) throws -> Confirmation {
        let correctionsText = try corrections.encodedText(), confirmedText = try confirmed.encodedText()
        for _ in 0..<5 {
            let rows = try db.query("""
                INSERT INTO \(table.name) (job_id, version, corrections, confirmed)
                SELECT $1, COALESCE(MAX(version), 0) + 1, $2::jsonb, $3::jsonb FROM \(table.name) WHERE job_id = $1
                ON CONFLICT DO NOTHING
                RETURNING version, created_at
                """, [jobId, correctionsText, confirmedText]).rows
            if let row = rows.first {
                return Confirmation(version: try row.int("version"), corrections: corrections, confirmed: confirmed,
                                           createdAt: try row.date("created_at"))
            }
        }
        throw PostgresError(message: "could not number a confirmation of job \(jobId.uuidString.lowercased()): too many at once")
    }

    /// The newest confirmation of the job, nil when none was made.
    public func latest(jobId: UUID) throws -> Confirmation? {
        try first("""
            SELECT version, corrections, confirmed, created_at FROM \(table.name)
            WHERE job_id = $1 ORDER BY version DESC LIMIT 1
            """, [jobId])
    }

    /// The job's confirmation numbered `version`, nil when there is none (version 0: before the first).
    /// Versions are dense, so the one before a stored version is always `version - 1`, whatever was
    /// stored since.
    public func version(_ version: Int, jobId: UUID) throws -> Confirmation? {
        try first("""
            SELECT version, corrections, confirmed, created_at FROM \(table.name)
            WHERE job_id = $1 AND version = $2
            """, [jobId, version])
    }

    private func first(_ sql: String, _ parameters: [(any PGParam)?]) throws -> Confirmation? {
        guard let row = try db.query(sql, parameters).rows.first else { return nil }
        return Confirmation(version: try row.int("version"),
                                   corrections: try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("corrections").utf8)),
                                   confirmed: try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("confirmed").utf8)),
                                   createdAt: try row.date("created_at"))
    }
}
