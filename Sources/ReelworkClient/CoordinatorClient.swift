import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkCore

/// An error talking to the coordinator, with the API's own code and message when it answered.
public enum ClientError: Error, CustomStringConvertible, Equatable {
    /// The coordinator answered with a non-2xx status.
    case api(status: Int, code: String, message: String)
    /// Nothing answered, or the answer was not the API's.
    case unreachable(String)
    case badResponse(String)

    public var description: String {
        switch self {
        case .api(let status, let code, let message): return "\(message) (\(code), HTTP \(status))"
        case .unreachable(let m): return m
        case .badResponse(let m): return m
        }
    }

    /// No answer, or one that says to try again shortly: sending the same request again may succeed.
    /// A store's own 500 counts too (S3 says to retry its InternalError); the coordinator's does not.
    public var isWorthResending: Bool {
        switch self {
        case .unreachable: return true
        case .api(500, "store_refused", _): return true
        case .api(let status, _, _): return [502, 503, 504].contains(status)
        case .badResponse: return false
        }
    }
}

/// A small client for the coordinator's v1 API.
public final class CoordinatorClient: Sendable {
    public let baseURL: URL
    /// Sent as `Authorization: Bearer` on every request but the health check's.
    let apiKey: String?
    /// What carries a request and brings back its answer (body, status): URLSession unless given.
    let transport: Transport?

    /// Sends one request (its body in `httpBody`) and returns the answer's body and status. The
    /// tests pass one that hands the request to the coordinator's router in process.
    public typealias Transport = @Sendable (URLRequest) async throws -> (Data, Int)

    /// - Parameter transport: nil (the CLI's case) sends over HTTP with URLSession; otherwise every
    ///   request but the event stream goes through it, an upload with the file read whole into `httpBody`.
    public init(baseURL: String, apiKey: String?, transport: Transport? = nil) throws {
        guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https", url.host != nil else {
            throw ReelworkError.configuration("coordinator URL '\(baseURL)' is not an http(s) URL")
        }
        self.baseURL = url
        self.apiKey = apiKey
        self.transport = transport
    }

    // MARK: videos

    /// Uploads a file as a streamed body (never read whole into memory); `progress(sent, total)` is
    /// called as bytes go out. Returns the video (the existing one if these bytes were uploaded before).
    ///
    /// An upload that gets no answer, or one saying to try again shortly (502, 503, 504), is sent
    /// again after each of `retryDelays`, and `onRetry` hears why: an upload is idempotent (the same
    /// bytes are the same video of the club), and a store that drops one request in a crowd answers
    /// the next. Any other answer is final.
    public func uploadVideo(file: URL, club: String? = nil, retryDelays: [Duration] = CoordinatorClient.retryDelays,
                            onRetry: @escaping @Sendable (String) -> Void = { _ in },
                            progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws -> VideoView {
        var query = ["filename": file.lastPathComponent]
        query["club"] = club
        var request = request("POST", url("/v1/videos", query: query))
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        return try await Self.resending(after: retryDelays, onRetry: onRetry) {
            let (data, status): (Data, Int)
            if let transport {
                request.httpBody = try Data(contentsOf: file)
                (data, status) = try await transport(request)
            } else {
                (data, status) = try await FileUpload.send(request, body: .file(file), progress: progress)
            }
            return try decode(VideoView.self, data: data, status: status)
        }
    }

    /// The waits before sending a request again that got no answer or a "try again shortly": four
    /// tries over some 14 s, as the AWS SDKs' standard mode does for a store.
    public static let retryDelays: [Duration] = [.seconds(1), .seconds(3), .seconds(10)]

    /// Runs `body`; while it fails in a way worth resending (`ClientError.isWorthResending`), runs
    /// it again after each of `delays`, telling `onRetry` why. The last failure is thrown.
    static func resending<T>(after delays: [Duration], onRetry: @Sendable (String) -> Void, _ body: () async throws -> T) async throws -> T {
        var delays = delays.makeIterator()
        while true {
            do {
                return try await body()
            } catch let error as ClientError where error.isWorthResending {
                guard let delay = delays.next() else { throw error }
                onRetry("\(error); sending it again in \(delay.components.seconds) s")
                try await Task.sleep(for: delay)
            }
        }
    }

    /// Which of these SHA-256 hashes the club has uploaded already (one request for many files).
    public func lookupVideos(hashes: [String], club: String? = nil) async throws -> VideoLookupResult {
        try await send("POST", "/v1/videos/lookup", body: try ReelworkJSON.encoder.encode(VideoLookupRequest(hashes: hashes, club: club)))
    }

    public func video(_ id: UUID) async throws -> VideoView {
        try await get("/v1/videos/\(id.uuidString.lowercased())")
    }

    // MARK: jobs

    /// Creates a job; with `idempotencyKey`, a repeat returns the job the first call created.
    public func createJob(_ body: CreateJobRequest, idempotencyKey: String? = nil) async throws -> JobView {
        try await send("POST", "/v1/jobs", body: try ReelworkJSON.encoder.encode(body),
                       headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
    }

    public func job(_ id: UUID) async throws -> JobView {
        try await get("/v1/jobs/\(id.uuidString.lowercased())")
    }

    /// Jobs, newest first; with `batch`, that batch's only.
    public func jobs(status: String? = nil, sport: String? = nil, club: String? = nil, limit: Int? = nil, cursor: String? = nil,
                     idPrefix: String? = nil, batch: UUID? = nil) async throws -> JobPage {
        var query = Self.page(limit: limit, cursor: cursor)
        query["status"] = status
        query["sport"] = sport
        query["club"] = club
        query["idPrefix"] = idPrefix
        return try await get(batch.map { "/v1/batches/\($0.uuidString.lowercased())/jobs" } ?? "/v1/jobs", query: query)
    }

    /// `options`: merged into the job's options (JSON Merge Patch) before it runs again.
    public func retry(_ id: UUID, options: JSONValue? = nil) async throws -> JobView {
        let body = try options.map { try ReelworkJSON.encoder.encode(RetryJobRequest(options: $0)) }
        return try await send("POST", "/v1/jobs/\(id.uuidString.lowercased())/retry", body: body)
    }

    public func cancel(_ id: UUID) async throws -> JobView {
        try await send("POST", "/v1/jobs/\(id.uuidString.lowercased())/cancel", body: nil)
    }

    /// Retries every failed job matching the filter.
    public func retryFailed(_ filter: RetryFilter) async throws -> BulkRetryResult {
        try await send("POST", "/v1/jobs/retry", body: try ReelworkJSON.encoder.encode(filter))
    }

    // MARK: batches

    /// Creates a batch; with `idempotencyKey`, a repeat returns the batch the first call created.
    public func createBatch(_ body: CreateBatchRequest, idempotencyKey: String? = nil) async throws -> BatchView {
        try await send("POST", "/v1/batches", body: try ReelworkJSON.encoder.encode(body),
                       headers: idempotencyKey.map { ["Idempotency-Key": $0] } ?? [:])
    }

    public func batch(_ id: UUID) async throws -> BatchView {
        try await get("/v1/batches/\(id.uuidString.lowercased())")
    }

    public func batches(limit: Int? = nil, cursor: String? = nil, idPrefix: String? = nil) async throws -> BatchPage {
        var query = Self.page(limit: limit, cursor: cursor)
        query["idPrefix"] = idPrefix
        return try await get("/v1/batches", query: query)
    }

    /// One job per video in the batch (jobs it already has are returned, not made again).
    public func addBatchJobs(_ batch: UUID, _ body: AddBatchJobsRequest) async throws -> AddBatchJobsResult {
        try await send("POST", "/v1/batches/\(batch.uuidString.lowercased())/jobs", body: try ReelworkJSON.encoder.encode(body))
    }

    public func batchJobs(_ batch: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> JobPage {
        try await jobs(limit: limit, cursor: cursor, batch: batch)
    }

    public func retryBatch(_ batch: UUID) async throws -> BulkRetryResult {
        try await send("POST", "/v1/batches/\(batch.uuidString.lowercased())/retry", body: nil)
    }

    public func cancelBatch(_ batch: UUID) async throws -> BatchView {
        try await send("POST", "/v1/batches/\(batch.uuidString.lowercased())/cancel", body: nil)
    }

    // MARK: webhooks

    /// Registers an endpoint; the answer holds its signing secret, shown this once.
    public func createWebhook(_ body: CreateWebhookRequest) async throws -> WebhookSecretView {
        try await send("POST", "/v1/webhooks", body: try ReelworkJSON.encoder.encode(body))
    }

    public func webhooks(club: String? = nil, limit: Int? = nil, cursor: String? = nil) async throws -> WebhookEndpointPage {
        var query: [String: String] = [:]
        query["club"] = club
        query["limit"] = limit.map(String.init)
        query["cursor"] = cursor
        return try await get("/v1/webhooks", query: query)
    }

    public func webhook(_ id: UUID) async throws -> WebhookEndpointRecord {
        try await get("/v1/webhooks/\(id.uuidString.lowercased())")
    }

    public func deleteWebhook(_ id: UUID) async throws {
        let (data, status) = try await exchange(request("DELETE", url("/v1/webhooks/\(id.uuidString.lowercased())")))
        try checkStatus(data: data, status: status)
    }

    /// A new signing secret; the old one keeps signing for the coordinator's grace period.
    public func rotateWebhookSecret(_ id: UUID) async throws -> WebhookSecretView {
        try await send("POST", "/v1/webhooks/\(id.uuidString.lowercased())/rotate", body: nil)
    }

    public func webhookDeliveries(_ id: UUID, limit: Int? = nil, cursor: String? = nil) async throws -> WebhookDeliveryPage {
        var query: [String: String] = [:]
        query["limit"] = limit.map(String.init)
        query["cursor"] = cursor
        return try await get("/v1/webhooks/\(id.uuidString.lowercased())/deliveries", query: query)
    }

    /// Sends a finished delivery again (the same `webhook-id`).
    /// Sends a finished delivery again; with `now`, a pending one's next attempt at once.
    public func redeliverWebhook(_ id: UUID, delivery: String, now: Bool = false) async throws -> WebhookDeliveryRecord {
        let encoded = delivery.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "_-"))) ?? delivery
        return try await send("POST", "/v1/webhooks/\(id.uuidString.lowercased())/deliveries/\(encoded)/redeliver", query: now ? ["now": "true"] : [:],
                              body: nil)
    }

    public func queueStats() async throws -> QueueStatsView {
        try await get("/v1/queue")
    }

    // For the extensions in other files (`get` and `send` stay private).
    func queueGet<T: Decodable>(_ path: String) async throws -> T { try await get(path) }
    func queuePost<T: Decodable>(_ path: String) async throws -> T { try await send("POST", path, body: nil) }

    public func results(_ id: UUID) async throws -> AnalysisDocument {
        try await get("/v1/jobs/\(id.uuidString.lowercased())/results")
    }

    /// The job's bowling shots, tennis swings or archery arrows as CSV (`GET /v1/jobs/{id}/results?format=csv`).
    public func resultsCSV(_ id: UUID) async throws -> String {
        try await csv("/v1/jobs/\(id.uuidString.lowercased())/results")
    }

    /// Where a job's confirmed versions are made: an archery end's arrows, another sport's rows.
    public enum Confirmations: String, Sendable {
        /// `/v1/jobs/{id}/arrows`: `{"corrections": [{"op": "move", "index": 0, "x": …, "y": …}, …]}`.
        case arrows
        /// `/v1/jobs/{id}/corrections`: `{"corrections": [{"op": "made", "index": 2, "made": true}, …]}`.
        case corrections
    }

    /// A job's result confirmed with corrections (POST, the body as given): the new confirmed version.
    public func confirm(_ id: UUID, _ route: Confirmations, body: Data) async throws -> JSONValue {
        try await send("POST", "/v1/jobs/\(id.uuidString.lowercased())/\(route.rawValue)", body: body, headers: ["Content-Type": "application/json"])
    }

    /// A job's newest confirmed version (GET).
    public func confirmed(_ id: UUID, _ route: Confirmations) async throws -> JSONValue {
        try await get("/v1/jobs/\(id.uuidString.lowercased())/\(route.rawValue)")
    }

    /// A job's newest confirmed version, one CSV row per arrow, shot or swing (`?format=csv`).
    public func confirmedCSV(_ id: UUID, _ route: Confirmations) async throws -> String {
        try await csv("/v1/jobs/\(id.uuidString.lowercased())/\(route.rawValue)")
    }

    /// An archery job's end confirmed with corrections (`POST /v1/jobs/{id}/arrows`).
    public func confirmArrows(_ id: UUID, body: Data) async throws -> JSONValue { try await confirm(id, .arrows, body: body) }

    /// An archery job's newest confirmed end, one CSV row per arrow (`GET /v1/jobs/{id}/arrows?format=csv`).
    public func confirmedArrowsCSV(_ id: UUID) async throws -> String { try await confirmedCSV(id, .arrows) }

    /// `path?format=csv` as text.
    /// A season's results as one CSV (`GET /v1/results.csv`): every succeeded job of `batch`, or of
    /// `sport` (with `club`, `from`, `to` narrowing it), one row per shot, swing or arrow.
    public func seasonCSV(batch: UUID? = nil, sport: String? = nil, club: String? = nil, from: Date? = nil, to: Date? = nil) async throws -> String {
        var query: [String: String] = [:]
        query["batch"] = batch?.uuidString.lowercased()
        query["sport"] = sport
        query["club"] = club
        query["from"] = from.map(ReelworkJSON.formatDate)
        query["to"] = to.map(ReelworkJSON.formatDate)
        return try await csv("/v1/results.csv", query: query)
    }

    private func csv(_ path: String, query: [String: String] = ["format": "csv"]) async throws -> String {
        let (data, status) = try await exchange(request("GET", url(path, query: query)))
        try checkStatus(data: data, status: status)
        return String(decoding: data, as: UTF8.self)
    }

    /// A succeeded job's result drawn over frames of its video, as PNG (`GET /v1/jobs/{id}/picture`).
    public func picture(_ id: UUID) async throws -> Data {
        try await bytes("/v1/jobs/\(id.uuidString.lowercased())/picture")
    }

    /// A succeeded job's session report, as PDF (`GET /v1/jobs/{id}/report.pdf`).
    public func report(_ id: UUID) async throws -> Data {
        try await bytes("/v1/jobs/\(id.uuidString.lowercased())/report.pdf")
    }

    /// A batch's report, as PDF (`GET /v1/batches/{id}/report.pdf`).
    public func batchReport(_ id: UUID) async throws -> Data {
        try await bytes("/v1/batches/\(id.uuidString.lowercased())/report.pdf")
    }

    /// The body of a GET as it comes (pictures, PDFs); an error answer throws like every call.
    private func bytes(_ path: String) async throws -> Data {
        let (data, status) = try await exchange(request("GET", url(path)))
        try checkStatus(data: data, status: status)
        return data
    }

    public func health() async throws -> HealthView {
        try await get("/healthz")
    }

    // MARK: plumbing

    /// The query of one page of a list: its size and where the previous page ended.
    static func page(limit: Int?, cursor: String?) -> [String: String] {
        var query: [String: String] = [:]
        query["limit"] = limit.map(String.init)
        query["cursor"] = cursor
        return query
    }

    func url(_ path: String, query: [String: String] = [:]) -> URL {
        var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        components.path = (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + path
        if !query.isEmpty {
            components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        }
        return components.url!
    }

    /// A request carrying the key.
    func request(_ method: String, _ url: URL) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let apiKey { request.setValue("Bearer \(apiKey)", forHTTPHeaderField: "Authorization") }
        return request
    }

    func get<T: Decodable>(_ path: String, query: [String: String] = [:]) async throws -> T {
        try await perform(request("GET", url(path, query: query)))
    }

    func send<T: Decodable>(_ method: String, _ path: String, query: [String: String] = [:], body: Data?,
                                    headers: [String: String] = [:]) async throws -> T {
        var request = request(method, url(path, query: query))
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try await perform(request)
    }

    private func perform<T: Decodable>(_ request: URLRequest) async throws -> T {
        let (data, status) = try await exchange(request)
        return try decode(T.self, data: data, status: status)
    }

    func exchange(_ request: URLRequest) async throws -> (Data, Int) {
        if let transport { return try await transport(request) }
        return try await withCheckedThrowingContinuation { continuation in
            URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: ClientError.unreachable(
                        "cannot reach the coordinator at \(self.baseURL.absoluteString): \(error.localizedDescription)"))
                    return
                }
                continuation.resume(returning: (data ?? Data(), (response as? HTTPURLResponse)?.statusCode ?? 0))
            }.resume()
        }
    }

    func decode<T: Decodable>(_ type: T.Type, data: Data, status: Int) throws -> T {
        try checkStatus(data: data, status: status)
        do {
            return try ReelworkJSON.decoder.decode(T.self, from: data)
        } catch {
            throw ClientError.badResponse("unexpected answer from the coordinator: \(error)")
        }
    }

    /// Throws the API's error for a non-2xx answer.
    func checkStatus(data: Data, status: Int) throws {
        guard (200..<300).contains(status) else {
            if let body = try? ReelworkJSON.decoder.decode(APIErrorBody.self, from: data) {
                throw ClientError.api(status: status, code: body.error.code, message: body.error.message)
            }
            throw ClientError.badResponse("HTTP \(status) from \(baseURL.absoluteString): \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
    }
}
