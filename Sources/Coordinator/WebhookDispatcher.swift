import Foundation
import Logging
import ReelworkCore
import ServiceLifecycle
import Store
import Threading
import WebhookSending
import Webhooks

/// Sends the webhook outbox. Each round first announces the batches whose jobs have all ended
/// (`BatchCompletion.sweep`), then claims due deliveries, sends each with `WebhookSender`, records the
/// attempt, and schedules the next one, abandons the delivery when the schedule has run out, or
/// disables the endpoint when it answers 410 Gone.
///
/// Every coordinator runs one; no lock is needed, because a claim leases its deliveries
/// (`WebhookRepository.claimDue`): two dispatchers never hold the same delivery, and one that
/// dies mid-send leaves its deliveries due again when the lease ends, so a delivery is sent at
/// least once (receivers drop repeats by `webhook-id`). It runs on its own `BackgroundLoop` with
/// its own PostgreSQL connection, and survives PostgreSQL going away.
public final class WebhookDispatcher: Service, Sendable {
    /// What one round did (for logs and tests).
    public struct Round: Equatable, Sendable {
        /// Batches announced complete (`batch.completed` recorded) by this round's sweep.
        public var batchesCompleted = 0
        /// Deliveries claimed (and so attempted).
        public var claimed = 0
        /// Attempts that ended the delivery: delivered, abandoned (the schedule ran out), or
        /// failed with the endpoint disabled (410).
        public var delivered = 0, abandoned = 0, disabled = 0
        /// Attempts that failed and were scheduled again.
        public var retried = 0
        /// Attempts whose outcome was not recorded: the lease had been lost (claimed again,
        /// redelivered or deleted meanwhile).
        public var fenced = 0
        /// Why the round stopped early, if it did.
        public var error: String?

        public init() {}

        /// Whether the round stopped at a limit, with more work likely waiting.
        var isFull: Bool { claimed >= WebhookDispatcher.batchSize || batchesCompleted >= BatchCompletion.sweepLimit }

        var summary: String {
            "batches completed \(batchesCompleted), claimed \(claimed): delivered \(delivered), retried \(retried), abandoned \(abandoned), endpoints disabled \(disabled), not recorded \(fenced)"
        }
    }

    /// Deliveries claimed and sent at once in one round. A full batch (or a full sweep) means more
    /// may be due: the next round starts at once.
    public static let batchSize = 16

    private let loop: BackgroundLoop<Round>

    /// - Parameter onRound: sees every round's result, on the loop's thread (tests wait on it).
    public init(config: ReelworkConfig, logger: Logger, onRound: (@Sendable (Round) -> Void)? = nil) {
        let work = WebhookDispatchWork(config: config, logger: logger)
        let poll = config.webhooks.pollIntervalSeconds
        loop = BackgroundLoop(name: "reelwork-webhooks", round: { work.round() },
                              pace: { round in .after(round.isFull && round.error == nil ? 0 : poll) })
        loop.onRound = onRound
        loop.onExit = { work.close() }
    }

    public func start() { loop.start() }

    /// Stops after the round in progress (at most one attempt's timeout), without blocking the caller's thread.
    public func stopped() async { await loop.stopped() }

    public func stop() { loop.stop() }

    /// Runs until the application shuts down (SIGTERM/SIGINT).
    public func run() async throws {
        start()
        try? await gracefulShutdown()
        await stopped()
    }
}

/// The dispatcher's connection, sender and rounds; used from the loop's thread only.
final class WebhookDispatchWork: @unchecked Sendable {
    // Safe: `db` and `sender` are confined to the one thread that owns them (the dispatcher
    // BackgroundLoop's rounds and exit); the rest is immutable.
    private let config: ReelworkConfig
    private let logger: Logger
    private let schedule: RetrySchedule
    private var db: PGConnection?
    /// Made by the first round and shut down as the loop leaves, so a dispatcher that never ran
    /// leaves no HTTP client behind.
    private var sender: WebhookSender?

    /// A claim's lease: longer than any attempt can take (the sender's deadline), with room for
    /// recording it, so only a dispatcher that stopped loses its deliveries to another.
    var leaseSeconds: TimeInterval { config.webhooks.timeoutSeconds * 2 + 30 }

    init(config: ReelworkConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        self.schedule = RetrySchedule(settings: config.webhooks)
    }

    func round() -> WebhookDispatcher.Round {
        var round = WebhookDispatcher.Round()
        do {
            if db?.isHealthy != true { db = try PGConnection(config.databaseURL) }
            guard let db else { return round }
            round.batchesCompleted = try BatchCompletion.sweep(on: db)
            let repo = WebhookRepository(db)
            let claims = try repo.claimDue(limit: WebhookDispatcher.batchSize, lease: leaseSeconds)
            round.claimed = claims.count
            guard !claims.isEmpty else { return round }
            let sender = try self.sender ?? WebhookSender(policy: config.webhooks.urlPolicy(), timeout: config.webhooks.timeoutSeconds)
            self.sender = sender
            let results = send(claims, with: sender)
            for (claim, result) in zip(claims, results) {
                let decision = WebhookDecision(after: result.outcome, attemptsMade: claim.schedulePosition + 1, schedule: schedule)
                guard try repo.record(claim, result: result, decision: decision) else {
                    round.fenced += 1
                    continue
                }
                count(decision, of: claim, result: result, into: &round)
            }
            logger.debug("webhooks: \(round.summary)")
        } catch {
            round.error = "\(error)"
            logger.warning("webhook round failed: \(error)")
            if db?.isHealthy != true { db = nil }
        }
        return round
    }

    /// Sends every claim at once and waits for all of them (each is bounded by the sender's timeout).
    private func send(_ claims: [ClaimedWebhookDelivery], with sender: WebhookSender) -> [WebhookSendResult] {
        let baseURL = config.linkBaseURL
        return AsyncBridge.wait {
            await withTaskGroup(of: (Int, WebhookSendResult).self) { group in
                for (index, claim) in claims.enumerated() {
                    group.addTask {
                        do {
                            return (index, await sender.send(try claim.message(baseURL: baseURL)))
                        } catch {
                            // A secret that cannot be read is a failed attempt like any other: it is
                            // recorded, retried and in the end abandoned, never sent unsigned.
                            return (index, WebhookSendResult(outcome: .failed(.other("not sent: the endpoint's secret cannot be read (\(error))")),
                                                             sentAt: Date(), latencyMs: 0))
                        }
                    }
                }
                var results = [WebhookSendResult?](repeating: nil, count: claims.count)
                for await (index, result) in group { results[index] = result }
                return results.map { $0! }
            }
        }
    }

    private func count(_ decision: WebhookDecision, of claim: ClaimedWebhookDelivery, result: WebhookSendResult,
                       into round: inout WebhookDispatcher.Round) {
        switch decision {
        case .delivered:
            round.delivered += 1
        case .retry:
            round.retried += 1
        case .abandon:
            round.abandoned += 1
            logger.warning("webhook \(claim.id) to \(WebhookURLPolicy.forLogs(claim.url)) abandoned after \(claim.attempts + 1) attempts: \(result.outcome.error ?? "")")
        case .disableEndpoint(let reason):
            round.disabled += 1
            logger.warning("webhook endpoint \(claim.endpointId) disabled: \(reason)")
        }
    }

    /// Drops the sender and the connection (on the loop's thread, as it leaves). The sender holds
    /// no client between attempts: each attempt's is shut down as it ends.
    func close() {
        sender = nil
        db = nil
    }
}
