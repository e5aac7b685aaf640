import Foundation

/// Objects as files under a folder, `<root>/<key>`. A file is renamed into place (`put` from the
/// spool beside it, on the same file system), so a half-written file is never visible under a key.
public struct LocalObjectStore: ObjectStore {
    public let root: URL

    public init(root: String) {
        self.root = URL(fileURLWithPath: root, isDirectory: true)
    }

    public var location: String { "folder \(root.path)" }

    public func path(forKey key: String) -> String {
        root.appendingPathComponent(key).path
    }

    public func prepare() async throws {
        let videos = root.appendingPathComponent(ObjectKey.videosPrefix, isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        } catch {
            throw ObjectStoreError(.missingContainer, "cannot create the storage folder \(videos.path): \(error.localizedDescription)")
        }
        guard FileManager.default.isWritableFile(atPath: videos.path) else {
            throw ObjectStoreError(.refused, "the storage folder \(videos.path) is not writable by this process")
        }
    }

    /// Moves `file` under `key` (rename(2), atomic within one file system: the spool lives beside
    /// `videos/` for that reason). When the same bytes are stored already, `file` stays where it is.
    public func put(file: URL, sha256: String, key: String) async throws -> Bool {
        try ObjectKey.check(key)
        let destination = root.appendingPathComponent(key)
        let fm = FileManager.default
        if fm.fileExists(atPath: destination.path) { return false }
        do {
            try fm.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.moveItem(at: file, to: destination)
        } catch {
            // Another upload of the same bytes may have won the race to the name: that is a stored object.
            if fm.fileExists(atPath: destination.path) { return false }
            throw ObjectStoreError(.unavailable, "cannot store \(key) in \(location): \(error.localizedDescription)")
        }
        return true
    }

    public func size(of key: String) async throws -> Int64? {
        try ObjectKey.check(key)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path(forKey: key))
        guard attributes?[.type] as? FileAttributeType == .typeRegular else { return nil }
        return (attributes?[.size] as? NSNumber)?.int64Value
    }

    public func remove(key: String) async throws {
        try ObjectKey.check(key)
        let path = path(forKey: key)
        guard FileManager.default.fileExists(atPath: path) else { return }
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            throw ObjectStoreError(.unavailable, "cannot remove \(key) from \(location): \(error.localizedDescription)")
        }
    }

    /// Regular files below `root` whose key starts with `prefix`; the folder's walk stays inside
    /// `root` (symbolic links are not followed).
    public func list(prefix: String) async throws -> [StoredObject] {
        let fm = FileManager.default
        guard let walker = fm.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey],
                                         options: [.skipsHiddenFiles]) else { return [] }
        var found: [StoredObject] = []
        let rootPath = root.standardizedFileURL.path + "/"
        for case let url as URL in walker {
            let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey])
            guard values?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(rootPath) else { continue }
            let key = String(path.dropFirst(rootPath.count))
            guard key.hasPrefix(prefix), ObjectKey.isValid(key) else { continue }
            found.append(StoredObject(key: key, bytes: Int64(values?.fileSize ?? 0), modified: values?.contentModificationDate ?? .distantPast))
        }
        return found.sorted { $0.key < $1.key }
    }

    /// The file's path: a worker on this machine (or one mounting the folder) opens it directly.
    public func readLocation(key: String, validFor seconds: Int) throws -> String {
        try ObjectKey.check(key)
        return path(forKey: key)
    }
}
