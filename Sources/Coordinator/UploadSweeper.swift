import Foundation
import Logging
import ObjectStorage
import ReelworkCore
import ServiceLifecycle
import Store

/// Abandons uploads in parts not completed by their expiry (`REELWORK_UPLOAD_EXPIRY_HOURS`): each
/// is marked `expired`, then its parts are dropped from the store, so a bucket does not keep (and
/// bill) the parts of uploads no one will finish. Every coordinator sweeps; the move out of an
/// unfinished state is atomic, so only one drops a given upload's parts.
struct UploadSweeper: Service {
    let backends: Backends
    let store: any PartUploads

    /// How often to look; expiry is counted in hours, so a minute late is nothing.
    static let interval: Duration = .seconds(60)
    /// Uploads one round abandons; the next round takes the rest.
    static let batch = 100

    func run() async throws {
        try? await cancelWhenGracefulShutdown {
            while true {
                await sweep()
                try await Task.sleep(for: Self.interval)
            }
        }
    }

    /// One round; returns how many uploads it abandoned.
    @discardableResult
    func sweep() async -> Int {
        do {
            let expired = try await backends.sql { try UploadRepository($0).expired(limit: Self.batch) }
            var done = 0
            for upload in expired {
                guard try await backends.sql({ try UploadRepository($0).move(upload.id, from: upload.status, to: .expired) }) != nil else { continue }
                do {
                    try await store.dropParts(key: upload.stagingKey, uploadId: upload.storeUploadId)
                } catch {
                    backends.logger.warning("dropping the parts of expired upload \(upload.id.uuidString.lowercased()) failed: \(error); `reelwork storage check` finds them")
                }
                done += 1
            }
            if done > 0 { backends.logger.info("abandoned \(done) upload(s) not completed within \(backends.config.limits.uploadExpiryHours) h") }
            return done
        } catch {
            backends.logger.warning("sweeping expired uploads failed: \(error)")
            return 0
        }
    }
}
