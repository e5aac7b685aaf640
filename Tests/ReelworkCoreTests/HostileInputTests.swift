import Foundation
import ReelworkCore
import XCTest

/// The checks every number from a client or a file goes through.
final class CheckedNumbersTests: XCTestCase {
    func testConversionsFromDoubleRefuseWhatIntCannotHold() {
        XCTAssertEqual(Int(checkedRounding: 2.5), 3)
        XCTAssertEqual(Int(checkedRounding: 2.5, .down), 2)
        XCTAssertEqual(Int(checkedRounding: -2.5, .up), -2)
        for value in [1e300, -1e300, .infinity, -.infinity, .nan, 9.3e18] {
            XCTAssertNil(Int(checkedRounding: value), "\(value)")
        }
        XCTAssertEqual(Int(clampedRounding: 1e300), .max)
        XCTAssertEqual(Int(clampedRounding: -.infinity), .min)
        XCTAssertEqual(Int(clampedRounding: .nan), 0)
        XCTAssertEqual(Int(clampedRounding: 41.6), 42)
    }

    func testSumsAndProductsReportOverflow() {
        XCTAssertNil(Int64(24).checkedAdding(.max))
        XCTAssertEqual(Int64(24).checkedAdding(.max - 24), .max)
        XCTAssertNil(Int.max.checkedMultiplying(by: 2))
        XCTAssertEqual(7680.checkedMultiplying(by: 4320), 33_177_600)
    }
}

final class OptionNumberTests: XCTestCase {
    func noop(_ fields: [String: JSONValue]) -> JSONValue { .object(["noop": .object(fields)]) }

    /// The request that stopped the coordinator: `Int(1e300)` trapped in the parser.
    func testNoopNumbersAreWholeAndInRangeOrRefusedNamingTheFieldAndRange() throws {
        let refused: [(String, JSONValue, String)] = [
            ("failAttempts", .number(1e300), "option noop.failAttempts must be a whole number from 0 to 100"),
            ("failAttempts", .number(2.5), "option noop.failAttempts must be a whole number from 0 to 100"),
            ("invalidAttempts", .number(-1), "option noop.invalidAttempts must be a whole number from 0 to 100"),
            ("invalidAttempts", .string("1"), "option noop.invalidAttempts must be a whole number from 0 to 100"),
            ("seconds", .number(1e300), "option noop.seconds must be a number from 0 to 600"),
            ("seconds", .number(601), "option noop.seconds must be a number from 0 to 600"),
            ("seconds", .bool(true), "option noop.seconds must be a number from 0 to 600")
        ]
        for (field, value, message) in refused {
            XCTAssertThrowsError(try NoopOptions.parse(noop([field: value])), "\(field) \(value)") { error in
                XCTAssertEqual(error as? ReelworkError, .invalidInput(message))
            }
        }
        XCTAssertEqual(
            try NoopOptions.parse(noop(["seconds": .number(600), "failAttempts": .number(100), "invalidAttempts": .null])),
            NoopOptions(seconds: 600, failAttempts: 100))
        XCTAssertThrowsError(try NoopOptions.parse(.object(["noop": .number(1)])))
    }

    func testIntegerOptionsAcceptWholeNumbersOnly() throws {
        XCTAssertEqual(try OptionReader.integer(.number(3), name: "n", in: 1...5), 3)
        XCTAssertEqual(try OptionReader.integer(.number(3.0), name: "n", in: 1...5), 3)
        for value: JSONValue in [.number(3.5), .number(6), .number(0), .number(1e300), .number(-1e300), .null, .string("3")] {
            XCTAssertThrowsError(try OptionReader.integer(value, name: "n", in: 1...5)) { error in
                XCTAssertEqual("\(error)", "option n must be a whole number from 1 to 5")
            }
        }
    }

    func testNestingDepthIsMeasured() {
        XCTAssertEqual(JSONValue.number(1).depth, 1)
        XCTAssertEqual(JSONValue.object(["a": .array([.number(1)])]).depth, 3)
        XCTAssertEqual(JSONValue.emptyObject.depth, 1)
    }

    func testValuesJSONCannotHoldAreAnErrorNotNull() {
        XCTAssertThrowsError(try JSONValue.object(["x": .number(.nan)]).encodedText())
        XCTAssertEqual(JSONValue.object(["x": .number(.nan)]).jsonString(), "null", "the hashing helper stays total")
    }
}

final class InputLimitsTests: XCTestCase {
    func facts(
        width: Int = 1920, height: Int = 1080, seconds: Double = 60, frames: Int = 1800,
        source: VideoFacts.FrameCountSource = .container
    ) -> VideoFacts {
        VideoFacts(
            durationSeconds: seconds, frameCount: frames, frameCountSource: source, fps: 30, width: width, height: height,
            codec: "h264", rotation: 0, container: "mp4")
    }

    func assertRefused(
        _ facts: VideoFacts, _ message: String, limits: InputLimits = InputLimits(),
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertThrowsError(try limits.check(facts), file: file, line: line) { error in
            XCTAssertEqual(error as? ReelworkError, .invalidInput(message), file: file, line: line)
        }
    }

    func testEachLimitIsCheckedAndNamedWithItsSetting() throws {
        try InputLimits().check(facts())
        try InputLimits().check(facts(width: 7680, height: 4320))
        try InputLimits().check(facts(width: 4320, height: 7680))  // portrait 8K
        try InputLimits().check(facts(seconds: 7200))
        assertRefused(
            facts(width: 16384, height: 16384),
            "the picture is 16384×16384, larger than the limit of 7680×4320 (REELWORK_MAX_FRAME_SIZE)")
        assertRefused(facts(width: 7681, height: 100), "the picture is 7681×100, larger than the limit of 7680×4320 (REELWORK_MAX_FRAME_SIZE)")
        assertRefused(facts(width: 0, height: 0), "the video stream declares no picture size (0×0)")
        assertRefused(facts(seconds: 36_000), "the video lasts 10:00:00, longer than the limit of 2:00:00 (REELWORK_MAX_VIDEO_SECONDS)")
        assertRefused(facts(seconds: .infinity), "the video lasts an unknown length, longer than the limit of 2:00:00 (REELWORK_MAX_VIDEO_SECONDS)")
        assertRefused(facts(seconds: .nan), "the video lasts an unknown length, longer than the limit of 2:00:00 (REELWORK_MAX_VIDEO_SECONDS)")
        assertRefused(facts(frames: 1_000_001), "the video has 1000001 frames, more than the limit of 1000000 (REELWORK_MAX_FRAMES)")
        assertRefused(
            facts(frames: .max, source: .estimate),
            "the video has about \(Int.max) frames (estimated), more than the limit of 1000000 (REELWORK_MAX_FRAMES)")
    }

    func testSettingsAreReadAndBadValuesNameTheVariable() throws {
        let limits = try InputLimits.fromEnvironment([
            "REELWORK_MAX_VIDEO_SECONDS": "60.5", "REELWORK_MAX_FRAME_SIZE": "1080x1920", "REELWORK_MAX_FRAMES": "100",
            "REELWORK_MAX_JSON_BYTES": "1000", "REELWORK_MAX_PAGE_SIZE": "10", "REELWORK_MAX_CONCURRENT_UPLOADS": "2",
            "REELWORK_IDLE_TIMEOUT_SECONDS": "5", "REELWORK_MAX_RESULT_BYTES": "4096", "REELWORK_UPLOAD_PART_URL_SECONDS": "60"
        ])
        XCTAssertEqual(limits.maxVideoSeconds, 60.5)
        XCTAssertEqual([limits.maxFrameWidth, limits.maxFrameHeight], [1920, 1080], "the longer side first")
        XCTAssertEqual(limits.maxPixels, 1920 * 1080)
        XCTAssertEqual(
            [limits.maxFrames, limits.maxJSONBytes, limits.maxPageSize, limits.maxConcurrentUploads, limits.maxResultBytes],
            [100, 1000, 10, 2, 4096])
        XCTAssertEqual(limits.idleTimeoutSeconds, 5)
        XCTAssertEqual(limits.uploadPartURLSeconds, 60)
        XCTAssertEqual(InputLimits().uploadPartURLSeconds, 3600)
        for (name, value) in [
            ("REELWORK_MAX_VIDEO_SECONDS", "0"), ("REELWORK_MAX_VIDEO_SECONDS", "inf"), ("REELWORK_MAX_FRAME_SIZE", "8k"),
            ("REELWORK_MAX_FRAME_SIZE", "0x100"), ("REELWORK_MAX_FRAMES", "1e9"), ("REELWORK_MAX_PAGE_SIZE", "-1"),
            ("REELWORK_MAX_CONCURRENT_UPLOADS", "0"), ("REELWORK_IDLE_TIMEOUT_SECONDS", "nan"),
            ("REELWORK_UPLOAD_PART_URL_SECONDS", "0"), ("REELWORK_UPLOAD_PART_URL_SECONDS", "604801")
        ] {
            XCTAssertThrowsError(try InputLimits.fromEnvironment([name: value]), "\(name)=\(value)") { error in
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
    }

    /// The starvation limits (issue 27): finite by default, read from their variables, and a bad
    /// value names its variable.
    func testTheStarvationLimitsAreOnByDefaultAndBadValuesNameTheVariable() throws {
        let input = InputLimits(), club = ClubLimits(), events = EventSettings()
        XCTAssertGreaterThan(input.minUploadBytesPerSecond, 0)
        XCTAssertLessThan(input.maxUploadSeconds, .infinity)
        XCTAssertLessThan(club.uploadsPerClub, input.maxConcurrentUploads, "one club cannot take every upload slot")
        XCTAssertGreaterThan(events.maxStreamSeconds, 0, "event streams end by default")
        XCTAssertGreaterThan(club.requestsPerSecondPerAddress, 0)
        let read = try InputLimits.fromEnvironment([
            "REELWORK_MIN_UPLOAD_BYTES_PER_SECOND": "100", "REELWORK_UPLOAD_RATE_GRACE_SECONDS": "2",
            "REELWORK_MAX_UPLOAD_SECONDS": "60"
        ])
        XCTAssertEqual([Double(read.minUploadBytesPerSecond), read.uploadRateGraceSeconds, read.maxUploadSeconds], [100, 2, 60])
        let readClub = try ClubLimits.fromEnvironment(["REELWORK_RATE_LIMIT_PER_ADDRESS": "7", "REELWORK_MAX_UPLOADS_PER_CLUB": "3"])
        XCTAssertEqual([readClub.requestsPerSecondPerAddress, readClub.uploadsPerClub], [7, 3])
        XCTAssertEqual(try EventSettings.fromEnvironment(["REELWORK_EVENTS_MAX_STREAMS_PER_KEY": "5"]).maxStreamsPerKey, 5)
        let bad: [(String, String, (String, String) throws -> Void)] = [
            ("REELWORK_MIN_UPLOAD_BYTES_PER_SECOND", "0", { _ = try InputLimits.fromEnvironment([$0: $1]) }),
            ("REELWORK_MAX_UPLOAD_SECONDS", "-5", { _ = try InputLimits.fromEnvironment([$0: $1]) }),
            ("REELWORK_UPLOAD_RATE_GRACE_SECONDS", "nan", { _ = try InputLimits.fromEnvironment([$0: $1]) }),
            ("REELWORK_RATE_LIMIT_PER_ADDRESS", "0", { _ = try ClubLimits.fromEnvironment([$0: $1]) }),
            ("REELWORK_MAX_UPLOADS_PER_CLUB", "many", { _ = try ClubLimits.fromEnvironment([$0: $1]) }),
            ("REELWORK_EVENTS_MAX_STREAMS_PER_KEY", "0", { _ = try EventSettings.fromEnvironment([$0: $1]) })
        ]
        for (name, value, read) in bad {
            XCTAssertThrowsError(try read(name, value), "\(name)=\(value)") { error in
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
    }

    /// Every numeric setting answers a bad value the same way (`ReelworkConfig.seconds`, `.whole`):
    /// the setting, what it was given, and the range written as a person writes it.
    func testNumericSettingsNameTheirRangeAlike() throws {
        let cases: [(String, String, ([String: String]) throws -> Void, String)] = [
            (
                "REELWORK_EVENTS_HEARTBEAT_SECONDS", "0.01", { _ = try EventSettings.fromEnvironment($0) },
                "must be a number of seconds from 0.05 to 3600"
            ),
            ("REELWORK_EVENTS_STREAM_CAP", "99", { _ = try EventSettings.fromEnvironment($0) }, "must be a whole number from 100 to 100000000"),
            (
                "REELWORK_WEBHOOK_TIMEOUT_SECONDS", "soon", { _ = try WebhookSettings.fromEnvironment($0) },
                "must be a number of seconds from 0.1 to 600"
            ),
            ("REELWORK_MAX_UPLOAD_SECONDS", "0.5", { _ = try InputLimits.fromEnvironment($0) }, "must be a number of seconds from 1 to 604800"),
            ("REELWORK_MAX_PAGE_SIZE", "10001", { _ = try InputLimits.fromEnvironment($0) }, "must be a whole number from 1 to 10000")
        ]
        for (name, value, read, range) in cases {
            XCTAssertThrowsError(try read([name: value]), "\(name)=\(value)") { error in
                XCTAssertEqual("\(error)", "\(name)='\(value)' \(range)")
            }
            XCTAssertNoThrow(try read([name: ""]), "an empty setting keeps the default")
        }
        XCTAssertEqual(try EventSettings.fromEnvironment(["REELWORK_EVENTS_HEARTBEAT_SECONDS": "0.05"]).heartbeatSeconds, 0.05)
        XCTAssertEqual(try WebhookSettings.fromEnvironment(["REELWORK_WEBHOOK_TIMEOUT_SECONDS": "600"]).timeoutSeconds, 600)
        let long = String(repeating: "9", count: 100)
        XCTAssertThrowsError(try InputLimits.fromEnvironment(["REELWORK_MAX_UPLOAD_SECONDS": long])) { error in
            XCTAssertFalse("\(error)".contains(long), "a long value is cut short in the message: \(error)")
        }
    }

    func testDiagnosticsAreOffUnlessAsked() throws {
        XCTAssertFalse(try ReelworkConfig.fromEnvironment([:]).diagnostics)
        XCTAssertTrue(try ReelworkConfig.fromEnvironment(["REELWORK_DIAGNOSTICS": "1"]).diagnostics)
        XCTAssertThrowsError(try ReelworkConfig.fromEnvironment(["REELWORK_DIAGNOSTICS": "maybe"]))
    }

    func testFactsStoredBeforeTheFrameCountSourceReadAsTheContainers() throws {
        let old =
            #"{"durationSeconds": 2, "frameCount": 50, "fps": 25, "width": 320, "height": 240, "codec": "h264", "rotation": 0, "container": "mp4"}"#
        let facts = try ReelworkJSON.decoder.decode(VideoFacts.self, from: Data(old.utf8))
        XCTAssertEqual(facts.frameCountSource, .container)
        XCTAssertEqual(facts.withDecodedFrameCount(49).frameCount, 49)
        XCTAssertEqual(facts.withDecodedFrameCount(49).frameCountSource, .decoded)
    }
}

final class SpreadsheetSafeCSVTests: XCTestCase {
    /// OWASP's list: a cell a spreadsheet would evaluate gets a leading apostrophe.
    func testFormulaCellsAreNeutralisedAndNumbersAreNot() {
        let cells = ["=HYPERLINK(\"http://x\")", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "-12.5", "-0", "forehand", "", "a=b"]
        let text = CSV.render(header: ["v"], rows: cells.map { [$0] })
        let lines = text.components(separatedBy: "\r\n")
        XCTAssertEqual(Array(lines[1...5]), ["\"'=HYPERLINK(\"\"http://x\"\")\"", "'+1+1", "'-2+3", "'@SUM(A1)", "'\tx"])
        XCTAssertTrue(text.contains("\"'\rx\""), "a leading CR is neutralised and quoted")
        XCTAssertTrue(text.contains("\r\n-12.5\r\n-0\r\nforehand\r\n\r\na=b\r\n"), "numbers and plain text stay as they are")
    }
}

final class RetryBoundsTests: XCTestCase {
    /// Equal jitter: every wait lies in [d/2, d] with d = min(cap, base × factor^(n−1)).
    func testEveryWaitLiesBetweenHalfTheBackoffAndTheBackoff() {
        var settings = QueueSettings()
        settings.retryBaseSeconds = 2
        settings.retryFactor = 3
        settings.retryCapSeconds = 100
        for failures in 1...12 {
            let full = min(100, 2 * pow(3, Double(failures - 1)))
            XCTAssertEqual(settings.retryDelay(afterFailures: failures, random: { 0 }), full / 2, accuracy: 1e-9, "\(failures)")
            XCTAssertEqual(settings.retryDelay(afterFailures: failures, random: { 0.999_999_9 }), full, accuracy: 1e-4, "\(failures)")
        }
        XCTAssertEqual(settings.retryDelay(afterFailures: 10_000, random: { 1 }), 100, "a huge count stays at the cap")
    }
}
