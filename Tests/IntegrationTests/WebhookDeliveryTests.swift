import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Webhooks
import XCTest

/// Webhooks through the real processes: endpoints registered through the API, a worker ends the
/// job, the coordinator's dispatcher sends the delivery, and a receiver verifies it with the
/// `standardwebhooks` PyPI package — also when the coordinator is killed between the job's end and
/// the delivery, for a batch's completion, after a rotation, and for a redelivery.
final class WebhookDeliveryTests: WebhookStackTestCase {
    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging([
            "REELWORK_WEBHOOK_ALLOW_PRIVATE": "1", "REELWORK_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.2,0.2",
            "REELWORK_WEBHOOK_POLL_SECONDS": "0.1", "REELWORK_PUBLIC_URL": "https://reelwork.example.org",
            // Event streams end, so a test can read one whole.
            "REELWORK_EVENTS_MAX_STREAM_SECONDS": "1",
        ]) { $1 }
    }


    /// An endpoint of club "c" (whose jobs `submitNoop` makes) at the receiver's `path`, registered
    /// through the API; the receiver verifies with its secret.
    private func endpoint(_ path: String, events: [String] = ["job.succeeded", "job.failed"]) throws -> WebhookSecretView {
        let client = try stack.client()
        let created = try awaitSync { try await client.createWebhook(CreateWebhookRequest(url: self.receiver.url(path), events: events, club: "c")) }
        try receiver.verify(with: [created.secret])
        return created
    }

    private func deliveries(_ endpoint: WebhookSecretView) throws -> [WebhookDeliveryRecord] {
        let client = try stack.client()
        return try awaitSync { try await client.webhookDeliveries(endpoint.webhook.id) }.deliveries
    }

    private func deliveryStatuses(_ endpoint: WebhookSecretView) throws -> [WebhookDeliveryStatus] {
        try deliveries(endpoint).map(\.status)
    }

    /// The body of a request as JSON.
    private func body(_ request: WebhookReceiver.Request) throws -> JSONValue {
        try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(request.body.utf8))
    }

    func testAWorkersResultAndFailureReachTheReceiverSignedAfterItFailedTwice() throws {
        let endpoint = try endpoint("/fail-twice")
        try stack.startWorker()
        let good = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        let bad = try stack.submitNoop(video: video, seconds: 0, tag: 2, extra: ["invalidAttempts": .number(1)])
        XCTAssertEqual(try stack.waitForTerminal(good.id, timeout: 30).status, .succeeded)
        XCTAssertEqual(try stack.waitForTerminal(bad.id, timeout: 30).status, .failed)

        let requests = try receiver.awaitRequests(timeout: 20, "both deliveries, each on its third attempt") { seen in
            seen.filter { $0.status == 200 }.count == 2
        }
        XCTAssertEqual(requests.count, 6)
        XCTAssertTrue(requests.allSatisfy { $0.verified == [true] }, "\(requests.compactMap(\.error))")
        let types = try requests.filter { $0.status == 200 }.map { request -> String in
            let body = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any])
            return try XCTUnwrap(body["type"] as? String)
        }
        XCTAssertEqual(Set(types), ["job.succeeded", "job.failed"])
        _ = try Eventually.value("both recorded as succeeded") { try deliveryStatuses(endpoint) == [.succeeded, .succeeded] ? true : nil }
    }

    /// One way of writing ids (lower case, RFC 9562): the id `reelwork jobs list` prints is found
    /// verbatim as the job's id in the event stream and in the webhook's body, and the API's
    /// answer has it too, so an operator can grep any of them for what the CLI gave.
    func testTheIdTheCLIPrintsIsFoundVerbatimInTheEventsTheWebhookAndTheAPI() throws {
        _ = try endpoint("/ok")
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 9)
        XCTAssertEqual(try stack.waitForTerminal(job.id, timeout: 30).status, .succeeded)
        let listed = try stack.run(["jobs", "list"])
        XCTAssertEqual(listed.status, 0, listed.output)
        let ids = listed.output.split(whereSeparator: \.isWhitespace).map(String.init).filter { UUID(uuidString: $0) != nil }
        XCTAssertEqual(ids.count, 1, listed.output)
        let printed = try XCTUnwrap(ids.first)
        XCTAssertEqual(UUID(uuidString: printed), job.id)

        // The whole backlog, from the stream's start; the stream ends after a second here.
        let (streamed, status, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/events?lastEventId=0-1")!, key: stack.operatorKey)
        let stream = String(decoding: streamed, as: UTF8.self)
        XCTAssertEqual(status, 200, stream)
        XCTAssertTrue(stream.contains(#""jobId":"\#(printed)""#), "the stream has the CLI's id: \(stream.prefix(600))")

        let requests = try receiver.awaitRequests(timeout: 20, "the delivery") { $0.contains { $0.status == 200 } }
        let delivered = try XCTUnwrap(requests.first { $0.status == 200 }?.body)
        XCTAssertTrue(delivered.contains(#""id":"\#(printed)""#), "the webhook has the CLI's id: \(delivered.prefix(600))")

        let (answer, _, _) = try HTTP.request("GET", URL(string: "\(stack.coordinatorURL)/v1/jobs/\(printed.uppercased())")!, key: stack.operatorKey)
        XCTAssertTrue(String(decoding: answer, as: UTF8.self).contains(#""id":"\#(printed)""#), "asked upper case, answered lower case")
    }

    /// The coordinator looks for due deliveries once a minute here, so the job ends between two of
    /// its looks; it is then killed. The delivery was committed with the job's end, so the next
    /// coordinator sends it.
    func testACoordinatorKilledBetweenTheJobsEndAndTheDeliveryLosesNothing() throws {
        let endpoint = try endpoint("/ok")
        stack.coordinator?.terminate()
        stack.coordinator?.waitUntilExit()
        try stack.startCoordinator(extraEnvironment: ["REELWORK_WEBHOOK_POLL_SECONDS": "60"])
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 3)
        XCTAssertEqual(try stack.waitForTerminal(job.id, timeout: 30).status, .succeeded)
        XCTAssertEqual(try deliveryStatuses(endpoint), [.pending], "recorded with the job's end, not sent yet")

        let coordinator = try XCTUnwrap(stack.coordinator)
        kill(coordinator.processIdentifier, SIGKILL)
        coordinator.waitUntilExit()
        XCTAssertEqual(try receiver.requests().count, 0)

        try stack.startCoordinator()
        let requests = try receiver.awaitRequests(timeout: 20, "the delivery") { !$0.isEmpty }
        XCTAssertEqual(requests.map(\.verified), [[true]])
        XCTAssertTrue(requests[0].body.contains(job.id.uuidString.lowercased()))
        _ = try Eventually.value("the delivery recorded as succeeded") { try deliveryStatuses(endpoint) == [.succeeded] ? true : nil }
    }

    func testABatchsCompletionIsSentOnceAfterItsLastJobEnds() throws {
        let endpoint = try endpoint("/ok", events: ["batch.completed"])
        let client = try stack.client()
        let videos = try (0..<2).map { i -> UUID in
            let clip = stack.directory.appendingPathComponent("batch-\(i).mp4")
            try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5", "-vf", "hue=h=\(i * 40)",
                             "-c:v", "libx264", "-pix_fmt", "yuv420p", clip.path])
            return try awaitSync { try await client.uploadVideo(file: clip, club: "c") }.id
        }
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: .object(["noop": .object([:])]),
                                                                                    label: "week 1", club: "c")) }
        XCTAssertEqual(try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: videos)) }.created, 2)
        try stack.startWorker(slots: 2)

        let requests = try receiver.awaitRequests(timeout: 60, "the batch's completion") { !$0.isEmpty }
        XCTAssertEqual(requests.map(\.verified), [[true]])
        let body = try body(requests[0])
        XCTAssertEqual(body["type"], .string("batch.completed"))
        XCTAssertEqual(body["data"]?["batch"]?["counts"], .object(["succeeded": .number(2)]))
        XCTAssertEqual(body["data"]?["batch"]?["label"], .string("week 1"))
        let id = batch.id.uuidString.lowercased()
        XCTAssertEqual(body["data"]?["links"], .object(["batch": .string("https://reelwork.example.org/v1/batches/\(id)"),
                                                        "jobs": .string("https://reelwork.example.org/v1/batches/\(id)/jobs")]))
        _ = try Eventually.value("the delivery recorded as succeeded") { try deliveryStatuses(endpoint) == [.succeeded] ? true : nil }
        XCTAssertEqual(try receiver.requests().count, 1, "one batch, one completion")
    }

    func testAfterARotationBothSecretsSignDuringTheGracePeriod() throws {
        let old = try endpoint("/ok")
        let client = try stack.client()
        let rotated = try awaitSync { try await client.rotateWebhookSecret(old.webhook.id) }
        try receiver.verify(with: [old.secret, rotated.secret])
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 5)
        XCTAssertEqual(try stack.waitForTerminal(job.id, timeout: 30).status, .succeeded)

        let requests = try receiver.awaitRequests(timeout: 20, "the delivery") { !$0.isEmpty }
        XCTAssertEqual(requests.map(\.verified), [[true, true]], "a receiver holding either secret accepts it: \(requests.compactMap(\.error))")
        XCTAssertEqual(requests.first?.signature?.split(separator: " ").count, 2)
    }

    func testARedeliveryResendsTheSameDeliveryAndRecordsTheAttempt() throws {
        let endpoint = try endpoint("/ok")
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 6)
        XCTAssertEqual(try stack.waitForTerminal(job.id, timeout: 30).status, .succeeded)
        let delivered = try Eventually.value(timeout: 20, "the delivery recorded as succeeded") {
            try deliveries(endpoint).first.flatMap { $0.status == .succeeded ? $0 : nil }
        }
        let client = try stack.client()
        let again = try awaitSync { try await client.redeliverWebhook(endpoint.webhook.id, delivery: delivered.id) }
        XCTAssertEqual(again.id, delivered.id)
        XCTAssertEqual(again.status, .pending)

        let requests = try receiver.awaitRequests(timeout: 20, "the redelivery") { $0.count == 2 }
        XCTAssertEqual(requests.map(\.id), [delivered.id, delivered.id], "the same webhook-id: a receiver can drop the repeat")
        XCTAssertEqual(requests.map(\.verified), [[true], [true]])
        let recorded = try Eventually.value(timeout: 20, "both attempts recorded") {
            try deliveries(endpoint).first.flatMap { $0.status == .succeeded && $0.attempts.count == 2 ? $0 : nil }
        }
        XCTAssertEqual(recorded.attempts.map(\.statusCode), [200, 200])
    }
}
