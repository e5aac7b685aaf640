import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// A connection to the store or the coordinator that breaks mid-body is opened again at the byte
/// where it broke (FFmpeg's `reconnect`, set in `MediaLocation.openOptions`), so a worker's copy
/// and a decode over http get every byte instead of failing the run. The server is Python's
/// http.server on 127.0.0.1, serving ranges as S3 and the coordinator do, and cutting the first
/// answer for each file halfway: with a FIN (`fin…`) or a reset (`rst…`, unsent bytes dropped).
/// A `dead…` file's server then goes away (every later request closed unanswered), and a
/// `hangup…` file's never answers at all.
final class ReconnectTests: XCTestCase {
    private static let script = """
        import http.server, os, re, socket, struct, sys, threading
        root, log = sys.argv[1], sys.argv[2]
        cut = set()
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            def log_message(self, *a): pass
            def do_GET(self):
                name = self.path.split('?')[0].strip('/')
                if name.startswith('hangup') or (name.startswith('dead') and name in cut):
                    # A server that went away: the connection is taken and closed with no answer.
                    with open(log, 'a') as f: f.write(f'{name} hangup\\n')
                    self.close_connection = True
                    self.connection.close()
                    return
                data = open(os.path.join(root, name), 'rb').read()
                m = re.fullmatch(r'bytes=(\\d+)-', self.headers.get('Range', ''))
                start = int(m.group(1)) if m else 0
                with open(log, 'a') as f: f.write(f'{name} {start}\\n')
                if m:
                    self.send_response(206)
                    self.send_header('Content-Range', f'bytes {start}-{len(data) - 1}/{len(data)}')
                else:
                    self.send_response(200)
                self.send_header('Accept-Ranges', 'bytes')
                self.send_header('Content-Length', str(len(data) - start))
                self.end_headers()
                body = data[start:]
                if name in cut:
                    self.wfile.write(body)
                    return
                cut.add(name)
                self.wfile.write(body[:len(body) // 2])
                self.close_connection = True
                if name.startswith('rst'):
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack('ii', 1, 0))
                    self.connection.close()
        s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
        s.daemon_threads = True
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print('port', s.server_address[1], flush=True)
        s.serve_forever()
        """

    private var fixtures: FixtureDirectory!
    private var server: PythonServer?
    private var baseURL = ""
    private var requestLog = ""

    override func setUpWithError() throws {
        fixtures = try FixtureDirectory()
        requestLog = fixtures.path("requests.log")
        let server = try PythonServer(script: Self.script, arguments: [fixtures.url.path, requestLog])
        self.server = server
        baseURL = server.baseURL
    }

    override func tearDown() {
        server?.stop()
        fixtures?.remove()
        super.tearDown()
    }

    /// Where each request for `name` started: the first at 0, a reconnect where the cut fell.
    private func requestStarts(_ name: String) throws -> [Int] {
        try String(contentsOfFile: requestLog, encoding: .utf8).split(separator: "\n").compactMap { line in
            let parts = line.split(separator: " ")
            return parts.first.map(String.init) == name ? Int(parts[1]) ?? -1 : nil
        }
    }

    func testACopyWhoseConnectionBreaksMidBodyStillHoldsEveryByte() throws {
        let bytes = pseudoRandomBytes(count: (3 << 20) + 12_345)
        for name in ["fin.bin", "rst.bin"] {
            _ = try fixtures.write(bytes, to: name)
            let copy = fixtures.path("\(name).copy")
            let copied = try MediaCopy.copy("\(baseURL)/\(name)", to: copy, maxBytes: 1 << 30, guards: MediaGuards())
            XCTAssertEqual(copied, Int64(bytes.count), name)
            XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: copy)), bytes, name)
            let starts = try requestStarts(name)
            XCTAssertEqual(starts.count, 2, "\(name): one cut answer, one reconnect: \(starts)")
            XCTAssertEqual(starts.first, 0, name)
            // It resumed where the bytes stopped, not from the start: a 4 GB copy keeps what it has.
            XCTAssertGreaterThan(starts.last ?? 0, 0, "\(name): \(starts)")
            XCTAssertLessThanOrEqual(starts.last ?? 0, bytes.count / 2, "\(name): no byte was skipped: \(starts)")
        }
    }

    /// A store that dies mid-body, so that the reconnect finds nobody, fails the copy as the
    /// network's fault (the job retries), not with a half file that would then be judged a
    /// truncated video (the job failing for good as invalid input).
    func testACopyCutOffByAServerThatWentAwayFailsAsTheStoresFault() throws {
        let bytes = pseudoRandomBytes(count: (3 << 20) + 12_345)
        _ = try fixtures.write(bytes, to: "dead.bin")
        XCTAssertThrowsError(try MediaCopy.copy("\(baseURL)/dead.bin", to: fixtures.path("dead.copy"), maxBytes: 1 << 30, guards: MediaGuards())) { error in
            let media = error as? MediaError
            XCTAssertEqual(media?.kind, .transient, "\(error)")
            XCTAssertEqual(media?.server, .unreachable, "\(error)")
        }
        XCTAssertEqual(try requestStarts("dead.bin").count, 2, "the cut answer, then the reconnect that found nobody")
    }

    /// A server that takes the connection and closes it without an answer is the network's fault too.
    func testAServerThatHangsUpWithoutAnAnswerIsTheStoresFault() throws {
        _ = try fixtures.write(pseudoRandomBytes(count: 1000), to: "hangup.bin")
        XCTAssertThrowsError(try MediaCopy.copy("\(baseURL)/hangup.bin", to: fixtures.path("hangup.copy"), maxBytes: 1 << 30, guards: MediaGuards())) { error in
            XCTAssertEqual((error as? MediaError)?.kind, .transient, "\(error)")
            XCTAssertEqual((error as? MediaError)?.server, .unreachable, "\(error)")
        }
    }

    /// The demuxer's reads (a decode without a local copy, the coordinator's checks) go through
    /// the same options.
    func testADecodeWhoseConnectionBreaksMidBodyDecodesEveryFrame() throws {
        let local = try fixtures.video("fin.mp4", Source.testPattern() + Source.h264 + ["-movflags", "+faststart"])
        let remote = try VideoDecoder(location: "\(baseURL)/fin.mp4").decodeAll { _ in }
        XCTAssertEqual(remote, try VideoDecoder(location: local).decodeAll { _ in })
        XCTAssertEqual(remote.framesDecoded, 50)
        XCTAssertEqual(try requestStarts("fin.mp4").count, 2, "the first answer was cut and read again from where it broke")
    }
}
