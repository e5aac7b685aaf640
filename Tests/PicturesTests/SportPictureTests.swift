import Archery
import Basketball
import Bowling
import Foundation
import Media
import Pictures
import ReelworkCore
import Sports
import Tennis
import TestSupport
import XCTest

/// Each sport's picture, drawn over real frames decoded by FrameGrabber and read back by the ffmpeg
/// CLI: the PNG has the size the layout promises, the path and marks have their colours where they
/// are drawn, and everywhere else the frame is the video's own frame at the time the picture names.
final class SportPictureTests: PatternClipTestCase {

    func picture(_ sport: Sport, _ result: JSONValue, options: JSONValue = .emptyObject) throws -> Picture {
        let grabber = try FrameGrabber(location: Self.clip)
        return try XCTUnwrap(try SportReports.forSport(sport)?.picture(result: result, options: options, frames: grabber))
    }

    static func distance(_ x: Double, _ y: Double, toSegmentsOf points: [(x: Double, y: Double)]) -> Double {
        guard points.count > 1 else { return points.first.map { hypot($0.x - x, $0.y - y) } ?? .infinity }
        return zip(points, points.dropFirst()).map { a, b in
            let dx = b.x - a.x, dy = b.y - a.y
            let t = max(0, min(1, ((x - a.x) * dx + (y - a.y) * dy) / max(1e-9, dx * dx + dy * dy)))
            return hypot(a.x + t * dx - x, a.y + t * dy - y)
        }.min()!
    }

    func assertColour(_ image: RasterImage, _ x: Double, _ y: Double, _ colour: Colour, _ what: String,
                      file: StaticString = #filePath, line: UInt = #line) {
        let p = image.pixel(Int(x.rounded(.down)), Int(y.rounded(.down)))
        let close = abs(p.0 - Int(colour.red)) <= 2 && abs(p.1 - Int(colour.green)) <= 2 && abs(p.2 - Int(colour.blue)) <= 2
        XCTAssertTrue(close, "\(what) at (\(Int(x)), \(Int(y))): \(p), expected (\(colour.red), \(colour.green), \(colour.blue))", file: file, line: line)
    }

    func testABowlingShotIsDrawnOverTheFrameWhereItStarts() throws {
        let png = try picture(.bowling, PictureFixtures.bowlingResult()).png()
        _ = try PictureFixtures.keep(png, as: "unit-bowling.png")
        let image = try RasterImage(png: png, in: Self.directory, name: "bowling.png")
        XCTAssertEqual(image.width, PictureFixtures.width + 330, "the frame at its own size and the panel beside it")
        XCTAssertGreaterThanOrEqual(image.height, PictureFixtures.height)

        // The path's colour between two points far from every mark; the launch mark white inside.
        let path = PictureFixtures.shotPath
        assertColour(image, (path[4].x + path[5].x) / 2, (path[4].y + path[5].y) / 2, .series(0), "the path")
        assertColour(image, path[0].x, path[0].y, .white, "the launch mark's centre")
        assertColour(image, path[0].x, path[0].y - 5.5, .series(0), "the launch mark's ring")
        let pocket = path[10]
        assertColour(image, pocket.x, pocket.y, .white, "the pocket mark's centre")
        assertColour(image, pocket.x - 5, pocket.y, .series(0), "the pocket mark's border")

        // Away from the drawing, the frame at the shot's start (0.5 s), not another one.
        let keep = { (x: Int, y: Int) in Self.distance(Double(x), Double(y), toSegmentsOf: path) > 30 }
        let right = image.difference(from: try RasterImage(Self.clip, at: 0.5), keep: keep)
        let wrong = image.difference(from: try RasterImage(Self.clip, at: 1.5), keep: keep)
        XCTAssertLessThan(right, 2.5, "the frame at 0.5 s")
        XCTAssertGreaterThan(wrong, 10, "another frame differs")
    }

    func testATennisSwingsKeyframesShowTheWristPathOnTheirOwnFrames() throws {
        let png = try picture(.tennis, PictureFixtures.tennisResult()).png()
        _ = try PictureFixtures.keep(png, as: "unit-tennis.png")
        let image = try RasterImage(png: png, in: Self.directory, name: "tennis.png")
        // 5 thumbnails 230 wide (16 margins, 10 between); the crop around the player is 480×360.
        XCTAssertEqual(image.width, 16 * 2 + 5 * 230 + 4 * 10)
        let thumbHeight = 173.0, top = 16.0 + 30
        XCTAssertEqual(image.height, Int(16 + 30 + thumbHeight + 24 + 10))
        let crop = (x: 40.0, y: 0.0, width: 480.0), k = 230 / crop.width
        func place(_ p: (x: Double, y: Double), column: Int) -> (x: Double, y: Double) {
            (16 + Double(column) * 240 + (p.x - crop.x) * k, top + (p.y - crop.y) * k)
        }
        // On the contact thumbnail: the path between two samples, the red dot at contact.
        let a = place(PictureFixtures.wrist(at: 0.6), column: 2), b = place(PictureFixtures.wrist(at: 0.7), column: 2)
        assertColour(image, (a.x + b.x) / 2, (a.y + b.y) / 2, Colour(0xffcc00), "the wrist path")
        let contact = place(PictureFixtures.wrist(at: 1.1), column: 2)
        assertColour(image, contact.x, contact.y, Colour(0xff3b30), "the wrist at contact")

        // Each thumbnail is its keyframe's frame, cropped around the player: compare the first
        // (0.5 s) with ffmpeg's crop of that frame, away from the path.
        let pathPoints = stride(from: 0.4, through: 1.81, by: 0.1).map { place(PictureFixtures.wrist(at: $0), column: 0) }
        let keep = { (x: Int, y: Int) in Self.distance(Double(x) + 16, Double(y) + top, toSegmentsOf: pathPoints) > 12 }
        func reference(_ t: Double) throws -> RasterImage {
            let path = Self.directory.path("crop-\(t).png")
            try Tool.ffmpeg(["-ss", String(t), "-i", Self.clip, "-frames:v", "1", "-vf", "crop=480:360:40:0,scale=230:173:flags=area", path])
            return try RasterImage(path)
        }
        let right = image.difference(from: try reference(0.5), offset: (16, Int(top)), keep: keep)
        let wrong = image.difference(from: try reference(1.7), offset: (16, Int(top)), keep: keep)
        XCTAssertLessThan(right, 6, "the preparation thumbnail is the frame at 0.5 s")
        XCTAssertGreaterThan(wrong, right * 3, "another frame differs")
    }

    func testWithoutPosesTheThumbnailsShowTheWholeFrame() throws {
        let picture = try picture(.tennis, PictureFixtures.tennisResult(poses: false))
        let thumbHeight: Double = (230.0 * 360 / 640).rounded()
        XCTAssertEqual(picture.height, 16 + 30 + thumbHeight + 24 + 10, "whole 16:9 frames")
    }

    /// The archery report's "To review" counts the arrows that carry review reasons; a result
    /// stored before arrows had `review` counts those whose confidence was capped on a line.
    func testArcheryArrowsToReviewAreTheOnesWithReasons() {
        let reason = JSONValue.object(["code": .string("onScoringLine"), "message": .string("on the line")])
        let rows: [JSONValue] = [
            .object(["score": .number(9), "confidence": .number(0.6), "review": .array([reason])]),
            .object(["score": .number(10), "confidence": .number(0.4), "review": .array([])]),
            .object(["score": .number(8), "confidence": .number(0.5)]),
            .object(["score": .number(7), "confidence": .number(0.9)]),
        ]
        XCTAssertEqual(ArcheryPicture().totals(rows).first { $0.label == "To review" }?.value, "2")
    }

    func testAResultWithNothingToDrawHasNoPicture() throws {
        let grabber = try FrameGrabber(location: Self.clip)
        XCTAssertNil(try BowlingPicture().picture(result: .object(["shots": .array([])]), options: .emptyObject, frames: grabber))
        XCTAssertNil(try TennisPicture().picture(result: .object(["swings": .array([])]), options: .emptyObject, frames: grabber))
        XCTAssertNil(try BasketballPicture().picture(result: .object(["shots": .array([])]), options: .emptyObject, frames: grabber))
        XCTAssertNil(try ArcheryPicture().picture(result: .object(["arrows": .array([])]), options: .emptyObject, frames: grabber),
                     "an archery result without a face (no homography) draws nothing")
    }
}
