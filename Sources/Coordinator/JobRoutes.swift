import Foundation
import Hummingbird
import Queue
import ReelworkCore
import Store

/// `POST /v1/jobs`, `GET /v1/jobs`, `GET /v1/jobs/{id}`, `POST /v1/jobs/{id}/retry`, `GET /v1/jobs/{id}/results`.
struct JobRoutes {
    let backends: Backends

    static let defaultClub = "default"
    static let defaultPageSize = 50
    static let maxPageSize = 500

    func register(on router: Router<BasicRequestContext>) {
        router.post("/v1/jobs") { request, _ in try await create(request) }
        router.get("/v1/jobs") { request, _ in try await list(request) }
        router.get("/v1/jobs/:id") { _, context in try JSONResponse.make(try await job(RouteParams.uuid(context, "id"))) }
        router.post("/v1/jobs/:id/retry") { _, context in try await retry(RouteParams.uuid(context, "id")) }
        router.get("/v1/jobs/:id/results") { _, context in try await results(RouteParams.uuid(context, "id")) }
    }

    /// Records the job in PostgreSQL, then enqueues it. If Redis refuses, the job row is removed again
    /// and the client gets 503, so no job exists that nothing will run.
    func create(_ request: Request) async throws -> Response {
        let body = try await JSONResponse.decode(CreateJobRequest.self, from: request)
        let sport: Sport
        do { sport = try Sport.parse(body.sport) } catch let error as ReelworkError {
            throw APIError(.badRequest, "unknown_sport", error.message)
        }
        let club = try Self.validClub(body.club ?? Self.defaultClub)
        let options = body.options ?? .emptyObject
        guard case .object = options else {
            throw APIError(.badRequest, "invalid_options", "'options' must be a JSON object")
        }
        let maxAttempts = body.maxAttempts ?? backends.config.maxAttempts
        guard (1...10).contains(maxAttempts) else {
            throw APIError(.badRequest, "invalid_request", "'maxAttempts' must be between 1 and 10")
        }
        let job: JobView = try await backends.sql { db in
            guard try VideoRepository(db).find(id: body.videoId) != nil else {
                throw APIError(.notFound, "video_not_found", "no video with id \(body.videoId.uuidString.lowercased()); upload it first")
            }
            return try JobRepository(db).create(videoId: body.videoId, club: club, sport: sport, options: options, maxAttempts: maxAttempts)
        }
        do {
            let queue = backends.queue
            try await backends.redis { try queue.enqueue(job.id, on: $0) }
        } catch {
            try? await backends.sql { try JobRepository($0).deleteUnstarted(id: job.id) }
            throw APIError(.serviceUnavailable, "queue_unavailable", "the job queue is unavailable, nothing was created: \(error)")
        }
        return try JSONResponse.make(job, status: .created)
    }

    func job(_ id: UUID) async throws -> JobView {
        guard let job = try await backends.sql({ try JobRepository($0).find(id: id) }) else {
            throw APIError(.notFound, "job_not_found", "no job with id \(id.uuidString.lowercased())")
        }
        return job
    }

    func list(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        var filter = JobFilter()
        if let status = query.get("status") {
            guard let s = JobStatus(rawValue: status) else {
                throw APIError(.badRequest, "invalid_request",
                               "unknown status '\(status)'; expected one of: \(JobStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            filter.status = s
        }
        if let sport = query.get("sport") {
            do { filter.sport = try Sport.parse(sport) } catch let error as ReelworkError {
                throw APIError(.badRequest, "unknown_sport", error.message)
            }
        }
        if let club = query.get("club") { filter.club = club }
        var limit = Self.defaultPageSize
        if let text = query.get("limit") {
            guard let l = Int(text), (1...Self.maxPageSize).contains(l) else {
                throw APIError(.badRequest, "invalid_request", "'limit' must be between 1 and \(Self.maxPageSize)")
            }
            limit = l
        }
        var cursor: UUID?
        if let text = query.get("cursor") {
            guard let c = UUID(uuidString: text) else { throw APIError(.badRequest, "invalid_request", "'cursor' is not a job id") }
            cursor = c
        }
        let page = try await backends.sql { [filter, limit, cursor] in try JobRepository($0).list(filter, limit: limit, cursor: cursor) }
        return try JSONResponse.make(page)
    }

    /// Gives a failed or cancelled job a fresh budget of attempts and enqueues it.
    func retry(_ id: UUID) async throws -> Response {
        let attempts = backends.config.maxAttempts
        let job: JobView
        do {
            guard let j = try await backends.sql({ try JobRepository($0).requeueForRetry(id: id, attempts: attempts) }) else {
                throw APIError(.notFound, "job_not_found", "no job with id \(id.uuidString.lowercased())")
            }
            job = j
        } catch let error as ReelworkError {
            throw APIError(.conflict, "not_retryable", error.message)
        }
        let queue = backends.queue
        try await backends.redis { try queue.enqueue(id, on: $0) }
        return try JSONResponse.make(job)
    }

    func results(_ id: UUID) async throws -> Response {
        let job = try await job(id)
        guard job.status == .succeeded, let document = try await backends.sql({ try JobRepository($0).result(jobId: id) }) else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); results exist once it has succeeded")
        }
        return try JSONResponse.make(document)
    }

    /// Club names are plain labels until API keys arrive: short, printable, no surprises in URLs.
    static func validClub(_ club: String) throws -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " _.-"))
        guard !club.isEmpty, club.count <= 100, club.unicodeScalars.allSatisfy(allowed.contains) else {
            throw APIError(.badRequest, "invalid_club", "club '\(club)' must be 1–100 letters, digits, spaces, '_', '.' or '-'")
        }
        return club
    }
}
