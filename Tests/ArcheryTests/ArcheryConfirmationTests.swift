import Archery
import Foundation
import ReelworkCore
import SportKit
import XCTest

/// What `/v1/jobs/{id}/arrows` stores and shows, read and built by the Archery module (the
/// coordinator only mounts the route): the corrections as read, the confirmed end numbered, its
/// CSV, and the route's names.
final class ArcheryConfirmationTests: XCTestCase {
    func json(_ text: String) throws -> JSONValue { try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(text.utf8)) }

    func detected() throws -> JSONValue {
        try json(#"{"arrows": [{"id": 0, "normalizedX": 0.02, "normalizedY": 0.015, "score": 10, "isXRing": true}, "#
            + #"{"id": 1, "normalizedX": 0.15, "normalizedY": 0, "score": 9, "isXRing": false}], "total": 19, "xCount": 1, "tens": 1}"#)
    }

    func testOnlyTheCorrectionsAsReadAreStoredAndTheEndIsNumbered() throws {
        let body = try json(#"{"corrections": [{"op": "delete", "index": 0, "note": "not kept"}, {"op": "add", "x": 0, "y": 0.55}]}"#)
        let pending = try ArcheryConfirmation.route.read(body, .emptyObject)
        XCTAssertEqual(pending.corrections, try json(#"[{"op": "delete", "index": 0}, {"op": "add", "x": 0, "y": 0.55}]"#))
        let confirmed = try pending.confirmed(detected: try detected())
        guard case .array(let arrows)? = confirmed["arrows"] else { return XCTFail("no arrows") }
        XCTAssertEqual(arrows.map { $0["arrowNumber"] }, [.number(1), .number(2)])
        XCTAssertEqual(arrows.map { $0["source"] }, [.string("detected"), .string("added")])
        XCTAssertEqual(confirmed["total"], .number(9 + 5))
        let csv = ArcheryConfirmation.route.csv(confirmed).components(separatedBy: "\r\n")
        XCTAssertEqual(csv[0], ArcheryConfirmation.confirmedColumns.joined(separator: ","))
        XCTAssertEqual(csv.count, 4, "header, two arrows, final line end")
    }

    func testBadBodiesOptionsAndIndicesAreRefusedAsInvalidInput() throws {
        XCTAssertThrowsError(try ArcheryConfirmation.route.read(try json(#"{"shots": []}"#), .emptyObject))
        XCTAssertThrowsError(try ArcheryConfirmation.route.read(try json(#"{"corrections": []}"#), try json(#"{"faceDiameterCm": 1}"#)),
                             "the job's options are read too")
        let pending = try ArcheryConfirmation.route.read(try json(#"{"corrections": [{"op": "delete", "index": 5}]}"#), .emptyObject)
        XCTAssertThrowsError(try pending.confirmed(detected: try detected())) { error in
            XCTAssertTrue("\(error)".contains("arrow index 5 does not exist"), "\(error)")
        }
    }

    func testThePluginsRouteIsArrows() {
        let route = ArcheryPlugin().confirmationRoute
        XCTAssertEqual(route?.segment, "arrows")
        XCTAssertEqual(route?.noun, "end")
        XCTAssertEqual(route?.operations, ["move", "add", "delete"])
        XCTAssertEqual(route?.confirmationsTable, "archery_confirmations")
    }
}
