import ReelworkCore

/// `MaintenanceRepository`'s statements, named, each with its parameters. States are
/// `NamedState` literals.
extension MaintenanceRepository {
    enum SQL {
        /// Moves a job out of `running` at an attempt, for a stall: $1 job, $2 attempt, $3 the new
        /// status, $4 Redis's stall count, $5 error, $6 error kind. Its webhooks are recorded in the
        /// same statement (only a terminal status has any); returns the job's sport when it moved.
        static let recordStall = """
            WITH changed AS (
                UPDATE jobs SET status = $3, stalls = GREATEST(stalls + 1, $4), updated_at = now(),
                                finished_at = CASE WHEN $3 IN \(JobStatus.terminal.sql) THEN now() END,
                                last_error = COALESCE($5, last_error), last_error_kind = COALESCE($6, last_error_kind)
                WHERE id = $1 AND attempt = $2 AND status = \(JobStatus.running.sql) RETURNING *
            )\(WebhookOutbox.jobEvents(from: "changed"))
            SELECT sport FROM changed
            """

        /// A late stall report, the job at a later attempt: keeps Redis's count ($3) only. $1 job, $2 attempt.
        static let keepLateStallCount = "UPDATE jobs SET stalls = GREATEST(stalls, $3) WHERE id = $1 AND attempt > $2"

        /// …and the attempt the next run closed as lost was a stall. $1 job, $2 attempt.
        static let markLostAttemptStalled = """
            UPDATE job_attempts SET outcome = \(AttemptOutcome.stalled.sql), error = 'lease expired: the worker stopped heartbeating'
            WHERE job_id = $1 AND attempt = $2 AND outcome = \(AttemptOutcome.lost.sql)
            """

        /// Closes the stalled attempt's history row. $1 job, $2 attempt.
        static let closeStalledAttempt = """
            UPDATE job_attempts SET outcome = \(AttemptOutcome.stalled.sql), finished_at = now(), error = 'lease expired: the worker stopped heartbeating'
            WHERE job_id = $1 AND attempt = $2 AND outcome IS NULL
            """

        /// Fails the stalled attempt's unfinished stages. $1 job, $2 attempt.
        static let failUnfinishedStages = """
            UPDATE job_stages SET status = \(StageStatus.failed.sql), error = 'worker lost', error_kind = 'stalled', finished_at = now()
            WHERE job_id = $1 AND attempt = $2 AND status IN \(StageStatus.unfinished.sql)
            """

        /// Due retries Redis moved to ready are queued again. $1 the ids, an SQL array's text.
        static let promoteDueRetries = """
            UPDATE jobs SET status = \(JobStatus.queued.sql), next_attempt_at = NULL, updated_at = now()
            WHERE id = ANY($1::uuid[]) AND status = \(JobStatus.retryScheduled.sql)
            """

        /// Jobs that should be in Redis: waiting ones untouched for $1 seconds, running ones whose
        /// heartbeat is older than $2 seconds; $3 at most, least recently changed first.
        static let reconcileCandidates = """
            SELECT id, club, priority, attempt, status, \(JobRepository.dueInColumn) FROM jobs
            WHERE (status IN \(JobStatus.waiting.sql) AND updated_at < now() - make_interval(secs => $1))
               OR (status = \(JobStatus.running.sql) AND COALESCE(heartbeat_at, started_at) < now() - make_interval(secs => $2))
            ORDER BY updated_at LIMIT $3
            """

        /// A running job's stall count. $1 job, $2 attempt.
        static let runningStalls = "SELECT stalls FROM jobs WHERE id = $1 AND attempt = $2 AND status = \(JobStatus.running.sql)"

        /// What puts a job back in Redis. $1 job.
        static let entry = "SELECT id, club, priority, attempt, \(JobRepository.dueInColumn) FROM jobs WHERE id = $1"
    }
}
