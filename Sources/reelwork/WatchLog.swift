import Foundation
import ReelworkCore

/// What `jobs watch` writes where no one watches a redrawn screen (a pipe, a CI log): one line
/// when a job's status or attempt changes, one when a stage of it starts or ends, and a last line
/// per job with how long it took; progress ticks within a stage write nothing.
struct WatchLog {
    /// What was last written about a job.
    private struct Seen: Equatable {
        var status: JobStatus
        var attempt: Int
        /// "attempt/stage" → its status.
        var stages: [String: StageStatus]
    }

    private var seen: [UUID: Seen] = [:]

    /// The lines `job` as read now adds to the log (none when only progress moved).
    mutating func lines(_ job: JobView) -> [String] {
        let id = Terminal.shortID(job.id)
        let before = seen[job.id]
        var stages: [String: StageStatus] = [:]
        for stage in job.stages { stages["\(stage.attempt)/\(stage.name)"] = stage.status }
        let now = Seen(status: job.status, attempt: job.attempt, stages: stages)
        guard now != before else { return [] }
        seen[job.id] = now
        var out: [String] = []
        if before?.status != job.status || before?.attempt != job.attempt, !job.status.isTerminal {
            let error = job.status == .retryScheduled ? job.lastError.map { ": \($0)" } ?? "" : ""
            // A job not yet claimed is at attempt 0: no attempt to name.
            let attempt = job.attempt > 0 ? " (\(JobText.attempts(job)))" : ""
            out.append("\(id) \(job.status.rawValue)\(attempt)\(error)")
        }
        // Stages in the order the job lists them: a stage that started and ended between two reads
        // is written once, as it ended.
        for stage in job.stages where stage.status != .pending {
            let key = "\(stage.attempt)/\(stage.name)"
            guard before?.stages[key] != stage.status else { continue }
            out.append("\(id) \(stage.name) " + Self.stageText(stage))
        }
        if job.status.isTerminal, before?.status != job.status { out.append(Self.final(job)) }
        return out
    }

    static func stageText(_ stage: StageView) -> String {
        switch stage.status {
        case .running: return "started"
        case .succeeded: return "done in \(Terminal.duration(stage.durationSeconds))"
        case .skipped: return "skipped"
        case .failed: return "failed" + (stage.error.map { ": \($0)" } ?? "")
        case .pending: return "pending"
        }
    }

    /// "1a2b3c4d serve.mp4 succeeded in 2.31s (attempt 1/3)": its file, how long its last attempt
    /// ran, or how long it waited when it never ran.
    static func final(_ job: JobView) -> String {
        let id = Terminal.shortID(job.id) + (job.fileName.map { " \($0)" } ?? "")
        let end = job.finishedAt ?? job.updatedAt
        let took = job.startedAt.map { "in \(WatchClock.text(end.timeIntervalSince($0)))" }
            ?? "after \(WatchClock.text(end.timeIntervalSince(job.createdAt))) without running"
        let error = job.status == .succeeded ? "" : job.lastError.map { ": \($0)" } ?? ""
        return "\(id) \(job.status.rawValue) \(took) (\(JobText.attempts(job)))\(error)"
    }
}

/// What `jobs watch` adds to a job's line on a terminal: how long it has been at it, and an
/// estimate of what is left of the running stage from that stage's rate so far.
enum WatchClock {
    /// "  running 12s, ~8s left in pose", "  queued 3s", "  took 2.3s".
    static func suffix(_ job: JobView, now: Date) -> String {
        if job.status.isTerminal {
            guard let started = job.startedAt else { return "" }
            return "  took \(text((job.finishedAt ?? job.updatedAt).timeIntervalSince(started)))"
        }
        guard job.status == .running, let started = job.startedAt else {
            return "  waiting \(text(now.timeIntervalSince(job.createdAt)))"
        }
        var line = "  running \(text(now.timeIntervalSince(started)))"
        if let stage = job.stages.first(where: { $0.attempt == job.attempt && $0.status == .running }),
           let left = estimate(stage, now: now) {
            line += ", ~\(text(left)) left in \(stage.name)"
        }
        return line
    }

    /// Seconds left in a running stage at the rate it has gone so far; nil until there is enough to go on
    /// (half a second in, 1% done).
    static func estimate(_ stage: StageView, now: Date) -> Double? {
        guard let started = stage.startedAt else { return nil }
        let elapsed = now.timeIntervalSince(started)
        guard elapsed >= 0.5, stage.progress >= 0.01, stage.progress < 1 else { return nil }
        return elapsed * (1 - stage.progress) / stage.progress
    }

    /// "0.4s", "42s", "3m05s", "1h02m".
    static func text(_ seconds: Double) -> String {
        let s = max(0, seconds)
        if s < 10 { return String(format: "%.1fs", s) }
        if s < 60 { return "\(Int(s.rounded()))s" }
        let whole = Int(s.rounded())
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, whole % 3600 / 60)
    }
}
