import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

struct WorkersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workers", abstract: "List the workers and drain one (operator keys).",
        subcommands: [List.self, Drain.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Workers whose heartbeat is recent, by id.")
        @OptionGroup var client: ClientOptions
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let list = try await client.client().workers()
            if format == .json { return try printJSON(list) }
            print(Terminal.table(WorkerText.header, list.workers.map(WorkerText.row)))
        }
    }

    struct Drain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask a worker to drain.",
            discussion: "At its next heartbeat the worker stops claiming; its running jobs get the shutdown grace period to finish, are then handed back, and it exits (the SIGTERM path). It first says how many running jobs that reaches and asks; --yes does not ask (a script must give it: without a terminal the command refuses), --dry-run only prints it.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Worker id (as `workers list` shows it).") var id: String
        @Option(help: "text or json.") var format: OutputFormat = .text
        @OptionGroup var confirmation: ConfirmationOptions

        func run() async throws {
            let api = try client.client()
            let listed = try await Self.listed(id, api)
            guard !listed.draining else {
                Terminal.writeErr("worker \(id) is draining already\n")
                if format == .json { return try printJSON(listed) }
                return print(Terminal.table(WorkerText.header, [WorkerText.row(listed)]))
            }
            guard try Confirmation.proceed("Drain worker \(id)?", detail: Self.reach(listed),
                                           plan: "would drain worker \(id): \(Self.reach(listed))", confirmation) else { return }
            let worker = try await api.drainWorker(id)
            if format == .json { return try printJSON(worker) }
            print(Terminal.table(WorkerText.header, [WorkerText.row(worker)]))
        }
    }
}

enum WorkerText {
    static let header = ["worker", "host", "version", "slots", "running", "heartbeat", "state"]

    static func row(_ w: WorkerView) -> [String] {
        [w.id, w.host, w.version, String(w.slots), String(w.running), String(format: "%.1f s ago", w.heartbeatAgeSeconds),
         w.draining ? "draining" : "active"]
    }
}
