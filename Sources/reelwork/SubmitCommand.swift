import ArgumentParser
import Foundation
import ReelworkClient
import ReelworkCore
import Sports

struct SubmitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Upload clips (or whole folders) as one batch and create one job per clip; prints the job ids.",
        discussion: """
            Each file is hashed first and the coordinator is asked, once for all of them, which ones this club has \
            already uploaded: only the rest are sent, several at once. The batch is made once they are sent, with \
            a job per clip, so an interrupted submit leaves no empty batch. The same command run again (after \
            Ctrl-C, say) says what it resumes ("resuming batch 1a2b3c4d (3 of 5 files sent)") and finishes only what \
            is missing, in the same batch: its journal is kept under $XDG_STATE_HOME/reelwork/submit. Files that are not videos are skipped with a line saying why. \
            Progress goes to stderr; stdout gets one job id per line.

            A season folder may mix sports and settings: a clip's own options come from a sidecar beside it \
            (clip.options.json or clip.mp4.options.json, the same JSON object as --options), and a manifest \
            (--manifest season.json: [{"file": "tue/anna.mp4", "sport": "tennis", "options": {...}}], paths relative to it) \
            gives each file its sport and options. Files with the same sport and options go in one batch.
            """)

    @Argument(help: "Video files, or folders with --recursive.") var paths: [String] = []
    @Option(help: "Sport: \(SportRegistry.sportNames) (for files the manifest gives none).") var sport: String?
    @Option(help: "A JSON manifest: [{\"file\", \"sport\"?, \"options\"?}], paths relative to it.") var manifest: String?
    @Option(help: "The club the jobs belong to (operator keys only; a club key's jobs are its club's).") var club: String?
    @Option(name: .customLong("options"), help: "A JSON file with the sport's options.") var optionsFile: String?
    @Option(help: "A label for the batch.") var label: String?
    @Flag(help: "Walk folders for videos.") var recursive = false
    @Option(help: "Uploads at once (1-16).") var parallel: Int = 4
    @OptionGroup var connection: ClientOptions

    func validate() throws {
        if let sport { _ = try Sport.parse(sport) }
        if paths.isEmpty, manifest == nil { throw ValidationError("give video files or folders, or --manifest") }
        guard (1...16).contains(parallel) else { throw ValidationError("--parallel must be from 1 to 16") }
    }

    /// Whether the caller can see batch `id` there: false on its 404, any other failure thrown.
    static func coordinator(_ client: CoordinatorClient, hasBatch id: UUID) async throws -> Bool {
        do {
            _ = try await client.batch(id)
            return true
        } catch ClientError.api(status: 404, _, _) {
            return false
        }
    }

    func run() async throws {
        let client = try connection.client()
        let plan = try manifest.map(SubmitPlan.loadManifest) ?? SubmitPlan()
        let excluded = Set(manifest.map { [URL(fileURLWithPath: $0).standardizedFileURL.path] } ?? [])
        let (files, skipped) = try SubmitFiles.collect(paths + plan.paths, recursive: recursive, excluded: excluded)
        for skip in skipped { Terminal.writeErr("skipped \(skip.path): \(skip.reason)\n") }
        guard !files.isEmpty else { throw UserFacingError("no videos to send") }
        let groups = try plan.groups(files, sport: sport, options: try optionsFile.map(OptionsFile.load))
        var failures = 0
        for group in groups {
            if groups.count > 1 { Terminal.writeErr("\(group.sport), \(group.files.count) file(s), options \(group.options.jsonString()):\n") }
            failures += try await send(group.files, sport: group.sport, options: group.options, client: client)
        }
        if failures > 0 {
            throw UserFacingError("\(failures) upload(s) failed; run the same command again to send what is missing")
        }
    }

    /// Sends `files` as one batch of `sport` with `options` (resuming an earlier run of the same
    /// command from its journal); returns how many uploads failed.
    func send(_ files: [String], sport: String, options: JSONValue, client: CoordinatorClient) async throws -> Int {
        let key = SubmitJournal.key(parts: [client.baseURL.absoluteString, club ?? "", sport, options.jsonString(), label ?? ""], files: files)
        let earlier = SubmitJournal.load(key: key)
        var journal = earlier ?? SubmitJournal()
        let interrupted = Self.onInterrupt()
        defer { interrupted.cancel() }

        // 1. Hashes (kept while a file's size and modification time stay the same).
        for (index, path) in files.enumerated() {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = (attributes[.size] as? NSNumber)?.int64Value ?? 0
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if let known = journal.files[path], known.size == size, known.modified == modified { continue }
            Terminal.status("hashing \(index + 1)/\(files.count) \(URL(fileURLWithPath: path).lastPathComponent)")
            journal.files[path] = .init(size: size, modified: modified, hash: try SubmitFiles.hash(path), videoId: nil)
        }
        try journal.save(key: key)

        // 2. The batch is made only once there are jobs to put in it (step 5), so an interrupted
        // submit leaves no empty batch behind. A journal whose batch the coordinator does not have is
        // from another database (a local stack started afresh, another coordinator at the same
        // address): its ids mean nothing there.
        if let known = journal.batchId, try await !Self.coordinator(client, hasBatch: known) {
            Terminal.writeErr("the coordinator has no batch \(known.uuidString.lowercased()) from this command's last run (a new database?): sending afresh\n")
            journal.forgetCoordinatorState()
            try journal.save(key: key)
        }
        if earlier != nil, let line = journal.resumption(files) { Terminal.writeErr(line + "\n") }

        // 3. Which files the club has already: one request per few thousand files.
        let unknown = files.filter { journal.files[$0]?.videoId == nil }
        if !unknown.isEmpty {
            let hashes = Array(Set(unknown.compactMap { journal.files[$0]?.hash }))
            var found: [String: UUID] = [:]
            for start in stride(from: 0, to: hashes.count, by: VideoLookupRequest.maxHashes) {
                let slice = Array(hashes[start..<min(start + VideoLookupRequest.maxHashes, hashes.count)])
                for match in try await client.lookupVideos(hashes: slice, club: club).videos { found[match.contentHash] = match.videoId }
            }
            for path in unknown { if let id = found[journal.files[path]!.hash] { journal.files[path]!.videoId = id } }
            try journal.save(key: key)
        }

        // 4. Uploads, `parallel` at once: one per distinct content (two copies of a clip are one video).
        var firstWithHash: [String: String] = [:]
        let toSend = files.filter { path in
            guard let entry = journal.files[path], entry.videoId == nil else { return false }
            return firstWithHash.updateValue(firstWithHash[entry.hash] ?? path, forKey: entry.hash) == nil
        }
        let already = files.count - files.filter { journal.files[$0]?.videoId == nil }.count
        if already > 0 { Terminal.writeErr("\(already) of \(files.count) file(s) already on the coordinator\n") }
        var failures = 0
        if !toSend.isEmpty {
            let board = UploadBoard(totalFiles: toSend.count, totalBytes: toSend.reduce(0) { $0 + (journal.files[$1]?.size ?? 0) })
            let ticker = Task { while !Task.isCancelled { board.redraw(); try? await Task.sleep(nanoseconds: 200_000_000) } }
            defer { ticker.cancel() }
            let club = self.club
            let shared = SharedJournal(journal, key: key)
            try await withThrowingTaskGroup(of: (String, Result<UUID, any Error>).self) { group in
                var next = toSend.makeIterator()
                func start(_ path: String) {
                    let entry = journal.files[path]
                    group.addTask {
                        let name = URL(fileURLWithPath: path).lastPathComponent
                        do {
                            guard let entry else { throw ReelworkError.invalidRequest("\(path) was not hashed") }
                            let video = try await client.uploadInParts(
                                file: URL(fileURLWithPath: path), sha256: entry.hash, sizeBytes: entry.size, club: club, resume: entry.uploadId,
                                started: { upload in try shared.update { $0.files[path]?.uploadId = upload.id } },
                                resumed: { held, parts in if held > 0 { board.say("\(name): resuming its upload (\(held) of \(parts) parts sent before)") } },
                                onRetry: { why in board.say("\(name): \(why)") },
                                progress: { sent, total in board.progress(name, sent: sent, total: total) })
                            return (path, .success(video.id))
                        } catch {
                            return (path, .failure(error))
                        }
                    }
                }
                for _ in 0..<parallel { if let path = next.next() { start(path) } }
                while let (path, result) = try await group.next() {
                    let name = URL(fileURLWithPath: path).lastPathComponent
                    let size = journal.files[path]?.size ?? 0
                    switch result {
                    case .success(let id):
                        let hash = journal.files[path]?.hash
                        try shared.update { journal in
                            for copy in files where journal.files[copy]?.hash == hash {
                                journal.files[copy]?.videoId = id
                                journal.files[copy]?.uploadId = nil
                            }
                        }
                        board.finished(name, size: size, outcome: "uploaded")
                    case .failure(let error):
                        failures += 1
                        board.finished(name, size: size, outcome: "failed: \(error)")
                    }
                    if let path = next.next() { start(path) }
                }
            }
            journal = shared.journal
        }

        // 5. The batch, made now that it has jobs to hold (the journal key is its Idempotency-Key, so a
        // lost journal, or a crash before the journal is saved, finds it again), and its jobs: one
        // per file under its own name (the same clip and name in two folders is one job), in slices
        // the server accepts in one request each.
        var pathsOf: [String: [String]] = [:]
        var entries: [(videoId: UUID, fileName: String)] = []
        for path in files where journal.jobs[path] == nil {
            guard let video = journal.files[path]?.videoId else { continue }
            let name = SubmitFiles.jobName(path)
            let entryKey = "\(video)/\(name)"
            if pathsOf[entryKey] == nil { entries.append((video, name)) }
            pathsOf[entryKey, default: []].append(path)
        }
        if journal.batchId == nil, !entries.isEmpty {
            journal.batchId = try await client.createBatch(CreateBatchRequest(sport: sport, options: options, label: label, club: club),
                                                           idempotencyKey: "submit-\(key)").id
            try journal.save(key: key)
        }
        guard let batchId = journal.batchId else {
            Terminal.writeErr("no file of this \(sport) batch was sent, so no batch was made\n")
            return failures
        }
        for request in AddBatchJobsRequest.slices(entries) {
            let added = try await client.addBatchJobs(batchId, request)
            for (index, job) in added.jobIds.enumerated() {
                for path in pathsOf["\(request.videoIds[index])/\(request.fileNames?[index] ?? "")"] ?? [] { journal.jobs[path] = job }
            }
            try journal.save(key: key)
        }
        for path in files {
            if let job = journal.jobs[path] { print(job.uuidString.lowercased()) }
        }
        let batch = try await client.batch(batchId)
        Terminal.writeErr(Terminal.table(BatchText.header, [BatchText.row(batch)]) + "\n")
        Terminal.writeErr("batch \(batch.id.uuidString.lowercased()): `reelwork batches watch \(batch.id.uuidString.lowercased())` follows it\n")
        return failures
    }

    /// Ctrl-C: what is done is in the journal; say how to go on, then stop.
    static func onInterrupt() -> any DispatchSourceSignal {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT)
        source.setEventHandler {
            Terminal.writeErr("\ninterrupted: run the same command again to finish what is missing (it takes up where this one stopped)\n")
            Foundation.exit(130)
        }
        source.resume()
        return source
    }
}

/// Reads a sport options JSON file, which must hold one object.
enum OptionsFile {
    static func load(_ path: String) throws -> JSONValue {
        guard let data = FileManager.default.contents(atPath: path) else { throw UserFacingError("cannot read options file \(path)") }
        let value: JSONValue
        do { value = try ReelworkJSON.decoder.decode(JSONValue.self, from: data) } catch {
            throw UserFacingError("options file \(path) is not valid JSON")
        }
        guard case .object = value else { throw UserFacingError("options file \(path) must hold a JSON object") }
        return value
    }
}
