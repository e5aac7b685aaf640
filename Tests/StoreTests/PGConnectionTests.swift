import Foundation
import ReelworkCore
import TestSupport
import XCTest

@testable import Store

/// PGConnection against a real server: parameters, errors, transactions, session setup.
final class PGConnectionTests: XCTestCase {
    // Written by the class set-up and tear-down, read by the tests: XCTest runs them one after another.
    nonisolated(unsafe) private static var database: TestDatabase?
    nonisolated(unsafe) private static var setupError: Error?

    override class func setUp() {
        super.setUp()
        do { database = try TestDatabase() } catch { setupError = error }
    }

    override class func tearDown() {
        database?.drop()
        database = nil
        super.tearDown()
    }

    private var db: PGConnection!

    override func setUpWithError() throws {
        if let error = Self.setupError { throw error }
        db = try Self.database!.connect()
    }

    override func tearDown() {
        db = nil
        super.tearDown()
    }

    private struct Marker: Error {}

    func testParametersRoundTripThroughATable() throws {
        let tricky = "It's \"quoted\" — ünïcødé 🎥 '); DROP TABLE params; --\nline two\\"
        let id = UUID()
        let when = Date(timeIntervalSince1970: 1_795_239_130.123456)
        try db.execute("""
            CREATE TABLE params (s text, missing text, i int, big bigint, small int, d float8,
                                 b bool, u uuid, t timestamptz, absent int)
            """)
        let insert = try db.query(
            "INSERT INTO params VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
            [tricky, nil, -42, Int64.max, Int32.min, 0.1, true, id, when, nil])
        XCTAssertEqual(insert.affectedRows, 1)

        let rows = try db.query("SELECT * FROM params").rows
        XCTAssertEqual(rows.count, 1)
        let row = rows[0]
        XCTAssertEqual(try row.string("s"), tricky)
        XCTAssertNil(row["missing"])
        XCTAssertEqual(try row.int("i"), -42)
        XCTAssertEqual(try row.int("big"), Int(Int64.max))
        XCTAssertEqual(try row.int("small"), Int(Int32.min))
        XCTAssertEqual(try row.double("d"), 0.1)
        XCTAssertEqual(try row.bool("b"), true)
        XCTAssertEqual(try row.uuid("u"), id)
        XCTAssertEqual(try row.date("t").timeIntervalSince1970, when.timeIntervalSince1970, accuracy: 0.000_001)
        XCTAssertNil(row.optionalInt("absent"))
        XCTAssertNil(row.optionalDate("missing"))

        // The tricky value must also work as a value to match on, not just to store.
        let found = try db.query("SELECT count(*) AS n FROM params WHERE s = $1", [tricky]).rows[0]
        XCTAssertEqual(try found.int("n"), 1)
    }

    func testScalarParametersKeepTheirValues() throws {
        let row = try db.query(
            "SELECT $1::float8 AS nan, $2::float8 AS inf, $3::float8 AS tiny, $4::bool AS f, $5::text AS empty, $6::text AS null",
            [Double.nan, -Double.infinity, 1e-300, false, "", nil]).rows[0]
        XCTAssertTrue(try row.double("nan").isNaN)
        XCTAssertEqual(try row.double("inf"), -.infinity)
        XCTAssertEqual(try row.double("tiny"), 1e-300)
        XCTAssertEqual(try row.bool("f"), false)
        XCTAssertEqual(row["empty"], "")   // empty string is not NULL
        XCTAssertNil(row["null"])
    }

    func testReadingANullOrMissingColumnThrowsNamingIt() throws {
        let row = try db.query("SELECT NULL::int AS nothing, 'x' AS word").rows[0]
        XCTAssertThrowsError(try row.int("nothing")) { error in
            XCTAssertTrue("\(error)".contains("\"nothing\""), "\(error)")
        }
        XCTAssertThrowsError(try row.string("nope")) { error in
            XCTAssertTrue("\(error)".contains("\"nope\""), "\(error)")
        }
        XCTAssertThrowsError(try row.int("word")) { error in
            XCTAssertTrue("\(error)".contains("\"word\""), "\(error)")
        }
    }

    func testTimestampsComeBackInUTCWhateverTheInputOffset() throws {
        let row = try db.query("SELECT '2026-11-21 10:32:10.5+05:00'::timestamptz AS t").rows[0]
        XCTAssertEqual(row["t"], "2026-11-21 05:32:10.5+00")
        XCTAssertEqual(try row.date("t"), Date(timeIntervalSince1970: 1_795_239_130.5))
    }

    func testSQLErrorCarriesServerMessageAndSQLState() throws {
        XCTAssertThrowsError(try db.query("SELECT * FROM no_such_table")) { error in
            guard let error = error as? PostgresError else { return XCTFail("not a PostgresError: \(error)") }
            XCTAssertEqual(error.sqlState, "42P01")
            XCTAssertTrue(error.message.contains("relation \"no_such_table\" does not exist"), error.message)
            XCTAssertEqual(error.kind, .internal)
            XCTAssertFalse(error.isUniqueViolation)
        }
        XCTAssertThrowsError(try db.query("SELECT 1 / $1::int", [0])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.sqlState, "22012")
            XCTAssertEqual(error?.kind, .invalidInput)
            XCTAssertTrue(error?.message.contains("division by zero") == true)
        }
        // An error ends the statement, not the session.
        XCTAssertEqual(try db.query("SELECT 7 AS n").rows[0].int("n"), 7)
        XCTAssertTrue(db.isHealthy)
    }

    func testUniqueViolationIsDetected() throws {
        try db.execute("CREATE TABLE uniq (k text PRIMARY KEY, v int CHECK (v > 0))")
        try db.query("INSERT INTO uniq VALUES ($1, 1)", ["a"])
        XCTAssertThrowsError(try db.query("INSERT INTO uniq VALUES ($1, 2)", ["a"])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.isUniqueViolation, true)
            XCTAssertEqual(error?.sqlState, "23505")
            XCTAssertEqual(error?.kind, .invalidInput)
        }
        // Other constraint violations are not unique violations.
        XCTAssertThrowsError(try db.query("INSERT INTO uniq VALUES ($1, -1)", ["b"])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.sqlState, "23514")
            XCTAssertEqual(error?.isUniqueViolation, false)
        }
    }

    func testTransactionCommitsOrRollsBackOnThrow() throws {
        try db.execute("CREATE TABLE tx (n int)")
        XCTAssertThrowsError(try db.transaction { tx -> Void in
            try tx.query("INSERT INTO tx VALUES (1)")
            throw Marker()
        }) { error in
            XCTAssertTrue(error is Marker, "the body's own error must come back, got \(error)")
        }
        XCTAssertEqual(try count("tx"), 0)

        let value = try db.transaction { tx -> Int in
            try tx.query("INSERT INTO tx VALUES (2)")
            return 5
        }
        XCTAssertEqual(value, 5)
        XCTAssertEqual(try count("tx"), 1)
    }

    func testNestedTransactionRollsBackOnlyItsOwnWork() throws {
        try db.execute("CREATE TABLE nested (n int)")
        try db.transaction { outer in
            try outer.query("INSERT INTO nested VALUES (1)")
            XCTAssertThrowsError(try outer.transaction { inner -> Void in
                try inner.query("INSERT INTO nested VALUES (2)")
                throw Marker()
            })
            try outer.query("INSERT INTO nested VALUES (3)")
        }
        let values = try db.query("SELECT n FROM nested ORDER BY n").rows.map { try $0.int("n") }
        XCTAssertEqual(values, [1, 3])
    }

    func testTransactionWithSwallowedErrorDoesNotPretendToCommit() throws {
        try db.execute("CREATE TABLE swallowed (n int)")
        XCTAssertThrowsError(try db.transaction { tx in
            try tx.query("INSERT INTO swallowed VALUES (1)")
            _ = try? tx.query("SELECT * FROM no_such_table")
        })
        XCTAssertEqual(try count("swallowed"), 0)
        XCTAssertTrue(db.isIdle)
    }

    func testExecuteRunsSeveralStatementsAndAffectedRowsCounts() throws {
        try db.execute("CREATE TABLE multi (n int); INSERT INTO multi VALUES (1), (2), (3);")
        XCTAssertEqual(try count("multi"), 3)
        XCTAssertEqual(try db.query("UPDATE multi SET n = n + 1 WHERE n >= $1", [2]).affectedRows, 2)
        XCTAssertEqual(try db.query("CREATE TABLE other (n int)").affectedRows, 0)
        XCTAssertEqual(try db.query("SELECT * FROM multi").affectedRows, 3)
    }

    func testSessionIsSetUp() throws {
        let row = try db.query("SELECT current_setting('application_name') AS app, current_setting('TimeZone') AS tz, "
            + "current_setting('client_encoding') AS enc").rows[0]
        XCTAssertEqual(row["app"], "reelwork")
        XCTAssertEqual(row["tz"], "UTC")
        XCTAssertEqual(row["enc"], "UTF8")

        // A name given in the connection string wins over the default.
        let named = try PGConnection(Self.database!.url + (Self.database!.url.contains("://") ? "?application_name=worker-7" : " application_name=worker-7"))
        XCTAssertEqual(try named.query("SELECT current_setting('application_name') AS app").rows[0]["app"], "worker-7")
    }

    func testConnectFailureIsTransientWithLibpqsMessage() {
        XCTAssertThrowsError(try PGConnection("host=127.0.0.1 port=1 connect_timeout=2")) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .transient)
            XCTAssertTrue(error?.message.contains("127.0.0.1") == true, "\(String(describing: error))")
        }
    }

    func testTerminatedSessionGivesTransientErrorAndUnhealthyConnection() throws {
        let victim = try Self.database!.connect()
        let pid = try victim.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
        XCTAssertTrue(try db.query("SELECT pg_terminate_backend($1) AS ok", [pid]).rows[0].bool("ok"))
        try waitUntilGone(pid)
        XCTAssertThrowsError(try victim.query("SELECT 1")) { error in
            XCTAssertEqual((error as? PostgresError)?.kind, .transient, "\(error)")
        }
        XCTAssertFalse(victim.isHealthy)
    }

    func testNulBytesAreRefusedNotTruncated() throws {
        XCTAssertThrowsError(try db.query("SELECT $1::text", ["a\u{0}b"])) { error in
            let error = error as? PostgresError
            XCTAssertEqual(error?.kind, .invalidInput)
            XCTAssertTrue(error?.message.contains("$1") == true)
        }
    }

    func testCopyIsRefusedAndTheConnectionStaysUsable() throws {
        XCTAssertThrowsError(try db.execute("COPY (SELECT 1) TO STDOUT"))
        XCTAssertEqual(try db.query("SELECT 8 AS n").rows[0].int("n"), 8)
        try db.execute("CREATE TABLE copied (n int)")
        XCTAssertThrowsError(try db.execute("COPY copied FROM STDIN"))
        XCTAssertEqual(try db.query("SELECT 9 AS n").rows[0].int("n"), 9)
        XCTAssertEqual(try count("copied"), 0)
    }

    func testARepeatedStatementIsPreparedOnceAndKeepsItsResults() throws {
        let sql = "SELECT $1::int + 1 AS n, $2::text AS label"
        for value in [1, 41, -3] {
            let row = try db.query(sql, [value, "v\(value)"]).rows[0]
            XCTAssertEqual(try row.int("n"), value + 1)
            XCTAssertEqual(row["label"], "v\(value)")
        }
        XCTAssertEqual(db.preparedStatementCount, 1)
        let onServer = try db.query("SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1", [sql]).rows[0]
        XCTAssertEqual(try onServer.int("n"), 1, "the server holds the statement once, not once per call")
        // NULL parameters still bind as NULL through the prepared statement.
        XCTAssertNil(try db.query(sql, [nil, nil]).rows[0]["n"])
    }

    func testAPreparedSelectStarFollowsATableThatChangedShape() throws {
        try db.execute("CREATE TABLE shape (a int); INSERT INTO shape VALUES (1)")
        XCTAssertEqual(try db.query("SELECT * FROM shape").rows[0]["a"], "1")
        // Another session migrates the table under the prepared statement.
        try Self.database!.connect().execute("ALTER TABLE shape ADD COLUMN b int DEFAULT 7")
        XCTAssertEqual(try db.query("SELECT * FROM shape").rows[0]["b"], "7", "outside a transaction it is re-prepared and run")

        try Self.database!.connect().execute("ALTER TABLE shape ADD COLUMN c int DEFAULT 8")
        // Inside a transaction the failed statement has aborted it: the error reaches the caller,
        // and the next transaction works.
        XCTAssertThrowsError(try db.transaction { tx in try tx.query("SELECT * FROM shape") }) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "0A000", "\(error)")
        }
        XCTAssertEqual(try db.transaction { tx in try tx.query("SELECT * FROM shape") }.rows[0]["c"], "8")
    }

    func testStatementsBeyondTheLimitRunUnprepared() throws {
        let limit = PGConnection.preparedStatementLimit
        for i in 0..<(limit + 5) {
            XCTAssertEqual(try db.query("SELECT \(i) AS n, $1::int AS m", [i]).rows[0].int("n"), i)
        }
        XCTAssertEqual(db.preparedStatementCount, limit)
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM pg_prepared_statements").rows[0].int("n"), limit)
    }

    func testAFailedPrepareIsNotRemembered() throws {
        XCTAssertThrowsError(try db.query("SELECT * FROM later"))
        XCTAssertEqual(db.preparedStatementCount, 0)
        try db.execute("CREATE TABLE later (n int); INSERT INTO later VALUES (5)")
        XCTAssertEqual(try db.query("SELECT * FROM later").rows[0]["n"], "5")
    }

    private func count(_ table: String) throws -> Int {
        try db.query("SELECT count(*) AS n FROM \(table)").rows[0].int("n")
    }

    private func waitUntilGone(_ pid: Int) throws {
        for _ in 0..<100 {
            let alive = try db.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1", [pid]).rows[0].int("n")
            if alive == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("backend \(pid) did not exit")
    }
}
