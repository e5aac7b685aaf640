import Foundation
import ReelworkCore
import XCTest

@testable import Store

/// Text conversions and error classification; no server needed.
final class PGValueTests: XCTestCase {
    func testTimestampParsingHandlesPostgresOutputForms() throws {
        let base = 1_795_239_130.0   // 2026-11-21 05:32:10 UTC
        XCTAssertEqual(PGTimestamp.parse("2026-11-21 05:32:10+00")?.timeIntervalSince1970, base)
        XCTAssertEqual(try XCTUnwrap(PGTimestamp.parse("2026-11-21 05:32:10.123456+00")).timeIntervalSince1970,
                       base + 0.123456, accuracy: 0.000_001)
        XCTAssertEqual(PGTimestamp.parse("2026-11-21 11:02:10+05:30")?.timeIntervalSince1970, base)
        XCTAssertEqual(PGTimestamp.parse("2026-11-21 00:32:10-05")?.timeIntervalSince1970, base)
        XCTAssertEqual(PGTimestamp.parse("2026-11-21T05:32:10Z")?.timeIntervalSince1970, base)
        XCTAssertEqual(PGTimestamp.parse("2026-11-21 05:32:10")?.timeIntervalSince1970, base)   // timestamp: UTC
        XCTAssertEqual(PGTimestamp.parse("2026-11-21")?.timeIntervalSince1970, base - 5 * 3600 - 32 * 60 - 10)
        XCTAssertEqual(PGTimestamp.parse("1969-12-31 23:59:59+00")?.timeIntervalSince1970, -1)
        XCTAssertEqual(PGTimestamp.parse("2000-02-29 00:00:00+00")?.timeIntervalSince1970, 951_782_400)
        XCTAssertEqual(PGTimestamp.parse("infinity"), .distantFuture)
        for bad in ["", "2026-11-21 05:32", "2026-13-01", "21/11/2026", "2026-11-21 05:32:10+00 extra", "0044-03-15 BC"] {
            XCTAssertNil(PGTimestamp.parse(bad), bad)
        }
    }

    func testTimestampFormattingIsUTCWithMicroseconds() {
        XCTAssertEqual(PGTimestamp.format(Date(timeIntervalSince1970: 1_795_239_130.25)), "2026-11-21T05:32:10.250000Z")
        XCTAssertEqual(PGTimestamp.format(Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.500000Z")
        XCTAssertEqual(PGTimestamp.format(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00.000000Z")
        // Rounding up to a whole second carries into the seconds.
        XCTAssertEqual(PGTimestamp.format(Date(timeIntervalSince1970: 59.999_999_9)), "1970-01-01T00:01:00.000000Z")
        let now = Date()
        XCTAssertEqual(PGTimestamp.parse(now.pgText)!.timeIntervalSince1970, now.timeIntervalSince1970, accuracy: 0.000_001)
    }

    func testParamTexts() {
        XCTAssertEqual(true.pgText, "true")
        XCTAssertEqual(false.pgText, "false")
        XCTAssertEqual(Double.infinity.pgText, "Infinity")
        XCTAssertEqual((-Double.infinity).pgText, "-Infinity")
        XCTAssertEqual(Double.nan.pgText, "NaN")
        XCTAssertEqual(Int64.min.pgText, "-9223372036854775808")
        let id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        XCTAssertEqual(id.pgText, "e621e1f8-c36c-495a-93fc-0c247a3e6e5f")
    }

    func testErrorKindsFollowSQLState() {
        func kind(_ state: String?) -> ErrorKind { PostgresError(message: "m", sqlState: state).kind }
        XCTAssertEqual(kind("08006"), .transient)
        XCTAssertEqual(kind("57P01"), .transient)
        XCTAssertEqual(kind("57P03"), .transient)
        XCTAssertEqual(kind("40001"), .transient)
        XCTAssertEqual(kind("40P01"), .transient)
        XCTAssertEqual(kind("53300"), .transient)
        XCTAssertEqual(kind("22P02"), .invalidInput)
        XCTAssertEqual(kind("23503"), .invalidInput)
        XCTAssertEqual(kind("42601"), .internal)
        XCTAssertEqual(kind("57014"), .internal)   // query_canceled is not an admin shutdown
        XCTAssertEqual(kind(nil), .internal)
        XCTAssertTrue(PostgresError(message: "m", sqlState: "23505").isUniqueViolation)
        XCTAssertFalse(PostgresError(message: "m", sqlState: "23503").isUniqueViolation)
        XCTAssertEqual("\(PostgresError(message: "boom", sqlState: "XX000"))", "boom (SQLSTATE XX000)")
    }

    func testHandMadeRowReadsLikeARealOne() throws {
        let row = PGRow(columns: ["n", "flag", "n"], values: ["3", "t", "ignored"])
        XCTAssertEqual(try row.int("n"), 3)   // first of duplicate names wins
        XCTAssertTrue(try row.bool("flag"))
        XCTAssertNil(row.optionalDouble("missing"))
        XCTAssertThrowsError(try row.double("flag"))
    }
}
