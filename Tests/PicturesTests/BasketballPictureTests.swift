import Basketball
import Foundation
import Media
import Pictures
import ReelworkCore
import TestSupport
import XCTest

/// Basketball's picture and report pieces on known results: the frame and the chart beside it,
/// made releases filled and missed ones open, the three-point line where the option puts it, and a
/// batch's stats line added up from the sums.
final class BasketballPictureTests: PatternClipTestCase {
    static func shot(_ number: Int, made: Bool, type: String, feet: Double, release: (Double, Double)) -> JSONValue {
        let path = (0...8).map { i -> JSONValue in
            let f = Double(i) / 8
            return .array([.number(1 + f), .number(release.0 + f * (510 - release.0)), .number(release.1 - 100 * sin(f * .pi) + f * (150 - release.1))])
        }
        return .object(["shotNumber": .number(Double(number)), "releaseTime": .number(1), "rimTime": .number(2), "made": .bool(made),
                        "shotType": .string(type), "distanceFt": .number(feet), "confidence": .number(0.9),
                        "releasePoint": .array([.number(release.0), .number(release.1)]), "trajectory": .array(path)])
    }

    static let result: JSONValue = .object([
        "hoop": .object(["rimLeft": .array([.number(500), .number(150)]), "rimRight": .array([.number(530), .number(150)]),
                         "source": .string("option")]),
        "shots": .array([shot(1, made: true, type: "2PT", feet: 12, release: (300, 220)),
                         shot(2, made: false, type: "3PT", feet: 24, release: (120, 220))]),
        "threePointDistanceFt": .number(22.15),
    ])

    func pixelIs(_ image: RasterImage, _ x: Int, _ y: Int, _ colour: Colour) -> Bool {
        let p = image.pixel(x, y)
        return abs(p.0 - Int(colour.red)) <= 3 && abs(p.1 - Int(colour.green)) <= 3 && abs(p.2 - Int(colour.blue)) <= 3
    }

    func testTheFrameShowsEachFlightAndTheChartEachShotByDistance() throws {
        let grabber = try FrameGrabber(location: Self.clip)
        let png = try XCTUnwrap(try BasketballPicture().picture(result: Self.result, options: .emptyObject, frames: grabber)).png()
        _ = try PictureFixtures.keep(png, as: "unit-basketball.png")
        let image = try RasterImage(png: png, in: Self.directory, name: "basketball.png")
        XCTAssertEqual(image.width, 640 + 420, "the frame and the chart beside it")
        XCTAssertEqual(image.height, 360)
        XCTAssertTrue(pixelIs(image, 300, 220, Colour(0x34c759)), "a made release is filled green: \(image.pixel(300, 220))")
        XCTAssertFalse(pixelIs(image, 120, 220, Colour(0xff453a)), "a missed release is open")
        XCTAssertTrue(pixelIs(image, 115, 220, Colour(0xff453a)), "its ring is red: \(image.pixel(115, 220))")
        // The three-point line at 22.15 of 30 ft across the chart's axis (34…402 of its 420 units).
        let line = 640 + Int((34 + 22.15 / 30 * 368).rounded(.down))
        XCTAssertTrue(pixelIs(image, line, 150, Colour(0x00c2ff)), "the 3PT line: \(image.pixel(line, 150))")
        XCTAssertFalse(pixelIs(image, line - 12, 150, Colour(0x00c2ff)))
    }

    func testABatchsStatsLineComesFromTheSums() {
        let rows = [Self.shot(1, made: true, type: "3PT", feet: 24, release: (1, 1)), Self.shot(2, made: false, type: "2PT", feet: 10, release: (1, 1)),
                    Self.shot(3, made: true, type: "2PT", feet: 10, release: (1, 1))]
        let line = BasketballPicture().statsRow(name: "Total", rows: rows)
        XCTAssertEqual(line["fieldGoalsMade"], .number(2))
        XCTAssertEqual(line["fieldGoalsAttempted"], .number(3))
        XCTAssertEqual(line["threePointPercentage"], .number(100))
        XCTAssertEqual(line["effectiveFieldGoalPercentage"]?.number ?? 0, 2.5 / 3 * 100, accuracy: 1e-9)
        XCTAssertEqual(line["points"], .number(5))
        let none = BasketballPicture().statsRow(name: "empty", rows: [])
        XCTAssertEqual(none["fieldGoalPercentage"], .number(0), "0 when nothing was attempted (seed 001)")
        XCTAssertEqual(BasketballPicture().totals(rows).first { $0.label == "Points" }?.value, "5")
    }
}
