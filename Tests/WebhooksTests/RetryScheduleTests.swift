import Foundation
import ReelworkCore
import Webhooks
import XCTest

/// The specification's schedule by default, any schedule by setting; `Retry-After` (seconds or a
/// date) delays an attempt but never past its bound; and what each outcome leads to.
final class RetryScheduleTests: XCTestCase {
    func testTheDefaultIsTheSpecificationsSchedule() {
        let s = RetrySchedule.standard
        XCTAssertEqual(s.attempts, 8)
        XCTAssertEqual((1...7).map { s.delay(afterAttempts: $0) }, [5, 300, 1_800, 7_200, 18_000, 36_000, 36_000])
        XCTAssertNil(s.delay(afterAttempts: 8), "eight attempts, then the delivery is abandoned")
        XCTAssertEqual(RetrySchedule(settings: WebhookSettings()), s)
    }

    func testRetryAfterDelaysAnAttemptButNeverPastItsBoundNorBeforeTheSchedule() {
        let s = RetrySchedule(delays: [0, 10, 10], maxRetryAfter: 60)
        XCTAssertEqual(s.delay(afterAttempts: 1, retryAfter: 30), 30)
        XCTAssertEqual(s.delay(afterAttempts: 1, retryAfter: 3), 10, "never sooner than the schedule")
        XCTAssertEqual(s.delay(afterAttempts: 1, retryAfter: 86_400 * 365), 60, "bounded")
        XCTAssertEqual(s.delay(afterAttempts: 1, retryAfter: .infinity), 10)
        XCTAssertNil(s.delay(afterAttempts: 3, retryAfter: 30), "a Retry-After does not add attempts")
    }

    func testRetryAfterIsReadAsSecondsOrAnHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777)   // Sun, 06 Nov 1994 08:49:37 GMT
        XCTAssertEqual(RetryAfter.seconds("120", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds(" 7 ", now: now), 7)
        XCTAssertEqual(RetryAfter.seconds("Sun, 06 Nov 1994 08:51:37 GMT", now: now), 120)
        XCTAssertEqual(RetryAfter.seconds("Sunday, 06-Nov-94 08:50:37 GMT", now: now), 60)
        XCTAssertEqual(RetryAfter.seconds("Sun Nov  6 08:50:07 1994", now: now), 30)
        XCTAssertEqual(RetryAfter.seconds("Sat, 05 Nov 1994 08:49:37 GMT", now: now), 0, "a date in the past: at once")
        XCTAssertEqual(RetryAfter.seconds("99999999999999999999999", now: now), TimeInterval(Int.max))
        for garbage in ["", "-5", "1.5", "soon", "Sun, 06 Nov 1994"] {
            XCTAssertNil(RetryAfter.seconds(garbage, now: now), garbage)
        }
    }

    func testEachOutcomeLeadsToItsDecision() {
        let s = RetrySchedule(delays: [0, 5, 300], maxRetryAfter: 100)
        XCTAssertEqual(WebhookDecision(after: .delivered(status: 204), attemptsMade: 1, schedule: s), .delivered)
        XCTAssertEqual(WebhookDecision(after: .gone, attemptsMade: 1, schedule: s), .disableEndpoint(reason: "the endpoint answered 410 Gone"))
        XCTAssertEqual(WebhookDecision(after: .rejected(status: 500, retryAfter: nil), attemptsMade: 1, schedule: s), .retry(after: 5))
        XCTAssertEqual(WebhookDecision(after: .rejected(status: 429, retryAfter: 60), attemptsMade: 1, schedule: s), .retry(after: 60))
        XCTAssertEqual(WebhookDecision(after: .failed(.timeout(seconds: 15)), attemptsMade: 2, schedule: s), .retry(after: 300))
        XCTAssertEqual(WebhookDecision(after: .failed(.connectionRefused("x")), attemptsMade: 3, schedule: s), .abandon)
        XCTAssertEqual(WebhookDecision(after: .rejected(status: 301, retryAfter: nil), attemptsMade: 3, schedule: s), .abandon)
    }

    func testSettingsAreReadAndEveryBadValueIsNamed() throws {
        let env = [WebhookSettings.Env.retrySchedule: "0, 0.1,0.25", WebhookSettings.Env.timeoutSeconds: "2.5",
                   WebhookSettings.Env.allowPrivate: "1", WebhookSettings.Env.maxRetryAfterSeconds: "30",
                   WebhookSettings.Env.pollIntervalSeconds: "0.05", WebhookSettings.Env.rotationGraceSeconds: "600"]
        let s = try WebhookSettings.fromEnvironment(env)
        XCTAssertEqual(s.retrySchedule, [0, 0.1, 0.25])
        XCTAssertEqual([s.timeoutSeconds, s.maxRetryAfterSeconds, s.pollIntervalSeconds, s.rotationGraceSeconds], [2.5, 30, 0.05, 600])
        XCTAssertTrue(s.allowPrivate)
        let defaults = try WebhookSettings.fromEnvironment([:])
        XCTAssertEqual(defaults, WebhookSettings())
        XCTAssertFalse(defaults.allowPrivate)
        XCTAssertEqual(defaults.timeoutSeconds, 15)

        let bad: [(String, String, String)] = [
            (WebhookSettings.Env.retrySchedule, "5,10", "must start with 0"),
            (WebhookSettings.Env.retrySchedule, "0,,5", "step 2 ('')"),
            (WebhookSettings.Env.retrySchedule, "0,-1", "step 2 ('-1')"),
            (WebhookSettings.Env.retrySchedule, "0,nan", "step 2"),
            (WebhookSettings.Env.retrySchedule, "0,1e9", "from 0 to 604800"),
            (WebhookSettings.Env.retrySchedule, Array(repeating: "0", count: 51).joined(separator: ","), "at most 50"),
            (WebhookSettings.Env.timeoutSeconds, "0", "from 0.1 to 600"),
            (WebhookSettings.Env.timeoutSeconds, "fast", "REELWORK_WEBHOOK_TIMEOUT_SECONDS='fast'"),
            (WebhookSettings.Env.allowPrivate, "maybe", "must be 1 or 0"),
            (WebhookSettings.Env.pollIntervalSeconds, "0", "REELWORK_WEBHOOK_POLL_SECONDS"),
            (WebhookSettings.Env.maxRetryAfterSeconds, "-1", "REELWORK_WEBHOOK_MAX_RETRY_AFTER_SECONDS"),
        ]
        for (name, value, message) in bad {
            XCTAssertThrowsError(try ReelworkConfig.fromEnvironment([name: value]), "\(name)=\(value)") { error in
                XCTAssertTrue("\(error)".contains(message), "\(name)=\(value): \(error)")
                XCTAssertTrue("\(error)".contains(name), "\(error)")
            }
        }
    }

    func testThePublicURLDefaultsToTheCoordinatorsAndIsChecked() throws {
        XCTAssertEqual(try ReelworkConfig.fromEnvironment([:]).linkBaseURL, "http://127.0.0.1:8080")
        var config = try ReelworkConfig.fromEnvironment(["REELWORK_COORDINATOR_URL": "http://coordinator:8080/"])
        XCTAssertEqual(config.linkBaseURL, "http://coordinator:8080")
        config.coordinatorURL = "http://from-the-flag:8080"
        XCTAssertEqual(config.linkBaseURL, "http://from-the-flag:8080", "a --coordinator-url flag counts too")
        XCTAssertEqual(try ReelworkConfig.fromEnvironment(["REELWORK_PUBLIC_URL": "https://reelwork.example.org/api/"]).linkBaseURL,
                       "https://reelwork.example.org/api")
        for bad in ["reelwork.example.org", "ftp://x", "https://x/?a=b", "https://user:pw@x"] {
            XCTAssertThrowsError(try ReelworkConfig.fromEnvironment(["REELWORK_PUBLIC_URL": bad]), bad) { error in
                XCTAssertTrue("\(error)".contains("REELWORK_PUBLIC_URL='\(bad)' must be an http or https URL"), "\(error)")
            }
        }
    }
}
