import Foundation
import ReelworkCore

/// Compares the storage directory with the `videos` table: files no row points to (orphans, e.g.
/// left by a crash between moving an upload into place and recording it) and rows whose file is
/// gone. `reelwork storage check` prints it and, when asked, removes the orphans.
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
        /// Files no row points to yet, younger than `VideoStorage.staleTemporaryAge`: an upload may
        /// be recording them right now, so they are reported, never removed.
        public var recent: [Orphan] = []
        /// Rows whose file is not in storage: their jobs fail with "cannot open".
        public var missing: [Missing] = []

        public var isConsistent: Bool { orphans.isEmpty && recent.isEmpty && missing.isEmpty }
    }

    let storage: VideoStorage
    let db: PGConnection

    public init(storage: VideoStorage, db: PGConnection) {
        self.storage = storage
        self.db = db
    }

    public func run(now: Date = Date()) throws -> Report {
        let files = storage.storedFiles()
        let rows = try db.query("SELECT id, storage_key FROM videos ORDER BY storage_key").rows
        var keys: [String: UUID] = [:]
        for row in rows { keys[try row.string("storage_key")] = try row.uuid("id") }
        var report = Report()
        let stored = Set(files.map(\.key))
        for file in files where keys[file.key] == nil {
            let orphan = Orphan(key: file.key, bytes: file.bytes, modified: file.modified)
            if now.timeIntervalSince(file.modified) >= VideoStorage.staleTemporaryAge {
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

    /// Removes `orphans` unless a row points to one meanwhile; returns the keys removed.
    public func remove(_ orphans: [Orphan]) throws -> [String] {
        var removed: [String] = []
        for orphan in orphans {
            let claimed = try db.query("SELECT 1 FROM videos WHERE storage_key = $1", [orphan.key]).rows.isEmpty == false
            guard !claimed else { continue }
            try storage.remove(key: orphan.key)
            removed.append(orphan.key)
        }
        return removed
    }
}
