import Foundation
import Threading

/// The reelwork processes of a load run, started and stopped by PID.
final class Fleet: @unchecked Sendable {
    // Safe: the process lists are read and written with `lock` held.
    let binary: String
    let environment: [String: String]
    let logDirectory: URL
    private let lock = NSLock()
    private var coordinator: Process?
    private var workers: [Process] = []

    init(binary: String, environment: [String: String], logDirectory: URL) {
        self.binary = binary
        self.environment = environment
        self.logDirectory = logDirectory
    }

    func runToEnd(_ arguments: [String]) throws {
        let p = try spawn(arguments, log: "migrate")
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw LoadError("reelwork \(arguments.joined(separator: " ")) failed; see \(logDirectory.path)") }
    }

    func startCoordinator() throws {
        coordinator = try spawn(["coordinator"], log: "coordinator")
    }

    func startWorker(slots: Int) throws {
        let worker = try spawn(["worker", "--slots", String(slots)], log: "worker")
        lock.withLock { workers.append(worker) }
    }

    /// SIGKILLs one running worker (chosen at random) and starts a replacement.
    func killRandomWorker(slots: Int) throws {
        let victim: Process? = lock.withLock {
            let alive = workers.indices.filter { workers[$0].isRunning }
            guard let i = alive.randomElement() else { return nil }
            return workers.remove(at: i)
        }
        guard let victim else { return }
        kill(victim.processIdentifier, SIGKILL)
        victim.waitUntilExit()
        try startWorker(slots: slots)
    }

    /// The PIDs of the coordinator and the workers now running.
    var processIDs: [Int32] {
        lock.withLock { (workers + [coordinator].compactMap { $0 }).filter(\.isRunning).map(\.processIdentifier) }
    }

    func stopAll() {
        let all = lock.withLock { workers + [coordinator].compactMap { $0 } }
        for p in all where p.isRunning { p.terminate() }
        for p in all {
            let deadline = Date().addingTimeInterval(10)
            while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL) }
        }
    }

    private func spawn(_ arguments: [String], log: String) throws -> Process {
        let file = logDirectory.appendingPathComponent("\(log).log")
        if !FileManager.default.fileExists(atPath: file.path) { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: file)
        handle.seekToEndOfFile()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = arguments
        p.environment = environment
        p.standardOutput = handle
        p.standardError = handle
        try p.run()
        return p
    }
}

/// Kills a random worker every 2–4 s while running (a `BackgroundLoop` whose pace is the random gap).
final class ChaosMonkey: Sendable {
    private let killed = LockedValue(0)
    private let loop: BackgroundLoop<Bool>

    init(fleet: Fleet, slots: Int) {
        // The first round comes at start: it only waits, like the gap before every later kill.
        let started = LockedValue(false)
        loop = BackgroundLoop(name: "chaos-monkey", round: {
            let isFirst = started.withLock { (wasStarted: inout Bool) -> Bool in
                defer { wasStarted = true }
                return !wasStarted
            }
            guard !isFirst else { return false }
            return (try? fleet.killRandomWorker(slots: slots)) != nil
        }, pace: { _ in .after(Double.random(in: 2...4)) })
        loop.onRound = { [killed] didKill in if didKill { killed.withLock { $0 += 1 } } }
    }

    var kills: Int { killed.withLock { $0 } }

    func start() { loop.start() }

    func stop() { loop.stop() }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
