import Foundation
import ReelworkCore
import Threading
import TestSupport
import XCTest

@testable import Store

/// Migrator against a real server. Every test gets a fresh database, since migrations are
/// exactly about a database's starting state.
final class MigratorTests: XCTestCase {
    private var database: TestDatabase!
    private var db: PGConnection!
    private var scratch: URL!

    private static let projectMigrations = URL(fileURLWithPath: ProjectPaths.inRoot("migrations"))

    override func setUpWithError() throws {
        database = try TestDatabase()
        db = try database.connect()
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rw-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        db = nil
        database?.drop()
        if let scratch { try? FileManager.default.removeItem(at: scratch) }
        super.tearDown()
    }

    // MARK: - The real migrations

    func testAppliesTheProjectMigrationsAndCreatesTheTables() throws {
        let expected = try FileManager.default.contentsOfDirectory(atPath: Self.projectMigrations.path)
            .filter { $0.range(of: #"^[0-9]{4}_.+\.sql$"#, options: .regularExpression) != nil }
            .sorted()
        XCTAssertFalse(expected.isEmpty)
        var lines: [String] = []
        let migrator = Migrator(directory: Self.projectMigrations)
        XCTAssertEqual(try migrator.pending(on: db).map(\.fileName), expected)

        let report = try migrator.migrate(on: db) { lines.append($0) }

        XCTAssertEqual(report.applied, expected)
        XCTAssertEqual(report.alreadyApplied, 0)
        XCTAssertTrue(lines.contains { $0.contains(expected[0]) }, "log: \(lines)")
        for table in ["videos", "jobs", "job_stages", "results"] {
            XCTAssertTrue(try exists(table), "table \(table) missing")
        }
        let records = try db.query("SELECT name, checksum FROM schema_migrations ORDER BY version").rows
        XCTAssertEqual(try records.map { try $0.string("name") }, expected)
        // The recorded checksum is the file's SHA-256, as sha256sum computes it.
        let first = Self.projectMigrations.appendingPathComponent(expected[0])
        XCTAssertEqual(try records[0].string("checksum"), try sha256sum(first))
        XCTAssertEqual(try migrator.pending(on: db), [])
    }

    func testSecondRunAppliesNothingAndChangesNothing() throws {
        let migrator = Migrator(directory: Self.projectMigrations)
        let first = try migrator.migrate(on: db)
        let recordsBefore = try snapshot("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")
        let schemaBefore = try schemaFingerprint()

        let second = try migrator.migrate(on: db)

        XCTAssertEqual(second.applied, [])
        XCTAssertEqual(second.alreadyApplied, first.applied.count)
        XCTAssertEqual(try snapshot("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"), recordsBefore)
        XCTAssertEqual(try schemaFingerprint(), schemaBefore)
    }

    // MARK: - Concurrency

    func testTwoMigratorsAtOnceApplyEachFileExactlyOnce() throws {
        // Not idempotent on purpose: applying 0001 twice fails on CREATE TABLE, and every
        // application leaves a row in applied_log.
        try write("0001_log.sql", "CREATE TABLE applied_log (file text); INSERT INTO applied_log VALUES ('0001'); SELECT pg_sleep(0.3);")
        try write("0002_more.sql", "CREATE TABLE more (n int); INSERT INTO applied_log VALUES ('0002');")
        try write("0003_last.sql", "INSERT INTO applied_log VALUES ('0003'); SELECT pg_sleep(0.1);")

        let url = database.url
        let directory = scratch!
        let results = LockedValue<[Result<MigrationReport, any Error>?]>([nil, nil])
        let group = DispatchGroup()
        for index in 0..<2 {
            group.enter()
            Thread {
                defer { group.leave() }
                let report = Result { try Migrator(directory: directory).migrate(on: try PGConnection(url)) }
                results.withLock { $0[index] = report }
            }.start()
        }
        XCTAssertEqual(group.wait(timeout: .now() + 60), .success)

        let applied = try results.withLock { $0 }.map { try XCTUnwrap($0).get() }
        XCTAssertEqual((applied[0].applied + applied[1].applied).sorted(), ["0001_log.sql", "0002_more.sql", "0003_last.sql"])
        XCTAssertEqual(Set(applied[0].applied).intersection(applied[1].applied), [])
        let log = try db.query("SELECT file FROM applied_log ORDER BY file").rows.map { try $0.string("file") }
        XCTAssertEqual(log, ["0001", "0002", "0003"])
    }

    // MARK: - Refusals

    func testChangedAppliedFileIsRefusedAndNothingChanges() throws {
        try write("0001_a.sql", "CREATE TABLE a (n int);")
        try write("0002_b.sql", "CREATE TABLE b (n int);")
        let migrator = Migrator(directory: scratch)
        try migrator.migrate(on: db)
        let recordsBefore = try snapshot("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version")

        try write("0002_b.sql", "CREATE TABLE b (n int); -- edited after the fact")
        try write("0003_c.sql", "CREATE TABLE c (n int);")

        XCTAssertThrowsError(try migrator.migrate(on: db)) { error in
            XCTAssertTrue("\(error)".contains("0002_b.sql"), "\(error)")
            XCTAssertEqual((error as? MigrationError)?.fileName, "0002_b.sql")
        }
        XCTAssertThrowsError(try migrator.pending(on: db))
        XCTAssertFalse(try exists("c"), "a later migration ran despite the refusal")
        XCTAssertEqual(try snapshot("SELECT version, name, checksum, applied_at FROM schema_migrations ORDER BY version"), recordsBefore)
    }

    func testMissingAppliedFileIsRefused() throws {
        try write("0001_a.sql", "CREATE TABLE a (n int);")
        try write("0002_b.sql", "CREATE TABLE b (n int);")
        let migrator = Migrator(directory: scratch)
        try migrator.migrate(on: db)
        try FileManager.default.removeItem(at: scratch.appendingPathComponent("0002_b.sql"))
        try write("0003_c.sql", "CREATE TABLE c (n int);")

        XCTAssertThrowsError(try migrator.migrate(on: db)) { error in
            XCTAssertTrue("\(error)".contains("0002_b.sql"), "\(error)")
            XCTAssertTrue("\(error)".contains("missing"), "\(error)")
        }
        XCTAssertFalse(try exists("c"))
    }

    func testFailingMigrationRollsBackNamesTheFileAndReleasesTheLock() throws {
        try write("0001_ok.sql", "CREATE TABLE ok (n int);")
        try write("0002_broken.sql", "CREATE TABLE half (n int); INSERT INTO half VALUES (1); SELECT 1 / 0;")
        try write("0003_later.sql", "CREATE TABLE later (n int);")
        let migrator = Migrator(directory: scratch)

        XCTAssertThrowsError(try migrator.migrate(on: db)) { error in
            let error = error as? MigrationError
            XCTAssertEqual(error?.fileName, "0002_broken.sql")
            XCTAssertTrue(error?.message.contains("0002_broken.sql") == true, "\(String(describing: error))")
            XCTAssertTrue(error?.message.contains("division by zero") == true, "\(String(describing: error))")
            XCTAssertEqual(error?.underlying?.sqlState, "22012")
        }
        XCTAssertTrue(try exists("ok"))
        XCTAssertFalse(try exists("half"), "the failed migration was not rolled back")
        XCTAssertFalse(try exists("later"), "a migration after the failed one ran")
        XCTAssertEqual(try db.query("SELECT version FROM schema_migrations ORDER BY version").rows.map { try $0.int("version") }, [1])

        // Fixed, it applies from another session while this one stays open: had the lock
        // leaked, lock_timeout would make this fail instead of hanging.
        try write("0002_broken.sql", "CREATE TABLE half (n int); INSERT INTO half VALUES (1);")
        let other = try database.connect()
        try other.execute("SET lock_timeout = '3s'")
        let report = try migrator.migrate(on: other)
        XCTAssertEqual(report.applied, ["0002_broken.sql", "0003_later.sql"])
        XCTAssertEqual(report.alreadyApplied, 1)
        XCTAssertTrue(try exists("later"))
    }

    func testMisnamedAndDuplicateFilesAreErrorsOtherFilesAreIgnored() throws {
        try write("0001_ok.sql", "CREATE TABLE ok (n int);")
        try write("README.md", "not a migration")
        try write("notes.txt", "SELECT 1/0;")
        try write("01_short.sql", "CREATE TABLE short (n int);")
        let migrator = Migrator(directory: scratch)
        XCTAssertThrowsError(try migrator.migrate(on: db)) { error in
            XCTAssertEqual((error as? MigrationError)?.fileName, "01_short.sql")
            XCTAssertTrue("\(error)".contains("01_short.sql"), "\(error)")
        }
        XCTAssertFalse(try exists("schema_migrations"), "a refused run touched the database")

        try FileManager.default.removeItem(at: scratch.appendingPathComponent("01_short.sql"))
        try write("0001_again.sql", "CREATE TABLE again (n int);")
        XCTAssertThrowsError(try migrator.migrate(on: db)) { error in
            XCTAssertTrue("\(error)".contains("0001_again.sql") && "\(error)".contains("0001_ok.sql"), "\(error)")
        }

        try FileManager.default.removeItem(at: scratch.appendingPathComponent("0001_again.sql"))
        XCTAssertEqual(try migrator.migrate(on: db).applied, ["0001_ok.sql"])
    }

    func testRefusesToRunInsideATransaction() throws {
        try write("0001_ok.sql", "CREATE TABLE ok (n int);")
        try db.execute("BEGIN")
        XCTAssertThrowsError(try Migrator(directory: scratch).migrate(on: db))
        try db.execute("ROLLBACK")
        XCTAssertFalse(try exists("ok"))
    }

    // MARK: - Helpers

    private func write(_ name: String, _ text: String) throws {
        try Data(text.utf8).write(to: scratch.appendingPathComponent(name))
    }

    private func exists(_ table: String) throws -> Bool {
        try db.query("SELECT to_regclass($1) IS NOT NULL AS present", [table]).rows[0].bool("present")
    }

    /// Every value of every row, as text, to compare before and after.
    private func snapshot(_ sql: String) throws -> [[String?]] {
        try db.query(sql).rows.map { $0.values }
    }

    /// Tables, columns and indexes of the public schema.
    private func schemaFingerprint() throws -> [[String?]] {
        try snapshot("""
            SELECT c.relname, c.relkind::text, a.attname, format_type(a.atttypid, a.atttypmod)
            FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
            WHERE n.nspname = 'public' ORDER BY 1, 3
            """)
    }

    private func sha256sum(_ file: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.arguments = [file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
    }
}
