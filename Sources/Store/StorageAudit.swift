import Foundation
import ObjectStorage
import ReelworkCore

/// Compares the stored videos (a folder's files or a bucket's objects) with the `videos` table:
/// objects no row points to (orphans, e.g. left by a crash between storing an upload and recording
/// it) and rows whose object is gone. `reelwork storage check` prints it and, when asked, removes
/// the orphans.
public struct StorageAudit {
    public struct Orphan: Sendable, Equatable {
        public var key: String
        public var bytes: Int64
        public var modified: Date
    }

    public struct Missing: Sendable, Equatable {
        public var videoId: UUID
        public var key: String
    }

    public struct Report: Sendable {
        /// Files no row points to, old enough that no upload can still be recording them.
        public var orphans: [Orphan] = []
        /// Objects no row points to yet, younger than `UploadSpool.staleAge`: an upload may
        /// be recording them right now, so they are reported, never removed.
        public var recent: [Orphan] = []
        /// Rows whose file is not in storage: their jobs fail with "cannot open".
        public var missing: [Missing] = []

        public var isConsistent: Bool { orphans.isEmpty && recent.isEmpty && missing.isEmpty }
    }

    let db: PGConnection

    public init(db: PGConnection) {
        self.db = db
    }

    /// Compares `files`, the store's listing of `ObjectKey.videosPrefix`, with the table.
    public func run(files: [StoredObject], now: Date = Date()) throws -> Report {
        let rows = try db.query("SELECT id, storage_key FROM videos ORDER BY storage_key").rows
        var keys: [String: UUID] = [:]
        for row in rows { keys[try row.string("storage_key")] = try row.uuid("id") }
        var report = Report()
        let stored = Set(files.map(\.key))
        for file in files where keys[file.key] == nil {
            let orphan = Orphan(key: file.key, bytes: file.bytes, modified: file.modified)
            if now.timeIntervalSince(file.modified) >= UploadSpool.staleAge {
                report.orphans.append(orphan)
            } else {
                report.recent.append(orphan)
            }
        }
        for (key, id) in keys.sorted(by: { $0.key < $1.key }) where !stored.contains(key) {
            report.missing.append(Missing(videoId: id, key: key))
        }
        return report
    }

    /// The orphans still no row points to (an upload may have recorded one since the listing):
    /// the ones to remove.
    public func unclaimed(_ orphans: [Orphan]) throws -> [Orphan] {
        try orphans.filter { !(try VideoRepository(db).isReferenced(storageKey: $0.key)) }
    }
}
