import ArgumentParser
import Foundation
import Logging
import Pipeline
import ReelworkCore
import ServiceLifecycle
import Telemetry
import UnixSignals
import Worker

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Claim jobs from Redis and run them.",
        discussion: "SIGTERM or SIGINT: stop claiming; running jobs get REELWORK_SHUTDOWN_GRACE_SECONDS to finish, then are handed back (by the stage watchdog if a stage is stuck). A second signal exits at once. After REELWORK_WORKER_MAX_ABANDONED_THREADS stage threads stuck in C code, the worker drains the same way and exits with status 75, for its supervisor to restart it.")

    @OptionGroup var options: ConfigOptions
    @Option(help: "Jobs run at once by this process (REELWORK_WORKER_SLOTS, default 2).") var slots: Int?
    @Option(name: .customLong("worker-id"), help: "Stable id; a restarted worker with the same id takes back its unfinished claims (REELWORK_WORKER_ID).")
    var workerID: String?

    func run() async throws {
        Logs.bootstrap()
        // First: every metric handle made after this records into the exporter `/metrics` serves.
        let exporter = MetricsExporter.bootstrap()
        var config = try options.resolve()
        if let slots {
            guard slots >= 1 else { throw ValidationError("--slots must be at least 1") }
            config.workerSlots = slots
        }
        if let workerID { config.workerID = workerID }
        // Fail fast: a worker that cannot load its models would claim jobs only to fail each one.
        do {
            try AnalysisPipeline.preloadModels(config.vision, concurrentJobs: config.workerSlots)
        } catch {
            throw UserFacingError("cannot start the worker: \(error)")
        }
        let logger = Logger(label: "reelwork.worker")
        let worker = WorkerProcess(config: config, logger: logger)
        worker.exportHeartbeatAge(to: exporter)
        worker.exportAbandonedThreads(to: exporter)
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        // Before the worker: a group stops its services in reverse order, so /metrics answers
        // until the worker has finished or handed back its jobs.
        if let listener = try MetricsListener.service(config: config, exporter: exporter, logger: logger) {
            logger.info("metrics on http://\(config.metrics.workerBind ?? "")/metrics")
            services.append(.init(service: listener))
        }
        // A worker that returns on its own (an operator drained it) shuts the group down and exits 0.
        services.append(.init(service: worker, successTerminationBehavior: .gracefullyShutdownGroup))
        let group = ServiceGroup(configuration: .init(services: services, logger: logger))
        // One signal sequence for both rules, registered before anything runs: the first SIGTERM or
        // SIGINT shuts the group down gracefully (remembered if the group has not started yet), the
        // second exits at once.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let signalHandler = Task {
            var seen = 0
            for await _ in signals {
                seen += 1
                if seen == 1 { await group.triggerGracefulShutdown() } else { Foundation.exit(130) }
            }
        }
        defer { signalHandler.cancel() }
        try await group.run()
        // Not 0: a supervisor that restarts only failed processes (systemd's Restart=on-failure)
        // must start a fresh worker, without the memory its abandoned threads still hold.
        if worker.mustRestart { throw ExitCode(WorkerProcess.restartExitCode) }
    }
}
