import Foundation
import ReelworkCore
import Store
import Tennis
import TestSupport
import Threading
import XCTest

/// `batch.completed` in PostgreSQL: announced by the sweep exactly once each time all of a batch's
/// jobs have ended, whichever write ended the last; again after a retry or new jobs open the batch
/// and it completes again; exactly once when sweeps in several coordinators run at the same moment;
/// and never missed when a retry races the sweep. A job's end, the queue's hot path, never waits
/// for its batch.
final class BatchCompletionTests: MigratedDatabaseTestCase {
    private let document = AnalysisDocument(video: nil, stages: [], warnings: [], result: .emptyObject)

    override func setUpWithError() throws {
        try super.setUpWithError()
        _ = try WebhookRepository(db).create(club: "c", url: "https://hooks.example.org/c", events: [.batchCompleted])
    }

    /// A batch of club "c" with `count` waiting jobs, each of its own video.
    private func batch(jobs count: Int) throws -> (batch: BatchView, jobs: [UUID]) {
        let batches = BatchRepository(db)
        let batch = try batches.create(NewBatch(club: "c", sport: .tennis, options: .emptyObject, label: "season", dedupeKey: nil)).batch
        return (batch, try addJobs(count, to: batch))
    }

    /// `count` new jobs in `batch`, each of a new video.
    private func addJobs(_ count: Int, to batch: BatchView) throws -> [UUID] {
        let facts = VideoFacts(durationSeconds: 1, frameCount: 30, fps: 30, width: 160, height: 120, codec: "h264", rotation: 0, container: "mp4")
        let specs = try (0..<count).map { _ in
            let video = try VideoRepository(db).insertOrFetch(NewVideo(club: "c", contentHash: UUID().uuidString, sizeBytes: 1,
                                                                       storageKey: "k", originalName: nil, facts: facts)).video
            return BatchJobSpec(videoId: video.id, dedupeKey: UUID().uuidString)
        }
        return try BatchRepository(db).addJobs(to: batch, specs, maxAttempts: 3, priority: "normal", maxWaiting: 1_000_000).jobIds
    }

    /// Sweeps (as a coordinator's dispatcher does before each round), then gives the `data` of
    /// every `batch.completed` delivery recorded for `batch`, oldest first.
    private func announcements(_ batch: BatchView) throws -> [JSONValue] {
        try BatchCompletion.sweep(on: db)
        return try recorded(batch)
    }

    /// The `data` of every `batch.completed` delivery recorded for `batch`, oldest first.
    private func recorded(_ batch: BatchView) throws -> [JSONValue] {
        try db.query("""
            SELECT data::text AS d FROM webhook_deliveries
            WHERE event_type = 'batch.completed' AND lower(data->'batch'->>'id') = $1 ORDER BY created_at, id
            """, [batch.id]).rows.map { try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(try $0.string("d").utf8)) }
    }

    private func run(_ job: UUID, attempt: Int = 1, on connection: PGConnection? = nil) throws -> ClaimedRun {
        try (connection ?? db).startedRun(sport: .tennis, attempt: attempt, job: job)
    }

    func testASweepAnnouncesABatchWhoseJobsHaveAllEndedOnceWithItsSummary() throws {
        let (batch, jobs) = try batch(jobs: 4)
        XCTAssertTrue(try RunRepository(db).complete(try run(jobs[0]), document: document, facts: nil))
        XCTAssertTrue(try RunRepository(db).fail(try run(jobs[1]), message: "not a video", kind: .invalidInput, retryIn: nil))
        XCTAssertEqual(try JobRepository(db).cancel(id: jobs[2]), .cancelled)
        XCTAssertEqual(try announcements(batch), [], "a job is still open")

        XCTAssertTrue(try MaintenanceRepository(db).recordStall(jobId: try run(jobs[3]).jobId, attempt: 1, stalls: 4, verdict: .failed))
        XCTAssertEqual(try recorded(batch), [], "nothing before the sweep: the job's end does nothing for its batch")
        let data = try announcements(batch)
        XCTAssertEqual(data.count, 1)
        XCTAssertEqual(try announcements(batch).count, 1, "a second sweep finds it announced")
        let id = batch.id.uuidString.lowercased()
        XCTAssertEqual(data.first?["batch"]?["id"], .string(batch.id.uuidString.lowercased()), "as GET /v1/batches/{id} shows it: lower case")
        XCTAssertEqual(data.first?["batch"]?["club"], .string("c"))
        XCTAssertEqual(data.first?["batch"]?["total"], .number(4))
        XCTAssertEqual(data.first?["batch"]?["counts"], .object(["succeeded": .number(1), "failed": .number(2), "cancelled": .number(1)]))
        XCTAssertEqual(data.first?["batch"]?["label"], .string("season"))
        XCTAssertNotNil(data.first?["batch"]?["finishedAt"])
        XCTAssertEqual(data.first?["completion"], .number(1))
        XCTAssertEqual(data.first?["links"], .object(["batch": .string("/v1/batches/\(id)"), "jobs": .string("/v1/batches/\(id)/jobs")]))
    }

    /// Every write that can end a job, ending a batch's last open job: one announcement, and a
    /// repeat of the write (or a stale one) adds none.
    func testEveryWriteThatEndsTheLastJobAnnouncesTheBatchOnce() throws {
        let writers: [(String, (UUID, BatchView) throws -> Void)] = [
            ("a run's success", { job, _ in
                let run = try self.run(job)
                XCTAssertTrue(try RunRepository(self.db).complete(run, document: self.document, facts: nil))
                XCTAssertFalse(try RunRepository(self.db).complete(run, document: self.document, facts: nil))
            }),
            ("a run's failure", { job, _ in XCTAssertTrue(try RunRepository(self.db).fail(try self.run(job), message: "x", kind: .internal, retryIn: nil)) }),
            ("a run's cancel", { job, _ in XCTAssertTrue(try RunRepository(self.db).cancelled(try self.run(job))) }),
            ("a waiting job's cancel", { job, _ in XCTAssertEqual(try JobRepository(self.db).cancel(id: job), .cancelled) }),
            ("the batch's cancel", { _, batch in XCTAssertEqual(try BatchRepository(self.db).cancel(batchId: batch.id).cancelled.count, 1) }),
            ("a stall past the limit", { job, _ in
                XCTAssertTrue(try MaintenanceRepository(self.db).recordStall(jobId: try self.run(job).jobId, attempt: 1, stalls: 4, verdict: .failed))
                XCTAssertFalse(try MaintenanceRepository(self.db).recordStall(jobId: job, attempt: 1, stalls: 4, verdict: .failed))
            }),
            ("a cancel found at the next claim", { job, _ in
                _ = try self.run(job)
                XCTAssertEqual(try JobRepository(self.db).cancel(id: job), .requested)
                XCTAssertEqual(try RunRepository(self.db).start(jobId: job, attempt: 2, worker: "w2"), .finished(.cancelled))
                XCTAssertEqual(try RunRepository(self.db).start(jobId: job, attempt: 3, worker: "w3"), .finished(.cancelled))
            }),
            ("the removal of a job whose enqueue failed", { job, _ in try JobRepository(self.db).deleteUnstarted(id: job) }),
        ]
        for (name, end) in writers {
            let (batch, jobs) = try batch(jobs: 2)
            XCTAssertTrue(try RunRepository(db).complete(try run(jobs[0]), document: document, facts: nil))
            XCTAssertEqual(try announcements(batch).count, 0, name)
            try end(jobs[1], batch)
            XCTAssertEqual(try announcements(batch).count, 1, name)
        }
    }

    func testWritesThatDoNotEndTheLastJobAnnounceNothing() throws {
        let (batch, jobs) = try batch(jobs: 1)
        let runs = RunRepository(db)
        XCTAssertTrue(try runs.fail(try run(jobs[0]), message: "blip", kind: .transient, retryIn: 60))
        XCTAssertTrue(try runs.handBack(try run(jobs[0], attempt: 2)))
        XCTAssertTrue(try MaintenanceRepository(db).recordStall(jobId: try run(jobs[0], attempt: 3).jobId, attempt: 3, stalls: 1, verdict: .requeued))
        XCTAssertEqual(try announcements(batch), [])
        let empty = try BatchRepository(db).create(NewBatch(club: "c", sport: .tennis, options: .emptyObject, label: nil, dedupeKey: nil)).batch
        XCTAssertEqual(try BatchRepository(db).cancel(batchId: empty.id).cancelled, [])
        XCTAssertEqual(try announcements(empty), [], "a batch without jobs never completes")
    }

    /// A write on a completed batch that opens no job (here the removal of a job cancelled before
    /// it ever ran, which `deleteUnstarted` allows) finds it complete again: it was announced already.
    func testACompletedBatchIsNotAnnouncedAgainWithoutBeingOpened() throws {
        let (batch, jobs) = try batch(jobs: 2)
        XCTAssertEqual(try JobRepository(db).cancel(id: jobs[1]), .cancelled)
        XCTAssertTrue(try RunRepository(db).complete(try run(jobs[0]), document: document, facts: nil))
        XCTAssertEqual(try announcements(batch).count, 1)
        try JobRepository(db).deleteUnstarted(id: jobs[1])
        XCTAssertNil(try JobRepository(db).find(id: jobs[1]), "removed")
        XCTAssertEqual(try announcements(batch).count, 1)
    }

    /// A retry (of one job, or of the batch's failed jobs) or new jobs open a completed batch
    /// again: it is announced again when it completes again, with the next `completion` number.
    func testABatchOpenedAgainIsAnnouncedAgainWhenItCompletesAgain() throws {
        let (batch, jobs) = try batch(jobs: 2)
        XCTAssertTrue(try RunRepository(db).complete(try run(jobs[0]), document: document, facts: nil))
        XCTAssertTrue(try RunRepository(db).fail(try run(jobs[1]), message: "x", kind: .internal, retryIn: nil))
        XCTAssertEqual(try announcements(batch).map { $0["completion"] }, [.number(1)])

        XCTAssertNotNil(try JobRepository(db).requeueForRetry(id: jobs[1]))
        XCTAssertEqual(try announcements(batch).count, 1, "open again: nothing until it ends")
        XCTAssertTrue(try RunRepository(db).fail(try run(jobs[1], attempt: 2), message: "x", kind: .internal, retryIn: nil))
        XCTAssertEqual(try announcements(batch).map { $0["completion"] }, [.number(1), .number(2)])

        XCTAssertEqual(try JobRepository(db).requeueFailed(club: nil, sport: nil, errorKind: nil, since: nil, until: nil, batchId: batch.id).count, 1)
        XCTAssertTrue(try RunRepository(db).complete(try run(jobs[1], attempt: 3), document: document, facts: nil))
        let third = try announcements(batch)
        XCTAssertEqual(third.map { $0["completion"] }, [.number(1), .number(2), .number(3)])
        XCTAssertEqual(third.last?["batch"]?["counts"], .object(["succeeded": .number(2)]))

        XCTAssertEqual(try addJobs(1, to: batch).count, 1)
        XCTAssertEqual(try announcements(batch).count, 3, "a new job: open again")
        XCTAssertEqual(try BatchRepository(db).cancel(batchId: batch.id).cancelled.count, 1)
        XCTAssertEqual(try announcements(batch).map { $0["completion"] }, [.number(1), .number(2), .number(3), .number(4)])
    }

    /// Sweeps in several connections at once (several coordinators), round after round, over
    /// batches whose jobs have all ended: each batch is announced exactly once.
    func testSweepsAtTheSameMomentAnnounceEachBatchExactlyOnce() throws {
        try lingerOnBatchUpdates()
        let url = database.url
        for round in 0..<10 {
            var batches: [BatchView] = []
            for _ in 0..<5 {
                let (batch, jobs) = try batch(jobs: 1)
                XCTAssertEqual(try JobRepository(db).cancel(id: jobs[0]), .cancelled)
                batches.append(batch)
            }
            let swept = LockedValue(0)
            let errors = try together(4) { _ in
                let connection = try PGConnection(url)
                let count = try BatchCompletion.sweep(on: connection)
                swept.withLock { $0 += count }
            }
            XCTAssertEqual(errors, [], "round \(round)")
            XCTAssertEqual(swept.withLock { $0 }, 5, "round \(round): announced, over all the sweeps")
            XCTAssertEqual(try batches.map { try recorded($0).count }, Array(repeating: 1, count: 5), "round \(round)")
        }
    }

    /// A retry of a batch's failed job racing a sweep that finds the batch complete, round after
    /// round: however they interleave, the batch ends up open (not marked), and it is announced
    /// again, once, when the retried job ends.
    func testARetryRacingASweepLeavesTheBatchOpenAndItIsAnnouncedWhenItEnds() throws {
        try lingerOnBatchUpdates()
        let url = database.url
        for round in 0..<20 {
            let (batch, jobs) = try batch(jobs: 2)
            XCTAssertTrue(try RunRepository(db).complete(try run(jobs[0]), document: document, facts: nil))
            XCTAssertTrue(try RunRepository(db).fail(try run(jobs[1]), message: "x", kind: .internal, retryIn: nil))
            let errors = try together(2) { index in
                let connection = try PGConnection(url)
                if index == 0 {
                    try BatchCompletion.sweep(on: connection)
                } else if try JobRepository(connection).requeueForRetry(id: jobs[1]) == nil {
                    throw TestSetupError(description: "the retry found no job")
                }
            }
            XCTAssertEqual(errors, [], "round \(round)")
            let before = try recorded(batch).count
            XCTAssertLessThanOrEqual(before, 1, "round \(round)")
            XCTAssertEqual(try announcements(batch).count, before, "round \(round): a job is open again, so no sweep announces it")
            XCTAssertTrue(try RunRepository(db).complete(try run(jobs[1], attempt: 2), document: document, facts: nil))
            let after = try announcements(batch)
            XCTAssertEqual(after.count, before + 1, "round \(round): announced when the retried job ended")
            XCTAssertEqual(after.last?["batch"]?["counts"], .object(["succeeded": .number(2)]), "round \(round)")
        }
    }

    /// A job's end never waits for its batch, even its last job's end (the queue's hot path stays
    /// one statement); a sweep passes over a batch another transaction holds, and announces it once
    /// it is free.
    func testAJobsEndNeverWaitsForItsBatchAndASweepPassesOverAHeldBatch() throws {
        let (batch, jobs) = try batch(jobs: 2)
        let first = try run(jobs[0]), last = try run(jobs[1])
        let holder = try database.connect()
        try holder.execute("BEGIN")
        try holder.query("SELECT id FROM batches WHERE id = $1 FOR UPDATE", [batch.id])
        let ender = try database.connect()
        try ender.execute("SET lock_timeout = '1s'")
        XCTAssertTrue(try RunRepository(ender).complete(first, document: document, facts: nil))
        XCTAssertTrue(try RunRepository(ender).complete(last, document: document, facts: nil), "the last job's end does not wait either")
        XCTAssertEqual(try BatchCompletion.sweep(on: ender), 0, "held: passed over, not waited for")
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try announcements(batch).count, 1)
    }

    /// A sweep announces at most `limit` batches; the next one announces the rest.
    func testASweepStopsAtItsLimitAndTheNextAnnouncesTheRest() throws {
        var batches: [BatchView] = []
        for _ in 0..<3 {
            let (batch, jobs) = try batch(jobs: 1)
            XCTAssertEqual(try JobRepository(db).cancel(id: jobs[0]), .cancelled)
            batches.append(batch)
        }
        XCTAssertEqual(try BatchCompletion.sweep(limit: 2, on: db), 2)
        XCTAssertEqual(try BatchCompletion.sweep(limit: 2, on: db), 1)
        XCTAssertEqual(try BatchCompletion.sweep(limit: 2, on: db), 0)
        XCTAssertEqual(try batches.map { try recorded($0).count }, [1, 1, 1])
    }

    /// Widens the races: every UPDATE of `batches` (a sweep's mark, a retry's reopening) waits
    /// 20 ms at its end, before its transaction goes on to commit.
    private func lingerOnBatchUpdates() throws {
        try db.execute("""
            CREATE FUNCTION test_linger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(0.02); RETURN NULL; END $$;
            CREATE TRIGGER test_linger AFTER UPDATE ON batches FOR EACH STATEMENT EXECUTE FUNCTION test_linger();
            CREATE TRIGGER test_linger AFTER UPDATE OF status ON jobs FOR EACH STATEMENT EXECUTE FUNCTION test_linger();
            """)
    }

    /// Runs `work(index)` on `parties` threads let go at the same moment (a thread each: a dispatch
    /// queue would run only as many at once as there are cores); returns the errors thrown.
    private func together(_ parties: Int, _ work: @escaping @Sendable (Int) throws -> Void) throws -> [String] {
        let gate = StartingGate(parties: parties)
        let errors = LockedValue<[String]>([])
        let done = DispatchGroup()
        for index in 0..<parties {
            done.enter()
            Thread {
                defer { done.leave() }
                gate.wait()
                do { try work(index) } catch { errors.withLock { $0.append("\(error)") } }
            }.start()
        }
        done.wait()
        return errors.withLock { $0 }
    }
}

/// Lets `parties` threads through at once: each `wait()` blocks until all have arrived.
private final class StartingGate: @unchecked Sendable {
    // Safe: `arrived` is read and written only with `condition` locked.
    private let condition = NSCondition()
    private let parties: Int
    private var arrived = 0

    init(parties: Int) { self.parties = parties }

    func wait() {
        condition.lock()
        arrived += 1
        if arrived == parties { condition.broadcast() }
        while arrived < parties { condition.wait() }
        condition.unlock()
    }
}
