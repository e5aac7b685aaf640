import ReelworkCore

/// `DashboardRepository`'s fixed statements, named, each with its parameters. (A search's statements
/// are built from its conditions, beside the code that builds them.)
extension DashboardRepository {
    enum SQL {
        /// The planner's estimate of the jobs table's rows.
        static let estimatedJobs = "SELECT reltuples::float8 AS jobs FROM pg_class WHERE oid = 'jobs'::regclass"
        /// Club $1's failed jobs (NULL: every club's) grouped by error kind and message, the $2 largest groups, each with one job's message.
        static let failureGroups = """
            WITH g AS (
                SELECT club, last_error_kind, last_error_md5 AS message_md5, count(*) AS n, max(finished_at) AS last_at FROM jobs
                WHERE status = \(JobStatus.failed.sql) AND ($1::text IS NULL OR club = $1)
                GROUP BY club, last_error_kind, last_error_md5 ORDER BY n DESC, last_at DESC LIMIT $2
            )
            SELECT g.club, g.last_error_kind, g.n, g.last_at,
                   CASE WHEN g.message_md5 IS NULL THEN NULL
                        WHEN g.last_error_kind IS NULL THEN
                            (SELECT last_error FROM jobs WHERE status = \(JobStatus.failed.sql) AND club = g.club AND last_error_kind IS NULL
                                                           AND last_error_md5 = g.message_md5 LIMIT 1)
                        ELSE (SELECT last_error FROM jobs WHERE status = \(JobStatus.failed.sql) AND club = g.club AND last_error_kind = g.last_error_kind
                                                           AND last_error_md5 = g.message_md5 LIMIT 1)
                   END AS last_error
            FROM g ORDER BY g.n DESC, g.last_at DESC
            """
        /// Requeues club $1's failed jobs of error kind $2 and message $3 (NULL matches NULL) with fresh budgets.
        static let retryGroup = """
            UPDATE jobs SET \(JobRepository.SQL.retrySet)
            WHERE status = \(JobStatus.failed.sql) AND club = $1 AND last_error_kind IS NOT DISTINCT FROM $2 AND last_error IS NOT DISTINCT FROM $3
            RETURNING id, club, priority, attempt, batch_id
            """
        /// Failed jobs per club, of club $1 (NULL: every club).
        static let failedByClub = """
            SELECT club, count(*) AS n FROM jobs WHERE status = \(JobStatus.failed.sql) AND ($1::text IS NULL OR club = $1) GROUP BY club
            """
        /// Every club's name, or club $1's.
        static let clubNames = "SELECT name FROM clubs WHERE ($1::text IS NULL OR name = $1) ORDER BY name"
        /// Jobs of club $1 (NULL: every club) that succeeded and failed in each of the last $2 minutes, oldest first.
        static let throughput = """
            SELECT m.minute, count(j.id) FILTER (WHERE j.status = \(JobStatus.succeeded.sql)) AS succeeded,
                   count(j.id) FILTER (WHERE j.status = \(JobStatus.failed.sql)) AS failed
            FROM generate_series(date_trunc('minute', now()) - make_interval(mins => $2 - 1), date_trunc('minute', now()),
                                 interval '1 minute') AS m(minute)
            LEFT JOIN jobs j ON j.finished_at >= m.minute AND j.finished_at < m.minute + interval '1 minute'
                            AND j.finished_at >= date_trunc('minute', now()) - make_interval(mins => $2 - 1)
                            AND j.status IN \([JobStatus.succeeded, .failed].sql) AND ($1::text IS NULL OR j.club = $1)
            GROUP BY m.minute ORDER BY m.minute
            """
    }
}
