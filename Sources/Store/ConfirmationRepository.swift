import Foundation
import ReelworkCore

/// A confirmed version of an archery end (seed 002's adjustment step): the corrections a person
/// sent and the end they give, rescored. Stored beside the detected end, which never changes.
public struct ArcheryConfirmation: Sendable, Equatable {
    public var version: Int
    public var corrections: JSONValue
    public var confirmed: JSONValue
    public var createdAt: Date

    /// `{version, createdAt, corrections, arrows, total, xCount, tens}`: what the API shows.
    public func json() -> JSONValue {
        guard case .object(var fields) = confirmed else { return confirmed }
        fields["version"] = .number(Double(version))
        fields["createdAt"] = .string(ReelworkJSON.formatDate(createdAt))
        fields["corrections"] = corrections
        return .object(fields)
    }
}

/// `archery_confirmations`: versions count from 1 per job, the newest is the current one.
public struct ArcheryConfirmationRepository {
    let db: PGConnection

    public init(_ db: PGConnection) { self.db = db }

    /// Stores the next version of job `jobId`'s confirmation. Two at once both get stored, one after
    /// the other (the loser of a race on a version number takes the next).
    public func add(jobId: UUID, corrections: JSONValue, confirmed: JSONValue) throws -> ArcheryConfirmation {
        let correctionsText = try corrections.encodedText(), confirmedText = try confirmed.encodedText()
        for _ in 0..<5 {
            let rows = try db.query("""
                INSERT INTO archery_confirmations (job_id, version, corrections, confirmed)
                SELECT $1, COALESCE(MAX(version), 0) + 1, $2::jsonb, $3::jsonb FROM archery_confirmations WHERE job_id = $1
                ON CONFLICT DO NOTHING
                RETURNING version, created_at
                """, [jobId, correctionsText, confirmedText]).rows
            if let row = rows.first {
                return ArcheryConfirmation(version: try row.int("version"), corrections: corrections, confirmed: confirmed,
                                           createdAt: try row.date("created_at"))
            }
        }
        throw PostgresError(message: "could not number a confirmation of job \(jobId.uuidString.lowercased()): too many at once")
    }

    /// The newest confirmation of the job, nil when none was made.
    public func latest(jobId: UUID) throws -> ArcheryConfirmation? {
        guard let row = try db.query("""
            SELECT version, corrections, confirmed, created_at FROM archery_confirmations
            WHERE job_id = $1 ORDER BY version DESC LIMIT 1
            """, [jobId]).rows.first else { return nil }
        return ArcheryConfirmation(version: try row.int("version"),
                                   corrections: try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("corrections").utf8)),
                                   confirmed: try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try row.string("confirmed").utf8)),
                                   createdAt: try row.date("created_at"))
    }
}
