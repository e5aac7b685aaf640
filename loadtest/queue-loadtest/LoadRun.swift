import Foundation
import Histogram
import Media
import ObjectStorage
import Queue
import ReelworkClient
import ReelworkCore
import Store

/// One load run: a fresh database and queue prefix, a coordinator (for the reaper and reconciler),
/// K workers, N jobs; afterwards the figures and the invariant checks.
final class LoadRun {
    let options: QueueLoadTest
    let databaseName = "rw_load_\(UUID().uuidString.prefix(8).lowercased())"
    let databaseURL: String
    let prefix = "rwload:\(UUID().uuidString.prefix(8).lowercased())"
    let storage: URL
    let fleet: Fleet

    init(options: QueueLoadTest) throws {
        self.options = options
        databaseURL = options.adminDatabaseURL.replacingOccurrences(of: #"/[^/]*$"#, with: "/\(databaseName)", options: .regularExpression)
        storage = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(databaseName)
        var env = ProcessInfo.processInfo.environment
        env["REELWORK_DATABASE_URL"] = databaseURL
        env["REELWORK_REDIS_URL"] = options.redisURL
        env["REELWORK_QUEUE_PREFIX"] = prefix
        env["REELWORK_DIAGNOSTICS"] = "1"   // the no-op pipeline
        env["REELWORK_STORAGE_DIR"] = storage.path
        env["REELWORK_BIND"] = "127.0.0.1:\(options.coordinatorPort)"
        // The limits a club meets in production are not what is measured here.
        env["REELWORK_MAX_WAITING_JOBS_PER_CLUB"] = String(max(10_000, options.jobs))
        env["REELWORK_RATE_LIMIT_PER_SECOND"] = "1000000"
        env["REELWORK_GLOBAL_CAP"] = String(options.globalCap)
        env["REELWORK_CLUB_CAP"] = String(options.clubCap)
        env["REELWORK_LEASE_SECONDS"] = "4"
        env["REELWORK_HEARTBEAT_SECONDS"] = "1"
        env["REELWORK_REAPER_INTERVAL_SECONDS"] = "0.25"
        env["LOG_LEVEL"] = "warning"
        fleet = Fleet(binary: options.binary, environment: env, logDirectory: storage)
    }

    func execute() throws -> Report {
        try FileManager.default.createDirectory(at: storage, withIntermediateDirectories: true)
        try PGConnection(options.adminDatabaseURL).execute("CREATE DATABASE \(databaseName)")
        try fleet.runToEnd(["migrate", "--dir", "migrations"])
        let videoId = try recordVideo()
        try fleet.startCoordinator()
        let batches = try options.batchSize > 0 ? prepareBatches(copying: videoId) : nil
        let redis = try RedisConnection(RedisURL(parsing: options.redisURL))
        let queue = JobQueue(prefix: prefix)
        try queue.configure(globalCap: options.globalCap, clubCap: options.clubCap, on: redis)
        for _ in 0..<options.workers { try fleet.startWorker(slots: options.slots) }
        Thread.sleep(forTimeInterval: 1)   // workers connected and waiting

        let counters = try ServerCounters.read(redis: redis, admin: options.adminDatabaseURL, database: databaseName, fleet: fleet.processIDs)
        let sampler = QueueStatsSampler(queue: queue, url: try RedisURL(parsing: options.redisURL))
        sampler.start()
        let chaos = options.chaos ? ChaosMonkey(fleet: fleet, slots: options.slots) : nil
        chaos?.start()

        let started = Date()
        if let batches {
            let count = options.jobs
            try blocking { try await batches.submit(count: count) }
        } else {
            try Submitter(databaseURL: databaseURL, redisURL: options.redisURL, queue: queue, videoId: videoId, clubs: options.clubs,
                          noop: !options.clips, threads: options.submitters).submit(count: options.jobs, rate: options.rate)
        }
        let submitted = Date()
        let db = try PGConnection(databaseURL)
        let deadline = Date().addingTimeInterval(options.timeout)
        // The wait asks only whether any job is still open: an index lookup (jobs_status_created)
        // that costs PostgreSQL next to nothing. Counting the open jobs every 50 ms instead scanned
        // the whole table, and took CPU from the run being measured.
        let waiting = JobStatus.allCases.filter { !$0.isTerminal }.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        while Date() < deadline {
            if try !db.query("SELECT EXISTS (SELECT 1 FROM jobs WHERE status IN (\(waiting))) AS open").rows[0].bool("open") { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let finished = Date()
        let open = try db.query("SELECT count(*) AS n FROM jobs WHERE status IN (\(waiting))").rows[0].int("n")
        chaos?.stop()
        let samples = sampler.stop()
        let after = try ServerCounters.read(redis: redis, admin: options.adminDatabaseURL, database: databaseName, fleet: fleet.processIDs)
        return try Report.make(options: options, db: db, started: started, submitted: submitted, finished: finished, open: open,
                               calls: after - counters, samplerCalls: samples.count, samples: samples, kills: chaos?.kills ?? 0)
    }

    /// One small real clip in storage, as the coordinator would have recorded it.
    func recordVideo() throws -> UUID {
        let clip = storage.appendingPathComponent("clip.mp4")
        let ffmpeg = Process()
        ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        ffmpeg.arguments = ["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "1",
                            "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path]
        try ffmpeg.run()
        ffmpeg.waitUntilExit()
        let facts = try MediaProbe.probe(clip.path, verifyPackets: true)
        let hasher = ContentHasher()
        hasher.update(Array(try Data(contentsOf: clip)))
        let hash = hasher.finalize()
        // Placed as the coordinator's local store places an upload: under its content key.
        let key = ObjectKey.video(sha256: hash)
        let destination = URL(fileURLWithPath: LocalObjectStore(root: storage.path).path(forKey: key))
        let size = Int64(try Data(contentsOf: clip).count)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if !FileManager.default.fileExists(atPath: destination.path) { try FileManager.default.moveItem(at: clip, to: destination) }
        let video = NewVideo(club: "bench", contentHash: hash, sizeBytes: size, storageKey: key, originalName: "clip.mp4", facts: facts)
        return try VideoRepository(PGConnection(databaseURL)).insertOrFetch(video).video.id
    }

    /// Batch mode: an operator key, the videos the batches name, and a coordinator that answers.
    func prepareBatches(copying videoId: UUID) throws -> BatchSubmitter {
        let db = try PGConnection(databaseURL)
        let key = try APIKeyRepository(db).create(role: .operator, club: nil, label: "queue-loadtest").key.text
        let clubs = (0..<options.clubs).map { "club-\($0)" }
        let videos = try BatchSubmitter.recordVideos(copying: videoId, clubs: clubs, perClub: options.batchSize, db: db)
        let client = try CoordinatorClient(baseURL: "http://127.0.0.1:\(options.coordinatorPort)", apiKey: key)
        let deadline = Date().addingTimeInterval(30)
        while (try? blocking({ try await client.health() })) == nil {
            guard Date() < deadline else { throw LoadError("the coordinator did not answer on port \(options.coordinatorPort) within 30 s") }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return BatchSubmitter(client: client, videos: videos, batchSize: options.batchSize, concurrency: options.submitters)
    }

    func tearDown() {
        fleet.stopAll()
        if let redis = try? RedisConnection(RedisURL(parsing: options.redisURL)),
           case .array(let keys)? = try? redis.command("KEYS", "\(prefix):*"), !keys.isEmpty {
            _ = try? redis.command(["DEL"] + keys.compactMap(\.string))
        }
        _ = try? PGConnection(options.adminDatabaseURL).execute("DROP DATABASE IF EXISTS \(databaseName) WITH (FORCE)")
        try? FileManager.default.removeItem(at: storage)
    }
}
