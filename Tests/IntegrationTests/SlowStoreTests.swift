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
final class SlowStoreTests: XCTestCase {
    /// Python's http.server: HEAD on the bucket (the coordinator's start-up check) is 200; any
    /// other request is read and then held, unanswered, until the server stops.
    private static let script = """
        import http.server, os, sys, threading
        bucket = sys.argv[1]
        never = threading.Event()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            def log_message(self, *a): pass
            def answer(self):
                length = int(self.headers.get('Content-Length') or 0)
                if length: self.rfile.read(length)
                if self.command == 'HEAD' and self.path.split('?')[0].strip('/') == bucket:
                    self.send_response(200)
                    self.send_header('Content-Length', '0')
                    self.end_headers()
                    return
                never.wait()
            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = answer
        s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
        s.daemon_threads = True
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print('port', s.server_address[1], flush=True)
        s.serve_forever()
        """

    private var server: PythonServer?
    private var stack: TestStack!
    private var endpoint = ""
    private let bucket = "silent"

    override func setUpWithError() throws {
        let server = try PythonServer(script: Self.script, arguments: [bucket])
        self.server = server
        endpoint = server.baseURL
        stack = try TestStack(settings: ["REELWORK_STORAGE": "s3", "REELWORK_S3_ENDPOINT": endpoint, "REELWORK_S3_BUCKET": bucket,
                                         "REELWORK_S3_PATH_STYLE": "1", "AWS_ACCESS_KEY_ID": "any-key", "AWS_SECRET_ACCESS_KEY": "any-secret"])
        try stack.startCoordinator()
    }

    override func tearDown() {
        stack?.shutdown()
        server?.stop()
        super.tearDown()
    }

    func test_AStoreThatNeverAnswersIsNamedAndNothingIsRecorded() throws {
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
