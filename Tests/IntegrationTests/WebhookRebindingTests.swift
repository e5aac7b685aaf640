import Foundation
import ReelworkClient
import ReelworkCore
import TestSupport
import XCTest

/// Webhook hosts named through DNS, against the real coordinator (issue 27). A club's webhook host
/// is served by a DNS server of the test's own; the coordinator resolves through the system
/// resolver, as in production, in a mount namespace whose /etc/resolv.conf names that server.
/// "Public" is 127.0.0.2, let through on purpose (REELWORK_WEBHOOK_ALLOW_ADDRESSES); 127.0.0.1 is
/// internal.
final class WebhookRebindingTests: XCTestCase {
    static let host = "hooks.rebind.test"
    var stack: TestStack!
    var receivers: [WebhookReceiver] = []
    var dns: TestDNSServer!
    var authority: TestCertificateAuthority?

    override func tearDown() {
        stack?.shutdown()
        receivers.forEach { $0.stop() }
        dns?.stop()
        authority?.remove()
        super.tearDown()
    }

    /// The stack with its coordinator looking names up at a DNS server answering `answers`, and
    /// with `mounts` of its own besides.
    func start(answers: [String], mounts: [String: URL] = [:]) throws {
        dns = try TestDNSServer(name: Self.host, answers: answers)
        stack = try TestStack(settings: TestStack.fastQueue.merging([
            "REELWORK_WEBHOOK_ALLOW_ADDRESSES": "127.0.0.2/32", "REELWORK_WEBHOOK_RETRY_SCHEDULE": "0,0.2,0.2",
            "REELWORK_WEBHOOK_POLL_SECONDS": "0.1",
        ]) { $1 })
        try stack.startCoordinator(mounts: mounts.merging(["/etc/resolv.conf": dns.resolvConf]) { $1 })
    }

    func receiver(host: String, port: Int = 0, tls: (certificate: String, key: String)? = nil) throws -> WebhookReceiver {
        let receiver = try WebhookReceiver(host: host, port: port, tls: tls)
        receivers.append(receiver)
        return receiver
    }

    /// Club c's endpoint at `url`, registered through the API (its registration is one lookup).
    func endpoint(_ url: String, verifiedBy receiver: WebhookReceiver) throws -> WebhookSecretView {
        let client = try stack.client()
        let endpoint = try awaitSync { try await client.createWebhook(CreateWebhookRequest(url: url, events: ["job.succeeded"], club: "c")) }
        try receiver.verify(with: [endpoint.secret])
        return endpoint
    }

    /// The endpoint's deliveries once there are `count` and none is pending.
    func settledDeliveries(_ endpoint: WebhookSecretView, count: Int) throws -> [WebhookDeliveryRecord] {
        let client = try stack.client()
        return try Eventually.value(timeout: 30, "\(count) deliveries end") { () -> [WebhookDeliveryRecord]? in
            let deliveries = try awaitSync { try await client.webhookDeliveries(endpoint.webhook.id) }.deliveries
            return deliveries.count == count && !deliveries.contains { $0.status == .pending } ? deliveries : nil
        }
    }

    /// An HTTP client that looked the name up again when it connects would be led to the internal
    /// receiver on 127.0.0.1; ours connects to the address it checked.
    func testANameThatAnswersInternallyAfterTheCheckNeverLeadsADeliveryInside() throws {
        // The registration's check, then the first delivery's check: allowed. Every lookup after them: internal.
        try start(answers: ["127.0.0.2", "127.0.0.2", "127.0.0.1"])
        let outside = try receiver(host: "127.0.0.2")
        let inside = try receiver(host: "127.0.0.1", port: outside.port)
        let endpoint = try endpoint("http://\(Self.host):\(outside.port)/ok", verifiedBy: outside)
        let video = try stack.uploadTinyClip()
        try stack.startWorker()

        // The first delivery: checked against 127.0.0.2 and sent there, with no second lookup.
        let first = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        XCTAssertEqual(try stack.waitForTerminal(first.id).status, .succeeded)
        _ = try Eventually.value(timeout: 30, "the first delivery is received") { try outside.requests().count + inside.requests().count > 0 ? true : nil }
        XCTAssertEqual(try inside.requests().count, 0, "the first delivery was sent to the internal address")
        XCTAssertEqual(try outside.requests().first?.verified, [true], "the checked address got the first delivery")
        XCTAssertEqual(try dns.answersGiven(), ["127.0.0.2", "127.0.0.2"], "one lookup at registration, one for the delivery, none by the HTTP client")

        // The second: the name now answers 127.0.0.1, and every attempt is refused by that address.
        let second = try stack.submitNoop(video: video, seconds: 0, tag: 2)
        XCTAssertEqual(try stack.waitForTerminal(second.id).status, .succeeded)
        let refused = try XCTUnwrap(try settledDeliveries(endpoint, count: 2).first { $0.status == .abandoned }, "the second delivery was given up")
        XCTAssertEqual(refused.attempts.count, 3, "every attempt of the schedule ran")
        for attempt in refused.attempts {
            XCTAssertNil(attempt.statusCode, "attempt \(attempt.attempt) reached a server")
            XCTAssertTrue(attempt.error?.contains("127.0.0.1") == true, "attempt \(attempt.attempt): \(attempt.error ?? "no error")")
        }
        XCTAssertEqual(try inside.requests().count, 0, "a delivery reached the internal address")
        XCTAssertEqual(try outside.requests().count, 1)
        XCTAssertEqual(try dns.answersGiven().count, 2 + 3, "one lookup per attempt")
    }

    /// Connecting to the checked address keeps TLS about the URL's name: the connection asks for
    /// it (SNI) and the certificate is checked against it, not against the address. The coordinator
    /// trusts only the test's CA here (its /etc/ssl/certs mounted over).
    func testHTTPSToTheCheckedAddressStillChecksTheCertificateForTheURLsName() throws {
        let authority = try TestCertificateAuthority()
        self.authority = authority
        try start(answers: ["127.0.0.2"], mounts: ["/etc/ssl/certs": authority.trustStore])
        let named = try receiver(host: "127.0.0.2", tls: try authority.issue(for: Self.host))
        let good = try endpoint("https://\(Self.host):\(named.port)/ok", verifiedBy: named)
        // Another receiver on the same address whose certificate names another host.
        let impostor = try receiver(host: "127.0.0.2", tls: try authority.issue(for: "other.rebind.test"))
        let bad = try endpoint("https://\(Self.host):\(impostor.port)/ok", verifiedBy: impostor)
        let video = try stack.uploadTinyClip()
        try stack.startWorker()
        let job = try stack.submitNoop(video: video, seconds: 0, tag: 1)
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded)

        let received = try named.awaitRequests(timeout: 30, "the HTTPS delivery arrives") { $0.count == 1 }
        XCTAssertEqual(received[0].tlsServerName, Self.host, "the connection asked for the URL's name")
        XCTAssertEqual(received[0].verified, [true])
        XCTAssertEqual(try settledDeliveries(good, count: 1).first?.status, .succeeded)

        let refused = try XCTUnwrap(try settledDeliveries(bad, count: 1).first)
        XCTAssertEqual(refused.status, .abandoned, "a certificate for another name is refused")
        XCTAssertTrue(refused.attempts.allSatisfy { $0.statusCode == nil }, "no attempt got an answer: \(refused.attempts.map(\.error))")
        XCTAssertEqual(try impostor.requests().count, 0, "no request crossed a connection whose certificate names another host")
    }
}
