import Foundation
import ObjectStorage
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A bucket whose store takes requests and never answers (overloaded, a network path that drops
/// the answers): the coordinator gives up after its read timeout and tries (`S3ObjectStore`),
/// answers 503 `storage_unavailable` naming the store and that it did not answer, and records
/// nothing. The read timeout is 2 s here (15 s by default), so the three tries take about 7 s.
final class SlowStoreTests: BrokenStoreTestCase {
    override var behaviour: Behaviour { .neverAnswers }
    override var extraSettings: [String: String] { [StorageSettings.Env.readTimeoutSeconds: "2"] }

    func testAStoreThatNeverAnswersIsNamedAndNothingIsRecorded() throws {
        // Two parts: the store is asked to begin a multipart upload at once.
        let body = try ReelworkJSON.encoder.encode(
            CreateUploadRequest(
                filename: "a.mp4", sizeBytes: UploadPlan.minimumPartBytes + 1,
                sha256: String(repeating: "a", count: 64)))
        let asked = Date()
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)/v1/uploads")!, key: stack.operatorKey, body: body)
        // The setting is honoured: three tries of 15 s (the default) would take 45 s.
        XCTAssertLessThan(Date().timeIntervalSince(asked), 30, "the read timeout is REELWORK_S3_READ_TIMEOUT_SECONDS, not the default")
        let error = HTTP.apiError(data)
        XCTAssertEqual(status, 503, String(decoding: data, as: UTF8.self))
        XCTAssertEqual(error?.code, "storage_unavailable")
        let message = error?.message ?? ""
        XCTAssertTrue(message.contains("bucket \(bucket) at \(endpoint)"), "names the store: \(message)")
        XCTAssertTrue(message.contains("did not answer in time"), "says it did not answer: \(message)")
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM uploads").rows[0].int("n"), 0, "an upload the store never began was recorded")
        XCTAssertTrue(message.contains("(3 tries)"), "gave up only after every try: \(message)")
    }
}
