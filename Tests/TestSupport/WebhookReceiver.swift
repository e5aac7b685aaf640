import Foundation

/// The webhook receiver of tools/webhook-receiver/receiver.py, started for one test: it verifies
/// every request's signature with the `standardwebhooks` PyPI package and records what it got.
/// Its venv is made on first use by scripts/setup-webhook-receiver.sh.
public final class WebhookReceiver {
    /// One request, as the receiver recorded it.
    public struct Request: Decodable, Sendable {
        public var path: String
        public var id: String
        public var timestamp: String?
        public var signature: String?
        public var contentType: String?
        public var body: String
        /// The status the receiver answered.
        public var status: Int
        /// Unix seconds.
        public var receivedAt: Double
        /// Whether the signature verified with each secret given to `verify(with:)`, in order.
        public var verified: [Bool]
        /// The verifier's complaint about the last secret that failed.
        public var error: String?
        /// The TLS server name (SNI) the connection asked for; HTTPS only.
        public var tlsServerName: String?
    }

    public let host: String
    public let port: Int
    /// "https" when started with a certificate.
    public let scheme: String
    private let process: Process
    private let input: Pipe
    private let directory: ScratchDirectory

    /// `http://127.0.0.1:PORT` + `path` (a mode: `/ok`, `/fail-twice`, `/gone`, `/slow/5`, `/retry-after/2`, …).
    public func url(_ path: String) -> String { "\(scheme)://\(host):\(port)\(path)" }

    /// - Parameters:
    ///   - host: the loopback address to listen on (127.0.0.2 lets a test play a second host).
    ///   - port: 0 for any free one.
    ///   - tls: a certificate and its key (PEM files): the receiver speaks HTTPS.
    public init(host: String = "127.0.0.1", port: Int = 0, tls: (certificate: String, key: String)? = nil) throws {
        try Tool.run(ProjectPaths.inRoot("scripts/setup-webhook-receiver.sh"), [])
        directory = try ScratchDirectory(prefix: "webhook-receiver")
        process = Process()
        process.executableURL = URL(fileURLWithPath: ProjectPaths.inRoot(".local/webhook-receiver/bin/python"))
        process.arguments = [ProjectPaths.inRoot("tools/webhook-receiver/receiver.py"), "--dir", directory.url.path,
                             "--host", host, "--port", String(port)] + (tls.map { ["--tls-cert", $0.certificate, "--tls-key", $0.key] } ?? [])
        input = Pipe()
        // The first line says where it listens.
        let text = try ToolServer.start(process, input: input)
        guard let portText = text.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines), let port = Int(portText) else {
            process.terminate()
            throw TestSetupError(description: "the webhook receiver did not start (it printed '\(text)')")
        }
        self.host = host
        self.port = port
        self.scheme = tls == nil ? "http" : "https"
    }

    /// The secrets the receiver verifies signatures with (it reads them at each request).
    public func verify(with secrets: [String]) throws {
        // Atomic (a new file renamed over the old one): the receiver never reads half of it.
        try JSONEncoder().encode(secrets).write(to: directory.url.appendingPathComponent("secrets.json"), options: .atomic)
    }

    /// Every request so far, oldest first.
    public func requests() throws -> [Request] {
        try ToolServer.records(Request.self, at: directory.path("records.jsonl"))
    }

    /// Waits until the requests satisfy `done`, checking every 20 ms, and returns them.
    @discardableResult
    public func awaitRequests(timeout: TimeInterval = 10, _ what: String, until done: ([Request]) -> Bool) throws -> [Request] {
        try Eventually.value(timeout: timeout, what) { let seen = try requests(); return done(seen) ? seen : nil }
    }

    /// Stops the receiver (it exits when its input closes) and removes its files.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        directory.remove()
    }
}
