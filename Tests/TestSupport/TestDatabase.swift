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

    /// An empty database, or with `migrated` a copy of one with the project's migrations applied
    /// (`migratedTemplate`).
    public init(migrated: Bool = false) throws {
        guard let server = ProcessInfo.processInfo.environment[Self.variable], !server.isEmpty else {
            throw TestSetupError(description: "set \(Self.variable) (scripts/test.sh does)")
        }
        serverURL = server
        name = "rw_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try PGConnection(server)
        try admin.execute("CREATE DATABASE \(name)" + (migrated ? " TEMPLATE \(try Self.migratedTemplate(server: server))" : ""))
        url = Self.conninfo(server, database: name)
    }

    public func connect() throws -> PGConnection {
        try PGConnection(url)
    }

    /// A connection to the server's own database, for killing sessions and the like.
    public func connectToServer() throws -> PGConnection {
        try PGConnection(serverURL)
    }

    /// Drops the database, ending any session still connected to it.
    public func drop() {
        guard let admin = try? PGConnection(serverURL) else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// A database on `server` with the project's migrations applied, named after the migrations'
    /// contents and made once per server: a test's database is a copy of it (`CREATE DATABASE …
    /// TEMPLATE`), a fraction of the time the migrations take. It is migrated under a name of its
    /// own and then renamed, so a copy never sees it half-made; a changed migration makes another.
    /// Nothing connects to it once it is made (PostgreSQL copies only a database no one is in).
    public static func migratedTemplate(server: String) throws -> String {
        templateLock.lock()
        defer { templateLock.unlock() }
        if let name = templates[server] { return name }
        let directory = ProjectPaths.root.appendingPathComponent("migrations")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a over the files' names and contents
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() {
            for byte in Array(file.utf8) + Array(try Data(contentsOf: directory.appendingPathComponent(file))) {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        let name = "rw_test_template_" + String(hash, radix: 16)
        let admin = try PGConnection(server)
        if try admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]).rows.isEmpty {
            let making = "rw_test_making_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            try admin.execute("CREATE DATABASE \(making)")
            do {
                try migrate(conninfo(server, database: making), directory: directory)
                try admin.execute("ALTER DATABASE \(making) RENAME TO \(name)")
            } catch {
                // Another test process made it meanwhile (the rename found the name taken), or the migrations failed.
                _ = try? admin.execute("DROP DATABASE IF EXISTS \(making) WITH (FORCE)")
                if try admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]).rows.isEmpty { throw error }
            }
        }
        templates[server] = name
        return name
    }

    /// The templates made so far, by server; read and written under `templateLock`.
    nonisolated(unsafe) private static var templates: [String: String] = [:]
    private static let templateLock = NSLock()

    /// Applies the migrations on a connection of its own, closed before the template is renamed.
    private static func migrate(_ conninfo: String, directory: URL) throws {
        _ = try Migrator(directory: directory).migrate(on: PGConnection(conninfo))
    }

    /// The same server with another database, for a URL or a key=value string.
    public static func conninfo(_ server: String, database: String) -> String {
        if server.hasPrefix("postgres://") || server.hasPrefix("postgresql://"),
            var components = URLComponents(string: server)
        {
            components.path = "/" + database
            if let url = components.string { return url }
        }
        return server + " dbname=\(database)"  // a later keyword overrides an earlier one
    }
}

extension PGConnection {
    /// Starts attempt `attempt` of `job`, or of a new job on a new video, as a worker's claim would.
    public func startedRun(sport: Sport, options: JSONValue = .emptyObject, attempt: Int = 1, job: UUID? = nil) throws -> ClaimedRun {
        let jobId =
            try job
            ?? {
                let facts = VideoFacts(
                    durationSeconds: 3, frameCount: 90, fps: 30, width: 1280, height: 720, codec: "h264", rotation: 0, container: "mp4")
                let video = try VideoRepository(self).insertOrFetch(
                    NewVideo(
                        club: "c", contentHash: UUID().uuidString, sizeBytes: 1, storageKey: "k",
                        originalName: nil, facts: facts)
                ).video
                return try JobRepository(self).create(
                    NewJob(
                        videoId: video.id, club: "c", sport: sport, options: options,
                        maxAttempts: 3, priority: "normal", dedupeKey: UUID().uuidString)
                ).job.id
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
        database = try TestDatabase(migrated: true)
        db = try database.connect()
    }

    override open func tearDown() {
        db = nil
        database?.drop()
        super.tearDown()
    }
}
