import Crypto
import Foundation
import ReelworkCore

/// A key just created: its record and the secret, which exists only in this value. The caller
/// shows `key.text` once; nothing can recover it later.
public struct CreatedAPIKey: Sendable {
    public let record: APIKeyRecord
    public let key: APIKey
}

/// Reads and writes the `clubs` and `api_keys` tables. Secrets are kept only as SHA-256: a fast
/// hash is enough because a key carries 256 random bits (nothing to brute-force, unlike a
/// password), and it lets a presented key be found with one index probe.
public struct APIKeyRepository {
    let db: PGConnection

    /// A key used again within this time keeps its older `last_used_at`, so a busy key costs one
    /// write a minute instead of one per request.
    public static let lastUsedResolutionSeconds = 60

    public init(_ db: PGConnection) {
        self.db = db
    }

    enum SQL {
        /// A key: $1 id, $2 shown prefix, $3 hex SHA-256 of its text, $4 role, $5 club id, $6 label.
        static let insert = """
            INSERT INTO api_keys (id, prefix, secret_hash, role, club_id, label)
            VALUES ($1, $2, decode($3, 'hex'), $4, $5, $6)
            RETURNING *
            """
        static let list = """
            SELECT k.*, c.name AS club_name FROM api_keys k LEFT JOIN clubs c ON c.id = k.club_id
            ORDER BY k.created_at, k.id
            """
        /// Revokes key $1 (its first revocation time stays).
        static let revoke = """
            WITH revoked AS (
                UPDATE api_keys SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING *)
            SELECT revoked.*, c.name AS club_name FROM revoked LEFT JOIN clubs c ON c.id = revoked.club_id
            """
        /// The live key with hex SHA-256 $1, as it was; its last use set to now if older than $2 seconds.
        static let lookup = """
            WITH found AS (SELECT * FROM api_keys WHERE secret_hash = decode($1, 'hex') AND revoked_at IS NULL),
                 touched AS (UPDATE api_keys SET last_used_at = now()
                             WHERE id IN (SELECT id FROM found)
                               AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2)))
            SELECT found.*, c.name AS club_name FROM found LEFT JOIN clubs c ON c.id = found.club_id
            """
        /// Club $2's id, the club created with id $1 if it is new.
        static let ensureClub = """
            WITH inserted AS (INSERT INTO clubs (id, name) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING RETURNING id)
            SELECT id FROM inserted UNION ALL SELECT id FROM clubs WHERE name = $2
            """
    }

    /// Creates a key of `role`. A club key needs `club` (the club row is created on its first
    /// key); operator and worker keys must not name one.
    /// - Throws: `ReelworkError.invalidRequest` for a missing, unexpected or malformed club name.
    public func create(role: APIKeyRole, club: String?, label: String?) throws -> CreatedAPIKey {
        let clubName = try Self.checkClub(club, for: role)
        try Self.checkLabel(label)
        let key = APIKey.generate(role: role)
        return try db.transaction { db in
            let clubId = try clubName.map { try ensureClub($0, on: db) }
            let row = try db.query(SQL.insert, [UUID(), key.displayPrefix, Self.hashHex(key), role.rawValue, clubId, label]).rows[0]
            return CreatedAPIKey(record: try Self.record(row, club: clubName), key: key)
        }
    }

    /// Every key, revoked ones included, oldest first.
    public func list() throws -> [APIKeyRecord] {
        try db.query(SQL.list).rows.map { try Self.record($0, club: $0["club_name"]) }
    }

    /// Revokes the key: it stops working at once. Revoking a revoked key changes nothing (its
    /// first revocation time stays).
    /// - Throws: `ReelworkError.notFound` when no key has this id.
    @discardableResult
    public func revoke(id: UUID) throws -> APIKeyRecord {
        let rows = try db.query(SQL.revoke, [id]).rows
        guard let row = rows.first else {
            throw ReelworkError.notFound("no API key has id \(id.uuidString.lowercased()); `reelwork keys list` shows the ids")
        }
        return try Self.record(row, club: row["club_name"])
    }

    /// The live key whose secret is `presented`, or nil when no key has it or it was revoked
    /// (the two look the same to a caller, so an answer cannot tell a revoked key from a guess).
    /// Records the use (see `lastUsedResolutionSeconds`).
    /// - Throws: `APIKeyFormatError` when `presented` is not shaped like a key at all.
    public func lookup(presented: String) throws -> APIKeyRecord? {
        let key = try APIKey.parse(presented)
        // The row is read before the touch, so the returned last use is the previous one.
        let rows = try db.query(SQL.lookup, [Self.hashHex(key), Self.lastUsedResolutionSeconds]).rows
        return try rows.first.map { try Self.record($0, club: $0["club_name"]) }
    }

    /// Hex SHA-256 of the whole key text, as stored in `secret_hash`.
    static func hashHex(_ key: APIKey) -> String {
        SHA256.hash(data: Data(key.text.utf8)).map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
    }

    static func checkClub(_ club: String?, for role: APIKeyRole) throws -> String? {
        switch (role, club) {
        case (.club, nil):
            throw ReelworkError.invalidRequest("a club key needs a club name")
        case (.club, let name?):
            return try ClubName.validate(name)
        case (_, nil):
            return nil
        case (_, .some):
            throw ReelworkError.invalidRequest("\(role.rawValue) keys belong to no club; leave the club out")
        }
    }

    /// Labels are for people reading `keys list`: one short line.
    public static let maxLabelLength = 200

    static func checkLabel(_ label: String?) throws {
        guard let label else { return }
        if label.unicodeScalars.count > maxLabelLength {
            throw ReelworkError.invalidRequest("the label is \(label.unicodeScalars.count) characters long; at most \(maxLabelLength) are allowed")
        }
        if label.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ReelworkError.invalidRequest("the label contains a control character (a newline or tab, say); use one plain line")
        }
    }

    /// The club's id, creating the club on first use. Two processes creating the same club at
    /// once both end with the one row (the unique name decides).
    private func ensureClub(_ name: String, on db: PGConnection) throws -> UUID {
        let rows = try db.query(SQL.ensureClub, [UUID(), name]).rows
        guard let row = rows.first else {
            throw ReelworkError.conflict("club \(name) could not be created or found; try again")
        }
        return try row.uuid("id")
    }

    static func record(_ row: PGRow, club: String?) throws -> APIKeyRecord {
        let roleText = try row.string("role")
        guard let role = APIKeyRole(rawValue: roleText) else {
            throw PostgresError(message: "api_keys.role holds '\(roleText)', which this version does not know")
        }
        return APIKeyRecord(id: try row.uuid("id"), prefix: try row.string("prefix"), role: role, club: club,
                            label: row["label"], createdAt: try row.date("created_at"),
                            revokedAt: row.optionalDate("revoked_at"), lastUsedAt: row.optionalDate("last_used_at"))
    }
}
