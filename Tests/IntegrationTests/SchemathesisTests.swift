import Archery
import Basketball
import Foundation
import Queue
import ReelworkClient
import ReelworkCore
import Store
import Tennis
import XCTest

/// The API contract, fuzzed (issue 12, part 4): schemathesis (a pinned venv that
/// scripts/setup-schemathesis.sh makes) reads openapi/openapi.json and sends every operation of a
/// live coordinator generated requests, valid and invalid, with a club key. Any 5xx, any status
/// code or content type the document does not list for the operation, or any body that does not
/// match its schema fails the test with schemathesis's report.
///
/// Random ids only ever reach 404s, so the test seeds the club's records first (a video, jobs in
/// several states, a batch, webhook endpoints with finished deliveries) and lets schemathesis use them for most of the ids it sends; the test
/// then checks that every operation succeeded at least once, so the answers that carry the real
/// schemas were checked too.
final class SchemathesisTests: XCTestCase {
    static let schemathesis = TestStack.packageRoot.appendingPathComponent(".local/schemathesis/bin/schemathesis")
    static let checks = ["not_a_server_error", "status_code_conformance", "content_type_conformance", "response_schema_conformance"]
    /// Generated cases per operation and phase: about 1,100 requests in all, about half a minute here.
    static let maxExamples = 10
    /// For the operations whose success needs most generated fields to line up (a seeded video, the
    /// club's own name, a filter that is not empty): enough cases that some do.
    static let maxExamplesOfPickyOperations = 30

    /// The club's records the fuzzer may name.
    struct Seeds {
        var club: String
        /// Every seeded job's and batch's sport (a job joins a batch of its own sport only).
        var sport: String
        var videos: [VideoView]
        /// Succeeded jobs stay so (nothing retries or cancels them): their results can be read.
        var succeededJobs: [UUID]
        /// Succeeded archery jobs with a detected end (and one confirmed version), for the arrows' corrections.
        var archeryJobs: [UUID]
        /// Succeeded basketball jobs with detected shots (and one confirmed version), for the rows' corrections.
        var correctableJobs: [UUID] = []
        /// Failed and queued jobs, which the fuzzer's retries and cancels move between queued and
        /// failed or cancelled (no worker runs them): some can always be retried, some cancelled.
        var changingJobs: [UUID]
        var batches: [UUID]
        /// A basketball batch (empty): the one sport whose batches have a stats table.
        var statsBatches: [UUID] = []
        /// Endpoints the fuzzer reads, rotates and redelivers from: never deleted.
        var webhooks: [UUID]
        /// Endpoints only `DELETE /v1/webhooks/{id}` names (its first hits delete them).
        var deletableWebhooks: [UUID]
        /// Finished deliveries of `webhooks` (the dispatcher finishes a redelivered one again at
        /// once: one attempt, at a port that refuses it).
        var deliveries: [String]
        /// A worker record (no process: draining it only marks it) for `POST /v1/workers/{id}/drain`.
        var workers: [String]
        /// Uploads in parts: completed ones (completing again answers the video), open ones whose
        /// parts the fuzzer asks for and sends, and open ones only `DELETE` names.
        var completedUploads: [UUID] = []
        var openUploads: [UUID] = []
        var deletableUploads: [UUID] = []
    }

    /// Where the seeded and the fuzzer's endpoints point: the discard port, which nothing here
    /// listens on, so every attempt is refused at once.
    static let webhookURL = "http://127.0.0.1:9/hook"
    /// Private addresses allowed (127.0.0.1); one attempt per delivery, looked for every 0.1 s.
    /// `GET /v1/events` is fuzzed like every operation, but its responses end after half a second
    /// (with `reconnect`), since schemathesis reads a response to its end.
    static let coordinatorEnvironment = ["REELWORK_WEBHOOK_ALLOW_PRIVATE": "1", "REELWORK_WEBHOOK_RETRY_SCHEDULE": "0",
                                         "REELWORK_WEBHOOK_POLL_SECONDS": "0.1", "REELWORK_EVENTS_MAX_STREAM_SECONDS": "0.5",
                                         "REELWORK_EVENTS_HEARTBEAT_SECONDS": "0.3"]

    func testEveryOperationAnswersAsDocumented() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.schemathesis.path) else {
            return XCTFail("\(Self.schemathesis.path) is missing: run scripts/setup-schemathesis.sh (scripts/test.sh does)")
        }
        let stack = try TestStack()
        defer { stack.shutdown() }
        let clubKey = try stack.createKey(["--club", "contract"])
        try stack.startCoordinator(extraEnvironment: Self.coordinatorEnvironment)
        let seeds = try seed(stack, clubKey: clubKey, club: "contract")
        let document = try OpenAPIDocument()

        let config = stack.directory.appendingPathComponent("schemathesis.toml")
        try Self.config(baseURL: stack.coordinatorURL, clubKey: clubKey, operatorKey: stack.operatorKey, seeds: seeds, document: document)
            .write(to: config, atomically: true, encoding: .utf8)
        let har = stack.directory.appendingPathComponent("schemathesis.har")
        let started = Date()
        // From the file, not the served copy (OpenAPIContractTests proves them equal): loaded from a
        // URL, schemathesis leaves out the operation that serves the document.
        let (status, output) = try run(["--config-file", config.path, "run", OpenAPIDocument.url.path,
                                        "--checks", Self.checks.joined(separator: ","),
                                        "--no-color", "--report", "har", "--report-har-path", har.path],
                                       in: stack.directory, timeout: 600)
        let elapsed = Date().timeIntervalSince(started)
        print("schemathesis ran \(String(format: "%.1f", elapsed)) s:\n\(output.split(separator: "\n").suffix(12).joined(separator: "\n"))")
        XCTAssertEqual(status, 0, "schemathesis found answers that break the contract:\n\(output)")
        XCTAssertTrue(output.contains("Tested: \(document.operations.count)"), "every documented operation was tested:\n\(output)")

        // Without a success the operation's real answer was never checked against its schema.
        let answered = try Self.statusesByOperation(har: har, document: document)
        // An upload needs a real video, which generated bytes never are (422 is its checked answer);
        // a part must be exactly its length, which generated bytes hardly ever are (400 `part_size`).
        let noSuccessExpected: Set = ["POST /v1/videos", "PUT /v1/uploads/{id}/parts/{number}"]
        for operation in document.operations where !noSuccessExpected.contains(operation.label) {
            let statuses = answered[operation.label] ?? []
            XCTAssertTrue(statuses.contains { (200..<300).contains($0) }, "\(operation.label) never succeeded: \(statuses.sorted())")
        }
    }

    /// A video; webhook endpoints; succeeded and failed jobs (run by a worker on the diagnostic
    /// pipeline), whose events are the endpoints' deliveries; a batch with a job; jobs left queued. The worker is stopped before the fuzzer starts, so nothing it
    /// queues runs real analysis on this machine's cores.
    func seed(_ stack: TestStack, clubKey: String, club: String) throws -> Seeds {
        let client = try stack.client(key: clubKey)
        let sport = Sport.tennis.rawValue
        try stack.startWorker()
        let clip = try stack.makeTinyClip()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        // Before the jobs, so that their events are delivered (and refused: abandoned after one attempt).
        let endpoints = try (1...3).map { _ in
            try awaitSync { try await client.createWebhook(CreateWebhookRequest(url: Self.webhookURL, events: WebhookEventType.allCases.map(\.rawValue))) }
                .webhook.id
        }
        // Distinct `tag`s keep the jobs from being one another's repeats.
        func noop(_ settings: [String: JSONValue], tag: Int) throws -> UUID {
            let options = JSONValue.object(["noop": .object(settings), "tag": .number(Double(tag))])
            return try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: sport, options: options)) }.id
        }
        let succeeded = try (1...2).map { try noop([:], tag: $0) }
        let failed = try (1...3).map { try noop(["invalidAttempts": .number(1)], tag: $0) }
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: sport, options: .object(["noop": .object([:])]))) }
        let added = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [video.id])) }
        // An archery job (the diagnostic pipeline, its result then an end as the scorer writes it):
        // corrections need a succeeded archery job with arrows.
        let archery = try awaitSync {
            try await client.createJob(CreateJobRequest(videoId: video.id, sport: Sport.archery.rawValue, options: .object(["noop": .object([:])])))
        }.id
        // A basketball job likewise, its result then shots as the basketball pipeline writes them: row corrections.
        let basketball = try awaitSync {
            try await client.createJob(CreateJobRequest(videoId: video.id, sport: Sport.basketball.rawValue, options: .object(["noop": .object([:])])))
        }.id
        for id in succeeded + added.jobIds + [archery, basketball] { XCTAssertEqual(try stack.waitForTerminal(id).status, .succeeded) }
        for id in failed { XCTAssertEqual(try stack.waitForTerminal(id).status, .failed) }
        stack.stopWorkers()
        // A swing as the tennis pipeline writes it, so the succeeded jobs have a picture to draw.
        let swing = #"{"swings": [{"swingNumber": 1, "type": "forehand", "startTime": 0.1, "endTime": 0.9, "keyFrameTimes": {"preparation": 0.1, "backswing": 0.3, "contact": 0.5, "followThrough": 0.7, "recovery": 0.9}}]}"#
        for id in succeeded + added.jobIds {
            try stack.db().query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [id, swing])
        }
        let end = #"{"arrows": [{"id": 0, "arrowNumber": 1, "normalizedX": 0.02, "normalizedY": 0.015, "score": 10, "isXRing": true}, {"id": 1, "arrowNumber": 2, "normalizedX": 0.3, "normalizedY": 0.38, "score": 6, "isXRing": false}], "total": 16, "xCount": 1, "tens": 1, "input": "photo"}"#
        try stack.db().query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [archery, end])
        _ = try awaitSync { try await client.confirmArrows(archery, body: Data(#"{"corrections": [{"op": "delete", "index": 1}]}"#.utf8)) }
        let shots = #"{"shots": [{"shotNumber": 1, "releaseTime": 0.2, "rimTime": 0.6, "made": false, "shotType": "2PT", "distanceFt": 14, "confidence": 0.7}, {"shotNumber": 2, "releaseTime": 0.7, "rimTime": 0.9, "made": true, "shotType": "3PT", "distanceFt": 23, "confidence": 0.9}]}"#
        try stack.db().query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [basketball, shots])
        _ = try awaitSync { try await client.confirm(basketball, .corrections, body: Data(#"{"corrections": [{"op": "made", "index": 0, "made": true}]}"#.utf8)) }
        var deliveries: [WebhookDeliveryRecord] = []
        let deadline = Date().addingTimeInterval(30)
        repeat {
            deliveries = try awaitSync { try await client.webhookDeliveries(endpoints[0]) }.deliveries
            if !deliveries.isEmpty, deliveries.allSatisfy({ $0.status != .pending }) { break }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        XCTAssertFalse(deliveries.isEmpty, "the jobs' events were recorded as deliveries")
        XCTAssertTrue(deliveries.allSatisfy { $0.status == .abandoned }, "\(deliveries.map(\.status))")
        let queued = try (1...3).map { try noop(["seconds": .number(1)], tag: $0) }
        let worker = "seeded-worker-1"
        _ = try JobQueue(prefix: stack.queuePrefix).workerBeat(id: worker, host: "fuzz", version: ReelworkVersion.current, slots: 1, running: 0,
                                                               fresh: true, ttl: 3_600, on: stack.redis())
        var seeds = Seeds(club: club, sport: sport, videos: [video], succeededJobs: succeeded + added.jobIds, archeryJobs: [archery], correctableJobs: [basketball],
                          changingJobs: failed + queued, batches: [batch.id], webhooks: [endpoints[0]],
                          deletableWebhooks: Array(endpoints.dropFirst()), deliveries: deliveries.map(\.id), workers: [worker])
        seeds.statsBatches = [try awaitSync { try await client.createBatch(CreateBatchRequest(sport: Sport.basketball.rawValue)) }.id]
        let declared = CreateUploadRequest(filename: "seed.mp4", sizeBytes: video.sizeBytes, sha256: video.contentHash)
        let uploads = try (1...5).map { _ in try awaitSync { try await client.createUpload(declared) } }
        let part = try awaitSync { try await client.uploadPartTargets(uploads[0].id, numbers: [1]) }.parts[0]
        try awaitSync { try await client.sendPart(part, of: clip) }
        _ = try awaitSync { try await client.completeUpload(uploads[0].id) }
        seeds.completedUploads = [uploads[0].id]
        seeds.openUploads = [uploads[1].id, uploads[2].id]
        seeds.deletableUploads = [uploads[3].id, uploads[4].id]
        return seeds
    }

    /// schemathesis.toml: the club key for every operation but the operators' own (`/v1/queue`,
    /// `/metrics`: they get the operator key, so their answers are checked too), and the seeds as dictionaries that fill
    /// four in five of the ids, hashes and club names the fuzzer sends (the rest stay random: the
    /// answers to unknown ids are checked too). A block's criteria select the operations that match
    /// any one of them (`include-path` with `include-method` would take every operation of that
    /// method), and where blocks overlap the first one's `parameters` win: a block that is for one
    /// operation names it by its operationId alone.
    static func config(baseURL: String, clubKey: String, operatorKey: String, seeds: Seeds, document: OpenAPIDocument) -> String {
        func list(_ values: [String]) -> String { "[" + values.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        func paths(under prefix: String) -> Set<String> { Set(document.operations.map(\.path).filter { $0.hasPrefix(prefix) }) }
        let jobPaths = paths(under: "/v1/jobs/{id}")
        // What exists once a job has succeeded: its results, picture and report.
        let results = ["/v1/jobs/{id}/results", "/v1/jobs/{id}/picture", "/v1/jobs/{id}/report.pdf"]
        let changing = ["/v1/jobs/{id}/cancel", "/v1/jobs/{id}/retry"]
        let arrows = ["/v1/jobs/{id}/arrows"], corrections = ["/v1/jobs/{id}/corrections"]
        let seeded = "probability = 0.8"
        return """
            base-url = "\(baseURL)"
            headers = { Authorization = "Bearer \(clubKey)" }
            # No example database in the working directory; no requests with methods the API does not have.
            generation.database = "none"
            generation.max-examples = \(maxExamples)
            phases.coverage.unexpected-methods = []

            [dictionaries]
            videos = { values = \(list(seeds.videos.map(\.id.uuidString))) }
            jobs = { values = \(list((seeds.succeededJobs + seeds.changingJobs).map(\.uuidString))) }
            succeeded-jobs = { values = \(list(seeds.succeededJobs.map(\.uuidString))) }
            archery-jobs = { values = \(list(seeds.archeryJobs.map(\.uuidString))) }
            correctable-jobs = { values = \(list(seeds.correctableJobs.map(\.uuidString))) }
            changing-jobs = { values = \(list(seeds.changingJobs.map(\.uuidString))) }
            batches = { values = \(list(seeds.batches.map(\.uuidString))) }
            stats-batches = { values = \(list(seeds.statsBatches.map(\.uuidString))) }
            hashes = { values = \(list(seeds.videos.map(\.contentHash))) }
            clubs = { values = \(list([seeds.club])) }
            sports = { values = \(list([seeds.sport])) }
            webhooks = { values = \(list(seeds.webhooks.map(\.uuidString))) }
            deletable-webhooks = { values = \(list(seeds.deletableWebhooks.map(\.uuidString))) }
            deliveries = { values = \(list(seeds.deliveries)) }
            workers = { values = \(list(seeds.workers)) }
            completed-uploads = { values = \(list(seeds.completedUploads.map(\.uuidString))) }
            open-uploads = { values = \(list(seeds.openUploads.map(\.uuidString))) }
            deletable-uploads = { values = \(list(seeds.deletableUploads.map(\.uuidString))) }
            webhook-urls = { values = \(list([webhookURL])) }

            [parameters]
            "query.club" = { dictionary = "clubs", \(seeded) }
            "body.club" = { dictionary = "clubs", \(seeded) }

            [[operations]]
            include-path = \(list(paths(under: "/v1/videos/{id}").sorted()))
            parameters = { "path.id" = { dictionary = "videos", \(seeded) } }

            [[operations]]
            include-path = \(list(jobPaths.subtracting(results + changing + arrows + corrections).sorted()))
            parameters = { "path.id" = { dictionary = "jobs", \(seeded) } }

            [[operations]]
            include-path = \(list(results))
            parameters = { "path.id" = { dictionary = "succeeded-jobs", \(seeded) } }

            [[operations]]
            include-path = \(list(arrows))
            generation.max-examples = \(maxExamplesOfPickyOperations)
            parameters = { "path.id" = { dictionary = "archery-jobs", \(seeded) } }

            [[operations]]
            include-path = \(list(corrections))
            generation.max-examples = \(maxExamplesOfPickyOperations)
            parameters = { "path.id" = { dictionary = "correctable-jobs", \(seeded) } }

            [[operations]]
            include-path = \(list(changing))
            parameters = { "path.id" = { dictionary = "changing-jobs", \(seeded) } }

            [[operations]]
            include-path = \(list(paths(under: "/v1/batches/{id}").subtracting(["/v1/batches/{id}/stats"]).sorted()))
            parameters = { "path.id" = { dictionary = "batches", \(seeded) }, "body.videoIds[*]" = { dictionary = "videos", \(seeded) } }

            [[operations]]
            include-path = "/v1/batches/{id}/stats"
            parameters = { "path.id" = { dictionary = "stats-batches", \(seeded) } }

            [[operations]]
            include-operation-id = "streamEvents"
            parameters = { "query.job" = { dictionary = "jobs", \(seeded) }, "query.batch" = { dictionary = "batches", \(seeded) } }

            [[operations]]
            include-operation-id = "createJob"
            generation.max-examples = \(maxExamplesOfPickyOperations)
            parameters = { "body.videoId" = { dictionary = "videos", \(seeded) }, "body.batchId" = { dictionary = "batches", \(seeded) }, "body.sport" = { dictionary = "sports", \(seeded) } }

            [[operations]]
            include-path = "/v1/jobs/retry"
            generation.max-examples = \(maxExamplesOfPickyOperations)

            [[operations]]
            include-path = "/v1/videos/lookup"
            parameters = { "body.hashes[*]" = { dictionary = "hashes", \(seeded) } }

            [[operations]]
            include-operation-id = ["getUpload", "completeUpload"]
            parameters = { "path.id" = { dictionary = "completed-uploads", \(seeded) } }

            [[operations]]
            include-operation-id = ["getUploadPartTargets", "putUploadPart"]
            parameters = { "path.id" = { dictionary = "open-uploads", \(seeded) } }

            [[operations]]
            include-operation-id = "abortUpload"
            parameters = { "path.id" = { dictionary = "deletable-uploads", \(seeded) } }

            [[operations]]
            include-operation-id = "createWebhook"
            parameters = { "body.url" = { dictionary = "webhook-urls", \(seeded) } }

            [[operations]]
            include-operation-id = ["getWebhook", "listWebhookDeliveries", "rotateWebhookSecret"]
            parameters = { "path.id" = { dictionary = "webhooks", \(seeded) } }

            [[operations]]
            include-operation-id = "deleteWebhook"
            parameters = { "path.id" = { dictionary = "deletable-webhooks", \(seeded) } }

            [[operations]]
            include-operation-id = "redeliverWebhook"
            generation.max-examples = \(maxExamplesOfPickyOperations)
            parameters = { "path.id" = { dictionary = "webhooks", \(seeded) }, "path.deliveryId" = { dictionary = "deliveries", \(seeded) } }

            [[operations]]
            include-path = ["/v1/queue", "/metrics", "/v1/queue/pause", "/v1/queue/resume", "/v1/workers"]
            headers = { Authorization = "Bearer \(operatorKey)" }

            [[operations]]
            include-operation-id = "drainWorker"
            headers = { Authorization = "Bearer \(operatorKey)" }
            parameters = { "path.id" = { dictionary = "workers", \(seeded) } }

            [[operations]]
            include-operation-id = ["pauseClub", "resumeClub"]
            headers = { Authorization = "Bearer \(operatorKey)" }
            parameters = { "path.name" = { dictionary = "clubs", \(seeded) } }

            """
    }

    /// The status codes each documented operation answered, from schemathesis's HAR report.
    static func statusesByOperation(har: URL, document: OpenAPIDocument) throws -> [String: Set<Int>] {
        let root = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: har)) as? [String: Any])
        let entries = (root["log"] as? [String: Any])?["entries"] as? [[String: Any]] ?? []
        // `/v1/jobs/{id}` as `^/v1/jobs/[^/]+$`; literal paths first, so `/v1/jobs/retry` is not taken for an id.
        let patterns = document.operations.sorted { $0.path.filter { $0 == "{" }.count < $1.path.filter { $0 == "{" }.count }.map { operation in
            (operation, "^" + operation.path.replacingOccurrences(of: #"\{[^}/]+\}"#, with: "[^/]+", options: .regularExpression) + "$")
        }
        var statuses: [String: Set<Int>] = [:]
        for entry in entries {
            guard let request = entry["request"] as? [String: Any], let method = request["method"] as? String,
                  let url = (request["url"] as? String).flatMap(URLComponents.init(string:)),
                  let status = (entry["response"] as? [String: Any])?["status"] as? Int,
                  let (operation, _) = patterns.first(where: { $0.0.method == method && url.path.range(of: $0.1, options: .regularExpression) != nil })
            else { continue }
            statuses[operation.label, default: []].insert(status)
        }
        return statuses
    }

    /// Runs schemathesis in `directory` with its output in a log file there (a pipe left unread
    /// could fill and stall it); a run past `timeout` seconds is stopped and fails the test.
    func run(_ arguments: [String], in directory: URL, timeout: TimeInterval) throws -> (status: Int32, output: String) {
        let log = directory.appendingPathComponent("schemathesis.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = Self.schemathesis
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            XCTFail("schemathesis ran longer than \(Int(timeout)) s; stopped")
        }
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }
}
