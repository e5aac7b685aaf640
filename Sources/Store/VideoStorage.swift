import Foundation
import ReelworkCore

/// Content-addressed video files under the storage directory: `videos/ab/<sha256>`.
/// Uploads are written to `tmp/` first and renamed into place, so a half-written file is never
/// visible under a video's key.
public struct VideoStorage: Sendable {
    public let root: URL

    public init(root: String) {
        self.root = URL(fileURLWithPath: root, isDirectory: true)
    }

    public var tempDirectory: URL { root.appendingPathComponent("tmp", isDirectory: true) }

    public static func key(forHash hash: String) -> String {
        "videos/\(hash.prefix(2))/\(hash)"
    }

    public func path(forKey key: String) -> String {
        root.appendingPathComponent(key).path
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: tempDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("videos"), withIntermediateDirectories: true)
    }

    public func newTempFile() -> URL {
        tempDirectory.appendingPathComponent(UUID().uuidString.lowercased() + ".upload")
    }

    /// Moves a finished upload under its content key. If the same bytes are already stored, the
    /// temporary file is dropped instead. Returns the key.
    public func commit(tempFile: URL, hash: String) throws -> String {
        let key = Self.key(forHash: hash)
        let destination = root.appendingPathComponent(key)
        let fm = FileManager.default
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if fm.fileExists(atPath: destination.path) {
            try? fm.removeItem(at: tempFile)
        } else {
            // rename(2) is atomic within one file system; tmp/ lives beside videos/ for that reason.
            try fm.moveItem(at: tempFile, to: destination)
        }
        return key
    }
}
