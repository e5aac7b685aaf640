import Foundation
import Media
import TestSupport
import XCTest

final class ContentHasherTests: XCTestCase {
    func testEmptyInputIsTheKnownSHA256() {
        XCTAssertEqual(ContentHasher().finalize(), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    func testKnownVector() {
        let hasher = ContentHasher()
        hasher.update(Array("abc".utf8))
        XCTAssertEqual(hasher.finalize(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // finalize is idempotent.
        XCTAssertEqual(hasher.finalize(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    /// Hashing a file in uneven chunks gives what sha256sum says for the whole file.
    func testChunkedFileHashEqualsSha256sum() throws {
        let directory = try FixtureDirectory()
        defer { directory.remove() }
        let path = try directory.write(pseudoRandomBytes(count: 3_000_017), to: "upload.bin")

        let hasher = ContentHasher()
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var chunkSizes = [65_536, 1, 100_000, 7]
        while let chunk = try handle.read(upToCount: chunkSizes[0]), !chunk.isEmpty {
            chunkSizes.append(chunkSizes.removeFirst())
            if chunk.count % 2 == 0 {
                chunk.withUnsafeBytes { hasher.update($0) }
            } else {
                hasher.update([UInt8](chunk))
            }
        }
        let expected = String(decoding: try Tool.run("sha256sum", [path]), as: UTF8.self).split(separator: " ").first.map(String.init)
        XCTAssertEqual(hasher.finalize(), expected)
    }
}
