import Foundation
import Hummingbird
import Logging
import Queue
import ReelworkCore
import Sports
import Store

/// `POST /v1/batches`, `GET /v1/batches`, `GET /v1/batches/{id}`, `GET /v1/batches/{id}/jobs`,
/// `POST /v1/batches/{id}/jobs`, `POST /v1/batches/{id}/retry`, `POST /v1/batches/{id}/cancel`.
/// A batch is one club's; another club's batch id answers as a missing one.
struct BatchRoutes {
    let backends: Backends
    let jobs: JobRoutes

    func register(on api: APIRouter) {
        api.post("/v1/batches", .clubData) { request, _, caller in try await create(request, caller) }
        api.get("/v1/batches", .clubData) { request, _, caller in try await list(request, caller) }
        api.get("/v1/batches/:id", .clubData) { _, context, caller in
            try JSONResponse.make(try await batch(RouteParams.uuid(context, "id"), caller))
        }
        api.get("/v1/batches/:id/jobs", .clubData) { request, context, caller in
            let batch = try await batch(RouteParams.uuid(context, "id"), caller)
            return try await jobs.list(request, caller, batchId: batch.id)
        }
        api.post("/v1/batches/:id/jobs", .clubData) { request, context, caller in
            try await addJobs(request, try await batch(RouteParams.uuid(context, "id"), caller))
        }
        api.post("/v1/batches/:id/retry", .clubData) { _, context, caller in
            let batch = try await batch(RouteParams.uuid(context, "id"), caller)
            let entries = try await backends.sql { try JobRepository($0).requeueFailed(club: nil, sport: nil, errorKind: nil, since: nil,
                                                                                        until: nil, batchId: batch.id) }
            try await jobs.enqueue(entries)
            return try JSONResponse.make(BulkRetryResult(retried: entries.map(\.jobId)))
        }
        api.post("/v1/batches/:id/cancel", .clubData) { _, context, caller in
            try await cancel(try await batch(RouteParams.uuid(context, "id"), caller), caller)
        }
    }

    func batch(_ id: UUID, _ caller: Caller) async throws -> BatchView {
        try await backends.visible("batch", id: id, code: "batch_not_found", to: caller) { try BatchRepository($0).find(id: id, club: $1) }
    }

    /// Records a batch for the caller's club; the same `Idempotency-Key` returns the first one (200).
    func create(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONResponse.decode(CreateBatchRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let sport = try JobRoutes.checkedSport(body.sport)
        let club = try caller.owningClub(requested: body.club, defaultClub: JobRoutes.defaultClub)
        let options = try JobRoutes.checkedOptions(body.options, sport: sport, diagnostics: backends.config.diagnostics)
        _ = try ClientText.label(body.label)
        let key = try JobRoutes.idempotencyKey(request)
        let (batch, created) = try await backends.sql {
            try BatchRepository($0).create(NewBatch(club: club, sport: sport, options: options, label: body.label, dedupeKey: key))
        }
        return try JSONResponse.make(batch, status: created ? .created : .ok)
    }

    func list(_ request: Request, _ caller: Caller) async throws -> Response {
        let (limit, cursor) = try jobs.page(request, of: "batch")
        let club = caller.visibleClub, prefix = try JobRoutes.idPrefix(request)
        return try JSONResponse.make(try await backends.sql { try BatchRepository($0).list(club: club, limit: limit, cursor: cursor, idPrefix: prefix) })
    }

    /// One job per video, with the batch's sport and options, created in one statement and
    /// enqueued in one script call per slice. Repeating the request (a resumed `submit`) finds
    /// the same jobs and creates none.
    func addJobs(_ request: Request, _ batch: BatchView) async throws -> Response {
        let body = try await JSONResponse.decode(AddBatchJobsRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        guard !body.videoIds.isEmpty else { throw APIError(.badRequest, "invalid_request", "'videoIds' is empty") }
        guard body.videoIds.count <= AddBatchJobsRequest.maxVideoIds else {
            throw APIError(.badRequest, "invalid_request",
                           "'videoIds' has \(body.videoIds.count) entries; at most \(AddBatchJobsRequest.maxVideoIds) per request (send the rest in further requests)")
        }
        if let names = body.fileNames {
            guard names.count == body.videoIds.count else {
                throw APIError(.badRequest, "invalid_request",
                               "'fileNames' has \(names.count) entries and 'videoIds' \(body.videoIds.count): give one name per video, in the same order")
            }
            for (index, name) in names.enumerated() { _ = try ClientText.fileName(name, field: "fileNames[\(index)]") }
        }
        let entries = body.videoIds.indices.map { (videoId: body.videoIds[$0], fileName: body.fileNames?[$0]) }
        var seen = Set<String>()
        if let duplicate = entries.first(where: { !seen.insert("\($0.videoId)/\($0.fileName ?? "")").inserted }) {
            throw APIError(.badRequest, "invalid_request",
                           "video \(duplicate.videoId.uuidString.lowercased())\(duplicate.fileName.map { " named '\($0)'" } ?? "") is given twice")
        }
        let maxAttempts = try JobRoutes.checkedMaxAttempts(body.maxAttempts, default: backends.config.maxAttempts)
        let priority = try JobRoutes.checkedPriority(body.priority)
        guard let sport = SportRegistry.sport(named: batch.sport) else {
            throw APIError(.conflict, "conflict", "batch \(batch.id.uuidString.lowercased()) has sport '\(batch.sport)', which this version does not know")
        }
        let maxWaiting = backends.config.clubLimits.maxWaitingJobsPerClub
        let (jobIds, created): ([UUID], [QueueEntry]) = try await backends.sql { db in
            let repository = BatchRepository(db)
            let hashes = try repository.videoHashes(body.videoIds, club: batch.club)
            let specs = try entries.map { entry in
                guard let hash = hashes[entry.videoId] else {
                    throw APIError(.notFound, "video_not_found",
                                   "no video with id \(entry.videoId.uuidString.lowercased()); upload it first (nothing was created)")
                }
                let key = "batch:\(batch.id.uuidString.lowercased()):"
                    + JobRoutes.contentKey(videoHash: hash, sport: sport, options: batch.options, fileName: entry.fileName)
                return BatchJobSpec(videoId: entry.videoId, dedupeKey: key, fileName: entry.fileName)
            }
            do {
                return try repository.addJobs(to: batch, specs, maxAttempts: maxAttempts, priority: priority.rawValue, maxWaiting: maxWaiting)
            } catch let quota as ClubQuotaExceeded {
                throw APIError(.tooManyRequests, "quota_exceeded", quota.description)
            }
        }
        do {
            try await jobs.enqueue(created)
        } catch {
            // PostgreSQL says queued: the reconciler enqueues them once Redis is back.
            backends.logger.warning("batch \(batch.id.uuidString.lowercased()): \(created.count) new job(s) not enqueued yet (\(error)); the reconciler will")
        }
        return try JSONResponse.make(AddBatchJobsResult(jobIds: jobIds, created: created.count), status: created.isEmpty ? .ok : .created)
    }

    /// Cancels every waiting job of the batch at once and asks running ones to stop.
    func cancel(_ batch: BatchView, _ caller: Caller) async throws -> Response {
        let by = Cancel.by(club: caller.visibleClub)
        let (cancelled, requested) = try await backends.sql { try BatchRepository($0).cancel(batchId: batch.id, by: by) }
        // Running jobs' workers publish their own cancels when they stop.
        await backends.publish(cancelled.map { JobEvent(type: .jobCancelled, jobId: $0, batchId: batch.id, club: batch.club, sport: batch.sport) })
        let queue = backends.queue
        try await backends.redis { redis in
            for id in cancelled + requested { _ = try queue.cancel(id, on: redis) }
        }
        return try JSONResponse.make(try await self.batch(batch.id, caller), status: .accepted)
    }
}
