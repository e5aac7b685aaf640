import Basketball
import ReelworkCore
import SportMath
import XCTest

/// Bad options are refused before any frame is decoded, each message naming the option.
final class OptionsTests: XCTestCase {
    func testDefaults() throws {
        let options = try BasketballOptions.parse(.object([:]))
        XCTAssertNil(options.hoop)
        XCTAssertEqual(options.ballColor, BasketballOptions.defaultBallColor)
        XCTAssertEqual(options.threePointDistanceFt, 22.15)
        XCTAssertEqual(try BasketballOptions.parse(.null), options)
    }

    func testGoodOptions() throws {
        let options = try BasketballOptions.parse(.object([
            "hoop": .object(["rimLeft": .array([.number(900), .number(300)]), "rimRight": .array([.number(810), .number(302)])]),
            "ballColor": .object(["h": .number(30), "s": .number(70), "v": .number(90)]),
            "threePointDistanceFt": .number(23.75),
        ]))
        // The ends are put in order left to right whichever way round they came.
        XCTAssertEqual(options.hoop, RimLine(left: FramePoint(x: 810, y: 302), right: FramePoint(x: 900, y: 300)))
        XCTAssertEqual(options.hoop?.left.x, 810)
        XCTAssertEqual(options.ballColor, HSVColor(h: 30, s: 70, v: 90))
        XCTAssertEqual(options.threePointDistanceFt, 23.75)
    }

    func testBadOptionsNameTheOptionAndTheProblem() {
        func bad(_ options: JSONValue, _ expected: String, line: UInt = #line) {
            XCTAssertThrowsError(try BasketballOptions.parse(options), line: line) { error in
                guard case ReelworkError.invalidInput(let message) = error else {
                    return XCTFail("not invalidInput: \(error)", line: line)
                }
                XCTAssertTrue(message.contains(expected), "\(message) does not say \(expected)", line: line)
            }
        }
        let rim: (JSONValue, JSONValue) -> JSONValue = { .object(["hoop": .object(["rimLeft": $0, "rimRight": $1])]) }
        let p: (Double, Double) -> JSONValue = { .array([.number($0), .number($1)]) }
        bad(.string("x"), "basketball options must be an object")
        bad(.object(["hoop": .string("top left")]), "option hoop must be an object")
        bad(rim(p(10, 10), .null), "option hoop.rimRight must be [x, y]")
        bad(rim(.array([.number(10)]), p(40, 10)), "option hoop.rimLeft must be [x, y]")
        bad(rim(p(.infinity, 10), p(40, 10)), "option hoop.rimLeft must be [x, y]")
        bad(rim(p(-5, 10), p(40, 10)), "option hoop.rimLeft must be inside the frame")
        bad(rim(p(1e300, 10), p(40, 10)), "option hoop.rimLeft must be inside the frame")
        bad(rim(p(10, 10), p(14, 10)), "at least 8 pixels apart")
        bad(rim(p(10, 10), p(12, 60)), "nearly level")
        bad(.object(["ballColor": .string("orange")]), "option ballColor must be an object")
        bad(.object(["ballColor": .object(["h": .number(400), "s": .number(50), "v": .number(50)])]), "option ballColor.h must be a number from 0 to 360")
        bad(.object(["ballColor": .object(["h": .number(20), "s": .number(.nan), "v": .number(50)])]), "option ballColor.s must be a number from 0 to 100")
        bad(.object(["threePointDistanceFt": .number(6.75)]), "option threePointDistanceFt must be a number from 15 to 30")
        bad(.object(["threePointDistanceFt": .string("22")]), "option threePointDistanceFt must be a number from 15 to 30")
        bad(.object(["ballColorTolerance": .number(180)]), "option ballColorTolerance must be a number from 1 to 90")
    }

    func testHoopOutsideTheFrameIsRefusedWhenTheSizeIsKnown() throws {
        let options = try BasketballOptions.parse(.object(["hoop": .object([
            "rimLeft": .array([.number(600), .number(100)]), "rimRight": .array([.number(660), .number(100)])])]))
        XCTAssertThrowsError(try BasketballTracker(options: options, frameWidth: 640, frameHeight: 360, frameRate: 30)) { error in
            XCTAssertEqual(error as? ReelworkError, .invalidInput("option hoop.rimRight [660, 100] is outside the 640×360 frame"))
        }
        XCTAssertThrowsError(try BasketballTracker(options: options, frameWidth: 0, frameHeight: 360, frameRate: 30))
        XCTAssertNoThrow(try BasketballTracker(options: options, frameWidth: 1280, frameHeight: 720, frameRate: .nan))
    }
}
