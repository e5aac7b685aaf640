import Foundation
import Hummingbird
import Logging
import Media
import NIOCore
import Queue
import ReelworkCore
import SportKit
import Sports
import Store

/// `POST /v1/jobs`, `GET /v1/jobs`, `GET /v1/jobs/{id}`, `POST /v1/jobs/{id}/retry`, `GET /v1/jobs/{id}/results`
/// (a job's corrections: `CorrectionRoutes`, or its sport's own route, `ConfirmationRoutes`).
struct JobRoutes {
    let backends: Backends

    static let defaultClub = "default"
    static let defaultPageSize = 50

    func register(on api: APIRouter) {
        api.post("/v1/jobs", .clubData) { request, _, caller in try await create(request, caller) }
        api.get("/v1/jobs", .clubData) { request, _, caller in try await list(request, caller) }
        api.get("/v1/jobs/:id", .clubData) { _, context, caller in
            try JSONResponse.make(await markingPaused([try await job(RouteParams.uuid(context, "id"), caller)])[0])
        }
        api.post("/v1/jobs/:id/retry", .clubData) { request, context, caller in
            let id = try RouteParams.uuid(context, "id")
            let body = try await JSONResponse.decodeIfPresent(RetryJobRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
            return try await retry(id, caller, optionsPatch: body?.options)
        }
        api.post("/v1/jobs/retry", .clubData) { request, _, caller in try await retryMatching(request, caller) }
        api.post("/v1/jobs/:id/cancel", .clubData) { _, context, caller in try await cancel(RouteParams.uuid(context, "id"), caller) }
        // Every club's counts: the pool's state is the operators' to see.
        api.get("/v1/queue", .operatorOnly) { _, _, _ in
            let queue = backends.queue
            let (stats, pause) = try await backends.redis { (try queue.stats(on: $0), try queue.pauseState(on: $0)) }
            return try JSONResponse.make(QueueStatsView(ready: stats.ready, delayed: stats.delayed, running: stats.running,
                                                        runningByClub: stats.runningByClub, paused: pause.all, pausedClubs: pause.clubs))
        }
        api.get("/v1/jobs/:id/results", .clubData) { request, context, caller in
            try await results(RouteParams.uuid(context, "id"), caller, format: request.uri.queryParameters.get("format"))
        }
    }

    /// Records the job in PostgreSQL, then enqueues it. If Redis refuses, the job row is removed again
    /// and the client gets 503, so no job exists that nothing will run. A repeat (same
    /// `Idempotency-Key`, or by default the same video, sport, options and pipeline version in the same
    /// club) returns the existing job with 200 instead of creating a duplicate. The job's club is
    /// the key's (an operator names one); a club over its waiting-jobs quota gets 429.
    func create(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONResponse.decode(CreateJobRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let sport = try Self.checkedSport(body.sport)
        let club = try caller.owningClub(requested: body.club, defaultClub: Self.defaultClub)
        let options = try Self.checkedOptions(body.options, sport: sport, diagnostics: backends.config.diagnostics)
        let maxAttempts = try Self.checkedMaxAttempts(body.maxAttempts, default: backends.config.maxAttempts)
        let priority = try Self.checkedPriority(body.priority)
        let idempotencyKey = try Self.idempotencyKey(request)
        let givenName = try ClientText.fileName(body.fileName)
        let label = try ClientText.label(body.label)
        let maxWaiting = backends.config.clubLimits.maxWaitingJobsPerClub
        let visibleClub = caller.visibleClub
        let (job, created): (JobView, Bool) = try await backends.sql { db in
            var batchLabel: String?
            if let batchId = body.batchId {
                guard let batch = try BatchRepository(db).find(id: batchId, club: visibleClub), batch.club == club else {
                    throw APIError(.notFound, "batch_not_found", "no batch with id \(batchId.uuidString.lowercased()) in club \(club)")
                }
                guard batch.sport == sport.rawValue else {
                    throw APIError(.badRequest, "invalid_request", "batch \(batchId.uuidString.lowercased()) is for \(batch.sport), not \(sport.rawValue)")
                }
                batchLabel = batch.label
            }
            // A club key uses its own videos (another club's id reads as a missing one); an operator
            // may use any, and the job's club then gets its own record of those bytes.
            let videos = VideoRepository(db)
            guard let video = caller.visibleClub == nil ? try videos.record(sameBytesAs: body.videoId, for: club)
                                                        : try videos.find(id: body.videoId, club: club)?.video else {
                throw APIError(.notFound, "video_not_found", "no video with id \(body.videoId.uuidString.lowercased()); upload it first")
            }
            if options["noop"] == nil { try JobOptionsCheck.check(options, sport: sport, video: video.facts) }
            let dedupeKey = idempotencyKey.map { "key:" + $0 }
                ?? "auto:" + Self.contentKey(videoHash: video.contentHash, sport: sport, options: options, fileName: givenName)
            do {
                return try JobRepository(db).create(NewJob(videoId: video.id, club: club, sport: sport, options: options,
                                                           maxAttempts: maxAttempts, priority: priority.rawValue, dedupeKey: dedupeKey,
                                                           batchId: body.batchId, fileName: givenName ?? video.originalName,
                                                           label: label ?? batchLabel),
                                                    maxWaiting: maxWaiting)
            } catch let quota as ClubQuotaExceeded {
                throw APIError(.tooManyRequests, "quota_exceeded", quota.description)
            }
        }
        guard created else { return try JSONResponse.make(job, status: .ok) }
        do {
            let queue = backends.queue
            _ = try await backends.redis { try queue.enqueue(job.id, club: club, priority: priority, on: $0) }
        } catch {
            try? await backends.sql { try JobRepository($0).deleteUnstarted(id: job.id) }
            backends.logger.warning("job \(job.id) not created, the queue refused it: \(error)")
            throw APIError.unavailable("queue_unavailable", "the job queue cannot take the job, nothing was created", error)
        }
        await backends.publish([JobEvent(type: .jobQueued, jobId: job.id, batchId: job.batchId, club: job.club, sport: job.sport,
                                         attempt: job.attempt)])
        return try JSONResponse.make(job, status: .created)
    }

    /// What a job computes, and under which name: the same key means the same request, so a
    /// repeat is a duplicate, while a copy of the clip under another name is a job of its own.
    static func contentKey(videoHash: String, sport: Sport, options: JSONValue, fileName: String? = nil) -> String {
        let hasher = ContentHasher()
        hasher.update(Array("\(videoHash)|\(sport.rawValue)|\(options.jsonString())|\(PipelineVersion.current)".utf8))
        // Appended only when given, so requests without a name keep the keys they always had.
        if let fileName { hasher.update(Array("|name:\(fileName)".utf8)) }
        return hasher.finalize()
    }

    func job(_ id: UUID, _ caller: Caller) async throws -> JobView {
        try await backends.visible("job", id: id, code: "job_not_found", to: caller) { try JobRepository($0).find(id: id, club: $1) }
    }

    static func checkedSport(_ name: String) throws -> Sport {
        do { return try Sport.parse(name) } catch let error as ReelworkError {
            throw APIError(.badRequest, "unknown_sport", error.message)
        }
    }

    /// The job options a request may store: an object the sport's parser accepts.
    static func checkedOptions(_ given: JSONValue?, sport: Sport, diagnostics: Bool) throws -> JSONValue {
        let options = given ?? .emptyObject
        guard case .object = options else {
            throw APIError(.badRequest, "invalid_options", "'options' must be a JSON object")
        }
        try JobOptionsCheck.check(options, sport: sport, diagnostics: diagnostics)
        return options
    }

    static func checkedMaxAttempts(_ given: Int?, default fallback: Int) throws -> Int {
        let maxAttempts = given ?? fallback
        guard (1...10).contains(maxAttempts) else {
            throw APIError(.badRequest, "invalid_request", "'maxAttempts' must be between 1 and 10")
        }
        return maxAttempts
    }

    static func checkedPriority(_ given: String?) throws -> Priority {
        guard let priority = Priority(rawValue: given ?? "normal") else {
            throw APIError(.badRequest, "invalid_request", "'priority' must be one of: high, normal, low")
        }
        return priority
    }

    /// The request's `Idempotency-Key`, if it sent one: a repeat with the same key gets the first answer's record.
    static func idempotencyKey(_ request: Request) throws -> String? {
        let key = request.headers[.init("Idempotency-Key")!]
        if let key, key.isEmpty || key.count > 200 {
            throw APIError(.badRequest, "invalid_request", "Idempotency-Key must be 1–200 characters")
        }
        return key
    }

    /// `limit` and `cursor` of a list of `items` (jobs, batches).
    func page(_ request: Request, of items: String = "job") throws -> (limit: Int, cursor: UUID?) {
        let query = request.uri.queryParameters
        let maxPageSize = backends.config.limits.maxPageSize
        var limit = min(Self.defaultPageSize, maxPageSize)
        if let text = query.get("limit") {
            guard let l = Int(text), (1...maxPageSize).contains(l) else {
                throw APIError(.badRequest, "invalid_request", "'limit' must be a whole number from 1 to \(maxPageSize)")
            }
            limit = l
        }
        var cursor: UUID?
        if let text = query.get("cursor") {
            guard let c = UUID(uuidString: text) else { throw APIError(.badRequest, "invalid_request", "'cursor' is not a \(items) id") }
            cursor = c
        }
        return (limit, cursor)
    }

    /// `idPrefix`, when given: the start of an id (4 to 32 hex digits).
    static func idPrefix(_ request: Request) throws -> IDPrefix? {
        guard let text = request.uri.queryParameters.get("idPrefix") else { return nil }
        guard let prefix = IDPrefix(text) else {
            throw APIError(.badRequest, "invalid_request", "'idPrefix' must be the start of an id: 4 to 32 hex digits, not '\(text.prefix(64))'")
        }
        return prefix
    }

    func list(_ request: Request, _ caller: Caller, batchId: UUID? = nil) async throws -> Response {
        let query = request.uri.queryParameters
        var filter = JobFilter(batchId: batchId)
        if let status = query.get("status") {
            guard let s = JobStatus.filter(status) else {
                throw APIError(.badRequest, "invalid_request",
                               "unknown status '\(status.prefix(64))'; expected one of: \(JobStatus.filterNames.joined(separator: ", "))")
            }
            filter.status = s
        }
        if let sport = query.get("sport") {
            do { filter.sport = try Sport.parse(sport) } catch let error as ReelworkError {
                throw APIError(.badRequest, "unknown_sport", error.message)
            }
        }
        if let club = query.get("club") { filter.club = try Self.validClub(club) }
        filter.idPrefix = try Self.idPrefix(request)
        // A club key lists its own club's jobs; naming another club finds nothing, as if it had none.
        if let own = caller.visibleClub {
            if let named = filter.club, named != own {
                return try JSONResponse.make(JobPage(jobs: [], nextCursor: nil))
            }
            filter.club = own
        }
        let (limit, cursor) = try page(request)
        var page = try await backends.sql { [filter, limit, cursor] in try JobRepository($0).list(filter, limit: limit, cursor: cursor) }
        page.jobs = await markingPaused(page.jobs)
        return try JSONResponse.make(page)
    }

    /// `jobs` with `paused` set on the waiting ones an operator's pause holds (their club's, or
    /// the whole queue's), so they do not read as merely queued beside an older attempt's error.
    /// With Redis out of reach the flag is left out: the job itself is read from PostgreSQL.
    func markingPaused(_ jobs: [JobView]) async -> [JobView] {
        guard jobs.contains(where: { JobStatus.waiting.contains($0.status) }) else { return jobs }
        let queue = backends.queue
        guard let pause = try? await backends.redis({ try queue.pauseState(on: $0) }) else { return jobs }
        return jobs.map { job in
            var job = job
            if JobStatus.waiting.contains(job.status) { job.paused = pause.all || pause.clubs.contains(job.club) }
            return job
        }
    }

    /// Gives a failed or cancelled job a fresh budget of attempts and enqueues it. A body's
    /// `options` are merged into the job's and checked as at creation; the job keeps its dedupe
    /// key, so repeating the request that created it finds it, now with the corrected options.
    func retry(_ id: UUID, _ caller: Caller, optionsPatch: JSONValue? = nil) async throws -> Response {
        var options: JSONValue?
        if let patch = optionsPatch {
            guard case .object = patch else { throw APIError(.badRequest, "invalid_options", "'options' must be a JSON object") }
            options = try await optionsForRetry(id, patch: patch, caller)
        }
        let entry: QueueEntry
        let club = caller.visibleClub
        do {
            guard let e = try await backends.sql({ [options] in try JobRepository($0).requeueForRetry(id: id, club: club, options: options) }) else {
                throw APIError(.notFound, "job_not_found", "no job with id \(id.uuidString.lowercased())")
            }
            entry = e
        } catch let error as ReelworkError {
            throw APIError(.conflict, "not_retryable", error.message)
        }
        // The job as the retry left it (queued, its last attempt's number), read before Redis has
        // it: a worker may claim it at once, and "attempt N is next" must not count that claim.
        let requeued = try await job(id, caller)
        try await enqueue([entry])
        return try JSONResponse.make(requeued)
    }

    /// The job's options with `patch` merged in, checked with the sport's parser and against the
    /// video's frame as a new job's are (400 `invalid_options`, 422 `needs_person`).
    private func optionsForRetry(_ id: UUID, patch: JSONValue, _ caller: Caller) async throws -> JSONValue {
        let existing = try await job(id, caller)
        guard let sport = SportRegistry.sport(named: existing.sport) else {
            throw APIError(.conflict, "not_retryable", "job \(id.uuidString.lowercased()) has sport '\(existing.sport)', which this version does not know")
        }
        let merged = existing.options.merging(patch)
        try JobOptionsCheck.check(merged, sport: sport, diagnostics: backends.config.diagnostics)
        guard merged["noop"] == nil else { return merged }
        let facts = try await backends.sql { try VideoRepository($0).find(id: existing.videoId, club: existing.club)?.video.facts }
        if let facts { try JobOptionsCheck.check(merged, sport: sport, video: facts) }
        return merged
    }

    /// Retries every failed job matching the filter (club, sport, error kind, finished in a time range).
    /// A club key retries its own club's jobs only, whatever the filter says. With `dryRun`, counts
    /// them instead (`matched`) and changes nothing.
    func retryMatching(_ request: Request, _ caller: Caller) async throws -> Response {
        var filter = try await JSONResponse.decode(RetryFilter.self, from: request, limit: backends.config.limits.maxJSONBytes)
        if filter.isUnfiltered, filter.all != true {
            throw APIError(.badRequest, "invalid_request",
                           "no filter given: this would retry every failed job of every club; narrow it (club, sport, errorKind, since, until) or send \"all\": true")
        }
        for (name, date) in [("since", filter.since), ("until", filter.until)] {
            if let date, !Self.plausibleTimes.contains(date) {
                throw APIError(.badRequest, "invalid_request", "'\(name)' must be a time between 1970 and 9999")
            }
        }
        if let club = filter.club { _ = try Self.validClub(club) }
        let dryRun = filter.dryRun == true ? true : nil
        if let own = caller.visibleClub {
            guard filter.club == nil || filter.club == own else { return try JSONResponse.make(BulkRetryResult(retried: [], dryRun: dryRun)) }
            filter.club = own
        }
        var sport: Sport?
        if let name = filter.sport {
            do { sport = try Sport.parse(name) } catch let error as ReelworkError { throw APIError(.badRequest, "unknown_sport", error.message) }
        }
        if let kind = filter.errorKind, ErrorKind(rawValue: kind) == nil, kind != "stalled" {
            throw APIError(.badRequest, "invalid_request",
                           "unknown errorKind '\(kind)'; expected one of: \((ErrorKind.allCases.map(\.rawValue) + ["stalled"]).joined(separator: ", "))")
        }
        if dryRun == true {
            // What the CLI asks before it retries: the count, nothing changed.
            let matched = try await backends.sql { [filter, sport] in
                try JobRepository($0).countFailed(club: filter.club, sport: sport, errorKind: filter.errorKind, since: filter.since, until: filter.until)
            }
            return try JSONResponse.make(BulkRetryResult(retried: [], matched: matched, dryRun: true))
        }
        let entries = try await backends.sql { [filter, sport] in
            try JobRepository($0).requeueFailed(club: filter.club, sport: sport, errorKind: filter.errorKind, since: filter.since, until: filter.until)
        }
        try await enqueue(entries)
        return try JSONResponse.make(BulkRetryResult(retried: entries.map(\.jobId)))
    }

    /// Cancels a waiting job at once, or asks a running one's worker to stop (it records `cancelled`
    /// within a heartbeat).
    func cancel(_ id: UUID, _ caller: Caller) async throws -> Response {
        let result: JobRepository.CancelResult
        let club = caller.visibleClub
        do {
            guard let r = try await backends.sql({ try JobRepository($0).cancel(id: id, club: club, by: Cancel.by(club: club)) }) else {
                throw APIError(.notFound, "job_not_found", "no job with id \(id.uuidString.lowercased())")
            }
            result = r
        } catch let error as ReelworkError {
            throw APIError(.conflict, "not_cancellable", error.message)
        }
        let queue = backends.queue
        let redisVerdict = try await backends.redis { try queue.cancel(id, on: $0) }
        if result == .requested, redisVerdict != .signalled {
            // Nothing holds its lease any more: the reaper/reconciler will see cancel_requested and close it.
            backends.logger.info("cancel of \(id): running in PostgreSQL but \(redisVerdict) in Redis")
        }
        let view = try await job(id, caller)
        // A running job's worker records (and publishes) its cancel when it stops.
        if result == .cancelled {
            await backends.publish([JobEvent(type: .jobCancelled, jobId: id, batchId: view.batchId, club: view.club, sport: view.sport,
                                             attempt: view.attempt)])
        }
        return try JSONResponse.make(view, status: .accepted)
    }

    /// Puts requeued (or new batch) jobs into Redis, publishing their `job.queued`. PostgreSQL already says `queued`, so if this fails the reconciler
    /// enqueues them later; the error still reaches the caller.
    func enqueue(_ entries: [QueueEntry]) async throws {
        guard !entries.isEmpty else { return }
        await backends.publish(entries.map { JobEvent(type: .jobQueued, jobId: $0.jobId, batchId: $0.batchId, club: $0.club, attempt: $0.attempt) })
        let queue = backends.queue
        let jobs = entries.map { JobQueue.Entry(id: $0.jobId, club: $0.club, priority: Priority(rawValue: $0.priority) ?? .normal, attempt: $0.attempt) }
        _ = try await backends.redis { try queue.enqueue(jobs, on: $0) }
    }

    /// The result document as JSON, or with `format=csv` the sport's typed rows (shots, swings) as
    /// CSV headed by the seeds' field names: a corrected job's confirmed rows (a sport with its own
    /// correction route keeps the detected rows here; archery's confirmed CSV is
    /// `/v1/jobs/{id}/arrows?format=csv`).
    func results(_ id: UUID, _ caller: Caller, format: String?) async throws -> Response {
        let csv = try Self.wantsCSV(format)
        let job = try await job(id, caller)
        let plugin = SportRegistry.plugin(named: job.sport)
        let confirmations: ConfirmationRepository.Table? = if let route = plugin?.confirmationRoute {
            ConfirmationRepository.Table(route.confirmationsTable)
        } else {
            plugin?.corrector == nil ? nil : .results
        }
        guard job.status == .succeeded, let document = try await backends.sql({ db -> AnalysisDocument? in
            // The newest confirmed version (from the sport's own route, or its rows') beside the detected result.
            var document = try JobRepository(db).result(jobId: id)
            if let confirmations { document?.confirmed = try ConfirmationRepository(db, confirmations).latest(jobId: id)?.json() }
            return document
        }) else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); results exist once it has succeeded")
        }
        guard csv else { return try JSONResponse.make(document) }
        guard let table = SportRegistry.plugin(named: job.sport)?.table else {
            throw APIError(.badRequest, "invalid_request", "CSV results exist for \(SportRegistry.names { $0.table != nil }) jobs, not for \(job.sport)")
        }
        let text = try await backends.sql { try ResultRowsRepository($0).csv(jobId: id, table: table) }
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    /// Whether a `format` query parameter asks for CSV (`csv`) rather than JSON (`json`, or none), any case.
    static func wantsCSV(_ format: String?) throws -> Bool {
        switch format?.lowercased() {
        case nil, "json": return false
        case "csv": return true
        case let other?: throw APIError(.badRequest, "invalid_request", "'format' must be json or csv, not '\(other)'")
        }
    }

    /// Times a filter may name: PostgreSQL holds far more, but nothing outside this is meant.
    static let plausibleTimes = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// Club names are plain labels until API keys arrive: short, printable, no surprises in URLs.
    static func validClub(_ club: String) throws -> String {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: " _.-"))
        guard !club.isEmpty, club.count <= 100, club.unicodeScalars.allSatisfy(allowed.contains) else {
            throw APIError(.badRequest, "invalid_club", "club '\(club)' must be 1–100 letters, digits, spaces, '_', '.' or '-'")
        }
        return club
    }
}
