import ReelworkCore

/// `RunRepository`'s statements, named, each with its parameters. Every write of a run is fenced by
/// `running` at its attempt. States are `NamedState` literals.
extension RunRepository {
    enum SQL {
        /// Starts attempt $2 of job $1 on worker $3 (a waiting job, or a running one whose earlier run
        /// was lost) and records the attempt; returns what the run needs, or nothing.
        static let startFirstAttempt = start(closing: "")

        /// The same for a later attempt, closing what an earlier lost run left open: its attempt's
        /// history row (lost) and its unfinished stages (failed). A first attempt starts only from
        /// attempt 0, so it has nothing to close and skips this third of the statement's cost.
        static let startLaterAttempt = start(closing: """
            , lost AS (
                UPDATE job_attempts SET outcome = \(AttemptOutcome.lost.sql), finished_at = now(), error = 'the run stopped reporting'
                WHERE job_id = $1 AND attempt < $2 AND outcome IS NULL AND EXISTS (SELECT 1 FROM started)
            ), interrupted AS (
                UPDATE job_stages SET status = \(StageStatus.failed.sql), error = 'run interrupted', error_kind = 'stalled',
                       finished_at = COALESCE(finished_at, now())
                WHERE job_id = $1 AND attempt < $2 AND status IN \(StageStatus.unfinished.sql) AND EXISTS (SELECT 1 FROM started)
            )
            """)

        private static func start(closing earlierRuns: String) -> String {
            """
            WITH started AS (
                UPDATE jobs j SET status = \(JobStatus.running.sql), attempt = $2, worker_id = $3, started_at = now(), heartbeat_at = now(),
                                  updated_at = now(), finished_at = NULL, next_attempt_at = NULL
                FROM videos v
                WHERE j.id = $1 AND v.id = j.video_id AND j.attempt < $2 AND NOT j.cancel_requested
                  AND j.status IN \(JobStatus.open.sql)
                RETURNING j.max_attempts, j.failures, j.club, j.sport, j.options, j.video_id, v.storage_key, j.batch_id
            ), recorded AS (
                INSERT INTO job_attempts (job_id, attempt, worker_id) SELECT $1, $2, $3 FROM started ON CONFLICT DO NOTHING
            )\(earlierRuns)
            SELECT * FROM started
            """
        }

        /// Why job $1 did not start: its entry, status and cancel request.
        static let whyNotStarted = """
            SELECT id, club, priority, attempt, \(JobRepository.dueInColumn), status, cancel_requested FROM jobs WHERE id = $1
            """

        /// Cancels job $1, asked to cancel while its last run was lost, with its webhooks; returns its sport.
        static let cancelLostRun = """
            WITH changed AS (
                UPDATE jobs SET status = \(JobStatus.cancelled.sql), finished_at = now(), updated_at = now(),
                                last_error = 'cancelled by ' || coalesce(cancelled_by, '\(Cancel.byOperator)'), last_error_kind = NULL
                WHERE id = $1 AND cancel_requested AND status NOT IN \(JobStatus.terminal.sql) RETURNING *
            )\(WebhookOutbox.jobEvents(from: "changed"))
            SELECT sport FROM changed
            """

        /// The run of job $1 at attempt $2 is alive.
        static let heartbeat = "UPDATE jobs SET heartbeat_at = now() WHERE id = $1 AND attempt = $2 AND status = \(JobStatus.running.sql)"

        /// Who asked to cancel job $1.
        static let cancelledBy = "SELECT cancelled_by FROM jobs WHERE id = $1"

        /// The run of job $1 at attempt $2 lost its lease.
        static let markLost = """
            UPDATE job_attempts SET outcome = \(AttemptOutcome.lost.sql), finished_at = now(), error = 'lease lost; another run took over'
            WHERE job_id = $1 AND attempt = $2 AND outcome IS NULL
            """

        /// The first CTEs of a run's end: `owned` moves job $1 out of `running` at attempt $2 to status
        /// $3 ($4: it ends there), with error $5 and kind $6, $8 more failures and the next attempt $9
        /// seconds from now; `closed` closes the attempt's history row with outcome $7. `owned`
        /// returns every column (`returningAll`, for the webhooks of a job that ends) or its id.
        static func finish(returningAll: Bool) -> String {
            """
            WITH owned AS (
                UPDATE jobs SET status = $3, updated_at = now(), finished_at = CASE WHEN $4 THEN now() END,
                                last_error = CASE WHEN $3 = \(JobStatus.succeeded.sql) THEN NULL
                                                  WHEN $6::text IS NULL AND $3 <> \(JobStatus.cancelled.sql) THEN last_error ELSE $5 END,
                                last_error_kind = CASE WHEN $3 = \(JobStatus.succeeded.sql) THEN NULL ELSE COALESCE($6, last_error_kind) END,
                                failures = failures + $8, next_attempt_at = now() + make_interval(secs => $9::float8)
                WHERE id = $1 AND attempt = $2 AND status = \(JobStatus.running.sql)
                RETURNING \(returningAll ? "*" : "id")
            ), closed AS (
                UPDATE job_attempts SET outcome = $7, finished_at = now(), error = $5, error_kind = $6,
                                        retry_at = now() + make_interval(secs => $9::float8)
                WHERE job_id = $1 AND attempt = $2 AND EXISTS (SELECT 1 FROM owned)
            )
            """
        }

        /// Stores the result when `owned` moved the job: $10 sport, $11 video facts, $12 warnings, $13 result.
        static let saveResult = """
            , saved AS (
                INSERT INTO results (job_id, attempt, sport, video, warnings, result)
                SELECT $1, $2, $10, $11::jsonb, $12::jsonb, $13::jsonb FROM owned
                ON CONFLICT (job_id) DO UPDATE SET attempt = EXCLUDED.attempt, video = EXCLUDED.video,
                    warnings = EXCLUDED.warnings, result = EXCLUDED.result, created_at = now()
            )
            """

        /// The decoder's frame count (parameter `frames`) replaces a container's estimate on the
        /// record of video `video`, for every job of it.
        static func countDecodedFrames(frames: String, video: String) -> String {
            """
            , counted AS (
                UPDATE videos SET frame_count = \(frames), frame_count_source = 'decoded'
                WHERE id = \(video) AND EXISTS (SELECT 1 FROM owned)
                  AND (frame_count <> \(frames) OR frame_count_source <> 'decoded')
            )
            """
        }

        /// The end of a run's statement: whether `owned` moved the job. set_config(…, true) lasts until
        /// this statement's own transaction ends, and the commit reads it: the one statement commits
        /// durably on a session that otherwise does not, without the BEGIN / SET LOCAL / COMMIT round
        /// trips a transaction block would cost.
        static let ownedDurably = " SELECT (SELECT count(*) FROM owned) AS n, set_config('synchronous_commit', 'on', true) AS durable"
    }
}
