import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// The worker's local copy of a video: the bytes as they were, a sign of life per chunk, the
/// size limit, and a stop from the caller ending the copy with the caller's own error.
final class MediaCopyTests: XCTestCase {
    var scratch: ScratchDirectory!
    var source: URL!
    let bytes = Data((0..<(3 << 20) + 12_345).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })

    override func setUpWithError() throws {
        scratch = try ScratchDirectory(prefix: "media-copy")
        source = scratch.url.appendingPathComponent("video.bin")
        try bytes.write(to: source)
    }

    override func tearDown() {
        scratch?.remove()
    }

    func testTheCopyHoldsTheSameBytesAndSaysItIsAliveOnTheWay() throws {
        var chunks = 0
        let copied = try MediaCopy.copy(source.path, to: scratch.path("copy"), maxBytes: 1 << 30, guards: MediaGuards()) { chunks += 1 }
        XCTAssertEqual(copied, Int64(bytes.count))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: scratch.path("copy"))), bytes)
        XCTAssertGreaterThanOrEqual(chunks, 3, "a sign of life per MiB, not one at the end")
    }

    func testAVideoOverTheLimitIsRefused() {
        XCTAssertThrowsError(try MediaCopy.copy(source.path, to: scratch.path("copy"), maxBytes: 1 << 20, guards: MediaGuards())) { error in
            XCTAssertEqual((error as? MediaError)?.kind, .invalidInput)
            XCTAssertTrue("\(error)".contains("larger than the limit of 1048576 bytes"), "\(error)")
        }
    }

    func testTheCallersStopEndsTheCopyWithItsOwnError() {
        struct Stopped: Error {}
        var chunks = 0
        XCTAssertThrowsError(try MediaCopy.copy(source.path, to: scratch.path("copy"), maxBytes: 1 << 30, guards: MediaGuards()) {
            chunks += 1
            if chunks == 2 { throw Stopped() }
        }) { error in
            XCTAssertTrue(error is Stopped, "\(error)")
        }
        XCTAssertEqual(chunks, 2, "nothing more was read after the stop")
    }

    func testAMissingSourceIsNamedWithoutItsQuery() {
        XCTAssertThrowsError(try MediaCopy.copy("http://127.0.0.1:9/videos/x?X-Amz-Signature=secret", to: scratch.path("copy"),
                                                maxBytes: 1 << 30, guards: MediaGuards())) { error in
            XCTAssertEqual((error as? MediaError)?.kind, .transient, "\(error)")
            XCTAssertFalse("\(error)".contains("secret"), "\(error)")
        }
    }
}
