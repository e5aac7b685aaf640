/// What the reaper decided about a run whose lease expired: Redis's `reap` script decides it
/// (`QueueScripts`, which takes these names as Lua literals) and keeps it in `P:stall_reports`
/// until PostgreSQL has recorded the job's new status (`MaintenanceRepository.recordStall`).
public enum StallVerdict: String, NamedState {
    /// A stall: the job waits again, first in line.
    case requeued
    /// Past its stall budget: the job ends failed.
    case failed
    /// An operator had cancelled it: the job ends cancelled.
    case cancelled

    /// The job's status once the verdict is recorded.
    public var jobStatus: JobStatus {
        switch self {
        case .requeued: .queued
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }
}
