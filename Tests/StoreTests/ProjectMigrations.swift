import Foundation
import TestSupport
import XCTest

@testable import Store

/// The project's migrations applied in steps, as a live database meets them: those before a
/// version first, the data a test puts in, then the rest.
struct ProjectMigrations {
    private static let directory = URL(fileURLWithPath: ProjectPaths.inRoot("migrations"))
    /// Where the files applied so far are copied: the Migrator applies a folder's files.
    let scratch: URL

    init() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rw-migrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// Applies the project's migrations whose names sort before `name` (or all).
    func apply(to db: PGConnection, before name: String? = nil) throws {
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.directory.path)
        where file.hasSuffix(".sql") && (name == nil || file < name!) && !FileManager.default.fileExists(atPath: scratch.appendingPathComponent(file).path) {
            try FileManager.default.copyItem(at: Self.directory.appendingPathComponent(file), to: scratch.appendingPathComponent(file))
        }
        _ = try Migrator(directory: scratch).migrate(on: db)
    }

    func remove() {
        try? FileManager.default.removeItem(at: scratch)
    }
}

/// A test of one migration on data written before it: a database of its own, migrated in steps.
class MigrationTestCase: XCTestCase {
    var database: TestDatabase!
    var migrations: ProjectMigrations!

    override func setUpWithError() throws {
        database = try TestDatabase()
        migrations = try ProjectMigrations()
    }

    override func tearDown() {
        database?.drop()
        migrations?.remove()
        super.tearDown()
    }
}
