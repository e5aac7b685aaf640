import Foundation
import ReelworkCore
import Webhooks
import XCTest

/// The body is `{"type", "timestamp", "data"}` with absolute links, and stays under 20 KB whatever
/// `data` holds, saying when it was cut.
final class WebhookPayloadTests: XCTestCase {
    private func decode(_ body: Data) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    func testTheBodyHasTheSpecificationsShapeWithAbsoluteLinks() throws {
        let data = JSONValue.object(["job": .object(["id": .string("j1"), "status": .string("succeeded")]),
                                     "links": .object(["job": .string("/v1/jobs/j1"), "other": .string("https://elsewhere.example/x")])])
        let when = Date(timeIntervalSince1970: 1_700_000_000.25)
        let body = try decode(WebhookPayload.body(type: .jobSucceeded, timestamp: when, data: data, baseURL: "https://rw.example.org/"))
        XCTAssertEqual(Set(body.keys), ["type", "timestamp", "data"])
        XCTAssertEqual(body["type"] as? String, "job.succeeded")
        XCTAssertEqual(body["timestamp"] as? String, "2023-11-14T22:13:20.250Z")
        let links = try XCTUnwrap((body["data"] as? [String: Any])?["links"] as? [String: String])
        XCTAssertEqual(links, ["job": "https://rw.example.org/v1/jobs/j1", "other": "https://elsewhere.example/x"])
        XCTAssertNil((body["data"] as? [String: Any])?["truncated"])
    }

    func testALargeDataIsCutUnderTheLimitAndSaysSo() throws {
        let long = String(repeating: "é", count: 30_000)
        let cases: [JSONValue] = [
            .object(["job": .object(["id": .string("j1"), "lastError": .string(long)]), "links": .object(["job": .string("/v1/jobs/j1")])]),
            .object(["items": .array((0..<5_000).map { .number(Double($0)) }), "id": .string("j1"),
                     "links": .object(["job": .string("/v1/jobs/j1")])]),
            .object(Dictionary(uniqueKeysWithValues: (0..<3_000).map { ("key\($0)", JSONValue.string("value \($0)")) })),
            .array((0..<10_000).map { _ in .string("x") }),
            .string(long),
        ]
        for data in cases {
            let bytes = WebhookPayload.body(type: .jobFailed, timestamp: Date(), data: data, baseURL: "https://rw.example.org")
            XCTAssertLessThanOrEqual(bytes.count, WebhookPayload.maxBytes)
            let body = try decode(bytes)
            let kept = try XCTUnwrap(body["data"] as? [String: Any])
            XCTAssertEqual(kept["truncated"] as? Bool, true)
            XCTAssertEqual(body["type"] as? String, "job.failed")
        }
        // The first case keeps the job, its error shortened, and the links.
        let first = try decode(WebhookPayload.body(type: .jobFailed, timestamp: Date(), data: cases[0], baseURL: "https://rw.example.org"))
        let data = try XCTUnwrap(first["data"] as? [String: Any])
        let error = try XCTUnwrap((data["job"] as? [String: Any])?["lastError"] as? String)
        XCTAssertTrue(error.hasSuffix("…") && error.count < 2_000, "\(error.count)")
        XCTAssertEqual((data["links"] as? [String: String])?["job"], "https://rw.example.org/v1/jobs/j1")
        // The second keeps its scalars and links, not the big array.
        let second = try decode(WebhookPayload.body(type: .jobFailed, timestamp: Date(), data: cases[1], baseURL: nil))
        let secondData = try XCTUnwrap(second["data"] as? [String: Any])
        XCTAssertEqual(secondData["id"] as? String, "j1")
        XCTAssertNil(secondData["items"])
        XCTAssertEqual((secondData["links"] as? [String: String])?["job"], "/v1/jobs/j1", "no base URL: links stay paths")
    }
}
