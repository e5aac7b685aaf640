import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore

struct BatchesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batches", abstract: "List, inspect, watch, retry and cancel batches.",
        subcommands: [List.self, Show.self, Watch.self, Retry.self, Cancel.self, Report.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List batches, newest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Page size.") var limit: Int = 50
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let page = try await client.client().batches(limit: limit)
            if format == .json { return try printJSON(page) }
            print(Terminal.table(BatchText.header, page.batches.map(BatchText.row)))
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "A batch's counts and its jobs.",
                                                        discussion: "With --format json: the batch's fields and `jobs`, every one of them.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Batch id.") var id: String
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let api = try client.client()
            let batch = try await api.batch(try await IDResolver.batch(id, api))
            if format == .json { return try printJSON(try await Self.withJobs(batch, api)) }
            print(Terminal.table(BatchText.header, [BatchText.row(batch)]))
            let jobs = try await api.batchJobs(batch.id, limit: 500).jobs
            print()
            print(Terminal.table(["job", "status", "attempt", "error"],
                                 jobs.map { [Terminal.shortID($0.id), $0.status.rawValue, String($0.attempt), $0.lastError ?? ""] }))
        }

        /// The batch's JSON with its jobs added as `jobs`, all pages.
        static func withJobs(_ batch: BatchView, _ api: CoordinatorClient) async throws -> JSONValue {
            var jobs: [JobView] = []
            var cursor: String?
            repeat {
                let page = try await api.jobs(limit: 500, cursor: cursor, batch: batch.id)
                jobs += page.jobs
                cursor = page.nextCursor
            } while cursor != nil
            let encoder = ReelworkJSON.encoder
            guard case .object(var fields) = try ReelworkJSON.decoder.decode(JSONValue.self, from: try encoder.encode(batch)) else {
                return .null
            }
            fields["jobs"] = try ReelworkJSON.decoder.decode(JSONValue.self, from: try encoder.encode(jobs))
            return .object(fields)
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Redraw a batch's progress until every job has ended.",
            discussion: "Exit status 0 when every job succeeded, 1 otherwise.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Batch id.") var id: String
        @Option(help: "Seconds between refreshes when the coordinator has no event stream (it redraws on each event otherwise).") var interval: Double = 1

        func run() async throws {
            let api = try client.client()
            let batchId = try await IDResolver.batch(id, api)
            var last = ""
            var succeeded: Bool?
            try await EventWatch(api: api, batch: batchId, interval: interval, relevant: { $0.batchId == batchId }) {
                let batch = try await api.batch(batchId)
                let line = BatchText.progressLine(batch)
                if line != last { Terminal.status(line, final: !Terminal.isInteractive) }
                last = line
                guard batch.isComplete else { return false }
                if Terminal.isInteractive { Terminal.status(line, final: true) }
                succeeded = batch.count(.succeeded) == batch.total
                return true
            }.run()
            if succeeded != true { throw ExitCode(1) }
        }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a batch's report (totals over its jobs, then one section per job) as PDF.")
        @OptionGroup var download: DownloadOptions

        func run() async throws { try await download.save("batch") { try await $0.batchReport($1) } }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Retry a batch's failed jobs.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Batch id.") var id: String

        func run() async throws {
            let api = try client.client()
            let retried = try await api.retryBatch(try await IDResolver.batch(id, api)).retried
            print("\(retried.count) failed job(s) queued again")
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel a batch's waiting jobs and stop its running ones.",
            discussion: "It first says how many jobs that reaches and asks; --yes does not ask (a script must give it: without a terminal the command refuses), --dry-run only prints the count.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Batch id.") var id: String
        @OptionGroup var confirmation: ConfirmationOptions

        func run() async throws {
            let api = try client.client()
            let batchId = try await IDResolver.batch(id, api)
            let before = try await api.batch(batchId)
            let (count, reach) = Self.reach(before)
            guard count > 0 else {
                Terminal.writeErr("\(Self.name(before)) has no waiting or running jobs: nothing to cancel\n")
                return
            }
            guard try Confirmation.proceed("Cancel \(Confirmation.count(count, "job")) of \(Self.name(before))?", detail: reach,
                                           plan: "would cancel \(Confirmation.count(count, "job")) of \(Self.name(before)): \(reach)",
                                           confirmation) else { return }
            let batch = try await api.cancelBatch(batchId)
            print(BatchText.progressLine(batch))
        }
    }
}

func parseID(_ text: String, _ what: String) throws -> UUID {
    guard let id = UUID(uuidString: text) else { throw UserFacingError("'\(text)' is not a \(what) id") }
    return id
}

/// How batches read in a terminal.
enum BatchText {
    static let header = ["batch", "label", "sport", "jobs", "succeeded", "failed", "waiting", "running", "frames", "created"]

    static func row(_ b: BatchView) -> [String] {
        [Terminal.shortID(b.id), b.label ?? "", b.sport, String(b.total), String(b.count(.succeeded)),
         String(b.count(.failed)), String(waiting(b)), String(b.count(.running)),
         "\(b.framesDone)/\(b.framesPlanned)", ReelworkJSON.formatDate(b.createdAt)]
    }

    static func waiting(_ b: BatchView) -> Int {
        b.count(JobStatus.waiting)
    }

    static func progressLine(_ b: BatchView) -> String {
        let ended = b.count(JobStatus.terminal)
        let fraction = b.total > 0 ? Double(ended) / Double(b.total) : 0
        return "batch \(Terminal.shortID(b.id)) \(Terminal.bar(fraction)) \(ended)/\(b.total) ended: "
            + "\(b.count(.succeeded)) succeeded, \(b.count(.failed)) failed, "
            + "\(b.count(.cancelled)) cancelled, \(b.count(.running)) running, \(waiting(b)) waiting"
    }
}
