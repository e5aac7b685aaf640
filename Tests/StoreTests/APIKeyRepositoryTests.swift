import Foundation
import ReelworkCore
import Store
import TestSupport
import XCTest

/// API keys in PostgreSQL: the secret is kept only as its hash, a live key is found by it, a
/// revoked or unknown one is not, and the table itself refuses a club key without a club.
final class APIKeyRepositoryTests: MigratedDatabaseTestCase {
    var keys: APIKeyRepository { APIKeyRepository(db) }

    func testTheSecretIsStoredOnlyAsItsSHA256() throws {
        let created = try keys.create(role: .club, club: "eagles", label: "coach laptop")
        let secret = created.key.text
        let body = String(secret.dropFirst(APIKeyRole.club.keyPrefix.count))
        // Every column of the row as text (bytea as hex, too): no column holds the secret, or its body.
        let row = try db.query("""
            SELECT row_to_json(k)::text AS everything, encode(secret_hash, 'hex') AS stored,
                   encode(sha256(convert_to($2, 'UTF8')), 'hex') AS expected
            FROM api_keys k WHERE id = $1
            """, [created.record.id, secret]).rows[0]
        let everything = try row.string("everything")
        XCTAssertFalse(everything.contains(body), everything)
        XCTAssertFalse(everything.contains(body.prefix(20)), "not even a usable part of it")
        // The hash is SHA-256 of the whole key text, as PostgreSQL's own sha256 computes it.
        XCTAssertEqual(try row.string("stored"), try row.string("expected"))
        XCTAssertEqual(created.record.prefix, String(secret.prefix(APIKeyRole.club.keyPrefix.count + 8)))
    }

    func testALiveKeyIsFoundByItsSecretAndItsUseIsRecorded() throws {
        let club = try keys.create(role: .club, club: "eagles", label: nil)
        let op = try keys.create(role: .operator, club: nil, label: "ops")
        let found = try XCTUnwrap(keys.lookup(presented: club.key.text))
        XCTAssertEqual(found.id, club.record.id)
        XCTAssertEqual(found.role, .club)
        XCTAssertEqual(found.club, "eagles")
        let foundOp = try XCTUnwrap(keys.lookup(presented: op.key.text))
        XCTAssertEqual(foundOp.id, op.record.id)
        XCTAssertNil(foundOp.club)
        XCTAssertNil(found.lastUsedAt, "the record read before this use had none")
        let lastUsed = try db.query("SELECT last_used_at FROM api_keys WHERE id = $1", [club.record.id]).rows[0].optionalDate("last_used_at")
        XCTAssertNotNil(lastUsed, "the lookup recorded the use")
        XCTAssertNotNil(try keys.lookup(presented: club.key.text)?.lastUsedAt)
    }

    func testAWellFormedKeyNobodyHoldsIsNotFound() throws {
        _ = try keys.create(role: .worker, club: nil, label: nil)
        XCTAssertNil(try keys.lookup(presented: APIKey.generate(role: .worker).text))
    }

    func testARevokedKeyIsNotFoundAndStaysRevokedFromItsFirstRevocation() throws {
        let created = try keys.create(role: .club, club: "eagles", label: nil)
        let other = try keys.create(role: .club, club: "eagles", label: nil)
        let revoked = try keys.revoke(id: created.record.id)
        let firstRevocation = try XCTUnwrap(revoked.revokedAt)
        XCTAssertNil(try keys.lookup(presented: created.key.text))
        XCTAssertNotNil(try keys.lookup(presented: other.key.text), "only that key stopped working")
        XCTAssertEqual(try keys.revoke(id: created.record.id).revokedAt, firstRevocation)
        XCTAssertEqual(try keys.list().first { $0.id == created.record.id }?.revokedAt, firstRevocation)
    }

    func testRevokingAnUnknownIdSaysSo() throws {
        let id = UUID()
        XCTAssertThrowsError(try keys.revoke(id: id)) { error in
            XCTAssertEqual(error as? ReelworkError, .notFound("no API key has id \(id.uuidString.lowercased()); `reelwork keys list` shows the ids"))
        }
    }

    func testTheTableRefusesAClubKeyWithoutAClubAndAnOperatorKeyWithOne() throws {
        _ = try keys.create(role: .club, club: "eagles", label: nil)
        let club = try db.query("SELECT id FROM clubs WHERE name = 'eagles'").rows[0].uuid("id")
        let insert = "INSERT INTO api_keys (id, prefix, secret_hash, role, club_id) VALUES ($1, 'p', sha256($2::bytea), $3, $4)"
        for (role, clubId) in [("club", nil), ("operator", club), ("worker", club)] as [(String, UUID?)] {
            XCTAssertThrowsError(try db.query(insert, [UUID(), UUID().uuidString, role, clubId]), role) { error in
                XCTAssertEqual((error as? PostgresError)?.sqlState, "23514", "\(error)")
                XCTAssertTrue("\(error)".contains("api_keys_club_iff_club_role"), "\(error)")
            }
        }
        XCTAssertThrowsError(try db.query(insert, [UUID(), "x", "admin", nil])) { error in
            XCTAssertEqual((error as? PostgresError)?.sqlState, "23514", "an unknown role: \(error)")
        }
        XCTAssertNoThrow(try db.query(insert, [UUID(), "y", "club", club]), "the same row with its club is accepted")
    }

    func testTheRepositoryChecksRoleAndClubBeforeWriting() throws {
        let refused: [(APIKeyRole, String?, String?, String)] = [
            (.club, nil, nil, "a club key needs a club name"),
            (.operator, "eagles", nil, "operator keys belong to no club"),
            (.worker, "eagles", nil, "worker keys belong to no club"),
            (.club, "north side", nil, "' ' at character 6"),
            (.club, String(repeating: "x", count: 65), nil, "at most 64"),
            (.operator, nil, "two\nlines", "control character"),
            (.operator, nil, String(repeating: "l", count: 201), "at most 200"),
        ]
        for (role, club, label, message) in refused {
            XCTAssertThrowsError(try keys.create(role: role, club: club, label: label)) { error in
                XCTAssertTrue("\(error)".contains(message), "\(error)")
            }
        }
        XCTAssertEqual(try db.query("SELECT (SELECT count(*) FROM api_keys) + (SELECT count(*) FROM clubs) AS n").rows[0].int("n"), 0,
                       "nothing half-created")
    }

    func testAClubIsCreatedOnItsFirstKeyAndSharedByTheNext() throws {
        let a = try keys.create(role: .club, club: "eagles", label: "a")
        let b = try keys.create(role: .club, club: "eagles", label: "b")
        _ = try keys.create(role: .club, club: "hawks", label: nil)
        XCTAssertEqual(try db.query("SELECT name FROM clubs ORDER BY name").rows.compactMap { $0["name"] }, ["eagles", "hawks"])
        let clubIds = try db.query("SELECT DISTINCT club_id FROM api_keys WHERE id IN ($1, $2)", [a.record.id, b.record.id]).rows
        XCTAssertEqual(clubIds.count, 1)
        let listed = try keys.list()
        XCTAssertEqual(listed.map(\.id), [a.record.id, b.record.id, listed[2].id])
        XCTAssertEqual(listed.map(\.club), ["eagles", "eagles", "hawks"])
        XCTAssertEqual(listed.map(\.label), ["a", "b", nil])
    }

    func testAMalformedKeyIsRejectedBeforeAnyLookup() throws {
        XCTAssertThrowsError(try keys.lookup(presented: "rw_club_tooshort")) { error in
            XCTAssertEqual(error as? APIKeyFormatError, .wrongLength(expected: 52, found: 8))
        }
        XCTAssertThrowsError(try keys.lookup(presented: "Bearer rw_op_x")) { error in
            XCTAssertEqual(error as? APIKeyFormatError, .unknownPrefix)
        }
    }
}
