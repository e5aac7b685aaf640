import ArgumentParser
import Coordinator
import Hummingbird
import Logging
import ReelworkCore
import Telemetry

struct CoordinatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "coordinator", abstract: "Run the HTTP API (uploads, jobs, status).")

    @OptionGroup var options: ConfigOptions
    @Option(help: "host:port to listen on (REELWORK_BIND).") var bind: String?
    @Option(name: .customLong("max-upload-bytes"), help: "Largest accepted upload (REELWORK_MAX_UPLOAD_BYTES, default 500 MiB).")
    var maxUploadBytes: Int64?

    func run() async throws {
        Logs.bootstrap()
        // First: every metric handle made after this records into the exporter `/metrics` serves.
        let exporter = MetricsExporter.bootstrap()
        var config = try options.resolve()
        if let bind { config.bind = bind }
        if let maxUploadBytes { config.maxUploadBytes = maxUploadBytes }
        let logger = Logger(label: "reelwork.coordinator")
        // The store is named once it is checked (makeApplication): a bucket that is not there stops the start.
        logger.info("coordinator starting on \(config.bind)")
        let app = try await CoordinatorServer.makeApplication(config: config, logger: logger, exporter: exporter)
        try await app.runService()
    }
}
