import Basketball
import ReelworkCore
import Sports
import Tennis
import XCTest

/// Basketball through the registry as the coordinator uses it: its own parser at the door, and the
/// `hoop` option held against the uploaded video's frame.
final class BasketballRegistryTests: XCTestCase {
    static let hoop: JSONValue = .object(["hoop": .object(["rimLeft": .array([.number(600), .number(100)]),
                                                          "rimRight": .array([.number(660), .number(100)])])])

    func testTheHoopOptionIsCheckedByTheSportsParserAndAgainstTheFrame() {
        XCTAssertNoThrow(try SportRegistry.checkOptions(.emptyObject, sport: .basketball), "every option is optional")
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["threePointDistanceFt": .number(6.75)]), sport: .basketball),
                             "metres for feet")
        XCTAssertNoThrow(try SportRegistry.checkOptions(Self.hoop, sport: .basketball, frameWidth: 1280, frameHeight: 720))
        XCTAssertThrowsError(try SportRegistry.checkOptions(Self.hoop, sport: .basketball, frameWidth: 640, frameHeight: 360)) { error in
            XCTAssertEqual((error as? ReelworkError)?.kind, .invalidInput)
            XCTAssertTrue("\(error)".contains("hoop.rimRight"), "\(error)")
        }
        XCTAssertNoThrow(try SportRegistry.checkOptions(Self.hoop, sport: .tennis, frameWidth: 64, frameHeight: 36), "tennis names no pixels")
        XCTAssertEqual(StageName.plan(for: .basketball), [.probe, .decode, .objects, .shots])
        XCTAssertEqual(SportRegistry.table(for: .basketball)?.sqlTable, "basketball_shots")
    }
}
