import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ObjectStorage
import ReelworkCore
import Synchronization

/// Objects in a bucket of an S3-compatible store (AWS S3, MinIO, Ceph RGW, Cloudflare R2, rclone),
/// by the REST API with Signature V4. Only what Reelwork needs: put, head, delete, list, presigned
/// reads. Every failure is an `ObjectStoreError` naming the bucket and what the store said.
public struct S3ObjectStore: ObjectStore {
    public let settings: S3Settings
    let signer: SignatureV4
    /// The clock requests are stamped with (a test moves it to check what the store says to a stale one).
    let now: @Sendable () -> Date
    /// The process's client for this store's read timeout, looked up once (`client(readTimeoutSeconds:)`).
    let client: HTTPClient

    public init(settings: S3Settings, now: @escaping @Sendable () -> Date = { Date() }) {
        self.settings = settings
        self.signer = SignatureV4(accessKeyID: settings.accessKeyID, secretAccessKey: settings.secretAccessKey, region: settings.region)
        self.now = now
        self.client = Self.client(readTimeoutSeconds: settings.readTimeoutSeconds)
    }

    public var location: String { "bucket \(settings.bucket) at \(settings.endpoint.absoluteString)" }

    /// One client for the process for each read timeout (in practice one), never redirected: a
    /// store that redirects is misconfigured (wrong region or endpoint), and following it would send
    /// our signature elsewhere. A store answers a request within seconds of its last byte (a put's
    /// answer comes once the body is in); a try that hears nothing for the read timeout
    /// (`S3Settings.readTimeoutSeconds`) is sent again. A refused connection fails its try at once
    /// (the client would otherwise try to connect again and again for the whole connect timeout):
    /// `send` tries again on its own schedule, so a store that is down is reported within a second,
    /// not after `attempts` connect timeouts.
    static func client(readTimeoutSeconds: Double) -> HTTPClient {
        // Settings from the environment are checked; one built in code may hold anything.
        let range = S3Settings.readTimeoutRange
        let seconds =
            readTimeoutSeconds.isFinite ? min(max(readTimeoutSeconds, range.lowerBound), range.upperBound) : S3Settings.defaultReadTimeoutSeconds
        let milliseconds = Int64((seconds * 1000).rounded())
        return clients.withLock { clients in
            if let client = clients[milliseconds] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5), read: .milliseconds(milliseconds)))
            configuration.connectionPool.retryConnectionEstablishment = false
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            clients[milliseconds] = client
            return client
        }
    }
    private static let clients = Mutex<[Int64: HTTPClient]>([:])

    /// Where a request sent again is said (an operator sees a store that drops requests).
    static let logger = Logger(label: "reelwork.storage")

    /// Requests other than a put must be answered within this long.
    static let requestTimeout: TimeAmount = .seconds(60)

    // MARK: - ObjectStore

    public func prepare() async throws {
        let response = try await send("HEAD", url: url(forKey: nil), what: "checking the bucket")
        switch response.status.code {
        case 200: return
        case 404: throw ObjectStoreError(.missingContainer, "the \(location) does not exist: create it, or fix \(StorageSettings.Env.bucket)")
        default: throw failure(response.status, body: Data(), what: "checking the bucket")
        }
    }

    public func put(file: URL, sha256: String, key: String) async throws -> Bool {
        if try await size(of: key) != nil { return false }
        let size: Int64
        do {
            size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? 0
        } catch {
            throw ObjectStoreError(.invalid, "cannot read \(file.path) to store it: \(error.localizedDescription)")
        }
        // The body's SHA-256 goes in the signature, so the store refuses bytes that changed on the way.
        let body: @Sendable () -> HTTPClientRequest.Body = { .stream(FileChunks(url: file), length: .known(size)) }
        // A slow link is not a dead one: a minute, plus a second per MiB.
        let timeout = Self.requestTimeout + .seconds(size / 1_048_576)
        let response = try await send(
            "PUT", url: url(forKey: key), payloadHash: sha256, body: body,
            timeout: timeout, what: "storing \(key)")
        guard response.status == .ok else { throw failure(response.status, body: response.body, what: "storing \(key)") }
        return true
    }

    public func size(of key: String) async throws -> Int64? {
        let response = try await send("HEAD", url: url(forKey: key), what: "looking up \(key)")
        switch response.status.code {
        case 200: return response.headers.first(name: "content-length").flatMap { Int64($0) } ?? 0
        case 404: return nil
        default: throw failure(response.status, body: Data(), what: "looking up \(key)")
        }
    }

    public func remove(key: String) async throws {
        let response = try await send("DELETE", url: url(forKey: key), what: "removing \(key)")
        guard response.status == .noContent || response.status == .ok || response.status == .notFound else {
            throw failure(response.status, body: response.body, what: "removing \(key)")
        }
    }

    public func list(prefix: String) async throws -> [StoredObject] {
        try await list(prefix: prefix, pageSize: 1000)
    }

    /// The listing a page of `pageSize` keys at a time (S3's most is 1,000), following each page's continuation.
    func list(prefix: String, pageSize: Int) async throws -> [StoredObject] {
        var found: [StoredObject] = []
        var token: String? = nil
        repeat {
            var query = "list-type=2&max-keys=\(pageSize)&prefix=\(SignatureV4.encode(prefix))"
            if let token { query += "&continuation-token=\(SignatureV4.encode(token))" }
            let address = url(forKey: nil, query: query)
            let response = try await send("GET", url: address, what: "listing \(prefix)")
            guard response.status == .ok else { throw failure(response.status, body: response.body, what: "listing \(prefix)") }
            guard let page = S3ListPage(xml: response.body) else {
                throw ObjectStoreError(.unexpected, "the \(location) answered a listing Reelwork cannot read")
            }
            found += page.objects
            token = page.isTruncated ? page.continuationToken : nil
        } while token != nil
        return found.sorted { $0.key < $1.key }
    }

    public func readLocation(key: String, validFor seconds: Int) throws -> String {
        try ObjectKey.check(key)
        return signer.presignedURL(method: "GET", url: url(forKey: key), seconds: seconds, date: now()).absoluteString
    }

    public func clientReadLocation(key: String, validFor seconds: Int) throws -> String {
        try ObjectKey.check(key)
        return signer.presignedURL(method: "GET", url: url(forKey: key, forClients: true), seconds: seconds, date: now()).absoluteString
    }

    // MARK: - Requests

    /// `endpoint/bucket/key` (path style) or `bucket.endpoint/key`; the bucket itself when `key` is
    /// nil; with `query` (already encoded) after a `?`.
    /// The URL of `key` (nil: the bucket) at the store's endpoint, or with `forClients` at the
    /// endpoint clients reach (`REELWORK_S3_PUBLIC_ENDPOINT`); a presigned URL signs its host.
    func url(forKey key: String?, query: String? = nil, forClients: Bool = false) -> URL {
        let endpoint = forClients ? settings.publicEndpoint ?? settings.endpoint : settings.endpoint
        var parts = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        var path = ""
        if settings.pathStyle {
            path = "/\(settings.bucket)"
        } else {
            parts.host = "\(settings.bucket).\(parts.host ?? "")"
        }
        if let key {
            path += "/" + key.split(separator: "/", omittingEmptySubsequences: false).map { SignatureV4.encode(String($0)) }.joined(separator: "/")
        }
        parts.percentEncodedPath = path.isEmpty ? "/" : path
        parts.percentEncodedQuery = query
        return parts.url!
    }

    struct Answer {
        var status: HTTPResponseStatus
        var headers: HTTPHeaders
        var body: Data
    }

    /// Error bodies are short XML; a listing of a thousand keys is a few hundred KB.
    static let maxAnswerBytes = 8 * 1024 * 1024

    /// One signed request; `extraHeaders` are signed too (`x-amz-copy-source`). A request that
    /// gets no answer (no connection, a broken one, silence past the timeout) is sent again, up to
    /// `attempts` times in all, each signed afresh with a fresh body (`body` makes one): every
    /// request Reelwork sends a store is idempotent (a content-addressed put writes the same
    /// bytes), and a store that drops one request in a crowd answers the next, as AWS's own SDKs
    /// assume. An answer, even an error, is never sent again.
    func send(
        _ method: String, url: URL, payloadHash: String? = nil, body: (@Sendable () -> HTTPClientRequest.Body)? = nil,
        extraHeaders: [String: String] = [:], timeout: TimeAmount = requestTimeout, what: String
    ) async throws -> Answer {
        // The client sends Content-Length itself (the body's known length); it need not be signed.
        let headers = extraHeaders.merging(["host": SignatureV4.hostHeader(url)]) { _, host in host }
        let hash = payloadHash ?? SignatureV4.hexSHA256(Data())
        var attempt = 1
        while true {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.method = HTTPMethod(rawValue: method)
            for (name, value) in signer.signedHeaders(method: method, url: url, headers: headers, payloadHash: hash, date: now()) {
                request.headers.add(name: name, value: value)
            }
            request.body = body?()
            do {
                let response = try await client.execute(request, timeout: timeout)
                let data = method == "HEAD" ? Data() : Data(try await response.body.collect(upTo: Self.maxAnswerBytes).readableBytesView)
                return Answer(status: response.status, headers: response.headers, body: data)
            } catch {
                guard attempt < Self.attempts, !Task.isCancelled else {
                    throw ObjectStoreError(
                        .unavailable,
                        "cannot reach the \(location) while \(what): \(Self.describe(error))"
                            + (attempt > 1 ? " (\(attempt) tries)" : ""))
                }
                Self.logger.warning(
                    "no answer from the \(location) while \(what) (try \(attempt) of \(Self.attempts)): \(Self.describe(error)); sending it again")
                try await Task.sleep(for: .milliseconds(250 * attempt))
                attempt += 1
            }
        }
    }

    /// Tries of a request that gets no answer.
    static let attempts = 3

    /// The store's answer in words: its own error code and message where it sent them.
    func failure(_ status: HTTPResponseStatus, body: Data, what: String) -> ObjectStoreError {
        let said = S3ErrorBody(xml: body)
        let detail = said.map { " (\($0.code)\($0.message.map { ": \($0)" } ?? ""))" } ?? ""
        switch (status.code, said?.code) {
        case (404, "NoSuchBucket"?):
            return ObjectStoreError(.missingContainer, "the \(location) does not exist: create it, or fix \(StorageSettings.Env.bucket)")
        case (404, "NoSuchUpload"?):
            return ObjectStoreError(.missingUpload, "the \(location) holds no such upload while \(what): its parts are gone")
        case (401, _), (403, _):
            let skew = said?.code == "RequestTimeTooSkewed" ? "; this machine's clock is too far from the store's" : ""
            return ObjectStoreError(
                .refused,
                "the \(location) refused our credentials while \(what): HTTP \(status.code)\(detail)\(skew); "
                    + "check \(StorageSettings.Env.accessKeyID) and \(StorageSettings.Env.secretAccessKey)")
        case (500..., _), (408, _), (429, _):
            return ObjectStoreError(.unavailable, "the \(location) failed while \(what): HTTP \(status.code)\(detail)")
        default:
            return ObjectStoreError(.unexpected, "the \(location) answered HTTP \(status.code) while \(what)\(detail)")
        }
    }

    static func describe(_ error: any Error) -> String {
        if let client = error as? HTTPClientError {
            switch client {
            case .deadlineExceeded, .readTimeout: return "it did not answer in time"
            case .connectTimeout: return "connecting timed out"
            default: return "\(client)"
            }
        }
        return "\(error)"
    }
}
