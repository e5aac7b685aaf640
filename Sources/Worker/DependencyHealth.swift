import Foundation
import Logging
import Metrics
import ReelworkCore
import Telemetry
import Threading

/// What this worker knows of Redis, PostgreSQL and the coordinator, shared by its slots and its
/// lease keeper. A `DependencyFault` opens an episode for its dependency, which lasts until an
/// operation the fault would have stopped succeeds. An episode is
///
/// - logged once as it starts (what failed, where, what to do), again every `reminderSeconds`
///   while errors keep coming (how long, how many), and once as it ends: a long outage is a few
///   lines, not one per retry;
/// - counted: every error in `reelwork_worker_dependency_errors_total{dependency, cause}`, and
///   `reelwork_worker_dependency_failing{dependency}` is 1 while it lasts;
/// - for the video source (the coordinator, or the object store), a reason to check it before
///   claiming more work (`mustCheckVideoSource`), so a worker that cannot read videos leaves the
///   queue to workers that can.
final class DependencyHealth: Sendable {
    typealias Dependency = DependencyFault.Dependency
    typealias Cause = DependencyFault.Cause

    /// How often a fault that goes on is logged again.
    static let reminderSeconds = 60.0

    struct Episode: Sendable {
        var fault: DependencyFault
        let since: ContinuousClock.Instant
        var errors: Int
        var lastLogged: ContinuousClock.Instant
    }

    private let logger: Logger
    private let reminder: Duration
    private let now: @Sendable () -> ContinuousClock.Instant
    /// Where videos come from over the network: `.coordinator` or `.store`.
    let videoSource: Dependency
    private let state: LockedValue<(episodes: [Dependency: Episode], sourceUnchecked: Bool)>
    private let errorCounters: [String: Counter]
    private let failingGauges: [Dependency: Gauge]

    /// - Parameters:
    ///   - videoSource: where videos come from over the network (`DependencyFault.videoSource`).
    ///   - checkFirst: every video comes from there (`REELWORK_VIDEO_SOURCE=http`, or a bucket):
    ///     check it (the key or the signature included) before the first claim.
    ///   - now: the clock (tests move it).
    init(logger: Logger, videoSource: Dependency = .coordinator, checkFirst: Bool, reminderSeconds: Double = reminderSeconds,
         now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.logger = logger
        self.videoSource = videoSource
        self.reminder = .seconds(reminderSeconds)
        self.now = now
        state = LockedValue(([:], checkFirst))
        // Every series exists from the start, at 0: an alert on a rate sees it before the first error.
        var counters: [String: Counter] = [:]
        for (dependency, causes) in DependencyFault.causes {
            for cause in causes {
                counters[Self.key(dependency, cause)] = Counter(label: MetricName.dependencyErrors,
                                                               dimensions: [("dependency", dependency.rawValue), ("cause", cause.rawValue)])
            }
        }
        errorCounters = counters
        var gauges: [Dependency: Gauge] = [:]
        for dependency in Dependency.allCases {
            let gauge = Gauge(label: MetricName.dependencyFailing, dimensions: [("dependency", dependency.rawValue)])
            gauge.record(0)
            gauges[dependency] = gauge
        }
        failingGauges = gauges
    }

    private static func key(_ dependency: Dependency, _ cause: Cause) -> String { "\(dependency.rawValue)/\(cause.rawValue)" }

    /// Records an error: counts it, and logs it when it opens an episode, changes its cause, or a
    /// reminder is due.
    func met(_ fault: DependencyFault) {
        errorCounters[Self.key(fault.dependency, fault.cause)]?.increment()
        let at = now()
        enum Line { case first, changed, reminder(Episode), none }
        let line: Line = state.withLock { state in
            guard var episode = state.episodes[fault.dependency] else {
                state.episodes[fault.dependency] = Episode(fault: fault, since: at, errors: 1, lastLogged: at)
                return .first
            }
            defer { state.episodes[fault.dependency] = episode }
            let previous = episode.fault
            episode.errors += 1
            episode.fault = fault
            guard previous.cause != fault.cause || at - episode.lastLogged >= reminder else { return .none }
            episode.lastLogged = at
            return previous.cause != fault.cause ? .changed : .reminder(episode)
        }
        switch line {
        case .first:
            failingGauges[fault.dependency]?.record(1)
            logger.error("\(fault). Retrying with backoff; logged again every \(Int(reminder.inSeconds)) s while it lasts")
        case .changed:
            logger.error("\(fault). Retrying with backoff")
        case .reminder(let episode):
            logger.error("still failing after \(Self.seconds(at - episode.since)) s (\(episode.errors) errors): \(fault)")
        case .none:
            break
        }
    }

    /// An operation on `dependency` succeeded: the episode ends if its fault is one of `causes`
    /// (nil: any), i.e. one that would have stopped the operation.
    func recovered(_ dependency: Dependency, from causes: Set<Cause>? = nil) {
        let at = now()
        let ended: Episode? = state.withLock { state in
            if dependency == videoSource { state.sourceUnchecked = false }
            guard let episode = state.episodes[dependency], causes?.contains(episode.fault.cause) ?? true else { return nil }
            state.episodes[dependency] = nil
            return episode
        }
        guard let ended else { return }
        failingGauges[dependency]?.record(0)
        logger.notice("[\(dependency.rawValue) recovered] \(ended.fault.name) works again after \(Self.seconds(at - ended.since)) s (\(ended.errors) error(s), the last: \(ended.fault.cause.rawValue))")
    }

    /// Whether an episode of `dependency` is open.
    func isFailing(_ dependency: Dependency) -> Bool {
        state.withLock { $0.episodes[dependency] != nil }
    }

    /// The open episode's fault, if any.
    func fault(_ dependency: Dependency) -> DependencyFault? {
        state.withLock { $0.episodes[dependency]?.fault }
    }

    /// Whether a slot should check the video source before claiming: it failed last time, or it
    /// was never checked and every video comes from it.
    var mustCheckVideoSource: Bool {
        state.withLock { [videoSource] in $0.sourceUnchecked || $0.episodes[videoSource] != nil }
    }

    private static func seconds(_ duration: Duration) -> String {
        String(format: "%.1f", duration.inSeconds)
    }
}
