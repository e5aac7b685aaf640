import Foundation
import ReelworkCore

/// A video about to be recorded: its bytes are already in storage under `storageKey`.
public struct NewVideo: Sendable {
    /// The club the record belongs to (the same bytes get one record per club).
    public var club: String
    public var contentHash: String
    public var sizeBytes: Int64
    public var storageKey: String
    public var originalName: String?
    public var facts: VideoFacts

    public init(club: String, contentHash: String, sizeBytes: Int64, storageKey: String, originalName: String?, facts: VideoFacts) {
        self.club = club
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

    enum SQL {
        /// A new video of club $15 unless it has these bytes ($2) already: $1 id, $3 size, $4 storage
        /// key, $5 original name, $6…$14 the probe's facts.
        static let insert = """
            INSERT INTO videos (id, content_hash, size_bytes, storage_key, original_name, container, codec,
                                width, height, fps, duration_seconds, frame_count, rotation, frame_count_source, club)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
            ON CONFLICT (club, content_hash) DO NOTHING
            RETURNING *
            """
        /// Video $1, if it is club $2's (NULL: any club's).
        static let find = "SELECT * FROM videos WHERE id = $1 AND ($2::text IS NULL OR club = $2)"
        /// Video $1, if job $2 at attempt $3 runs on it.
        static let findForRun = """
            SELECT v.* FROM videos v JOIN jobs j ON j.video_id = v.id
            WHERE v.id = $1 AND j.id = $2 AND j.attempt = $3 AND j.status = \(JobStatus.running.sql)
            """
        /// Club $2's video of the bytes with hash $1.
        static let findByHash = "SELECT * FROM videos WHERE content_hash = $1 AND club = $2"
        /// Club $3's record of video $1's bytes, made with id $2 if it has none.
        static let recordSameBytes = """
            WITH source AS (SELECT * FROM videos WHERE id = $1),
                 copied AS (
                    INSERT INTO videos (id, club, content_hash, size_bytes, storage_key, original_name, container, codec, width,
                                        height, fps, duration_seconds, frame_count, rotation, frame_count_source)
                    SELECT $2, $3, content_hash, size_bytes, storage_key, original_name, container, codec, width,
                           height, fps, duration_seconds, frame_count, rotation, frame_count_source FROM source
                    ON CONFLICT (club, content_hash) DO NOTHING
                    RETURNING *)
            SELECT * FROM copied
            UNION ALL
            SELECT v.* FROM videos v JOIN source s ON v.content_hash = s.content_hash WHERE v.club = $3
            """
        /// Club $1's videos among the comma-separated hashes $2.
        static let existing = "SELECT content_hash, id FROM videos WHERE club = $1 AND content_hash = ANY(string_to_array($2, ','))"
        /// Whether a video points to storage key $1.
        static let referencing = "SELECT 1 FROM videos WHERE storage_key = $1 LIMIT 1"
    }

    /// Records the video, or returns the club's record with the same content hash. `created`
    /// tells which; the same bytes map to one video per club.
    public func insertOrFetch(_ video: NewVideo) throws -> (video: VideoView, created: Bool) {
        let f = video.facts
        let inserted = try db.query(SQL.insert, [UUID(), video.contentHash, video.sizeBytes, video.storageKey, video.originalName, f.container, f.codec,
                  f.width, f.height, f.fps, f.durationSeconds, f.frameCount, f.rotation, f.frameCountSource.rawValue, video.club])
        if let row = inserted.rows.first { return (try Self.view(row), true) }
        guard let existing = try find(contentHash: video.contentHash, club: video.club) else {
            throw ReelworkError.conflict("video \(video.contentHash) vanished while being recorded; upload it again")
        }
        return (existing.video, false)
    }

    /// The video with this id, if `club` may see it (nil: any club's, for operators and workers).
    /// Another club's video is nil, exactly like one that does not exist.
    public func find(id: UUID, club: String?) throws -> (video: VideoView, storageKey: String)? {
        try db.query(SQL.find, [id, club]).rows.first
            .map { (try Self.view($0), try $0.string("storage_key")) }
    }

    /// Video `id` if job `grant.jobId` is analysing it and is `running` at attempt `grant.attempt`:
    /// what a worker key may read (the same fence as every write of a run).
    public func find(id: UUID, grant: VideoReadGrant) throws -> (video: VideoView, storageKey: String)? {
        try db.query(SQL.findForRun, [id, grant.jobId, grant.attempt]).rows.first
            .map { (try Self.view($0), try $0.string("storage_key")) }
    }

    public func find(contentHash: String, club: String) throws -> (video: VideoView, storageKey: String)? {
        try db.query(SQL.findByHash, [contentHash, club]).rows.first
            .map { (try Self.view($0), try $0.string("storage_key")) }
    }

    /// `club`'s own record of the same bytes as video `id` (any club's), made from it if the club has
    /// none: an operator creating a job for a club from another club's upload gives that club its
    /// own record, as if it had uploaded the file itself.
    public func record(sameBytesAs id: UUID, for club: String) throws -> VideoView? {
        let rows = try db.query(SQL.recordSameBytes, [id, UUID(), club]).rows
        if let row = rows.first { return try Self.view(row) }
        // Another request made the club's record after this statement's snapshot: it is there now.
        guard let source = try find(id: id, club: nil) else { return nil }
        return try find(contentHash: source.video.contentHash, club: club)?.video
    }

    /// Which of `hashes` (SHA-256 hex, checked by the caller) the club has recorded, as hash →
    /// video id: one query for many files.
    public func existing(contentHashes hashes: [String], club: String) throws -> [String: UUID] {
        guard !hashes.isEmpty else { return [:] }
        var found: [String: UUID] = [:]
        for row in try db.query(SQL.existing, [club, hashes.joined(separator: ",")]).rows {
            found[try row.string("content_hash")] = try row.uuid("id")
        }
        return found
    }

    /// Whether any video row (of any club) points to the stored object `storageKey`.
    public func isReferenced(storageKey: String) throws -> Bool {
        !(try db.query(SQL.referencing, [storageKey]).rows.isEmpty)
    }

    static func view(_ row: PGRow) throws -> VideoView {
        let facts = VideoFacts(
            durationSeconds: try row.double("duration_seconds"), frameCount: try row.int("frame_count"),
            frameCountSource: VideoFacts.FrameCountSource(rawValue: try row.string("frame_count_source")) ?? .container,
            fps: try row.double("fps"), width: try row.int("width"), height: try row.int("height"),
            codec: try row.string("codec"), rotation: try row.int("rotation"), container: try row.string("container"))
        return VideoView(id: try row.uuid("id"), club: try row.string("club"), contentHash: try row.string("content_hash"),
                         sizeBytes: Int64(try row.int("size_bytes")), originalName: row["original_name"],
                         facts: facts, createdAt: try row.date("created_at"))
    }
}
