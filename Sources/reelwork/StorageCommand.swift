import ArgumentParser
import Foundation
import ReelworkCore
import Store

struct StorageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage", abstract: "Check that stored video files and the videos table agree.",
        subcommands: [Check.self])

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List files no video points to, and videos whose file is missing.",
            discussion: """
                Reads REELWORK_STORAGE_DIR and REELWORK_DATABASE_URL. Exit status 0 when they agree, 1 when \
                something is listed. Files younger than 15 minutes may belong to an upload still being \
                recorded: they are listed as recent and never removed.
                """)

        @OptionGroup var options: ConfigOptions
        @Flag(name: .customLong("remove-orphans"), help: "Delete the orphaned files (older than 15 minutes).")
        var removeOrphans = false

        func run() throws {
            let config = try options.resolve()
            let storage = VideoStorage(root: config.storageDir)
            let audit = StorageAudit(storage: storage, db: try PGConnection(config.databaseURL))
            var report = try audit.run()
            for orphan in report.orphans { print("orphan   \(orphan.key)  \(orphan.bytes) bytes, last changed \(ReelworkJSON.formatDate(orphan.modified))") }
            for orphan in report.recent { print("recent   \(orphan.key)  \(orphan.bytes) bytes (an upload may still be recording it)") }
            for missing in report.missing { print("missing  \(missing.key)  (video \(missing.videoId.uuidString.lowercased()))") }
            if removeOrphans, !report.orphans.isEmpty {
                let removed = try audit.remove(report.orphans)
                for key in removed { print("removed  \(key)") }
                report.orphans.removeAll { removed.contains($0.key) }
            }
            let summary = "\(report.orphans.count) orphaned file(s), \(report.recent.count) recent, \(report.missing.count) video(s) without a file"
            FileHandle.standardError.write(Data("storage \(storage.root.path): \(summary)\n".utf8))
            if !report.isConsistent { throw ExitCode(1) }
        }
    }
}
