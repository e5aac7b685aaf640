import Foundation
import ReelworkCore
@testable import reelwork
import XCTest

/// `jobs watch` in a pipe or a log writes what changed, not every progress tick; on a terminal it
/// adds how long a job has run and what is left of its running stage.
final class WatchLogTests: XCTestCase {
    let id = UUID(uuidString: "1a2b3c4d-0000-4000-8000-000000000001")!
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    func job(_ status: JobStatus, attempt: Int = 1, stages: [StageView], finished: Double? = nil, error: String? = nil) -> JobView {
        JobView(id: id, videoId: UUID(), club: "north", sport: "tennis", options: .emptyObject, status: status, attempt: attempt,
                maxAttempts: 3, workerId: nil, createdAt: t0, updatedAt: t0.addingTimeInterval(finished ?? 1),
                startedAt: status == .queued ? nil : t0.addingTimeInterval(1), finishedAt: finished.map { t0.addingTimeInterval($0) },
                lastError: error, lastErrorKind: nil, fileName: "serve.mp4", stages: stages)
    }

    func stage(_ name: String, _ status: StageStatus, progress: Double = 0, start: Double = 1, end: Double? = nil) -> StageView {
        StageView(name: name, attempt: 1, status: status, progress: progress, framesDone: Int(progress * 100), framesPlanned: 100,
                  startedAt: status == .pending ? nil : t0.addingTimeInterval(start), finishedAt: end.map { t0.addingTimeInterval($0) },
                  error: nil, errorKind: nil)
    }

    func testProgressTicksWriteNothingStageChangesOneLineEachAndTheEndSaysHowLongItTook() {
        var log = WatchLog()
        var written: [String] = []
        written += log.lines(job(.queued, attempt: 0, stages: []))
        // Twenty progress ticks of the decode stage: one line when it starts, none for the ticks.
        for tick in 0..<20 {
            written += log.lines(job(.running, stages: [stage("decode", .running, progress: Double(tick) / 20), stage("pose", .pending)]))
        }
        // The same read twice writes nothing.
        written += log.lines(job(.running, stages: [stage("decode", .running, progress: 0.95), stage("pose", .pending)]))
        // Pose started and ended between two reads: written once, as it ended.
        written += log.lines(job(.succeeded, stages: [stage("decode", .succeeded, progress: 1, end: 3),
                                                      stage("pose", .succeeded, progress: 1, start: 3, end: 4.5)], finished: 4.5))
        XCTAssertEqual(written, [
            "1a2b3c4d queued",
            "1a2b3c4d running (attempt 1, 0/3 failed)",
            "1a2b3c4d decode started",
            "1a2b3c4d decode done in 2.00s",
            "1a2b3c4d pose done in 1.50s",
            "1a2b3c4d serve.mp4 succeeded in 3.5s (attempt 1, 0/3 failed)",
        ])
        XCTAssertEqual(log.lines(job(.succeeded, stages: [stage("decode", .succeeded, progress: 1, end: 3),
                                                          stage("pose", .succeeded, progress: 1, start: 3, end: 4.5)], finished: 4.5)), [],
                       "nothing more once it has ended")
    }

    func testAFailedJobsLastLineCarriesItsError() {
        var log = WatchLog()
        let lines = log.lines(job(.failed, stages: [stage("decode", .failed, end: 2)], finished: 2, error: "not a video"))
        XCTAssertEqual(lines.last, "1a2b3c4d serve.mp4 failed in 1.0s (attempt 1, 0/3 failed): not a video")
    }

    func testOnATerminalALineSaysHowLongItHasRunAndWhatIsLeftAtTheStagesRate() {
        // Started 10 s ago (t0 + 1), a quarter done: 30 s more at that rate.
        let running = job(.running, stages: [stage("pose", .running, progress: 0.25)])
        let now = t0.addingTimeInterval(11)
        XCTAssertEqual(WatchClock.estimate(running.stages[0], now: now) ?? -1, 30, accuracy: 1e-9)
        XCTAssertEqual(WatchClock.suffix(running, now: now), "  running 10s, ~30s left in pose")
        XCTAssertEqual(WatchClock.suffix(job(.queued, stages: []), now: t0.addingTimeInterval(75)), "  waiting 1m15s")
        XCTAssertNil(WatchClock.estimate(stage("pose", .running, progress: 0), now: now), "no rate yet, no estimate")
    }
}
