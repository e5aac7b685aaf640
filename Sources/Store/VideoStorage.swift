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
    /// temporary file is dropped instead. Returns the key, and whether this call put the file there
    /// (a caller whose record then cannot be written removes it again: `remove(key:)`).
    public func commit(tempFile: URL, hash: String) throws -> (key: String, created: Bool) {
        let key = Self.key(forHash: hash)
        let destination = root.appendingPathComponent(key)
        let fm = FileManager.default
        try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        if fm.fileExists(atPath: destination.path) {
            try? fm.removeItem(at: tempFile)
            return (key, false)
        }
        // rename(2) is atomic within one file system; tmp/ lives beside videos/ for that reason.
        try fm.moveItem(at: tempFile, to: destination)
        return (key, true)
    }

    /// Removes a stored video's file.
    public func remove(key: String) throws {
        try FileManager.default.removeItem(atPath: path(forKey: key))
    }

    /// How old an upload's temporary file must be before a sweep takes it for abandoned: a live
    /// upload writes to it at least every idle timeout, and probing the finished file takes
    /// seconds, so a quarter of an hour of silence means its coordinator died mid-upload.
    public static let staleTemporaryAge: TimeInterval = 15 * 60

    /// Deletes temporary upload files not modified for `age` seconds (left by a coordinator that
    /// died mid-upload); returns their names. Younger ones may belong to another coordinator
    /// sharing this directory and are left alone.
    @discardableResult
    public func sweepTemporaryFiles(olderThan age: TimeInterval = staleTemporaryAge, now: Date = Date()) -> [String] {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: tempDirectory.path)) ?? []
        return names.filter { name in
            let url = tempDirectory.appendingPathComponent(name)
            guard let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) >= age else { return false }
            return (try? fm.removeItem(at: url)) != nil
        }.sorted()
    }

    /// Every stored video file: its key, size and last change.
    public func storedFiles() -> [(key: String, bytes: Int64, modified: Date)] {
        let fm = FileManager.default
        let videos = root.appendingPathComponent("videos")
        var found: [(key: String, bytes: Int64, modified: Date)] = []
        for prefix in ((try? fm.contentsOfDirectory(atPath: videos.path)) ?? []).sorted() {
            let folder = videos.appendingPathComponent(prefix)
            for name in ((try? fm.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                let attributes = try? fm.attributesOfItem(atPath: folder.appendingPathComponent(name).path)
                guard attributes?[.type] as? FileAttributeType == .typeRegular else { continue }
                found.append(("videos/\(prefix)/\(name)", (attributes?[.size] as? NSNumber)?.int64Value ?? 0,
                              attributes?[.modificationDate] as? Date ?? .distantPast))
            }
        }
        return found
    }
}
