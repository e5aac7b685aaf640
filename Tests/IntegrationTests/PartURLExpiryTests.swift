import Foundation
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A presigned part URL that expired before its part reached the store: `reelwork submit` asks the
/// coordinator for a fresh one and sends the part with it, and the upload completes. The store is
/// rclone, which refuses an expired URL itself; clients reach it through a proxy that holds the
/// first request for part 1 until its URL (and part 2's, signed with it) has expired: a part that
/// waited behind a slow uplink or a sleeping laptop.
final class PartURLExpiryTests: XCTestCase {
    /// Python: a proxy to the S3 server on port argv[1], passing requests through as they came
    /// (the Host header too, which the signature covers). argv[2] `once` holds the first request
    /// for part 1, `always` every one (a store that refuses every URL as expired).
    private static let proxy = """
        import datetime, http.client, http.server, os, sys, threading, time, urllib.parse
        upstream, always = int(sys.argv[1]), sys.argv[2] == 'always'
        held = []
        class H(http.server.BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'
            def log_message(self, *a): pass
            def do_PUT(self):
                body = self.rfile.read(int(self.headers.get('Content-Length') or 0))
                query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
                if query.get('partNumber') == ['1'] and (always or not held):
                    held.append(1)
                    signed = datetime.datetime.strptime(query['X-Amz-Date'][0], '%Y%m%dT%H%M%SZ').replace(tzinfo=datetime.timezone.utc).timestamp()
                    # Until a second past the URL's expiry, when the store refuses it; 10 s at most
                    # (a coordinator that signed for longer than asked fails the test, not hangs it).
                    time.sleep(min(10, max(0, signed + int(query['X-Amz-Expires'][0]) + 1 - time.time())))
                connection = http.client.HTTPConnection('127.0.0.1', upstream)
                connection.putrequest('PUT', self.path, skip_host=True, skip_accept_encoding=True)
                for name, value in self.headers.items():
                    if name.lower() != 'expect': connection.putheader(name, value)
                try:
                    connection.endheaders(body)
                except BrokenPipeError:
                    pass  # the store answered before it read the body (a refusal): its answer is read below
                answer = connection.getresponse()
                data = answer.read()
                self.send_response(answer.status)
                for name, value in answer.getheaders():
                    if name.lower() not in ('content-length', 'transfer-encoding', 'connection'): self.send_header(name, value)
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)
        s = http.server.ThreadingHTTPServer(('127.0.0.1', 0), H)
        s.daemon_threads = True
        threading.Thread(target=lambda: (sys.stdin.read(), os._exit(0)), daemon=True).start()
        print('port', s.server_address[1], flush=True)
        s.serve_forever()
        """

    /// The S3 server, the proxy (`mode`) and a coordinator whose part URLs are good for 2 s; a
    /// folder holding a clip of two parts; `check` gets the stack, the clip and submit's outcome.
    private func submitThroughProxy(_ mode: String, _ check: (TestStack, URL, (status: Int32, output: String, stdout: String)) throws -> Void) throws {
        let server = try S3TestServer(buckets: ["expiry"])
        defer { server.stop() }
        let proxy = try PythonServer(script: Self.proxy, arguments: [String(server.port), mode])
        defer { proxy.stop() }
        // URLs good for 2 s: part 1 is held 3 s or so.
        let settings = server.environment(bucket: "expiry").merging([InputLimits.Env.uploadPartURLSeconds: "2",
                                                                      StorageSettings.Env.publicEndpoint: proxy.baseURL]) { $1 }
        let stack = try TestStack(settings: settings)
        defer { stack.shutdown() }
        try stack.startCoordinator()
        let folder = stack.directory.appendingPathComponent("match")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let clip = folder.appendingPathComponent("serve.mp4")
        // Lossless noise: about 10 MB, two parts of 8 MiB.
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30,noise=alls=100:allf=t+u", "-t", "3",
                         "-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv420p", clip.path])
        let submitted = try stack.run(["submit", folder.path, "--recursive", "--sport", "tennis"],
                                      extraEnvironment: ["XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path])
        try check(stack, clip, submitted)
    }

    func testSubmitAsksForAFreshURLWhenAPartsURLExpired() throws {
        try submitThroughProxy("once") { stack, clip, submitted in
            XCTAssertEqual(submitted.status, 0, submitted.output)
            // The store did refuse an expired URL (rclone: 400 AccessDenied; S3: 403 "Request has expired").
            XCTAssertTrue(submitted.output.contains("serve.mp4: the store answered HTTP 400 (AccessDenied: The difference between the request time and the server's time"),
                          submitted.output)
            XCTAssertTrue(submitted.output.contains("its URL expired, asking the coordinator for a fresh one"), submitted.output)
            let db = try stack.db()
            let upload = try db.query("SELECT status, size_bytes, part_bytes FROM uploads").rows
            XCTAssertEqual(upload.count, 1, "one upload, not started again")
            XCTAssertEqual(try upload[0].string("status"), UploadStatus.completed.rawValue)
            XCTAssertGreaterThan(try upload[0].int("size_bytes"), try upload[0].int("part_bytes"), "the file has at least two parts")
            let hash = String(decoding: try Tool.run("/usr/bin/sha256sum", [clip.path]), as: UTF8.self).prefix(64)
            XCTAssertEqual(try db.query("SELECT content_hash FROM videos").rows.map { try $0.string("content_hash") }, [String(hash)])
        }
    }

    /// Fresh URLs refused too: a bounded number of tries, then the file fails with the store's answer.
    func testAStoreThatRefusesFreshURLsTooFailsTheFileWithItsAnswer() throws {
        try submitThroughProxy("always") { stack, _, submitted in
            XCTAssertEqual(submitted.status, 1, submitted.output)
            XCTAssertEqual(submitted.output.components(separatedBy: "asking the coordinator for a fresh one").count - 1, 2, submitted.output)
            XCTAssertTrue(submitted.output.contains("serve.mp4: failed: the store answered HTTP 400 (AccessDenied"), submitted.output)
            XCTAssertTrue(submitted.output.contains("to part 1, and so it did with 2 fresh URL(s): check that this machine's and the coordinator's clocks are right"),
                          submitted.output)
            XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM videos").rows[0].int("n"), 0)
        }
    }
}
