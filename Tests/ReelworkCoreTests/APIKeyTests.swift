@testable import ReelworkCore
import XCTest

/// The key format: what `generate` makes, `parse` accepts, and what a malformed key is told.
final class APIKeyTests: XCTestCase {
    /// Hands out fixed bytes, so a generated key's text can be predicted.
    struct ReplayGenerator: RandomNumberGenerator {
        var value: UInt64
        mutating func next() -> UInt64 {
            defer { value &+= 1 }
            return value
        }
    }

    func testBase32MatchesTheRFC4648Vectors() {
        let vectors = ["": "", "f": "my", "fo": "mzxq", "foo": "mzxw6", "foob": "mzxw6yq", "fooba": "mzxw6ytb", "foobar": "mzxw6ytboi"]
        for (input, expected) in vectors {
            XCTAssertEqual(APIKey.base32(Array(input.utf8)), expected, input)
        }
    }

    func testEveryRoleGeneratesAKeyThatParsesBackToItsRole() throws {
        for role in APIKeyRole.allCases {
            let key = APIKey.generate(role: role)
            XCTAssertTrue(key.text.hasPrefix(role.keyPrefix), key.text)
            XCTAssertEqual(key.text.count, role.keyPrefix.count + 52, "256 bits in base32 take 52 characters")
            XCTAssertEqual(try APIKey.parse(key.text), key)
            XCTAssertEqual(key.displayPrefix, String(key.text.prefix(role.keyPrefix.count + 8)))
        }
    }

    func testTheSecretComesFromTheGeneratorItIsGiven() {
        var a = ReplayGenerator(value: 7), b = ReplayGenerator(value: 7), c = ReplayGenerator(value: 8)
        XCTAssertEqual(APIKey.generate(role: .club, using: &a), APIKey.generate(role: .club, using: &b))
        XCTAssertNotEqual(APIKey.generate(role: .club, using: &a).text, APIKey.generate(role: .club, using: &c).text)
        // The system generator: a thousand keys, no repeat (a constant or a short cycle would repeat).
        let keys = Set((0..<1000).map { _ in APIKey.generate(role: .operator).text })
        XCTAssertEqual(keys.count, 1000)
    }

    func testMalformedKeysGetTheirOwnError() {
        let body = String(repeating: "a", count: 52)
        let cases: [(String, APIKeyFormatError)] = [
            ("", .empty),
            ("sk_live_" + body, .unknownPrefix),
            ("rw_admin_" + body, .unknownPrefix),
            ("RW_CLUB_" + body, .unknownPrefix),
            ("rw_club_" + body.dropLast(), .wrongLength(expected: 52, found: 51)),
            ("rw_op_" + body + "a", .wrongLength(expected: 52, found: 53)),
            ("rw_worker_" + body + "\n", .wrongLength(expected: 52, found: 53)),
            ("rw_club_", .wrongLength(expected: 52, found: 0)),
            ("rw_club_ab" + "C" + body.dropFirst(3), .invalidCharacter(position: 3)),
            ("rw_club_" + body.dropLast() + "1", .invalidCharacter(position: 52)),
            ("rw_club_" + "é" + body.dropFirst(), .invalidCharacter(position: 1)),
        ]
        for (text, expected) in cases {
            XCTAssertThrowsError(try APIKey.parse(text), text.debugDescription) { error in
                XCTAssertEqual(error as? APIKeyFormatError, expected, text.debugDescription)
            }
        }
    }

    func testErrorMessagesSayWhatIsWrongWithoutRepeatingTheKey() {
        let secret = "rw_club_" + String(repeating: "q", count: 51)
        XCTAssertThrowsError(try APIKey.parse(secret)) { error in
            let message = "\(error)"
            XCTAssertEqual(message, "the API key has 51 characters after its prefix; a key has 52")
            XCTAssertFalse(message.contains("qqqq"))
        }
        XCTAssertTrue("\(APIKeyFormatError.unknownPrefix)".contains("rw_club_, rw_op_, rw_worker_"))
        XCTAssertTrue("\(APIKeyFormatError.invalidCharacter(position: 9))".contains("character 9"))
    }

    func testClubNamesFollowTheRule() throws {
        for good in ["eagles", "A", "north-side_u12.2025", String(repeating: "x", count: 64)] {
            XCTAssertEqual(try ClubName.validate(good), good)
        }
        let bad: [(String, String)] = [
            ("", "cannot be empty"),
            (String(repeating: "x", count: 65), "65 characters long; at most 64"),
            ("north side", "' ' at character 6"),
            ("eagles/u12", "'/' at character 7"),
            ("bad\u{1B}[2J", "'\\u{1B}' at character 4"),
            ("café", "'\\u{00E9}' at character 4"),
        ]
        for (name, expected) in bad {
            XCTAssertThrowsError(try ClubName.validate(name), name.debugDescription) { error in
                XCTAssertTrue("\(error)".contains(expected), "\(error)")
                XCTAssertFalse("\(error)".contains("\u{1B}"), "a control character is escaped, never echoed")
            }
        }
    }
}
