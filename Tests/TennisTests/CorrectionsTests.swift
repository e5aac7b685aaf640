import ReelworkCore
import SportKit
import Tennis
import XCTest

/// A person's corrections of a tennis session (issue 31): a false swing dropped, a missed one added.
final class CorrectionsTests: XCTestCase {
    static func swing(_ number: Int, _ type: String, contact: Double) -> JSONValue {
        .object(["swingNumber": .number(Double(number)), "type": .string(type), "startTime": .number(contact - 0.5), "endTime": .number(contact + 0.5),
                 "keyFrameTimes": .object(["contact": .number(contact)]), "metrics": .object(["shoulderTurn": .number(40)])])
    }

    let detected: JSONValue = .object(["swings": .array([swing(1, "forehand", contact: 2), swing(2, "serve", contact: 5)])])

    func correct(_ json: String) throws -> CorrectedRows {
        try TennisCorrections.corrector.correct(try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(json.utf8)), detected: detected, videoSeconds: 9)
    }

    func testASwingIsDroppedAndAMissedOneAddedInItsPlaceInTime() throws {
        let corrected = try correct(#"{"corrections": [{"op": "drop", "index": 0}, {"op": "add", "type": "backhand", "contactTime": 3.5}]}"#)
        XCTAssertEqual(corrected.kinds, ["drop", "add"])
        XCTAssertEqual(corrected.corrections, .array([
            .object(["op": .string("drop"), "index": .number(0)]),
            .object(["op": .string("add"), "type": .string("backhand"), "contactTime": .number(3.5)]),
        ]))
        guard case .array(let swings)? = corrected.confirmed["swings"] else { return XCTFail("no swings: \(corrected.confirmed)") }
        XCTAssertEqual(swings.map { $0["swingNumber"] }, [.number(1), .number(2)])
        XCTAssertEqual(swings.map { $0["type"] }, [.string("backhand"), .string("serve")])
        XCTAssertEqual(swings.map { $0["keyFrameTimes"]?["contact"] }, [.number(3.5), .number(5)])
        XCTAssertEqual(swings.map { $0["source"] }, [.string("added"), .string("detected")])
        XCTAssertEqual(swings[1]["metrics"]?["shoulderTurn"], .number(40), "a kept swing keeps what was measured")
    }

    func testATennisSessionTakesOnlyItsOwnOpsTypesAndTimes() {
        let bad: [(String, String)] = [
            (#"{"corrections": [{"op": "made", "index": 0, "made": true}]}"#, "corrections[0].op must be add or drop, not 'made'"),
            (#"{"corrections": [{"op": "add", "type": "lob", "contactTime": 1}]}"#, "corrections[0].type must be one of forehand, backhand, serve"),
            (#"{"corrections": [{"op": "add", "type": "serve", "contactTime": 9.5}]}"#, "corrections[0].contactTime must be seconds from 0 to 9.0"),
            (#"{"corrections": [{"op": "drop", "index": 2}]}"#, "swing index 2 does not exist: the result has 2 detected swings (0…1)"),
        ]
        for (body, text) in bad {
            XCTAssertThrowsError(try correct(body), body) { error in
                let message = (error as? ReelworkError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(text), "\(body): '\(message)' should say '\(text)'")
            }
        }
    }
}
