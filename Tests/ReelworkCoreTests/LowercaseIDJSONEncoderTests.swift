import Foundation
@testable import ReelworkCore
import XCTest

/// Ids are written lower case by the project's encoder, whatever `UUID` itself writes; text that
/// only contains an id, or looks like one inside a longer string, is left as it was.
final class LowercaseIDJSONEncoderTests: XCTestCase {
    private struct Record: Codable, Equatable {
        var id: UUID
        var batchId: UUID?
        var ids: [UUID]
        var note: String
    }

    func testModelIdsComeOutLowerCaseAndOtherTextAsItWas() throws {
        let id = UUID(uuidString: "D41C0CF6-8A6B-4E8B-9C5E-0123456789AB")!
        let note = #"see "D41C0CF6-8A6B-4E8B-9C5E-0123456789AB" and D41C0CF6-8A6B-4E8B-9C5E-0123456789AB.MOV"#
        let record = Record(id: id, batchId: id, ids: [id], note: note)
        let text = String(decoding: try ReelworkJSON.encoder.encode(record), as: UTF8.self)
        let lower = "d41c0cf6-8a6b-4e8b-9c5e-0123456789ab"
        XCTAssertTrue(text.contains(#""id":"\#(lower)""#), text)
        XCTAssertTrue(text.contains(#""batchId":"\#(lower)""#), text)
        XCTAssertTrue(text.contains(#""ids":["\#(lower)"]"#), text)
        XCTAssertEqual(try ReelworkJSON.decoder.decode(Record.self, from: Data(text.utf8)), record, "the note is unchanged, the ids read back")
        let pretty = String(decoding: try ReelworkJSON.prettyEncoder.encode(record), as: UTF8.self)
        XCTAssertFalse(pretty.contains("\"D41C0CF6-8A6B-4E8B-9C5E-0123456789AB\""), pretty)
        XCTAssertTrue(pretty.contains("D41C0CF6-8A6B-4E8B-9C5E-0123456789AB.MOV"), "text around an id is not an id")
    }
}
