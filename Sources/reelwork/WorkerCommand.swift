import ArgumentParser
import Dispatch
import Foundation
import Logging
import Pipeline
import ReelworkCore
import Worker

struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker", abstract: "Claim jobs from Redis and run them.",
        discussion: "SIGTERM or SIGINT: stop claiming; running jobs get REELWORK_SHUTDOWN_GRACE_SECONDS to finish, then are handed back (by the stage watchdog if a stage is stuck). A second signal exits at once.")

    @OptionGroup var options: ConfigOptions
    @Option(help: "Jobs run at once by this process (REELWORK_WORKER_SLOTS, default 2).") var slots: Int?
    @Option(name: .customLong("worker-id"), help: "Stable id; a restarted worker with the same id takes back its unfinished claims (REELWORK_WORKER_ID).")
    var workerID: String?

    func run() throws {
        Logs.bootstrap()
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
        let worker = WorkerProcess(config: config, logger: Logger(label: "reelwork.worker"))
        let handled: [Int32] = [SIGTERM, SIGINT]
        let signals = handled.map { signo -> any DispatchSourceSignal in
            signal(signo, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signo, queue: .global())
            source.setEventHandler {
                if worker.isStopping { Foundation.exit(130) }
                worker.stop()
            }
            source.resume()
            return source
        }
        worker.start()
        worker.wait()
        withExtendedLifetime(signals) {}
    }
}
