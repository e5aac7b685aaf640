import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// Probing and decoding through http, served by `python3 -m http.server` on 127.0.0.1.
final class HTTPTests: XCTestCase {
    private var fixtures: FixtureDirectory!
    private var server: Process?
    private var baseURL = ""

    override func setUpWithError() throws {
        fixtures = try FixtureDirectory()
        // Port 0: the server picks a free port and prints it, so there is no race for one.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", fixtures.url.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        server = process
        let port = try Self.readPort(from: output.fileHandleForReading)
        baseURL = "http://127.0.0.1:\(port)"
    }

    override func tearDown() {
        if let server, server.isRunning {
            server.terminate() // SIGTERM to this server's PID only
            server.waitUntilExit()
        }
        fixtures?.remove()
        super.tearDown()
    }

    /// Reads "Serving HTTP on 127.0.0.1 port N ..." from the server's first line.
    private static func readPort(from handle: FileHandle) throws -> Int {
        var text = ""
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let data = handle.availableData
            if data.isEmpty { break } // the server exited
            text += String(decoding: data, as: UTF8.self)
            if let range = text.range(of: #"port (\d+)"#, options: .regularExpression),
               let port = Int(text[range].dropFirst("port ".count)) {
                return port
            }
        }
        throw Tool.Failure(description: "http.server did not report its port: \(text)")
    }

    private func faststartClip() throws -> String {
        // Faststart: python's http.server has no range requests, so the index must come first.
        try fixtures.video("clip.mp4", Source.testPattern() + Source.h264 + ["-movflags", "+faststart"])
    }

    func testProbeAndDecodeOverHTTP() throws {
        let local = try faststartClip()
        let url = "\(baseURL)/clip.mp4"
        let facts = try MediaProbe.probe(url, verifyPackets: true)
        XCTAssertEqual(facts, try MediaProbe.probe(local))
        XCTAssertEqual(facts.frameCount, 50)
        let remote = try VideoDecoder(location: url).decodeAll { _ in }
        XCTAssertEqual(remote, try VideoDecoder(location: local).decodeAll { _ in })
        XCTAssertEqual(remote.framesDecoded, 50)
    }

    func testTruncatedFileOverHTTPIsInvalidInput() throws {
        _ = try fixtures.truncated(try faststartClip(), to: "cut.mp4")
        assertMediaError(.invalidInput, containing: ["truncated video"]) { try MediaProbe.probe("\(baseURL)/cut.mp4", verifyPackets: true) }
    }

    func testMissingFileOverHTTPIsInvalidInput() {
        assertMediaError(.invalidInput, containing: ["cannot open", "404"]) { try MediaProbe.probe("\(baseURL)/missing.mp4") }
    }

    func testConnectionRefusedIsTransient() throws {
        let port = try FreePort.next()
        let url = "http://127.0.0.1:\(port)/x.mp4"
        let error = assertMediaError(.transient, containing: ["cannot read \(url)", "Connection refused"]) { try MediaProbe.probe(url) }
        XCTAssertEqual(error?.server, .unreachable, "the server's fault, not the file's")
        assertMediaError(.transient, containing: ["Connection refused"]) { try VideoDecoder(location: url) }
        XCTAssertEqual(assertMediaError(.transient, containing: ["Connection refused"]) { try MediaProbe.checkOpens(url) }?.server, .unreachable)
    }

    /// A server that answers each path with the status it names: the status, not the file,
    /// decides how a read failed (a worker hands the job back for 401, 403 or no answer).
    func testRefusedCredentialsAndServerErrorsAreTheServersNotTheFiles() throws {
        let script = """
            import http.server, sys
            class H(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    self.send_response(int(self.path.strip('/').split('.')[0])); self.send_header('Content-Length', '0'); self.end_headers()
                def log_message(self, *a): pass
            s = http.server.HTTPServer(('127.0.0.1', 0), H)
            print('port', s.server_address[1], flush=True)
            s.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        let base = "http://127.0.0.1:\(try Self.readPort(from: output.fileHandleForReading))"
        for (status, server) in [(401, MediaError.ServerFailure.unauthorized), (403, .forbidden), (500, .serverError), (503, .serverError)] {
            let error = assertMediaError(.transient, containing: ["\(status / 100)"]) { try MediaProbe.probe("\(base)/\(status).mp4") }
            XCTAssertEqual(error?.server, server, "\(status)")
            XCTAssertEqual(assertMediaError(.transient, containing: []) { try MediaProbe.checkOpens("\(base)/\(status).mp4") }?.server, server)
        }
        let missing = assertMediaError(.invalidInput, containing: ["404"]) { try MediaProbe.checkOpens("\(base)/404.mp4") }
        XCTAssertNil(missing?.server, "the server answered: the file is not there")
    }
}
