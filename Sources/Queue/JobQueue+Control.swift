import Foundation

/// Operator control of the queue (issue 13): pausing claims for one club or for everyone, and the
/// registry of workers with their drain requests. All of it lives in Redis beside the queue, so it
/// outlives a coordinator restart and every worker sees the same state at its next claim or beat.
extension JobQueue {
    /// What claims currently skip.
    public struct PauseState: Equatable, Sendable {
        public var all: Bool
        public var clubs: [String]

        public init(all: Bool, clubs: [String]) {
            self.all = all
            self.clubs = clubs
        }
    }

    /// Claims skip `club` (nil: every club) until `resume`. Running jobs are not touched.
    public func pause(club: String?, on redis: RedisConnection) throws {
        if let club {
            try redis.command("SADD", "\(prefix):paused", club)
        } else {
            try redis.command("SET", "\(prefix):paused_all", "1")
        }
    }

    /// Undoes `pause` and wakes idle workers, so the club's waiting jobs are claimed at once.
    public func resume(club: String?, on redis: RedisConnection) throws {
        if let club {
            try redis.command("SREM", "\(prefix):paused", club)
        } else {
            try redis.command("DEL", "\(prefix):paused_all")
        }
        try redis.command("LPUSH", wakeKey, "1")
        try redis.command("LTRIM", wakeKey, "0", "255")
    }

    public func pauseState(on redis: RedisConnection) throws -> PauseState {
        let all = try redis.command("EXISTS", "\(prefix):paused_all").integer ?? 0 > 0
        let clubs = try redis.command("SMEMBERS", "\(prefix):paused").array?.compactMap(\.string) ?? []
        return PauseState(all: all, clubs: clubs.sorted())
    }

    /// A worker as its last heartbeat described it.
    public struct WorkerPresence: Equatable, Sendable {
        public var id: String
        public var host: String
        public var version: String
        public var slots: Int
        public var running: Int
        public var startedAt: Date?
        public var lastBeat: Date
        /// Time since the last beat, by Redis's clock (which stamped it): no host's clock is compared.
        public var heartbeatAge: TimeInterval
        public var draining: Bool
    }

    /// Records that worker `id` is alive (`fresh` on its first beat), stamped by Redis's clock.
    /// Returns true when an operator asked it to drain. The record expires after `ttl` without a beat.
    public func workerBeat(id: String, host: String, version: String, slots: Int, running: Int, fresh: Bool,
                           ttl: TimeInterval, on redis: RedisConnection) throws -> Bool {
        try QueueScripts.workerBeat.run(on: redis, args: [
            prefix, id, host, version, String(slots), String(running), String(Self.millis(ttl)), fresh ? "1" : "0",
        ]).integer == 1
    }

    /// Forgets a worker that has stopped (it exits; its record should not linger until it expires).
    public func workerLeft(id: String, on redis: RedisConnection) throws {
        try redis.command("DEL", "\(prefix):worker:\(id)")
        try redis.command("ZREM", "\(prefix):workers", id)
    }

    /// Asks worker `id` to drain: stop claiming, finish or hand back its jobs, exit. False when no
    /// such worker is beating. Asking again changes nothing.
    public func drain(workerID id: String, on redis: RedisConnection) throws -> Bool {
        try QueueScripts.drainWorker.run(on: redis, args: [prefix, id]).integer == 1
    }

    /// Every worker whose record has not expired, by id.
    public func workers(on redis: RedisConnection) throws -> [WorkerPresence] {
        let reply = try QueueScripts.workers.run(on: redis, args: [prefix]).array ?? []
        guard reply.count == 2, let nowMs = reply[0].integer else { throw RedisError(.protocolViolation, "workers returned \(reply)") }
        let now = Date(timeIntervalSince1970: Double(nowMs) / 1000)
        return (reply[1].array ?? []).compactMap { entry -> WorkerPresence? in
            guard let pair = entry.array, pair.count == 2, let id = pair[0].string else { return nil }
            var fields: [String: String] = [:]
            let flat = pair[1].array ?? []
            for i in stride(from: 0, to: flat.count - 1, by: 2) {
                if let k = flat[i].string { fields[k] = flat[i + 1].string }
            }
            func date(_ key: String) -> Date? { fields[key].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } }
            let lastBeat = date("beat_ms") ?? Date(timeIntervalSince1970: 0)
            return WorkerPresence(id: id, host: fields["host"] ?? "", version: fields["version"] ?? "",
                                  slots: fields["slots"].flatMap(Int.init) ?? 0, running: fields["running"].flatMap(Int.init) ?? 0,
                                  startedAt: date("started_ms"), lastBeat: lastBeat,
                                  heartbeatAge: max(0, now.timeIntervalSince(lastBeat)), draining: fields["draining"] == "1")
        }.sorted { $0.id < $1.id }
    }
}
