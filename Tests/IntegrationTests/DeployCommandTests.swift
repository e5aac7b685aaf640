import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import TestSupport
import XCTest

/// The command lines deploy/ runs (issue 15), run against a local stack: no Docker engine or
/// cluster is here, so the image, compose file, manifests and units are exercised through the
/// exact commands they execute, read from the files by tools/deploy-check/commands.py (never
/// restated here). Two substitutions only, said where made: `/usr/local/bin/reelwork` is the
/// built binary, and the fixed ports 8080 and 9464 are this stack's free ports.
final class DeployCommandTests: XCTestCase {
    static let metricsToken = "deploy-test-metrics-token-0123456789"
    var stack: TestStack!
    private var spawned: [Process] = []

    override func setUpWithError() throws {
        // A scrape token for the workers' health check (compose) to present.
        stack = try TestStack(settings: ["REELWORK_METRICS_TOKEN": Self.metricsToken, "REELWORK_METRICS_REFRESH_SECONDS": "0.2"])
    }

    override func tearDown() {
        for process in spawned where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        stack?.shutdown()
        super.tearDown()
    }

    /// The deploy files' commands, as tools/deploy-check/commands.py reads them.
    struct Commands: Decodable {
        struct Image: Decodable { var entrypoint: [String]; var cmd: [String]; var healthcheck: [String] }
        struct Compose: Decodable {
            var migrate: [String], coordinator: [String], worker: [String]
            var coordinator_health: [String], worker_health: [String]
        }
        struct K8s: Decodable {
            var migrate: [String], coordinator: [String], worker: [String], prestop: [String]
            var readiness_path: String, liveness_path: String
            var queue_prefix: String, redis_list: String, prometheus_query: String, prometheus_latency_query: String
        }
        struct Systemd: Decodable {
            var coordinator_pre: [[String]], coordinator: [String], worker: [String], worker_id: String?
        }
        var image: Image, compose: Compose, k8s: K8s, systemd: Systemd
    }

    func loadCommands() throws -> Commands {
        // scripts/check-deploy.sh (run by scripts/test.sh) makes this venv; it has PyYAML.
        let python = TestStack.packageRoot.appendingPathComponent(".local/deploy-check/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: python) else {
            XCTFail("run scripts/check-deploy.sh first (scripts/test.sh does): it makes \(python)")
            throw ReelworkError.configuration("no deploy-check venv")
        }
        let script = TestStack.packageRoot.appendingPathComponent("tools/deploy-check/commands.py").path
        let json = try Tool.run(python, [script, TestStack.packageRoot.path])
        return try JSONDecoder().decode(Commands.self, from: json)
    }

    /// A reelwork command line's arguments, after checking that it runs the installed binary.
    func reelworkArguments(_ argv: [String], _ what: String) -> [String] {
        XCTAssertEqual(argv.first, "/usr/local/bin/reelwork", "\(what) runs \(argv)")
        return Array(argv.dropFirst())
    }

    /// Runs a command line (not reelwork) with the stack's environment plus `extra`, ports mapped.
    func shell(_ argv: [String], ports: [Int: Int] = [:], extra: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let mapped = argv.map { word in
            ports.reduce(word) { $0.replacingOccurrences(of: "127.0.0.1:\($1.key)", with: "127.0.0.1:\($1.value)") }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = mapped
        process.environment = stack.environment.merging(extra) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    func listedWorker(_ id: String) throws -> WorkerView? {
        let api = try stack.client()
        return try awaitSync { try await api.workers() }.workers.first { $0.id == id }
    }

    /// A per-club gauge from the coordinator's /metrics (scraped with the token), or nil if absent.
    /// A gauge's value on the coordinator's /metrics: the club's series, or the unlabelled one.
    func gauge(_ name: String, club: String? = nil) throws -> Double? {
        let (data, status, _) = try HTTP.get(URL(string: stack.coordinatorURL + "/metrics")!,
                                             headers: ["Authorization": "Bearer \(Self.metricsToken)"])
        guard status == 200 else { return nil }
        let prefix = club.map { "\(name){club=\"\($0)\"} " } ?? "\(name) "
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .first { $0.hasPrefix(prefix) }.flatMap { Double($0.dropFirst(prefix.count)) }
    }

    func testTheImageComposeK8sAndSystemdCommandLinesRunAgainstALocalStack() throws {
        let commands = try loadCommands()
        // The image and every orchestration run the same roles with the same arguments.
        XCTAssertEqual(commands.image.entrypoint, ["/usr/local/bin/reelwork"])
        XCTAssertEqual(commands.image.cmd, commands.k8s.coordinator)
        XCTAssertEqual(commands.compose.coordinator, commands.k8s.coordinator)
        XCTAssertEqual(reelworkArguments(commands.systemd.coordinator, "the coordinator unit"), commands.k8s.coordinator)
        XCTAssertEqual(commands.compose.worker, commands.k8s.worker)
        XCTAssertEqual(reelworkArguments(commands.systemd.worker, "the worker unit"), commands.k8s.worker)
        XCTAssertEqual(commands.compose.migrate, commands.k8s.migrate)

        // Migrations: the compose service, the Job and the coordinator unit's ExecStartPre, each
        // against the stack's database (already migrated by the stack: each must change nothing
        // and exit 0), with the migrations where the image and the units keep them.
        let migrations = ["REELWORK_MIGRATIONS_DIR": TestStack.packageRoot.appendingPathComponent("migrations").path]
        var migrateLines = [commands.compose.migrate, commands.k8s.migrate]
        migrateLines += commands.systemd.coordinator_pre.map { reelworkArguments($0, "ExecStartPre") }
        XCTAssertTrue(migrateLines.contains(["migrate"]))
        for line in migrateLines {
            let run = try stack.run(line, extraEnvironment: migrations)
            XCTAssertEqual(run.status, 0, "\(line): \(run.output)")
        }

        // The coordinator as the image starts it (ENTRYPOINT + CMD); the HEALTHCHECK's curl and
        // compose's say healthy once it is up, and k8s's probe paths answer 200.
        let coordinator = try stack.spawn(commands.image.cmd, name: "coordinator")
        spawned.append(coordinator)
        let coordinatorPorts = [8080: stack.port]
        XCTAssertTrue(try stack.waitUntil(timeout: 30) { try shell(commands.image.healthcheck, ports: coordinatorPorts).status == 0 },
                      "the image's HEALTHCHECK never passed:\n\(stack.logTail())")
        let composeHealth = try shell(Array(commands.compose.coordinator_health.dropFirst()), ports: coordinatorPorts)
        XCTAssertEqual(commands.compose.coordinator_health.first, "CMD")
        XCTAssertEqual(composeHealth.status, 0, composeHealth.output)
        for path in [commands.k8s.readiness_path, commands.k8s.liveness_path] {
            XCTAssertEqual(try HTTP.get(URL(string: stack.coordinatorURL + path)!).1, 200, path)
        }

        // What the KEDA triggers see of a job waiting with no worker: the Redis list (its prefix
        // is this stack's) holds one club, the claimable gauge the depth query adds says 1, and the
        // latency query's gauge says it has waited.
        let video = try stack.uploadTinyClip()
        let job = try stack.submitNoop(video: video, seconds: 3, tag: 1)
        XCTAssertTrue(commands.k8s.redis_list.hasPrefix(commands.k8s.queue_prefix + ":"))
        let list = stack.queuePrefix + commands.k8s.redis_list.dropFirst(commands.k8s.queue_prefix.count)
        XCTAssertEqual(try stack.redis().command("LLEN", list).integer, 1, "\(list) counts the club with a waiting job")
        for metric in ["reelwork_queue_claimable_jobs", "reelwork_jobs_running"] {
            XCTAssertTrue(commands.k8s.prometheus_query.contains(metric), metric)
        }
        XCTAssertTrue(commands.k8s.prometheus_latency_query.contains("reelwork_queue_oldest_claimable_wait_seconds"))
        XCTAssertTrue(try stack.waitUntil(timeout: 10) { try gauge("reelwork_queue_claimable_jobs") == 1 },
                      "reelwork_queue_claimable_jobs never said 1")
        XCTAssertTrue(try stack.waitUntil(timeout: 10) { try gauge("reelwork_queue_oldest_claimable_wait_seconds").map { $0 > 0 } ?? false },
                      "reelwork_queue_oldest_claimable_wait_seconds never said the job waits")

        // A worker as k8s starts it (args, its id from a pod name) with its metrics listener on.
        let metricsPort = try FreePort.next()
        let workerID = "reelwork-worker-5d8c7b9f4-x2k9q"
        let worker = try stack.spawn(commands.k8s.worker, name: "worker", extraEnvironment: [
            "REELWORK_WORKER_ID": workerID, "REELWORK_WORKER_METRICS_BIND": "127.0.0.1:\(metricsPort)",
            "REELWORK_SHUTDOWN_GRACE_SECONDS": "600", "REELWORK_HEARTBEAT_SECONDS": "0.5",
        ])
        spawned.append(worker)
        // compose's worker health check: a shell line presenting the scrape token.
        XCTAssertEqual(commands.compose.worker_health.first, "CMD-SHELL")
        let healthLine = ["/bin/sh", "-c"] + commands.compose.worker_health.dropFirst()
        let workerPorts = [9464: metricsPort]
        XCTAssertTrue(try stack.waitUntil(timeout: 30) { try shell(healthLine, ports: workerPorts).status == 0 },
                      "the worker's health check never passed:\n\(stack.logTail())")
        let wrongToken = try shell(healthLine, ports: workerPorts, extra: ["REELWORK_METRICS_TOKEN": "not-the-token-at-all"])
        XCTAssertNotEqual(wrongToken.status, 0, "the health check fails with a wrong token")

        // It claims the job (now counted as running, gone from the list); then the pod is
        // deleted: preStop, then SIGTERM, as the kubelet does.
        XCTAssertTrue(try stack.waitUntil(timeout: 20) { try listedWorker(workerID)?.running == 1 }, stack.logTail())
        XCTAssertEqual(try stack.redis().command("LLEN", list).integer, 0)
        XCTAssertTrue(try stack.waitUntil(timeout: 10) { try gauge("reelwork_jobs_running", club: "c") == 1 },
                      "reelwork_jobs_running{club=\"c\"} never said 1")

        // Without the optional operator key the preStop does nothing (and succeeds).
        let noKey = try shell(commands.k8s.prestop, extra: ["REELWORK_WORKER_ID": workerID, "REELWORK_DRAIN_KEY": ""])
        XCTAssertEqual(noKey.status, 0, noKey.output)
        XCTAssertEqual(try listedWorker(workerID)?.draining, false)
        // With a key that cannot drain (a worker's), the call fails and says so (a FailedPreStopHook event).
        let workerKey = try stack.createKey(["--worker", "--label", "deploy test"])
        let refused = try shell(commands.k8s.prestop, extra: ["REELWORK_WORKER_ID": workerID, "REELWORK_DRAIN_KEY": workerKey])
        XCTAssertNotEqual(refused.status, 0, "a worker key cannot drain: \(refused.output)")
        // With an operator key: drained through the API. The worker learns it from its next
        // heartbeat's answer (until then an idle slot may still claim), so wait for a beat after it.
        let drainedAt = Date()
        let drained = try shell(commands.k8s.prestop, extra: ["REELWORK_WORKER_ID": workerID, "REELWORK_DRAIN_KEY": stack.operatorKey])
        XCTAssertEqual(drained.status, 0, drained.output)
        XCTAssertEqual(try listedWorker(workerID)?.draining, true, "listed as draining at once")
        XCTAssertTrue(try stack.waitUntil(timeout: 10) {
            guard let listed = try listedWorker(workerID) else { return !worker.isRunning }
            return listed.lastHeartbeatAt > drainedAt.addingTimeInterval(0.6)
        }, "no heartbeat after the drain:\n\(stack.logTail())")
        let waiting = try stack.submitNoop(video: video, seconds: 0.1, tag: 2)
        if worker.isRunning { worker.terminate() }   // the kubelet's SIGTERM after the hook
        XCTAssertTrue(stack.waitUntil(timeout: 30) { !worker.isRunning }, "the worker did not exit:\n\(stack.logTail())")
        XCTAssertEqual(worker.terminationStatus, 0)
        XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, "the running job finished within the grace")
        XCTAssertEqual(try stack.status(waiting.id), "queued", "a draining worker claims nothing")

        // The systemd worker's id template: host and instance, stable across restarts.
        XCTAssertEqual(commands.systemd.worker_id, "%H-%i")
    }
}
