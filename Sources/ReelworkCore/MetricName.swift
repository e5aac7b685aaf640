/// Every metric a Reelwork process exports, by its Prometheus name (docs/OPERATIONS.md's "Metrics"
/// table gives each one's type, labels and meaning; a test checks that the README's "Metrics" section names them all). Counters end
/// in `_total`, durations in `_seconds`; labels are bounded sets (clubs, sports, stages, route
/// patterns, status codes), never a job's or a video's id.
public enum MetricName {
    // The coordinator's.
    public static let jobsWaiting = "reelwork_jobs_waiting"
    public static let jobsRunning = "reelwork_jobs_running"
    public static let jobsRetryScheduled = "reelwork_jobs_retry_scheduled"
    public static let queueSnapshotAge = "reelwork_queue_snapshot_age_seconds"
    /// Ready jobs a free slot could start now (not paused, below the caps): what autoscaling counts.
    public static let queueClaimableJobs = "reelwork_queue_claimable_jobs"
    /// How long the oldest of those jobs has waited, by Redis's clock: what autoscaling on latency reads.
    public static let queueOldestClaimableWait = "reelwork_queue_oldest_claimable_wait_seconds"
    public static let uploadBytes = "reelwork_upload_bytes_total"
    public static let httpRequestDuration = "reelwork_http_request_duration_seconds"
    /// Corrections people made to results (issue 31), by `sport` and `kind` (the correction's op):
    /// where the analysis is weak.
    public static let corrections = "reelwork_corrections_total"

    // Both kinds of process: whichever one moves a job to a terminal state counts it.
    public static let jobsFinished = "reelwork_jobs_finished_total"
    public static let redisRoundTrip = "reelwork_redis_roundtrip_seconds"
    public static let postgresRoundTrip = "reelwork_postgres_roundtrip_seconds"

    // The worker's.
    public static let stageDuration = "reelwork_stage_duration_seconds"
    public static let framesDecoded = "reelwork_frames_decoded_total"
    public static let framesAnalysed = "reelwork_frames_analysed_total"
    public static let inferenceDuration = "reelwork_inference_duration_seconds"
    public static let heartbeatAge = "reelwork_worker_heartbeat_age_seconds"
    /// Stage threads this worker abandoned to a stuck C call (their memory is held until it exits).
    public static let abandonedThreads = "reelwork_worker_abandoned_threads"
    /// Errors a worker met using Redis, PostgreSQL or the coordinator, by `dependency` and `cause`
    /// (`DependencyFault`): each one retried with backoff, none counted against a job.
    public static let dependencyErrors = "reelwork_worker_dependency_errors_total"
    /// 1 while a dependency is failing this worker (from its first error to the next success).
    public static let dependencyFailing = "reelwork_worker_dependency_failing"
    /// Live events that could not be published (Redis refused or was away); the job went on.
    public static let eventsPublishFailed = "reelwork_events_publish_failed_total"
    /// Event subscribers cut off because they fell a whole buffer behind.
    public static let eventSubscribersDropped = "reelwork_event_subscribers_dropped_total"

    public static let all = [jobsWaiting, jobsRunning, jobsRetryScheduled, queueSnapshotAge, queueClaimableJobs, queueOldestClaimableWait,
                             uploadBytes, httpRequestDuration, corrections,
                             jobsFinished, redisRoundTrip, postgresRoundTrip,
                             stageDuration, framesDecoded, framesAnalysed, inferenceDuration, heartbeatAge, abandonedThreads,
                             dependencyErrors, dependencyFailing, eventsPublishFailed, eventSubscribersDropped]

    /// Histogram bucket bounds in seconds, per duration metric: each spans what that thing takes,
    /// from a cache hit to a timeout, so quantiles stay meaningful at both ends.
    public static let durationBuckets: [String: [Double]] = [
        httpRequestDuration: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
        redisRoundTrip: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
        postgresRoundTrip: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
        inferenceDuration: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
        stageDuration: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
    ]

    /// The `error_kind` of a job that finished without an error (succeeded, cancelled).
    public static let noError = "none"
}
