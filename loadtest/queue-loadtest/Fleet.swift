import Foundation

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

/// Kills a random worker every 2–4 s while running.
final class ChaosMonkey: @unchecked Sendable {
    // Safe: `running` is read and written with `lock` held.
    let fleet: Fleet
    let slots: Int
    private let lock = NSLock()
    private var running = true
    private(set) var kills = 0
    private let done = DispatchSemaphore(value: 0)

    init(fleet: Fleet, slots: Int) {
        self.fleet = fleet
        self.slots = slots
    }

    func start() {
        Thread.detachNewThread { [self] in
            while lock.withLock({ running }) {
                Thread.sleep(forTimeInterval: Double.random(in: 2...4))
                guard lock.withLock({ running }) else { break }
                if (try? fleet.killRandomWorker(slots: slots)) != nil { lock.withLock { kills += 1 } }
            }
            done.signal()
        }
    }

    func stop() {
        lock.withLock { running = false }
        done.wait()
    }
}

struct LoadError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
