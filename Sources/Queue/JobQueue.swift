import Foundation
import ReelworkCore

/// A job a worker holds a lease on. `attempt` is the fencing token for every PostgreSQL write of the run.
public struct Claim: Equatable, Sendable {
    public let jobId: UUID
    public let attempt: Int
    public let club: String
    /// The job's priority when claimed: a run that adopts its job again (Redis lost it) keeps it.
    public let priority: Priority

    public init(jobId: UUID, attempt: Int, club: String, priority: Priority = .normal) {
        self.jobId = jobId
        self.attempt = attempt
        self.club = club
        self.priority = priority
    }
}

public enum Priority: String, Codable, CaseIterable, Sendable {
    case high, normal, low
}

/// The Redis side of the job queue. Every state change is one Lua script (QueueScripts), so no
/// crash between two commands can leave a job in no list or in two.
///
/// Guarantees kept here:
/// - a claim pops the next job and records its lease (owner, deadline, attempt) atomically;
/// - every deadline is Redis's clock plus a duration (`QueueScripts`): no caller passes a time, so
///   hosts whose clocks disagree still agree on when a lease ends;
/// - a lease not renewed by heartbeats expires; `reap` puts the job back first in line and counts a
///   stall, and past `maxStalls` hands it to the caller to fail;
/// - clubs with ready work are served round-robin, each below the per-club cap, all below the global cap;
/// - a run that lost its lease can change nothing (`finish` and `heartbeat` check owner and attempt);
/// - Redis holds only what can be rebuilt from PostgreSQL (the reconciler does that).
public struct JobQueue: Sendable {
    public let prefix: String
    /// How long Redis remembers that a run ended a job it forgot (the lease: a heartbeat that
    /// was in flight arrives well within it).
    public let tombstoneSeconds: TimeInterval

    public init(prefix: String = "reelwork", tombstoneSeconds: TimeInterval = QueueSettings().leaseSeconds) {
        self.prefix = prefix
        self.tombstoneSeconds = tombstoneSeconds
    }

    /// The queue a coordinator or worker with `config` uses: its key prefix, tombstones kept for a lease.
    public init(config: ReelworkConfig) {
        self.init(prefix: config.queuePrefix, tombstoneSeconds: config.queue.leaseSeconds)
    }

    public var wakeKey: String { "\(prefix):wake" }

    // MARK: producing

    /// Makes a job claimable now, or `delay` seconds from now by Redis's clock (a scheduled retry;
    /// 0 or less: now). Does nothing if Redis already holds the job. Returns whether it was added.
    @discardableResult
    public func enqueue(_ id: UUID, club: String, priority: Priority = .normal, attempt: Int = 0, delay: TimeInterval = 0,
                        on redis: RedisConnection) throws -> Bool {
        try QueueScripts.enqueue.run(on: redis, args: [prefix, Self.key(id), club, priority.rawValue, String(attempt),
                                                      String(Self.millis(delay))]).integer == 1
    }

    /// One job for `enqueue(_:on:)`.
    public struct Entry: Sendable, Equatable {
        public var id: UUID
        public var club: String
        public var priority: Priority
        public var attempt: Int
        /// Seconds from now (Redis's clock) until the job is claimable; 0: at once.
        public var delay: TimeInterval

        public init(id: UUID, club: String, priority: Priority = .normal, attempt: Int = 0, delay: TimeInterval = 0) {
            self.id = id
            self.club = club
            self.priority = priority
            self.attempt = attempt
            self.delay = delay
        }
    }

    /// Jobs per script call: a call blocks Redis while it runs, so a huge batch goes in slices.
    public static let enqueueSlice = 1_000

    /// Enqueues many jobs with one script call per `enqueueSlice` (not one round trip per job).
    /// Jobs Redis already holds are left as they are. Returns how many were added.
    @discardableResult
    public func enqueue(_ entries: [Entry], on redis: RedisConnection) throws -> Int {
        var added = 0
        for start in stride(from: 0, to: entries.count, by: Self.enqueueSlice) {
            var args = [prefix]
            for e in entries[start..<min(start + Self.enqueueSlice, entries.count)] {
                args += [Self.key(e.id), e.club, e.priority.rawValue, String(e.attempt), String(Self.millis(e.delay))]
            }
            added += try QueueScripts.enqueueMany.run(on: redis, args: args).integer ?? 0
        }
        return added
    }

    /// What a cancel did in Redis (the `cancel` script's answers, named here).
    public enum CancelReply: String, NamedState {
        /// The job was waiting (ready or delayed): Redis forgot it.
        case removed
        /// The job is running: its worker is told at its next heartbeat.
        case signalled
        /// Redis does not hold the job.
        case absent
    }

    /// Cancels a job: removed from waiting, signalled to its worker if running, or absent.
    public func cancel(_ id: UUID, on redis: RedisConnection) throws -> CancelReply {
        CancelReply(rawValue: try QueueScripts.cancel.run(on: redis, args: [prefix, Self.key(id)]).string ?? "") ?? .absent
    }

    /// Whether Redis holds the job at all (waiting, delayed or running).
    public func holds(_ id: UUID, on redis: RedisConnection) throws -> Bool {
        try redis.command("EXISTS", "\(prefix):job:\(Self.key(id))", "\(prefix):lease:\(Self.key(id))").integer ?? 0 > 0
    }

    /// Sets the caps every claim checks (0 = none). Kept in Redis so every worker obeys the same
    /// numbers. Writes only when they differ (a Redis out of memory refuses the write, not the read).
    public func configure(globalCap: Int, clubCap: Int, on redis: RedisConnection) throws {
        let wanted = [String(globalCap), String(clubCap)]
        let current = try redis.command("HMGET", "\(prefix):config", "global_cap", "club_cap").array?.map(\.string) ?? []
        guard current != wanted else { return }
        try redis.command("HSET", "\(prefix):config", "global_cap", wanted[0], "club_cap", wanted[1])
    }

    // MARK: consuming

    /// Claims the next job, if any is claimable, leased for `lease` seconds of Redis's clock. Never
    /// blocks; pair with `waitForWork`.
    public func claim(owner: String, lease: TimeInterval, on redis: RedisConnection) throws -> Claim? {
        let reply = try QueueScripts.claim.run(on: redis, args: [prefix, owner, String(Self.millis(lease))])
        guard let parts = reply.array, parts.count == 4, let text = parts[0].string, let attempt = parts[1].integer,
              let club = parts[2].string else { return nil }
        guard let id = UUID(uuidString: text) else {
            throw RedisError(.protocolViolation, "queue held a value that is not a job id: '\(text)'")
        }
        return Claim(jobId: id, attempt: attempt, club: club, priority: parts[3].string.flatMap(Priority.init(rawValue:)) ?? .normal)
    }

    /// Blocks (BLPOP) until work may be claimable or `timeout` passes: enqueues, finished jobs and
    /// due retries each push a wake-up token.
    public func waitForWork(timeout: TimeInterval, on redis: RedisConnection) throws {
        try redis.command("BLPOP", wakeKey, String(format: "%.3f", timeout))
    }

    /// What a heartbeat tells the run (the `heartbeat` script's answers, named here).
    public enum HeartbeatVerdict: String, NamedState { case ok, cancel, lost }

    /// Extends the lease to `lease` seconds from Redis's now; tells the run whether to go on.
    public func heartbeat(_ claim: Claim, owner: String, lease: TimeInterval, on redis: RedisConnection) throws -> HeartbeatVerdict {
        let reply = try QueueScripts.heartbeat.run(on: redis, args: [
            prefix, Self.key(claim.jobId), owner, String(claim.attempt), String(Self.millis(lease)), claim.club, claim.priority.rawValue])
        return HeartbeatVerdict(rawValue: reply.string ?? "lost") ?? .lost
    }

    public enum Outcome: Sendable, Equatable {
        /// Succeeded, failed for good, or cancelled: Redis forgets the job.
        case done
        /// Retry this many seconds from now, by Redis's clock (moved to ready by `reap` when due).
        case retry(after: TimeInterval)
        /// Not finished (worker shutting down): first in line for the next worker.
        case handBack
        /// Handed back before PostgreSQL started the attempt (it refused the start): as `handBack`,
        /// and the attempt number is given back, so a database that refuses work for an hour does
        /// not leave the job at attempt 700. Safe: PostgreSQL starts an attempt only above the
        /// number it holds, so a number it did use is never used twice.
        case handBackUnstarted

        /// The `finish` script's names for the outcomes (its `outcome` argument).
        enum Name: String, NamedState { case done, retry, handback, unstarted }
    }

    /// Ends the run's lease with an outcome. Returns false, changing nothing, if the run lost its lease.
    @discardableResult
    public func finish(_ claim: Claim, owner: String, outcome: Outcome, on redis: RedisConnection) throws -> Bool {
        let (name, delay): (Outcome.Name, Int64) = switch outcome {
        case .done: (.done, 0)
        case .retry(let after): (.retry, Self.millis(after))
        case .handBack: (.handback, 0)
        case .handBackUnstarted: (.unstarted, 0)
        }
        return try QueueScripts.finish.run(on: redis, args: [prefix, Self.key(claim.jobId), owner, String(claim.attempt), name.rawValue, String(delay),
                                                            String(Self.millis(tombstoneSeconds))]).integer == 1
    }

    // MARK: maintenance

    /// What one reaper pass did.
    public struct ReapResult: Equatable, Sendable {
        public struct Expired: Equatable, Sendable {
            public let jobId: UUID
            public let attempt: Int
            /// requeued (a stall), failed (too many stalls) or cancelled.
            public let verdict: StallVerdict
            public let stalls: Int

            public init(jobId: UUID, attempt: Int, verdict: StallVerdict, stalls: Int) {
                self.jobId = jobId
                self.attempt = attempt
                self.verdict = verdict
                self.stalls = stalls
            }
        }
        public var expired: [Expired] = []
        public var promoted: [UUID] = []
    }

    /// Expires leases past their deadline and moves due retries to ready, at most `batch` of each,
    /// both by Redis's clock.
    public func reap(batch: Int = 500, maxStalls: Int, on redis: RedisConnection) throws -> ReapResult {
        let reply = try QueueScripts.reap.run(on: redis, args: [prefix, String(batch), String(maxStalls),
                                                               String(Self.millis(tombstoneSeconds))])
        guard let parts = reply.array, parts.count == 2 else { throw RedisError(.protocolViolation, "reap returned \(reply)") }
        var result = ReapResult()
        for entry in parts[0].array ?? [] {
            guard let e = entry.array, e.count == 4, let id = e[0].string.flatMap(UUID.init(uuidString:)),
                  let verdict = e[2].string.flatMap(StallVerdict.init(rawValue:)) else { continue }
            result.expired.append(.init(jobId: id, attempt: e[1].integer ?? 0, verdict: verdict, stalls: e[3].integer ?? 0))
        }
        result.promoted = (parts[1].array ?? []).compactMap { $0.string.flatMap(UUID.init(uuidString:)) }
        return result
    }

    /// Every stall verdict `reap` made that PostgreSQL has not yet recorded (oldest rounds' included).
    /// An entry that cannot be read is removed (it could never be recorded).
    public func stallReports(on redis: RedisConnection) throws -> [ReapResult.Expired] {
        let fields = try redis.command("HGETALL", "\(prefix):stall_reports").array ?? []
        var reports: [ReapResult.Expired] = [], unreadable: [String] = []
        for index in stride(from: 0, to: fields.count - 1, by: 2) {
            let field = fields[index].string ?? ""
            let key = field.split(separator: ":"), value = (fields[index + 1].string ?? "").split(separator: ":")
            guard key.count == 2, value.count == 2, let id = UUID(uuidString: String(key[0])), let attempt = Int(key[1]),
                  let verdict = StallVerdict(rawValue: String(value[0])), let stalls = Int(value[1]) else {
                unreadable.append(field)
                continue
            }
            reports.append(.init(jobId: id, attempt: attempt, verdict: verdict, stalls: stalls))
        }
        if !unreadable.isEmpty { try redis.command(["HDEL", "\(prefix):stall_reports"] + unreadable) }
        return reports
    }

    /// Forgets stall reports PostgreSQL now holds.
    public func acknowledgeStallReports(_ reports: [ReapResult.Expired], on redis: RedisConnection) throws {
        guard !reports.isEmpty else { return }
        try redis.command(["HDEL", "\(prefix):stall_reports"] + reports.map { "\(Self.key($0.jobId)):\($0.attempt)" })
    }

    /// Takes or renews a named lock for `ttl` (singleton maintenance work). True if `owner` holds it now.
    public func acquireLock(_ name: String, owner: String, ttl: TimeInterval, on redis: RedisConnection) throws -> Bool {
        try QueueScripts.lock.run(on: redis, args: [prefix, name, owner, String(Self.millis(ttl))]).integer == 1
    }

    public struct Stats: Equatable, Sendable {
        public var ready: Int
        public var delayed: Int
        public var running: Int
        public var runningByClub: [String: Int]
        /// Ready jobs per club with any (the clubs in the round-robin ring).
        public var readyByClub: [String: Int] = [:]
    }

    public func stats(on redis: RedisConnection) throws -> Stats {
        let parts = try QueueScripts.stats.run(on: redis, args: [prefix]).array ?? []
        guard parts.count == 5 else { throw RedisError(.protocolViolation, "stats returned \(parts)") }
        func byClub(_ reply: RedisReply) -> [String: Int] {
            var counts: [String: Int] = [:]
            let flat = reply.array ?? []
            for i in stride(from: 0, to: flat.count - 1, by: 2) {
                if let club = flat[i].string { counts[club] = flat[i + 1].integer ?? 0 }
            }
            return counts
        }
        return Stats(ready: parts[0].integer ?? 0, delayed: parts[1].integer ?? 0, running: parts[2].integer ?? 0,
                     runningByClub: byClub(parts[3]), readyByClub: byClub(parts[4]))
    }

    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }
    static func millis(_ interval: TimeInterval) -> Int64 { Int64((interval * 1000).rounded()) }
}
