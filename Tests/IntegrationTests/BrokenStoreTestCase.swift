import Foundation
import TestSupport
import XCTest

/// A coordinator whose bucket is a Python http.server that passes only the coordinator's start-up
/// check (HEAD on the bucket is 200) and then fails every other request in one way (`behaviour`):
/// the stack for the tests of a store that fails.
class BrokenStoreTestCase: XCTestCase {
    enum Behaviour: String {
        /// S3's 500 InternalError to everything.
        case answers500
        /// Reads the request and never answers, until the server stops.
        case neverAnswers
    }

    private static let script = """
        import http.server, os, sys, threading
        bucket, behaviour = sys.argv[1], sys.argv[2]
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
                if behaviour == 'neverAnswers':
                    never.wait()
                    return
                body = b'<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>'
                self.send_response(500)
                self.send_header('Content-Type', 'application/xml')
                self.send_header('Content-Length', str(len(body)))
                self.end_headers()
                if self.command != 'HEAD': self.wfile.write(body)
            do_GET = do_HEAD = do_PUT = do_POST = do_DELETE = answer
        s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
        s.daemon_threads = True
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print('port', s.server_address[1], flush=True)
        s.serve_forever()
        """

    /// How the store fails; each subclass says.
    var behaviour: Behaviour { fatalError("a BrokenStoreTestCase subclass says how its store fails") }
    /// Settings over the coordinator's (a subclass may shorten a timeout).
    var extraSettings: [String: String] { [:] }
    let bucket = "broken"
    private var server: PythonServer?
    private(set) var stack: TestStack!
    private(set) var endpoint = ""

    override func setUpWithError() throws {
        let server = try PythonServer(script: Self.script, arguments: [bucket, behaviour.rawValue])
        self.server = server
        endpoint = server.baseURL
        stack = try TestStack(
            settings: [
                "REELWORK_STORAGE": "s3", "REELWORK_S3_ENDPOINT": endpoint, "REELWORK_S3_BUCKET": bucket,
                "REELWORK_S3_PATH_STYLE": "1", "AWS_ACCESS_KEY_ID": "any-key", "AWS_SECRET_ACCESS_KEY": "any-secret"
            ]
            .merging(extraSettings) { $1 })
        try stack.startCoordinator()
    }

    override func tearDown() {
        stack?.shutdown()
        server?.stop()
        super.tearDown()
    }
}
