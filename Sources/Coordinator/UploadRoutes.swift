import Foundation
import Hummingbird
import Logging
import Media
import NIOPosix
import ObjectStorage
import ReelworkCore
import Store

/// Uploads in parts, resumable within a file: `POST /v1/uploads` declares a file (size, SHA-256),
/// `POST /v1/uploads/{id}/parts` says where each part goes, `GET /v1/uploads/{id}` which parts
/// arrived, `POST /v1/uploads/{id}/complete` joins and checks them and records the video,
/// `DELETE /v1/uploads/{id}` abandons it. With a bucket the parts go from the client straight to
/// the store by presigned URLs; with a folder they come to `PUT /v1/uploads/{id}/parts/{n}`. The
/// same calls either way, so a client does not depend on the backend.
struct UploadRoutes {
    let backends: Backends
    let store: any PartUploads
    let spool: UploadSpool
    /// The coordinator's upload slots, shared with `POST /v1/videos`.
    let videos: VideoRoutes

    func register(on api: APIRouter) {
        api.post("/v1/uploads", .clubData) { request, _, caller in try await create(request, caller) }
        api.get("/v1/uploads/:id", .clubData) { _, context, caller in
            try JSONResponse.make(try await view(try await find(try RouteParams.uuid(context, "id"), caller)))
        }
        api.post("/v1/uploads/:id/parts", .clubData) { request, context, caller in try await partTargets(request, context, caller) }
        api.put("/v1/uploads/:id/parts/:number", .clubData) { request, context, caller in try await receivePart(request, context, caller) }
        api.post("/v1/uploads/:id/complete", .clubData) { _, context, caller in try await complete(context, caller) }
        api.delete("/v1/uploads/:id", .clubData) { _, context, caller in try await abort(context, caller) }
    }

    func find(_ id: UUID, _ caller: Caller) async throws -> UploadRecord {
        try await backends.visible("upload", id: id, code: "upload_not_found", to: caller) { try UploadRepository($0).find(id: id, club: $1) }
    }

    // MARK: - create

    func create(_ request: Request, _ caller: Caller) async throws -> Response {
        let body = try await JSONResponse.decode(CreateUploadRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let club = try caller.owningClub(requested: body.club, defaultClub: JobRoutes.defaultClub)
        let limit = backends.config.maxUploadBytes
        guard body.sizeBytes > 0 else {
            throw APIError(.badRequest, "invalid_request", "'sizeBytes' is \(body.sizeBytes); a video has at least one byte")
        }
        guard body.sizeBytes <= limit else {
            throw APIError(.contentTooLarge, "too_large", "the file (\(body.sizeBytes) bytes) is larger than the limit of \(limit) bytes")
        }
        guard VideoRoutes.isSHA256Hex(body.sha256) else {
            throw APIError(.badRequest, "invalid_request", "'sha256' is not a SHA-256 hash (64 lowercase hex digits)")
        }
        let name = try ClientText.uploadedFileName(body.filename, field: "filename")
        // A soft cap (two requests at once may both pass it): it bounds what one club keeps open.
        let cap = backends.config.clubLimits.openUploadsPerClub
        let open = try await backends.sql { try UploadRepository($0).unfinishedCount(club: club) }
        guard open < cap else {
            throw APIError(
                .tooManyRequests, "quota_exceeded",
                "club \(club) has \(open) uploads open, the most it may (\(ClubLimits.Env.openUploadsPerClub)): complete or abandon some "
                    + "(DELETE /v1/uploads/{id}), or let them expire")
        }
        let id = UUID()
        let key = ObjectKey.upload(id: id)
        let plan = UploadPlan(sizeBytes: body.sizeBytes)
        let storeUploadId: String?
        do {
            storeUploadId = try await store.beginParts(key: key, parts: plan.partCount)
        } catch let error as ObjectStoreError {
            throw storageUnavailable(error, "starting an upload")
        }
        let record = NewUpload(
            id: id, club: club, originalName: name,
            sizeBytes: body.sizeBytes, contentHash: body.sha256, partBytes: plan.partBytes, stagingKey: key,
            storeUploadId: storeUploadId)
        let hours = backends.config.limits.uploadExpiryHours
        // The answer's expiresAt is the row's: PostgreSQL's clock, the one the sweep goes by.
        let inserted: UploadRecord
        do {
            inserted = try await backends.sql { try UploadRepository($0).insert(record, expiresInHours: hours) }
        } catch {
            try? await store.dropParts(key: key, uploadId: storeUploadId)
            throw error
        }
        // A new upload has no parts: the answer does not depend on the store answering again.
        return try JSONResponse.make(try await view(inserted, partsHeld: []), status: .created)
    }

    // MARK: - parts

    func partTargets(_ request: Request, _ context: APIRequestContext, _ caller: Caller) async throws -> Response {
        let upload = try await find(try RouteParams.uuid(context, "id"), caller)
        let body = try await JSONResponse.decode(UploadPartsRequest.self, from: request, limit: backends.config.limits.maxJSONBytes)
        try requireOpen(upload)
        let plan = upload.plan
        guard !body.numbers.isEmpty, body.numbers.count <= UploadPartsRequest.maxNumbers else {
            throw APIError(
                .badRequest, "invalid_request",
                "'numbers' has \(body.numbers.count) entries; ask for 1 to \(UploadPartsRequest.maxNumbers) parts at once")
        }
        if let bad = body.numbers.first(where: { !(1...plan.partCount).contains($0) }) {
            throw APIError(.badRequest, "invalid_request", "part \(bad) does not exist: this upload has parts 1 to \(plan.partCount)")
        }
        let seconds = min(backends.config.limits.uploadPartURLSeconds, max(1, Int(upload.expiresAt.timeIntervalSinceNow)))
        let expires = Date().addingTimeInterval(Double(seconds))
        let id = upload.id.uuidString.lowercased()
        let targets = try Set(body.numbers).sorted().map { number in
            let url = try store.partURL(key: upload.stagingKey, uploadId: upload.storeUploadId, number: number, validFor: seconds)
            return UploadPartTarget(
                number: number, url: url ?? "/v1/uploads/\(id)/parts/\(number)", offset: plan.offset(ofPart: number),
                bytes: plan.bytes(ofPart: number), expiresAt: url == nil ? upload.expiresAt : expires)
        }
        return try JSONResponse.make(UploadPartsResult(parts: targets))
    }

    /// A part sent to the coordinator (a folder's uploads): exactly the part's length, received like
    /// an upload (counted, paced, in the spool), then kept whole under its number.
    func receivePart(_ request: Request, _ context: APIRequestContext, _ caller: Caller) async throws -> Response {
        let upload = try await find(try RouteParams.uuid(context, "id"), caller)
        try requireOpen(upload)
        let plan = upload.plan
        let text = context.parameters.get("number") ?? ""
        guard let number = Int(text), (1...plan.partCount).contains(number) else {
            throw APIError(.badRequest, "invalid_request", "part '\(text.prefix(20))' does not exist: this upload has parts 1 to \(plan.partCount)")
        }
        guard store.partsComeThroughCoordinator else {
            throw APIError(
                .conflict, "parts_go_to_the_store",
                "this upload's parts go to the \(store.location): ask POST /v1/uploads/\(upload.id.uuidString.lowercased())/parts for their URLs")
        }
        let expected = plan.bytes(ofPart: number)
        if let declared = request.headers[.contentLength].flatMap({ Int64($0) }), declared != expected {
            throw APIError(.badRequest, "part_size", "part \(number) has \(expected) bytes; the request declares \(declared)")
        }
        try videos.enterGate(club: upload.club)
        defer { videos.gate.leave(club: upload.club) }
        let received = try await UploadReceiver(spool: spool, limit: expected, pace: UploadPace(limits: backends.config.limits)).receive(request.body)
        defer { try? FileManager.default.removeItem(at: received.file) }
        guard received.size == expected else {
            throw APIError(.badRequest, "part_size", "part \(number) has \(expected) bytes; \(received.size) arrived")
        }
        do {
            try await store.receivePart(key: upload.stagingKey, number: number, file: received.file)
        } catch let error as ObjectStoreError {
            throw storageUnavailable(error, "keeping a part")
        }
        return Response(status: .noContent)
    }

    // MARK: - complete

    /// Joins the parts, checks the joined bytes against the declared size and SHA-256 (read back
    /// from the store, so a client cannot claim bytes it did not send), probes them like any
    /// upload, moves them to their content key and records the video. Completing a completed
    /// upload answers its video again (a client whose answer was lost asks twice).
    func complete(_ context: APIRequestContext, _ caller: Caller) async throws -> Response {
        let upload = try await find(try RouteParams.uuid(context, "id"), caller)
        if upload.status == .completed, let videoId = upload.videoId {
            let video = try await backends.sql { try VideoRepository($0).find(id: videoId, club: nil) }
            if let video { return try JSONResponse.make(video.video) }
        }
        try requireOpen(upload)
        let plan = upload.plan
        let held = try await heldParts(upload)
        try Self.checkComplete(held.parts, plan: plan)
        guard let completing = try await backends.sql({ try UploadRepository($0).move(upload.id, from: .open, to: .completing) }) else {
            throw APIError(
                .conflict, "upload_completing",
                "upload \(upload.id.uuidString.lowercased()) is being completed by another request; ask for it shortly")
        }
        do {
            do {
                if !held.joined {
                    try await store.joinParts(
                        key: completing.stagingKey, uploadId: completing.storeUploadId,
                        parts: held.parts.filter { $0.number <= plan.partCount })
                }
            } catch let error as ObjectStoreError {
                throw storageUnavailable(error, "joining the parts")
            }
            let (video, created) = try await checkAndRecord(completing)
            return try JSONResponse.make(video, status: created ? .created : .ok)
        } catch let refusal as APIError where refusal.status == .unprocessableContent {
            // The joined bytes are not what was declared, or not a video we take: nothing is recorded
            // and nothing stays in the store; the client starts a new upload.
            try? await store.dropParts(key: completing.stagingKey, uploadId: nil)
            _ = try? await backends.sql { try UploadRepository($0).move(upload.id, from: .completing, to: .rejected, error: refusal.message) }
            throw refusal
        } catch {
            // The store or the database failed on the way (a read-back that timed out, a copy the
            // store refused): the parts stay and the upload opens again, so the client's next
            // complete finishes it. Rejecting it here would lose a good upload to a passing fault.
            _ = try? await backends.sql { try UploadRepository($0).move(upload.id, from: .completing, to: .open) }
            throw error
        }
    }

    /// Every part 1...partCount is held with its exact length; otherwise 409 naming what to send.
    static func checkComplete(_ parts: [ReceivedPart], plan: UploadPlan) throws {
        let held = Dictionary(parts.map { ($0.number, $0.bytes) }, uniquingKeysWith: { _, last in last })
        let missing = (1...plan.partCount).filter { held[$0] == nil }
        if !missing.isEmpty {
            let shown = missing.prefix(10).map(String.init).joined(separator: ", ") + (missing.count > 10 ? " and \(missing.count - 10) more" : "")
            throw APIError(
                .conflict, "parts_missing", "\(missing.count) of \(plan.partCount) part(s) have not arrived: \(shown); send them, then complete")
        }
        if let wrong = (1...plan.partCount).first(where: { held[$0] != plan.bytes(ofPart: $0) }) {
            throw APIError(
                .conflict, "part_size",
                "part \(wrong) has \(held[wrong] ?? 0) bytes; it must have \(plan.bytes(ofPart: wrong)): send it again, then complete")
        }
    }

    /// Reads the joined object back (a local copy from a bucket), checks size and hash, probes it,
    /// moves it to its content key and records the video with the upload completed.
    private func checkAndRecord(_ upload: UploadRecord) async throws -> (VideoView, Bool) {
        let location = try store.readLocation(key: upload.stagingKey, validFor: 3600)
        var file = URL(fileURLWithPath: location)
        var copied: URL?
        defer { if let copied { try? FileManager.default.removeItem(at: copied) } }
        if MediaCopy.isNetwork(location) {
            let copy = spool.newFile()
            copied = copy
            let guards = MediaGuards(maxPixels: backends.config.limits.maxPixels)
            let maxBytes = upload.sizeBytes
            do {
                _ = try await NIOThreadPool.singleton.runIfActive { try MediaCopy.copy(location, to: copy.path, maxBytes: maxBytes, guards: guards) }
            } catch let error as MediaError where error.kind == .invalidInput {
                throw APIError(.unprocessableContent, "size_mismatch", "the parts joined are larger than the declared \(upload.sizeBytes) bytes")
            } catch {
                // MediaCopy's errors never quote the presigned URL, so the cause is safe to show; without
                // it an operator cannot tell a store that is down from one that lost the object.
                throw APIError(
                    .serviceUnavailable, "storage_unavailable",
                    "the joined upload could not be read back from the \(store.location) (\(error)); complete it again shortly")
            }
            file = copy
        }
        let joined = file
        let (size, hash) = try await NIOThreadPool.singleton.runIfActive { try ContentHasher.hash(file: joined) }
        guard size == upload.sizeBytes else {
            throw APIError(.unprocessableContent, "size_mismatch", "the parts joined are \(size) bytes; the upload declared \(upload.sizeBytes)")
        }
        guard hash == upload.contentHash else {
            throw APIError(
                .unprocessableContent, "hash_mismatch",
                "the parts joined have SHA-256 \(hash); the upload declared \(upload.contentHash): nothing was recorded")
        }
        let facts = try await VideoRoutes.facts(of: file, limits: backends.config.limits)
        let key = ObjectKey.video(sha256: hash)
        let placed: Bool
        do {
            placed = try await store.move(from: upload.stagingKey, to: key)
        } catch let error as ObjectStoreError {
            throw storageUnavailable(error, "storing the video")
        }
        let video = NewVideo(club: upload.club, contentHash: hash, sizeBytes: size, storageKey: key, originalName: upload.originalName, facts: facts)
        do {
            return try await backends.sql { db in
                try db.transaction { tx in
                    let recorded = try VideoRepository(tx).insertOrFetch(video)
                    guard try UploadRepository(tx).complete(upload.id, videoId: recorded.video.id) != nil else {
                        throw APIError(.conflict, "upload_gone", "upload \(upload.id.uuidString.lowercased()) expired while it was being completed")
                    }
                    return recorded
                }
            }
        } catch {
            if placed, (try? await backends.sql({ try VideoRepository($0).isReferenced(storageKey: key) })) == false {
                try? await store.remove(key: key)
            }
            // Its bytes left the staging key, so another complete could not find them: the upload
            // ends as expired (410 to the next request), and a client starts it again.
            _ = try? await backends.sql {
                try UploadRepository($0).move(upload.id, from: .completing, to: .expired, error: "the video could not be recorded")
            }
            throw APIError(.serviceUnavailable, "storage_unavailable", "the video could not be recorded (\(error)); upload it again")
        }
    }

    // MARK: - abort

    func abort(_ context: APIRequestContext, _ caller: Caller) async throws -> Response {
        let upload = try await find(try RouteParams.uuid(context, "id"), caller)
        guard try await backends.sql({ try UploadRepository($0).move(upload.id, from: .open, to: .aborted) }) != nil else {
            throw APIError(
                .conflict, "upload_finished",
                "upload \(upload.id.uuidString.lowercased()) is \(upload.status.rawValue); only an open upload can be abandoned")
        }
        do {
            try await store.dropParts(key: upload.stagingKey, uploadId: upload.storeUploadId)
        } catch {
            // The sweep and `reelwork storage check` find what is left.
            backends.logger.warning("dropping the parts of abandoned upload \(upload.id.uuidString.lowercased()) failed: \(error)")
        }
        return Response(status: .noContent)
    }

    // MARK: - helpers

    func requireOpen(_ upload: UploadRecord) throws {
        let id = upload.id.uuidString.lowercased()
        switch upload.status {
        case .open: return
        case .completing: throw APIError(.conflict, "upload_completing", "upload \(id) is being completed; ask for it shortly")
        case .completed:
            throw APIError(.conflict, "upload_finished", "upload \(id) is completed: it is video \(upload.videoId?.uuidString.lowercased() ?? "?")")
        case .rejected:
            throw APIError(.conflict, "upload_finished", "upload \(id) was rejected (\(upload.error ?? "no reason kept")); start a new one")
        case .aborted, .expired:
            throw APIError(.gone, "upload_gone", "upload \(id) was \(upload.status.rawValue) and its parts dropped; start a new one")
        }
    }

    /// The upload as the API shows it; the parts held are asked of the store unless given.
    func view(_ upload: UploadRecord, partsHeld: [Int]? = nil) async throws -> UploadView {
        let plan = upload.plan
        var received = partsHeld ?? []
        if partsHeld == nil, upload.status == .open {
            received = try await heldParts(upload).parts.filter { $0.number <= plan.partCount && $0.bytes == plan.bytes(ofPart: $0.number) }.map(
                \.number)
        }
        let bytes = upload.status == .completed ? upload.sizeBytes : received.reduce(0) { $0 + plan.bytes(ofPart: $1) }
        return UploadView(
            id: upload.id, club: upload.club, status: upload.status, filename: upload.originalName, sizeBytes: upload.sizeBytes,
            sha256: upload.contentHash, partBytes: upload.partBytes, partCount: plan.partCount, partsReceived: received,
            bytesReceived: bytes, expiresAt: upload.expiresAt, videoId: upload.videoId, error: upload.error)
    }

    /// The parts the store holds for an open upload, or every part once they are `joined`: a
    /// complete that failed after joining them (a copy the store refused, a read-back that timed
    /// out) left the joined object at the staging key, and the parts are gone from the store.
    /// A store that holds no such upload any more (its parts dropped: a store keeping them in
    /// memory restarted) ends it as expired, 410.
    func heldParts(_ upload: UploadRecord) async throws -> (parts: [ReceivedPart], joined: Bool) {
        do {
            if try await store.size(of: upload.stagingKey) == upload.sizeBytes {
                let plan = upload.plan
                return ((1...plan.partCount).map { ReceivedPart(number: $0, bytes: plan.bytes(ofPart: $0)) }, true)
            }
            return (try await store.receivedParts(key: upload.stagingKey, uploadId: upload.storeUploadId), false)
        } catch let error as ObjectStoreError where error.reason == .missingUpload {
            let why = "the \(store.location) no longer holds its parts"
            _ = try? await backends.sql { try UploadRepository($0).move(upload.id, from: .open, to: .expired, error: why) }
            throw APIError(.gone, "upload_gone", "upload \(upload.id.uuidString.lowercased()) is gone: \(why); start a new one")
        } catch let error as ObjectStoreError {
            throw storageUnavailable(error, "listing the parts")
        }
    }

    func storageUnavailable(_ error: ObjectStoreError, _ what: String) -> APIError {
        backends.logger.error("\(what) of an upload failed: \(error.message)")
        return APIError(.serviceUnavailable, "storage_unavailable", "the store failed while \(what) (\(error.message)); try again shortly")
    }
}
