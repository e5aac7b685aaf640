import Foundation

/// One stored object: its key, size and last change.
public struct StoredObject: Sendable, Equatable {
    public var key: String
    public var bytes: Int64
    public var modified: Date

    public init(key: String, bytes: Int64, modified: Date) {
        self.key = key
        self.bytes = bytes
        self.modified = modified
    }
}

/// Where videos are kept, by key (`ObjectKey`): a local folder or an S3-compatible bucket. The
/// coordinator puts and removes, workers only read (`readLocation`), `reelwork storage check`
/// lists. Every failure is an `ObjectStoreError` that names the store and the problem.
public protocol ObjectStore: Sendable {
    /// The store in words for logs and errors: `folder /var/lib/reelwork/storage`, `bucket reelwork at https://…`.
    var location: String { get }

    /// Checks that the store can be used before a process starts serving: the folder exists and
    /// is writable, or the bucket exists and takes our credentials.
    func prepare() async throws

    /// Stores the bytes of `file` (whose SHA-256 is `sha256`, lower-case hex) under `key`, unless
    /// an object is there already. Returns true when this call stored it; the caller removes
    /// `file` afterwards in either case.
    func put(file: URL, sha256: String, key: String) async throws -> Bool

    /// The size of the object under `key`; nil when there is none.
    func size(of key: String) async throws -> Int64?

    /// Removes the object under `key`; removing one that is not there is not an error.
    func remove(key: String) async throws

    /// Every object whose key starts with `prefix`, in key order.
    func list(prefix: String) async throws -> [StoredObject]

    /// Where FFmpeg opens the object: a local path, or a URL that reads it without further
    /// credentials for `seconds` (an S3 presigned GET). Computed locally, without a request.
    func readLocation(key: String, validFor seconds: Int) throws -> String

    /// The same for a client outside (a redirect of `GET /v1/videos/{id}/content`): a bucket's
    /// URL at the address clients reach it by.
    func clientReadLocation(key: String, validFor seconds: Int) throws -> String
}

extension ObjectStore {
    public func clientReadLocation(key: String, validFor seconds: Int) throws -> String {
        try readLocation(key: key, validFor: seconds)
    }
}
