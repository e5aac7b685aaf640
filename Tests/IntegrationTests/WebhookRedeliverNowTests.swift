import Foundation
import ReelworkClient
import ReelworkCore
import TestSupport
import XCTest

/// A pending delivery whose next attempt is far off can be sent at once (issue 32):
/// `reelwork webhooks redeliver ID DELIVERY --now`; without `--now` the CLI says how.
final class WebhookRedeliverNowTests: WebhookStackTestCase {
    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging([
            // The second attempt would wait ten minutes.
            "REELWORK_WEBHOOK_ALLOW_PRIVATE": "1", "REELWORK_WEBHOOK_RETRY_SCHEDULE": "0,600,600", "REELWORK_WEBHOOK_POLL_SECONDS": "0.1",
        ]) { $1 }
    }


    func testAPendingDeliveryIsSentNowOnRequest() throws {
        let client = try stack.client()
        let endpoint = try awaitSync {
            try await client.createWebhook(CreateWebhookRequest(url: self.receiver.url("/fail"), events: ["job.succeeded"], club: "c"))
        }
        let hook = endpoint.webhook.id.uuidString.lowercased()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded)
        let pending = try Eventually.value(timeout: 30, "the first attempt fails and the next is scheduled") { () -> WebhookDeliveryRecord? in
            let delivery = try awaitSync { try await client.webhookDeliveries(endpoint.webhook.id) }.deliveries.first
            return delivery?.attempts.count == 1 && delivery?.status == .pending ? delivery : nil
        }
        let due = try XCTUnwrap(pending.nextAttemptAt)
        XCTAssertGreaterThan(due.timeIntervalSinceNow, 500, "the schedule's second step is ten minutes")

        let listed = try stack.run(["webhooks", "deliveries", hook])
        XCTAssertTrue(listed.stdout.contains(ReelworkJSON.formatDate(due)), "the text view shows the next attempt's time: \(listed.stdout)")

        let refused = try stack.run(["webhooks", "redeliver", hook, pending.id])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("still pending") && refused.output.contains("--now"), refused.output)

        let now = try stack.run(["webhooks", "redeliver", hook, pending.id, "--now"])
        XCTAssertEqual(now.status, 0, now.output)
        try receiver.awaitRequests(timeout: 20, "the second attempt, sent at once") { $0.count == 2 }
        let after = try Eventually.value(timeout: 20, "the second attempt is recorded") { () -> WebhookDeliveryRecord? in
            let delivery = try awaitSync { try await client.webhookDeliveries(endpoint.webhook.id) }.deliveries.first
            return delivery?.attempts.count == 2 ? delivery : nil
        }
        XCTAssertEqual(after.status, .pending, "its place in the schedule is kept: one attempt is left")
        XCTAssertEqual(try receiver.requests().map(\.id), [pending.id, pending.id], "the same webhook-id")
    }
}
