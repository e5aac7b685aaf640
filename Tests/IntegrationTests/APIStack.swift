import Foundation
import Queue
import ReelworkCore
import ReelworkClient
import Store

/// What a test of the HTTP API needs of its stack, whether the coordinator runs in this process
/// (`InProcessStack`) or as a child process (`TestStack`): helpers written against it serve both.
protocol APIStack: AnyObject {
    var operatorKey: String { get }
    var directory: URL { get }
    var storageDir: URL { get }
    var queuePrefix: String { get }
    /// Whether the coordinator is up (its process, or its application in process).
    var isCoordinatorRunning: Bool { get }
    /// One request; `key` as `Authorization: Bearer`. Returns the body, the status and the headers.
    func request(_ method: String, _ path: String, key: String?, body: Data?, headers: [String: String]) throws -> (Data, Int, [String: String])
    func client(key: String?) throws -> CoordinatorClient
    func createKey(_ arguments: [String]) throws -> String
    func db() throws -> PGConnection
    func redis() throws -> RedisConnection
    func makeClip(_ name: String, _ source: String, seconds: Double) throws -> URL
    func uploadTinyClip() throws -> UUID
    /// What the coordinator has logged lately, for failure messages ("" in process: it logs to the test's output).
    func logTail(lines: Int) -> String
}

extension APIStack {
    /// Submits a diagnostic job that runs `seconds` (distinct `tag`s keep repeats from being
    /// deduplicated); with an in-process stack nothing runs it until `runWaitingNoopJobs`.
    func submitNoop(video: UUID, club: String = "c", seconds: Double, tag: Int, extra: [String: JSONValue] = [:],
                    maxAttempts: Int? = nil) throws -> JobView {
        var noop: [String: JSONValue] = ["seconds": .number(seconds)]
        noop.merge(extra) { $1 }
        let request = CreateJobRequest(videoId: video, sport: "tennis", club: club,
                                       options: .object(["noop": .object(noop), "tag": .number(Double(tag))]), maxAttempts: maxAttempts)
        let client = try self.client(key: nil)
        return try awaitSync { try await client.createJob(request) }
    }

    /// Polls `condition` every 50 ms until it holds or `timeout` passes; returns whether it held.
    @discardableResult
    func waitUntil(timeout: TimeInterval, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }
}

extension TestStack: APIStack {
    var isCoordinatorRunning: Bool { coordinator?.isRunning ?? false }

    func request(_ method: String, _ path: String, key: String? = nil, body: Data? = nil, headers: [String: String] = [:]) throws
        -> (Data, Int, [String: String]) {
        try HTTP.request(method, URL(string: coordinatorURL + path)!, key: key, body: body, headers: headers)
    }
}

/// The settings a test stack's coordinator gets over its own servers, whichever way it runs (a
/// process of `TestStack`, the application of `InProcessStack`): one list, so the two cannot drift.
enum StackSettings {
    static func coordinator(databaseURL: String, redisURL: String, storageDir: URL, bind: String, coordinatorURL: String,
                            queuePrefix: String, operatorKey: String) -> [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["REELWORK_DATABASE_URL"] = databaseURL
        env["REELWORK_REDIS_URL"] = redisURL
        env["REELWORK_STORAGE_DIR"] = storageDir.path
        env["REELWORK_BIND"] = bind
        env["REELWORK_COORDINATOR_URL"] = coordinatorURL
        env["REELWORK_QUEUE_PREFIX"] = queuePrefix
        env["REELWORK_DIAGNOSTICS"] = "1"   // the tests drive the queue with the no-op pipeline
        if !operatorKey.isEmpty { env["REELWORK_API_KEY"] = operatorKey }
        // Tests send hundreds of requests a second from one key; the limit has its own test.
        env["REELWORK_RATE_LIMIT_PER_SECOND"] = "1000000"
        // Every test's client is 127.0.0.1: the per-address limit is tested on its own (ClubLimitsTests).
        env["REELWORK_RATE_LIMIT_PER_ADDRESS"] = "1000000"
        return env
    }
}
