import Archery
import Basketball
import Bowling
import Foundation
@testable import ReelworkCore
import SportKit
import Sports
import Tennis
import XCTest

/// A key no sport reads is refused, at the top of the options and inside nested options, with the
/// nearest known key when it looks like a slip; every key a sport documents still passes.
final class OptionKeysTests: XCTestCase {
    private func message(_ options: JSONValue, _ sport: Sport, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            try SportRegistry.checkOptions(options, sport: sport)
            XCTFail("\(options) was accepted for \(sport)", file: file, line: line)
        } catch ReelworkError.invalidInput(let message) {
            return message
        } catch {
            XCTFail("not invalidInput: \(error)", file: file, line: line)
        }
        return ""
    }

    private let ball: JSONValue = .object(["color": .object(["h": .number(220), "s": .number(60), "v": .number(50)])])

    func testAMisspeltKeyIsNamedWithTheNearestKnownOne() {
        let typo = message(.object(["threePointDistanceFT": .number(23.75)]), .basketball)
        XCTAssertTrue(typo.hasPrefix("unknown option 'threePointDistanceFT' (did you mean 'threePointDistanceFt'?)"), typo)
        XCTAssertTrue(typo.contains("basketball options are: ballColor, ballColorTolerance, hoop, threePointDistanceFt"), typo)
        let height = message(.object(["playerHieght": .number(1.8)]), .tennis)
        XCTAssertTrue(height.contains("did you mean 'playerHeight'?"), height)
    }

    func testAnotherSportsOptionIsRefusedWithoutAGuess() {
        let foreign = message(.object(["expectedArrowCount": .number(6)]), .basketball)
        XCTAssertTrue(foreign.hasPrefix("unknown option 'expectedArrowCount'; basketball options are: "), foreign)
        XCTAssertFalse(foreign.contains("did you mean"), foreign)
        XCTAssertTrue(message(.object(["ballProfile": ball, "dominantHand": .string("left")]), .bowling).contains("'dominantHand' (did you mean 'hand'?)"))
    }

    func testUnknownKeysInsideNestedOptionsAreNamedWithTheirPath() {
        let colour = message(.object(["ballProfile": .object(["colour": .object(["h": .number(1), "s": .number(1), "v": .number(1)])])]), .bowling)
        XCTAssertTrue(colour.hasPrefix("unknown option 'ballProfile.colour' (did you mean 'ballProfile.color'?)"), colour)
        let hue = message(.object(["ballColor": .object(["h": .number(30), "s": .number(70), "v": .number(90), "hue": .number(3)])]), .basketball)
        XCTAssertTrue(hue.hasPrefix("unknown option 'ballColor.hue'"), hue)
        let rim = message(.object(["hoop": .object(["rimLeft": .array([.number(1), .number(2)]), "rimRigth": .array([.number(90), .number(2)])])]), .basketball)
        XCTAssertTrue(rim.hasPrefix("unknown option 'hoop.rimRigth' (did you mean 'hoop.rimRight'?)"), rim)
        let lane = message(.object(["ballProfile": ball, "calibration": .object(["lanePoints": .object([:]), "foulLineY": .number(3)])]), .bowling)
        XCTAssertTrue(lane.hasPrefix("unknown option 'calibration.foulLineY'"), lane)
    }

    func testEveryDocumentedKeyPasses() throws {
        try SportRegistry.checkOptions(.object(["dominantHand": .string("left"), "playerHeight": .number(1.8)]), sport: .tennis)
        try SportRegistry.checkOptions(.object(["expectedArrowCount": .number(6), "faceDiameterCm": .number(40), "arrowDiameterMm": .number(5)]), sport: .archery)
        try SportRegistry.checkOptions(.object(["ballProfile": ball, "hand": .string("left"), "pose": .bool(true)]), sport: .bowling)
        try SportRegistry.checkOptions(.object(["ballColor": .object(["h": .number(30), "s": .number(70), "v": .number(90)]),
                                                "ballColorTolerance": .number(20), "threePointDistanceFt": .number(23.75)]), sport: .basketball)
        XCTAssertTrue(message(.object(["ballProfile": ball, "pose": .string("yes")]), .bowling).hasPrefix("option pose must be true or false"))
    }

    func testTheNearestKeyIsOnlyOfferedForASmallSlip() {
        XCTAssertEqual(OptionKeys.editDistance(Array("kitten"), Array("sitting")), 3)
        XCTAssertEqual(OptionKeys.nearest(to: "HAND", in: ["hand", "pose"]), "hand")
        XCTAssertNil(OptionKeys.nearest(to: "zzzz", in: ["hand", "pose"]))
    }
}

/// A retry's options are a JSON Merge Patch of the job's (RFC 7386's own examples).
final class MergePatchTests: XCTestCase {
    private func json(_ text: String) throws -> JSONValue { try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(text.utf8)) }

    func testKeysAreSetRecursivelyAndNullRemovesOne() throws {
        let original = try json(#"{"title": "Goodbye!", "author": {"givenName": "John", "familyName": "Doe"}, "tags": ["example", "sample"], "content": "x"}"#)
        let patch = try json(#"{"title": "Hello!", "phoneNumber": "+01-123-456-7890", "author": {"familyName": null}, "tags": ["example"]}"#)
        XCTAssertEqual(original.merging(patch),
                       try json(#"{"title": "Hello!", "author": {"givenName": "John"}, "tags": ["example"], "content": "x", "phoneNumber": "+01-123-456-7890"}"#))
        XCTAssertEqual(try json(#"{"a": "b"}"#).merging(try json(#"{"a": {"bb": {"ccc": null}}}"#)), try json(#"{"a": {"bb": {}}}"#))
        XCTAssertEqual(try json(#"{"a": "foo"}"#).merging(try json(#"["c"]"#)), try json(#"["c"]"#))
        XCTAssertEqual(JSONValue.emptyObject.merging(try json(#"{"hoop": {"rimLeft": [1, 2]}}"#)), try json(#"{"hoop": {"rimLeft": [1, 2]}}"#))
    }
}
