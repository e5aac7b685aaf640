import Foundation
import ObjectStorage
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A bucket whose store takes requests and never answers (overloaded, a network path that drops
/// the answers): the coordinator gives up after its read timeout and tries (`S3ObjectStore`),
/// answers 503 `storage_unavailable` naming the store and that it did not answer, and records
/// nothing. About 45 s: three tries of 15 s, the store client's own timeouts.
final class SlowStoreTests: BrokenStoreTestCase {
    override var behaviour: Behaviour { .neverAnswers }

    func testAStoreThatNeverAnswersIsNamedAndNothingIsRecorded() throws {
        // Two parts: the store is asked to begin a multipart upload at once.
        let body = try ReelworkJSON.encoder.encode(CreateUploadRequest(filename: "a.mp4", sizeBytes: UploadPlan.minimumPartBytes + 1,
                                                                      sha256: String(repeating: "a", count: 64)))
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/uploads")!, key: stack.operatorKey, body: body)
        let error = HTTP.apiError(data)
        XCTAssertEqual(status, 503, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(error?.code, "storage_unavailable")
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("bucket \(bucket) at \(endpoint)"), "names the store: \(message)")
        XCTAssertTrue(message.contains("did not answer in time"), "says it did not answer: \(message)")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 0, "an upload the store never began was recorded")
    }
}
