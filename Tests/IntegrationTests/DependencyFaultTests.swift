import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A worker's dependencies failing it (issue 15, "bad input" of the scale-out): a coordinator it
/// cannot reach, a key the coordinator refuses, a Redis that refuses writes, a PostgreSQL out of
/// disk. Each time, with real servers really failing: the worker logs the fault once, saying what
/// it is and what to do, retries with backoff (a few errors, not thousands), counts it on its
/// `/metrics`, and no job is lost or failed: every job submitted reaches exactly one terminal
/// state, `succeeded`, once the fault is gone.
final class DependencyFaultTests: QueueStackTestCase {
    static let token = "scrape-token-for-the-fault-tests"
    /// A worker on another machine: always over HTTP, its own storage folder (empty).
    var http: [String: String] {
        ["REELWORK_VIDEO_SOURCE": "http", "REELWORK_STORAGE_DIR": stack.directory.appendingPathComponent("worker-disk").path]
    }

    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging([MetricsSettings.Env.scrapeToken: Self.token]) { $1 }
    }

    override func tearDown() {
        if let run = testRun, run.totalFailureCount > 0, let stack { print(stack.logTail(lines: 60)) }
        super.tearDown()
    }

    func testAWorkerWhoseKeyTheCoordinatorRefusesHandsTheJobBackAndClaimsNoMore() throws {
        let made = try stack.run(["keys", "create", "--worker", "--label", "revoked by the test", "--format", "json"])
        let created = try JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any]
        let (keyID, key) = try (XCTUnwrap(created?["id"] as? String), XCTUnwrap(created?["key"] as? String))
        // A key the coordinator never issued: the worker checks it before its first claim.
        let stranger = try FaultyWorker(stack, http.merging(["REELWORK_API_KEY": "rw_worker_" + String(repeating: "a", count: 52)]) { $1 })
        let keyed = try FaultyWorker(stack, http.merging(["REELWORK_API_KEY": key]) { $1 })
        let first = try submitReadingJobs(1, from: 1)[0]
        XCTAssertEqual(try stack.waitForTerminal(first.id, timeout: 30).status, .succeeded, "the key works at first")
        try stranger.awaitLog("[coordinator unauthorized]")
        XCTAssertEqual(try attempts(byWorker: stranger.process).count, 0, "a worker whose key is refused claims nothing")

        XCTAssertEqual(try stack.run(["keys", "revoke", keyID]).status, 0)
        let jobs = try submitReadingJobs(3, from: 10)
        try keyed.awaitLog("[coordinator unauthorized]")
        let log = keyed.log
        XCTAssertTrue(log.contains("refused the worker's key (401)") && log.contains("REELWORK_API_KEY") && log.contains("reelwork keys"), log)
        try keyed.assertBackedOff(from: .coordinator, .unauthorized)

        let handedBack = try attempts(of: jobs)
        XCTAssertEqual(handedBack.count, 1, "one job met the refusal; the worker claimed no more: \(handedBack)")
        XCTAssertEqual(handedBack.first?.outcome, "handed_back")
        XCTAssertTrue(handedBack.first?.error?.contains("refused the worker's key (401)") ?? false, "\(handedBack)")
        for job in jobs { XCTAssertEqual(try stack.status(job.id), "queued", "waiting, never failed for a key") }

        // The fix: a worker with a good key. Every job runs once, none counted as a failure.
        try FaultyWorker(stack, http).assertStarted()
        try assertEachSucceededOnce(jobs)
        XCTAssertEqual(try keyed.scrape().value(MetricName.dependencyFailing, ["dependency": "coordinator"]), 1, "still failing")
        keyed.process.terminate()
        XCTAssertTrue(stack.waitUntil(timeout: 10) { !keyed.process.isRunning }, "a waiting worker stops at once")
        XCTAssertEqual(keyed.process.terminationStatus, 0)
    }

    func testAWorkerThatCannotReachTheCoordinatorWaitsForItAndLosesNoJob() throws {
        let worker = try FaultyWorker(stack, http)
        XCTAssertEqual(try stack.waitForTerminal(try submitReadingJobs(1, from: 1)[0].id, timeout: 30).status, .succeeded)
        // Jobs that wait while the coordinator goes away, then are released to the worker.
        let queue = JobQueue(prefix: stack.queuePrefix)
        try queue.pause(club: nil, on: stack.redis())
        let jobs = try submitReadingJobs(3, from: 10)
        stack.stopCoordinator()
        try queue.resume(club: nil, on: stack.redis())

        try worker.awaitLog("[coordinator unreachable]")
        XCTAssertTrue(worker.log.contains("cannot reach the coordinator at \(stack.coordinatorURL) to read videos"), worker.log)
        XCTAssertTrue(worker.log.contains("REELWORK_COORDINATOR_URL"), worker.log)
        try worker.assertBackedOff(from: .coordinator, .unreachable)
        let handedBack = try attempts(of: jobs)
        XCTAssertEqual(handedBack.map(\.outcome), ["handed_back"], "one job met the outage; no more were claimed")
        for job in jobs { XCTAssertEqual(try stack.status(job.id), "queued") }

        try stack.startCoordinator()
        try assertEachSucceededOnce(jobs)
        try worker.awaitLog("[coordinator recovered]")
        XCTAssertEqual(try worker.scrape().value(MetricName.dependencyFailing, ["dependency": "coordinator"]), 0)
    }

    func testARedisThatRefusesWritesIsWaitedOutAndLosesNoJob() throws {
        let redis = try stack.redis()
        let maxmemory = try XCTUnwrap(redis.command("CONFIG", "GET", "maxmemory").array?.last?.string)
        defer {
            _ = try? stack.redis().command("CONFIG", "SET", "maxmemory", maxmemory)
            _ = try? stack.redis().command("REPLICAOF", "NO", "ONE")
        }
        let worker = try FaultyWorker(stack)

        // Out of memory (maxmemory under noeviction): the running job finishes (ending a run is
        // allowed then), the waiting ones are not claimed until Redis takes writes again.
        let running = try stack.submitNoop(video: video, seconds: 1.5, tag: 1)
        let waiting = try (2...3).map { try stack.submitNoop(video: video, seconds: 0, tag: $0) }
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(running.id) == "running" })
        try redis.command("CONFIG", "SET", "maxmemory", "1")
        try worker.awaitLog("[redis out_of_memory]")
        XCTAssertTrue(worker.log.contains("refuses writes: it is out of memory") && worker.log.contains("noeviction"), worker.log)
        XCTAssertEqual(try stack.waitForTerminal(running.id, timeout: 20).status, .succeeded, "a running job finishes")
        try worker.assertBackedOff(from: .redis, .outOfMemory)
        XCTAssertEqual(try attempts(of: waiting).count, 0, "nothing claimed while Redis refuses writes")
        try redis.command("CONFIG", "SET", "maxmemory", maxmemory)
        try assertEachSucceededOnce([running] + waiting)
        try worker.awaitLog("[redis recovered]")

        // A read-only replica: every write is refused, the running job's end and heartbeats too.
        let second = try stack.submitNoop(video: video, seconds: 1.5, tag: 4)
        let waitingToo = try stack.submitNoop(video: video, seconds: 0, tag: 5)
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try stack.status(second.id) == "running" })
        try redis.command("REPLICAOF", "127.0.0.1", String(try FreePort.next()))
        try worker.awaitLog("[redis read_only]")
        XCTAssertTrue(worker.log.contains("REPLICAOF NO ONE"), worker.log)
        try worker.assertBackedOff(from: .redis, .readOnly)
        try redis.command("REPLICAOF", "NO", "ONE")
        try assertEachSucceededOnce([second, waitingToo])
        XCTAssertEqual(episodeLines(worker.log, "[redis out_of_memory]"), 1)
    }

    // MARK: helpers

    /// Diagnostic jobs that read their video first (the `probe` stage), as an analysis does.
    func submitReadingJobs(_ count: Int, from tag: Int) throws -> [JobView] {
        try (0..<count).map { try stack.submitNoop(video: video, seconds: 0, tag: tag + $0, extra: ["probe": .bool(true)]) }
    }

    struct Attempt {
        var job: String, outcome: String, error: String?
    }

    func attempts(of jobs: [JobView]) throws -> [Attempt] {
        try stack.db().query(
            "SELECT job_id, coalesce(outcome, 'open') AS outcome, error FROM job_attempts WHERE job_id = ANY($1::uuid[])",
            ["{" + jobs.map { $0.id.uuidString.lowercased() }.joined(separator: ",") + "}"]
        )
        .rows.map { Attempt(job: try $0.string("job_id"), outcome: try $0.string("outcome"), error: $0["error"]) }
    }

    /// Attempts run by the worker process `process` (worker ids are `host-pid/slot`).
    func attempts(byWorker process: Process) throws -> [String] {
        try stack.db().query("SELECT job_id FROM job_attempts WHERE worker_id LIKE $1", ["%-\(process.processIdentifier)/%"])
            .rows.map { try $0.string("job_id") }
    }

    /// Each job ended `succeeded`, with one result and one succeeded attempt, no error counted;
    /// its other attempts (if any) were handed back or lost, never failed.
    func assertEachSucceededOnce(_ jobs: [JobView], file: StaticString = #filePath, line: UInt = #line) throws {
        for job in jobs {
            let done = try stack.waitForTerminal(job.id, timeout: 30)
            XCTAssertEqual(done.status, .succeeded, "\(job.id): \(done.lastError ?? "")", file: file, line: line)
            XCTAssertEqual(done.failures, 0, "\(job.id): \(done.attempts.map(\.outcome))", file: file, line: line)
            XCTAssertEqual(done.attempts.filter { $0.outcome == "succeeded" }.count, 1, file: file, line: line)
            XCTAssertEqual(
                try stack.db().query("SELECT count(*) AS n FROM results WHERE job_id = $1", [job.id]).rows[0]["n"], "1",
                file: file, line: line)
        }
    }
}

/// How many times a fault's episode line appears in a log (its first line, and a reminder every minute).
func episodeLines(_ log: String, _ tag: String) -> Int {
    log.components(separatedBy: "\n").filter { $0.contains(tag) }.count
}

/// A worker of a test stack with one slot, serving `/metrics` (to the scrape token, which needs
/// no database), and what it logs.
struct FaultyWorker {
    let stack: TestStack
    let process: Process
    let index: Int
    let metrics: URL

    init(_ stack: TestStack, _ environment: [String: String] = [:]) throws {
        let port = try FreePort.next()
        self.stack = stack
        index = stack.workers.count
        metrics = URL(string: "http://127.0.0.1:\(port)/metrics")!
        process = try stack.startWorker(
            slots: 1,
            extraEnvironment: environment.merging([
                MetricsSettings.Env.workerBind: "127.0.0.1:\(port)", MetricsSettings.Env.scrapeToken: DependencyFaultTests.token
            ]) { $1 })
        try assertStarted()
    }

    /// Returns once the worker's `/metrics` answers.
    func assertStarted() throws {
        let metrics = self.metrics
        XCTAssertTrue(
            stack.waitUntil(timeout: 60) { (try? HTTP.get(metrics, key: DependencyFaultTests.token))?.1 == 200 },
            "the worker's /metrics never answered:\n\(stack.logTail())")
    }

    var log: String { stack.workerLog(index) }

    func scrape() throws -> MetricsScrape { try MetricsScrape.fetch(metrics, key: DependencyFaultTests.token) }

    func errors(_ dependency: DependencyFault.Dependency, _ cause: DependencyFault.Cause) throws -> Double {
        try scrape().value(MetricName.dependencyErrors, ["dependency": dependency.rawValue, "cause": cause.rawValue])
    }

    func awaitLog(_ text: String, timeout: TimeInterval = 30, file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertTrue(stack.waitUntil(timeout: timeout) { log.contains(text) }, "never logged \(text):\n\(stack.logTail())", file: file, line: line)
    }

    /// The worker keeps meeting the fault, with backoff: its error count grows (it retries), but
    /// by a handful a second, not the thousands a retry loop without a wait would make; the
    /// fault is logged once, not once per error; and `/metrics` says the dependency is failing.
    func assertBackedOff(
        from dependency: DependencyFault.Dependency, _ cause: DependencyFault.Cause,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let started = Date()
        var count = try errors(dependency, cause)
        XCTAssertTrue(
            try stack.waitUntil(timeout: 15) {
                count = try errors(dependency, cause)
                return count >= 4
            }, "it retried: \(count) errors", file: file, line: line)
        let seconds = Date().timeIntervalSince(started) + 1
        // Slot backoff from 0.25 s, at least half of each wait (jitter); the lease keeper at most
        // every 0.5 s (TestStack.fastQueue): well under 8 errors a second either way.
        XCTAssertLessThanOrEqual(
            count, 4 + 8 * seconds, "\(count) errors in about \(Int(seconds)) s: a retry loop without backoff",
            file: file, line: line)
        XCTAssertEqual(episodeLines(log, "[\(dependency.rawValue) \(cause.rawValue)]"), 1, "logged once:\n\(log)", file: file, line: line)
        XCTAssertEqual(try scrape().value(MetricName.dependencyFailing, ["dependency": dependency.rawValue]), 1, file: file, line: line)
    }
}

/// PostgreSQL out of disk, for real: the stack's database lives in a tablespace on a small tmpfs
/// (its write-ahead log stays on the server's own disk, so the server itself keeps running, as
/// with a full data volume), which the test fills until PostgreSQL answers 53100 (disk_full).
final class PostgresDiskFullTests: XCTestCase {
    var disk: SmallDisk?
    var stack: TestStack?

    override func setUpWithError() throws {
        guard let admin = ProcessInfo.processInfo.environment["REELWORK_TEST_DATABASE_URL"] else {
            throw XCTSkip("set REELWORK_TEST_DATABASE_URL (scripts/test.sh does)")
        }
        disk = try SmallDisk(megabytes: 32, admin: admin)
        stack = try TestStack(
            settings: TestStack.fastQueue.merging([MetricsSettings.Env.scrapeToken: DependencyFaultTests.token]) { $1 },
            tablespace: disk?.tablespace)
        try stack?.startCoordinator()
    }

    override func tearDown() {
        if let run = testRun, run.totalFailureCount > 0, let stack { print(stack.logTail(lines: 60)) }
        stack?.shutdown()  // drops the database first: the tablespace must be empty to go
        disk?.remove()
        super.tearDown()
    }

    func testAPostgresOutOfDiskIsWaitedOutAndNoJobFails() throws {
        let stack = try XCTUnwrap(stack)
        let video = try stack.uploadTinyClip()
        // Connections opened before the disk fills: a new session may need to write a cache file
        // (`pg_internal.init`) into the full tablespace, and PostgreSQL then refuses the login.
        let db = try stack.db()
        let keeperConnection = try stack.db()
        let worker = try FaultyWorker(stack)
        let queue = JobQueue(prefix: stack.queuePrefix)
        try queue.pause(club: nil, on: stack.redis())
        let jobs = try (0..<3).map { try stack.submitNoop(video: video, seconds: 0, tag: $0) }
        try db.execute("CREATE TABLE filler (b text) WITH (autovacuum_enabled = off); ALTER TABLE filler ALTER COLUMN b SET STORAGE PLAIN")
        var refused: PostgresError?
        for _ in 0..<100 where refused == nil {
            do {
                // About 2 MB a statement, uncompressed (PLAIN): rows of 1,920 random characters.
                try db.execute("INSERT INTO filler SELECT repeat(md5(random()::text), 60) FROM generate_series(1, 1000)")
            } catch let error as PostgresError {
                refused = error
            }
        }
        XCTAssertEqual(refused?.sqlState, "53100", "the disk filled up: \(refused.map { "\($0)" } ?? "never refused")")
        // And it stays full: CI once saw the worker's claims go through 1.4 s after its first
        // refusal, space freed by something in the server, so whatever comes free is taken again.
        // The keeper takes what the refused statement above left free before it returns.
        let keeper = DiskFullKeeper(keeperConnection)
        defer { keeper.stop() }
        try queue.resume(club: nil, on: stack.redis())

        try worker.awaitLog("[postgres disk_full]")
        let log = worker.log
        XCTAssertTrue(
            log.contains("is out of disk space") && log.contains("No space left on device") && log.contains("free space on the database volume"), log)
        try worker.assertBackedOff(from: .postgres, .diskFull)
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM job_attempts").rows[0]["n"], "0", "no attempt could be recorded")
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM jobs WHERE status = 'queued'").rows[0]["n"], "3")

        keeper.stop()
        try db.execute("DROP TABLE filler")
        for job in jobs {
            let done = try stack.waitForTerminal(job.id, timeout: 30)
            XCTAssertEqual(done.status, .succeeded, done.lastError ?? "")
            XCTAssertEqual(done.failures, 0)
            XCTAssertEqual(done.attempts.map(\.outcome), ["succeeded"])
            XCTAssertEqual(done.attempt, 1, "the claims PostgreSQL refused to start gave their attempt numbers back")
        }
        try worker.awaitLog("[postgres recovered]")
        XCTAssertEqual(try worker.scrape().value(MetricName.dependencyFailing, ["dependency": "postgres"]), 0)
    }
}

/// Keeps a full tablespace full: on a thread of its own, 2 MB go into `filler` every 20 ms, so
/// any space that comes free is taken again before a worker's retry (every 0.25 s or more) can
/// use it. Its connection is opened before it is needed and used only by that thread.
final class DiskFullKeeper: @unchecked Sendable {
    private let connection: PGConnection
    private let stopped = NSCondition()
    private var stopping = false
    private var running = true

    init(_ connection: PGConnection) {
        self.connection = connection
        takeWhatIsFree()
        Thread.detachNewThread { [self] in
            while !isStopping() {
                Thread.sleep(forTimeInterval: 0.02)
                takeWhatIsFree()
            }
            stopped.lock()
            running = false
            stopped.broadcast()
            stopped.unlock()
        }
    }

    /// 2 MB a try: on a full disk it fails at its first new page, and when space came free it takes
    /// all of it at once (the pages of a refused insert stay allocated).
    private func takeWhatIsFree() {
        _ = try? connection.execute("INSERT INTO filler SELECT repeat(md5(random()::text), 60) FROM generate_series(1, 1000)")
    }

    private func isStopping() -> Bool {
        stopped.lock()
        defer { stopped.unlock() }
        return stopping
    }

    /// Returns once the thread has made its last insert.
    func stop() {
        stopped.lock()
        stopping = true
        while running { stopped.wait() }
        stopped.unlock()
    }
}

/// A tmpfs of a few megabytes, mounted for one test, and a PostgreSQL tablespace on it. Needs
/// root (the tests run as root: PostgreSQL is started with runuser); where mounting is not
/// allowed the test is skipped, saying why.
final class SmallDisk {
    let directory: URL
    let tablespace: String
    private let admin: String
    private var mounted = false
    private var created = false

    init(megabytes: Int, admin: String) throws {
        self.admin = admin
        let token = UUID().uuidString.lowercased().prefix(8)
        directory = URL(fileURLWithPath: "/tmp/reelwork-small-disk-\(token)")
        tablespace = "rw_small_\(token)"
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let mount = try Self.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", directory.path])
        guard mount.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw XCTSkip("cannot mount a tmpfs here (root with CAP_SYS_ADMIN is needed): \(mount.output)")
        }
        mounted = true
        do {
            let owner = try Self.run("/bin/chown", ["postgres:postgres", directory.path])
            guard owner.status == 0 else { throw TestSetupError(description: "chown: \(owner.output)") }
            try PGConnection(admin).execute("CREATE TABLESPACE \(tablespace) LOCATION '\(directory.path)'")
            created = true
        } catch {
            remove()
            throw error
        }
    }

    /// Drops the tablespace (its databases must be gone), unmounts, removes the mount point.
    func remove() {
        if created { _ = try? PGConnection(admin).execute("DROP TABLESPACE IF EXISTS \(tablespace)") }
        created = false
        if mounted { _ = try? Self.run("/bin/umount", [directory.path]) }
        mounted = false
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { remove() }

    private static func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
