import Archery
import Basketball
import Bowling
import ReelworkCore
import Sports
import Tennis
import XCTest

final class ResultTableTests: XCTestCase {
    func testCSVQuotesOnlyWhatNeedsQuotingAndEndsLinesWithCRLF() {
        let text = CSV.render(header: ["a", "b"], rows: [["plain", "with, comma"], ["say \"hi\"", "two\nlines"]])
        XCTAssertEqual(text, "a,b\r\nplain,\"with, comma\"\r\n\"say \"\"hi\"\"\",\"two\nlines\"\r\n")
    }

    func testNumbersPrintAsJSONDoesAndNonFiniteOnesAsEmpty() {
        XCTAssertEqual(CSV.number(17), "17")
        XCTAssertEqual(CSV.number(-0.5), "-0.5")
        XCTAssertEqual(CSV.number(17.25), "17.25")
        XCTAssertEqual(CSV.number(.nan), "")
    }

    func testColumnsAreTheSeedsFieldNamesAndSQLNamesTheirSnakeCase() {
        XCTAssertEqual(ResultTable.bowlingShots.columns.first { $0.name == "strikeProbability" }?.sqlName, "strike_probability")
        XCTAssertEqual(ResultTable.tennisSwings.columns.first { $0.name == "followThroughTime" }?.path, ["keyFrameTimes", "followThrough"])
        XCTAssertEqual(ResultTable.tennisSwings.columns.first { $0.name == "followThrough" }?.path, ["metrics", "followThrough"])
        XCTAssertEqual(SportRegistry.table(for: .basketball)?.sqlTable, "basketball_shots")
        XCTAssertEqual(SportRegistry.table(for: .archery)?.sqlTable, "archery_arrows")
        XCTAssertEqual(ResultTable.archeryArrows.columns.first { $0.name == "isXRing" }?.sqlName, "is_x_ring")
        XCTAssertEqual(Set(ResultTable.tennisSwings.columns.map(\.sqlName)).count, ResultTable.tennisSwings.columns.count, "no two columns share a SQL name")
    }

    func testRowsComeFromTheResultDocumentWithNestedFieldsAndFlagCodes() {
        let result = JSONValue.object(["swings": .array([.object([
            "swingNumber": .number(1), "type": .string("serve"), "keyFrameTimes": .object(["contact": .number(2.5)]),
            "metrics": .object(["shoulderTurn": .null, "peakWristSpeed": .number(8.25)]),
        ])])])
        let lines = ResultTable.tennisSwings.csv(from: result).components(separatedBy: "\r\n")
        XCTAssertEqual(lines[1], "1,,serve,,,,,,2.5,,,8.25,,,,,")
        let shots = JSONValue.object(["shots": .array([.object(["shotNumber": .number(3), "flags": .array([
            .object(["code": .string("speed_flagged"), "message": .string("…")]), .object(["code": .string("angle_high")])])])])])
        XCTAssertTrue(ResultTable.bowlingShots.csv(from: shots).hasSuffix(",speed_flagged;angle_high\r\n"))
        XCTAssertEqual(ResultTable.bowlingShots.csv(from: .object([:])).components(separatedBy: "\r\n").count, 2, "header only")
    }
}
