import Foundation
import Media
import ReelworkCore
import Threading
import XCTest

/// Progress, cancellation, threading and concurrent use of VideoDecoder.
final class DecodeBehaviourTests: FixtureTestCase {

    private func clip() throws -> String {
        try fixtures.video("clip.mp4", Source.testPattern(seconds: 4) + Source.h264)
    }

    func testProgressIsReportedEveryThirtyFramesAndAtTheEnd() throws {
        var reported: [Int] = []
        let report = try VideoDecoder(location: try clip()).decodeAll { reported.append($0) }
        XCTAssertEqual(report.framesDecoded, 100)
        XCTAssertEqual(reported, [30, 60, 90, 100])
    }

    private struct Cancelled: Error {}

    func testThrowingFromProgressStopsDecoding() throws {
        var calls = 0
        let decoder = try VideoDecoder(location: try clip())
        XCTAssertThrowsError(try decoder.decodeAll { _ in
            calls += 1
            throw Cancelled()
        }) { error in
            XCTAssertTrue(error is Cancelled, "the progress error propagates unchanged, got \(error)")
        }
        XCTAssertEqual(calls, 1)
        // A decoder is single-use.
        assertMediaError(.internal, containing: ["already called"]) { try decoder.decodeAll { _ in } }
    }

    func testThreadCountDoesNotChangeTheResult() throws {
        let path = try clip()
        let single = try VideoDecoder(location: path, options: DecodeOptions(threads: 1)).decodeAll { _ in }
        for threads in [0, 2, 4] {
            let report = try VideoDecoder(location: path, options: DecodeOptions(threads: threads)).decodeAll { _ in }
            XCTAssertEqual(report, single, "threads=\(threads)")
        }
    }

    /// Several decoders on several threads at once give the same answers as one at a time.
    func testDecodersRunConcurrently() throws {
        let paths = [try clip(),
                     try fixtures.video("black.mp4", Source.color("black") + Source.h264),
                     try fixtures.video("ntsc.mkv", Source.testPattern(seconds: 3, rate: "30000/1001") + Source.h264)]
        let expected = try paths.map { try VideoDecoder(location: $0).decodeAll { _ in } }
        let jobs = (0..<6).map { paths[$0 % paths.count] }
        let results = LockedValue([Result<DecodeReport, any Error>?](repeating: nil, count: jobs.count))
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            let report = Result { try VideoDecoder(location: jobs[index]).decodeAll { _ in } }
            results.withLock { $0[index] = report }
        }
        for (index, result) in results.withLock({ $0 }).enumerated() {
            XCTAssertEqual(try result?.get(), expected[index % paths.count], "job \(index)")
        }
    }
}

