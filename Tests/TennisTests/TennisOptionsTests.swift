import ReelworkCore
import Tennis
import XCTest

final class TennisOptionsTests: XCTestCase {
    func testDefaultsAndValidOptions() throws {
        XCTAssertEqual(try TennisOptions.parse(.emptyObject), TennisOptions(dominantHand: .right, playerHeight: nil))
        XCTAssertEqual(try TennisOptions.parse(.object(["dominantHand": .string("left"), "playerHeight": .number(1.8)])),
                       TennisOptions(dominantHand: .left, playerHeight: 1.8))
        XCTAssertEqual(try TennisOptions.parse(.object(["dominantHand": .string("Right"), "playerHeight": .null])).dominantHand, .right)
        XCTAssertEqual(try TennisOptions.parse(.object(["playerHeight": .number(1.0)])).playerHeight, 1.0)
        XCTAssertEqual(try TennisOptions.parse(.object(["playerHeight": .number(2.5)])).playerHeight, 2.5)
    }

    func testInvalidOptionsNameTheOptionAndTheRange() {
        func message(_ options: JSONValue) -> String? {
            do {
                _ = try TennisOptions.parse(options)
                return nil
            } catch let error as ReelworkError {
                XCTAssertEqual(error.kind, .invalidInput)
                return error.message
            } catch {
                XCTFail("unexpected \(error)")
                return nil
            }
        }
        for height in [JSONValue.number(180), .number(0.9), .number(2.51), .string("1.8"), .bool(true)] {
            let text = message(.object(["playerHeight": height]))
            XCTAssertNotNil(text, "\(height) is refused")
            XCTAssertTrue(text?.contains("playerHeight") == true && text?.contains("1.0") == true && text?.contains("2.5") == true,
                          text ?? "no error for \(height)")
        }
        XCTAssertTrue(message(.object(["dominantHand": .string("both")]))?.contains("dominantHand") == true)
        XCTAssertTrue(message(.object(["dominantHand": .number(1)]))?.contains("dominantHand") == true)
        XCTAssertNotNil(message(.array([])))
    }
}
