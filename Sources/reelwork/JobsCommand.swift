import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore
import SportKit
import Sports

enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Options every `jobs` subcommand takes.
struct ClientOptions: ParsableArguments {
    @Option(name: .customLong("coordinator-url"), help: "The coordinator's base URL (REELWORK_COORDINATOR_URL).")
    var coordinatorURL: String?
    @Option(name: .customLong("api-key"), help: "The API key to present (REELWORK_API_KEY); `reelwork keys create` makes one.")
    var apiKey: String?

    func client() throws -> CoordinatorClient {
        let config = try ReelworkConfig.fromEnvironment()
        guard let key = apiKey ?? config.apiKey else {
            throw UserFacingError("no API key: set REELWORK_API_KEY or pass --api-key (an operator makes one with `reelwork keys create`)")
        }
        return try CoordinatorClient(baseURL: coordinatorURL ?? config.coordinatorURL, apiKey: key)
    }
}


func printJSON<T: Encodable>(_ value: T) throws {
    print(String(decoding: try ReelworkJSON.prettyEncoder.encode(value), as: UTF8.self))
}

struct JobsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "List, inspect, retry and watch jobs.",
        subcommands: [List.self, Show.self, Retry.self, Cancel.self, Watch.self, Results.self, Arrows.self, Correct.self, Picture.self, Report.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List jobs, newest first.")
        @OptionGroup var client: ClientOptions
        @Option(help: "Filter by status: \(JobStatus.filterNames.joined(separator: ", ")) (waiting: queued or retry_scheduled).") var status: String?
        @Option(help: "Filter by sport.") var sport: String?
        @Option(help: "Filter by club.") var club: String?
        @Option(help: "Only this batch's jobs (its id or the start of it).") var batch: String?
        @Option(help: "Page size.") var limit: Int = 50
        @Option(help: "Continue after this job id (the previous page's nextCursor).") var cursor: String?
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let api = try client.client()
            var batchId: UUID?
            if let batch { batchId = try await IDResolver.batch(batch, api) }
            let page = try await api.jobs(status: status, sport: sport, club: club, limit: limit, cursor: cursor, batch: batchId)
            if format == .json { return try printJSON(page) }
            print(Terminal.table(["ID", "STATUS", "SPORT", "FILE", "CLUB", "ATTEMPT", "CREATED", "ERROR"], page.jobs.map { job in
                [job.id.uuidString.lowercased(), job.status.rawValue, job.sport, job.fileName ?? "-", job.club, JobText.attempts(job),
                 ReelworkJSON.formatDate(job.createdAt), JobText.note(job)]
            }))
            if let next = page.nextCursor { print("more: --cursor \(next)") }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a job with every attempt's stages and timings.")
        @OptionGroup var client: ClientOptions
        @Argument var id: String
        @Option(help: "text or json.") var format: OutputFormat = .text

        func run() async throws {
            let api = try client.client()
            let job = try await api.job(try await IDResolver.job(id, api))
            if format == .json { return try printJSON(job) }
            print(JobText.describe(job))
        }
    }

    struct Retry: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Retry one failed or cancelled job, or every failed job matching a filter.",
            discussion: "reelwork jobs retry ID [--options FILE]   (FILE's keys are merged into the job's options; null removes one)\nreelwork jobs retry --failed [--club NAME] [--sport S] [--error-kind K] [--since 2h|ISO-8601] [--until …]\nreelwork jobs retry --failed --all   (every failed job, no filter)\n\nWith --failed it first says how many jobs match and asks; --yes does not ask (a script must give it: without a terminal the command refuses), --dry-run only prints the count.")
        @OptionGroup var client: ClientOptions
        @Argument var id: String?
        @Flag(help: "Retry every failed job matching the filters.") var failed = false
        @Option(help: "Only this club's jobs.") var club: String?
        @Option(help: "Only this sport's jobs.") var sport: String?
        @Option(name: .customLong("error-kind"), help: "transient, invalid_input, needs_person, internal or stalled.") var errorKind: String?
        @Option(help: "Failed at or after: an ISO-8601 time or an age like 30m, 2h, 1d.") var since: String?
        @Option(help: "Failed before: an ISO-8601 time or an age.") var until: String?
        @Flag(help: "With --failed and no filter: retry every failed job of every club.") var all = false
        @Option(name: .customLong("options"), help: "With a job id: a JSON file of options to merge into the job's (e.g. the hoop a needs_person failure asked for).")
        var optionsFile: String?
        @OptionGroup var confirmation: ConfirmationOptions

        private var hasFilter: Bool { club != nil || sport != nil || errorKind != nil || since != nil || until != nil }

        func validate() throws {
            if failed == (id != nil) { throw ValidationError("give either a job id or --failed") }
            if id != nil, hasFilter || all { throw ValidationError("filters and --all go with --failed") }
            if failed, optionsFile != nil { throw ValidationError("--options goes with one job id, not --failed") }
            if failed, !hasFilter, !all {
                throw ValidationError("--failed without a filter would retry every failed job: add a filter (--club, --sport, --error-kind, --since, --until) or --all")
            }
            if all, hasFilter { throw ValidationError("--all retries every failed job: leave out the filters, or leave out --all") }
            if id != nil, confirmation.dryRun { throw ValidationError("--dry-run goes with --failed") }
        }

        func run() async throws {
            let api = try client.client()
            if let id {
                let options = try optionsFile.map(OptionsFile.load)
                let job = try await api.retry(try await IDResolver.job(id, api), options: options)
                print("job \(job.id.uuidString.lowercased()) is \(job.status.rawValue) again: attempt \(job.attempt + 1) is next; its failures count again from \(job.failures)/\(job.maxAttempts)")
                if options != nil { print("options \(job.options.jsonString())") }
                return
            }
            try await retryFailed(api)
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cancel a job: a waiting one is removed, a running one stops within a heartbeat.")
        @OptionGroup var client: ClientOptions
        @Argument var id: String

        func run() async throws {
            let api = try client.client()
            let job = try await api.cancel(try await IDResolver.job(id, api))
            let id = job.id.uuidString.lowercased()
            print(job.status == .cancelled ? "job \(id) cancelled" : "job \(id) is running; its worker stops it within a heartbeat")
        }
    }

    struct Watch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Redraw per-stage status and progress until the jobs end.",
            discussion: "On a terminal each job's line is redrawn with how long it has run and an estimate of what is left of its running stage; in a pipe or a log (stderr not a terminal) it writes a line when a job's status or a stage changes, and a last line per job with how long it took. Exit status 0 when every job succeeded, 1 otherwise.")
        @OptionGroup var client: ClientOptions
        @Argument(help: "Job ids (also read from stdin when none are given and stdin is not a terminal).") var ids: [String] = []
        @Option(help: "Seconds between refreshes when the coordinator has no event stream (it redraws on each event otherwise).") var interval: Double = 0.5

        func run() async throws {
            var texts = ids
            if texts.isEmpty, isatty(STDIN_FILENO) == 0 {
                while let line = readLine() { if !line.isEmpty { texts.append(line.trimmingCharacters(in: .whitespaces)) } }
            }
            guard !texts.isEmpty else { throw ValidationError("give at least one job id") }
            let api = try client.client()
            var jobIDs: [UUID] = []
            for text in texts { jobIDs.append(try await IDResolver.job(text, api)) }
            var linesDrawn = 0
            var log = WatchLog()
            var jobs: [UUID: JobView] = [:]
            var outcome: Bool?
            let watched = Set(jobIDs)
            // Redrawn on each event about a watched job (re-reading the jobs); polled only when the
            // coordinator has no event stream.
            try await EventWatch(api: api, job: jobIDs.count == 1 ? jobIDs[0] : nil, interval: interval,
                                 relevant: { watched.contains($0.jobId) }) {
                for id in jobIDs { jobs[id] = try await api.job(id) }
                let shown = jobIDs.compactMap { jobs[$0] }
                if Terminal.isInteractive {
                    let now = Date()
                    let frame = shown.map { JobText.progressLine($0) + WatchClock.suffix($0, now: now) }
                    if linesDrawn > 0 { Terminal.writeErr("\u{1B}[\(linesDrawn)A") }
                    Terminal.writeErr(frame.map { "\u{1B}[2K" + $0 + "\n" }.joined())
                    linesDrawn = shown.count
                } else {
                    // A pipe or a log: what changed, not every progress tick.
                    let lines = shown.flatMap { log.lines($0) }
                    if !lines.isEmpty { Terminal.writeErr(lines.joined(separator: "\n") + "\n") }
                }
                guard shown.allSatisfy({ $0.status.isTerminal }) else { return false }
                outcome = shown.allSatisfy { $0.status == .succeeded }
                return true
            }.run()
            if outcome != true { throw ExitCode(1) }
        }
    }
}

extension JobsCommand {
    struct Results: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the results of succeeded jobs (a table, JSON documents, or one job's shots/swings/arrows as CSV).",
            discussion: """
                A job without results (failed, cancelled, still waiting or running) is listed with its status and error, never left out, and the exit status is then 1.

                A season's export, one CSV row per shot, swing or arrow with its job and file name:
                  reelwork jobs results --batch ID --format csv
                  reelwork jobs results --sport bowling [--club NAME] [--since 90d] [--until …] --format csv
                """)
        @OptionGroup var client: ClientOptions
        @Argument var ids: [String] = []
        @Option(help: "Export every succeeded job of this batch (its id or the start of it); with --format csv.") var batch: String?
        @Option(help: "Export every succeeded job of this sport; with --format csv.") var sport: String?
        @Option(help: "With --sport: only this club's jobs.") var club: String?
        @Option(help: "With --sport: jobs created at or after (ISO-8601, or an age like 90d).") var since: String?
        @Option(help: "With --sport: jobs created before (ISO-8601, or an age).") var until: String?

        private var exports: Bool { batch != nil || sport != nil }

        func validate() throws {
            if exports {
                guard ids.isEmpty else { throw ValidationError("give job ids, or --batch/--sport for an export, not both") }
                guard format == .csv else { throw ValidationError("--batch and --sport export CSV: add --format csv") }
            } else {
                guard !ids.isEmpty else { throw ValidationError("give job ids, or --batch ID / --sport S with --format csv") }
                guard club == nil, since == nil, until == nil else { throw ValidationError("--club, --since and --until narrow an export: add --sport") }
            }
        }
        @Option(help: "text, json, or csv (one job of a sport with rows: its shots, swings or arrows, one row each).") var format: ResultsFormat = .text

        enum ResultsFormat: String, ExpressibleByArgument, CaseIterable { case text, json, csv }

        func run() async throws {
            let api = try client.client()
            if exports {
                var batchId: UUID?
                if let batch { batchId = try await IDResolver.batch(batch, api) }
                return print(try await api.seasonCSV(batch: batchId, sport: sport, club: club, from: try since.map(TimeArgument.parse),
                                                     to: try until.map(TimeArgument.parse)), terminator: "")
            }
            if format == .csv {
                guard ids.count == 1 else { throw ValidationError("--format csv takes exactly one job id (or --batch/--sport for an export)") }
                return print(try await api.resultsCSV(try await IDResolver.job(ids[0], api)), terminator: "")
            }
            var rows: [[String]] = []
            var documents: [String: ResultEntry] = [:]
            var withoutResults: [JobStatus] = []
            for text in ids {
                let id = try await IDResolver.job(text, api)
                let job = try await api.job(id)
                guard job.status == .succeeded else {
                    rows.append([Terminal.shortID(id), job.fileName ?? "-", job.status.rawValue, "-", "-", "-", "-", "-", job.lastError ?? ""])
                    documents[id.uuidString.lowercased()] = .missing(ResultEntry.Missing(fileName: job.fileName, status: job.status,
                                                                                     error: job.lastError, errorKind: job.lastErrorKind))
                    withoutResults.append(job.status)
                    continue
                }
                let doc = try await api.results(id)
                documents[id.uuidString.lowercased()] = .document(try ResultEntry.named(doc, fileName: job.fileName))
                let v = doc.video
                rows.append([Terminal.shortID(id), job.fileName ?? "-", job.status.rawValue,
                             v.map { "\($0.width)x\($0.height) \($0.codec)" } ?? "-",
                             v.map { String(format: "%.2fs", $0.durationSeconds) } ?? "-",
                             v.map { String(format: "%.2f", $0.fps) } ?? "-",
                             doc.result["framesDecoded"].map { "\($0.jsonString())" } ?? "-",
                             Self.found(doc.result, sport: job.sport),
                             doc.warnings.map(\.code).joined(separator: ", ")])
            }
            if format == .json {
                try printJSON(documents)
            } else {
                print(Terminal.table(["JOB", "FILE", "STATUS", "VIDEO", "DURATION", "FPS", "FRAMES", "FOUND", "WARNINGS / ERROR"], rows))
            }
            guard withoutResults.isEmpty else {
                let counts = Dictionary(grouping: withoutResults, by: \.rawValue).map { "\($0.value.count) \($0.key)" }.sorted()
                FileHandle.standardError.write(Data("\(withoutResults.count) of \(ids.count) jobs have no results: \(counts.joined(separator: ", "))\n".utf8))
                throw ExitCode(1)
            }
        }

        /// One job's entry in `--format json`: its document, or why it has none, each with the
        /// job's file name.
        enum ResultEntry: Encodable {
            struct Missing: Encodable {
                var fileName: String?
                var status: JobStatus
                var error: String?
                var errorKind: String?
            }

            case document(JSONValue)
            case missing(Missing)

            /// The document with `fileName` beside its own fields.
            static func named(_ document: AnalysisDocument, fileName: String?) throws -> JSONValue {
                let value = try ReelworkJSON.decoder.decode(JSONValue.self, from: try ReelworkJSON.encoder.encode(document))
                return value.merging(.object(["fileName": fileName.map(JSONValue.string) ?? .null]))
            }

            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .document(let document): try container.encode(document)
                case .missing(let missing): try container.encode(missing)
                }
            }
        }

        /// What the sport stages found, in the sport's words (`SportPlugin.summary(of:)`): "3 shots",
        /// "2 swings", "10 shots, 6 made", "6 arrows, 54"; "-" for a sport without a plug-in.
        static func found(_ result: JSONValue, sport: String) -> String {
            SportRegistry.plugin(named: sport)?.summary(of: result) ?? ResultSummary.nothing
        }
    }
}

/// Text renderings of jobs for the terminal.
enum JobText {
    static let pausedNote = "paused by an operator (it runs once the pause is lifted)"

    /// "attempt 2, 1/3 failed": the run's number, and how many of the failures the job is allowed
    /// have happened. A retry starts that count again while attempt numbers go on, so the two are
    /// shown apart rather than as "attempt 4/3".
    static func attempts(_ job: JobView) -> String {
        (job.attempt > 0 ? "attempt \(job.attempt), " : "") + "\(job.failures)/\(job.maxAttempts) failed"
    }

    /// What a list says beside a job's status: the pause holding a waiting job, a waiting job's
    /// previous attempt's error as such (it is no error of the attempt to come), or the error.
    static func note(_ job: JobView) -> String {
        if job.paused == true { return pausedNote }
        guard let error = job.lastError else { return "" }
        return JobStatus.waiting.contains(job.status) ? "previous attempt: \(error)" : error
    }

    /// One line: id, status, and the current attempt's stages with progress.
    static func progressLine(_ job: JobView) -> String {
        let current = job.stages.filter { $0.attempt == job.attempt }
        let stages = current.map { stage -> String in
            switch stage.status {
            case .running:
                let frames = stage.framesDone == nil ? "" : " " + frames(stage)
                return "\(stage.name) \(Terminal.bar(stage.progress, width: 10))\(frames)"
            case .succeeded: return "\(stage.name) ✓"
            case .failed: return "\(stage.name) ✗"
            case .skipped: return "\(stage.name) -"
            case .pending: return "\(stage.name) …"
            }
        }.joined(separator: "  ")
        let note = note(job)
        let error = note.isEmpty ? "" : (note == job.lastError ? "  error: \(note)" : "  \(note)")
        let name = job.fileName.map { " \($0)" } ?? ""
        return "\(Terminal.shortID(job.id))\(name) \(job.status.rawValue.padding(toLength: 15, withPad: " ", startingAt: 0)) \(JobText.attempts(job))  \(stages)\(error)"
    }

    static func frames(_ s: StageView) -> String {
        guard let done = s.framesDone else { return "-" }
        guard let planned = s.framesPlanned else { return "\(done)" }
        return "\(done)/\(planned)"
    }

    static func stageRow(_ s: StageView) -> [String] {
        let kind = s.errorKind.map { " [\($0)]" } ?? ""
        let error = s.error.map { $0 + kind } ?? ""
        let started = s.startedAt.map(ReelworkJSON.formatDate) ?? "-"
        let progress = String(format: "%3.0f%%", s.progress * 100)
        return [s.name, s.status.rawValue, progress, frames(s), started, Terminal.duration(s.durationSeconds), error]
    }

    /// The full description `jobs show` prints.
    static func describe(_ job: JobView) -> String {
        var lines = [
            "job       \(job.id.uuidString.lowercased())",
            "status    \(job.status.rawValue)",
            "sport     \(job.sport)    club \(job.club)",
            "file      \(job.fileName ?? "-")\(job.label.map { "    label \($0)" } ?? "")",
            "video     \(job.videoId.uuidString.lowercased())",
            "attempts  \(JobText.attempts(job))",
            "created   \(ReelworkJSON.formatDate(job.createdAt))",
        ]
        if let worker = job.workerId { lines.append("worker    \(worker)") }
        if job.paused == true { lines.append("paused    \(JobText.pausedNote)") }
        if let error = job.lastError {
            let label = JobStatus.waiting.contains(job.status) ? "previous" : "error   "
            lines.append("\(label)  \(error)\(job.lastErrorKind.map { " [\($0)]" } ?? "")")
        }
        for attempt in Set(job.stages.map(\.attempt)).sorted() {
            lines.append("")
            lines.append("attempt \(attempt):")
            let rows = job.stages.filter { $0.attempt == attempt }.map(stageRow)
            lines.append(Terminal.table(["STAGE", "STATUS", "PROGRESS", "FRAMES", "STARTED", "TOOK", "ERROR"], rows)
                .split(separator: "\n").map { "  " + $0 }.joined(separator: "\n"))
        }
        return lines.joined(separator: "\n")
    }
}

/// Times on the command line: ISO-8601, or an age before now (`90s`, `30m`, `2h`, `7d`).
enum TimeArgument {
    static func parse(_ text: String) throws -> Date {
        if let date = ReelworkJSON.parseDate(text) { return date }
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
        // An age up to a century back; anything else is a typo, not a time.
        if let unit = text.last, let scale = units[unit], let n = Double(text.dropLast()), n >= 0, n * scale <= 100 * 365 * 86400 {
            return Date().addingTimeInterval(-n * scale)
        }
        throw ValidationError("'\(text)' is neither an ISO-8601 time nor an age like 30m, 2h or 1d")
    }
}

extension JobsCommand {
    struct Arrows: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Confirm a succeeded archery job's end with corrections, or print its confirmed end.",
            discussion: """
                With --file, POSTs the corrections (JSON: {"corrections": [{"op": "move", "index": 0, "x": 0.1, "y": -0.2}, \
                {"op": "add", "x": 0.3, "y": 0.3}, {"op": "delete", "index": 2}]}, indices of the detected arrows, \
                coordinates in face radii, y down) and prints the new confirmed version; without, prints the newest one.
                """)
        @OptionGroup var client: ClientOptions
        @OptionGroup var confirmation: CorrectionOptions

        func run() async throws {
            try await confirmation.run(.arrows, client: client)
        }
    }

    struct Picture: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a succeeded job's result drawn over frames of its video as PNG (every sport: bowling the shots' paths, tennis each swing's keyframes, basketball the shot chart, archery the face and its arrows).")
        @OptionGroup var download: DownloadOptions

        func run() async throws { try await download.save("job") { try await $0.picture($1) } }
    }

    struct Report: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Save a succeeded job's session report (totals, the picture, a table of shots or swings) as PDF.")
        @OptionGroup var download: DownloadOptions

        func run() async throws { try await download.save("job") { try await $0.report($1) } }
    }
}

/// A job's or batch's picture or report, fetched and written where the user asked.
struct DownloadOptions: ParsableArguments {
    @OptionGroup var client: ClientOptions
    @Argument(help: "The job's id (the batch's for `batches report`), or the start of it.") var id: String
    @Option(name: [.short, .customLong("output")], help: "The file to write.") var output: String

    func save(_ noun: String, _ fetch: (CoordinatorClient, UUID) async throws -> Data) async throws {
        let api = try client.client()
        let data = try await fetch(api, noun == "batch" ? try await IDResolver.batch(id, api) : try await IDResolver.job(id, api))
        try data.write(to: URL(fileURLWithPath: output))
        Terminal.writeErr("wrote \(output) (\(data.count) bytes)\n")
    }
}
