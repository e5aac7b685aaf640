import Foundation
import Logging
import ReelworkCore
import Sports
import Store
import Tennis
import TestSupport
import Webhooks
import XCTest

@testable import Coordinator

/// The dispatcher end to end: jobs end in a real PostgreSQL, the dispatcher sends their deliveries
/// with a short retry schedule to a receiver that verifies every signature with the
/// `standardwebhooks` PyPI package. Each test is named after the failure it proves is survived.
final class WebhookDispatcherTests: MigratedDatabaseTestCase {
    private var receiver: WebhookReceiver!
    private var config: ReelworkConfig!
    private var running: [WebhookDispatcher] = []
    private let logger = Logger(label: "test.webhooks")
    private var hooks: WebhookRepository { WebhookRepository(db) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        receiver = try WebhookReceiver()
        config = try ReelworkConfig.fromEnvironment([:])
        config.databaseURL = database.url
        config.publicURL = "https://reelwork.example.org"
        config.webhooks.allowPrivate = true
        config.webhooks.retrySchedule = [0, 0.1, 0.1, 0.1]
        config.webhooks.pollIntervalSeconds = 0.05
        config.webhooks.timeoutSeconds = 2
    }

    override func tearDown() {
        running.forEach { $0.stop() }
        receiver?.stop()
        super.tearDown()
    }

    @discardableResult
    private func startDispatcher(_ log: RoundLog<WebhookDispatcher.Round> = RoundLog()) -> RoundLog<WebhookDispatcher.Round> {
        let dispatcher = WebhookDispatcher(config: config, logger: logger, onRound: log.record)
        running.append(dispatcher)
        dispatcher.start()
        return log
    }

    /// An endpoint of club "c" (whose jobs `startedRun` makes) at the receiver's `path`; the
    /// receiver verifies with its secret.
    private func endpoint(_ path: String) throws -> CreatedWebhookEndpoint {
        let created = try hooks.create(club: "c", url: receiver.url(path), events: [.jobSucceeded, .jobFailed])
        try receiver.verify(with: [created.secret.text])
        return created
    }

    /// A job that has just succeeded: its deliveries are in the outbox.
    private func succeededJob() throws -> UUID {
        let run = try db.startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).complete(run, document: AnalysisDocument(video: nil, stages: [], warnings: [], result: .emptyObject),
                                                     table: SportRegistry.table(for: run.sport), facts: nil))
        return run.jobId
    }

    private func deliveries(_ endpoint: CreatedWebhookEndpoint) throws -> [WebhookDeliveryRecord] {
        try hooks.deliveries(endpoint: endpoint.endpoint.id, club: nil, limit: 100).deliveries
    }

    /// Waits until every delivery of `endpoint` has left `pending`.
    private func awaitFinished(_ endpoint: CreatedWebhookEndpoint, count: Int = 1, timeout: TimeInterval = 15) throws -> [WebhookDeliveryRecord] {
        try Eventually.value(timeout: timeout, "\(count) finished deliveries") {
            let found = try deliveries(endpoint)
            return found.count == count && found.allSatisfy { $0.status != .pending } ? found : nil
        }
    }

    func testAReceiverThatFailsTwiceGetsTheDeliveryOnTheThirdAttemptSignedEveryTime() throws {
        let endpoint = try endpoint("/fail-twice")
        let job = try succeededJob()
        startDispatcher()

        let delivery = try XCTUnwrap(try awaitFinished(endpoint).first)
        XCTAssertEqual(delivery.status, .succeeded)
        XCTAssertEqual(delivery.attempts.map(\.statusCode), [500, 500, 200])
        // The status line's standard words, never the receiver's own text ("not yet").
        XCTAssertEqual(delivery.attempts.map(\.error), ["HTTP 500 Internal Server Error", "HTTP 500 Internal Server Error", nil])

        let requests = try receiver.requests()
        XCTAssertEqual(requests.map(\.verified), [[true], [true], [true]], "signed every time: \(requests.compactMap(\.error))")
        XCTAssertEqual(Set(requests.map(\.id)), [delivery.id], "the same webhook-id across retries")
        XCTAssertEqual(Set(requests.map(\.body)).count, 1, "the same body across retries")
        let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(requests[0].body.utf8)) as? [String: Any])
        XCTAssertEqual(body["type"] as? String, "job.succeeded")
        XCTAssertNotNil(body["timestamp"] as? String)
        let data = try XCTUnwrap(body["data"] as? [String: Any])
        XCTAssertEqual((data["job"] as? [String: Any])?["id"] as? String, job.uuidString.lowercased(), "as the API writes ids: lower case")
        XCTAssertEqual((data["links"] as? [String: String])?["job"], "https://reelwork.example.org/v1/jobs/\(job.uuidString.lowercased())")
        XCTAssertLessThan(requests[0].body.utf8.count, WebhookPayload.maxBytes)
    }

    func testAnEndpointThatAnswersGoneIsDisabledAndSentNothingMore() throws {
        let endpoint = try endpoint("/gone")
        _ = try succeededJob()
        let log = startDispatcher()
        try log.awaitRound { $0.disabled == 1 }

        let disabled = try XCTUnwrap(hooks.find(id: endpoint.endpoint.id, club: nil))
        XCTAssertEqual(disabled.disabledReason, "the endpoint answered 410 Gone")
        XCTAssertEqual(try deliveries(endpoint).map(\.status), [.failed])
        XCTAssertEqual(try deliveries(endpoint).first?.attempts.map(\.statusCode), [410])

        // Another job ends: a disabled endpoint gets no delivery, and nothing is retried.
        _ = try succeededJob()
        let seen = log.rounds.count
        try log.awaitCount(seen + 5)
        XCTAssertEqual(try deliveries(endpoint).count, 1)
        XCTAssertEqual(try receiver.requests().count, 1)
    }

    func testASlowReceiverTimesOutAndTheDeliveryIsAbandonedWhenTheScheduleRunsOut() throws {
        config.webhooks.timeoutSeconds = 0.3
        config.webhooks.retrySchedule = [0, 0.1]
        let endpoint = try endpoint("/slow/3")
        _ = try succeededJob()
        let log = startDispatcher()
        try log.awaitRound { $0.abandoned == 1 }

        let delivery = try XCTUnwrap(try deliveries(endpoint).first)
        XCTAssertEqual(delivery.status, .abandoned)
        XCTAssertEqual(delivery.attempts.map(\.statusCode), [nil, nil])
        XCTAssertEqual(delivery.attempts.map(\.error), Array(repeating: "timed out: no complete answer within 0.3 s", count: 2))
        XCTAssertTrue(delivery.attempts.allSatisfy { $0.latencyMs >= 300 && $0.latencyMs < 3_000 }, "\(delivery.attempts.map(\.latencyMs))")
        XCTAssertNil(delivery.nextAttemptAt)
    }

    func testRetryAfterIsHonouredAndBounded() throws {
        config.webhooks.retrySchedule = [0, 0.05, 0.05]
        config.webhooks.maxRetryAfterSeconds = 1.5
        let polite = try endpoint("/retry-after/1")
        let greedy = try endpoint("/retry-after/3600")
        try receiver.verify(with: [polite.secret.text, greedy.secret.text])
        _ = try succeededJob()
        startDispatcher()
        XCTAssertEqual(try awaitFinished(polite).map(\.status), [.succeeded])
        XCTAssertEqual(try awaitFinished(greedy).map(\.status), [.succeeded])

        func gap(_ path: String) throws -> Double {
            let times = try receiver.requests().filter { $0.path == path }.map(\.receivedAt)
            guard times.count == 2 else {
                XCTFail("\(path): \(times.count) requests")
                return 0
            }
            return times[1] - times[0]
        }
        XCTAssertGreaterThanOrEqual(try gap("/retry-after/1"), 0.95, "the receiver asked for a second, the schedule for 0.05 s")
        let bounded = try gap("/retry-after/3600")
        XCTAssertGreaterThanOrEqual(bounded, 1.45, "held back as long as the bound allows")
        XCTAssertLessThan(bounded, 10, "not the hour the receiver asked for")
    }

    /// A coordinator killed between the job's end and the delivery: the job's end committed its
    /// delivery, so whichever dispatcher runs next sends it. One that died mid-send (its claim
    /// leased, never recorded) loses the delivery to the next dispatcher only when its lease ends.
    func testADeliveryOfACoordinatorThatDiedIsSentByTheNextOne() throws {
        let endpoint = try endpoint("/ok")
        let inFlight = try succeededJob()
        let claimedAt = Date()
        let dead = try hooks.claimDue(limit: 10, lease: 1)
        XCTAssertEqual(dead.count, 1, "the dead coordinator's claim, never recorded")
        let waiting = try succeededJob()
        XCTAssertEqual(try deliveries(endpoint).map(\.status), [.pending, .pending])

        startDispatcher()
        let finished = try awaitFinished(endpoint, count: 2)
        XCTAssertEqual(finished.map(\.status), [.succeeded, .succeeded])
        XCTAssertEqual(finished.map(\.attempts.count), [1, 1])

        let requests = try receiver.requests()
        XCTAssertEqual(requests.count, 2)
        XCTAssertEqual(requests.map(\.verified), [[true], [true]])
        func received(_ job: UUID) throws -> Double {
            try XCTUnwrap(requests.first { $0.body.contains(job.uuidString.lowercased()) }?.receivedAt)
        }
        XCTAssertGreaterThanOrEqual(try received(inFlight), claimedAt.timeIntervalSince1970 + 0.95, "not before the dead claim's lease ended")
        XCTAssertLessThan(try received(waiting), try received(inFlight), "the unclaimed one went first")
    }

    func testTwoDispatchersSendEachDeliveryOnce() throws {
        let endpoint = try endpoint("/ok")
        for index in 0..<40 {
            try WebhookRepository.enqueueEvent(type: .jobSucceeded, club: "c", data: .object(["n": .number(Double(index))]), on: db)
        }
        let first = startDispatcher(), second = startDispatcher()
        XCTAssertEqual(Set(try awaitFinished(endpoint, count: 40).map(\.status)), [.succeeded])

        let requests = try receiver.requests()
        XCTAssertEqual(requests.count, 40, "each sent once")
        XCTAssertEqual(Set(requests.map(\.id)).count, 40)
        XCTAssertTrue(requests.allSatisfy { $0.verified == [true] })
        XCTAssertEqual((first.rounds + second.rounds).map(\.fenced).reduce(0, +), 0)
    }

    func testDuringARotationBothSecretsSign() throws {
        let endpoint = try endpoint("/ok")
        let rotated = try hooks.rotate(id: endpoint.endpoint.id, club: "c", grace: 60)
        let stranger = WebhookSecret.generate()
        try receiver.verify(with: [rotated.secret.text, endpoint.secret.text, stranger.text])
        _ = try succeededJob()
        startDispatcher()
        _ = try awaitFinished(endpoint)
        XCTAssertEqual(try receiver.requests().map(\.verified), [[true, true, false]])
    }
}
