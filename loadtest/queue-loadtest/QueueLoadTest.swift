import ArgumentParser
import Foundation
import Histogram
import Queue
import ReelworkCore
import Store

/// Drives the real queue end to end: jobs recorded in PostgreSQL and enqueued in Redis, claimed by
/// `reelwork worker` processes, run (no-op pipeline or real tiny clips), results and state written to
/// PostgreSQL. Prints throughput, enqueue→claim latency percentiles, Redis calls and PostgreSQL
/// statements per job, and checks the queue's invariants; `--chaos` kills workers as it goes.
@main
struct QueueLoadTest: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue-loadtest",
                                                    abstract: "Load and chaos driver for Reelwork's job queue (see loadtest/queue-bench.sh).")

    @Option(help: "Jobs to submit.") var jobs = 2000
    @Option(help: "Submission rate in jobs/s (0 = as fast as possible).") var rate = 0.0
    @Option(help: "Threads submitting jobs (each commits its job durably, as a coordinator request does); with --batch-size, batches in flight.") var submitters = 16
    @Option(name: .customLong("batch-size"), help: "Create the jobs through the coordinator's API in batches of this many (0 = one job per request, straight to PostgreSQL and Redis).") var batchSize = 0
    @Option(name: .customLong("coordinator-port"), help: "The port the coordinator listens on (127.0.0.1); needed with --batch-size.") var coordinatorPort = 0
    @Option(help: "Worker processes.") var workers = 2
    @Option(help: "Slots per worker.") var slots = 4
    @Option(help: "Clubs the jobs are spread over (round-robin).") var clubs = 4
    @Option(name: .customLong("global-cap"), help: "Global running cap (0 = none).") var globalCap = 0
    @Option(name: .customLong("club-cap"), help: "Per-club running cap (0 = none).") var clubCap = 0
    @Flag(help: "Run real tiny clips (probe + decode) instead of the no-op pipeline.") var clips = false
    @Flag(help: "SIGKILL a random worker every 2–4 s and start a new one.") var chaos = false
    @Option(help: "The reelwork binary.") var binary = ".build/release/reelwork"
    @Option(name: .customLong("admin-database-url"), help: "A server where a fresh database may be created.") var adminDatabaseURL: String
    @Option(name: .customLong("redis-url")) var redisURL: String
    @Option(help: "Seconds to wait for the last job.") var timeout = 600.0

    func validate() throws {
        guard batchSize >= 0, batchSize <= AddBatchJobsRequest.maxVideoIds else { throw ValidationError("--batch-size must be 0…\(AddBatchJobsRequest.maxVideoIds) (the API's limit per request)") }
        guard batchSize == 0 || coordinatorPort > 0 else { throw ValidationError("--batch-size needs --coordinator-port (a free port)") }
        guard batchSize == 0 || (!clips && rate == 0) else { throw ValidationError("--batch-size runs no-op jobs as fast as possible (no --clips, no --rate)") }
    }

    func run() throws {
        let run = try LoadRun(options: self)
        defer { run.tearDown() }
        let report = try run.execute()
        print(report.text)
        if !report.invariantsHold { throw ExitCode(1) }
    }
}
