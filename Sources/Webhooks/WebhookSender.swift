import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends one attempt of a delivery with AsyncHTTPClient: a signed JSON POST, Standard Webhooks
/// headers, one deadline for the whole exchange, and at most `maxResponseBytes` of the answer read
/// (a receiver cannot make the coordinator hold a large body). Redirects are not followed: a
/// redirect could lead to an address the URL policy refuses.
///
/// The URL is checked against the policy before every attempt, on a thread of NIO's blocking
/// pool (name resolution blocks). The HTTP client resolves the name again when it connects, so
/// a host that changes its answer within that moment is not caught; a proxy that pins the
/// checked address would close that window.
public final class WebhookSender: Sendable {
    /// Bytes of an answer's body that are read (the rest is dropped with the connection).
    public static let maxResponseBytes = 4_096
    /// Characters of the body kept in the attempt's error.
    public static let excerptLength = 200
    public static let userAgent = "Reelwork-Webhooks/1"

    private let client: HTTPClient
    private let policy: WebhookURLPolicy
    private let timeout: TimeInterval

    /// - Parameter timeout: seconds one attempt may take in all before it fails as a timeout.
    public init(policy: WebhookURLPolicy, timeout: TimeInterval) {
        var pool = HTTPClient.Configuration.ConnectionPool()
        // A refused connection fails the attempt at once instead of being retried until the deadline:
        // the retry schedule is the one place that decides when to try again.
        pool.retryConnectionEstablishment = false
        let configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: Self.amount(timeout), read: Self.amount(timeout)),
                                                     connectionPool: pool, decompression: .disabled)
        self.client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
        self.policy = policy
        self.timeout = timeout
    }

    /// Sends `message` signed at `now`. Never throws: every way an attempt can go is an outcome.
    public func send(_ message: WebhookMessage, now: Date = Date()) async -> WebhookSendResult {
        let started = ContinuousClock.now
        let outcome = await attempt(message, timestamp: WebhookSendResult.timestamp(now))
        let elapsed = ContinuousClock.now - started
        let ms = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return WebhookSendResult(outcome: outcome, sentAt: now, latencyMs: Int(max(0, ms)))
    }

    /// Closes the client's connections; call once, when no send is in progress.
    public func shutdown() async throws {
        try await client.shutdown()
    }

    private func attempt(_ message: WebhookMessage, timestamp: Int) async -> WebhookSendOutcome {
        do {
            let policy = self.policy
            _ = try await NIOThreadPool.singleton.runIfActive { try policy.check(message.url) }
        } catch WebhookURLError.unresolvable(let host, let reason) {
            return .failed(.dns("\(host): \(reason)"))
        } catch {
            return .failed(.refusedURL("\(error)"))
        }
        var request = HTTPClientRequest(url: message.url)
        request.method = .POST
        request.headers = HTTPHeaders([
            ("content-type", "application/json"),
            ("user-agent", Self.userAgent),
            ("webhook-id", message.id),
            ("webhook-timestamp", String(timestamp)),
            ("webhook-signature", WebhookSignature.header(id: message.id, timestamp: timestamp, body: message.body, secrets: message.secrets)),
        ])
        request.body = .bytes(ByteBuffer(bytes: message.body))
        do {
            let response = try await client.execute(request, deadline: .now() + Self.amount(timeout))
            let status = Int(response.status.code)
            let excerpt = try await Self.excerpt(of: response.body)
            switch status {
            case 200..<300: return .delivered(status: status)
            case 410: return .gone
            default:
                let retryAfter = response.headers.first(name: "retry-after").flatMap { RetryAfter.seconds($0) }
                return .rejected(status: status, retryAfter: retryAfter, excerpt: excerpt)
            }
        } catch {
            return .failed(classify(error, url: message.url))
        }
    }

    /// The start of the body, as text (at most `excerptLength` characters, one line).
    private static func excerpt(of body: HTTPClientResponse.Body) async throws -> String {
        var bytes: [UInt8] = []
        for try await chunk in body {
            bytes += chunk.readableBytesView.prefix(maxResponseBytes - bytes.count)
            if bytes.count >= maxResponseBytes { break }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        let line = text.unicodeScalars.prefix(excerptLength).map { $0.properties.generalCategory == .control ? " " : Character($0) }
        return String(line).trimmingCharacters(in: .whitespaces)
    }

    private func classify(_ error: any Error, url: String) -> WebhookSendFailure {
        if let client = error as? HTTPClientError,
           [.deadlineExceeded, .readTimeout, .connectTimeout, .writeTimeout].contains(client) {
            return .timeout(seconds: timeout)
        }
        if let connection = error as? NIOConnectionError {
            if let dns = connection.dnsAError ?? connection.dnsAAAAError { return .dns("\(connection.host): \(dns)") }
            if connection.connectionErrors.contains(where: { Self.isRefused($0.error) }) {
                return .connectionRefused("\(connection.host):\(connection.port)")
            }
        }
        if Self.isRefused(error) { return .connectionRefused(URLComponents(string: url)?.host ?? url) }
        return .other(String("\(error)".prefix(500)))
    }

    private static func isRefused(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == ECONNREFUSED
    }

    private static func amount(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 86_400) * 1_000_000_000))
    }
}
