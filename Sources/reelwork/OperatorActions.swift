import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

// The operator actions that reach many jobs say how many before they act (`Confirmation`).

extension JobsCommand.Retry {
    /// `jobs retry --failed …`: counts the matching failed jobs (the coordinator's dry run), asks,
    /// then retries them.
    func retryFailed(_ api: CoordinatorClient) async throws {
        var filter = RetryFilter(club: club, sport: sport, errorKind: errorKind, since: try since.map(TimeArgument.parse),
                                 until: try until.map(TimeArgument.parse), all: all ? true : nil)
        filter.dryRun = true
        let preview = try await api.retryFailed(filter)
        guard preview.dryRun == true, let matched = preview.matched else {
            // A coordinator older than `dryRun` does not count: it has retried them.
            for id in preview.retried { print(id.uuidString.lowercased()) }
            throw UserFacingError("this coordinator does not count before a retry (it is older than this CLI) and has retried "
                + "\(Confirmation.count(preview.retried.count, "failed job")) at once")
        }
        let scope = RetryScope(club: club, sport: sport, errorKind: errorKind, since: since, until: until).description
        let jobs = "\(Confirmation.count(matched, "failed job")) \(scope)"
        guard matched > 0 else {
            Terminal.writeErr("no failed jobs \(scope): nothing to retry\n")
            return
        }
        guard try Confirmation.proceed("Retry \(jobs)?", plan: "would retry \(jobs), each with a fresh budget of attempts",
                                       confirmation) else { return }
        filter.dryRun = nil
        let result = try await api.retryFailed(filter)
        for id in result.retried { print(id.uuidString.lowercased()) }
        let between = result.retried.count == matched ? "" : " (\(matched) counted before: jobs changed state in between)"
        Terminal.writeErr("retried \(Confirmation.count(result.retried.count, "failed job"))\(between)\n")
    }
}

extension BatchesCommand.Cancel {
    /// How many jobs a cancel reaches, and "5 waiting jobs end now and 2 running jobs stop at their
    /// workers' next heartbeats".
    static func reach(_ batch: BatchView) -> (count: Int, text: String) {
        let waiting = BatchText.waiting(batch)
        let running = batch.count(.running)
        var parts: [String] = []
        if waiting > 0 { parts.append("\(Confirmation.count(waiting, "waiting job")) end\(waiting == 1 ? "s" : "") now") }
        if running > 0 {
            parts.append("\(Confirmation.count(running, "running job")) "
                + (running == 1 ? "stops at its worker's next heartbeat" : "stop at their workers' next heartbeats"))
        }
        return (waiting + running, parts.joined(separator: " and "))
    }

    static func name(_ batch: BatchView) -> String {
        "batch \(Terminal.shortID(batch.id))" + (batch.label.map { " (\($0))" } ?? "")
    }
}

extension WorkersCommand.Drain {
    /// The worker as listed, or a clear error when none by that id is beating.
    static func listed(_ id: String, _ api: CoordinatorClient) async throws -> WorkerView {
        guard let worker = try await api.workers().workers.first(where: { $0.id == id }) else {
            throw UserFacingError("no worker '\(id)' is beating: `reelwork workers list` shows those that are")
        }
        return worker
    }

    /// What draining does to the worker's jobs.
    static func reach(_ worker: WorkerView) -> String {
        let jobs = switch worker.running {
        case 0: "it runs no job now"
        case 1: "its 1 running job gets the shutdown grace period to finish, then goes back to the queue"
        case let n: "its \(n) running jobs get the shutdown grace period to finish, then go back to the queue"
        }
        return "it stops claiming jobs and exits; \(jobs)"
    }
}
