import Foundation
import Logging
import Queue
import ReelworkCore
import XCTest

@testable import Worker

/// One clock for signatures: a worker whose own clock is an hour off signs its store URLs with
/// Redis's time (`RedisClock`), since AWS S3 refuses a signature more than 15 minutes off.
final class SigningClockTests: BackgroundWorkTestCase {
    /// Never contacted: presigning a URL is local.
    private static let store = S3Settings(endpoint: URL(string: "http://127.0.0.1:9")!, bucket: "clock", pathStyle: true,
                                          accessKeyID: "key", secretAccessKey: "secret")

    func testRedisClockCorrectsAHostClockAnHourBehindOrAhead() throws {
        for skew in [-3600.0, 3600.0] {
            let clock = RedisClock(url: try RedisURL(parsing: config.redisURL), localNow: { Date() + skew })
            XCTAssertEqual(clock.offset, -skew, accuracy: 1, "the offset measured against Redis's TIME")
            XCTAssertEqual(clock.now().timeIntervalSince1970, try redisNow() / 1000, accuracy: 2, "skew \(skew) s")
        }
    }

    func testAWorkerWhoseClockIsAnHourOffSignsItsReadsOnRedisClock() throws {
        config.storage = .s3(Self.store)
        for skew in [-3600.0, 3600.0] {
            let worker = WorkerProcess(config: config, logger: Logger(label: "test.clock"), localNow: { Date() + skew })
            let signed = try XCTUnwrap(worker.storeSigningDate, "a presigned read carries X-Amz-Date")
            let date = try XCTUnwrap(Self.amzDate.date(from: signed), "X-Amz-Date \(signed)")
            XCTAssertEqual(date.timeIntervalSince1970, try redisNow() / 1000, accuracy: 3,
                           "a worker with its clock \(skew) s off signed at \(signed)")
        }
    }

    func testAClockThatCannotReachRedisKeepsTheHostClock() throws {
        let clock = RedisClock(url: RedisURL(host: "127.0.0.1", port: 9), localNow: { Date(timeIntervalSince1970: 1000) })
        XCTAssertEqual(clock.offset, 0)
        XCTAssertEqual(clock.now(), Date(timeIntervalSince1970: 1000))
        XCTAssertThrowsError(try clock.measure())
    }

    private static let amzDate: DateFormatter = {
        let format = DateFormatter()
        format.locale = Locale(identifier: "en_US_POSIX")
        format.timeZone = TimeZone(identifier: "UTC")
        format.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        return format
    }()
}
