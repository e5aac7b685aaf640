import Metrics
import ReelworkCore

/// `reelwork_jobs_finished_total{sport, outcome, error_kind}`, counted where a job's row moves to
/// a terminal state, once the statement that moved it has returned, by the process that ran it: a
/// worker for its runs' outcomes, a coordinator for cancels of waiting jobs and for jobs that
/// stalled too often. Each move happens once (every one is conditional on the job's current
/// state), so the sum over all processes is the number of jobs that finished.
enum FinishedJobs {
    static func count(sport: String, status: JobStatus, errorKind: String?, jobs: Int = 1) {
        guard status.isTerminal, jobs > 0 else { return }
        Counter(label: MetricName.jobsFinished, dimensions: [
            ("sport", sport), ("outcome", status.rawValue), ("error_kind", errorKind ?? MetricName.noError),
        ]).increment(by: jobs)
    }
}
