import ReelworkCore
import SportMath
import XCTest
@testable import Bowling

final class OptionsTests: XCTestCase {
    func testGoodOptions() throws {
        let options = try BowlingOptions.parse(.object([
            "hand": .string("left"),
            "ballProfile": .object(["color": SyntheticFrame.ballHSV, "colorTolerance": .number(20),
                                    "markerColor": SyntheticFrame.markerHSV]),
            "calibration": TestOptions.flatCalibration,
        ]))
        XCTAssertEqual(options.hand, .left)
        XCTAssertEqual(options.ballProfile.color, HSVColor(h: 232.5, s: 80, v: 78))
        XCTAssertEqual(options.ballProfile.colorTolerance, 20)
        XCTAssertEqual(options.ballProfile.markerColor, HSVColor(h: 54, s: 83, v: 94))
        XCTAssertNotNil(options.calibration)
    }

    func testDefaults() throws {
        let options = try TestOptions.parse()
        XCTAssertEqual(options.hand, .right)
        XCTAssertEqual(options.ballProfile.colorTolerance, 15)
        XCTAssertNil(options.ballProfile.markerColor)
        XCTAssertNil(options.calibration)
    }

    func testBadBallProfiles() {
        func bad(_ options: JSONValue, _ message: String, line: UInt = #line) {
            XCTAssertThrows(.invalidInput(message), line: line) { try BowlingOptions.parse(options) }
        }
        let color = { (h: JSONValue, s: JSONValue, v: JSONValue) in
            JSONValue.object(["ballProfile": .object(["color": .object(["h": h, "s": s, "v": v])])])
        }
        bad(.object([:]), "option ballProfile must be an object with color {\"h\", \"s\", \"v\"}")
        bad(.object(["ballProfile": .string("blue")]), "option ballProfile must be an object with color {\"h\", \"s\", \"v\"}")
        bad(.object(["ballProfile": .object([:])]), "option ballProfile.color must be an object {\"h\": 0-360, \"s\": 0-100, \"v\": 0-100}")
        bad(color(.number(361), .number(50), .number(50)), "option ballProfile.color.h must be a number from 0 to 360")
        bad(color(.number(-1), .number(50), .number(50)), "option ballProfile.color.h must be a number from 0 to 360")
        bad(color(.number(.nan), .number(50), .number(50)), "option ballProfile.color.h must be a number from 0 to 360")
        bad(color(.number(10), .string("high"), .number(50)), "option ballProfile.color.s must be a number from 0 to 100")
        bad(color(.number(10), .number(50), .number(101)), "option ballProfile.color.v must be a number from 0 to 100")
        bad(.object(["ballProfile": .object(["color": SyntheticFrame.ballHSV, "colorTolerance": .number(500)])]),
            "option ballProfile.colorTolerance must be a number from 0 to 180")
        bad(.object(["ballProfile": .object(["color": SyntheticFrame.ballHSV,
                                             "markerColor": .object(["h": .number(10), "s": .number(10)])])]),
            "option ballProfile.markerColor.v must be a number from 0 to 100")
        bad(TestOptions.json(hand: "middle"), "option 'hand' must be \"right\" or \"left\", not \"middle\"")
        bad(.string("x"), "bowling options must be an object with ballProfile")
    }

    func testBadCalibrationFields() {
        XCTAssertThrows(.invalidInput("option calibration must be an object: seed 000's CalibrationProfile fields or {\"lanePoints\": {...}}")) {
            try TestOptions.parse(calibration: .string("lane 7"))
        }
        guard case .object(var flat) = TestOptions.flatCalibration else { return XCTFail() }
        flat["pixelsPerFoot"] = nil
        XCTAssertThrows(.invalidInput("option calibration.pixelsPerFoot must be a positive number")) {
            try TestOptions.parse(calibration: .object(flat))
        }
        XCTAssertThrows(.invalidInput("option calibration.lanePoints.farLeft must be [x, y] image coordinates in pixels")) {
            try TestOptions.parse(calibration: .object(["lanePoints": .object([
                "foulLineLeft": .array([.number(0), .number(230)]), "foulLineRight": .array([.number(300), .number(230)]),
                "farLeft": .array([.number(1)]), "farRight": .array([.number(170), .number(20)]),
            ])]))
        }
    }
}
