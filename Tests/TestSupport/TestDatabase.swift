import Foundation
import ReelworkCore
import Store
import XCTest

/// Thrown from setUp when the environment lacks what the tests need; its text is the report.
public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String

    public init(description: String) { self.description = description }
}

/// A fresh database on the server named by REELWORK_TEST_DATABASE_URL, dropped by `drop()`.
///
/// Every test class (or test) gets its own, so tests never see each other's tables and can
/// run against a server that holds other data.
public final class TestDatabase {
    public static let variable = "REELWORK_TEST_DATABASE_URL"

    public let name: String
    /// Connection string for the fresh database.
    public let url: String
    private let serverURL: String

    public init() throws {
        guard let server = ProcessInfo.processInfo.environment[Self.variable], !server.isEmpty else {
            throw TestSetupError(description: "set \(Self.variable) (scripts/test.sh does)")
        }
        serverURL = server
        name = "rw_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try PGConnection(server)
        try admin.execute("CREATE DATABASE \(name)")
        url = Self.conninfo(server, database: name)
    }

    public func connect() throws -> PGConnection {
        try PGConnection(url)
    }

    /// A connection to the server's own database, for killing sessions and the like.
    public func connectToServer() throws -> PGConnection {
        try PGConnection(serverURL)
    }

    /// A connection to the database with the project's migrations applied.
    public func connectMigrated() throws -> PGConnection {
        let db = try connect()
        try Migrator(directory: ProjectPaths.root.appendingPathComponent("migrations")).migrate(on: db)
        return db
    }

    /// Drops the database, ending any session still connected to it.
    public func drop() {
        guard let admin = try? PGConnection(serverURL) else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The same server with another database, for a URL or a key=value string.
    public static func conninfo(_ server: String, database: String) -> String {
        if server.hasPrefix("postgres://") || server.hasPrefix("postgresql://"),
           var components = URLComponents(string: server) {
            components.path = "/" + database
            if let url = components.string { return url }
        }
        return server + " dbname=\(database)"   // a later keyword overrides an earlier one
    }
}

extension PGConnection {
    /// Starts attempt `attempt` of `job`, or of a new job on a new video, as a worker's claim would.
    public func startedRun(sport: Sport, options: JSONValue = .emptyObject, attempt: Int = 1, job: UUID? = nil) throws -> ClaimedRun {
        let jobId = try job ?? {
            let facts = VideoFacts(durationSeconds: 3, frameCount: 90, fps: 30, width: 1280, height: 720, codec: "h264", rotation: 0, container: "mp4")
            let video = try VideoRepository(self).insertOrFetch(NewVideo(club: "c", contentHash: UUID().uuidString, sizeBytes: 1, storageKey: "k",
                                                                         originalName: nil, facts: facts)).video
            return try JobRepository(self).create(NewJob(videoId: video.id, club: "c", sport: sport, options: options,
                                                         maxAttempts: 3, priority: "normal", dedupeKey: UUID().uuidString)).job.id
        }()
        guard case .started(let run) = try RunRepository(self).start(jobId: jobId, attempt: attempt, worker: "w") else {
            throw TestSetupError(description: "the run did not start")
        }
        return run
    }
}

/// A test case whose every test gets a fresh database with the project's migrations applied.
open class MigratedDatabaseTestCase: XCTestCase {
    public var database: TestDatabase!
    public var db: PGConnection!

    override open func setUpWithError() throws {
        database = try TestDatabase()
        db = try database.connectMigrated()
    }

    override open func tearDown() {
        db = nil
        database?.drop()
        super.tearDown()
    }
}
