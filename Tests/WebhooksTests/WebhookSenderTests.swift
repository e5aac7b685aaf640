import Foundation
import TestSupport
import Webhooks
import XCTest

/// The sender against a real receiver that verifies with the `standardwebhooks` PyPI package: every
/// request is signed as the specification says (with both secrets during a rotation), and each
/// way an attempt can go comes back named: 2xx, 410, other statuses with Retry-After, timeout,
/// refused connection, DNS, and a URL the policy refuses at send time.
final class WebhookSenderTests: XCTestCase {
    private var receiver: WebhookReceiver!
    private var sender: WebhookSender!
    private let secret = WebhookSecret.generate()

    override func setUpWithError() throws {
        receiver = try WebhookReceiver()
        try receiver.verify(with: [secret.text])
        sender = WebhookSender(policy: WebhookURLPolicy(allowPrivate: true), timeout: 2)
    }

    override func tearDown() async throws {
        try await sender?.shutdown()
        receiver?.stop()
    }

    private func message(_ path: String, id: String = "msg_" + UUID().uuidString.replacingOccurrences(of: "-", with: ""),
                         secrets: [WebhookSecret]? = nil) -> WebhookMessage {
        WebhookMessage(id: id, url: receiver.url(path), secrets: secrets ?? [secret], body: Data(#"{"type":"job.succeeded","data":{}}"#.utf8))
    }

    func testADeliveryIsSignedAsTheSpecificationSaysAndA2xxIsDelivered() async throws {
        let sent = message("/ok")
        let result = await sender.send(sent)
        XCTAssertEqual(result.outcome, .delivered(status: 200))
        XCTAssertNil(result.outcome.error)
        let request = try XCTUnwrap(try receiver.requests().first)
        XCTAssertEqual(request.verified, [true], "the standardwebhooks package verifies it: \(request.error ?? "")")
        XCTAssertEqual(request.id, sent.id)
        XCTAssertEqual(request.timestamp, String(WebhookSendResult.timestamp(result.sentAt)))
        XCTAssertEqual(request.contentType, "application/json")
        XCTAssertEqual(request.body, String(decoding: sent.body, as: UTF8.self))
    }

    func testDuringARotationEitherSecretVerifies() async throws {
        let old = WebhookSecret.generate()
        try receiver.verify(with: [secret.text, old.text, WebhookSecret.generate().text])
        _ = await sender.send(message("/ok", secrets: [secret, old]))
        let request = try XCTUnwrap(try receiver.requests().first)
        XCTAssertEqual(request.verified, [true, true, false])
        XCTAssertEqual(request.signature?.split(separator: " ").count, 2)
    }

    func testEachStatusComesBackAsItsOutcome() async throws {
        let id = "msg_failtwice0000000000"
        var outcomes: [WebhookSendOutcome] = []
        for _ in 0..<3 { outcomes.append(await sender.send(message("/fail-twice", id: id)).outcome) }
        XCTAssertEqual(outcomes, [.rejected(status: 500, retryAfter: nil, excerpt: "not yet"), .rejected(status: 500, retryAfter: nil, excerpt: "not yet"),
                                  .delivered(status: 200)])
        let gone = await sender.send(message("/gone")).outcome
        XCTAssertEqual(gone, .gone)
        let busy = await sender.send(message("/retry-after/7")).outcome
        XCTAssertEqual(busy, .rejected(status: 503, retryAfter: 7, excerpt: "busy"))
        guard case .rejected(503, let fromDate?, "busy") = await sender.send(message("/retry-after-date/120")).outcome else {
            return XCTFail("a Retry-After date was not read")
        }
        XCTAssertEqual(fromDate, 120, accuracy: 2)
        let unknown = await sender.send(message("/no-such-mode")).outcome
        XCTAssertEqual(unknown.error, "HTTP 404: no such mode")
        XCTAssertEqual(try receiver.requests().map(\.verified), Array(repeating: [true], count: 7))
    }

    func testALargeAnswerIsReadOnlyInPart() async throws {
        let result = await sender.send(message("/big"))
        XCTAssertEqual(result.outcome, .delivered(status: 200))
    }

    func testAReceiverThatDoesNotAnswerInTimeIsATimeout() async throws {
        let quick = WebhookSender(policy: WebhookURLPolicy(allowPrivate: true), timeout: 0.5)
        let started = Date()
        let result = await quick.send(message("/slow/5"))
        try await quick.shutdown()
        XCTAssertEqual(result.outcome, .failed(.timeout(seconds: 0.5)))
        XCTAssertEqual(result.outcome.error, "timed out: no complete answer within 0.5 s")
        XCTAssertLessThan(Date().timeIntervalSince(started), 4, "the deadline, not the receiver, ended it")
        XCTAssertGreaterThanOrEqual(result.latencyMs, 500)
    }

    func testNoListenerAndNoSuchHostAreNamed() async throws {
        let port = try FreePort.next()
        let refused = await sender.send(WebhookMessage(id: "msg_x", url: "http://127.0.0.1:\(port)/", secrets: [secret], body: Data()))
        guard case .failed(.connectionRefused) = refused.outcome else { return XCTFail("\(refused.outcome)") }
        XCTAssertNil(refused.outcome.statusCode)
        let dns = await sender.send(WebhookMessage(id: "msg_x", url: "http://no-such-host.invalid/", secrets: [secret], body: Data()))
        guard case .failed(.dns(let reason)) = dns.outcome else { return XCTFail("\(dns.outcome)") }
        XCTAssertTrue(reason.contains("no-such-host.invalid"), reason)
    }

    /// The address check runs again at send time: a host that now resolves to an internal address
    /// is not called at all.
    func testAURLThePolicyRefusesNowIsNotSent() async throws {
        let strict = WebhookSender(policy: WebhookURLPolicy(allowPrivate: false), timeout: 2)
        let result = await strict.send(message("/ok"))
        try await strict.shutdown()
        guard case .failed(.refusedURL(let reason)) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertTrue(reason.contains("loopback"), reason)
        XCTAssertEqual(try receiver.requests().count, 0)
    }
}
