import ArgumentParser
import Foundation
import ReelworkClient

/// What `jobs arrows` and `jobs correct` take: the job, a file of corrections to send, the format.
struct CorrectionOptions: ParsableArguments {
    @Argument(help: "Job id.") var id: String
    @Option(help: "A JSON file of corrections to send.") var file: String?
    @Option(help: "json, or csv (the confirmed arrows, shots or swings, one row each).") var format: JobsCommand.Results.ResultsFormat = .json

    /// Sends the file's corrections when one is given, then prints the confirmed version (the new
    /// one, or the newest) as JSON or CSV.
    func run(_ route: CoordinatorClient.Confirmations, client: ClientOptions) async throws {
        let api = try client.client()
        let job = try await IDResolver.job(id, api)
        if let file {
            let confirmed = try await api.confirm(job, route, body: try Data(contentsOf: URL(fileURLWithPath: file)))
            guard format == .csv else { return try printJSON(confirmed) }
        }
        if format == .csv { return print(try await api.confirmedCSV(job, route), terminator: "") }
        try printJSON(try await api.confirmed(job, route))
    }
}
