import Foundation
import Histogram
import Queue
import Store

/// Server-side call counters: Redis commands (INFO commandstats) and PostgreSQL statements
/// (pg_stat_statements, when the server preloads it) and write transactions.
struct ServerCounters {
    /// Every command Redis executed, including those inside Lua scripts.
    var redisCalls = 0
    /// Commands clients sent (script calls, blocking waits, lookups): network round trips.
    var redisRoundTrips = 0
    /// Bytes in and out of Redis over the network (the sampler's and the driver's included).
    var redisNetworkBytes = 0
    var pgStatements: Int?
    /// Rows the statements that open with INSERT, UPDATE or DELETE wrote (pg_stat_statements counts
    /// at each statement's end, so the figure is exact at once). A statement opening with WITH is
    /// left out: its row count is its last query's, not what its parts wrote.
    var pgRowsWritten: Int?
    var pgTransactions = 0
    /// Write-ahead log written, server-wide: what a replica receives and the disk absorbs.
    var pgWALBytes = 0
    /// CPU seconds of the whole stack (see CPUAccount).
    var cpu = CPUAccount()

    /// Commands only clients send: their count is the number of round trips. Commands the queue's
    /// scripts run inside Redis (EXISTS, HSET…) are left out even when a client could send them
    /// too: commandstats counts both alike, and the scripts run far more of them (the
    /// reconciler's rare EXISTS goes uncounted).
    static let clientCommands: Set<String> = ["evalsha", "eval", "blpop", "script|load", "script", "ping", "info"]

    static func read(redis: RedisConnection, admin: String, database: String, fleet: [Int32]) throws -> ServerCounters {
        var c = ServerCounters()
        let info = try redis.command("INFO", "commandstats").string ?? ""
        // Lines end in CRLF, which Swift counts as one Character: split on any newline.
        for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            let name = line.dropFirst("cmdstat_".count).prefix { $0 != ":" }
            guard let calls = line.split(separator: ",").first?.split(separator: "=").last.flatMap({ Int($0) }) else { continue }
            c.redisCalls += calls
            if Self.clientCommands.contains(String(name)) { c.redisRoundTrips += calls }
        }
        for line in (try redis.command("INFO", "stats").string ?? "").split(whereSeparator: \.isNewline)
        where line.hasPrefix("total_net_input_bytes:") || line.hasPrefix("total_net_output_bytes:") {
            c.redisNetworkBytes += Int(line.split(separator: ":").last ?? "") ?? 0
        }
        let db = try PGConnection(admin)
        // Transactions that wrote, counted by the transaction ids handed out (server-wide; exact at
        // once, where pg_stat_database's counters lag until idle sessions flush them).
        c.pgTransactions = try db.query("SELECT pg_current_xact_id()::text::bigint AS n").rows[0].int("n")
        // The driver's own polling (is any job open?) is left out: it is not part of a job's cost.
        let statements = try? db.query("""
            SELECT COALESCE(sum(calls) FILTER (WHERE s.query NOT LIKE 'SELECT EXISTS (SELECT $1 FROM jobs WHERE status IN%'), 0)::bigint AS calls,
                   COALESCE(sum(rows) FILTER (WHERE s.query ~* '^\\s*(INSERT|UPDATE|DELETE)'), 0)::bigint AS written
            FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1
            """, [database]).rows.first
        c.pgStatements = try? statements?.int("calls")
        c.pgRowsWritten = try? statements?.int("written")
        c.pgWALBytes = try db.query("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint AS n").rows[0].int("n")
        c.cpu = try CPUAccount.read(fleet: fleet, redis: redis, admin: db)
        return c
    }

    static func - (a: ServerCounters, b: ServerCounters) -> ServerCounters {
        ServerCounters(redisCalls: a.redisCalls - b.redisCalls, redisRoundTrips: a.redisRoundTrips - b.redisRoundTrips,
                       redisNetworkBytes: a.redisNetworkBytes - b.redisNetworkBytes,
                       pgStatements: a.pgStatements.flatMap { x in b.pgStatements.map { x - $0 } },
                       pgRowsWritten: a.pgRowsWritten.flatMap { x in b.pgRowsWritten.map { x - $0 } },
                       pgTransactions: a.pgTransactions - b.pgTransactions, pgWALBytes: a.pgWALBytes - b.pgWALBytes, cpu: a.cpu - b.cpu)
    }
}

/// The figures and invariant checks of one run.
struct Report {
    var text: String
    var invariantsHold: Bool

    static func make(options: QueueLoadTest, db: PGConnection, started: Date, submitted: Date, finished: Date, open: Int,
                     calls: ServerCounters, samplerCalls: Int, samples: [JobQueue.Stats], kills: Int) throws -> Report {
        let n = options.jobs
        var lines: [String] = []
        var ok = true
        func check(_ holds: Bool, _ what: String) {
            lines.append("  [\(holds ? "ok" : "FAILED")] \(what)")
            ok = ok && holds
        }
        let elapsed = finished.timeIntervalSince(started)
        lines.append("queue-loadtest: \(n) \(options.clips ? "tiny-clip" : "no-op") jobs, \(options.submitters) submitters, \(options.workers) workers × \(options.slots) slots, "
                     + "\(options.clubs) clubs, rate \(options.rate > 0 ? "\(Int(options.rate))/s" : "unlimited")\(options.chaos ? ", chaos (\(kills) kills)" : "")")
        lines.append(String(format: "  throughput      %.0f jobs/s end to end (%.2f s; submission took %.2f s)",
                            Double(n) / elapsed, elapsed, submitted.timeIntervalSince(started)))

        // The workers' own rate: from the first claim to the last completion.
        let span = try db.query("""
            SELECT EXTRACT(EPOCH FROM (max(j.finished_at) - min(a.started_at))) AS s
            FROM jobs j JOIN job_attempts a ON a.job_id = j.id
            """).rows.first?.optionalDouble("s") ?? 0
        lines.append(String(format: "  processing      %.0f jobs/s from first claim to last completion (%.2f s)", span > 0 ? Double(n) / span : 0, span))

        var claim = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        var total = Histogram<UInt64>(highestTrackableValue: 3_600_000_000, numberOfSignificantValueDigits: .three)
        let rows = try db.query("""
            SELECT EXTRACT(EPOCH FROM (a.started_at - j.created_at)) * 1e6 AS claim_us,
                   EXTRACT(EPOCH FROM (j.finished_at - j.created_at)) * 1e6 AS total_us
            FROM jobs j JOIN job_attempts a ON a.job_id = j.id AND a.attempt = (SELECT min(attempt) FROM job_attempts WHERE job_id = j.id)
            WHERE j.finished_at IS NOT NULL
            """).rows
        for r in rows {
            _ = claim.record(UInt64(max(0, try r.double("claim_us"))))
            _ = total.record(UInt64(max(0, try r.double("total_us"))))
        }
        func ms(_ h: Histogram<UInt64>, _ p: Double) -> String { String(format: "%.1f", Double(h.valueAtPercentile(p)) / 1000) }
        lines.append("  enqueue→claim   p50 \(ms(claim, 50)) ms  p99 \(ms(claim, 99)) ms  p99.9 \(ms(claim, 99.9)) ms  max \(String(format: "%.1f", Double(claim.maxRecorded) / 1000)) ms")
        lines.append("  enqueue→done    p50 \(ms(total, 50)) ms  p99 \(ms(total, 99)) ms  p99.9 \(ms(total, 99.9)) ms")
        // The sampler's script calls and the INFO read are not part of any job. (The sampler's calls run
        // commands inside its script too; those few are left in the executed-commands figure.)
        let tripsPerJob = Double(calls.redisRoundTrips - samplerCalls - 1) / Double(n)
        let redisPerJob = Double(calls.redisCalls - samplerCalls - 1) / Double(n)
        lines.append(String(format: "  per job         %.1f Redis round trips (%.1f commands executed incl. inside scripts), %@ PostgreSQL statements, %.1f PostgreSQL write transactions",
                            tripsPerJob, redisPerJob, calls.pgStatements.map { String(format: "%.1f", Double($0) / Double(n)) } ?? "n/a (no pg_stat_statements)",
                            Double(calls.pgTransactions) / Double(n)))
        lines.append(String(format: "  bytes per job   %.0f to and from Redis, %.0f of PostgreSQL WAL; %@ PostgreSQL rows written",
                            Double(calls.redisNetworkBytes) / Double(n), Double(calls.pgWALBytes) / Double(n),
                            calls.pgRowsWritten.map { String(format: "%.1f", Double($0) / Double(n)) } ?? "n/a"))
        lines.append(String(format: "  server load     %.0f Redis round trips/s, %@ PostgreSQL statements/s",
                            tripsPerJob * Double(n) / elapsed, calls.pgStatements.map { String(format: "%.0f", Double($0) / elapsed) } ?? "n/a"))

        func perJob(_ seconds: Double) -> String { String(format: "%.2f", seconds * 1000 / Double(n)) }
        lines.append("  CPU             \(perJob(calls.cpu.total)) ms per job: reelwork processes \(perJob(calls.cpu.reelwork)), PostgreSQL \(perJob(calls.cpu.postgres)), "
                     + "Redis \(perJob(calls.cpu.redis)), this driver \(perJob(calls.cpu.driver))")

        lines.append("invariants:")
        let states = try db.query("""
            SELECT j.status, (SELECT count(*) FROM results r WHERE r.job_id = j.id) AS results,
                   (SELECT count(*) FROM job_attempts a WHERE a.job_id = j.id AND a.outcome = 'succeeded') AS wins
            FROM jobs j
            """).rows
        check(states.count == n && open == 0, "all \(n) jobs reached a terminal state (\(open) still open)")
        check(states.allSatisfy { $0["status"] == "succeeded" }, "every job succeeded (\(states.filter { $0["status"] != "succeeded" }.count) did not)")
        check(states.allSatisfy { $0["results"] == "1" }, "exactly one result per job")
        check(states.allSatisfy { $0["wins"] == "1" }, "exactly one succeeded attempt per job")
        let peak = samples.map(\.running).max() ?? 0
        let clubPeak = samples.flatMap { $0.runningByClub.values }.max() ?? 0
        check(options.globalCap == 0 || peak <= options.globalCap, "global cap \(options.globalCap == 0 ? "none" : String(options.globalCap)): peak running \(peak) over \(samples.count) samples")
        check(options.clubCap == 0 || clubPeak <= options.clubCap, "club cap \(options.clubCap == 0 ? "none" : String(options.clubCap)): peak per club \(clubPeak)")
        return Report(text: lines.joined(separator: "\n"), invariantsHold: ok)
    }
}
