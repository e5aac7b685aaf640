import Foundation

/// A folder of files in transit: the coordinator's uploads being received (`<storage dir>/tmp`,
/// whatever the store: a body is streamed to a file here, hashed, checked, then put into the
/// store), and a worker's local copies of the videos it runs (`<storage dir>/copies`).
public struct UploadSpool: Sendable {
    public let directory: URL

    /// The upload spool of the storage folder `storageDir`: beside `videos/`, so a local store's `put` is a rename.
    public init(storageDir: String) {
        self.init(directory: URL(fileURLWithPath: storageDir, isDirectory: true).appendingPathComponent("tmp", isDirectory: true))
    }

    public init(directory: URL) {
        self.directory = directory
    }

    /// A worker's folder of local copies in the storage folder `storageDir`: apart from the upload
    /// spool, whose sweep (a coordinator's, at its start) would take a long run's copy for abandoned.
    public static func localCopies(storageDir: String) -> UploadSpool {
        UploadSpool(directory: URL(fileURLWithPath: storageDir, isDirectory: true).appendingPathComponent("copies", isDirectory: true))
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
