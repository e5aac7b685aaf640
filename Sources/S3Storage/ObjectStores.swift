import Foundation
import ObjectStorage
import ReelworkCore

/// The store a process's settings choose.
public enum ObjectStores {
    /// - Parameter now: the clock an S3 store signs with. A process that signs for another host to
    ///   check (the coordinator, a worker) passes Redis's (`RedisClock`), so every signature carries
    ///   one clock whatever its own host's says; the default, this host's clock, is for tests.
    public static func make(_ config: ReelworkConfig, now: @escaping @Sendable () -> Date = { Date() }) -> any PartUploads {
        switch config.storage {
        case .local: return LocalObjectStore(root: config.storageDir)
        case .s3(let settings): return S3ObjectStore(settings: settings, now: now)
        }
    }
}
