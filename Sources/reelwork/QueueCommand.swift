import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

struct QueueCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue", abstract: "See the queue; pause and resume it, whole or one club's (operator keys).",
        subcommands: [Show.self, Pause.self, Resume.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Jobs waiting and running, and what is paused.")
        @OptionGroup var client: ClientOptions
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let stats = try await client.client().queueStats()
            if format == .json { return try printJSON(stats) }
            print(Terminal.table(["ready", "delayed", "running", "paused", "paused clubs"],
                                 [[String(stats.ready), String(stats.delayed), String(stats.running), stats.paused ? "yes" : "no",
                                   stats.pausedClubs.joined(separator: ", ")]]))
        }
    }

    struct Pause: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop claims: of one club's jobs (--club) or of all. Running jobs finish.",
            discussion: "Kept in Redis, so a coordinator restart does not undo it; `queue resume` does.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this club's queue.") var club: String?
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws { try await PauseText.apply(true, club: club, client: client, format: format) }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Claim again: one club's jobs (--club) or all (clubs paused on their own stay paused).")
        @OptionGroup var client: ClientOptions
        @Option(help: "Only this club's queue.") var club: String?
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws { try await PauseText.apply(false, club: club, client: client, format: format) }
    }
}

enum PauseText {
    static func apply(_ paused: Bool, club: String?, client: ClientOptions, format: OutputFormat) async throws {
        let state = try await client.client().setPaused(paused, club: club)
        if format == .json { return try printJSON(state) }
        print(Terminal.table(["queue paused", "paused clubs"], [[state.paused ? "yes" : "no", state.pausedClubs.joined(separator: ", ")]]))
    }
}
