import Archery
import ReelworkCore
import XCTest

final class OptionsTests: XCTestCase {
    func testDefaultsAndValidOptions() throws {
        XCTAssertEqual(try ArcheryOptions.parse(.emptyObject), ArcheryOptions(expectedArrowCount: nil, faceDiameterCm: 122, arrowDiameterMm: 5.5))
        XCTAssertEqual(try ArcheryOptions.parse(.null), ArcheryOptions())
        let indoor = try ArcheryOptions.parse(.object(["expectedArrowCount": .number(3), "faceDiameterCm": .number(40),
                                                       "arrowDiameterMm": .number(9.3)]))
        XCTAssertEqual(indoor, ArcheryOptions(expectedArrowCount: 3, faceDiameterCm: 40, arrowDiameterMm: 9.3))
        // A stored job's options parse as they were accepted; where a client sends them, an unknown key is refused.
        XCTAssertNoThrow(try ArcheryOptions.parse(.object(["somethingElse": .string("ignored")])))
        XCTAssertThrowsError(try OptionKeys.refusingUnknown { try ArcheryOptions.parse(.object(["somethingElse": .string("ignored?")])) })
        XCTAssertEqual(indoor.arrowRadiusInFaceRadii, 4.65 / 200, accuracy: 1e-12)
        XCTAssertEqual(ArcheryOptions().arrowRadiusInFaceRadii, 2.75 / 610, accuracy: 1e-12)
        for edge in [1.0, 24.0] { XCTAssertNoThrow(try ArcheryOptions.parse(.object(["expectedArrowCount": .number(edge)]))) }
        for edge in [10.0, 200.0, 60.0, 80.0] { XCTAssertNoThrow(try ArcheryOptions.parse(.object(["faceDiameterCm": .number(edge)]))) }
        XCTAssertEqual(try ArcheryOptions.parse(.object(["expectedArrowCount": .null])).expectedArrowCount, nil)
    }

    func testInvalidOptionsNameTheOptionAndTheRange() {
        func message(_ options: JSONValue) -> String? {
            do {
                _ = try ArcheryOptions.parse(options)
                return nil
            } catch let error as ReelworkError {
                XCTAssertEqual(error.kind, .invalidInput)
                return error.message
            } catch {
                XCTFail("unexpected \(error)")
                return nil
            }
        }
        let cases: [(String, JSONValue, [String])] = [
            ("expectedArrowCount", .number(0), ["1", "24"]), ("expectedArrowCount", .number(25), ["1", "24"]),
            ("expectedArrowCount", .number(2.5), ["whole"]), ("expectedArrowCount", .number(1e300), ["24"]),
            ("expectedArrowCount", .string("6"), ["1"]),
            ("faceDiameterCm", .number(9.9), ["10", "200"]), ("faceDiameterCm", .number(1220), ["200"]),
            ("faceDiameterCm", .number(.nan), ["10"]), ("faceDiameterCm", .number(.infinity), ["10"]), ("faceDiameterCm", .bool(true), ["10"]),
            ("arrowDiameterMm", .number(2.9), ["3", "10"]), ("arrowDiameterMm", .number(55), ["10"]), ("arrowDiameterMm", .number(-5), ["3"]),
        ]
        for (key, value, words) in cases {
            let text = message(.object([key: value]))
            XCTAssertNotNil(text, "\(key) = \(value) is refused")
            XCTAssertTrue(text?.contains(key) == true, text ?? "no error for \(key) = \(value)")
            for word in words { XCTAssertTrue(text?.contains(word) == true, "\(text ?? "") names \(word)") }
        }
        XCTAssertNotNil(message(.array([])))
        XCTAssertNotNil(message(.number(3)))
    }
}
