import ArgumentParser

@main
struct Reelwork: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reelwork",
        abstract: "Sports footage analysis at club scale: coordinator, workers, and the tools around them.",
        discussion: "Settings come from flags or REELWORK_* environment variables (see the README).",
        subcommands: [CoordinatorCommand.self, WorkerCommand.self, MigrateCommand.self, SubmitCommand.self,
                      JobsCommand.self, BatchesCommand.self, WebhooksCommand.self, AnalyzeCommand.self, StorageCommand.self,
                      KeysCommand.self, WorkersCommand.self, QueueCommand.self])
}
