import ArgumentParser
import Foundation

@main
struct Reelwork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reelwork",
        abstract: "Sports footage analysis at club scale: coordinator, workers, and the tools around them.",
        discussion: "Settings come from flags or REELWORK_* environment variables (see the README).",
        subcommands: [CoordinatorCommand.self, WorkerCommand.self, MigrateCommand.self, SubmitCommand.self,
                      JobsCommand.self, BatchesCommand.self, WebhooksCommand.self, AnalyzeCommand.self, StorageCommand.self,
                      KeysCommand.self, WorkersCommand.self, QueueCommand.self])

    /// Swift's runtime takes the arguments as the process starts; a library preloaded into the
    /// process can leave them empty (libfaketime does: the multi-host test runs workers with their
    /// clocks an hour off through it). Then they are read from the kernel's copy instead.
    static func main() async {
        await main(CommandLine.arguments.isEmpty ? kernelArguments() : nil)
    }

    /// The process's arguments less its name, from /proc/self/cmdline (NUL-terminated strings).
    static func kernelArguments() -> [String]? {
        guard let file = FileHandle(forReadingAtPath: "/proc/self/cmdline"), let data = try? file.readToEnd() else { return nil }
        var parts = data.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        if parts.last == "" { parts.removeLast() }
        return Array(parts.dropFirst())
    }
}
