import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

/// A real Reelwork stack for one test: a fresh PostgreSQL database, a private Redis key prefix, a
/// temporary storage directory, and `reelwork coordinator` / `reelwork worker` processes started
/// from the built binary. Servers come from scripts/test.sh (REELWORK_TEST_*); processes this
/// stack starts are stopped by PID in `shutdown()`.
final class TestStack {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let binary = packageRoot.appendingPathComponent(".build/debug/reelwork").path

    let adminURL: String
    let databaseName: String
    let databaseURL: String
    let redisURL: String
    let queuePrefix: String
    let directory: URL
    let storageDir: URL
    let port: Int
    /// An operator key made at setup; every process of the stack presents it (REELWORK_API_KEY).
    private(set) var operatorKey = ""
    private(set) var coordinator: Process?
    private(set) var workers: [Process] = []
    private var logs: [URL] = []

    var coordinatorURL: String { "http://127.0.0.1:\(port)" }

    /// Settings every process of this stack gets (e.g. `fastQueue`).
    let settings: [String: String]
    /// On the PostgreSQL configured as shipped (fsync on), which the chaos tests may kill.
    let durable: Bool

    /// `durable`: use the test PostgreSQL with fsync on (scripts/test.sh starts both).
    /// `tablespace`: where the stack's database keeps its tables (a test that fills a small disk).
    /// `migratedByTheCLI`: the database starts empty and `reelwork migrate` applies migrations/, as
    /// an operator's first install does; otherwise it is a copy of a migrated one
    /// (`TestDatabase.migratedTemplate`), a fraction of the time.
    init(settings: [String: String] = [:], durable: Bool = false, tablespace: String? = nil, migratedByTheCLI: Bool = false) throws {
        self.settings = settings
        self.durable = durable
        let env = ProcessInfo.processInfo.environment
        let adminVariable = durable ? "REELWORK_TEST_DURABLE_DATABASE_URL" : "REELWORK_TEST_DATABASE_URL"
        guard let admin = env[adminVariable], let redis = env["REELWORK_TEST_REDIS_URL"] else {
            XCTFail("set \(adminVariable) and REELWORK_TEST_REDIS_URL (scripts/test.sh does)")
            throw ReelworkError.configuration("test servers not configured")
        }
        guard FileManager.default.isExecutableFile(atPath: Self.binary) else {
            XCTFail("build the binary first: swift build --product reelwork (scripts/test.sh does)")
            throw ReelworkError.configuration("no binary at \(Self.binary)")
        }
        adminURL = admin
        redisURL = redis
        let token = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        databaseName = "rw_it_\(token)"
        databaseURL = admin.replacingOccurrences(of: #"/[^/]*$"#, with: "/\(databaseName)", options: .regularExpression)
        queuePrefix = "rwtest:\(token)"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reelwork-it-\(token)")
        storageDir = directory.appendingPathComponent("storage")
        try FileManager.default.createDirectory(at: storageDir, withIntermediateDirectories: true)
        port = try FreePort.next()
        let template = migratedByTheCLI ? "" : " TEMPLATE \(try TestDatabase.migratedTemplate(server: admin))"
        try PGConnection(admin).execute("CREATE DATABASE \(databaseName)" + template + (tablespace.map { " TABLESPACE \($0)" } ?? ""))
        if migratedByTheCLI {
            let migrate = try run(["migrate", "--dir", Self.packageRoot.appendingPathComponent("migrations").path])
            XCTAssertEqual(migrate.status, 0, migrate.output)
        }
        // Through the repository `reelwork keys create` uses, without a process of its own: every
        // test pays for this one, and the command has its tests (`KeysCommandTests`, `createKey`).
        operatorKey = try APIKeyRepository(db()).create(role: .operator, club: nil, label: "test stack").key.text
    }

    /// Makes a key with `reelwork keys create ARGS` and returns its secret (the last line of stdout).
    func createKey(_ arguments: [String]) throws -> String {
        let made = try run(["keys", "create"] + arguments)
        guard made.status == 0, let key = made.stdout.split(separator: "\n").last.map(String.init), key.hasPrefix("rw_") else {
            XCTFail("keys create \(arguments) failed: \(made.output)")
            throw ReelworkError.configuration("no key")
        }
        return key
    }

    /// The environment every process of this stack gets.
    var environment: [String: String] {
        var env = StackSettings.coordinator(
            databaseURL: databaseURL, redisURL: redisURL, storageDir: storageDir, bind: "127.0.0.1:\(port)",
            coordinatorURL: coordinatorURL, queuePrefix: queuePrefix, operatorKey: operatorKey)
        env["LOG_LEVEL"] = "info"
        return env.merging(settings) { $1 }
    }

    /// Runs the CLI to completion and returns its exit status and combined output.
    @discardableResult
    func run(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> (status: Int32, output: String, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment.merging(extraEnvironment) { $1 }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let o = String(decoding: stdout, as: UTF8.self)
        return (process.terminationStatus, o + String(decoding: stderr, as: UTF8.self), o)
    }

    /// Starts a long-running subcommand with its output in a log file. With `mounts` (a path on
    /// this machine → the file or folder to show there), the process runs in a mount namespace of
    /// its own where each is bind-mounted over its path: /etc/resolv.conf naming a test's DNS
    /// server, /etc/ssl/certs holding a test's CA. The machine's own files are untouched; `unshare`
    /// and `sh` exec into the subcommand, so the PID is its own.
    func spawn(_ arguments: [String], name: String, extraEnvironment: [String: String] = [:], mounts: [String: URL] = [:]) throws -> Process {
        let log = directory.appendingPathComponent("\(name).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        let process = Process()
        if mounts.isEmpty {
            process.executableURL = URL(fileURLWithPath: Self.binary)
            process.arguments = arguments
        } else {
            // sh -c 'mount --bind "${1}" "${2}" && … && shift 2N && exec "$@"' with the pairs, then the command, as arguments.
            let pairs = mounts.sorted { $0.key < $1.key }
            let script =
                pairs.indices.map { #"mount --bind "${\#(2 * $0 + 1)}" "${\#(2 * $0 + 2)}""# }.joined(separator: " && ")
                + " && shift \(2 * pairs.count) && exec \"$@\""
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments =
                ["--mount", "--propagation", "private", "--", "/bin/sh", "-c", script, "sh"]
                + pairs.flatMap { [$0.value.path, $0.key] } + [Self.binary] + arguments
        }
        process.environment = environment.merging(extraEnvironment) { $1 }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        logs.append(log)
        Self.recordPID(process.processIdentifier)
        return process
    }

    /// Starts the coordinator and waits until /healthz answers (with 200 unless `requireHealthy` is
    /// false); `mounts` as in `spawn`.
    func startCoordinator(extraEnvironment: [String: String] = [:], requireHealthy: Bool = true, mounts: [String: URL] = [:]) throws {
        coordinator = try spawn(["coordinator"], name: "coordinator", extraEnvironment: extraEnvironment, mounts: mounts)
        let client = try self.client()
        let url = URL(string: "\(coordinatorURL)/healthz")!
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if requireHealthy, (try? awaitSync { try await client.health() })?.status == "ok" { return }
            if !requireHealthy, let status = try? HTTP.get(url).1, status > 0 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
        XCTFail("coordinator did not become healthy:\n\(logTail())")
        throw ReelworkError.unavailable("coordinator did not start")
    }

    /// Stops the coordinator (SIGTERM, and SIGKILL after 10 s); `startCoordinator` starts a new
    /// one on the same port.
    func stopCoordinator() {
        Self.stop([coordinator].compactMap { $0 })
        coordinator = nil
    }

    /// What the `index`-th worker this stack started has logged so far.
    func workerLog(_ index: Int) -> String {
        (try? String(contentsOf: directory.appendingPathComponent("worker-\(index).log"), encoding: .utf8)) ?? ""
    }

    /// Stops the workers (SIGTERM, and SIGKILL after 10 s), leaving the coordinator running.
    func stopWorkers() {
        Self.stop(workers)
    }

    /// SIGTERM to each, then waits for all (SIGKILL for one still running after 10 s).
    private static func stop(_ processes: [Process]) {
        for process in processes where process.isRunning {
            process.terminate()
        }
        for process in processes {
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
    }

    @discardableResult
    func startWorker(slots: Int = 1, extraEnvironment: [String: String] = [:]) throws -> Process {
        let worker = try spawn(["worker", "--slots", String(slots)], name: "worker-\(workers.count)", extraEnvironment: extraEnvironment)
        workers.append(worker)
        return worker
    }

    /// A client presenting `key` (the stack's operator key unless told otherwise).
    func client(key: String? = nil) throws -> CoordinatorClient {
        try CoordinatorClient(baseURL: coordinatorURL, apiKey: key ?? operatorKey)
    }

    func db() throws -> PGConnection {
        try PGConnection(databaseURL)
    }

    func redis() throws -> RedisConnection {
        try RedisConnection(RedisURL(parsing: redisURL))
    }

    /// Polls until the job is terminal (or the deadline passes) and returns its last state.
    func waitForTerminal(_ id: UUID, timeout: TimeInterval = 90) throws -> JobView {
        let client = try self.client()
        let deadline = Date().addingTimeInterval(timeout)
        var job = try awaitSync { try await client.job(id) }
        while !job.status.isTerminal, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.2)
            job = try awaitSync { try await client.job(id) }
        }
        if !job.status.isTerminal { XCTFail("job \(id) still \(job.status) after \(timeout) s:\n\(logTail())") }
        return job
    }

    func logTail(lines: Int = 30) -> String {
        logs.map { url in
            let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
            return "--- \(url.lastPathComponent)\n" + text.split(separator: "\n").suffix(lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    // MARK: chaos

    /// Queue settings short enough for failure tests to finish in seconds.
    static let fastQueue: [String: String] = [
        "REELWORK_LEASE_SECONDS": "3", "REELWORK_HEARTBEAT_SECONDS": "0.5", "REELWORK_REAPER_INTERVAL_SECONDS": "0.2",
        "REELWORK_RECONCILE_INTERVAL_SECONDS": "1", "REELWORK_RECONCILE_SETTLE_SECONDS": "1",
        "REELWORK_RETRY_BASE_SECONDS": "0.2", "REELWORK_SHUTDOWN_GRACE_SECONDS": "0.5"
    ]

    /// Runs one of scripts/lib/services.sh's functions on the test servers (restart, stop).
    func services(_ script: String) throws {
        let env = ProcessInfo.processInfo.environment
        guard env["REELWORK_TEST_REDIS_DIR"] != nil, env["REELWORK_TEST_PG_DIR"] != nil, env["REELWORK_TEST_DURABLE_PG_DIR"] != nil else {
            XCTFail("set REELWORK_TEST_REDIS_DIR/PORT and REELWORK_TEST_[DURABLE_]PG_DIR/PORT (scripts/test.sh does)")
            throw ReelworkError.configuration("test server directories unknown")
        }
        // Not Foundation's Process: it learns of the exit through a descriptor that a daemon started by
        // the script inherits and keeps open, so waitUntilExit would never return. system(3) waits on the PID.
        let command =
            "bash -c \"set -e; source '\(Self.packageRoot.path)/scripts/lib/services.sh'; \(script.replacingOccurrences(of: "\"", with: "\\\""))\" </dev/null >>'\(directory.path)/services.log' 2>&1"
        let status = system(command)
        XCTAssertEqual(status, 0, "\(script)\n\((try? String(contentsOf: directory.appendingPathComponent("services.log"), encoding: .utf8)) ?? "")")
    }

    func restartRedis() throws {
        try services(#"rw_stop_redis "$REELWORK_TEST_REDIS_DIR"; rw_start_redis "$REELWORK_TEST_REDIS_DIR" "$REELWORK_TEST_REDIS_PORT""#)
    }

    /// SIGKILLs Redis (no final AOF flush, as in a crash) and starts it again from its files.
    func crashRedis() throws {
        try services(#"rw_kill_redis "$REELWORK_TEST_REDIS_DIR"; rw_start_redis "$REELWORK_TEST_REDIS_DIR" "$REELWORK_TEST_REDIS_PORT""#)
    }

    /// The shell words naming this stack's PostgreSQL server: its directory, its port, and how it starts.
    private var postgresServer: (dir: String, port: String, start: String) {
        durable
            ? ("$REELWORK_TEST_DURABLE_PG_DIR", "$REELWORK_TEST_DURABLE_PG_PORT", "rw_start_postgres")
            : ("$REELWORK_TEST_PG_DIR", "$REELWORK_TEST_PG_PORT", "RW_PG_FAST=1 rw_start_postgres")
    }

    func restartPostgres(downFor seconds: Double = 0) throws {
        let pg = postgresServer
        try services(#"rw_stop_postgres "\#(pg.dir)"; sleep \#(seconds); \#(pg.start) "\#(pg.dir)" "\#(pg.port)" postgres"#)
    }

    /// SIGKILLs the postmaster and every backend at once (a crash) and starts PostgreSQL again,
    /// which recovers from its write-ahead log.
    func crashPostgres(downFor seconds: Double = 0) throws {
        let pg = postgresServer
        try services(#"rw_kill_postgres "\#(pg.dir)"; sleep \#(seconds); \#(pg.start) "\#(pg.dir)" "\#(pg.port)" postgres"#)
    }

    /// Encodes `seconds` of an FFmpeg lavfi source (e.g. "testsrc2=size=320x240:rate=30") to H.264
    /// MP4 in the stack's directory.
    func makeClip(_ name: String, _ source: String, seconds: Double = 2) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Tool.ffmpeg(["-f", "lavfi", "-i", source, "-t", String(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
        return url
    }

    /// A small real clip, uploaded once; noop jobs refer to it.
    func uploadTinyClip() throws -> UUID {
        let clip = try makeTinyClip()
        let client = try self.client()
        return try awaitSync { try await client.uploadVideo(file: clip) }.id
    }

    /// A one-second 160×120 H.264 clip (the same bytes each time).
    func makeTinyClip() throws -> URL {
        let clip = directory.appendingPathComponent("tiny-\(UUID().uuidString.prefix(6)).mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        return clip
    }

    func status(_ id: UUID) throws -> String? {
        try db().query("SELECT status FROM jobs WHERE id = $1", [id]).rows.first?["status"]
    }

    /// Ends this stack's processes (SIGKILL, by PID), drops its database, removes its files. A test
    /// that checks a graceful stop makes it itself (`stopWorkers`, `stopCoordinator`, a signal); at
    /// the end of a test a SIGTERM would only wait for an idle worker's wait for work to end.
    func shutdown() {
        for process in workers + [coordinator].compactMap({ $0 }) where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        if let redis = try? redis(), case .array(let keys)? = try? redis.command("KEYS", "\(queuePrefix):*"), !keys.isEmpty {
            _ = try? redis.command(["DEL"] + keys.compactMap(\.string))
        }
        _ = try? PGConnection(adminURL).execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        try? FileManager.default.removeItem(at: directory)
    }

    /// Notes a spawned PID where scripts/test.sh can stop it should this test process die first.
    static func recordPID(_ pid: Int32) {
        guard let file = ProcessInfo.processInfo.environment["REELWORK_TEST_PID_FILE"],
            let handle = FileHandle(forWritingAtPath: file)
                ?? {
                    _ = FileManager.default.createFile(atPath: file, contents: nil)
                    return FileHandle(forWritingAtPath: file)
                }()
        else { return }
        handle.seekToEndOfFile()
        handle.write(Data("\(pid)\n".utf8))
        try? handle.close()
    }
}

/// Runs async client code from a synchronous XCTest method.
func awaitSync<T: Sendable>(_ body: @escaping () async throws -> T) throws -> T {
    let semaphore = DispatchSemaphore(value: 0)
    let result = LockedValue<Result<T, any Error>?>(nil)
    // The caller blocks on the semaphore until the task is done: the two never run at once.
    nonisolated(unsafe) let body = body
    Task {
        do {
            let value = try await body()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        semaphore.signal()
    }
    semaphore.wait()
    return try result.withLock { $0! }.get()
}

/// A test case whose every test gets its own stack with a coordinator running, shut down after.
class CoordinatorTestCase: XCTestCase {
    var stack: TestStack!

    /// Settings for the stack's processes; the queue tests use `TestStack.fastQueue`.
    var stackSettings: [String: String] { [:] }
    /// Whether the stack's database is on the PostgreSQL configured as shipped (fsync on).
    var durableDatabase: Bool { false }

    override func setUpWithError() throws {
        stack = try TestStack(settings: stackSettings, durable: durableDatabase)
        try stack.startCoordinator()
    }

    override func tearDown() {
        stack?.shutdown()
        super.tearDown()
    }
}

/// A queue stack with a webhook receiver of its own (`receiver`), started and stopped with each test.
class WebhookStackTestCase: QueueStackTestCase {
    var receiver: WebhookReceiver!

    override func setUpWithError() throws {
        try super.setUpWithError()
        receiver = try WebhookReceiver()
    }

    override func tearDown() {
        receiver?.stop()
        super.tearDown()
    }
}

/// A coordinator stack with fast queue timings and one tiny clip uploaded (`video`).
class QueueStackTestCase: CoordinatorTestCase {
    var video: UUID!

    override var stackSettings: [String: String] { TestStack.fastQueue }

    override func setUpWithError() throws {
        try super.setUpWithError()
        video = try stack.uploadTinyClip()
    }
}
