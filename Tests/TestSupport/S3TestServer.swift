import Foundation

/// A real S3 server for one test: rclone's `serve s3` (tools/s3-server/serve.sh) on 127.0.0.1 over
/// a scratch folder, whose folders are its buckets. It checks Signature V4 with one key pair. Its
/// venv is made on first use by scripts/setup-s3-server.sh. It stops when the test lets go of it
/// (`stop()`), or when the test process ends (its input closes).
public final class S3TestServer {
    public let host = "127.0.0.1"
    public private(set) var port: Int
    public let accessKeyID = "reelwork-test-key"
    public let secretAccessKey = "reelwork-test-secret-0123456789"
    /// The folder served: `root/<bucket>/<key>`.
    public let root: URL
    private var process: Process?
    private var input: Pipe?
    private let directory: ScratchDirectory
    private let rcloneFlags: [String]

    public var endpoint: String { "http://\(host):\(port)" }

    /// Starts the server with the buckets `buckets` (empty folders); `rcloneFlags` go to rclone
    /// (`["--bwlimit", "300k"]`: a slow store).
    public init(buckets: [String], rcloneFlags: [String] = []) throws {
        self.rcloneFlags = rcloneFlags
        try Tool.run(ProjectPaths.inRoot("scripts/setup-s3-server.sh"), [])
        directory = try ScratchDirectory(prefix: "s3-server")
        root = directory.url.appendingPathComponent("data")
        for bucket in buckets {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(bucket), withIntermediateDirectories: true)
        }
        port = try FreePort.next()
        try start()
    }

    /// Starts (again, after `kill()`) on the same port and folder.
    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.inRoot("tools/s3-server/serve.sh"))
        process.arguments = [root.path, host, String(port), accessKeyID, secretAccessKey] + rcloneFlags
        let input = Pipe()
        let text = try ToolServer.start(process, input: input)
        guard text.hasPrefix("listening on") else {
            process.terminate()
            throw TestSetupError(description: "the S3 server did not start: \(text)")
        }
        self.process = process
        self.input = input
    }

    /// The bytes the server has written to its sockets and files so far (the kernel's `wchar` of
    /// the rclone process): what readers were sent, plus a little of its own bookkeeping.
    public func bytesWritten() throws -> Int64 {
        guard let shell = process?.processIdentifier,
              let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8),
              let rclone = children.split(separator: " ").first,
              let io = try? String(contentsOfFile: "/proc/\(rclone)/io", encoding: .utf8),
              let line = io.split(separator: "\n").first(where: { $0.hasPrefix("wchar:") }),
              let bytes = Int64(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces)) else {
            throw TestSetupError(description: "cannot read the S3 server's I/O counters")
        }
        return bytes
    }

    /// Stops the server (its folder stays): what a store that went away looks like.
    public func kill() {
        try? input?.fileHandleForWriting.close()
        process?.waitUntilExit()
        process = nil
        input = nil
    }

    /// Stops the server and removes its folder.
    public func stop() {
        kill()
        directory.remove()
    }

    /// The settings of a Reelwork process that stores in `bucket` here.
    public func environment(bucket: String) -> [String: String] {
        ["REELWORK_STORAGE": "s3", "REELWORK_S3_ENDPOINT": endpoint, "REELWORK_S3_BUCKET": bucket, "REELWORK_S3_PATH_STYLE": "1",
         "AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secretAccessKey]
    }
}
