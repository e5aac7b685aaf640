import Foundation
import ReelworkCore

/// A video about to be recorded: its bytes are already in storage under `storageKey`.
public struct NewVideo: Sendable {
    public var contentHash: String
    public var sizeBytes: Int64
    public var storageKey: String
    public var originalName: String?
    public var facts: VideoFacts

    public init(contentHash: String, sizeBytes: Int64, storageKey: String, originalName: String?, facts: VideoFacts) {
        self.contentHash = contentHash
        self.sizeBytes = sizeBytes
        self.storageKey = storageKey
        self.originalName = originalName
        self.facts = facts
    }
}

/// Reads and writes the `videos` table.
public struct VideoRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    /// Records the video, or returns the one already recorded with the same content hash.
    /// `created` tells which; the same bytes always map to one video.
    public func insertOrFetch(_ video: NewVideo) throws -> (video: VideoView, created: Bool) {
        let f = video.facts
        let inserted = try db.query("""
            INSERT INTO videos (id, content_hash, size_bytes, storage_key, original_name, container, codec,
                                width, height, fps, duration_seconds, frame_count, rotation, frame_count_source)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
            ON CONFLICT (content_hash) DO NOTHING
            RETURNING *
            """, [UUID(), video.contentHash, video.sizeBytes, video.storageKey, video.originalName, f.container, f.codec,
                  f.width, f.height, f.fps, f.durationSeconds, f.frameCount, f.rotation, f.frameCountSource.rawValue])
        if let row = inserted.rows.first { return (try Self.view(row), true) }
        guard let existing = try find(contentHash: video.contentHash) else {
            throw ReelworkError.conflict("video \(video.contentHash) vanished while being recorded; upload it again")
        }
        return (existing.video, false)
    }

    public func find(id: UUID) throws -> (video: VideoView, storageKey: String)? {
        try db.query("SELECT * FROM videos WHERE id = $1", [id]).rows.first.map { (try Self.view($0), try $0.string("storage_key")) }
    }

    public func find(contentHash: String) throws -> (video: VideoView, storageKey: String)? {
        try db.query("SELECT * FROM videos WHERE content_hash = $1", [contentHash]).rows.first
            .map { (try Self.view($0), try $0.string("storage_key")) }
    }

    static func view(_ row: PGRow) throws -> VideoView {
        let facts = VideoFacts(
            durationSeconds: try row.double("duration_seconds"), frameCount: try row.int("frame_count"),
            frameCountSource: VideoFacts.FrameCountSource(rawValue: try row.string("frame_count_source")) ?? .container,
            fps: try row.double("fps"), width: try row.int("width"), height: try row.int("height"),
            codec: try row.string("codec"), rotation: try row.int("rotation"), container: try row.string("container"))
        return VideoView(id: try row.uuid("id"), contentHash: try row.string("content_hash"),
                         sizeBytes: Int64(try row.int("size_bytes")), originalName: row["original_name"],
                         facts: facts, createdAt: try row.date("created_at"))
    }
}
