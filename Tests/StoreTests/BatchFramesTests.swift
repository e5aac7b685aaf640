import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import XCTest

/// A batch's frames are its videos' frames: a run's streamed stages each count the same decoded
/// frames (and a sampled stage fewer), so adding them up over stages would count a clip two or
/// three times.
final class BatchFramesTests: MigratedDatabaseTestCase {
    func testABatchCountsEachJobsFramesOnceWhateverItsStages() throws {
        let batch = try BatchRepository(db).create(NewBatch(club: "c", sport: .tennis, options: .emptyObject, label: nil, dedupeKey: nil)).batch
        let facts = VideoFacts(durationSeconds: 3, frameCount: 90, fps: 30, width: 160, height: 120, codec: "h264", rotation: 0, container: "mp4")
        let specs = try (0..<2).map { _ in
            let video = try VideoRepository(db).insertOrFetch(NewVideo(club: "c", contentHash: UUID().uuidString, sizeBytes: 1,
                                                                       storageKey: "k", originalName: nil, facts: facts)).video
            return BatchJobSpec(videoId: video.id, dedupeKey: UUID().uuidString)
        }
        let jobs = try BatchRepository(db).addJobs(to: batch, specs, maxAttempts: 3, priority: "normal", maxWaiting: 100).jobIds
        // The first job finished: decode and pose streamed the 90 frames (pose sampled 30 of them).
        // The second is half way through its decode.
        try db.query("""
            INSERT INTO job_stages (job_id, attempt, name, position, status, frames_done, frames_planned)
            SELECT $1, attempt, s.name, s.position, 'succeeded', s.done, s.planned FROM jobs,
                   (VALUES ('probe', 0, NULL::int, NULL::int), ('decode', 1, 90, 90), ('pose', 2, 30, 30), ('swings', 3, NULL, NULL))
                   AS s(name, position, done, planned)
            WHERE jobs.id = $1
            """, [jobs[0]])
        try db.query("""
            INSERT INTO job_stages (job_id, attempt, name, position, status, frames_done, frames_planned)
            SELECT $1, attempt, 'decode', 1, 'running', 45, 90 FROM jobs WHERE id = $1
            """, [jobs[1]])
        let view = try XCTUnwrap(try BatchRepository(db).find(id: batch.id, club: nil))
        XCTAssertEqual(view.framesPlanned, 180, "two clips of 90 frames")
        XCTAssertEqual(view.framesDone, 135)
    }
}
