import Foundation

/// Keys of stored objects. Videos are content-addressed, `videos/ab/<sha256>`, so the same bytes
/// are stored once and a key says nothing about who uploaded them.
public enum ObjectKey {
    public static let videosPrefix = "videos/"

    public static func video(sha256: String) -> String {
        "\(videosPrefix)\(sha256.prefix(2))/\(sha256)"
    }

    /// A key this program could have made: segments of letters, digits, `-`, `_` and `.`, no
    /// empty, `.` or `..` segment. Stores refuse any other key before it reaches a path or a URL.
    public static func isValid(_ key: String) -> Bool {
        guard !key.isEmpty, key.utf8.count <= 512 else { return false }
        return key.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { segment in
            !segment.isEmpty && segment != "." && segment != ".."
                && segment.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
        }
    }

    /// Throws `ObjectStoreError(.invalid)` naming `key` unless it `isValid`: every store checks a key with this before it reaches a path or a URL.
    public static func check(_ key: String) throws {
        guard isValid(key) else { throw ObjectStoreError(.invalid, "'\(key.prefix(100))' is not a storage key") }
    }
}

extension ObjectKey {
    public static let uploadsPrefix = "uploads/"

    /// Where upload `id`'s parts are joined before its bytes are checked.
    public static func upload(id: UUID) -> String {
        "\(uploadsPrefix)\(id.uuidString.lowercased())"
    }
}
