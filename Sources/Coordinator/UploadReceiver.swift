import Foundation
import Hummingbird
import Media
import Metrics
import NIOCore
import ObjectStorage
import ReelworkCore
import Store
import Threading

/// Streams a request body to a file in the spool, hashing it on the way, never holding more than one
/// chunk in memory. Enforces the size limit and the pace (`UploadPace`) while streaming. Every byte received counts in
/// `reelwork_upload_bytes_total`, also those of uploads refused or broken off (they cost as much).
struct UploadReceiver {
    let spool: UploadSpool
    let limit: Int64
    let pace: UploadPace
    private let uploadBytes = Counter(label: MetricName.uploadBytes)

    init(spool: UploadSpool, limit: Int64, pace: UploadPace) {
        self.spool = spool
        self.limit = limit
        self.pace = pace
    }

    struct Received {
        var file: URL
        var size: Int64
        var sha256: String
    }

    /// Receives the body; on any failure the temporary file is removed before the error is thrown.
    func receive(_ body: RequestBody) async throws -> Received {
        let file = spool.newFile()
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw APIError(.internalServerError, "storage", "cannot create an upload file in \(spool.directory.path)")
        }
        do {
            let received = LockedValue<Int64>(0)
            return try await withThrowingTaskGroup(of: Received?.self) { group in
                group.addTask { try await self.write(body, to: file, received: received) }
                group.addTask {
                    try await self.pace.watch(received)
                    return nil
                }
                // The first to end decides: the whole body written, or the pace broken (which
                // cancels the writing, and the body's reading with it).
                let first = try await group.next() ?? nil
                group.cancelAll()
                guard let first else { throw CancellationError() }
                return first
            }
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    private func write(_ body: RequestBody, to file: URL, received: LockedValue<Int64>) async throws -> Received {
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let hasher = ContentHasher()
        var size: Int64 = 0
        for try await chunk in body {
            uploadBytes.increment(by: chunk.readableBytes)
            size += Int64(chunk.readableBytes)
            received.withLock { $0 = size }
            if size > limit {
                throw APIError(.contentTooLarge, "too_large",
                               "the upload is larger than the limit of \(limit) bytes (\(ReelworkConfig.Env.maxUploadBytes))")
            }
            chunk.withUnsafeReadableBytes { hasher.update($0) }
            try handle.write(contentsOf: chunk.readableBytesView)
        }
        return Received(file: file, size: size, sha256: hasher.finalize())
    }
}
