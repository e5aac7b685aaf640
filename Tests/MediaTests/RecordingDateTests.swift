import Foundation
import Media
import TestSupport
import XCTest

/// When a clip was filmed, from its container's own metadata (what `ffprobe -show_format` lists as
/// `creation_time`), checked with clips whose metadata ffmpeg wrote.
final class RecordingDateTests: FixtureTestCase {
    static func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testAClipsCreationTimeIsWhenItWasFilmed() throws {
        let mp4 = try fixtures.video("dated.mp4", Source.testPattern(seconds: 0.2) + Source.h264 + ["-metadata", "creation_time=2024-05-14T09:30:12.000000Z"])
        XCTAssertEqual(try MediaProbe.recordingDate(mp4), Self.utc("2024-05-14T09:30:12Z"))
        let mkv = try fixtures.video("dated.mkv", Source.testPattern(seconds: 0.2) + Source.h264 + ["-metadata", "creation_time=2023-11-02T17:05:00Z"])
        XCTAssertEqual(try MediaProbe.recordingDate(mkv), Self.utc("2023-11-02T17:05:00Z"))
    }

    func testAPhonesLocalTimeWithItsOffsetWinsOverTheUTCCreationTime() throws {
        let mov = try fixtures.video("phone.mov", Source.testPattern(seconds: 0.2) + Source.h264 + [
            "-movflags", "use_metadata_tags", "-metadata", "com.apple.quicktime.creationdate=2024-05-14T11:30:12+0200",
            "-metadata", "creation_time=2024-05-14T09:31:00Z",
        ])
        XCTAssertEqual(try MediaProbe.recordingDate(mov), Self.utc("2024-05-14T09:30:12Z"))
    }

    func testAClipWithoutADateOrWithTheZeroDateHasNone() throws {
        let plain = try fixtures.video("undated.mp4", Source.testPattern(seconds: 0.2) + Source.h264)
        XCTAssertNil(try MediaProbe.recordingDate(plain))
        let zero = try fixtures.video("zero-date.mp4", Source.testPattern(seconds: 0.2) + Source.h264 + ["-metadata", "creation_time=1970-01-01T00:00:00Z"])
        XCTAssertNil(try MediaProbe.recordingDate(zero), "a camera without a clock")
    }
}
