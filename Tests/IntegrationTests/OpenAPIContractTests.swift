import Coordinator
import Foundation
import Logging
import Queue
import ReelworkCore
import Sports
import XCTest

/// Route and document cannot drift (issue 12, part 4): the router's routes and the document's
/// operations are one set, checked both ways; every operation says what it needs and how it
/// refuses; the document's enums are the server's own types; and a running coordinator serves
/// this very file and answers every operation that needs a key (`/v1`, `/metrics`) without one with 401
/// (the coordinator's own application, in process).
/// (SchemathesisTests fuzzes the operations themselves.)
final class OpenAPIContractTests: XCTestCase {
    /// The router's routes in OpenAPI's syntax, built by the code the coordinator runs (no server
    /// is needed: its pools connect on first use).
    func routedOperations() throws -> Set<String> {
        let routes = try CoordinatorServer.routeList(config: ReelworkConfig.fromEnvironment([:]), logger: Logger(label: "test"))
        // `GET /v1/**` answers unknown /v1 paths with 404: a fallback, not an operation. The
        // dashboard's pages and forms are for people (HTML, session cookie), not part of the API.
        return Set(routes.filter { !$0.path.hasSuffix("/**") && !$0.path.hasPrefix("/dashboard") }
            .map { "\($0.method) \(Self.template($0.path))" })
    }

    /// A route path as an OpenAPI template: `:id` (how routes are written) becomes `{id}`. (The
    /// router prints captures in braces already; this keeps the test right if it ever does not.)
    static func template(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
    }

    func testTheDocumentDescribesExactlyTheRoutesTheRouterServes() throws {
        let documented = Set(try OpenAPIDocument().operations.map(\.label))
        let routed = try routedOperations()
        XCTAssertGreaterThanOrEqual(routed.count, 20, "the router's routes were found: \(routed.sorted())")
        XCTAssertEqual(routed.subtracting(documented).sorted(), [], "routes that openapi/openapi.json does not describe: document them")
        XCTAssertEqual(documented.subtracting(routed).sorted(), [],
                       "operations in openapi/openapi.json that no route serves: remove them, or register the route")
    }

    func testEveryOperationSaysWhatItNeedsAndHowItRefuses() throws {
        let document = try OpenAPIDocument()
        let operations = document.operations
        let ids = operations.compactMap(\.id)
        XCTAssertEqual(ids.count, operations.count, "every operation has an operationId")
        XCTAssertEqual(Set(ids).count, ids.count, "operationIds are unique: \(ids.sorted())")
        let scheme = document.resolve(["$ref": "#/components/securitySchemes/apiKey"])
        XCTAssertEqual(scheme?["type"] as? String, "http")
        XCTAssertEqual(scheme?["scheme"] as? String, "bearer")
        let scrape = document.resolve(["$ref": "#/components/securitySchemes/scrapeToken"])
        XCTAssertEqual(scrape?["type"] as? String, "http")
        XCTAssertEqual(scrape?["scheme"] as? String, "bearer")

        for operation in operations {
            let label = operation.label
            let responses = operation.object["responses"] as? [String: Any] ?? [:]
            let security = document.security(of: operation).map { $0.keys.sorted() }
            if operation.path.hasPrefix("/v1/") {
                XCTAssertEqual(security, [["apiKey"]], "\(label) needs the bearer key")
                for code in ["401", "429", "503"] {
                    XCTAssertNotNil(responses[code], "\(label): every /v1 operation can answer \(code)")
                }
            } else if operation.path == "/metrics" {
                // Outside /v1 and its rate limit, but not open: an operator key or the scrape token.
                XCTAssertEqual(security, [["apiKey"], ["scrapeToken"]], "\(label): either credential")
                for code in ["401", "403", "503"] { XCTAssertNotNil(responses[code], "\(label) can answer \(code)") }
            } else {
                XCTAssertEqual(security, [], "\(label) is open")
                XCTAssertNil(responses["401"], "\(label) is open")
            }
            for (code, response) in responses {
                XCTAssertNotNil(document.resolve(response)?["description"] as? String, "\(label) \(code) has a description")
            }

            // Each `{name}` of the path is a required path parameter (a UUID, but for a webhook
            // delivery's `msg_…` id), and nothing else is.
            let inPath = operation.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
            let declared = document.parameters(of: operation).filter { $0["in"] as? String == "path" }
            XCTAssertEqual(declared.compactMap { $0["name"] as? String }.sorted(), inPath.sorted(), "\(label): path parameters")
            for parameter in declared {
                XCTAssertEqual(parameter["required"] as? Bool, true, "\(label): path parameters are required")
                let schema = parameter["schema"] as? [String: Any]
                if operation.path.hasPrefix("/v1/clubs/") {
                    XCTAssertEqual(schema?["pattern"] as? String, "^[A-Za-z0-9._-]{1,64}$", "\(label): club names follow ClubName's rule")
                } else if operation.path.hasPrefix("/v1/workers/") {
                    XCTAssertEqual(schema?["pattern"] as? String, "^[A-Za-z0-9._:@-]{1,200}$", "\(label): worker ids as ControlRoutes accepts them")
                } else if parameter["name"] as? String == "number" {
                    XCTAssertEqual(schema?["type"] as? String, "integer", "\(label): a part's number")
                    XCTAssertEqual(schema?["minimum"] as? Int, 1, "\(label): parts count from 1")
                } else if parameter["name"] as? String == "deliveryId" {
                    XCTAssertEqual(schema?["pattern"] as? String, "^msg_[A-Za-z0-9]{16,64}$", "\(label): delivery ids are what the outbox makes")
                } else {
                    XCTAssertEqual(schema?["format"] as? String, "uuid", "\(label): ids are UUIDs")
                }
            }
        }
        for (at, ref) in document.references() {
            XCTAssertNotNil(document.resolve(["$ref": ref]), "\(at): \(ref) points nowhere")
        }
    }

    /// The document's enums and bounds are the server's: a value added to a Swift enum without the
    /// document (or the other way round) fails here, before a client meets it. Sports and stages
    /// are open types: theirs are the registry's lists (every plug-in's sport and stages).
    func testTheDocumentsEnumsAreTheServersTypes() throws {
        let document = try OpenAPIDocument()
        func check(_ schema: String, _ values: [String], file: StaticString = #filePath, line: UInt = #line) {
            XCTAssertEqual(document.enumValues(schema).sorted(), values.sorted(), schema, file: file, line: line)
        }
        check("Sport", SportRegistry.sports.map(\.rawValue))
        check("JobStatus", JobStatus.allCases.map(\.rawValue))
        check("StageStatus", StageStatus.allCases.map(\.rawValue))
        check("StageName", SportRegistry.stages.map(\.rawValue))
        check("Priority", Priority.allCases.map(\.rawValue))
        // A lost worker's stage and job say `stalled`, which is not a run's own error kind.
        check("ErrorKind", ErrorKind.allCases.map(\.rawValue) + ["stalled"])
        check("WebhookEventType", WebhookEventType.allCases.map(\.rawValue))
        check("WebhookDeliveryStatus", WebhookDeliveryStatus.allCases.map(\.rawValue))
        check("UploadStatus", UploadStatus.allCases.map(\.rawValue))
        let facts = document.resolve(["$ref": "#/components/schemas/VideoFacts"])?["properties"] as? [String: Any]
        let sources = (facts?["frameCountSource"] as? [String: Any])?["enum"] as? [String]
        XCTAssertEqual(sources?.sorted(), VideoFacts.FrameCountSource.allCases.map(\.rawValue).sorted())
        let limit = document.resolve(["$ref": "#/components/parameters/Limit"])?["schema"] as? [String: Any]
        XCTAssertEqual(limit?["maximum"] as? Int, InputLimits().maxPageSize, "the page size bound is the default REELWORK_MAX_PAGE_SIZE")
    }

    /// A request at the document's own bounds fits the default JSON body limit; otherwise a client
    /// that follows the document gets 413 (as `submit` did with 10,000 hashes in 256 KiB).
    func testTheLongestListsTheDocumentAllowsFitTheBodyLimit() throws {
        let document = try OpenAPIDocument()
        func maxItems(_ schema: String, _ field: String) throws -> Int {
            let properties = document.resolve(["$ref": "#/components/schemas/\(schema)"])?["properties"] as? [String: Any]
            return try XCTUnwrap((properties?[field] as? [String: Any])?["maxItems"] as? Int, "\(schema).\(field) has maxItems")
        }
        let club = String(repeating: "c", count: ClubName.maxLength)
        let hashes = try maxItems("VideoLookupRequest", "hashes")
        XCTAssertEqual(hashes, VideoLookupRequest.maxHashes)
        let lookup = VideoLookupRequest(hashes: Array(repeating: String(repeating: "f", count: 64), count: hashes), club: club)
        XCTAssertLessThanOrEqual(try ReelworkJSON.encoder.encode(lookup).count, InputLimits().maxJSONBytes, "the longest lookup")
        let videoIds = try maxItems("AddBatchJobsRequest", "videoIds")
        XCTAssertEqual(videoIds, AddBatchJobsRequest.maxVideoIds)
        let add = AddBatchJobsRequest(videoIds: (0..<videoIds).map { _ in UUID() }, priority: "normal", maxAttempts: 10)
        XCTAssertLessThanOrEqual(try ReelworkJSON.encoder.encode(add).count, InputLimits().maxJSONBytes, "the longest list of a batch's videos")
        // With names the longest list may not fit one body: the client's slices each do, whatever the names hold.
        let names = ["x", String(repeating: "n", count: 255), String(repeating: "\u{1F3BE}", count: 255), String(repeating: "\"", count: 255)]
        let entries = (0..<videoIds).map { (videoId: UUID(), fileName: names[$0 % names.count]) }
        let slices = AddBatchJobsRequest.slices(entries)
        XCTAssertEqual(slices.flatMap(\.videoIds), entries.map(\.videoId), "every entry once, in order")
        XCTAssertEqual(slices.flatMap { $0.fileNames ?? [] }, entries.map(\.fileName))
        for slice in slices {
            XCTAssertLessThanOrEqual(try ReelworkJSON.encoder.encode(slice).count, InputLimits().maxJSONBytes, "a slice of \(slice.videoIds.count) named videos")
        }
    }

    /// Data the server stored and cannot read back is its fault: a 500, which the fuzzer reports,
    /// not a 400 `invalid_json` blaming the request (how a succeeded job's results once failed).
    func testAServerSideDecodingFailureIsA500() throws {
        do {
            _ = try ReelworkJSON.decoder.decode(VideoFacts.self, from: Data(#"{"durationSeconds": "long"}"#.utf8))
            XCTFail("the damaged facts decoded")
        } catch {
            let answer = APIError.from(error)
            XCTAssertEqual(answer.code, "internal")
            XCTAssertTrue(answer.description.hasPrefix("500 "), answer.description)
        }
    }

    func testTheServedDocumentIsTheFileAndEveryOperationWithSecurityNeedsAKey() throws {
        // The coordinator in process (`InProcessStack`): its router answers as a process would.
        let stack = try InProcessStack()
        defer { stack.shutdown() }
        try stack.startCoordinator()
        let document = try OpenAPIDocument()

        let (served, status, headers) = try stack.get("/openapi.json")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(Self.header("Content-Type", in: headers), "application/json")
        XCTAssertTrue(served == document.bytes, "GET /openapi.json (\(served.count) bytes) is not openapi/openapi.json (\(document.bytes.count) bytes)")

        var checked = 0
        // Every operation that names a credential, `/metrics` among them.
        for operation in document.operations where !document.security(of: operation).isEmpty {
            let path = operation.path.replacingOccurrences(of: #"\{[^}/]+\}"#, with: UUID().uuidString.lowercased(), options: .regularExpression)
            let body = operation.method == "POST" ? Data("{}".utf8) : nil
            let (data, status, headers) = try stack.request(operation.method, path, body: body)
            XCTAssertEqual(status, 401, "\(operation.label) without a key")
            XCTAssertEqual(HTTP.apiError(data)?.code, "unauthorized", operation.label)
            XCTAssertEqual(Self.header("WWW-Authenticate", in: headers), "Bearer", operation.label)
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 19, "the /v1 operations and /metrics were walked")
    }

    static func header(_ name: String, in headers: [String: String]) -> String? {
        headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
