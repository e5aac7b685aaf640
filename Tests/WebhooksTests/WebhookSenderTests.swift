import Foundation
import TestSupport
import WebhookSending
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

    override func tearDown() {
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
        XCTAssertEqual(outcomes, [.rejected(status: 500, retryAfter: nil), .rejected(status: 500, retryAfter: nil), .delivered(status: 200)])
        let gone = await sender.send(message("/gone")).outcome
        XCTAssertEqual(gone, .gone)
        let busy = await sender.send(message("/retry-after/7")).outcome
        XCTAssertEqual(busy, .rejected(status: 503, retryAfter: 7))
        guard case .rejected(503, let fromDate?) = await sender.send(message("/retry-after-date/120")).outcome else {
            return XCTFail("a Retry-After date was not read")
        }
        XCTAssertEqual(fromDate, 120, accuracy: 2)
        let unknown = await sender.send(message("/no-such-mode")).outcome
        // The status line's standard words, never the receiver's own text ("no such mode").
        XCTAssertEqual(unknown.error, "HTTP 404 Not Found")
        XCTAssertEqual(try receiver.requests().map(\.verified), Array(repeating: [true], count: 7))
    }

    /// A 1 MB answer: the sender reads the cap's worth and drops the connection with the rest.
    func testALargeAnswerIsReadOnlyUpToTheCap() async throws {
        let result = await sender.send(message("/big"))
        XCTAssertEqual(result.outcome, .delivered(status: 200))
        XCTAssertEqual(result.answerBytesRead, WebhookSender.maxResponseBytes)
        let failing = await sender.send(message("/fail"))
        XCTAssertEqual(failing.outcome.error, "HTTP 500 Internal Server Error", "nothing of a foreign server's answer is kept")
        XCTAssertEqual(failing.answerBytesRead, "always failing".utf8.count)
    }

    /// Redirects are never followed, even to an address the policy would allow: the attempt ends
    /// with the redirect's status and its target gets nothing.
    func testARedirectIsNotFollowed() async throws {
        let target = try WebhookReceiver()
        defer { target.stop() }
        let result = await sender.send(message("/redirect/\(target.port)"))
        XCTAssertEqual(result.outcome, .rejected(status: 307, retryAfter: nil))
        XCTAssertEqual(result.outcome.error, "HTTP 307 Temporary Redirect")
        XCTAssertEqual(try receiver.requests().map(\.status), [307])
        XCTAssertEqual(try target.requests().count, 0, "the redirect's target was called")
    }

    /// Receivers on 127.0.0.2 and 127.0.0.1 with the same port number. The busy address is
    /// taken first (any free port), then the quiet one on its number; a few tries, since another
    /// process can still hold that number on 127.0.0.2.
    private static func receiversOnOnePort() throws -> (outside: WebhookReceiver, inside: WebhookReceiver) {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let inside = try WebhookReceiver(host: "127.0.0.1")
            do {
                return (try WebhookReceiver(host: "127.0.0.2", port: inside.port), inside)
            } catch {
                inside.stop()
                lastError = error
            }
        }
        throw lastError!
    }

    /// DNS rebinding: the club's name answers a public address when it is checked and an internal
    /// one the next time (TTL 0). The attempt connects to the address that was checked and never
    /// resolves the name again. The name is `localhost`, so a client that resolved it itself would
    /// reach the internal receiver on 127.0.0.1; 127.0.0.2, let through by an allowed block, plays
    /// the public address. The next attempt gets the internal answer and is refused before connecting.
    func testANameThatAnswersInternallyAfterTheCheckCannotLeadTheRequestInside() async throws {
        let (outside, inside) = try Self.receiversOnOnePort()
        defer { outside.stop(); inside.stop() }
        let dns = ChangingAnswers([[.v4(127, 0, 0, 2)], [.v4(127, 0, 0, 1)], [.v4(127, 0, 0, 2), .v4(127, 0, 0, 1)]])
        let policy = WebhookURLPolicy(allowPrivate: false, allowedRanges: [try IPRange(parsing: "127.0.0.2/32")], resolve: { _ in dns.next() })
        let rebound = WebhookSender(policy: policy, timeout: 2)
        let url = "http://localhost:\(outside.port)/ok"
        let first = await rebound.send(WebhookMessage(id: "msg_rebind1", url: url, secrets: [secret], body: Data("{}".utf8)))
        XCTAssertEqual(first.outcome, .delivered(status: 200))
        XCTAssertEqual(try outside.requests().map(\.id), ["msg_rebind1"], "the checked address got the request")
        for id in ["msg_rebind2", "msg_rebind3"] {
            let next = await rebound.send(WebhookMessage(id: id, url: url, secrets: [secret], body: Data("{}".utf8)))
            guard case .failed(.refusedURL(let reason)) = next.outcome else { return XCTFail("\(id): \(next.outcome)") }
            XCTAssertTrue(reason.contains("127.0.0.1"), reason)
        }
        XCTAssertEqual(dns.asked, 3, "one lookup per attempt")
        XCTAssertEqual(try inside.requests().count, 0, "a request reached the internal address")
        XCTAssertEqual(try outside.requests().count, 1)
    }

    func testAReceiverThatDoesNotAnswerInTimeIsATimeout() async throws {
        let quick = WebhookSender(policy: WebhookURLPolicy(allowPrivate: true), timeout: 0.5)
        let started = Date()
        let result = await quick.send(message("/slow/5"))
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
        guard case .failed(.refusedURL(let reason)) = result.outcome else { return XCTFail("\(result.outcome)") }
        XCTAssertTrue(reason.contains("loopback"), reason)
        XCTAssertEqual(try receiver.requests().count, 0)
    }
}

/// A name server whose answers change from one question to the next, as a club's own DNS with
/// TTL 0 can; the last answer repeats.
private final class ChangingAnswers: @unchecked Sendable {
    // Safe: `lock` guards `index`.
    private let answers: [[IPAddress]]
    private let lock = NSLock()
    private var index = 0

    init(_ answers: [[IPAddress]]) { self.answers = answers }

    func next() -> [IPAddress] {
        lock.withLock {
            defer { index += 1 }
            return answers[min(index, answers.count - 1)]
        }
    }

    var asked: Int { lock.withLock { index } }
}
