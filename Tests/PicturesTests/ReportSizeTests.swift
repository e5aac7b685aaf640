import Bowling
import Foundation
import Media
import Pictures
import ReelworkCore
import Tennis
import TestSupport
import XCTest

/// Reports stay small enough to mail: video frames go in as JPEG at print resolution, not as
/// lossless images at the video's own size. Drawn over a detailed 1280×720 clip with film grain
/// (a phone's clip is no easier to compress).
final class ReportSizeTests: XCTestCase {
    nonisolated(unsafe) static var directory: ScratchDirectory!
    nonisolated(unsafe) static var clip = ""
    static let megabyte = 1_000_000

    override class func setUp() {
        super.setUp()
        directory = try! ScratchDirectory(prefix: "reelwork-report-size")
        clip = directory.path("detailed.mp4")
        try! Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=10:duration=3,noise=alls=12:allf=t",
                          "-pix_fmt", "yuv420p", "-c:v", "libx264", "-crf", "18", clip])
    }

    override class func tearDown() {
        directory.remove()
        super.tearDown()
    }

    func pages(_ pdf: URL) throws -> Int {
        let info = String(decoding: try Tool.run("pdfinfo", [pdf.path]), as: UTF8.self)
        let line = try XCTUnwrap(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }, info)
        return try XCTUnwrap(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)))
    }

    /// Each image the PDF holds, as `pdfimages -list` names its encoding ("jpeg", "image", …).
    func imageEncodings(_ pdf: URL) throws -> [String] {
        let list = String(decoding: try Tool.run("pdfimages", ["-list", pdf.path]), as: UTF8.self)
        return list.split(separator: "\n").dropFirst(2).compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count > 8 ? String(fields[8]) : nil
        }
    }

    func tennisResult() -> JSONValue {
        let swings: [JSONValue] = [(0.3, 1.3), (1.5, 2.5)].enumerated().map { index, window in
            let (start, end) = window, step = (end - start) / 4
            let times = ["preparation", "backswing", "contact", "followThrough", "recovery"].enumerated().map { ($1, JSONValue.number(start + Double($0) * step)) }
            return .object(["swingNumber": .number(Double(index + 1)), "trackId": .number(1), "type": .string("forehand"),
                            "startTime": .number(start), "endTime": .number(end), "keyFrameTimes": .object(Dictionary(uniqueKeysWithValues: times)),
                            "metrics": .object(["peakWristSpeed": .number(9 + Double(index)), "peakWristSpeedUnit": .string("torso/s")])])
        }
        let frames: [JSONValue] = stride(from: 0.2, through: 2.6, by: 0.1).map { t in
            .object(["t": .number((t * 10).rounded() / 10), "box": .array([400, 120, 880, 700].map { .number($0) }),
                     "landmarks": .array([JSONValue](repeating: .number(0), count: 99))])
        }
        return .object(["swings": .array(swings), "poses": .array([.object(["trackId": .number(1), "frames": .array(frames)])])])
    }

    func assertSmall(_ pdf: [UInt8], as name: String, images: Int, file: StaticString = #filePath, line: UInt = #line) throws {
        let url = try PictureFixtures.keep(pdf, as: name)
        try Tool.run("pdftoppm", ["-png", "-r", "80", url.path, url.deletingPathExtension().path])
        let count = try pages(url)
        XCTAssertLessThan(pdf.count, count * Self.megabyte, "\(name): \(pdf.count) bytes over \(count) pages", file: file, line: line)
        let encodings = try imageEncodings(url)
        XCTAssertEqual(encodings.count, images, "\(name): its frames", file: file, line: line)
        XCTAssertTrue(encodings.allSatisfy { $0 == "jpeg" }, "\(name): frames as JPEG, not \(encodings)", file: file, line: line)
    }

    func testATwoSwingTennisReportIsUnderAMegabyteAPage() throws {
        let result = tennisResult()
        let picture = try TennisPicture().picture(result: result, options: .emptyObject, frames: try FrameGrabber(location: Self.clip))
        let job = ReportJob(id: UUID(), club: "Club", sport: .tennis, fileName: "rally.mp4", createdAt: Date(), status: "succeeded",
                            result: result, picture: picture)
        try assertSmall(try SessionReport.pdf(job, report: TennisPicture()), as: "unit-size-tennis-report.pdf", images: 10)
    }

    func testABowlingBatchReportIsUnderAMegabyteAPage() throws {
        let jobs = try (1...3).map { index -> ReportJob in
            let result = PictureFixtures.bowlingResult(shots: index)
            let picture = try BowlingPicture().picture(result: result, options: .emptyObject, frames: try FrameGrabber(location: Self.clip))
            return ReportJob(id: UUID(), club: "Club", sport: .bowling, fileName: "lane-\(index).mp4", createdAt: Date(), status: "succeeded",
                             result: result, picture: picture)
        }
        let batch = BatchReport.Batch(id: UUID(), club: "Club", sport: .bowling, label: "League", createdAt: Date(), counts: ["succeeded": 3])
        try assertSmall(try BatchReport.pdf(batch, report: BowlingPicture(), jobs: jobs), as: "unit-size-batch-report.pdf", images: 3)
    }
}
