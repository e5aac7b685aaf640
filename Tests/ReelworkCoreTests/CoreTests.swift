import Foundation
import ReelworkCore
import Sports
import Tennis
import XCTest

final class FrameQualityTests: XCTestCase {
    func sample(_ mean: Double, _ variance: Double, at time: Double = 0) -> FrameQualitySample {
        FrameQualitySample(time: time, meanLuminance: mean, variance: variance)
    }

    func codes(_ samples: [FrameQualitySample]) -> [String] {
        FrameQuality.warnings(for: samples).map(\.code)
    }

    func testSeed003ThresholdsAtTheirBoundaries() {
        XCTAssertEqual(codes([sample(39.9, 500)]), ["too_dark"])
        XCTAssertEqual(codes([sample(40, 500)]), [])
        XCTAssertEqual(codes([sample(250, 500)]), [])
        XCTAssertEqual(codes([sample(250.1, 500)]), ["overexposed"])
        XCTAssertEqual(codes([sample(120, 99.9)]), ["lens_blocked"])
        XCTAssertEqual(codes([sample(120, 100)]), [])
    }

    func testABlackFrameIsBlockedNotDarkAndAWhiteFrameIsOverexposedNotBlocked() {
        XCTAssertEqual(codes([sample(0, 0)]), ["lens_blocked"])
        XCTAssertEqual(codes([sample(255, 0)]), ["overexposed"])
    }

    func testAWarningNeedsAQuarterOfTheSamples() {
        let bright = (0..<7).map { sample(120, 900, at: Double($0)) }
        XCTAssertEqual(codes(bright + [sample(10, 500, at: 9)]), [], "1 of 8 is a transition, not a dark clip")
        let warnings = FrameQuality.warnings(for: bright.prefix(6) + [sample(10, 500, at: 7), sample(10, 500, at: 8)])
        XCTAssertEqual(warnings.map(\.code), ["too_dark"])
        XCTAssertEqual(warnings.first?.frames, 2)
        XCTAssertEqual(warnings.first?.framesSampled, 8)
        XCTAssertEqual(warnings.first?.firstTime, 7)
    }

    func testNoSamplesNoWarnings() {
        XCTAssertEqual(codes([]), [])
    }
}

final class ConfigTests: XCTestCase {
    func testDefaultsAndOverrides() throws {
        let defaults = try ReelworkConfig.fromEnvironment([:])
        XCTAssertEqual(defaults.workerSlots, 2)
        XCTAssertEqual(defaults.maxAttempts, 3)
        XCTAssertEqual(defaults.maxUploadBytes, 500 * 1024 * 1024)
        let set = try ReelworkConfig.fromEnvironment(["REELWORK_WORKER_SLOTS": "4", "REELWORK_BIND": "0.0.0.0:9000",
                                                      "REELWORK_VIDEO_SOURCE": "http"])
        XCTAssertEqual(set.workerSlots, 4)
        XCTAssertEqual(try set.bindAddress().port, 9000)
        XCTAssertEqual(set.videoSource, .http)
    }

    func testMetricsAreOffUntilSetAndOperatorsOnly() throws {
        let defaults = try ReelworkConfig.fromEnvironment([:]).metrics
        XCTAssertNil(defaults.scrapeToken, "operator keys only")
        XCTAssertNil(defaults.workerBind, "no worker listener: workers share machines")
        XCTAssertEqual(defaults.refreshSeconds, 5)
        let set = try ReelworkConfig.fromEnvironment(["REELWORK_METRICS_TOKEN": "0123456789abcdef0123456789abcdef", "REELWORK_WORKER_METRICS_BIND": "0.0.0.0:9464",
                                                      "REELWORK_METRICS_REFRESH_SECONDS": "0.5"]).metrics
        XCTAssertEqual(set.scrapeToken, "0123456789abcdef0123456789abcdef")
        XCTAssertEqual(set.workerBind, "0.0.0.0:9464")
        XCTAssertEqual(set.refreshSeconds, 0.5)
    }

    func testAWorkerRestartsAfterTwoAbandonedThreadsUnlessSetOtherwise() throws {
        XCTAssertEqual(try ReelworkConfig.fromEnvironment([:]).queue.maxAbandonedThreads, 2)
        XCTAssertEqual(try ReelworkConfig.fromEnvironment(["REELWORK_WORKER_MAX_ABANDONED_THREADS": "5"]).queue.maxAbandonedThreads, 5)
    }

    func testBadValuesNameTheVariable() {
        for (name, value) in [("REELWORK_WORKER_SLOTS", "zero"), ("REELWORK_WORKER_SLOTS", "0"), ("REELWORK_MAX_UPLOAD_BYTES", "-1"),
                              ("REELWORK_VIDEO_SOURCE", "ftp"), ("REELWORK_METRICS_TOKEN", "short"),
                              ("REELWORK_METRICS_TOKEN", "thirty-two characters or more, but spaced"),
                              // 31 characters; and the deploy files' placeholder, long enough but never replaced.
                              ("REELWORK_METRICS_TOKEN", "0123456789abcdef0123456789abcde"),
                              ("REELWORK_METRICS_TOKEN", "change-me-metrics-token-0123456789"),
                              ("REELWORK_METRICS_TOKEN", "CHANGE-ME-0123456789abcdef0123456789"),
                              ("REELWORK_WORKER_MAX_ABANDONED_THREADS", "0"), ("REELWORK_WORKER_MAX_ABANDONED_THREADS", "two"), ("REELWORK_WORKER_METRICS_BIND", "9464"),
                              ("REELWORK_METRICS_REFRESH_SECONDS", "0"), ("REELWORK_METRICS_REFRESH_SECONDS", "nan")] {
            XCTAssertThrowsError(try ReelworkConfig.fromEnvironment([name: value])) { error in
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
        XCTAssertThrowsError(try ReelworkConfig.fromEnvironment(["REELWORK_BIND": "nohost"]).bindAddress())
    }
}

final class DomainTests: XCTestCase {
    func testSportNamesAndTheErrorListingThem() throws {
        XCTAssertEqual(try Sport.parse("Tennis"), .tennis)
        XCTAssertThrowsError(try Sport.parse("curling")) { error in
            XCTAssertEqual("\(error)", "unknown sport 'curling'; expected one of: tennis, bowling, archery, basketball")
        }
    }

    /// Sports and stages travel as the API's names, single strings, as the enums they were did.
    /// Any name decodes (the types are open): the registry's check is where names come in.
    func testSportAndStageNamesTravelAsPlainStrings() throws {
        XCTAssertEqual(String(decoding: try ReelworkJSON.encoder.encode([Sport.tennis]), as: UTF8.self), #"["tennis"]"#)
        XCTAssertEqual(String(decoding: try ReelworkJSON.encoder.encode([StageName.swings, .decode]), as: UTF8.self), #"["swings","decode"]"#)
        XCTAssertEqual(try ReelworkJSON.decoder.decode([StageName].self, from: Data(#"["swings"]"#.utf8)), [.swings])
        XCTAssertEqual(try ReelworkJSON.decoder.decode(Sport.self, from: Data(#""curling""#.utf8)).rawValue, "curling")
        XCTAssertEqual("\(Sport.tennis) \(StageName.swings)", "tennis swings")
    }

    func testRetryabilityFollowsTheErrorKind() {
        XCTAssertTrue(ErrorKind.transient.isRetryable)
        XCTAssertTrue(ErrorKind.internal.isRetryable)
        XCTAssertFalse(ErrorKind.invalidInput.isRetryable)
        XCTAssertFalse(ErrorKind.needsPerson.isRetryable)
    }

    func testJSONValueRoundTripsAndDatesKeepMilliseconds() throws {
        let text = #"{"a":[1,2.5,"x",null,true],"b":{"c":false}}"#
        let value = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(text.utf8))
        XCTAssertEqual(value.jsonString(), text)
        let date = Date(timeIntervalSince1970: 1_800_000_000.123)
        let parsed = try XCTUnwrap(ReelworkJSON.parseDate(ReelworkJSON.formatDate(date)))
        XCTAssertEqual(parsed.timeIntervalSince1970, date.timeIntervalSince1970, accuracy: 0.001)
    }
}

final class QueueSettingsTests: XCTestCase {
    func testRetryDelayGrowsExponentiallyIsCappedAndJittered() {
        var s = QueueSettings()
        s.retryBaseSeconds = 2
        s.retryFactor = 3
        s.retryCapSeconds = 30
        XCTAssertEqual(s.retryDelay(afterFailures: 1, random: { 0 }), 1, "half fixed")
        XCTAssertEqual(s.retryDelay(afterFailures: 1, random: { 0.999999 }), 2, accuracy: 0.001)
        XCTAssertEqual(s.retryDelay(afterFailures: 2, random: { 0 }), 3)
        XCTAssertEqual(s.retryDelay(afterFailures: 3, random: { 0 }), 9)
        XCTAssertEqual(s.retryDelay(afterFailures: 9, random: { 0.5 }), 22.5, "capped at 30, then jittered")
    }

    func testHeartbeatMustComeWellWithinTheLease() {
        XCTAssertThrowsError(try QueueSettings.fromEnvironment(["REELWORK_LEASE_SECONDS": "10", "REELWORK_HEARTBEAT_SECONDS": "6"])) { error in
            XCTAssertTrue("\(error)".contains("REELWORK_HEARTBEAT_SECONDS"), "\(error)")
        }
        XCTAssertEqual(try QueueSettings.fromEnvironment(["REELWORK_LEASE_SECONDS": "10", "REELWORK_HEARTBEAT_SECONDS": "5"]).leaseSeconds, 10)
        XCTAssertThrowsError(try QueueSettings.fromEnvironment(["REELWORK_GLOBAL_CAP": "-1"]))
    }

    func testNoopOptionsAreValidated() throws {
        XCTAssertNil(try NoopOptions.parse(.object([:])))
        XCTAssertEqual(try NoopOptions.parse(.object(["noop": .object(["seconds": .number(1.5), "failAttempts": .number(2)])])),
                       NoopOptions(seconds: 1.5, failAttempts: 2))
        XCTAssertThrowsError(try NoopOptions.parse(.object(["noop": .object(["seconds": .string("x")])])))
        XCTAssertEqual(StageName.plan(for: .tennis, options: .object(["noop": .object([:])])), [.noop])
    }
}
