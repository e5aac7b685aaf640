import Foundation
import Store

/// Thrown from setUp when the environment lacks what the tests need; its text is the report.
struct TestSetupError: Error, CustomStringConvertible {
    let description: String
}

/// A fresh database on the server named by REELWORK_TEST_DATABASE_URL, dropped by `drop()`.
///
/// Every test class (or test) gets its own, so tests never see each other's tables and can
/// run against a server that holds other data.
final class TestDatabase {
    static let variable = "REELWORK_TEST_DATABASE_URL"

    let name: String
    /// Connection string for the fresh database.
    let url: String
    private let serverURL: String

    init() throws {
        guard let server = ProcessInfo.processInfo.environment[Self.variable], !server.isEmpty else {
            throw TestSetupError(description: "set \(Self.variable) (scripts/test.sh does)")
        }
        serverURL = server
        name = "rw_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let admin = try PGConnection(server)
        try admin.execute("CREATE DATABASE \(name)")
        url = Self.conninfo(server, database: name)
    }

    func connect() throws -> PGConnection {
        try PGConnection(url)
    }

    /// A connection to the server's own database, for killing sessions and the like.
    func connectToServer() throws -> PGConnection {
        try PGConnection(serverURL)
    }

    /// Drops the database, ending any session still connected to it.
    func drop() {
        guard let admin = try? PGConnection(serverURL) else { return }
        _ = try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// The same server with another database, for a URL or a key=value string.
    static func conninfo(_ server: String, database: String) -> String {
        if server.hasPrefix("postgres://") || server.hasPrefix("postgresql://"),
           var components = URLComponents(string: server) {
            components.path = "/" + database
            if let url = components.string { return url }
        }
        return server + " dbname=\(database)"   // a later keyword overrides an earlier one
    }
}

/// A counter safe to bump from several threads.
final class LockedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var highest = 0
    private var items: [String] = []

    func enter() {
        lock.lock()
        current += 1
        highest = max(highest, current)
        lock.unlock()
    }

    func leave() {
        lock.lock()
        current -= 1
        lock.unlock()
    }

    func record(_ item: String) {
        lock.lock()
        items.append(item)
        lock.unlock()
    }

    var peak: Int {
        lock.lock()
        defer { lock.unlock() }
        return highest
    }

    var recorded: [String] {
        lock.lock()
        defer { lock.unlock() }
        return items
    }
}

/// One result per thread, filled in from those threads.
final class ResultSlots<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<T, Error>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ index: Int, _ result: Result<T, Error>) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    var all: [Result<T, Error>?] {
        lock.lock()
        defer { lock.unlock() }
        return slots
    }
}
