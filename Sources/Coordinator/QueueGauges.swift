import Foundation
import Logging
import Metrics
import Queue
import ReelworkCore
import ServiceLifecycle
import Telemetry
import Threading

/// The autoscaling gauges: jobs waiting and running per club, retries scheduled, the jobs a free
/// slot could claim now and the oldest one's wait (`JobQueue.claimable`), refreshed from Redis
/// every `REELWORK_METRICS_REFRESH_SECONDS` on a thread of their own.
///
/// Why Redis's own counts, on a timer: they are what workers claim from (the ready lists per club,
/// the per-club running counts the caps use), and one read-only script gets them in O(clubs),
/// whatever the size of the jobs table: a scrape never counts rows in PostgreSQL (a million-job
/// table would make every scrape a scan). The timer keeps a slow or absent Redis out of the
/// scrape too: `/metrics` only reads the last snapshot and says how old it is
/// (`reelwork_queue_snapshot_age_seconds`). "Waiting" here is claimable now; a retry still in its
/// backoff counts in `reelwork_jobs_retry_scheduled` (pool-wide: Redis keeps one schedule), and
/// a job Redis lost counts again once the reconciler has put it back.
final class QueueGauges: Service, Sendable {
    private let loop: BackgroundLoop<Bool>
    private let refreshedAt: LockedValue<ContinuousClock.Instant?>

    init(config: ReelworkConfig, logger: Logger, exporter: MetricsExporter) {
        let work = Work(config: config, logger: logger)
        let refreshedAt = LockedValue<ContinuousClock.Instant?>(nil)
        self.refreshedAt = refreshedAt
        loop = BackgroundLoop(name: "reelwork-queue-gauges", interval: config.metrics.refreshSeconds) {
            let ok = work.round()
            if ok { refreshedAt.withLock { $0 = .now } }
            return ok
        }
        let age = Gauge(label: MetricName.queueSnapshotAge)
        exporter.addCollector {
            guard let at = refreshedAt.withLock({ $0 }) else { return }
            age.record((ContinuousClock.now - at).inSeconds)
        }
    }

    func run() async throws {
        loop.start()
        try? await gracefulShutdown()
        await loop.stopped()
    }

    /// One refresh's state, used from the loop's thread only.
    final class Work: @unchecked Sendable {
        // Safe: confined to the loop's thread.
        private let config: ReelworkConfig
        private let queue: JobQueue
        private let logger: Logger
        private var redis: RedisConnection?
        /// Clubs that had a gauge: one whose jobs are all gone is set to 0, not left at its last value.
        private var clubs: Set<String> = []
        private var failing = false

        init(config: ReelworkConfig, logger: Logger) {
            self.config = config
            self.queue = JobQueue(config: config)
            self.logger = logger
        }

        /// Reads the counts and sets the gauges; false when Redis could not be read.
        func round() -> Bool {
            do {
                if redis?.isHealthy != true { redis = try RedisConnection(try RedisURL(parsing: config.redisURL), timeout: 5) }
                let stats = try queue.stats(on: redis!)
                clubs.formUnion(stats.readyByClub.keys)
                clubs.formUnion(stats.runningByClub.keys)
                for club in clubs {
                    Gauge(label: MetricName.jobsWaiting, dimensions: [("club", club)]).record(stats.readyByClub[club] ?? 0)
                    Gauge(label: MetricName.jobsRunning, dimensions: [("club", club)]).record(stats.runningByClub[club] ?? 0)
                }
                Gauge(label: MetricName.jobsRetryScheduled).record(stats.delayed)
                let claimable = try queue.claimable(on: redis!)
                Gauge(label: MetricName.queueClaimableJobs).record(claimable.jobs)
                Gauge(label: MetricName.queueOldestClaimableWait).record(claimable.oldestWait)
                if failing { logger.info("queue gauges: Redis answers again") }
                failing = false
                return true
            } catch {
                if !failing { logger.warning("queue gauges: cannot read the queue from Redis: \(error)") }
                failing = true
                if redis?.isHealthy != true { redis = nil }
                return false
            }
        }
    }
}
