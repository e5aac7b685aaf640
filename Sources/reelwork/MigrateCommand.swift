import ArgumentParser
import Foundation
import ReelworkCore
import Store

struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate", abstract: "Apply pending migrations/NNNN_name.sql files in order.",
        discussion: "Safe to run twice and from two processes at once; refuses to run if an applied file was changed.")

    @OptionGroup var options: ConfigOptions
    @Option(help: "Directory of migration files (REELWORK_MIGRATIONS_DIR; default: ./migrations, or the one beside the binary's checkout).")
    var dir: String?

    func run() throws {
        let config = try options.resolve()
        let directory = try Self.locate(dir ?? config.migrationsDir)
        let db = try PGConnection(config.databaseURL)
        let report = try Migrator(directory: directory).migrate(on: db) { print($0) }
        print("migrations: \(report.applied.count) applied, \(report.alreadyApplied) already applied")
    }

    /// The migrations directory: the given one, else ./migrations, else the checkout the binary was built in.
    static func locate(_ given: String?) throws -> URL {
        let fm = FileManager.default
        if let given {
            guard fm.fileExists(atPath: given) else { throw UserFacingError("migrations directory \(given) does not exist") }
            return URL(fileURLWithPath: given, isDirectory: true)
        }
        var candidates = [URL(fileURLWithPath: fm.currentDirectoryPath).appendingPathComponent("migrations")]
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(dir.appendingPathComponent("migrations"))
            dir = dir.deletingLastPathComponent()
        }
        guard let found = candidates.first(where: { fm.fileExists(atPath: $0.path) }) else {
            throw UserFacingError("no migrations directory found; pass --dir or set \(ReelworkConfig.Env.migrationsDir)")
        }
        return found
    }
}
