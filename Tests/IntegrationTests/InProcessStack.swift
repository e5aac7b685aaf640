import Coordinator
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Queue
import ReelworkClient
import ReelworkCore
import Sports
import Store
import TestSupport
import Threading
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The coordinator in this test process, for tests of the HTTP API alone (request checking, access,
/// answers): a fresh PostgreSQL database with the migrations applied (a copy of a migrated template,
/// `TestDatabase.migratedTemplate`), a private Redis key prefix and a temporary storage directory, as `TestStack`
/// makes them, but no child process. The application
/// is the binary's own (`CoordinatorServer.makeApplication`, from `ReelworkConfig.fromEnvironment`
/// of the same settings a `TestStack` gives its processes, its background services running), driven
/// through HummingbirdTesting's `.router` framework: each request goes straight to the router, with
/// no socket. What needs a process stays on `TestStack`: workers, signals, chaos, the browser, raw
/// HTTP (the server's parser, idle timeouts, the peer's address), the CLI.
final class InProcessStack: APIStack, @unchecked Sendable {
    // Safe: the vars (`operatorKey`, `running`, `stop`) are written only by the test's own thread, in
    // init, `startCoordinator` and `stopCoordinator`; the closures this stack hands out (`client`,
    // `dashboardSession`) read `router`, which is behind a lock, and constants.
    let adminURL: String
    let databaseName: String
    let databaseURL: String
    let redisURL: String
    let queuePrefix: String
    let directory: URL
    let storageDir: URL
    /// An operator key made at setup; `client()` and `request` present it unless told otherwise.
    private(set) var operatorKey = ""
    /// Settings over the defaults below (as `TestStack`'s `settings`).
    let settings: [String: String]

    /// A base URL for `CoordinatorClient` (it needs one); nothing listens there, requests go to the router.
    let coordinatorURL = "http://coordinator.in-process"

    private let router = LockedValue<(any TestClientProtocol)?>(nil)
    private var running: Task<Void, any Error>?
    private var stop: AsyncStream<Void>.Continuation?

    init(settings: [String: String] = [:]) throws {
        self.settings = settings
        let env = ProcessInfo.processInfo.environment
        guard let admin = env["REELWORK_TEST_DATABASE_URL"], let redis = env["REELWORK_TEST_REDIS_URL"] else {
            XCTFail("set REELWORK_TEST_DATABASE_URL and REELWORK_TEST_REDIS_URL (scripts/test.sh does)")
            throw ReelworkError.configuration("test servers not configured")
        }
        adminURL = admin
        redisURL = redis
        let token = UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
        databaseName = "rw_ip_\(token)"
        databaseURL = TestDatabase.conninfo(admin, database: databaseName)
        queuePrefix = "rwtest:\(token)"
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("reelwork-ip-\(token)")
        storageDir = directory.appendingPathComponent("storage")
        try FileManager.default.createDirectory(at: storageDir, withIntermediateDirectories: true)
        try PGConnection(admin).execute("CREATE DATABASE \(databaseName) TEMPLATE \(try TestDatabase.migratedTemplate(server: admin))")
        operatorKey = try createKey(["--operator", "--label", "test stack"])
    }

    /// The settings `TestStack.environment` gives a coordinator process, over this stack's servers.
    var environment: [String: String] {
        // Bound nowhere: the router is called directly.
        var env = StackSettings.coordinator(
            databaseURL: databaseURL, redisURL: redisURL, storageDir: storageDir, bind: "127.0.0.1:0",
            coordinatorURL: coordinatorURL, queuePrefix: queuePrefix, operatorKey: operatorKey)
        // The event reader's blocking read lasts a third of the heartbeat (at most 1 s), and stopping
        // waits for it: 0.3 s keeps a stop, once per test, near 0.1 s instead of 1 s.
        env["REELWORK_EVENTS_HEARTBEAT_SECONDS"] = "0.3"
        return env.merging(settings) { $1 }
    }

    /// Makes a key as `reelwork keys create ARGS` does (`--club NAME`, `--operator`, `--worker`,
    /// `--label TEXT`), through the same repository, and returns its secret.
    func createKey(_ arguments: [String]) throws -> String {
        var club: String?, label: String?, role = APIKeyRole.worker
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "--club": club = rest.popFirst(); role = .club
            case "--operator": role = .operator
            case "--worker": role = .worker
            case "--label": label = rest.popFirst()
            default: throw ReelworkError.configuration("createKey: unknown argument \(word)")
            }
        }
        return try APIKeyRepository(db()).create(role: role, club: club, label: label).key.text
    }

    /// Builds the coordinator's application from this stack's settings and starts it (its services
    /// run until `stopCoordinator`); requests then go to its router.
    func startCoordinator(extraSettings: [String: String] = [:]) throws {
        let config = try ReelworkConfig.fromEnvironment(environment.merging(extraSettings) { $1 })
        var logger = Logger(label: "reelwork.coordinator.in-process")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .warning
        let app = try awaitSync { try await CoordinatorServer.makeApplication(config: config, logger: logger) }
        let (stopped, stop) = AsyncStream<Void>.makeStream()
        let ready = DispatchSemaphore(value: 0)
        let router = self.router
        self.stop = stop
        running = Task {
            defer { ready.signal() }
            try await app.test(.router) { client in
                router.withLock { $0 = client }
                ready.signal()
                for await _ in stopped {}
            }
        }
        if ready.wait(timeout: .now() + 30) == .timedOut || router.withLock({ $0 }) == nil {
            var reason = "no answer in 30 s"
            if let running, router.withLock({ $0 }) == nil {
                do { try awaitSync { try await running.value }; reason = "it ended" } catch { reason = "\(error)" }
            }
            XCTFail("the in-process coordinator did not start: \(reason)")
            throw ReelworkError.unavailable("in-process coordinator did not start")
        }
    }

    /// Stops the application (its services shut down gracefully) and waits for it.
    func stopCoordinator() {
        stop?.finish()
        stop = nil
        if let running { _ = try? awaitSync { try await running.value } }
        running = nil
        router.withLock { $0 = nil }
    }

    /// One request to the router, as `HTTP.request` sends one over a socket: `key` as `Authorization: Bearer`.
    func request(
        _ method: String, _ path: String, key: String? = nil, body: Data? = nil, headers: [String: String] = [:]
    ) throws
        -> (Data, Int, [String: String])
    {
        var request = URLRequest(url: URL(string: coordinatorURL + path)!)
        request.httpMethod = method
        request.httpBody = body
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        return try awaitSync { try await self.exchange(request) }
    }

    func get(_ path: String, key: String? = nil, headers: [String: String] = [:]) throws -> (Data, Int, [String: String]) {
        try request("GET", path, key: key, headers: headers)
    }

    /// A dashboard session (no cookie yet) whose requests go to the router; headers as curl shows
    /// them to `DashboardSession` (names in lower case, the last of a repeated one).
    func dashboardSession() -> DashboardSession {
        DashboardSession(baseURL: coordinatorURL) { [self] method, path, headers, body in
            var request = URLRequest(url: URL(string: coordinatorURL + path)!)
            request.httpMethod = method
            request.httpBody = body
            for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
            let answer = try awaitSync { try await self.send(request) }
            var fields: [String: String] = [:]
            for (name, value) in answer.headers { fields[name.lowercased()] = value }
            return (answer.status, fields, answer.body)
        }
    }

    /// Hands a URLRequest to the router: its method, path and query, headers and body. Repeated
    /// headers of the answer are joined with ", " (as URLSession does).
    func exchange(_ request: URLRequest) async throws -> (Data, Int, [String: String]) {
        let answer = try await send(request)
        var headers: [String: String] = [:]
        for (name, value) in answer.headers { headers[name] = headers[name].map { $0 + ", " + value } ?? value }
        return (answer.body, answer.status, headers)
    }

    /// The router's answer to a URLRequest: status, every header in order, body.
    func send(_ request: URLRequest) async throws -> (status: Int, headers: [(String, String)], body: Data) {
        guard let client = router.withLock({ $0 }) else { throw ReelworkError.unavailable("the in-process coordinator is not running") }
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let method = HTTPRequest.Method(request.httpMethod ?? "GET")
        else {
            throw ReelworkError.invalidRequest("not a request the router takes: \(request)")
        }
        let uri =
            (components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
            + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
        var fields = HTTPFields()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            guard let name = HTTPField.Name(name) else { throw ReelworkError.invalidRequest("bad header name \(name)") }
            fields.append(HTTPField(name: name, value: value))
        }
        let response = try await client.executeRequest(
            uri: uri, method: method, headers: fields, body: request.httpBody.map { ByteBuffer(bytes: $0) })
        return (response.status.code, response.headers.map { ($0.name.rawName, $0.value) }, Data(response.body.readableBytesView))
    }

    /// A typed client whose requests go to the router (the event stream excepted: it needs a socket).
    func client(key: String? = nil) throws -> CoordinatorClient {
        try CoordinatorClient(baseURL: coordinatorURL, apiKey: key ?? operatorKey) { request in
            let (data, status, _) = try await self.exchange(request)
            return (data, status)
        }
    }

    func db() throws -> PGConnection {
        try PGConnection(databaseURL)
    }

    func redis() throws -> RedisConnection {
        try RedisConnection(RedisURL(parsing: redisURL))
    }

    /// Encodes `seconds` of an FFmpeg lavfi source to H.264 MP4 in the stack's directory (as `TestStack.makeClip`).
    func makeClip(_ name: String, _ source: String, seconds: Double = 2) throws -> URL {
        let url = directory.appendingPathComponent(name)
        try Tool.ffmpeg(["-f", "lavfi", "-i", source, "-t", String(seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", url.path])
        return url
    }

    /// A one-second 160×120 H.264 clip (the same bytes each time).
    func makeTinyClip() throws -> URL {
        let clip = directory.appendingPathComponent("tiny-\(UUID().uuidString.prefix(6)).mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "1", "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
        return clip
    }

    /// A small real clip, uploaded once.
    func uploadTinyClip() throws -> UUID {
        let clip = try makeTinyClip()
        let client = try self.client()
        return try awaitSync { try await client.uploadVideo(file: clip) }.id
    }

    /// Runs every job waiting in this stack's queue as a worker records a diagnostic (`noop`) run,
    /// without a worker process or a pipeline, for routes that need ended jobs (results,
    /// corrections, webhook deliveries): claims it from Redis and starts the attempt in PostgreSQL
    /// as `JobRunner` does (`JobQueue.claim`, `RunRepository.start`), ends it as `NoopStage` would
    /// (failed, `invalid_input`, while `noop.invalidAttempts` covers the attempt; else succeeded with
    /// the result `{"noop": true}`, which records its webhook deliveries in the same statement) and
    /// ends the claim. Returns the jobs it ran.
    @discardableResult
    func runWaitingNoopJobs() throws -> [UUID] {
        let queue = JobQueue(prefix: queuePrefix), redis = try redis(), runs = RunRepository(try db())
        let owner = "in-process-\(UUID().uuidString.prefix(8))"
        var ran: [UUID] = []
        while let claim = try queue.claim(owner: owner, lease: 60, on: redis) {
            defer { _ = try? queue.finish(claim, owner: owner, outcome: .done, on: redis) }
            guard case .started(let run) = try runs.start(jobId: claim.jobId, attempt: claim.attempt, worker: owner) else { continue }
            var invalidAttempts = 0.0
            if case .object(let options) = run.options, case .object(let noop)? = options["noop"],
                case .number(let count)? = noop["invalidAttempts"]
            {
                invalidAttempts = count
            }
            if Double(run.attempt) <= invalidAttempts {
                try runs.fail(run, message: "noop: invalid input requested for attempt \(run.attempt)", kind: .invalidInput, retryIn: nil)
            } else {
                try runs.complete(
                    run, document: AnalysisDocument(video: nil, stages: [], warnings: [], result: .object(["noop": .bool(true)])),
                    table: SportRegistry.table(for: run.sport), facts: nil)
            }
            ran.append(claim.jobId)
        }
        return ran
    }

    func status(_ id: UUID) throws -> String? {
        try db().query("SELECT status FROM jobs WHERE id = $1", [id]).rows.first?["status"]
    }

    var isCoordinatorRunning: Bool { router.withLock { $0 != nil } }

    func logTail(lines: Int = 30) -> String { "" }

    /// Stops the application, drops the database, removes the stack's Redis keys and files.
    func shutdown() {
        stopCoordinator()
        if let redis = try? redis(), case .array(let keys)? = try? redis.command("KEYS", "\(queuePrefix):*"), !keys.isEmpty {
            _ = try? redis.command(["DEL"] + keys.compactMap(\.string))
        }
        _ = try? PGConnection(adminURL).execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        try? FileManager.default.removeItem(at: directory)
    }
}

/// A test case whose every test gets its own `InProcessStack` with the coordinator running, shut down after.
class InProcessTestCase: XCTestCase {
    var stack: InProcessStack!

    /// Settings for the stack's coordinator.
    var stackSettings: [String: String] { [:] }

    override func setUpWithError() throws {
        stack = try InProcessStack(settings: stackSettings)
        try stack.startCoordinator()
    }

    override func tearDown() {
        stack?.shutdown()
        super.tearDown()
    }
}
