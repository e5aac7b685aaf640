import Foundation
import NIOCore

/// A file's bytes as a sequence of buffers, read a chunk at a time, so a put never holds the
/// whole video in memory.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let url: URL
    static let chunkBytes = 1 << 20

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let url: URL

        mutating func next() async throws -> ByteBuffer? {
            guard let handle else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path]) }
            guard let data = try handle.read(upToCount: FileChunks.chunkBytes), !data.isEmpty else {
                try? handle.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: try? FileHandle(forReadingFrom: url), url: url)
    }
}
