import Foundation

/// A test's HTTP server written inline in Python (stdlib only): run with `python3 -u -c SCRIPT
/// ARGUMENTS`, it prints `port N` once it listens on 127.0.0.1 and exits when its standard input
/// closes, so it ends with the test process even if the test cannot stop it.
public final class PythonServer {
    public let port: Int
    private let process: Process
    private let input: Pipe

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    public init(script: String, arguments: [String] = []) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-u", "-c", script] + arguments
        process.standardError = FileHandle.nullDevice
        input = Pipe()
        let line = try ToolServer.start(process, input: input)
        guard let port = Int(line.dropFirst("port ".count).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            if process.isRunning { process.terminate() }
            throw Tool.Failure(description: "the Python test server did not start: \(line)")
        }
        self.port = port
    }

    /// Stops the server (SIGTERM to its own PID) and waits for it.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? input.fileHandleForWriting.close()
    }
}
