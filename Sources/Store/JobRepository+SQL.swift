import ReelworkCore

/// `JobRepository`'s fixed statements, named, each with its parameters. (A list's statement is
/// built from its filter, in `list`.) States are `NamedState` literals.
extension JobRepository {
    enum SQL {
        /// Serialises quota checks of club $1 until the transaction ends.
        static let lockQuota = "SELECT pg_advisory_xact_lock(hashtext('reelwork.club_quota'), hashtext($1))"

        /// Club $1's waiting jobs.
        static let countWaiting = "SELECT count(*) AS n FROM jobs WHERE club = $1 AND status IN \(JobStatus.waiting.sql)"

        /// A new queued job, unless club $3 has one with dedupe key $8 already: $1 id, $2 video,
        /// $4 sport, $5 options, $6 attempts, $7 priority, $9 batch, $10 file name, $11 label.
        static let insert = """
            INSERT INTO jobs (id, video_id, club, sport, options, status, max_attempts, priority, dedupe_key, batch_id, file_name, label)
            VALUES ($1, $2, $3, $4, $5::jsonb, \(JobStatus.queued.sql), $6, $7, $8, $9, $10, $11)
            ON CONFLICT (club, dedupe_key) WHERE dedupe_key IS NOT NULL DO NOTHING
            RETURNING *
            """

        /// The job of club $1 with dedupe key $2.
        static let findByDedupeKey = "SELECT id FROM jobs WHERE club = $1 AND dedupe_key = $2"

        /// Job $1, if it never reached the queue.
        static let deleteUnstarted = "DELETE FROM jobs WHERE id = $1 AND attempt = 0"

        /// Job $1, if it is club $2's (NULL: any club's).
        static let find = "SELECT * FROM jobs WHERE id = $1 AND ($2::text IS NULL OR club = $2)"

        /// What live events say of the jobs in the uuid array $1.
        static let eventSubjects = "SELECT id, club, batch_id, sport, attempt FROM jobs WHERE id = ANY($1::uuid[])"

        /// Job $1's stages of every attempt, and its attempts.
        static let stages = "SELECT * FROM job_stages WHERE job_id = $1 ORDER BY attempt, position"
        static let attempts = "SELECT * FROM job_attempts WHERE job_id = $1 ORDER BY attempt"

        /// The SET items of a retry: the job queued again with fresh budgets and no cancel asked for
        /// (the API's retry, `reelwork jobs retry-failed`, the dashboard's bulk and group retries).
        static let retrySet = """
            status = \(JobStatus.queued.sql), failures = 0, stalls = 0, cancel_requested = false, cancelled_by = NULL,
            updated_at = now(), finished_at = NULL, next_attempt_at = NULL
            """

        /// Queues retryable job $1 (club $2's, NULL: any) again with fresh budgets and options $3 (NULL: its own).
        static let requeueForRetry = """
            UPDATE jobs SET \(retrySet), options = COALESCE($3::jsonb, options)
            WHERE id = $1 AND status IN \(JobStatus.retryable.sql) AND ($2::text IS NULL OR club = $2)
            RETURNING id, club, priority, attempt, batch_id
            """

        /// The failed jobs `requeueFailed` (and `countFailed`) take: $1 club, $2 sport, $3 error kind,
        /// $4 finished from, $5 finished before, $6 batch (each NULL: any).
        static let failedMatching = """
            status = \(JobStatus.failed.sql) AND ($1::text IS NULL OR club = $1) AND ($2::text IS NULL OR sport = $2)
              AND ($3::text IS NULL OR last_error_kind = $3) AND ($4::timestamptz IS NULL OR finished_at >= $4)
              AND ($5::timestamptz IS NULL OR finished_at < $5) AND ($6::uuid IS NULL OR batch_id = $6)
            """

        static let countFailed = "SELECT count(*) AS n FROM jobs WHERE \(failedMatching)"

        /// Queues the failed jobs `failedMatching` takes again, as `requeueForRetry` does one.
        static let requeueFailed = """
            UPDATE jobs SET \(retrySet)
            WHERE \(failedMatching)
            RETURNING id, club, priority, attempt, batch_id
            """

        /// Cancels waiting job $1 (club $2's, NULL: any) asked by $3, with its webhooks; returns its sport.
        static let cancelWaiting = """
            WITH changed AS (
                UPDATE jobs SET status = \(JobStatus.cancelled.sql), finished_at = now(), updated_at = now(), next_attempt_at = NULL, \(Cancel.waitingSet("$3"))
                WHERE id = $1 AND status IN \(JobStatus.waiting.sql) AND ($2::text IS NULL OR club = $2) RETURNING *
            )\(WebhookOutbox.jobEvents(from: "changed"))
            SELECT sport FROM changed
            """

        /// Asks running job $1 (club $2's, NULL: any) to stop, asked by $3.
        static let requestCancel = """
            UPDATE jobs SET cancel_requested = true, updated_at = now(), cancelled_by = $3
            WHERE id = $1 AND status = \(JobStatus.running.sql) AND ($2::text IS NULL OR club = $2)
            """

        /// Job $1's stored result, and the stages of its attempt $2.
        static let result = "SELECT * FROM results WHERE job_id = $1"
        static let resultStages = "SELECT * FROM job_stages WHERE job_id = $1 AND attempt = $2 ORDER BY position"
    }
}
