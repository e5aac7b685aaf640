import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A cancel says who asked for it: a coach's own cancel is not an operator's, for a waiting job
/// (written with the cancel) and for a running one (written by its worker when it stops), in the
/// job and in its webhook.
final class CancelWordingTests: WebhookStackTestCase {
    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging(["REELWORK_WEBHOOK_ALLOW_PRIVATE": "1", "REELWORK_WEBHOOK_POLL_SECONDS": "0.1"]) { $1 }
    }

    func testACancelNamesWhoAskedForIt() throws {
        let coach = try stack.client(key: try stack.createKey(["--club", "c"]))
        let hook = try awaitSync { try await self.stack.client().createWebhook(CreateWebhookRequest(url: self.receiver.url("/c"), events: ["job.cancelled"], club: "c")) }
        try receiver.verify(with: [hook.secret])

        // Waiting (no worker yet): the coach's and the operator's.
        let waitingByCoach = try stack.submitNoop(video: video, seconds: 30, tag: 1)
        let waitingByOperator = try stack.submitNoop(video: video, seconds: 30, tag: 2)
        _ = try awaitSync { try await coach.cancel(waitingByCoach.id) }
        _ = try awaitSync { try await self.stack.client().cancel(waitingByOperator.id) }
        XCTAssertEqual(try stack.waitForTerminal(waitingByCoach.id).lastError, "cancelled by club c")
        XCTAssertEqual(try stack.waitForTerminal(waitingByOperator.id).lastError, "cancelled by an operator")

        // Running: its worker records who asked, in the job and in the attempt.
        try stack.startWorker()
        let running = try stack.submitNoop(video: video, seconds: 30, tag: 3)
        XCTAssertTrue(try stack.waitUntil(timeout: 30) { try stack.status(running.id) == "running" })
        _ = try awaitSync { try await coach.cancel(running.id) }
        let stopped = try stack.waitForTerminal(running.id)
        XCTAssertEqual(stopped.status, .cancelled)
        XCTAssertEqual(stopped.lastError, "cancelled by club c")
        XCTAssertEqual(stopped.attempts.last?.error, "cancelled by club c")

        let sent = try receiver.awaitRequests("three job.cancelled deliveries") { $0.count >= 3 }
        let errors = try sent.map { try ReelworkJSON.decoder.decode(JSONValue.self, from: Data($0.body.utf8))["data"]?["job"]?["lastError"] }
        XCTAssertEqual(errors.filter { $0 == .string("cancelled by club c") }.count, 2, "\(errors)")
        XCTAssertEqual(errors.filter { $0 == .string("cancelled by an operator") }.count, 1, "\(errors)")

        // A retry forgets who cancelled: its next cancel names its own asker.
        _ = try awaitSync { try await self.stack.client().retry(running.id) }
        XCTAssertNil(try stack.db().query("SELECT cancelled_by FROM jobs WHERE id = $1", [running.id]).rows[0]["cancelled_by"])
    }
}
