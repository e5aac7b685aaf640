import Foundation
import Hummingbird
import Logging
import Media
import NIOPosix
import ObjectStorage
import ReelworkCore
import Store

/// `POST /v1/videos`, `POST /v1/videos/lookup`, `GET /v1/videos/{id}`, `GET /v1/videos/{id}/content`.
/// A video record belongs to one club; the same bytes uploaded by two clubs are stored once and
/// recorded once per club.
struct VideoRoutes {
    let backends: Backends
    let store: any ObjectStore
    let spool: UploadSpool
    let gate: UploadGate
    /// Serialises the end of uploads of the same bytes (object stored, row written, or both undone).
    let sameContent = KeyedSerializer()

    init(backends: Backends, store: any ObjectStore, spool: UploadSpool) {
        self.backends = backends
        self.store = store
        self.spool = spool
        self.gate = UploadGate(limit: backends.config.limits.maxConcurrentUploads,
                               perClub: min(backends.config.clubLimits.uploadsPerClub, backends.config.limits.maxConcurrentUploads))
    }

    /// Seconds a client turned away for too many uploads is asked to wait.
    static let busyRetryAfterSeconds = 5

    func register(on api: APIRouter) {
        api.post("/v1/videos", .clubData) { request, _, caller in try await upload(request, caller) }
        api.post("/v1/videos/lookup", .clubData) { request, _, caller in try await lookup(request, caller) }
        api.get("/v1/videos/:id", .clubData) { _, context, caller in
            try JSONResponse.make(try await find(try RouteParams.uuid(context, "id"), caller).video)
        }
        api.get("/v1/videos/:id/content", .videoContent) { request, context, caller in try await content(request, context, caller) }
    }

    /// The video if the caller may see it; another club's answers exactly as a missing one.
    func find(_ id: UUID, _ caller: Caller) async throws -> (video: VideoView, storageKey: String) {
        try await backends.visible("video", id: id, code: "video_not_found", to: caller) { try VideoRepository($0).find(id: id, club: $1) }
    }

    /// The video a worker key may read: only with the grant of a job that is running at that
    /// attempt on this video. Any other grant answers exactly as a missing video.
    func findForWorker(_ id: UUID, _ request: Request) async throws -> (video: VideoView, storageKey: String) {
        let query = request.uri.queryParameters
        guard let grant = VideoReadGrant(job: query.get(VideoReadGrant.jobParameter), attempt: query.get(VideoReadGrant.attemptParameter)) else {
            throw APIError(.forbidden, "forbidden", "a worker key reads a video only for the job it runs: "
                + "name the job and the attempt it holds (?\(VideoReadGrant.jobParameter)=<id>&\(VideoReadGrant.attemptParameter)=<n>)")
        }
        guard let found = try await backends.sql({ try VideoRepository($0).find(id: id, grant: grant) }) else {
            throw APIError(.notFound, "video_not_found", "no video with id \(id.uuidString.lowercased())")
        }
        return found
    }

    /// Which of the given SHA-256 hashes the club already has: `submit` asks for a whole folder
    /// (a few thousand hashes a request) and uploads only the rest.
    func lookup(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONResponse.decode(VideoLookupRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let club = try caller.owningClub(requested: body.club, defaultClub: JobRoutes.defaultClub)
        guard body.hashes.count <= VideoLookupRequest.maxHashes else {
            throw APIError(.badRequest, "invalid_request", "'hashes' has \(body.hashes.count) entries; at most \(VideoLookupRequest.maxHashes) per request")
        }
        if let bad = body.hashes.firstIndex(where: { !Self.isSHA256Hex($0) }) {
            throw APIError(.badRequest, "invalid_request", "'hashes[\(bad)]' is not a SHA-256 hash (64 lowercase hex digits)")
        }
        let found = try await backends.sql { try VideoRepository($0).existing(contentHashes: body.hashes, club: club) }
        let videos = found.map { VideoLookupMatch(contentHash: $0.key, videoId: $0.value) }.sorted { $0.contentHash < $1.contentHash }
        return try JSONResponse.make(VideoLookupResult(videos: videos))
    }

    static func isSHA256Hex(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }

    /// Streams the body to storage, probes it, checks it against the limits, and records it for the
    /// caller's club (an operator may name one with `?club=`). The same bytes in the same club give
    /// the same video (200 instead of 201); another club having them changes nothing. A bad file is
    /// answered with 4xx and leaves nothing behind; so does any failure after the file was moved
    /// into place.
    func upload(_ request: Request, _ caller: Caller) async throws -> Response {
        let club = try caller.owningClub(requested: request.uri.queryParameters.get("club"), defaultClub: JobRoutes.defaultClub)
        let name = try Self.originalName(request)
        try enterGate(club: club)
        defer { gate.leave(club: club) }
        let limit = backends.config.maxUploadBytes
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }) {
            if declared > limit {
                throw APIError(.contentTooLarge, "too_large", "the upload (\(declared) bytes) is larger than the limit of \(limit) bytes")
            }
        }
        let received = try await UploadReceiver(spool: spool, limit: limit, pace: UploadPace(limits: backends.config.limits)).receive(request.body)
        // Whatever happens, the temporary file goes (once moved into place, there is nothing left to remove).
        defer { try? FileManager.default.removeItem(at: received.file) }
        guard received.size > 0 else {
            throw APIError(.badRequest, "empty_upload", "the upload is empty: send the video file's bytes as the request body")
        }
        let facts = try await Self.facts(of: received.file, limits: backends.config.limits)
        let (view, created) = try await store(received, facts: facts, name: name, club: club)
        return try JSONResponse.make(view, status: created ? .created : .ok)
    }

    /// Takes one of the coordinator's upload slots for `club` (`gate`), or refuses with 503 and
    /// Retry-After; the caller leaves it when done.
    func enterGate(club: String) throws {
        switch gate.enter(club: club) {
        case .coordinatorFull?:
            throw APIError.busy(.serviceUnavailable, "too_many_uploads",
                                "this coordinator is receiving \(gate.limit) uploads already (\(InputLimits.Env.maxConcurrentUploads)); try again shortly",
                                retryAfterSeconds: Self.busyRetryAfterSeconds)
        case .clubFull?:
            throw APIError.busy(.serviceUnavailable, "too_many_uploads",
                                "club \(club) is sending \(gate.perClub) uploads to this coordinator already (\(ClubLimits.Env.uploadsPerClub)); "
                                    + "send the next when one has finished",
                                retryAfterSeconds: Self.busyRetryAfterSeconds)
        case nil:
            break
        }
    }

    /// What probing `file` finds, checked against the limits: a file that is no video we take is
    /// 422 `invalid_video` with the reason.
    static func facts(of file: URL, limits: InputLimits) async throws -> VideoFacts {
        do {
            let path = file.path
            let guards = MediaGuards(maxPixels: limits.maxPixels)
            let facts = try await NIOThreadPool.singleton.runIfActive { try MediaProbe.probe(path, verifyPackets: true, guards: guards) }
            try limits.check(facts)
            return facts
        } catch let error as MediaError {
            throw APIError(.unprocessableContent, "invalid_video", error.message)
        } catch let error as ReelworkError {
            throw APIError(.unprocessableContent, "invalid_video", error.message)
        }
    }

    /// Puts the upload into the store under its content key and records it. If recording fails, an
    /// object this upload stored is removed again (unless a row of another upload of the same bytes
    /// points to it meanwhile), so the store never keeps an object no row points to.
    private func store(_ received: UploadReceiver.Received, facts: VideoFacts, name: String?, club: String) async throws -> (VideoView, Bool) {
        let store = self.store, backends = self.backends
        return try await sameContent.run(received.sha256) {
            let key = ObjectKey.video(sha256: received.sha256)
            let placed: Bool
            do {
                placed = try await store.put(file: received.file, sha256: received.sha256, key: key)
            } catch let error as ObjectStoreError {
                backends.logger.error("storing an upload failed: \(error.message)")
                throw APIError(.serviceUnavailable, "storage_unavailable", "the video could not be stored (\(error.message)); send it again shortly")
            }
            let video = NewVideo(club: club, contentHash: received.sha256, sizeBytes: received.size, storageKey: key, originalName: name, facts: facts)
            do {
                return try await backends.sql { try VideoRepository($0).insertOrFetch(video) }
            } catch {
                if placed, (try? await backends.sql({ try VideoRepository($0).isReferenced(storageKey: key) })) == false {
                    try? await store.remove(key: key)
                }
                throw error
            }
        }
    }

    /// The client's name for the file (`?filename=` or `X-Filename`), checked before a byte is read.
    static func originalName(_ request: Request) throws -> String? {
        if let query = request.uri.queryParameters.get("filename"), !query.isEmpty {
            return try ClientText.uploadedFileName(query, field: "filename")
        }
        return try ClientText.uploadedFileName(request.headers[.init("X-Filename")!], field: "X-Filename")
    }

    /// Serves a stored video with byte ranges, so libavformat on another machine can seek in it.
    /// From a bucket, the answer is a redirect to a short-lived presigned URL: the bytes go from
    /// the store to the reader, never through a coordinator.
    func content(_ request: Request, _ context: APIRequestContext, _ caller: Caller) async throws -> Response {
        let id = try RouteParams.uuid(context, "id")
        let found = caller.role == .worker ? try await findForWorker(id, request) : try await find(id, caller)
        guard let local = store as? LocalObjectStore else {
            let url = try store.clientReadLocation(key: found.storageKey, validFor: Self.redirectSeconds)
            return Response(status: .temporaryRedirect, headers: [.location: url, .cacheControl: "no-store"])
        }
        let path = local.path(forKey: found.storageKey)
        let size = Int(found.video.sizeBytes)
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        let fileIO = FileIO()
        if let rangeHeader = request.headers[.range] {
            guard let range = ByteRange.parse(rangeHeader, size: size) else {
                var refusal = APIError(.rangeNotSatisfiable, "range_not_satisfiable",
                                       "Range '\(rangeHeader.prefix(100))' is not one satisfiable 'bytes=' range of this \(size)-byte video")
                refusal.headers[.contentRange] = "bytes */\(size)"
                throw refusal
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            let body = try await fileIO.loadFile(path: path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
    }

    /// How long a redirect to a bucket's object stays good: long enough for a reader that
    /// reconnects mid-file (FFmpeg does) to finish a large video.
    static let redirectSeconds = 6 * 3600
}

/// A single `bytes=` range (the form libavformat and curl send).
enum ByteRange {
    /// Parses `bytes=a-b`, `bytes=a-` or `bytes=-n` against a file of `size` bytes; nil if unsatisfiable.
    static func parse(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard size > 0, header.hasPrefix("bytes="), !header.contains(",") else { return nil }
        let spec = header.dropFirst("bytes=".count)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        if parts[0].isEmpty {
            guard let suffix = Int(parts[1]), suffix > 0 else { return nil }
            return max(0, size - suffix)...(size - 1)
        }
        guard let start = Int(parts[0]), start >= 0, start < size else { return nil }
        if parts[1].isEmpty { return start...(size - 1) }
        guard let end = Int(parts[1]), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}

/// Route parameter parsing with the API's error shape.
enum RouteParams {
    static func uuid(_ context: some RequestContext, _ name: String) throws -> UUID {
        let text = context.parameters.get(name) ?? ""
        guard let id = UUID(uuidString: text) else {
            throw APIError(.badRequest, "invalid_id", "'\(text)' is not a valid id (expected a UUID)")
        }
        return id
    }
}
