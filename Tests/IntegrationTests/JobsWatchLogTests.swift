import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// `reelwork jobs watch` in a pipe or a log (issue 32): a line per change of stage, a last line
/// with how long the job took, not a line per progress tick.
final class JobsWatchLogTests: QueueStackTestCase {
    func testInAPipeWatchWritesStageChangesAndAFinalLineNotProgressTicks() throws {
        try stack.startWorker()
        // The noop stage reports progress every 50 ms for 1.5 s: some thirty ticks.
        let job = try stack.submitNoop(video: video, seconds: 1.5, tag: 1, extra: ["probe": .bool(true)])
        let short = String(job.id.uuidString.lowercased().prefix(8))

        let watched = try stack.run(["jobs", "watch", job.id.uuidString.lowercased()], typing: nil)
        XCTAssertEqual(watched.status, 0, watched.output)
        let lines = watched.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix(short + " ") }, watched.output)
        XCTAssertEqual(Set(lines).count, lines.count, "no line twice:\n\(watched.output)")
        XCTAssertTrue(lines.contains("\(short) noop started") || lines.contains { $0.hasPrefix("\(short) noop done in") }, watched.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("\(short) noop done in 1.") }, "the stage's line says how long it ran:\n\(watched.output)")
        let last = try XCTUnwrap(lines.last)
        XCTAssertTrue(last.hasPrefix("\(short)\(job.fileName.map { " \($0)" } ?? "") succeeded in ") && last.hasSuffix("(attempt 1, 0/\(job.maxAttempts) failed)"), last)
        // queued/running, probe started and done, noop started and done, the last line: 7 at most.
        XCTAssertLessThanOrEqual(lines.count, 7, "a line per change, none per progress tick:\n\(watched.output)")
    }
}
