import Foundation
import Hummingbird
import Media
import NIOPosix
import ReelworkCore
import Store

/// `POST /v1/videos`, `GET /v1/videos/{id}`, `GET /v1/videos/{id}/content`.
struct VideoRoutes {
    let backends: Backends
    let storage: VideoStorage

    func register(on router: Router<BasicRequestContext>) {
        router.post("/v1/videos") { request, context in try await upload(request) }
        router.get("/v1/videos/:id") { _, context in
            let id = try RouteParams.uuid(context, "id")
            guard let found = try await backends.sql({ try VideoRepository($0).find(id: id) }) else {
                throw APIError(.notFound, "video_not_found", "no video with id \(id.uuidString.lowercased())")
            }
            return try JSONResponse.make(found.video)
        }
        router.get("/v1/videos/:id/content") { request, context in try await content(request, context) }
    }

    /// Streams the body to storage, probes it, and records it. The same bytes give the same video
    /// (200 instead of 201). A bad file is answered with 4xx and leaves nothing behind.
    func upload(_ request: Request) async throws -> Response {
        let limit = backends.config.maxUploadBytes
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }) {
            if declared > limit {
                throw APIError(.contentTooLarge, "too_large", "the upload (\(declared) bytes) is larger than the limit of \(limit) bytes")
            }
        }
        let received = try await UploadReceiver(storage: storage, limit: limit).receive(request.body)
        var keep = false
        defer { if !keep { try? FileManager.default.removeItem(at: received.file) } }
        guard received.size > 0 else {
            throw APIError(.badRequest, "empty_upload", "the upload is empty: send the video file's bytes as the request body")
        }
        let facts: VideoFacts
        do {
            let path = received.file.path
            facts = try await NIOThreadPool.singleton.runIfActive { try MediaProbe.probe(path, verifyPackets: true) }
        } catch let error as MediaError {
            throw APIError(.unprocessableContent, "invalid_video", error.message)
        }
        let key = try storage.commit(tempFile: received.file, hash: received.sha256)
        keep = true
        let name = request.uri.queryParameters.get("filename") ?? request.headers[.init("X-Filename")!]
        let video = NewVideo(contentHash: received.sha256, sizeBytes: received.size, storageKey: key,
                             originalName: name, facts: facts)
        let (view, created) = try await backends.sql { try VideoRepository($0).insertOrFetch(video) }
        return try JSONResponse.make(view, status: created ? .created : .ok)
    }

    /// Serves a stored video with byte ranges, so libavformat on another machine can seek in it.
    func content(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let id = try RouteParams.uuid(context, "id")
        guard let found = try await backends.sql({ try VideoRepository($0).find(id: id) }) else {
            throw APIError(.notFound, "video_not_found", "no video with id \(id.uuidString.lowercased())")
        }
        let path = storage.path(forKey: found.storageKey)
        let size = Int(found.video.sizeBytes)
        var headers: HTTPFields = [.contentType: "application/octet-stream", .acceptRanges: "bytes"]
        let fileIO = FileIO()
        if let rangeHeader = request.headers[.range] {
            guard let range = ByteRange.parse(rangeHeader, size: size) else {
                headers[.contentRange] = "bytes */\(size)"
                return Response(status: .rangeNotSatisfiable, headers: headers,
                                body: .init(byteBuffer: .init(string: "")))
            }
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(size)"
            headers[.contentLength] = String(range.count)
            let body = try await fileIO.loadFile(path: path, range: range, context: context)
            return Response(status: .partialContent, headers: headers, body: body)
        }
        headers[.contentLength] = String(size)
        return Response(status: .ok, headers: headers, body: try await fileIO.loadFile(path: path, context: context))
    }
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
    static func uuid(_ context: BasicRequestContext, _ name: String) throws -> UUID {
        let text = context.parameters.get(name) ?? ""
        guard let id = UUID(uuidString: text) else {
            throw APIError(.badRequest, "invalid_id", "'\(text)' is not a valid id (expected a UUID)")
        }
        return id
    }
}
