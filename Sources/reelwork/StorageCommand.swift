import ArgumentParser
import Foundation
import ObjectStorage
import ReelworkCore
import S3Storage
import Store

struct StorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage", abstract: "Check that stored videos and the videos table agree.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List stored videos no row points to, and videos whose stored object is missing.",
            discussion: """
                Reads the store (REELWORK_STORAGE: the folder REELWORK_STORAGE_DIR, or the bucket \
                REELWORK_S3_BUCKET) and REELWORK_DATABASE_URL. Exit status 0 when they agree, 1 when \
                something is listed. Objects younger than 15 minutes may belong to an upload still being \
                recorded: they are listed as recent and never removed.
                """)

        @OptionGroup var options: ConfigOptions
        @Flag(name: .customLong("remove-orphans"), help: "Delete the orphaned objects (older than 15 minutes).")
        var removeOrphans = false

        func run() async throws {
            let config = try options.resolve()
            let store = ObjectStores.make(config)
            let audit = StorageAudit(db: try PGConnection(config.databaseURL))
            // A store that refuses (no bucket, wrong credentials) ends the command with its reason.
            var report = try audit.run(files: try await store.list(prefix: ObjectKey.videosPrefix))
            for orphan in report.orphans { print("orphan   \(orphan.key)  \(orphan.bytes) bytes, last changed \(ReelworkJSON.formatDate(orphan.modified))") }
            for orphan in report.recent { print("recent   \(orphan.key)  \(orphan.bytes) bytes (an upload may still be recording it)") }
            for missing in report.missing { print("missing  \(missing.key)  (video \(missing.videoId.uuidString.lowercased()))") }
            if removeOrphans, !report.orphans.isEmpty {
                var removed: [String] = []
                for orphan in try audit.unclaimed(report.orphans) {
                    try await store.remove(key: orphan.key)
                    removed.append(orphan.key)
                    print("removed  \(orphan.key)")
                }
                report.orphans.removeAll { removed.contains($0.key) }
            }
            let summary = "\(report.orphans.count) orphaned object(s), \(report.recent.count) recent, \(report.missing.count) video(s) without a stored object"
            FileHandle.standardError.write(Data("storage \(store.location): \(summary)\n".utf8))
            if !report.isConsistent { throw ExitCode(1) }
        }
    }
}
