import Foundation

/// Clubs as records: those with a key (`clubs`) and those an operator submitted jobs for (a job's
/// `club` names it; operators may name any club). Both are clubs an operator may pause.
public struct ClubRepository {
    let db: PGConnection

    public init(_ db: PGConnection) { self.db = db }

    enum SQL {
        /// Whether $1 has a club row or a job.
        static let exists = "SELECT EXISTS (SELECT 1 FROM clubs WHERE name = $1) OR EXISTS (SELECT 1 FROM jobs WHERE club = $1) AS known"
    }

    /// Whether `name` is a club: it has a row in `clubs` or at least one job (index `jobs_club_created`).
    public func exists(_ name: String) throws -> Bool {
        let rows = try db.query(SQL.exists, [name]).rows
        return try rows.first?.bool("known") ?? false
    }
}
