import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import ObjectStorage
import ReelworkCore

/// S3's multipart uploads, for uploads that go from a client straight to the bucket: the
/// coordinator starts one, hands out presigned URLs for its parts, and completes (or aborts) it;
/// the bytes never pass through the coordinator. Parts are 5 MiB to 5 GiB but the last, at most
/// 10,000 of them (S3's limits, which compatible stores share).
extension S3ObjectStore {
    /// A part the store holds for an upload in progress.
    public struct UploadedPart: Sendable, Equatable {
        public var number: Int
        public var etag: String
        public var bytes: Int64
    }

    /// A multipart upload the store holds open.
    public struct OpenUpload: Sendable, Equatable {
        public var key: String
        public var uploadId: String
        public var initiated: Date
    }

    public static let minimumPartBytes: Int64 = 5 << 20
    public static let maximumParts = 10_000

    /// Starts a multipart upload to `key`; returns its upload id.
    public func createMultipartUpload(key: String) async throws -> String {
        let what = "starting an upload to \(key)"
        let answer = try await send("POST", url: url(forKey: key, query: "uploads="), what: what)
        guard answer.status == .ok else { throw failure(answer.status, body: answer.body, what: what) }
        guard let id = S3XMLFields.parse(answer.body)?.first(where: { $0.name == "UploadId" })?.text, !id.isEmpty else {
            throw ObjectStoreError(.unexpected, "the \(location) started an upload without an upload id")
        }
        return id
    }

    /// A URL that lets its holder PUT part `number` of the upload for `seconds`, without our keys.
    public func presignedPartURL(key: String, uploadId: String, number: Int, seconds: Int) throws -> String {
        try ObjectKey.check(key)
        guard (1...Self.maximumParts).contains(number) else {
            throw ObjectStoreError(.invalid, "part \(number) is outside 1...\(Self.maximumParts)")
        }
        let query = "partNumber=\(number)&uploadId=\(SignatureV4.encode(uploadId))"
        return signer.presignedURL(method: "PUT", url: url(forKey: key, query: query, forClients: true), seconds: seconds, date: now()).absoluteString
    }

    /// The parts the store holds for the upload, in order (every page of the listing).
    public func listParts(key: String, uploadId: String) async throws -> [UploadedPart] {
        var parts: [UploadedPart] = []
        var marker = 0
        let what = "listing the parts of an upload to \(key)"
        while true {
            let query = "part-number-marker=\(marker)&uploadId=\(SignatureV4.encode(uploadId))"
            let answer = try await send("GET", url: url(forKey: key, query: query), what: what)
            guard answer.status == .ok else { throw failure(answer.status, body: answer.body, what: what) }
            guard let fields = S3XMLFields.parse(answer.body) else {
                throw ObjectStoreError(.unexpected, "the \(location) answered a part listing Reelwork cannot read")
            }
            var number: Int?, etag: String?, size: Int64?
            var truncated = false, next: Int?
            for field in fields {
                switch field.name {
                case "PartNumber": number = Int(field.text)
                case "ETag": etag = field.text
                case "Size": size = Int64(field.text)
                case "Part":
                    if let number, let etag { parts.append(UploadedPart(number: number, etag: etag, bytes: size ?? 0)) }
                    number = nil; etag = nil; size = nil
                case "IsTruncated": truncated = field.text == "true"
                case "NextPartNumberMarker": next = Int(field.text)
                default: break
                }
            }
            guard truncated, let next, next > marker else { break }
            marker = next
        }
        return parts.sorted { $0.number < $1.number }
    }

    /// Joins `parts` (each number once, in order) into the object at `key`. A store may answer 200
    /// and put its error in the body; that is an error here too.
    public func completeMultipartUpload(key: String, uploadId: String, parts: [UploadedPart]) async throws {
        let what = "completing an upload to \(key)"
        var xml = "<CompleteMultipartUpload>"
        for part in parts.sorted(by: { $0.number < $1.number }) {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(Self.escaped(part.etag))</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let body = Data(xml.utf8)
        let answer = try await send("POST", url: url(forKey: key, query: "uploadId=\(SignatureV4.encode(uploadId))"),
                                    payloadHash: SignatureV4.hexSHA256(body), body: { .bytes(ByteBuffer(bytes: body)) }, what: what)
        if answer.status == .ok, S3ErrorBody(xml: answer.body) == nil { return }
        throw failure(answer.status == .ok ? .internalServerError : answer.status, body: answer.body, what: what)
    }

    /// Abandons the upload; the store drops its parts. One already gone is not an error.
    public func abortMultipartUpload(key: String, uploadId: String) async throws {
        let what = "abandoning an upload to \(key)"
        let answer = try await send("DELETE", url: url(forKey: key, query: "uploadId=\(SignatureV4.encode(uploadId))"), what: what)
        guard [204, 200, 404].contains(answer.status.code) else { throw failure(answer.status, body: answer.body, what: what) }
    }

    /// The uploads the store holds open under `prefix` (the first thousand: a sweep that aborts
    /// them finds the rest on its next round).
    public func listMultipartUploads(prefix: String) async throws -> [OpenUpload] {
        let what = "listing open uploads under \(prefix)"
        let answer = try await send("GET", url: url(forKey: nil, query: "prefix=\(SignatureV4.encode(prefix))&uploads="), what: what)
        // rclone's server answers a listing with none open as NoSuchUpload.
        if answer.status == .notFound, S3ErrorBody(xml: answer.body)?.code == "NoSuchUpload" { return [] }
        guard answer.status == .ok else { throw failure(answer.status, body: answer.body, what: what) }
        guard let fields = S3XMLFields.parse(answer.body) else {
            throw ObjectStoreError(.unexpected, "the \(location) answered an upload listing Reelwork cannot read")
        }
        var uploads: [OpenUpload] = []
        var key: String?, id: String?, initiated: Date?
        for field in fields {
            switch field.name {
            case "Key": key = field.text
            case "UploadId": id = field.text
            case "Initiated": initiated = S3ListPage.date(field.text)
            case "Upload":
                if let key, let id { uploads.append(OpenUpload(key: key, uploadId: id, initiated: initiated ?? .distantPast)) }
                key = nil; id = nil; initiated = nil
            default: break
            }
        }
        return uploads
    }

    /// Copies the object at `source` to `destination` inside the bucket, on the store's side.
    public func copy(from source: String, to destination: String) async throws {
        try ObjectKey.check(source)
        let what = "copying \(source) to \(destination)"
        let answer = try await send("PUT", url: url(forKey: destination), extraHeaders: ["x-amz-copy-source": "/\(settings.bucket)/\(source)"],
                                    what: what)
        if answer.status == .ok, S3ErrorBody(xml: answer.body) == nil { return }
        throw failure(answer.status == .ok ? .internalServerError : answer.status, body: answer.body, what: what)
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}

/// Uploads in parts go from the client straight to the bucket: as S3 multipart uploads, or for a
/// file of one part as one presigned PUT of the object (no multipart upload to start and complete:
/// two requests fewer, and what S3 advises for small objects). Either way the object lands at the
/// staging key and is checked before it moves to its content key.
extension S3ObjectStore: PartUploads {
    public var partsComeThroughCoordinator: Bool { false }

    public func beginParts(key: String, parts: Int) async throws -> String? {
        try ObjectKey.check(key)
        return parts == 1 ? nil : try await createMultipartUpload(key: key)
    }

    public func partURL(key: String, uploadId: String?, number: Int, validFor seconds: Int) throws -> String? {
        guard let uploadId else {
            try ObjectKey.check(key)
            guard number == 1 else { throw ObjectStoreError(.invalid, "the upload to \(key) is one part; there is no part \(number)") }
            return signer.presignedURL(method: "PUT", url: url(forKey: key, forClients: true), seconds: seconds, date: now()).absoluteString
        }
        return try presignedPartURL(key: key, uploadId: uploadId, number: number, seconds: seconds)
    }

    public func receivePart(key: String, number: Int, file: URL) async throws {
        throw ObjectStoreError(.invalid, "the parts of an upload to the \(location) go to the bucket, not through the coordinator")
    }

    public func receivedParts(key: String, uploadId: String?) async throws -> [ReceivedPart] {
        guard let uploadId else { return try await size(of: key).map { [ReceivedPart(number: 1, bytes: $0)] } ?? [] }
        return try await listParts(key: key, uploadId: uploadId).map { ReceivedPart(number: $0.number, bytes: $0.bytes, etag: $0.etag) }
    }

    public func joinParts(key: String, uploadId: String?, parts: [ReceivedPart]) async throws {
        // One part is the object already.
        guard let uploadId else { return }
        try await completeMultipartUpload(key: key, uploadId: uploadId,
                                          parts: parts.map { UploadedPart(number: $0.number, etag: $0.etag, bytes: $0.bytes) })
    }

    public func dropParts(key: String, uploadId: String?) async throws {
        do {
            if let uploadId { try await abortMultipartUpload(key: key, uploadId: uploadId) }
        } catch let error as ObjectStoreError where error.reason == .missingUpload {
            // Its parts were joined already (a complete that failed afterwards): the object remains.
        }
        try await remove(key: key)
    }

    /// Once the copy is in place the move has happened: the source left behind by a removal that
    /// failed is only a leftover (`reelwork storage check` finds it), not a reason to say the
    /// video was not stored.
    public func move(from source: String, to destination: String) async throws -> Bool {
        let placed = try await size(of: destination) == nil
        if placed { try await copy(from: source, to: destination) }
        do {
            try await remove(key: source)
        } catch {
            Self.logger.warning("\(source) stays in the \(location) after its move to \(destination): \(error); `reelwork storage check --remove-orphans` removes it")
        }
        return placed
    }
}
