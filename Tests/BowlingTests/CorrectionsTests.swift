import Bowling
import ReelworkCore
import SportKit
import XCTest

/// A person's corrections of a bowling session (issue 31): a false shot dropped, a result set.
final class CorrectionsTests: XCTestCase {
    let detected: JSONValue = .object([
        "ball": .object(["shotsTracked": .number(3)]),
        "shots": .array([
            .object(["shotNumber": .number(1), "startTime": .number(0.5), "launchSpeed": .number(17.2), "result": .null]),
            .object(["shotNumber": .number(2), "startTime": .number(6), "launchSpeed": .number(16.1), "result": .string("gutter")]),
            .object(["shotNumber": .number(3), "startTime": .number(11), "launchSpeed": .number(18), "result": .null]),
        ]),
    ])

    func correct(_ json: String) throws -> CorrectedRows {
        try BowlingCorrections.corrector.correct(try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(json.utf8)), detected: detected, videoSeconds: 20)
    }

    func testAFalseShotIsDroppedAndAResultSetTheMetricsStayAsMeasured() throws {
        let corrected = try correct(#"{"corrections": [{"op": "drop", "index": 0}, {"op": "result", "index": 1, "result": "spare"}]}"#)
        XCTAssertEqual(corrected.kinds, ["drop", "result"])
        guard case .array(let shots)? = corrected.confirmed["shots"] else { return XCTFail("no shots: \(corrected.confirmed)") }
        XCTAssertEqual(shots.map { $0["shotNumber"] }, [.number(1), .number(2)])
        XCTAssertEqual(shots.map { $0["detectedIndex"] }, [.number(1), .number(2)])
        XCTAssertEqual(shots.map { $0["result"] }, [.string("spare"), .null])
        XCTAssertEqual(shots.map { $0["source"] }, [.string("corrected"), .string("detected")])
        XCTAssertEqual(shots.map { $0["launchSpeed"] }, [.number(16.1), .number(18)])
    }

    func testABowlingSessionTakesOnlyItsOwnOpsAndResults() {
        let bad: [(String, String)] = [
            (#"{"corrections": [{"op": "add", "startTime": 3}]}"#, "corrections[0].op must be drop or result, not 'add'"),
            (#"{"corrections": [{"op": "result", "index": 0, "result": "perfect"}]}"#,
             "corrections[0].result must be one of strike, spare, open, split, washout, gutter, incomplete"),
            (#"{"corrections": [{"op": "result", "index": 3, "result": "strike"}]}"#, "shot index 3 does not exist: the result has 3 detected shots"),
        ]
        for (body, text) in bad {
            XCTAssertThrowsError(try correct(body), body) { error in
                let message = (error as? ReelworkError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(text), "\(body): '\(message)' should say '\(text)'")
            }
        }
    }
}
