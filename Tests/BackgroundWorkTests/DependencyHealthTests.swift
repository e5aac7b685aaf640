import Foundation
import Logging
import Media
import Queue
import ReelworkCore
import Store
import Threading
import XCTest

@testable import Worker

/// How a worker turns its dependencies' errors into faults, and faults into a few log lines: one
/// as a fault starts, a reminder a minute while it lasts, one as it ends.
final class DependencyHealthTests: XCTestCase {
    private let lines = LockedValue<[(level: Logger.Level, message: String)]>([])
    private let clock = LockedValue(ContinuousClock.now)
    private var health: DependencyHealth!
    private var config: ReelworkConfig!

    override func setUpWithError() throws {
        config = try ReelworkConfig.fromEnvironment([
            "REELWORK_REDIS_URL": "redis://:secret@redis.internal:6380/2",
            "REELWORK_DATABASE_URL": "postgres://reelwork:hunter2@db.internal:5433/reelwork?sslmode=require",
            "REELWORK_COORDINATOR_URL": "http://user:pw@coordinator:8080/",
        ])
        let lines = self.lines, clock = self.clock
        let logger = Logger(label: "test.health") { _ in CapturingLogHandler { level, message in lines.withLock { $0.append((level, message)) } } }
        health = DependencyHealth(logger: logger, checkFirst: false, now: { clock.withLock { $0 } })
    }

    private func advance(_ seconds: Double) { clock.withLock { $0 = $0.advanced(by: .seconds(seconds)) } }

    private func fault(_ error: any Error) throws -> DependencyFault { try XCTUnwrap(DependencyFault(error, config: config), "\(error)") }

    func testEachErrorSaysWhichDependencyWhyAndWhatToDoWithoutSecrets() throws {
        let oom = try fault(RedisError(.server, "OOM command not allowed when used memory > 'maxmemory'."))
        XCTAssertEqual([oom.dependency.rawValue, oom.cause.rawValue, oom.target], ["redis", "out_of_memory", "redis.internal:6380"])
        XCTAssertTrue(oom.description.hasPrefix("[redis out_of_memory] Redis at redis.internal:6380 refuses writes: it is out of memory (OOM command"),
                      oom.description)
        XCTAssertTrue(oom.advice.contains("maxmemory") && oom.advice.contains("noeviction"))
        XCTAssertEqual(try fault(RedisError(.server, "READONLY You can't write against a read only replica.")).cause, .readOnly)
        XCTAssertEqual(try fault(RedisError(.server, "MISCONF Errors writing to the AOF file: No space left on device")).cause, .persistenceFailing)
        XCTAssertEqual(try fault(RedisError(.server, "LOADING Redis is loading the dataset in memory")).cause, .notReady)
        XCTAssertEqual(try fault(RedisError(.connection, "cannot connect to redis.internal:6380: Connection refused")).cause, .unreachable)
        XCTAssertNil(DependencyFault(RedisError(.server, "ERR user_script:3: attempt to compare nil"), config: config), "our bug, not Redis's state")
        XCTAssertNil(DependencyFault(RedisError(.server, "WRONGTYPE Operation against a key holding the wrong kind of value"), config: config))

        let full = try fault(PostgresError(message: "could not extend file \"base/1/2\": No space left on device", sqlState: "53100"))
        XCTAssertEqual([full.dependency.rawValue, full.cause.rawValue, full.target], ["postgres", "disk_full", "db.internal:5433/reelwork"])
        XCTAssertTrue(full.description.contains("is out of disk space (could not extend file") && full.description.contains("SQLSTATE 53100"))
        XCTAssertEqual(try fault(PostgresError(message: "sorry, too many clients already", sqlState: "53300")).cause, .tooManyConnections)
        XCTAssertEqual(try fault(PostgresError(message: "out of memory", sqlState: "53200")).cause, .outOfMemory)
        XCTAssertEqual(try fault(PostgresError(message: "too many locks", sqlState: "53400")).cause, .outOfResources)
        XCTAssertEqual(try fault(PostgresError(message: "terminating connection due to administrator command", sqlState: "57P01")).cause, .unreachable)
        XCTAssertNil(DependencyFault(PostgresError(message: "duplicate key", sqlState: "23505"), config: config), "the job's")
        XCTAssertNil(DependencyFault(PostgresError(message: "could not serialize access", sqlState: "40001"), config: config))

        let refused = try fault(MediaError(kind: .transient, message: "cannot open …: Server returned 401 Unauthorized", server: .unauthorized))
        XCTAssertEqual([refused.cause.rawValue, refused.target], ["unauthorized", "http://coordinator:8080"])
        XCTAssertTrue(refused.advice.contains("REELWORK_API_KEY") && refused.advice.contains("reelwork keys create --worker"))
        XCTAssertTrue(refused.handsTheJobBack)
        let broken = try fault(MediaError(kind: .transient, message: "cannot read …: Server returned 5XX Server Error reply", server: .serverError))
        XCTAssertFalse(broken.handsTheJobBack, "a 5xx may be that video's: it counts against the job")
        XCTAssertNil(DependencyFault(MediaError(kind: .invalidInput, message: "not a video file"), config: config), "the video's")
        for text in [oom.description, full.description, refused.description] {
            XCTAssertFalse(text.contains("secret") || text.contains("hunter2") || text.contains("pw@"), "no password in a log line: \(text)")
        }
        for (dependency, causes) in DependencyFault.causes {
            for cause in causes {
                let text = DependencyFault(dependency, cause, target: "t", detail: "d").description
                XCTAssertTrue(text.hasPrefix("[\(dependency.rawValue) \(cause.rawValue)] ") && text.contains("What to do: "), text)
                XCTAssertFalse(text.contains("failed (\(cause.rawValue))"), "every pair has its own words: \(text)")
            }
        }
    }

    func testAFaultIsLoggedOnceThenEveryMinuteThenOnceWhenItEnds() throws {
        let oom = try fault(RedisError(.server, "OOM command not allowed when used memory > 'maxmemory'."))
        for _ in 0..<50 {
            health.met(oom)
            advance(1)
        }
        XCTAssertEqual(lines.withLock { $0.count }, 1, "one line for 50 errors")
        XCTAssertEqual(lines.withLock { $0.first?.level }, .error)
        XCTAssertTrue(health.isFailing(.redis))
        for _ in 0..<20 {
            health.met(oom)
            advance(1)
        }
        let reminder = try XCTUnwrap(lines.withLock { $0.last?.message })
        XCTAssertEqual(lines.withLock { $0.count }, 2)
        XCTAssertTrue(reminder.hasPrefix("still failing after 60.0 s (61 errors): [redis out_of_memory]"), reminder)

        // A success that Redis allows even out of memory (a heartbeat) does not end the episode.
        health.recovered(.redis, from: [.unreachable, .readOnly])
        XCTAssertTrue(health.isFailing(.redis))
        health.recovered(.redis)
        XCTAssertFalse(health.isFailing(.redis))
        let recovered = try XCTUnwrap(lines.withLock { $0.last })
        XCTAssertEqual(recovered.level, .notice)
        XCTAssertEqual(recovered.message, "[redis recovered] Redis at redis.internal:6380 works again after 70.0 s (70 error(s), the last: out_of_memory)")
        health.recovered(.redis)
        XCTAssertEqual(lines.withLock { $0.count }, 3, "nothing to recover from twice")
    }

    func testAnotherCauseIsLoggedAtOnceAndEpisodesAreKeptPerDependency() throws {
        health.met(try fault(RedisError(.connection, "cannot connect to redis.internal:6380: Connection refused")))
        health.met(try fault(RedisError(.server, "LOADING Redis is loading the dataset in memory")))
        health.met(try fault(PostgresError(message: "could not extend file", sqlState: "53100")))
        XCTAssertEqual(lines.withLock { $0.map(\.message) }.map { String($0.prefix(24)) },
                       ["[redis unreachable] cann", "[redis not_ready] Redis ", "[postgres disk_full] Pos"])
        health.recovered(.postgres, from: [.unreachable])
        XCTAssertTrue(health.isFailing(.postgres), "a fresh connection says nothing about free disk")
        health.recovered(.redis, from: [.unreachable])
        XCTAssertTrue(health.isFailing(.redis), "the episode's cause is now not_ready")
    }

    /// With videos in a bucket, a failing read blames the store, names its setting and says what
    /// to do: a refused signature is the keys or the clock, and hands the job back.
    func testAStoreFailureNamesTheStoreAndWhatToDo() throws {
        let s3 = try ReelworkConfig.fromEnvironment(["REELWORK_STORAGE": "s3", "REELWORK_S3_ENDPOINT": "https://store.internal:9000",
                                                     "REELWORK_S3_BUCKET": "clips", "AWS_ACCESS_KEY_ID": "key", "AWS_SECRET_ACCESS_KEY": "secret"])
        let down = try XCTUnwrap(DependencyFault(MediaError(kind: .transient, message: "Connection refused", server: .unreachable), config: s3))
        XCTAssertEqual([down.dependency.rawValue, down.cause.rawValue, down.target], ["store", "unreachable", "https://store.internal:9000"])
        XCTAssertTrue(down.description.hasPrefix("[store unreachable] cannot reach the object store at https://store.internal:9000 to read videos"),
                      down.description)
        XCTAssertTrue(down.description.contains("REELWORK_S3_ENDPOINT"), down.description)
        let refused = try XCTUnwrap(DependencyFault(MediaError(kind: .transient, message: "Forbidden", server: .forbidden), config: s3))
        XCTAssertTrue(refused.description.contains("AWS_SECRET_ACCESS_KEY") && refused.description.contains("clock"), refused.description)
        XCTAssertTrue(refused.handsTheJobBack)
        let broken = try XCTUnwrap(DependencyFault(MediaError(kind: .transient, message: "Server error", server: .serverError), config: s3))
        XCTAssertFalse(broken.handsTheJobBack, "a 5xx may be that object's: it counts against the job")
        let store = DependencyHealth(logger: Logger(label: "test"), videoSource: .store, checkFirst: true)
        store.recovered(.coordinator)
        XCTAssertTrue(store.mustCheckVideoSource, "the coordinator answering says nothing of the store")
        store.recovered(.store)
        XCTAssertFalse(store.mustCheckVideoSource)
    }

    func testAWorkerReadingVideosOverHTTPChecksTheCoordinatorFirstAndWhileItFails() throws {
        let http = DependencyHealth(logger: Logger(label: "test"), checkFirst: true)
        XCTAssertTrue(http.mustCheckVideoSource, "before the first claim")
        http.recovered(.coordinator)
        XCTAssertFalse(http.mustCheckVideoSource)
        http.met(try fault(MediaError(kind: .transient, message: "Connection refused", server: .unreachable)))
        XCTAssertTrue(http.mustCheckVideoSource)
        http.recovered(.coordinator)
        XCTAssertFalse(http.mustCheckVideoSource)
        XCTAssertFalse(health.mustCheckVideoSource, "videos from the shared directory: no check until the coordinator fails")
    }
}

/// Hands every log line to `record`.
struct CapturingLogHandler: LogHandler {
    let record: @Sendable (Logger.Level, String) -> Void
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(_ record: @escaping @Sendable (Logger.Level, String) -> Void) { self.record = record }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        record(event.level, "\(event.message)")
    }
}
