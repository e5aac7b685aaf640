import Foundation
import Pictures
import ReelworkCore
import Tennis
import XCTest

/// Tennis in a coach's words: the racket hand's speed in km/h when the player's height was given
/// (the result is in m/s), else against the player's own fastest swing; never torso lengths per
/// second; small angles keep their tenth.
final class TennisPictureTests: XCTestCase {
    static func swing(_ number: Int, speed: Double?, unit: String = "torso/s", track: Int = 1, followThrough: Double = 120) -> JSONValue {
        .object(["swingNumber": .number(Double(number)), "trackId": .number(Double(track)), "type": .string("forehand"),
                 "startTime": .number(Double(number)), "endTime": .number(Double(number) + 1),
                 "metrics": .object(["peakWristSpeed": speed.map(JSONValue.number) ?? .null, "peakWristSpeedUnit": .string(unit),
                                     "shoulderTurn": .number(48), "contactHeight": .number(0.44), "followThrough": .number(followThrough),
                                     "trackingQuality": .number(0.9)])])
    }

    func cells(_ result: JSONValue, column title: String) throws -> [String] {
        let report = TennisPicture()
        let column = try XCTUnwrap(report.columns.first { $0.title.hasPrefix(title) }, "a column \(title)")
        return report.rows(in: result).map(column.cell)
    }

    func totals(_ result: JSONValue) -> [String: String] {
        let report = TennisPicture()
        return Dictionary(report.totals(report.rows(in: result)).map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    func testWithoutTheHeightEachSpeedIsAShareOfThePlayersFastestSwing() throws {
        // Player 2's only swing is their fastest, however slow beside player 1's.
        let result: JSONValue = .object(["swings": .array([Self.swing(1, speed: 9.4), Self.swing(2, speed: 10), Self.swing(3, speed: 8.6),
                                                           Self.swing(4, speed: nil), Self.swing(5, speed: 3, track: 2)])])
        XCTAssertEqual(try cells(result, column: "Racket-hand"), ["94 % of fastest swing", "fastest swing", "86 % of fastest swing", "–", "fastest swing"])
        let totals = totals(result)
        XCTAssertEqual(totals["Racket-hand speed (mean)"], "95 % of the player's fastest swing")
        XCTAssertEqual(totals["Speeds in km/h"], "give the player's height (option playerHeight, metres)")
        XCTAssertFalse(totals.values.contains { $0.contains("torso") } || totals.keys.contains { $0.contains("wrist") }, "\(totals)")
    }

    func testWithTheHeightSpeedsAreInKilometresPerHour() throws {
        let result: JSONValue = .object(["swings": .array([Self.swing(1, speed: 23.4, unit: "m/s"), Self.swing(2, speed: 25, unit: "m/s")])])
        XCTAssertEqual(try cells(result, column: "Racket-hand"), ["84 km/h (23.4 m/s)", "90 km/h (25.0 m/s)"])
        let totals = totals(result)
        XCTAssertEqual(totals["Racket-hand speed (mean)"], "87 km/h (24.2 m/s)")
        XCTAssertEqual(totals["Racket-hand speed (fastest)"], "90 km/h (25.0 m/s)")
        XCTAssertNil(totals["Speeds in km/h"], "nothing to ask for")
    }

    func testASmallAngleKeepsItsTenth() throws {
        let result: JSONValue = .object(["swings": .array([Self.swing(1, speed: 9, followThrough: 0.3), Self.swing(2, speed: 9, followThrough: 0.3)])])
        XCTAssertEqual(try cells(result, column: "Follow"), ["0.3", "0.3"])
        XCTAssertEqual(totals(result)["Follow through (mean)"], "0.3°")
        XCTAssertEqual(totals(result)["Shoulder turn (mean)"], "48°", "whole degrees from 10° up")
        XCTAssertEqual(totals(result)["Contact height (mean)"], "44 % of body height")
    }
}
