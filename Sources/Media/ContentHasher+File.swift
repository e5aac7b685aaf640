import Foundation

extension ContentHasher {
    /// The size and lowercase hex SHA-256 of the file at `file`, read a MiB at a time.
    public static func hash(file: URL) throws -> (bytes: Int64, sha256: String) {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let hasher = ContentHasher()
        var bytes: Int64 = 0
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            bytes += Int64(chunk.count)
            chunk.withUnsafeBytes { hasher.update($0) }
        }
        return (bytes, hasher.finalize())
    }
}
