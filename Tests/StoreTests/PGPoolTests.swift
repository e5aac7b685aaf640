import Foundation
import ReelworkCore
import TestSupport
import XCTest

@testable import Store

/// PGPool against a real server: concurrency limits, own threads, recovery, cancellation.
final class PGPoolTests: XCTestCase {
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

    private var database: TestDatabase!

    override func setUpWithError() throws {
        if let error = Self.setupError { throw error }
        database = Self.database
    }

    private struct Marker: Error {}

    func testRunsConcurrentWorkFromManyTasksOnItsOwnThreads() async throws {
        let pool = PGPool(conninfo: database.url, size: 3)
        defer { pool.close() }
        let running = LockedCounter()
        let pids = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await pool.withConnection { connection in
                        running.enter()
                        defer { running.leave() }
                        running.record(Thread.current.name ?? "")
                        let row = try connection.query("SELECT pg_backend_pid() AS pid, $1::int AS echo, pg_sleep(0.05)", [index]).rows[0]
                        XCTAssertEqual(try row.int("echo"), index)
                        return try row.int("pid")
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        XCTAssertEqual(pids.count, 24)
        XCTAssertLessThanOrEqual(Set(pids).count, 3, "more sessions than the pool's size")
        XCTAssertLessThanOrEqual(running.peak, 3, "more bodies at once than the pool's size")
        XCTAssertGreaterThanOrEqual(running.peak, 2, "the pool never ran two bodies at once")
        let threads = running.recorded
        XCTAssertEqual(threads.count, 24)
        XCTAssertTrue(threads.allSatisfy { $0.hasPrefix("reelwork-pg-") }, "bodies ran on \(Set(threads))")
    }

    func testRecoversAfterItsConnectionsAreKilled() async throws {
        let pool = PGPool(conninfo: database.url, size: 2)
        defer { pool.close() }
        let admin = try database.connectToServer()

        // Open both connections: two bodies overlapping forces two sessions.
        let before = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.2)").rows[0].int("pid") }
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        XCTAssertEqual(before.count, 2)

        for pid in before {
            XCTAssertTrue(try admin.query("SELECT pg_terminate_backend($1) AS ok", [pid]).rows[0].bool("ok"))
        }
        for pid in before {
            try waitUntilGone(pid, admin: admin)
        }

        // Each broken connection may cost a caller one transient failure, and no more: the pool drops
        // it and opens a fresh one. Both may cost one in a row, because the check before a job only sees
        // a session the server has already closed its end of, and a terminated backend leaves
        // pg_stat_activity a moment before its socket closes.
        var failures = 0
        var after = Set<Int>()
        for _ in 0..<6 {
            while true {
                do {
                    after.insert(try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid") })
                    break
                } catch let error as PostgresError {
                    XCTAssertEqual(error.kind, .transient, "a killed connection must read as transient: \(error)")
                    failures += 1
                    if failures > before.count { throw error }
                }
            }
        }
        XCTAssertLessThanOrEqual(failures, before.count, "more failures than broken connections")
        XCTAssertFalse(after.isEmpty)
        XCTAssertTrue(after.isDisjoint(with: before), "a killed session was reused: \(after) vs \(before)")
    }

    func testBodyErrorsComeBackAndTheConnectionIsKept() async throws {
        let pool = PGPool(conninfo: database.url, size: 1)
        defer { pool.close() }
        let first = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid") }
        do {
            _ = try await pool.withConnection { _ -> Int in throw Marker() }
            XCTFail("expected the body's error")
        } catch {
            XCTAssertTrue(error is Marker, "got \(error)")
        }
        do {
            _ = try await pool.withConnection { try $0.query("SELECT * FROM no_such_table") }
            XCTFail("expected a PostgresError")
        } catch let error as PostgresError {
            XCTAssertEqual(error.sqlState, "42P01")
        }
        let again = try await pool.withConnection { try $0.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid") }
        XCTAssertEqual(again, first, "an ordinary error must not cost the connection")
    }

    func testATransactionLeftOpenIsRolledBackBeforeReuse() async throws {
        let pool = PGPool(conninfo: database.url, size: 1)
        defer { pool.close() }
        try await pool.withConnection { try $0.execute("CREATE TABLE leaked (n int)") }
        try await pool.withConnection { try $0.execute("BEGIN; INSERT INTO leaked VALUES (1)") }
        let (count, idle) = try await pool.withConnection { connection in
            (try connection.query("SELECT count(*) AS n FROM leaked").rows[0].int("n"), connection.isIdle)
        }
        XCTAssertEqual(count, 0)
        XCTAssertTrue(idle)
    }

    func testOpenFailureIsTransient() async {
        let pool = PGPool(conninfo: "host=127.0.0.1 port=1 connect_timeout=2", size: 1)
        defer { pool.close() }
        do {
            _ = try await pool.withConnection { _ in 1 }
            XCTFail("expected a connection error")
        } catch let error as PostgresError {
            XCTAssertEqual(error.kind, .transient)
        } catch {
            XCTFail("expected a PostgresError, got \(error)")
        }
    }

    func testCancelledWaiterNeverRunsItsBody() async throws {
        let pool = PGPool(conninfo: database.url, size: 1)
        defer { pool.close() }
        let started = LockedCounter()
        // The busy body holds the only connection until the test lets it go, after the waiter's
        // answer: a cancellation that waited for the connection would find it held for 10 s.
        let letGo = DispatchSemaphore(value: 0)
        let busy = Task {
            try await pool.withConnection { connection in
                started.record("busy")
                _ = try connection.query("SELECT 1")
                return letGo.wait(timeout: .now() + 10) == .success
            }
        }
        try await Self.waitUntil { started.recorded == ["busy"] }
        let waiter = Task { try await pool.withConnection { _ in started.record("ran") } }
        try await Self.waitUntil { pool.waitingCount == 1 }  // the second waits in line
        waiter.cancel()
        do {
            try await waiter.value
            XCTFail("a cancelled waiter must not run")
        } catch {
            XCTAssertTrue(error is CancellationError, "got \(error)")
        }
        letGo.signal()
        let heldUntilLetGo = try await busy.value
        XCTAssertTrue(heldUntilLetGo, "cancellation waited for the busy connection")
        try await pool.withConnection { _ in }
        XCTAssertEqual(started.recorded, ["busy"], "the cancelled body never ran")
    }

    func testClosedPoolRefusesWork() async {
        let pool = PGPool(conninfo: database.url, size: 1)
        pool.close()
        do {
            _ = try await pool.withConnection { _ in 1 }
            XCTFail("a closed pool must refuse work")
        } catch {
            XCTAssertTrue("\(error)".contains("closed"), "\(error)")
        }
    }

    private func waitUntilGone(_ pid: Int, admin: PGConnection) throws {
        for _ in 0..<100 {
            let alive = try admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1", [pid]).rows[0].int("n")
            if alive == 0 { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        XCTFail("backend \(pid) did not exit")
    }

    /// Polls `condition` every 5 ms (for at most 10 s): a wait on what the test needs, not a fixed sleep.
    static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition() {
            guard Date() < deadline else { throw TestSetupError(description: "condition not met in 10 s") }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
    }
}
