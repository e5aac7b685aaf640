import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// Inputs that are not (complete) videos: each must fail as `.invalidInput` with a message
/// that names the problem, both when probing and when opening a decoder.
final class BadInputTests: FixtureTestCase {

    /// Probe (with and without packet verification) and VideoDecoder must all reject `path`.
    private func assertRejected(_ path: String, containing fragments: [String], file: StaticString = #filePath, line: UInt = #line) {
        assertMediaError(.invalidInput, containing: fragments, file: file, line: line) { try MediaProbe.probe(path) }
        assertMediaError(.invalidInput, containing: fragments, file: file, line: line) { try MediaProbe.probe(path, verifyPackets: true) }
        assertMediaError(.invalidInput, containing: fragments, file: file, line: line) { try VideoDecoder(location: path) }
    }

    func testEmptyFile() throws {
        let path = try fixtures.write(Data(), to: "empty.mp4")
        assertRejected(path, containing: ["the file is empty"])
    }

    func testRandomBytes() throws {
        let path = try fixtures.write(pseudoRandomBytes(count: 200_000), to: "random.mp4")
        assertRejected(path, containing: ["not a video file: Invalid data found when processing input"])
    }

    func testTextFileNamedMp4() throws {
        let text = String(repeating: "These are my notes about the match, not a video.\n", count: 100)
        let path = try fixtures.write(Data(text.utf8), to: "notes.mp4")
        assertRejected(path, containing: ["not a video file: Invalid data found when processing input"])
    }

    func testMissingFile() {
        assertRejected(fixtures.path("does-not-exist.mp4"), containing: ["cannot open", "No such file or directory"])
    }

    /// Default mp4: the index (moov) is written last, so a cut file has no index at all.
    func testTruncatedMp4WithIndexAtTheEnd() throws {
        let complete = try fixtures.video("index-at-end.mp4", Source.testPattern() + Source.h264)
        let cut = try fixtures.truncated(complete, to: "index-at-end-cut.mp4")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: cut)[.size] as? Int)
        assertRejected(cut, containing: ["truncated video: the file ends at byte \(size) but its 'mdat' box declares data up to byte",
                                         "the index ('moov' box) is missing"])
    }

    /// Faststart mp4: the index is at the front and intact, but points at data past the cut.
    func testTruncatedFaststartMp4() throws {
        let complete = try fixtures.video("faststart.mp4", Source.testPattern() + Source.h264 + ["-movflags", "+faststart"])
        let cut = try fixtures.truncated(complete, to: "faststart-cut.mp4")
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: cut)[.size] as? Int)
        let fullSize = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: complete)[.size] as? Int)
        // libavformat opens it happily; ffprobe sees all 50 frames declared.
        XCTAssertEqual(try Tool.reference(cut).nbFrames, 50)
        assertMediaError(.invalidInput, containing: ["truncated video: the file ends at byte \(size) but its index points to data up to byte \(fullSize)"]) {
            try MediaProbe.probe(cut, verifyPackets: true)
        }
        assertMediaError(.invalidInput, containing: ["truncated video"]) { try VideoDecoder(location: cut) }
        // The complete file passes the same checks.
        XCTAssertEqual(try MediaProbe.probe(complete, verifyPackets: true).frameCount, 50)
    }

    /// A cut inside the index itself (faststart, moov at the front). libavformat still opens
    /// it, with all 50 frames declared but none indexed: packet verification and decoding
    /// catch it, a plain probe cannot.
    func testTruncatedInsideTheIndex() throws {
        let complete = try fixtures.video("faststart.mp4", Source.testPattern() + Source.h264 + ["-movflags", "+faststart"])
        let cut = try fixtures.truncated(complete, to: "cut-in-moov.mp4", fraction: 0.01)
        assertMediaError(.invalidInput, containing: ["truncated video: the container declares 50 video frames but only 0 are present"]) {
            try MediaProbe.probe(cut, verifyPackets: true)
        }
        assertMediaError(.invalidInput, containing: ["no frame could be decoded: the video stream has no packets"]) {
            try VideoDecoder(location: cut).decodeAll { _ in }
        }
        // Cut before the moov box is complete enough to open: the box walk names it.
        let header = try fixtures.truncated(complete, to: "cut-in-moov-header.mp4", fraction: 0.004)
        assertRejected(header, containing: ["truncated video", "'moov' box declares data up to byte 1451"])
    }

    func testAudioOnlyFile() throws {
        let path = try fixtures.video("audio.m4a", ["-f", "lavfi", "-i", "sine=frequency=440", "-t", "1", "-c:a", "aac"])
        assertRejected(path, containing: ["no video stream (found: audio)"])
    }

    /// An mp3 with album art has a one-picture "video" stream; that is not a video.
    func testCoverImageIsNotAVideo() throws {
        let cover = try fixtures.video("cover.png", ["-f", "lavfi", "-i", "testsrc2=size=64x64", "-frames:v", "1"])
        let path = try fixtures.video("cover-only.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-i", cover,
                                                         "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-c:v", "png",
                                                         "-disposition:v", "attached_pic"])
        assertRejected(path, containing: ["no video stream (found: audio, cover image)"])
    }

    /// An mp4 whose video sample entry has a codec tag FFmpeg does not know ("zzzz" instead of "avc1").
    func testNoDecoderForCodec() throws {
        let source = try fixtures.video("index-at-end.mp4", Source.testPattern() + Source.h264)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        // The last "avc1" is the sample entry in the moov box (the first is a brand in ftyp).
        let entry = try XCTUnwrap(bytes.range(of: Data("avc1".utf8), options: .backwards))
        bytes.replaceSubrange(entry, with: Data("zzzz".utf8))
        let path = try fixtures.write(bytes, to: "unknown-codec.mp4")
        assertRejected(path, containing: ["no decoder for codec 'zzzz'"])
    }

    /// Makes an MJPEG .mov (every packet one JPEG) and zeroes the payload of the packets at `indexes`.
    private func mjpegWithZeroedPackets(_ name: String, _ indexes: (Int) -> Bool) throws -> String {
        let source = try fixtures.video("mjpeg.mov", Source.testPattern(seconds: 1) + ["-c:v", "mjpeg", "-q:v", "5"])
        let json = try Tool.ffprobe(["-select_streams", "v:0", "-show_entries", "packet=pos,size", source])
        let packets = try XCTUnwrap(json["packets"] as? [[String: Any]])
        XCTAssertEqual(packets.count, 25)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source))
        for (index, packet) in packets.enumerated() where indexes(index) {
            // In mp4/mov a packet's pos is where its payload starts.
            let position = try XCTUnwrap((packet["pos"] as? String).flatMap { Int($0) })
            let size = try XCTUnwrap((packet["size"] as? String).flatMap { Int($0) })
            bytes.replaceSubrange(position..<(position + size), with: Data(count: size))
        }
        return try fixtures.write(bytes, to: name)
    }

    func testDamagedPacketIsSkippedAndCounted() throws {
        let path = try mjpegWithZeroedPackets("mjpeg-one-damaged.mov") { $0 == 5 }
        let report = try VideoDecoder(location: path).decodeAll { _ in }
        XCTAssertEqual(report.damagedPackets, 1)
        XCTAssertEqual(report.framesDecoded, 24)
        XCTAssertEqual(report.framesDecoded, try Tool.reference(path).decodedFrames)
        // The container itself is complete.
        XCTAssertEqual(try MediaProbe.probe(path, verifyPackets: true).frameCount, 25)
    }

    func testNothingDecodable() throws {
        let path = try mjpegWithZeroedPackets("mjpeg-all-damaged.mov") { _ in true }
        assertMediaError(.invalidInput, containing: ["no frame could be decoded: Invalid data found when processing input"]) {
            try VideoDecoder(location: path).decodeAll { _ in }
        }
    }
}
