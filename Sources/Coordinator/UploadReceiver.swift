import Foundation
import Hummingbird
import Media
import Metrics
import NIOCore
import ReelworkCore
import Store

/// Streams a request body to a temporary file, hashing it on the way, never holding more than one
/// chunk in memory. Enforces the size limit while streaming. Every byte received counts in
/// `reelwork_upload_bytes_total`, also those of uploads refused or broken off (they cost as much).
struct UploadReceiver {
    let storage: VideoStorage
    let limit: Int64
    private let uploadBytes = Counter(label: MetricName.uploadBytes)

    init(storage: VideoStorage, limit: Int64) {
        self.storage = storage
        self.limit = limit
    }

    struct Received {
        var file: URL
        var size: Int64
        var sha256: String
    }

    /// Receives the body; on any failure the temporary file is removed before the error is thrown.
    func receive(_ body: RequestBody) async throws -> Received {
        let file = storage.newTempFile()
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw APIError(.internalServerError, "storage", "cannot create an upload file in \(storage.tempDirectory.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            defer { try? handle.close() }
            let hasher = ContentHasher()
            var size: Int64 = 0
            for try await chunk in body {
                uploadBytes.increment(by: chunk.readableBytes)
                size += Int64(chunk.readableBytes)
                if size > limit {
                    throw APIError(.contentTooLarge, "too_large",
                                   "the upload is larger than the limit of \(limit) bytes (\(ReelworkConfig.Env.maxUploadBytes))")
                }
                chunk.withUnsafeReadableBytes { hasher.update($0) }
                try handle.write(contentsOf: chunk.readableBytesView)
            }
            return Received(file: file, size: size, sha256: hasher.finalize())
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }
}
