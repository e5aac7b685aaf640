import Foundation
import ReelworkCore
import Store
import XCTest

/// `reelwork keys` as an operator runs it: straight against PostgreSQL, no coordinator.
final class KeysCommandTests: XCTestCase {
    var stack: TestStack!

    override func setUpWithError() throws {
        stack = try TestStack()   // a fresh database with the migrations applied
    }

    override func tearDown() {
        stack?.shutdown()
    }

    struct CreatedKey: Decodable {
        let id: UUID
        let key: String
        let role: String
        let club: String?
    }

    func create(_ arguments: [String]) throws -> CreatedKey {
        let result = try stack.run(["keys", "create"] + arguments + ["--format", "json"])
        XCTAssertEqual(result.status, 0, result.output)
        return try JSONDecoder().decode(CreatedKey.self, from: Data(result.stdout.utf8))
    }

    func testCreateListRevoke() throws {
        let club = try create(["--club", "eagles", "--label", "coach laptop"])
        XCTAssertTrue(club.key.hasPrefix("rw_club_"), club.key)
        XCTAssertEqual(club.role, "club")
        XCTAssertEqual(club.club, "eagles")
        let op = try create(["--operator"])
        XCTAssertEqual(op.role, "operator")
        XCTAssertNil(op.club)
        XCTAssertTrue(op.key.hasPrefix("rw_op_"), op.key)

        // Text output: the secret alone on the last line, and it works.
        let text = try stack.run(["keys", "create", "--worker"])
        XCTAssertEqual(text.status, 0, text.output)
        let workerKey = try XCTUnwrap(text.stdout.split(separator: "\n").last.map(String.init))
        XCTAssertEqual(try APIKeyRepository(stack.db()).lookup(presented: workerKey)?.role, .worker)
        XCTAssertEqual(try APIKeyRepository(stack.db()).lookup(presented: club.key)?.club, "eagles")

        let list = try stack.run(["keys", "list"])
        XCTAssertEqual(list.status, 0, list.output)
        for key in [club.key, op.key, workerKey] {
            XCTAssertFalse(list.output.contains(key.dropFirst(16)), "a secret in `keys list`:\n\(list.output)")
            XCTAssertTrue(list.output.contains(try APIKey.parse(key).displayPrefix), "each key's display prefix is listed:\n\(list.output)")
        }
        let clubLine = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.contains(club.id.uuidString.lowercased()) })
        XCTAssertTrue(clubLine.contains("eagles") && clubLine.contains("coach laptop") && !clubLine.contains("never"),
                      "the lookup above recorded a use: \(clubLine)")
        let opLine = try XCTUnwrap(list.stdout.split(separator: "\n").first { $0.contains(op.id.uuidString.lowercased()) })
        XCTAssertTrue(opLine.contains("never"), "an unused key: \(opLine)")

        let revoke = try stack.run(["keys", "revoke", club.id.uuidString.lowercased()])
        XCTAssertEqual(revoke.status, 0, revoke.output)
        XCTAssertNil(try APIKeyRepository(stack.db()).lookup(presented: club.key), "a revoked key no longer opens anything")
        XCTAssertNotNil(try APIKeyRepository(stack.db()).lookup(presented: op.key))
        let after = try stack.run(["keys", "list", "--format", "json"])
        let records = try ReelworkJSON.decoder.decode([APIKeyRecord].self, from: Data(after.stdout.utf8))
        XCTAssertEqual(records.filter(\.isRevoked).map(\.id), [club.id])
    }

    func testMistakesAreRefusedWithTheReason() throws {
        let unknown = UUID().uuidString.lowercased()
        let cases: [([String], String)] = [
            (["revoke", unknown], "no API key has id \(unknown)"),
            (["revoke", "not-a-uuid"], "'not-a-uuid' is not a key id"),
            (["create"], "say which key"),
            (["create", "--club", "eagles", "--operator"], "choose one of"),
            (["create", "--club", "north side"], "' ' at character 6"),
        ]
        let keysBefore = try stack.db().query("SELECT count(*) AS n FROM api_keys").rows[0].int("n")
        for (arguments, message) in cases {
            let result = try stack.run(["keys"] + arguments)
            XCTAssertNotEqual(result.status, 0, arguments.joined(separator: " "))
            XCTAssertTrue(result.output.contains(message), "\(arguments): \(result.output)")
        }
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM api_keys").rows[0].int("n"), keysBefore, "a refused create adds no key")
    }
}
