import Foundation

/// The DNS server of tools/test-dns/rebinding_dns.py, started for one test on a loopback address
/// of its own, port 53: it answers A queries for `name` with `answers` in order (the last one
/// repeated, TTL 0) and records every query. A process started with `resolvConf` as its
/// /etc/resolv.conf (a mount namespace of its own: `TestStack.startCoordinator(resolvConf:)`)
/// looks names up here through the system resolver, exactly as in production.
public final class TestDNSServer {
    /// One query, as the server recorded it.
    public struct Query: Decodable, Sendable {
        public var name: String
        /// 1 for A, 28 for AAAA.
        public var type: Int
        /// The address answered (A queries for `name` only).
        public var answer: String?
    }

    public let address: String
    private let process: Process
    private let input: Pipe
    private let directory: ScratchDirectory

    /// A resolv.conf naming only this server (one try, a short timeout: a test never waits long).
    public var resolvConf: URL { directory.url.appendingPathComponent("resolv.conf") }

    public init(name: String, answers: [String]) throws {
        directory = try ScratchDirectory(prefix: "test-dns")
        // An address of its own within 127/8, so it never meets a resolver already on port 53.
        address = "127.53.\(Int.random(in: 1...254)).\(Int.random(in: 1...254))"
        try "nameserver \(address)\noptions attempts:1 timeout:2\n".write(toFile: directory.path("resolv.conf"), atomically: true, encoding: .utf8)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [ProjectPaths.inRoot("tools/test-dns/rebinding_dns.py"), "--host", address, "--port", "53", "--name", name,
                             "--answers", answers.joined(separator: ","), "--log", directory.path("queries.jsonl")]
        input = Pipe()
        let line = try ToolServer.start(process, input: input)
        guard line.hasPrefix("listening on") else {
            process.terminate()
            throw TestSetupError(description: "the test DNS server did not start (it printed '\(line)')")
        }
    }

    /// Every query so far, oldest first.
    public func queries() throws -> [Query] {
        try ToolServer.records(Query.self, at: directory.path("queries.jsonl"))
    }

    /// The addresses answered to A queries for the name, in order.
    public func answersGiven() throws -> [String] {
        try queries().compactMap(\.answer)
    }

    /// Stops the server (it exits when its input closes) and removes its files.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        directory.remove()
    }
}
