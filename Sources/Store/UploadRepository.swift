import Foundation
import ReelworkCore

/// An upload in parts as the `uploads` table keeps it: what was declared (`record.id`,
/// `record.sizeBytes`… read through to it) and where it stands.
@dynamicMemberLookup
public struct UploadRecord: Sendable, Equatable {
    public var declared: NewUpload
    public var status: UploadStatus
    public var videoId: UUID?
    public var error: String?
    public var expiresAt: Date

    public var plan: UploadPlan { UploadPlan(sizeBytes: declared.sizeBytes, partBytes: declared.partBytes) }

    public subscript<Value>(dynamicMember field: WritableKeyPath<NewUpload, Value>) -> Value {
        get { declared[keyPath: field] }
        set { declared[keyPath: field] = newValue }
    }

    public init(_ declared: NewUpload, status: UploadStatus = .open, videoId: UUID? = nil, error: String? = nil, expiresAt: Date) {
        self.declared = declared
        self.status = status
        self.videoId = videoId
        self.error = error
        self.expiresAt = expiresAt
    }
}

/// An upload about to be recorded: what the client declared and where its parts go. It has no
/// expiry of its own: `UploadRepository.insert` sets one from PostgreSQL's clock.
public struct NewUpload: Sendable, Equatable {
    public var id: UUID
    public var club: String
    public var originalName: String?
    public var sizeBytes: Int64
    public var contentHash: String
    public var partBytes: Int64
    public var stagingKey: String
    public var storeUploadId: String?

    public init(id: UUID, club: String, originalName: String?, sizeBytes: Int64, contentHash: String, partBytes: Int64, stagingKey: String,
                storeUploadId: String?) {
        self.id = id
        self.club = club
        self.originalName = originalName
        self.sizeBytes = sizeBytes
        self.contentHash = contentHash
        self.partBytes = partBytes
        self.stagingKey = stagingKey
        self.storeUploadId = storeUploadId
    }
}

/// Reads and writes the `uploads` table. Every move between states names the state it leaves, so
/// two coordinators completing (or a sweep expiring) the same upload cannot both win.
public struct UploadRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    enum SQL {
        /// $9 hours from PostgreSQL's now(), the clock the sweep (`expired`) compares with: a
        /// coordinator whose clock runs off would otherwise shorten or stretch every upload's life.
        static let insert = """
            INSERT INTO uploads (id, club, original_name, size_bytes, content_hash, part_bytes, staging_key, store_upload_id, expires_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() + make_interval(hours => $9::int)) RETURNING *
            """
        /// $1 id, $2 the club that may see it (NULL: any).
        static let find = "SELECT * FROM uploads WHERE id = $1 AND ($2::text IS NULL OR club = $2)"
        /// Moves upload $1 from $2 to $3 with error $4; returns it when it moved.
        static let move = """
            UPDATE uploads SET status = $3, error = COALESCE($4, error),
                               finished_at = CASE WHEN $3 IN \(UploadStatus.unfinished.sql) THEN NULL ELSE now() END
            WHERE id = $1 AND status = $2 RETURNING *
            """
        static let complete = """
            UPDATE uploads SET status = \(UploadStatus.completed.sql), video_id = $2, finished_at = now()
            WHERE id = $1 AND status = \(UploadStatus.completing.sql) RETURNING *
            """
        /// Unfinished uploads past their time, $1 at most, oldest first.
        static let expired = """
            SELECT * FROM uploads WHERE status IN \(UploadStatus.unfinished.sql) AND expires_at < now() ORDER BY expires_at LIMIT $1
            """
        /// How many uploads club $1 has open.
        static let unfinishedOfClub = "SELECT count(*) AS n FROM uploads WHERE club = $1 AND status IN \(UploadStatus.unfinished.sql)"
        /// The state of the uploads staged at the keys $1 (an SQL array's text), and whether each is
        /// past its expiry by PostgreSQL's clock (the sweep's).
        static let statesByKey = "SELECT id, staging_key, status, expires_at < now() AS overdue FROM uploads WHERE staging_key = ANY($1::text[])"
    }

    /// Records `upload`, open until `hours` after PostgreSQL's now(); returns it as stored, with
    /// that expiry.
    public func insert(_ upload: NewUpload, expiresInHours hours: Int) throws -> UploadRecord {
        try Self.record(try db.query(SQL.insert, [upload.id, upload.club, upload.originalName, upload.sizeBytes, upload.contentHash,
                                                  upload.partBytes, upload.stagingKey, upload.storeUploadId, hours]).rows[0])
    }

    /// Upload `id` if `club` may see it (nil: any club's). Another club's is nil, like a missing one.
    public func find(id: UUID, club: String?) throws -> UploadRecord? {
        try db.query(SQL.find, [id, club]).rows.first.map(Self.record)
    }

    /// Moves upload `id` from `from` to `to` (with `error`); nil when it was not in `from`.
    public func move(_ id: UUID, from: UploadStatus, to: UploadStatus, error: String? = nil) throws -> UploadRecord? {
        try db.query(SQL.move, [id, from.rawValue, to.rawValue, error]).rows.first.map(Self.record)
    }

    /// Records that upload `id`, being completed, became video `videoId`.
    public func complete(_ id: UUID, videoId: UUID) throws -> UploadRecord? {
        try db.query(SQL.complete, [id, videoId]).rows.first.map(Self.record)
    }

    public func unfinishedCount(club: String) throws -> Int {
        try db.query(SQL.unfinishedOfClub, [club]).rows[0].int("n")
    }

    public func expired(limit: Int) throws -> [UploadRecord] {
        try db.query(SQL.expired, [limit]).rows.map(Self.record)
    }

    /// Where an upload staged at a key stands: its state, and whether it is past its expiry.
    public struct KeyState: Sendable, Equatable {
        public let id: UUID
        public let status: UploadStatus
        public let overdue: Bool
    }

    /// The state of each upload staged at one of `keys`; a key no upload has is absent.
    public func states(stagingKeys keys: [String]) throws -> [String: KeyState] {
        guard !keys.isEmpty else { return [:] }
        let list = "{" + keys.map { "\"\($0)\"" }.joined(separator: ",") + "}"
        var states: [String: KeyState] = [:]
        for row in try db.query(SQL.statesByKey, [list]).rows {
            if let status = UploadStatus(rawValue: try row.string("status")) {
                states[try row.string("staging_key")] = KeyState(id: try row.uuid("id"), status: status, overdue: try row.bool("overdue"))
            }
        }
        return states
    }

    static func record(_ row: PGRow) throws -> UploadRecord {
        guard let status = UploadStatus(rawValue: try row.string("status")) else {
            throw PostgresError(message: "uploads.status '\(row["status"] ?? "")' is not an upload state")
        }
        let declared = NewUpload(id: try row.uuid("id"), club: try row.string("club"), originalName: row["original_name"],
                                 sizeBytes: Int64(try row.string("size_bytes")) ?? 0, contentHash: try row.string("content_hash"),
                                 partBytes: Int64(try row.string("part_bytes")) ?? 0, stagingKey: try row.string("staging_key"),
                                 storeUploadId: row["store_upload_id"])
        return UploadRecord(declared, status: status, videoId: row.optionalUUID("video_id"), error: row["error"],
                            expiresAt: try row.date("expires_at"))
    }
}
