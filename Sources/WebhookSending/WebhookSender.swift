import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Webhooks

/// Sends one attempt of a delivery with AsyncHTTPClient: a signed JSON POST, Standard Webhooks
/// headers, one deadline for the whole exchange, and at most `maxResponseBytes` of the answer read
/// (a receiver cannot make the coordinator hold a large body). Redirects are not followed: a
/// redirect could lead to an address the URL policy refuses.
///
/// Before every attempt the URL's host is resolved once and every address checked against the
/// policy (`WebhookURLPolicy.target`, on NIO's blocking pool: name resolution blocks); the
/// attempt's client then connects to exactly the address that was checked (AsyncHTTPClient's
/// `dnsOverride`, so the `Host` header and the TLS server name and certificate check still use the
/// URL's host). A DNS answer that changes between the check and the connection cannot lead the
/// request inside the network. Nothing of the answer but its status is kept: the body of a
/// foreign server is read up to the cap and dropped.
public final class WebhookSender: Sendable {
    /// Bytes of an answer's body that are read (the rest is dropped with the connection).
    public static let maxResponseBytes = 4_096
    public static let userAgent = "Reelwork-Webhooks/1"

    private let configuration: HTTPClient.Configuration
    private let policy: WebhookURLPolicy
    private let timeout: TimeInterval

    /// - Parameter timeout: seconds one attempt may take in all before it fails as a timeout.
    public init(policy: WebhookURLPolicy, timeout: TimeInterval) {
        var pool = HTTPClient.Configuration.ConnectionPool()
        // A refused connection fails the attempt at once instead of being retried until the deadline:
        // the retry schedule is the one place that decides when to try again.
        pool.retryConnectionEstablishment = false
        self.configuration = HTTPClient.Configuration(redirectConfiguration: .disallow,
                                                      timeout: .init(connect: Self.amount(timeout), read: Self.amount(timeout)),
                                                      connectionPool: pool, decompression: .disabled)
        self.policy = policy
        self.timeout = timeout
    }

    /// Sends `message` signed at `now`. Never throws: every way an attempt can go is an outcome.
    public func send(_ message: WebhookMessage, now: Date = Date()) async -> WebhookSendResult {
        let started = ContinuousClock.now
        let (outcome, bytesRead) = await attempt(message, timestamp: WebhookSendResult.timestamp(now))
        let elapsed = ContinuousClock.now - started
        let ms = elapsed.components.seconds * 1_000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return WebhookSendResult(outcome: outcome, sentAt: now, latencyMs: Int(max(0, ms)), answerBytesRead: bytesRead)
    }

    private func attempt(_ message: WebhookMessage, timestamp: Int) async -> (WebhookSendOutcome, Int) {
        let target: WebhookTarget
        do {
            let policy = self.policy
            target = try await NIOThreadPool.singleton.runIfActive { try policy.target(message.url) }
        } catch WebhookURLError.unresolvable(let host, let reason) {
            return (.failed(.dns("\(host): \(reason)")), 0)
        } catch {
            return (.failed(.refusedURL("\(error)")), 0)
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
        let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: pinned(to: target))
        let result: (WebhookSendOutcome, Int)
        do {
            let response = try await client.execute(request, deadline: .now() + Self.amount(timeout))
            let status = Int(response.status.code)
            let bytesRead = try await Self.drain(response.body)
            switch status {
            case 200..<300: result = (.delivered(status: status), bytesRead)
            case 410: result = (.gone, bytesRead)
            default:
                let retryAfter = response.headers.first(name: "retry-after").flatMap { RetryAfter.seconds($0) }
                result = (.rejected(status: status, retryAfter: retryAfter), bytesRead)
            }
        } catch {
            result = (.failed(classify(error, url: message.url)), 0)
        }
        // Closes the connection, and with it whatever of the answer was not read.
        try? await client.shutdown()
        return result
    }

    /// The configuration for one attempt: the URL's host maps to the checked address.
    private func pinned(to target: WebhookTarget) -> HTTPClient.Configuration {
        var configuration = self.configuration
        if !target.hostIsAddress {
            let address = target.address.description
            // The client looks the override up by the host as the URL spells it; both spellings are there.
            configuration.dnsOverride[target.host] = address
            configuration.dnsOverride[target.host.lowercased()] = address
        }
        return configuration
    }

    /// Reads at most `maxResponseBytes` of the body and drops them; returns how many were read.
    private static func drain(_ body: HTTPClientResponse.Body) async throws -> Int {
        var read = 0
        for try await chunk in body {
            read += min(chunk.readableBytes, maxResponseBytes - read)
            if read >= maxResponseBytes { break }
        }
        return read
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
        if Self.isRefused(error) { return .connectionRefused(URLComponents(string: url)?.host ?? WebhookURLPolicy.forLogs(url)) }
        return .other(String("\(error)".prefix(500)))
    }

    private static func isRefused(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == ECONNREFUSED
    }

    private static func amount(_ seconds: TimeInterval) -> TimeAmount {
        .nanoseconds(Int64(min(seconds, 86_400) * 1_000_000_000))
    }
}
