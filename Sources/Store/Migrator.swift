import Foundation

/// What a `Migrator.migrate` run did.
public struct MigrationReport: Sendable, Equatable {
    /// File names applied by this run, in order.
    public let applied: [String]
    /// How many migrations were already recorded as applied before this run.
    public let alreadyApplied: Int
}

/// Brings a database's schema up to date from a directory of `NNNN_name.sql` files.
///
/// Each file runs once, in version order, inside its own transaction together with its record
/// in `schema_migrations`, so a file is either fully applied and recorded or not at all.
/// Files must therefore not contain BEGIN/COMMIT or statements that cannot run in a
/// transaction (CREATE INDEX CONCURRENTLY). An applied file must never change: its SHA-256 is
/// recorded and a run refuses to start if a file differs from it or is gone.
public struct Migrator: Sendable {
    public let directory: URL

    /// Session-level advisory lock serialising concurrent runs: "reelwork" in ASCII.
    static let lockKey: Int64 = 0x7265_656c_776f_726b

    public init(directory: URL) {
        self.directory = directory
    }

    /// The migrations in the directory, sorted by version. Reads files only.
    public func migrations() throws -> [Migration] {
        try Migration.load(from: directory)
    }

    /// The migrations not yet applied, in order. Changes nothing.
    /// - Throws: `MigrationError` as `migrate` would (misnamed file, changed or missing applied file).
    public func pending(on connection: PGConnection) throws -> [Migration] {
        let files = try migrations()
        let present = try connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present").rows[0]
        guard try present.bool("present") else { return files }
        return try check(files, on: connection).pending
    }

    /// Applies every pending migration, in order, each in its own transaction.
    ///
    /// Safe to run again (nothing is re-applied) and from several processes at once: runs take
    /// turns on an advisory lock held for the whole run and released before returning, also on
    /// error. If an applied file changed or is missing, nothing is applied. If a migration
    /// fails, it is rolled back entirely, later ones are not attempted, and earlier ones of
    /// this run stay applied.
    /// - Throws: `MigrationError` naming the file, with PostgreSQL's message when SQL failed.
    @discardableResult
    public func migrate(on connection: PGConnection, log: (String) -> Void = { _ in }) throws -> MigrationReport {
        let files = try migrations()
        // Each migration must commit on its own and the lock is per session: an enclosing
        // transaction would break both promises.
        guard connection.isIdle else {
            throw MigrationError(message: "Migrator.migrate must not run inside a transaction")
        }
        _ = try sql(on: connection) { try $0.query("SELECT pg_advisory_lock($1)", [Migrator.lockKey]) }
        // If the connection broke, the server already released the lock with the session.
        defer { _ = try? connection.query("SELECT pg_advisory_unlock($1)", [Migrator.lockKey]) }

        // Created under the lock, so two first runs cannot race on it.
        try sql(on: connection) {
            try $0.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version    integer PRIMARY KEY,
                    name       text NOT NULL,
                    checksum   text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """)
        }
        let (pending, alreadyApplied) = try check(files, on: connection)
        var applied: [String] = []
        for migration in pending {
            log("applying migration \(migration.fileName)")
            let started = Date()
            do {
                let checksum = try Migrator.checksum(of: migration, on: connection)
                try connection.transaction { tx in
                    try tx.execute(migration.sql)
                    try tx.query(
                        "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
                        [migration.version, migration.fileName, checksum])
                }
            } catch let error as PostgresError {
                throw MigrationError(
                    message: "migration \(migration.fileName) failed and was rolled back: \(error.message)",
                    fileName: migration.fileName, underlying: error)
            }
            log("applied migration \(migration.fileName) in \(String(format: "%.2f", Date().timeIntervalSince(started)))s")
            applied.append(migration.fileName)
        }
        log("database schema is up to date: \(alreadyApplied + applied.count) migrations, \(applied.count) applied now")
        return MigrationReport(applied: applied, alreadyApplied: alreadyApplied)
    }

    /// Compares the files with `schema_migrations` and returns what is left to apply.
    /// Throws if an applied migration's file is missing or no longer matches its checksum.
    private func check(_ files: [Migration], on connection: PGConnection) throws -> (pending: [Migration], alreadyApplied: Int) {
        let records = try sql(on: connection) {
            try $0.query("SELECT version, name, checksum FROM schema_migrations ORDER BY version").rows
        }
        let byVersion = Dictionary(uniqueKeysWithValues: files.map { ($0.version, $0) })
        var appliedVersions = Set<Int>()
        for record in records {
            let version = try record.int("version")
            let recordedName = try record.string("name")
            guard let file = byVersion[version] else {
                throw MigrationError(
                    message: "migration \(recordedName) (version \(version)) is recorded as applied but its file is missing from \(directory.path)",
                    fileName: recordedName)
            }
            let recorded = try record.string("checksum")
            let current = try sql(on: connection) { try Migrator.checksum(of: file, on: $0) }
            guard recorded == current else {
                throw MigrationError(
                    message: "migration \(file.fileName) was changed after it was applied (recorded sha256 \(recorded), file now \(current)); "
                        + "restore it and put the change in a new migration",
                    fileName: file.fileName)
            }
            appliedVersions.insert(version)
        }
        return (files.filter { !appliedVersions.contains($0.version) }, appliedVersions.count)
    }

    /// SHA-256 (hex) of the file's exact bytes, computed by PostgreSQL (no crypto library here).
    private static func checksum(of migration: Migration, on connection: PGConnection) throws -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hexBytes: [UInt8] = []
        hexBytes.reserveCapacity(migration.contents.count * 2)
        for byte in migration.contents {
            hexBytes.append(digits[Int(byte >> 4)])
            hexBytes.append(digits[Int(byte & 0x0f)])
        }
        let hex = String(decoding: hexBytes, as: UTF8.self)
        return try connection.query("SELECT encode(sha256(decode($1, 'hex')), 'hex') AS checksum", [hex])
            .rows[0].string("checksum")
    }

    /// Runs bookkeeping SQL, wrapping PostgreSQL's error so every error `migrate` throws is a
    /// `MigrationError` (its kind says whether retrying can help).
    private func sql<T>(on connection: PGConnection, _ body: (PGConnection) throws -> T) throws -> T {
        do {
            return try body(connection)
        } catch let error as PostgresError {
            throw MigrationError(message: "migrations in \(directory.path): \(error.message)", underlying: error)
        }
    }
}
