import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkClient
import ReelworkCore
import Synchronization
import XCTest

/// An upload that gets no answer, or a "try again shortly", is sent again; any other answer is final.
final class UploadRetryTests: XCTestCase {
    private var file: URL!

    override func setUpWithError() throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("upload-retry-\(UUID().uuidString).mp4")
        try Data("not really a video".utf8).write(to: file)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: file)
    }

    /// Requests the coordinator below has answered.
    private final class Sent: Sendable {
        let count = Mutex(0)
    }

    /// A coordinator that gives each request the next of `answers` (the last one from then on),
    /// and counts the requests.
    private func client(_ answers: [Result<(Int, Data), ClientError>]) throws -> (CoordinatorClient, Sent) {
        let sent = Sent()
        let client = try CoordinatorClient(baseURL: "http://127.0.0.1:1", apiKey: "k") { _ in
            let index = sent.count.withLock { count in count += 1; return count - 1 }
            let (status, body) = try answers[min(index, answers.count - 1)].get()
            return (body, status)
        }
        return (client, sent)
    }

    private static func error(_ status: Int, _ code: String) -> Result<(Int, Data), ClientError> {
        .success((status, try! ReelworkJSON.encoder.encode(APIErrorBody(code: code, message: "\(code) said the coordinator"))))
    }

    private static let stored: Result<(Int, Data), ClientError> = {
        let video = VideoView(id: UUID(), club: "c", contentHash: String(repeating: "a", count: 64), sizeBytes: 18, originalName: "clip.mp4",
                              facts: VideoFacts(durationSeconds: 1, frameCount: 30, fps: 30, width: 64, height: 48, codec: "h264",
                                                rotation: 0, container: "mp4"), createdAt: Date())
        return .success((201, try! ReelworkJSON.encoder.encode(video)))
    }()

    func testNoAnswerAndUnavailableAreSentAgainUntilStored() async throws {
        let (client, sent) = try client([.failure(.unreachable("timed out")), Self.error(503, "storage_unavailable"), Self.stored])
        let retries = Mutex<[String]>([])
        let video = try await client.uploadVideo(file: file, retryDelays: [.zero, .zero, .zero],
                                                 onRetry: { why in retries.withLock { $0.append(why) } })
        XCTAssertEqual(video.originalName, "clip.mp4")
        XCTAssertEqual(sent.count.withLock { $0 }, 3, "two failures, then the answer")
        let said = retries.withLock { $0 }
        XCTAssertEqual(said.count, 2)
        XCTAssertTrue(said[0].hasPrefix("timed out; sending it again"), said[0])
        XCTAssertTrue(said[1].contains("storage_unavailable, HTTP 503"), said[1])
    }

    func testGivesUpAfterTheLastDelayWithTheLastError() async throws {
        let (client, sent) = try client([Self.error(503, "storage_unavailable")])
        do {
            _ = try await client.uploadVideo(file: file, retryDelays: [.zero, .zero])
            XCTFail("three 503s in a row must fail the upload")
        } catch let error as ClientError {
            XCTAssertEqual(error, .api(status: 503, code: "storage_unavailable", message: "storage_unavailable said the coordinator"))
        }
        XCTAssertEqual(sent.count.withLock { $0 }, 3, "the first try and one per delay")
    }

    func testAnAnswerThatIsNotTransientIsFinal() async throws {
        for (status, code) in [(400, "invalid_video"), (413, "too_large"), (429, "quota_exceeded"), (401, "unauthorized")] {
            let (client, sent) = try client([Self.error(status, code), Self.stored])
            do {
                _ = try await client.uploadVideo(file: file, retryDelays: [.zero, .zero])
                XCTFail("HTTP \(status) must not be sent again")
            } catch let error as ClientError {
                guard case .api(status, code, _) = error else { return XCTFail("\(error)") }
            }
            XCTAssertEqual(sent.count.withLock { $0 }, 1, "HTTP \(status) is an answer: sent once")
        }
    }

    func testAStoresOwnInternalErrorIsWorthResendingTheCoordinatorsIsNot() {
        XCTAssertTrue(ClientError.api(status: 500, code: "store_refused", message: "InternalError").isWorthResending)
        XCTAssertFalse(ClientError.api(status: 500, code: "internal", message: "a bug").isWorthResending)
        XCTAssertFalse(ClientError.api(status: 403, code: "store_refused", message: "AccessDenied").isWorthResending)
    }

    /// A complete answered "being completed" (an earlier try, whose answer was lost, is still at
    /// it) is asked again until the upload is done, and the video comes back.
    func testACompleteBeingCompletedElsewhereIsWaitedOut() async throws {
        let upload = UploadView(id: UUID(), club: "c", status: .open, filename: "clip.mp4", sizeBytes: 18, sha256: String(repeating: "a", count: 64),
                                partBytes: UploadPlan.minimumPartBytes, partCount: 1, partsReceived: [], bytesReceived: 0,
                                expiresAt: Date().addingTimeInterval(3600), videoId: nil, error: nil)
        let completes = Sent()
        let client = try CoordinatorClient(baseURL: "http://127.0.0.1:1", apiKey: "k") { request in
            let path = request.url?.path ?? ""
            let encode = { (value: any Encodable) in try ReelworkJSON.encoder.encode(value) }
            switch (request.httpMethod ?? "", path) {
            case ("POST", "/v1/uploads"): return (try encode(upload), 201)
            case ("POST", let p) where p.hasSuffix("/parts"):
                let target = UploadPartTarget(number: 1, url: "/v1/uploads/\(upload.id.uuidString.lowercased())/parts/1", offset: 0, bytes: 18,
                                              expiresAt: upload.expiresAt)
                return (try encode(UploadPartsResult(parts: [target])), 200)
            case ("PUT", _): return (Data(), 204)
            case ("POST", let p) where p.hasSuffix("/complete"):
                let count = completes.count.withLock { count in count += 1; return count }
                if count < 3 { return (try encode(APIErrorBody(code: "upload_completing", message: "being completed")), 409) }
                return (try Self.stored.get().1, 200)
            default: return (try encode(APIErrorBody(code: "not_found", message: "\(path)")), 404)
            }
        }
        let heard = Mutex<[String]>([])
        let video = try await client.uploadInParts(file: file, sha256: upload.sha256, sizeBytes: 18, club: nil, resume: nil,
                                                   retryDelays: [], completionPoll: .zero, onRetry: { why in heard.withLock { $0.append(why) } })
        XCTAssertEqual(video.originalName, "clip.mp4")
        XCTAssertEqual(completes.count.withLock { $0 }, 3, "asked until it was done")
        XCTAssertEqual(heard.withLock { $0 }, ["being completed; waiting for it"], "said once")
    }
}
