import Foundation

/// The coordinator's folder of uploads being received (`<storage dir>/tmp`), whatever the store:
/// a body is streamed to a file here and hashed, checked, then put into the store.
public struct UploadSpool: Sendable {
    public let directory: URL

    /// The spool of the storage folder `storageDir`: beside `videos/`, so a local store's `put` is a rename.
    public init(storageDir: String) {
        directory = URL(fileURLWithPath: storageDir, isDirectory: true).appendingPathComponent("tmp", isDirectory: true)
    }

    public func prepare() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func newFile() -> URL {
        directory.appendingPathComponent(UUID().uuidString.lowercased() + ".upload")
    }

    /// How old an upload's file must be before a sweep takes it for abandoned: a live upload
    /// writes to it at least every idle timeout, and probing the finished file takes seconds, so a
    /// quarter of an hour of silence means its coordinator died mid-upload. A stored object no
    /// row points to is left as long before `reelwork storage check` calls it an orphan.
    public static let staleAge: TimeInterval = 15 * 60

    /// Deletes files not modified for `age` seconds (left by a coordinator that died mid-upload);
    /// returns their names. Younger ones may belong to another coordinator sharing this folder.
    @discardableResult
    public func sweep(olderThan age: TimeInterval = staleAge, now: Date = Date()) -> [String] {
        let fm = FileManager.default
        let names = (try? fm.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { name in
            let url = directory.appendingPathComponent(name)
            guard let modified = (try? fm.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
                  now.timeIntervalSince(modified) >= age else { return false }
            return (try? fm.removeItem(at: url)) != nil
        }.sorted()
    }
}
