import Archery
import Bowling
import Foundation
import Media
@testable import Pictures
import ReelworkCore
import Tennis
import TestSupport
import XCTest

/// Nothing in a report is cut off or drawn over other text, whatever the names and however many
/// shots: every text the canvas drew lies inside its page and its clip, no two overlap, none is
/// shortened with "…", and poppler reads every name back whole.
final class ReportTextFitTests: PatternClipTestCase {
    static let longName = "tuesday-evening-league_lane-7_anna-maria-de-los-angeles-fernandez-garcia_second-session_front-camera-final.mp4"
    static let longClub = "Riverside Lanes and Leisure Centre Youth Development Bowling Academy (Saturday Morning Group)"

    func bowlingJob(shots: Int, name: String = longName) throws -> ReportJob {
        let result = PictureFixtures.bowlingResult(shots: shots)
        let picture = try BowlingPicture().picture(result: result, options: .emptyObject, frames: try FrameGrabber(location: Self.clip))
        return ReportJob(id: UUID(), club: Self.longClub, sport: .bowling, fileName: name,
                         createdAt: Date(timeIntervalSince1970: 1_790_000_000), status: "succeeded", result: result, picture: picture)
    }

    /// Every text inside the page and its clip, none over another on its page, none shortened.
    func assertEveryTextWhole(_ texts: [DrawnText], on canvas: Rect, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(texts.isEmpty, what, file: file, line: line)
        for text in texts {
            XCTAssertTrue(canvas.contains(text.ink), "\(what): '\(text.text)' at \(text.ink) runs off the page \(canvas)", file: file, line: line)
            XCTAssertTrue(text.clip.contains(text.ink, tolerance: 0.5), "\(what): '\(text.text)' at \(text.ink) is cut by its clip \(text.clip)",
                          file: file, line: line)
            XCTAssertFalse(text.text.contains("…"), "\(what): '\(text.text)' is shortened", file: file, line: line)
        }
        for page in Set(texts.map(\.page)) {
            let onPage = texts.filter { $0.page == page }
            for (i, a) in onPage.enumerated() {
                for b in onPage[(i + 1)...] where a.ink.overlaps(b.ink) {
                    XCTFail("\(what), page \(page): '\(a.text)' \(a.ink) and '\(b.text)' \(b.ink) overlap", file: file, line: line)
                }
            }
        }
    }

    /// The PDF's text with white space and hyphens taken out (pdftotext joins a line that ends in
    /// "-" to the next without it): a wrapped name reads back whole.
    func squeezedText(_ pdf: [UInt8], as name: String, fromPage first: Int = 1) throws -> String {
        let url = try PictureFixtures.keep(pdf, as: name)
        try Tool.run("pdftoppm", ["-png", "-r", "80", url.path, url.deletingPathExtension().path])
        let text = String(decoding: try Tool.run("pdftotext", ["-f", "\(first)", url.path, "-"]), as: UTF8.self)
        return Self.squeezed(text)
    }

    static func squeezed(_ text: String) -> String { text.filter { !$0.isWhitespace && $0 != "-" } }

    static let page = Rect(x: 0, y: 0, width: ReportLayout.pageWidth, height: ReportLayout.pageHeight)

    func testASessionReportWithALongNameAndManyShotsShowsAllOfItsText() throws {
        let job = try bowlingJob(shots: 24)
        let layout = try SessionReport.layout(job, report: BowlingPicture())
        assertEveryTextWhole(layout.canvas.drawnText, on: Self.page, "the session report")
        let text = try squeezedText(try layout.pdf(), as: "unit-long-names-report.pdf")
        for whole in [Self.longName, Self.longClub, "Shots(24)"] {
            XCTAssertTrue(text.contains(Self.squeezed(whole)), "'\(whole)' whole in the report")
        }
        for shot in 1...24 { XCTAssertTrue(layout.canvas.drawnText.contains { $0.text == "\(shot)" }, "shot \(shot)'s row") }
        let heading = try XCTUnwrap(layout.canvas.drawnText.first { $0.text == "Picture" })
        let panel = try XCTUnwrap(layout.canvas.drawnText.first { $0.text.hasPrefix("Shot 1 ") })
        XCTAssertEqual(heading.page, panel.page, "the picture's heading is on the picture's page")
    }

    func testABatchReportWithLongNamesShowsAllOfItsText() throws {
        let jobs = [try bowlingJob(shots: 4), try bowlingJob(shots: 2, name: "short.mp4"),
                    ReportJob(id: UUID(), club: Self.longClub, sport: .bowling, fileName: Self.longName.uppercased(), createdAt: Date(), status: "failed",
                              error: "No ball found: check the ball's colour, the lane's lighting and that the camera sees the whole lane from the foul line to the pins")]
        let batch = BatchReport.Batch(id: UUID(), club: Self.longClub, sport: .bowling,
                                      label: "Tuesday evening league, weeks one to twelve, all lanes and every bowler of the junior squad",
                                      createdAt: Date(), counts: ["succeeded": 2, "failed": 1])
        let layout = try BatchReport.layout(batch, report: BowlingPicture(), jobs: jobs)
        assertEveryTextWhole(layout.canvas.drawnText, on: Self.page, "the batch report")
        // The jobs' table wraps names inside its column (pdftotext reads the row's other cells in
        // between); each job's own page gives its name as a title.
        let text = try squeezedText(try layout.pdf(), as: "unit-long-names-batch-report.pdf", fromPage: 2)
        for whole in [Self.longName, Self.longName.uppercased(), "the camera sees the whole lane from the foul line to the pins"] {
            XCTAssertTrue(text.contains(Self.squeezed(whole)), "'\(whole)' whole in the report")
        }
    }

    func testATennisReportsTotalsReadWhole() throws {
        let result = PictureFixtures.tennisResult()
        let picture = try TennisPicture().picture(result: result, options: .emptyObject, frames: try FrameGrabber(location: Self.clip))
        let job = ReportJob(id: UUID(), club: "Club", sport: .tennis, fileName: Self.longName, createdAt: Date(), status: "succeeded",
                            result: result, picture: picture)
        let layout = try SessionReport.layout(job, report: TennisPicture())
        assertEveryTextWhole(layout.canvas.drawnText, on: Self.page, "the tennis report")
        XCTAssertTrue(layout.canvas.drawnText.contains { $0.text == "55 % of body height" }, "the contact height's value whole")
    }

    func testTheBowlingPanelListsEveryShotWithoutCoveringAnyText() throws {
        for shots in [1, 4, 12, 40] {
            let picture = try XCTUnwrap(try BowlingPicture().picture(result: PictureFixtures.bowlingResult(shots: shots), options: .emptyObject,
                                                                     frames: try FrameGrabber(location: Self.clip)))
            let canvas = try Canvas.image(width: Int(picture.width.rounded(.up)), height: Int(picture.height.rounded(.up)))
            picture.draw(on: canvas)
            let texts = canvas.drawnText
            for shot in 1...shots {
                XCTAssertTrue(texts.contains { $0.text.hasPrefix("Shot \(shot) ") }, "shot \(shot) of \(shots) is listed in the panel")
                XCTAssertTrue(texts.contains { $0.text == "\(shot)" }, "shot \(shot) of \(shots) is numbered at its path's end")
            }
            assertEveryTextWhole(texts, on: Rect(x: 0, y: 0, width: canvas.width, height: canvas.height), "the picture of \(shots) shots")
        }
    }

    /// An end of 6 arrows, an indoor round's 24, and more than one line of them: every score is
    /// listed under the face, on as many lines as it takes.
    func testTheArcheryPictureListsEveryArrowsScoreWhole() throws {
        let frames = try FrameGrabber(location: Self.clip)
        let centre = (x: Double(frames.displaySize.width) / 2, y: Double(frames.displaySize.height) / 2), radius = 40.0
        for count in [6, 24, 60] {
            let arrows: [JSONValue] = (0..<count).map { i in
                let angle = Double(i) / Double(count) * 2 * .pi, distance = 0.1 + 0.8 * Double(i % 5) / 5
                let x = cos(angle) * distance, y = sin(angle) * distance
                return .object(["arrowNumber": .number(Double(i + 1)), "normalizedX": .number(x), "normalizedY": .number(y),
                                "pixelX": .number(centre.x + x * radius), "pixelY": .number(centre.y + y * radius),
                                "score": .number(Double(10 - i % 10)), "isXRing": .bool(false)])
            }
            let result: JSONValue = .object(["arrows": .array(arrows), "total": .number(100), "input": .string("photo"),
                                             "face": .object(["homography": .array([radius, 0, centre.x, 0, radius, centre.y, 0, 0, 1].map(JSONValue.number))])])
            let picture = try XCTUnwrap(try ArcheryPicture().picture(result: result, options: .emptyObject, frames: frames))
            _ = try PictureFixtures.keep(try picture.png(), as: "archery-\(count)-arrows.png")
            let canvas = try Canvas.image(width: Int(picture.width.rounded(.up)), height: Int(picture.height.rounded(.up)))
            picture.draw(on: canvas)
            let texts = canvas.drawnText
            let bounds = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
            for arrow in 1...count {
                let score = 10 - (arrow - 1) % 10
                XCTAssertTrue(texts.contains { $0.text.contains("\(arrow):\u{00A0}\(score)") }, "arrow \(arrow) of \(count) is listed with its score")
            }
            for text in texts {
                XCTAssertFalse(text.text.contains("…"), "'\(text.text)' is shortened")
                XCTAssertTrue(bounds.contains(text.ink), "'\(text.text)' at \(text.ink) runs off the picture \(bounds)")
            }
        }
    }

    func testALongWordIsBrokenIntoLinesThatFitNotCut() throws {
        let canvas = try Canvas.image(width: 10, height: 10)
        let font = Font(size: 10)
        let lines = canvas.wrapped("clip " + Self.longName, font: font, width: 120)
        XCTAssertGreaterThan(lines.count, 3)
        for line in lines { XCTAssertLessThanOrEqual(canvas.textWidth(line, font: font), 120, "'\(line)' fits") }
        XCTAssertTrue(lines[0].hasPrefix("clip tuesday-"), "the long word starts on the line it follows: \(lines)")
        XCTAssertEqual(lines.joined(), "clip " + Self.longName, "every character kept, in order")
    }
}
