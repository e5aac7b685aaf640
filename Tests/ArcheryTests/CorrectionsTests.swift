import Archery
import ArcheryScenes
import ReelworkCore
import XCTest

final class CorrectionsTests: XCTestCase {
    /// A detected end built by hand: X, 9, 7 (the corrections need no photo).
    func detected() throws -> ArcheryResult {
        let face = TargetFace(centerX: 500, centerY: 400, radiusPx: 300, ringsFound: 5,
                              homography: [1.0 / 300, 0, -500.0 / 300, 0, 1.0 / 300, -400.0 / 300, 0, 0, 1], fitErrorPx: 0.4)
        func arrow(_ x: Double, _ y: Double, _ score: Int, _ isX: Bool) -> DetectedArrow {
            DetectedArrow(normalizedX: x, normalizedY: y, pixelX: 500 + 300 * x, pixelY: 400 + 300 * y, distanceFromCenter: hypot(x, y),
                          clockPositionDeg: ArcheryScoring.clockPosition(x: x, y: y), confidence: 0.9,
                          boundingBox: BoundingBox(x: 0, y: 0, width: 1, height: 1), score: score, isXRing: isX)
        }
        return ArcheryResult(face: face, arrows: [arrow(0.01, 0.02, 10, true), arrow(0.15, 0, 9, false), arrow(0, -0.35, 7, false)],
                          total: 26, xCount: 1, tens: 1, expectedArrowCount: 4, missingArrows: 1, message: "1 of 4 arrows not found")
    }

    func testMoveAddDeleteRescoreTheEnd() throws {
        let end = try detected()
        let body = JSONValue.object(["corrections": .array([
            .object(["op": .string("move"), "index": .number(1), "x": .number(0.0), "y": .number(0.08)]),   // 9 → 10
            .object(["op": .string("delete"), "index": .number(2)]),                                        // 7 gone
            .object(["op": .string("add"), "x": .number(-0.5), "y": .number(0.5)]),                         // d 0.707 → 3
            .object(["op": .string("add"), "x": .number(1.2), "y": .number(0)]),                            // a miss
        ])])
        let confirmed = try ArcheryCorrections.apply(try ArcheryCorrections.parse(body), to: end, options: ArcheryOptions())
        XCTAssertEqual(confirmed.arrows.map(\.score), [10, 10, 3, 0])
        XCTAssertEqual(confirmed.arrows.map(\.source), [.detected, .moved, .added, .added])
        XCTAssertEqual(confirmed.arrows.map(\.wasAdjusted), [false, true, true, true])
        XCTAssertEqual(confirmed.arrows.map(\.detectedIndex), [0, 1, nil, nil])
        XCTAssertEqual(confirmed.total, 23)
        XCTAssertEqual(confirmed.xCount, 1)
        XCTAssertEqual(confirmed.tens, 2)
        XCTAssertEqual(confirmed.json()["total"], .number(23))
        // The detected end is untouched: both versions stay.
        XCTAssertEqual(end.total, 26)
        // The same corrections on the stored document give the same confirmed end.
        let fromDocument = try ArcheryCorrections.apply(try ArcheryCorrections.parse(body), toDetected: end.json(), options: ArcheryOptions())
        XCTAssertEqual(fromDocument.arrows.map(\.score), confirmed.arrows.map(\.score))
        XCTAssertEqual(fromDocument.total, 23)
        XCTAssertThrowsError(try ArcheryCorrections.apply([], toDetected: .object([:]), options: ArcheryOptions()))
        // A move of less than 0.01 is not an adjustment (the seed's rule).
        let nudged = try ArcheryCorrections.apply([.move(index: 0, x: 0.015, y: 0.02)], to: end, options: ArcheryOptions())
        XCTAssertFalse(nudged.arrows[0].wasAdjusted)
        // The line-cutter rule holds for confirmed placements too: 0.302 with a 9.3 mm arrow on 40 cm is an 8.
        let cut = try ArcheryCorrections.apply([.move(index: 2, x: 0, y: -0.302)], to: end,
                                               options: ArcheryOptions(faceDiameterCm: 40, arrowDiameterMm: 9.3))
        XCTAssertEqual(cut.arrows[2].score, 8)
    }

    func testBadCorrectionsAreRefusedWithReasons() throws {
        let end = try detected()
        func message(_ corrections: [ArcheryCorrection]) -> String? {
            do {
                _ = try ArcheryCorrections.apply(corrections, to: end, options: ArcheryOptions())
                return nil
            } catch let error as ReelworkError {
                XCTAssertEqual(error.kind, .invalidInput)
                return error.message
            } catch {
                return "unexpected \(error)"
            }
        }
        XCTAssertTrue(message([.delete(index: 3)])?.contains("does not exist") == true)
        XCTAssertTrue(message([.move(index: -1, x: 0, y: 0)])?.contains("does not exist") == true)
        XCTAssertTrue(message([.delete(index: 0), .move(index: 0, x: 0, y: 0)])?.contains("twice") == true)
        XCTAssertTrue(message([.add(x: .nan, y: 0)])?.contains("1.5") == true)
        XCTAssertTrue(message([.add(x: 0, y: .infinity)])?.contains("1.5") == true)
        XCTAssertTrue(message([.move(index: 0, x: 1.6, y: 0)])?.contains("1.5") == true)

        func parseMessage(_ body: JSONValue) -> String? {
            do {
                _ = try ArcheryCorrections.parse(body)
                return nil
            } catch let error as ReelworkError {
                return error.message
            } catch {
                return "unexpected \(error)"
            }
        }
        XCTAssertNotNil(parseMessage(.object([:])))
        XCTAssertTrue(parseMessage(.object(["corrections": .array([.object(["op": .string("rotate")])])]))?.contains("corrections[0].op") == true)
        XCTAssertTrue(parseMessage(.object(["corrections": .array([.object(["op": .string("move"), "index": .number(0.5),
                                                                           "x": .number(0), "y": .number(0)])])]))?.contains("index") == true)
        XCTAssertTrue(parseMessage(.object(["corrections": .array([.object(["op": .string("add"), "x": .number(2), "y": .number(0)])])]))?
            .contains("corrections[0].x") == true)
        XCTAssertNotNil(parseMessage(.object(["corrections": .array(Array(repeating: .object(["op": .string("delete"), "index": .number(0)]),
                                                                          count: 101))])))
    }

    func testCSVHasAHeaderAndOneRowPerArrow() throws {
        let end = try detected()
        let lines = end.csv().split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, ArcheryCSV.columns.joined(separator: ","))
        XCTAssertEqual(lines.count, 1 + end.arrows.count)
        XCTAssertTrue(lines[1].hasPrefix("1,10,true,0.01,0.02,"), lines[1])
        let confirmed = try ArcheryCorrections.apply([.delete(index: 0)], to: end, options: ArcheryOptions())
        XCTAssertEqual(confirmed.csv().split(separator: "\n").count, 3)
    }

    func testResultDocumentUsesTheSeedsNames() throws {
        let photo = Scenes.photo()
        let end = try ArcheryAnalyzer.analyze(Scenes.image(photo), options: ArcheryOptions())
        let json = end.json()
        guard case .array(let arrows)? = json["arrows"], let first = arrows.first else { return XCTFail("no arrows") }
        for key in ["normalizedX", "normalizedY", "pixelX", "pixelY", "distanceFromCenter", "clockPositionDeg", "confidence",
                    "boundingBox", "score", "isXRing"] {
            XCTAssertNotNil(first[key], key)
        }
        for key in ["x", "y", "width", "height"] { XCTAssertNotNil(first["boundingBox"]?[key], key) }
        for key in ["total", "xCount", "tens"] { XCTAssertNotNil(json[key], key) }
        guard case .array(let h)? = json["face"]?["homography"] else { return XCTFail("no homography") }
        XCTAssertEqual(h.count, 9)
        XCTAssertNotNil(json["face"]?["center"]?["x"])
        XCTAssertEqual(json["face"]?["ringsFound"], .number(5))
        XCTAssertNoThrow(try json.encodedText())
    }

    /// y grows downwards (seed 002): 12 o'clock is −y.
    func testClockPositionIsFromTwelveClockwise() {
        XCTAssertEqual(ArcheryScoring.clockPosition(x: 0, y: -0.5), 0, accuracy: 1e-9)
        XCTAssertEqual(ArcheryScoring.clockPosition(x: 0.5, y: 0), 90, accuracy: 1e-9)
        XCTAssertEqual(ArcheryScoring.clockPosition(x: 0, y: 0.5), 180, accuracy: 1e-9)
        XCTAssertEqual(ArcheryScoring.clockPosition(x: -0.5, y: 0), 270, accuracy: 1e-9)
    }
}
