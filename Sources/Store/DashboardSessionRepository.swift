import Crypto
import Foundation
import ReelworkCore

/// A signed-in dashboard session: the key it was opened with, and the token every form must send back.
public struct DashboardSession: Sendable, Equatable {
    public var key: APIKeyRecord
    public var csrfToken: String
    public var expiresAt: Date
}

/// Reads and writes `dashboard_sessions`. The cookie is 256 random bits kept only as its SHA-256
/// (like an API key's secret); a session answers only while its key is unrevoked and it has not
/// expired, so revoking a key signs its dashboard sessions out at once.
public struct DashboardSessionRepository {
    let db: PGConnection

    public init(_ db: PGConnection) {
        self.db = db
    }

    enum SQL {
        /// A session of key $2 with hex SHA-256 $1 of its cookie, form token $3, for $4 seconds.
        static let open = """
            WITH opened AS (
                INSERT INTO dashboard_sessions (token_hash, key_id, csrf_token, expires_at)
                VALUES (decode($1, 'hex'), $2, $3, now() + make_interval(secs => $4)) RETURNING *)
            SELECT k.*, c.name AS club_name, opened.csrf_token, opened.expires_at AS session_expires_at
            FROM opened JOIN api_keys k ON k.id = opened.key_id LEFT JOIN clubs c ON c.id = k.club_id
            """
        /// The live session whose cookie has hex SHA-256 $1, of an unrevoked key.
        static let find = """
            SELECT k.*, c.name AS club_name, s.csrf_token, s.expires_at AS session_expires_at
            FROM dashboard_sessions s JOIN api_keys k ON k.id = s.key_id LEFT JOIN clubs c ON c.id = k.club_id
            WHERE s.token_hash = decode($1, 'hex') AND s.expires_at > now() AND k.revoked_at IS NULL
            """
        /// Ends the session with cookie hash $1, and every expired one.
        static let close = "DELETE FROM dashboard_sessions WHERE token_hash = decode($1, 'hex') OR expires_at < now()"
    }

    /// Opens a session for `keyId`; returns the cookie's value (shown to the browser only) and the session.
    public func open(keyId: UUID, lifetime: TimeInterval) throws -> (cookie: String, session: DashboardSession) {
        let cookie = Self.randomToken()
        let csrf = Self.randomToken()
        let rows = try db.query(SQL.open, [Self.hashHex(cookie), keyId, csrf, lifetime]).rows
        guard let row = rows.first else { throw ReelworkError.notFound("no API key has id \(keyId.uuidString.lowercased())") }
        return (cookie, try Self.session(row))
    }

    /// The live session behind a cookie, or nil (unknown, expired, or its key revoked).
    public func find(cookie: String) throws -> DashboardSession? {
        guard Self.isWellFormed(cookie) else { return nil }
        return try db.query(SQL.find, [Self.hashHex(cookie)]).rows.first.map(Self.session)
    }

    /// Ends the session (signing out); also sweeps sessions that expired.
    public func close(cookie: String) throws {
        try db.query(SQL.close, [Self.hashHex(cookie)])
    }

    static func session(_ row: PGRow) throws -> DashboardSession {
        DashboardSession(key: try APIKeyRepository.record(row, club: row["club_name"]), csrfToken: try row.string("csrf_token"),
                         expiresAt: try row.date("session_expires_at"))
    }

    /// 32 random bytes as 64 hex digits: safe in a cookie and a form field as they are.
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return byte < 16 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
    }

    static func isWellFormed(_ token: String) -> Bool {
        token.utf8.count == 64 && token.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    static func hashHex(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
