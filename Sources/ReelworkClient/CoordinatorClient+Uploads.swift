import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkCore

/// Uploads in parts (`/v1/uploads`): resumable within a file, the parts sent straight to the
/// bucket where the coordinator stores videos in one.
extension CoordinatorClient {
    public func createUpload(_ body: CreateUploadRequest) async throws -> UploadView {
        try await send("POST", "/v1/uploads", body: try ReelworkJSON.encoder.encode(body))
    }

    public func upload(_ id: UUID) async throws -> UploadView {
        try await get("/v1/uploads/\(id.uuidString.lowercased())")
    }

    public func uploadPartTargets(_ id: UUID, numbers: [Int]) async throws -> UploadPartsResult {
        try await send("POST", "/v1/uploads/\(id.uuidString.lowercased())/parts", body: try ReelworkJSON.encoder.encode(UploadPartsRequest(numbers: numbers)))
    }

    /// Joins and checks the parts; the recorded video (the club's existing one for the same bytes).
    public func completeUpload(_ id: UUID) async throws -> VideoView {
        try await send("POST", "/v1/uploads/\(id.uuidString.lowercased())/complete", body: nil)
    }

    public func abortUpload(_ id: UUID) async throws {
        let (data, status) = try await exchange(request("DELETE", url("/v1/uploads/\(id.uuidString.lowercased())")))
        try checkStatus(data: data, status: status)
    }

    /// PUTs part `target` of `file`: to the store's presigned URL (no key of ours goes with it), or
    /// to the coordinator's path with the key.
    public func sendPart(_ target: UploadPartTarget, of file: URL, progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            try handle.seek(toOffset: UInt64(target.offset))
            data = try handle.read(upToCount: Int(target.bytes)) ?? Data()
        } catch {
            throw ReelworkError.invalidInput("cannot read part \(target.number) of \(file.path): \(error.localizedDescription)")
        }
        guard data.count == target.bytes else {
            throw ReelworkError.invalidInput("\(file.path) changed while it was sent: part \(target.number) should have \(target.bytes) bytes, it has \(data.count)")
        }
        let ours = target.url.hasPrefix("/")
        let place = ours ? "the coordinator" : "the store"
        var request: URLRequest
        if ours {
            request = self.request("PUT", url(target.url))
        } else {
            guard let storeURL = URL(string: target.url), storeURL.scheme == "http" || storeURL.scheme == "https" else {
                throw ClientError.badResponse("the coordinator gave part \(target.number) an address that is not a URL")
            }
            request = URLRequest(url: storeURL)
            request.httpMethod = "PUT"
        }
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let (answer, status): (Data, Int)
        if ours, let transport {
            request.httpBody = data
            (answer, status) = try await transport(request)
        } else {
            (answer, status) = try await FileUpload.send(request, body: .data(data), target: "part \(target.number) to \(place)", progress: progress)
        }
        guard (200..<300).contains(status) else {
            if ours { try checkStatus(data: answer, status: status) }
            // The store's own error, an XML document: its code and message say what went wrong (an expired URL, a full bucket).
            let document = String(decoding: answer.prefix(2000), as: UTF8.self)
            let code = document.firstMatch(of: /<Code>([^<]{1,100})<\/Code>/).map { String($0.1) } ?? "no code"
            let said = document.firstMatch(of: /<Message>([^<]{1,300})<\/Message>/).map { ": " + Self.xmlText($0.1) } ?? ""
            throw ClientError.api(status: status, code: "store_refused", message: "the store answered HTTP \(status) (\(code)\(said)) to part \(target.number)")
        }
    }

    /// Sends `file` in parts: resumes upload `resume` if it is still open for the same bytes,
    /// otherwise starts one (`started` hears of it, to keep its id for a later resume); sends the
    /// parts the store does not hold yet, each sent again on a failure worth it; completes it.
    /// An upload whose parts the store lost on the way is started again, once.
    /// `progress(bytes held by the store, file size)`; `resumed(parts already held, parts)` once.
    public func uploadInParts(file: URL, sha256: String, sizeBytes: Int64, club: String?, resume: UUID?,
                              retryDelays: [Duration] = CoordinatorClient.retryDelays, completionPoll: Duration = .seconds(2),
                              started: @Sendable (UploadView) throws -> Void = { _ in },
                              resumed: @Sendable (Int, Int) -> Void = { _, _ in },
                              onRetry: @escaping @Sendable (String) -> Void = { _ in },
                              progress: @escaping @Sendable (Int64, Int64) -> Void = { _, _ in }) async throws -> VideoView {
        do {
            return try await sendInParts(file: file, sha256: sha256, sizeBytes: sizeBytes, club: club, resume: resume, retryDelays: retryDelays,
                                         completionPoll: completionPoll, started: started, resumed: resumed, onRetry: onRetry, progress: progress)
        } catch let error as ClientError where error.meansUploadGone {
            onRetry("\(error); starting its upload again")
            return try await sendInParts(file: file, sha256: sha256, sizeBytes: sizeBytes, club: club, resume: nil, retryDelays: retryDelays,
                                         completionPoll: completionPoll, started: started, resumed: resumed, onRetry: onRetry, progress: progress)
        }
    }

    private func sendInParts(file: URL, sha256: String, sizeBytes: Int64, club: String?, resume: UUID?, retryDelays: [Duration],
                             completionPoll: Duration, started: @Sendable (UploadView) throws -> Void, resumed: @Sendable (Int, Int) -> Void,
                             onRetry: @escaping @Sendable (String) -> Void,
                             progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> VideoView {
        var upload: UploadView?
        if let resume {
            do {
                let found = try await self.upload(resume)
                if found.sha256 == sha256, found.sizeBytes == sizeBytes, [.open, .completed].contains(found.status) { upload = found }
            } catch let error as ClientError where error.meansUploadGone {
                upload = nil
            } catch ClientError.api(status: 404, code: "upload_not_found", _) {
                upload = nil
            }
        }
        if let found = upload {
            if found.status == .completed, let videoId = found.videoId { return try await video(videoId) }
            resumed(found.partsReceived.count, found.partCount)
        } else {
            let created = try await Self.resending(after: retryDelays, onRetry: onRetry) {
                try await createUpload(CreateUploadRequest(filename: file.lastPathComponent, sizeBytes: sizeBytes, sha256: sha256, club: club))
            }
            try started(created)
            upload = created
        }
        guard let upload else { throw ClientError.badResponse("no upload to send to") }
        let plan = UploadPlan(sizeBytes: upload.sizeBytes, partBytes: upload.partBytes)
        let held = Set(upload.partsReceived)
        var sent = held.reduce(Int64(0)) { $0 + plan.bytes(ofPart: $1) }
        progress(sent, plan.sizeBytes)
        let missing = (1...plan.partCount).filter { !held.contains($0) }
        do {
            // A few parts' URLs at a time, so none expires while the earlier parts are on their way.
            for start in stride(from: 0, to: missing.count, by: Self.partURLsAtOnce) {
                let numbers = Array(missing[start..<min(start + Self.partURLsAtOnce, missing.count)])
                let targets = try await Self.resending(after: retryDelays, onRetry: onRetry) { try await uploadPartTargets(upload.id, numbers: numbers) }
                for target in targets.parts {
                    let before = sent
                    try await sendPart(target, upload: upload.id, of: file, retryDelays: retryDelays, onRetry: onRetry) { partSent, _ in
                        progress(before + partSent, plan.sizeBytes)
                    }
                    sent += target.bytes
                    progress(sent, plan.sizeBytes)
                }
            }
        } catch let error as ClientError where error.meansUploadGone {
            // The store lost its parts (one that keeps uploads in memory restarted): the upload is
            // ended now rather than left open, counting against the club's open uploads, until the
            // sweeper's time. The caller starts a new one.
            try? await abortUpload(upload.id)
            throw error
        }
        return try await complete(upload.id, retryDelays: retryDelays, poll: completionPoll, onRetry: onRetry)
    }

    /// Sends one part, again after a failure worth it. A URL the store refuses as expired (the part
    /// waited behind slow ones, the machine slept) is asked of the coordinator afresh and the part
    /// sent with it, at most `freshURLTries` times: a store that refuses fresh URLs too has another
    /// reason (a clock far off, wrong keys), which the error names.
    private func sendPart(_ first: UploadPartTarget, upload: UUID, of file: URL, retryDelays: [Duration],
                          onRetry: @escaping @Sendable (String) -> Void, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws {
        var target = first
        var fresh = 0
        while true {
            do {
                return try await Self.resending(after: retryDelays, onRetry: onRetry) { try await sendPart(target, of: file, progress: progress) }
            } catch let error as ClientError where error.meansURLExpired {
                guard fresh < Self.freshURLTries else {
                    // Fresh URLs refused too: not their age but something else, most likely a clock far off.
                    guard case .api(let status, let code, let message) = error else { throw error }
                    throw ClientError.api(status: status, code: code, message: "\(message), and so it did with \(fresh) fresh URL(s): "
                                              + "check that this machine's and the coordinator's clocks are right")
                }
                fresh += 1
                onRetry("\(error); its URL expired, asking the coordinator for a fresh one")
                let renewed = try await Self.resending(after: retryDelays, onRetry: onRetry) { try await uploadPartTargets(upload, numbers: [target.number]) }
                guard let next = renewed.parts.first(where: { $0.number == target.number }) else {
                    throw ClientError.badResponse("the coordinator gave no URL for part \(target.number)")
                }
                target = next
            }
        }
    }

    /// Completes the upload. An answer that another request is completing it (an earlier try whose
    /// answer was lost, with a store slow to copy) is waited out: asked again every `poll` until it
    /// is done (the video), open again (completed by this request) or ended (its reason), for at
    /// most ten minutes.
    private func complete(_ id: UUID, retryDelays: [Duration], poll: Duration, onRetry: @escaping @Sendable (String) -> Void) async throws -> VideoView {
        let deadline = ContinuousClock.now + .seconds(600)
        var said = false
        while true {
            do {
                return try await Self.resending(after: retryDelays, onRetry: onRetry) { try await completeUpload(id) }
            } catch ClientError.api(409, "upload_completing", let message) where ContinuousClock.now < deadline {
                if !said { onRetry("\(message); waiting for it") }
                said = true
                try await Task.sleep(for: poll)
            }
        }
    }

    /// XML character data as text: the five entities a store's error message uses (rclone writes ' as &#39;).
    static func xmlText(_ raw: Substring) -> String {
        [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&#39;", "'"), ("&amp;", "&")]
            .reduce(String(raw)) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    static let partURLsAtOnce = 8
    /// Fresh URLs asked for one part whose URL the store refused as expired, before giving up.
    static let freshURLTries = 2
}

extension ClientError {
    /// The upload's parts are gone: the coordinator says so (410), or the store answers a part
    /// with NoSuchUpload (it dropped them). Starting the upload again is the way on.
    var meansUploadGone: Bool {
        switch self {
        case .api(410, "upload_gone", _): return true
        case .api(404, "store_refused", let message): return message.contains("NoSuchUpload")
        default: return false
        }
    }

    /// The store refused a presigned URL as expired. S3 and MinIO answer 403 AccessDenied "Request
    /// has expired"; rclone 400 AccessDenied (the request's time too far from the server's).
    var meansURLExpired: Bool {
        guard case .api(let status, "store_refused", let message) = self, [400, 403].contains(status) else { return false }
        return message.contains("(AccessDenied") || message.localizedCaseInsensitiveContains("expired")
    }
}
