import Foundation
import ObjectStorage
import ReelworkCore

/// The store a process's settings choose.
public enum ObjectStores {
    public static func make(_ config: ReelworkConfig) -> any PartUploads {
        switch config.storage {
        case .local: return LocalObjectStore(root: config.storageDir)
        case .s3(let settings): return S3ObjectStore(settings: settings)
        }
    }
}
