import Foundation
import ReelworkCore
import XCTest

final class IDPrefixTests: XCTestCase {
    func testTheStartOfAnIdNamesTheRangeOfIdsThatStartSo() throws {
        let prefix = try XCTUnwrap(IDPrefix("26C6-e8de"))
        XCTAssertEqual(prefix.digits, "26c6e8de")
        XCTAssertEqual(prefix.lowest.uuidString.lowercased(), "26c6e8de-0000-0000-0000-000000000000")
        XCTAssertEqual(prefix.highest.uuidString.lowercased(), "26c6e8de-ffff-ffff-ffff-ffffffffffff")
        let whole = try XCTUnwrap(IDPrefix("d41c0cf6-1b2a-4c3d-8e4f-5a6b7c8d9e0f"))
        XCTAssertEqual(whole.lowest, whole.highest, "a whole id names itself")
    }

    func testAnythingButFourToThirtyTwoHexDigitsIsRefused() {
        for text in ["", "abc", "abcg", "----", "26c6e8de-1b2a-4c3d-8e4f-5a6b7c8d9e0f0", "26c6 e8de", "０１２３"] {
            XCTAssertNil(IDPrefix(text), text)
        }
    }
}
