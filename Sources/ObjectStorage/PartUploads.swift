import Foundation

/// A part a store holds for an upload in progress.
public struct ReceivedPart: Sendable, Equatable {
    public var number: Int
    public var bytes: Int64
    /// The store's tag for the part (S3 joins parts by number and tag); a folder's parts have none.
    public var etag: String

    public init(number: Int, bytes: Int64, etag: String = "") {
        self.number = number
        self.bytes = bytes
        self.etag = etag
    }
}

/// Files a client sends in numbered parts, joined in the store into one object at a staging key,
/// then moved to their content key once checked: S3's multipart uploads (the parts go from the
/// client to the bucket), or files in the storage folder (the parts go through the coordinator).
public protocol PartUploads: ObjectStore {
    /// Whether parts are sent to the coordinator (`receivePart`) rather than straight to the store.
    var partsComeThroughCoordinator: Bool { get }

    /// Starts an upload of `parts` parts to be joined at `key`; returns the store's id for it, if
    /// it keeps one.
    func beginParts(key: String, parts: Int) async throws -> String?

    /// A URL that takes a `PUT` of part `number` for `seconds` without our keys; nil when parts
    /// come through the coordinator (`receivePart`).
    func partURL(key: String, uploadId: String?, number: Int, validFor seconds: Int) throws -> String?

    /// Keeps a part the coordinator received (`file` is moved away or left to the caller to remove).
    func receivePart(key: String, number: Int, file: URL) async throws

    /// The parts held for the upload, by number.
    func receivedParts(key: String, uploadId: String?) async throws -> [ReceivedPart]

    /// Joins `parts` (all of them, in order) into the object at `key`; the parts are gone after.
    func joinParts(key: String, uploadId: String?, parts: [ReceivedPart]) async throws

    /// Drops what an upload left behind: its parts, and the joined object if there is one.
    func dropParts(key: String, uploadId: String?) async throws

    /// Moves the object at `source` to `destination`, unless the same bytes are there already
    /// (content keys): then `source` is just removed. True when this call placed `destination`.
    func move(from source: String, to destination: String) async throws -> Bool
}
