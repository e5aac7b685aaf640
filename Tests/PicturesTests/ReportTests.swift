import Bowling
import Foundation
import Media
import Pictures
import ReelworkCore
import TestSupport
import XCTest

/// The PDF reports, read back by poppler (pdfinfo, pdftotext): pages, totals and tables; each
/// page is also rendered to PNG (pdftoppm) under .local/test-artifacts/pictures/ to look at.
final class ReportTests: PatternClipTestCase {

    func pages(_ pdf: URL) throws -> Int {
        let info = String(decoding: try Tool.run("pdfinfo", [pdf.path]), as: UTF8.self)
        let line = try XCTUnwrap(info.split(separator: "\n").first { $0.hasPrefix("Pages:") }, info)
        return try XCTUnwrap(Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces)))
    }

    func text(_ pdf: URL, page: Int? = nil) throws -> String {
        let range = page.map { ["-f", "\($0)", "-l", "\($0)"] } ?? []
        return String(decoding: try Tool.run("pdftotext", ["-layout"] + range + [pdf.path, "-"]), as: UTF8.self)
    }

    /// Renders every page to PNG beside the PDF, for a person to look at.
    func render(_ pdf: URL) throws {
        let stem = pdf.deletingPathExtension().lastPathComponent
        for old in try FileManager.default.contentsOfDirectory(atPath: pdf.deletingLastPathComponent().path)
        where old.hasPrefix(stem + "-") && old.hasSuffix(".png") {
            try FileManager.default.removeItem(at: pdf.deletingLastPathComponent().appendingPathComponent(old))
        }
        try Tool.run("pdftoppm", ["-png", "-r", "80", pdf.path, pdf.deletingPathExtension().path])
    }

    func bowlingJob(shots: Int, name: String = "lane-3 practice.mp4") throws -> ReportJob {
        let result = PictureFixtures.bowlingResult(shots: shots)
        let picture = try BowlingPicture().picture(result: result, options: .emptyObject, frames: try FrameGrabber(location: Self.clip))
        return ReportJob(id: UUID(), club: "Riverside Lanes", sport: .bowling, fileName: name,
                         createdAt: Date(timeIntervalSince1970: 1_790_000_000), status: "succeeded", result: result, picture: picture)
    }

    func testASessionReportHasTotalsThePictureAndEveryShotOverAsManyPagesAsItNeeds() throws {
        let pdf = try PictureFixtures.keep(try SessionReport.pdf(try bowlingJob(shots: 90), report: BowlingPicture()), as: "unit-bowling-report.pdf")
        try render(pdf)
        let count = try pages(pdf)
        XCTAssertGreaterThanOrEqual(count, 3, "90 rows do not fit beside the picture on two pages")
        let all = try text(pdf)
        for expected in ["Bowling session report", "lane-3 practice.mp4", "Riverside Lanes", "Generated:", "2026-09-21",
                         "Launch speed (mean)", "17.3 mph", "Strike chance (mean)", "91 %", "Shots (90)"] {
            XCTAssertTrue(all.contains(expected), "'\(expected)' in the report:\n\(all.prefix(3000))")
        }
        // Every shot has its row, and each page the table reaches repeats its header.
        let rows = all.split(separator: "\n").filter { $0.trimmingCharacters(in: .whitespaces).hasPrefix("90 ") || $0.contains("12.3") }
        XCTAssertTrue(rows.contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("90 ") }, "the last shot's row")
        func hasHeader(_ page: Int) throws -> Bool {
            try text(pdf, page: page).split(separator: "\n").contains { $0.contains("Arrows") && $0.contains("Breakpoint") && $0.contains("Pocket") }
        }
        let firstTablePage = try XCTUnwrap(try (1...count).first { try hasHeader($0) }, "the table's header")
        for page in firstTablePage...count {
            XCTAssertTrue(try hasHeader(page), "page \(page) of \(count) repeats the header")
        }
    }

    func testABatchReportHasTotalsOverItsJobsAndASectionForEach() throws {
        let good = try bowlingJob(shots: 3)
        let failed = ReportJob(id: UUID(), club: "Riverside Lanes", sport: .bowling, fileName: "dark.mp4", createdAt: Date(),
                               status: "failed", error: "No ball found: check the ball's colour")
        let also = try bowlingJob(shots: 2, name: "lane-4.mp4")
        let batch = BatchReport.Batch(id: UUID(), club: "Riverside Lanes", sport: .bowling, label: "Tuesday league",
                                      createdAt: Date(), counts: ["succeeded": 2, "failed": 1])
        let pdf = try PictureFixtures.keep(try BatchReport.pdf(batch, report: BowlingPicture(), jobs: [good, failed, also]), as: "unit-batch-report.pdf")
        try render(pdf)
        XCTAssertEqual(try pages(pdf), 4, "the summary, then one page per job")
        let summary = try text(pdf, page: 1)
        for expected in ["Bowling batch report", "Tuesday league", "Totals over 2 succeeded jobs", "Shots", "lane-4.mp4", "dark.mp4",
                         "2 succeeded"] {
            XCTAssertTrue(summary.contains(expected), "'\(expected)' on the first page:\n\(summary)")
        }
        let shotsLine = try XCTUnwrap(summary.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("Shots") })
        XCTAssertTrue(shotsLine.contains("5"), "3 + 2 shots: \(shotsLine)")
        XCTAssertTrue(try text(pdf, page: 3).contains("No ball found"), "the failed job says why")
        XCTAssertTrue(try text(pdf, page: 4).contains("Shots (2)"))
    }
}

/// A report says when the clip was filmed when its container says so, else when it was uploaded.
final class ReportDateTests: XCTestCase {
    func text(_ pdf: [UInt8], as name: String) throws -> String {
        let url = try PictureFixtures.keep(pdf, as: name)
        return String(decoding: try Tool.run("pdftotext", ["-layout", url.path, "-"]), as: UTF8.self)
    }

    func job(recordedAt: Date?) -> ReportJob {
        ReportJob(id: UUID(), club: "Club", sport: .bowling, fileName: "lane.mp4", createdAt: Date(timeIntervalSince1970: 1_790_000_000),
                  recordedAt: recordedAt, status: "failed", error: "No ball found")
    }

    func testTheReportSaysWhenTheClipWasFilmedElseWhenItWasUploaded() throws {
        let filmed = try text(try SessionReport.pdf(job(recordedAt: Date(timeIntervalSince1970: 1_715_679_012)), report: BowlingPicture()),
                              as: "unit-recorded-report.pdf")
        XCTAssertTrue(filmed.contains("Recorded") && filmed.contains("2024-05-14 09:30 UTC"), filmed)
        XCTAssertFalse(filmed.contains("Uploaded"), filmed)
        let uploaded = try text(try SessionReport.pdf(job(recordedAt: nil), report: BowlingPicture()), as: "unit-uploaded-report.pdf")
        XCTAssertTrue(uploaded.contains("Uploaded") && uploaded.contains("2026-09-21"), uploaded)
        XCTAssertFalse(uploaded.contains("Recorded"), uploaded)

        let batch = BatchReport.Batch(id: UUID(), club: "Club", sport: .bowling, label: "League", createdAt: Date(), counts: ["failed": 2])
        let sections = try text(try BatchReport.pdf(batch, report: BowlingPicture(), jobs: [job(recordedAt: Date(timeIntervalSince1970: 1_715_679_012)),
                                                                                        job(recordedAt: nil)]), as: "unit-recorded-batch-report.pdf")
        XCTAssertTrue(sections.contains("recorded 2024-05-14 09:30 UTC"), sections)
        XCTAssertTrue(sections.contains("uploaded 2026-09-21"), sections)
    }
}
