import Foundation
import Queue
import Store

/// CPU seconds spent so far by everything a run's jobs pass through: the reelwork processes, the
/// PostgreSQL server (postmaster, its live backends and the ones that have exited), Redis, and
/// this driver. On a shared machine the wall-clock rate moves with the neighbours' load; the CPU
/// a job costs moves much less, so the report gives both (the Celery yardstick does the same).
struct CPUAccount {
    var reelwork = 0.0
    var postgres = 0.0
    var redis = 0.0
    var driver = 0.0

    var total: Double { reelwork + postgres + redis + driver }

    static func read(fleet: [Int32], redis: RedisConnection, admin: PGConnection) throws -> CPUAccount {
        var account = CPUAccount()
        account.reelwork = fleet.reduce(0) { $0 + ownSeconds($1) }
        let backend = try admin.query("SELECT pg_backend_pid() AS pid").rows[0].int("pid")
        if let postmaster = statFields(Int32(backend)).flatMap({ Int32($0[1]) }) {
            account.postgres = ownSeconds(postmaster) + reapedChildrenSeconds(postmaster)
                + children(of: postmaster).reduce(0) { $0 + ownSeconds($1) }
        }
        let info = try redis.command("INFO", "cpu").string ?? ""
        for line in info.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: ":")
            if parts.count == 2, parts[0] == "used_cpu_user" || parts[0] == "used_cpu_sys", let s = Double(parts[1]) { account.redis += s }
        }
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        account.driver = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        return account
    }

    static func - (a: CPUAccount, b: CPUAccount) -> CPUAccount {
        CPUAccount(reelwork: a.reelwork - b.reelwork, postgres: a.postgres - b.postgres, redis: a.redis - b.redis, driver: a.driver - b.driver)
    }

    /// /proc/PID/stat after the command name: state (0), ppid (1), … utime (11), stime (12),
    /// cutime (13), cstime (14).
    private static func statFields(_ pid: Int32) -> [Substring]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let end = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: end)...].split(separator: " ")
    }

    private static func ticks(_ fields: [Substring]?, _ a: Int, _ b: Int) -> Double {
        guard let fields, fields.count > b, let x = Double(fields[a]), let y = Double(fields[b]) else { return 0 }
        return (x + y) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    private static func ownSeconds(_ pid: Int32) -> Double { ticks(statFields(pid), 11, 12) }

    /// Children that have exited and been waited for (PostgreSQL's backends of closed sessions).
    private static func reapedChildrenSeconds(_ pid: Int32) -> Double { ticks(statFields(pid), 13, 14) }

    private static func children(of pid: Int32) -> [Int32] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.flatMap { task in
            ((try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
        }
    }
}
