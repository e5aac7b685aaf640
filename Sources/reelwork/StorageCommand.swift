import ArgumentParser
import Foundation
import ObjectStorage
import Queue
import ReelworkCore
import S3Storage
import Store

struct StorageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage", abstract: "Check that stored videos and the videos table agree, and find abandoned uploads.",
        subcommands: [Check.self])

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List stored videos no row points to, videos whose stored object is missing, and parts of abandoned uploads.",
            discussion: """
                Reads the store (REELWORK_STORAGE: the folder REELWORK_STORAGE_DIR, or the bucket \
                REELWORK_S3_BUCKET) and REELWORK_DATABASE_URL. Exit status 0 when they agree, 1 when \
                something is listed. Objects younger than 15 minutes may belong to an upload still being \
                recorded: they are listed as recent and never removed.
                """)

        @OptionGroup var options: ConfigOptions
        @Flag(name: .customLong("remove-orphans"), help: "Delete the orphaned objects (older than 15 minutes) and the abandoned uploads' parts.")
        var removeOrphans = false

        func run() async throws {
            let config = try options.resolve()
            // Signed on Redis's clock, as the coordinator and workers sign: AWS refuses a request
            // dated more than 15 minutes off (RedisClock keeps this host's clock without Redis).
            let clock = RedisClock(url: try RedisURL(parsing: config.redisURL))
            let store = ObjectStores.make(config, now: { clock.now() })
            let db = try PGConnection(config.databaseURL)
            let audit = StorageAudit(db: db)
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
            let abandoned = try await abandonedUploads(store, db: db)
            for upload in abandoned { print("abandoned \(upload.key)  parts of an upload that is \(upload.state)") }
            var kept = abandoned.count
            if removeOrphans {
                for upload in abandoned {
                    // One past its expiry that no sweep ended yet is ended first, as the sweep does:
                    // a client sending it more parts then hears 410, not of parts that vanished.
                    if let unfinished = upload.unfinished,
                       try UploadRepository(db).move(unfinished.id, from: unfinished.status, to: .expired,
                                                     error: "not completed in time (found by the storage check)") == nil {
                        continue
                    }
                    try await store.dropParts(key: upload.key, uploadId: upload.storeUploadId)
                    print("removed  \(upload.key)")
                    kept -= 1
                }
            }
            let summary = "\(report.orphans.count) orphaned object(s), \(report.recent.count) recent, \(report.missing.count) video(s) without a stored object, "
                + "\(kept) abandoned upload(s)"
            FileHandle.standardError.write(Data("storage \(store.location): \(summary)\n".utf8))
            if !report.isConsistent || kept > 0 { throw ExitCode(1) }
        }

        /// Parts of uploads in parts (`uploads/<id>…`, and a bucket's open multipart uploads there)
        /// that nothing will complete: their upload ended (its parts' removal failed), is past its
        /// expiry (no coordinator swept it: none runs), or no upload has them and they are older
        /// than an upload takes to be recorded. `unfinished`: the upload to end before its parts go.
        func abandonedUploads(_ store: any PartUploads, db: PGConnection) async throws
            -> [(key: String, storeUploadId: String?, state: String, unfinished: (id: UUID, status: UploadStatus)?)] {
            var found: [String: (storeUploadId: String?, modified: Date)] = [:]
            for object in try await store.list(prefix: ObjectKey.uploadsPrefix) {
                // `uploads/<id>` (joined) or `uploads/<id>.parts/<n>` (a folder's parts).
                let staging = String(object.key.prefix { $0 != "." }.split(separator: "/").prefix(2).joined(separator: "/"))
                found[staging] = (found[staging]?.storeUploadId, max(found[staging]?.modified ?? .distantPast, object.modified))
            }
            if let bucket = store as? S3ObjectStore {
                for open in try await bucket.listMultipartUploads(prefix: ObjectKey.uploadsPrefix) {
                    found[open.key] = (open.uploadId, max(found[open.key]?.modified ?? .distantPast, open.initiated))
                }
            }
            let states = try UploadRepository(db).states(stagingKeys: Array(found.keys))
            return found.sorted { $0.key < $1.key }.compactMap { key, held in
                switch states[key] {
                case let state? where UploadStatus.unfinished.contains(state.status):
                    guard state.overdue else { return nil }
                    return (key, held.storeUploadId, "\(state.status.rawValue) past its expiry", (state.id, state.status))
                case let state?: return (key, held.storeUploadId, state.status.rawValue, nil)
                case nil:
                    guard Date().timeIntervalSince(held.modified) >= UploadSpool.staleAge else { return nil }
                    return (key, held.storeUploadId, "not recorded", nil)
                }
            }
        }
    }
}
