import Foundation
import Store
import XCTest

/// `reelwork migrate` as an operator runs it.
final class MigrationCommandTests: XCTestCase {
    var stack: TestStack!

    override func setUpWithError() throws {
        stack = try TestStack(migratedByTheCLI: true)  // `reelwork migrate` applies migrations/ to an empty database
    }

    override func tearDown() {
        stack?.shutdown()
    }

    func schemaSnapshot() throws -> [String] {
        try stack.db().query(
            """
            SELECT table_name || '.' || column_name || ':' || data_type AS c FROM information_schema.columns
            WHERE table_schema = 'public' ORDER BY table_name, column_name
            """
        ).rows.compactMap { $0["c"] }
            + stack.db().query("SELECT version || ' ' || checksum || ' ' || applied_at AS m FROM schema_migrations ORDER BY version").rows.compactMap
        { $0["m"] }
    }

    func testMigratingTwiceChangesNothing() throws {
        let before = try schemaSnapshot()
        XCTAssertTrue(before.contains { $0.hasPrefix("jobs.attempt:") }, "the first run created the tables")
        let second = try stack.run(["migrate", "--dir", TestStack.packageRoot.appendingPathComponent("migrations").path])
        XCTAssertEqual(second.status, 0, second.output)
        XCTAssertTrue(second.output.contains("0 applied"), second.output)
        XCTAssertEqual(try schemaSnapshot(), before)
    }

    func testAChangedAppliedMigrationIsRefused() throws {
        let copy = stack.directory.appendingPathComponent("migrations")
        try FileManager.default.copyItem(at: TestStack.packageRoot.appendingPathComponent("migrations"), to: copy)
        let first = copy.appendingPathComponent("0001_foundation.sql")
        try (try String(contentsOf: first, encoding: .utf8) + "\n-- edited after it was applied\n").write(
            to: first, atomically: true, encoding: .utf8)
        try "CREATE TABLE should_not_exist (id int);\n".write(to: copy.appendingPathComponent("9999_later.sql"), atomically: true, encoding: .utf8)
        let before = try schemaSnapshot()

        let refused = try stack.run(["migrate", "--dir", copy.path])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("0001_foundation.sql"), refused.output)
        XCTAssertEqual(try schemaSnapshot(), before, "nothing applied, not even the new file")
    }
}
