import CFFmpeg

/// SHA-256 through libavutil's av_sha, so hashing needs no extra crypto dependency.
/// Feed the bytes in any number of chunks, then call `finalize` once.
/// Not thread-safe: one upload, one hasher.
public final class ContentHasher {
    private let context: OpaquePointer
    private var digest: String?

    public init() {
        // av_sha_alloc only fails when memory is exhausted, where Swift itself would trap too.
        guard let context = av_sha_alloc() else { fatalError("av_sha_alloc: out of memory") }
        self.context = context
        av_sha_init(context, 256)
    }

    deinit {
        av_free(UnsafeMutableRawPointer(context))
    }

    /// Adds `bytes` to the hash. Updating after `finalize` is a programming error.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        precondition(digest == nil, "ContentHasher.update after finalize")
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        av_sha_update(context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    public func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The lowercase hex SHA-256 of everything passed to `update`. The first call ends the
    /// hash; later calls return the same digest.
    public func finalize() -> String {
        if let digest { return digest }
        var bytes = [UInt8](repeating: 0, count: 32)
        av_sha_final(context, &bytes)
        let hex = bytes.map { byte in
            let text = String(byte, radix: 16)
            return byte < 16 ? "0" + text : text
        }.joined()
        digest = hex
        return hex
    }
}
