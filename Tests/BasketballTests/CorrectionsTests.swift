import Basketball
import ReelworkCore
import SportKit
import XCTest

/// A person's corrections of a basketball session (issue 31), and the checks every sport's
/// corrections share (`RowCorrector`): each bad input refused with a message naming it.
final class CorrectionsTests: XCTestCase {
    static func shot(_ number: Int, _ release: Double, made: Bool, _ type: String) -> JSONValue {
        .object(["shotNumber": .number(Double(number)), "releaseTime": .number(release), "rimTime": .number(release + 1),
                 "made": .bool(made), "shotType": .string(type), "distanceFt": .number(type == "3PT" ? 23 : 15), "confidence": .number(0.8)])
    }

    /// Three attempts: a missed two at 1 s, a made three at 4 s, a missed two at 8 s.
    let detected: JSONValue = .object([
        "hoop": .object(["source": .string("found")]),
        "shots": .array([shot(1, 1, made: false, "2PT"), shot(2, 4, made: true, "3PT"), shot(3, 8, made: false, "2PT")]),
        "stats": ShootingStats(fieldGoalsAttempted: 3, fieldGoalsMade: 1, threePointAttempted: 1, threePointMade: 1).json(),
    ])

    func correct(_ json: String, videoSeconds: Double? = 10) throws -> CorrectedRows {
        try BasketballCorrections.corrector.correct(try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(json.utf8)),
                                                    detected: detected, videoSeconds: videoSeconds)
    }

    func testMadeTypeDropAndAddGiveTheConfirmedShotsInTimeOrderWithTheirStatsRecomputed() throws {
        let corrected = try correct("""
            {"corrections": [{"op": "made", "index": 0, "made": true, "note": "kept out"}, {"op": "type", "index": 2, "shotType": "3PT"},
                             {"op": "drop", "index": 1}, {"op": "add", "releaseTime": 6, "made": true, "shotType": "2PT"}]}
            """)
        XCTAssertEqual(corrected.kinds, ["made", "type", "drop", "add"])
        XCTAssertEqual(corrected.corrections, .array([
            .object(["op": .string("made"), "index": .number(0), "made": .bool(true)]),
            .object(["op": .string("type"), "index": .number(2), "shotType": .string("3PT")]),
            .object(["op": .string("drop"), "index": .number(1)]),
            .object(["op": .string("add"), "releaseTime": .number(6), "made": .bool(true), "shotType": .string("2PT")]),
        ]), "stored as read: what else the body held is not kept")
        guard case .array(let shots)? = corrected.confirmed["shots"] else { return XCTFail("no shots: \(corrected.confirmed)") }
        XCTAssertEqual(shots.map { $0["shotNumber"] }, [.number(1), .number(2), .number(3)], "renumbered")
        XCTAssertEqual(shots.map { $0["releaseTime"] }, [.number(1), .number(6), .number(8)], "the added attempt in its place in time")
        XCTAssertEqual(shots.map { $0["made"] }, [.bool(true), .bool(true), .bool(false)])
        XCTAssertEqual(shots.map { $0["shotType"] }, [.string("2PT"), .string("2PT"), .string("3PT")])
        XCTAssertEqual(shots.map { $0["source"] }, [.string("corrected"), .string("added"), .string("corrected")])
        XCTAssertEqual(shots.map { $0["detectedIndex"] }, [.number(0), .null, .number(2)])
        XCTAssertEqual(shots[0]["distanceFt"], .number(15), "what was not corrected stays as measured")
        XCTAssertEqual(shots[1]["confidence"], .null, "nothing measured the added attempt")
        // 3 attempts, 2 made (both twos), one three missed: FG 66.7 %, 4 points.
        XCTAssertEqual(corrected.confirmed["stats"], ShootingStats(fieldGoalsAttempted: 3, fieldGoalsMade: 2, threePointAttempted: 1, threePointMade: 0).json())
        XCTAssertEqual(corrected.confirmed["stats"]?["points"], .number(4))
        XCTAssertNil(corrected.confirmed["hoop"], "the confirmed version holds the rows and their totals only")
    }

    func testNoCorrectionsConfirmTheDetectedShots() throws {
        let corrected = try correct(#"{"corrections": []}"#)
        guard case .array(let shots)? = corrected.confirmed["shots"] else { return XCTFail("no shots") }
        XCTAssertEqual(shots.count, 3)
        XCTAssertTrue(shots.allSatisfy { $0["source"] == .string("detected") })
        XCTAssertEqual(corrected.confirmed["stats"], detected["stats"])
        XCTAssertEqual(corrected.kinds, [])
    }

    func testEveryBadCorrectionIsRefusedNamingIt() {
        let many = "[" + Array(repeating: #"{"op": "drop", "index": 0}"#, count: 201).joined(separator: ",") + "]"
        let bad: [(String, String)] = [
            (#"{"moves": []}"#, "corrections must be an array of {op: add, drop, made or type"),
            (#"{"corrections": [3]}"#, "corrections[0] must be an object"),
            (#"{"corrections": [{"index": 0}]}"#, "corrections[0].op must be add, drop, made or type"),
            (#"{"corrections": [{"op": "bend", "index": 0}]}"#, "corrections[0].op must be add, drop, made or type, not 'bend'"),
            (#"{"corrections": [{"op": "drop", "index": 3}]}"#, "corrections[0]: shot index 3 does not exist: the result has 3 detected shots (0…2)"),
            (#"{"corrections": [{"op": "drop", "index": -1}]}"#, "corrections[0].index must be a whole number"),
            (#"{"corrections": [{"op": "drop", "index": 1.5}]}"#, "corrections[0].index must be a whole number"),
            (#"{"corrections": [{"op": "drop"}]}"#, "corrections[0].index must be a whole number"),
            (#"{"corrections": [{"op": "made", "index": 0, "made": "yes"}]}"#, "corrections[0].made must be true or false"),
            (#"{"corrections": [{"op": "type", "index": 0, "shotType": "4PT"}]}"#, "corrections[0].shotType must be one of 2PT, 3PT"),
            (#"{"corrections": [{"op": "add", "releaseTime": 10.5, "made": true, "shotType": "2PT"}]}"#,
             "corrections[0].releaseTime must be seconds from 0 to 10.0 (the video's length)"),
            (#"{"corrections": [{"op": "add", "releaseTime": -0.1, "made": true, "shotType": "2PT"}]}"#, "corrections[0].releaseTime must be seconds"),
            (#"{"corrections": [{"op": "add", "releaseTime": 2, "shotType": "2PT"}]}"#, "corrections[0].made must be true or false"),
            (#"{"corrections": [{"op": "drop", "index": 1}, {"op": "made", "index": 1, "made": true}]}"#, "corrections[1]: shot 1 is already dropped"),
            (#"{"corrections": [{"op": "made", "index": 1, "made": true}, {"op": "drop", "index": 1}]}"#, "corrections[1]: shot 1 is both corrected and dropped"),
            (#"{"corrections": [{"op": "made", "index": 1, "made": true}, {"op": "made", "index": 1, "made": false}]}"#, "corrections[1]: shot 1 takes 'made' twice"),
            (#"{"corrections": \#(many)}"#, "at most 200 corrections at once, not 201"),
        ]
        for (body, text) in bad {
            XCTAssertThrowsError(try correct(body), body) { error in
                let message = (error as? ReelworkError)?.message ?? "\(error)"
                XCTAssertTrue(message.contains(text), "\(body): '\(message)' should say '\(text)'")
            }
        }
    }

    func testATimeIsBoundedByADayWhenTheVideoLengthIsUnknown() throws {
        XCTAssertNoThrow(try correct(#"{"corrections": [{"op": "add", "releaseTime": 600, "made": false, "shotType": "3PT"}]}"#, videoSeconds: nil))
        XCTAssertThrowsError(try correct(#"{"corrections": [{"op": "add", "releaseTime": 1e300, "made": false, "shotType": "3PT"}]}"#, videoSeconds: nil))
    }

    func testTheLineOfJSONShotsIsTheLineOfTheShots() {
        let shots = [BasketballShot(shotNumber: 1, releaseTime: 1, rimTime: 2, made: true, shotType: .threePoint, distanceFt: 23, confidence: 1,
                                    releasePoint: FramePoint(x: 0, y: 0), trajectory: []),
                     BasketballShot(shotNumber: 2, releaseTime: 3, rimTime: 4, made: false, shotType: .twoPoint, distanceFt: 12, confidence: 1,
                                    releasePoint: FramePoint(x: 0, y: 0), trajectory: [])]
        XCTAssertEqual(ShootingStats(rows: shots.map { $0.json() }), ShootingStats(shots: shots))
    }
}
