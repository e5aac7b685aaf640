import Foundation
import Hummingbird
import ObjectStorage
import Media
import NIOCore
import NIOPosix
import Pictures
import SportKit
import ReelworkCore
import Sports
import Store

/// `GET /v1/jobs/{id}/picture` (PNG), `GET /v1/jobs/{id}/report.pdf` and
/// `GET /v1/batches/{id}/report.pdf`: a result drawn over frames of its own video, and seed 001's
/// PDF export. Frames are decoded on demand from the stored video, on the blocking thread pool;
/// nothing drawn is kept (the video and the result are the source of truth).
struct ReportRoutes {
    let backends: Backends
    let jobs: JobRoutes
    let batches: BatchRoutes
    let store: any ObjectStore

    /// Sections in a batch's report: its newest jobs, oldest first.
    static let maxBatchJobs = 100
    /// Pictures in a batch's report: each is a few decodes of a video on the coordinator.
    static let maxBatchPictures = 20

    func register(on api: APIRouter) {
        api.get("/v1/jobs/:id/picture", .clubData) { _, context, caller in
            try await picture(RouteParams.uuid(context, "id"), caller)
        }
        api.get("/v1/jobs/:id/report.pdf", .clubData) { _, context, caller in
            try await jobReport(RouteParams.uuid(context, "id"), caller)
        }
        api.get("/v1/batches/:id/report.pdf", .clubData) { _, context, caller in
            try await batchReport(RouteParams.uuid(context, "id"), caller)
        }
        api.get("/v1/batches/:id/stats", .clubData) { _, context, caller in
            try await batchStats(RouteParams.uuid(context, "id"), caller)
        }
    }

    /// What drawing a job needs, read in one go: the job, its result, its video's file and name.
    struct Drawable: Sendable {
        var job: JobView
        var sport: Sport
        /// The detected result, which the picture draws (over the frames it was detected in).
        var result: JSONValue?
        /// The newest confirmed version of its rows, if a person corrected them.
        var confirmation: Confirmation?
        var videoPath: String?
        var fileName: String?

        /// What reports and stats add up: the confirmed rows where a person corrected them.
        var reported: JSONValue? { result.map { result in confirmation.map { $0.applied(to: result) } ?? result } }
    }

    /// A stored sport's name as a `Sport`; a name this coordinator does not know (a row written by a
    /// newer release, during a rolling upgrade) is a clear 422, never drawn as another sport.
    static func sport(_ name: String, of what: String) throws -> Sport {
        guard let sport = SportRegistry.sport(named: name) else {
            throw APIError(.unprocessableContent, "unknown_sport", "\(what) is for the sport \"\(name)\", which this coordinator does not know (\(SportRegistry.names { _ in true }) here): upgrade it")
        }
        return sport
    }

    func drawable(_ job: JobView, club: String?) async throws -> Drawable {
        let store = self.store
        let (result, confirmation, video) = try await backends.sql { db -> (JSONValue?, Confirmation?, (video: VideoView, storageKey: String)?) in
            let document = job.status == .succeeded ? try JobRepository(db).result(jobId: job.id) : nil
            let confirmation = document == nil ? nil : try ConfirmationRepository(db, .results).latest(jobId: job.id)
            return (document?.result, confirmation, try VideoRepository(db).find(id: job.videoId, club: club))
        }
        return Drawable(job: job, sport: try Self.sport(job.sport, of: "job \(job.id.uuidString.lowercased())"), result: result,
                        confirmation: confirmation,
                        videoPath: try video.map { try store.readLocation(key: $0.storageKey, validFor: VideoRoutes.redirectSeconds) }, fileName: job.fileName ?? video?.video.originalName)
    }

    func picture(_ id: UUID, _ caller: Caller) async throws -> Response {
        let job = try await jobs.job(id, caller)
        guard let sport = SportRegistry.sport(named: job.sport), let report = SportReports.forSport(sport) else {
            throw APIError(.unprocessableContent, "no_picture", "pictures are drawn for \(SportRegistry.names { $0.report != nil }) results; \(job.sport) results have none yet")
        }
        let item = try await drawable(job, club: caller.visibleClub)
        guard let result = item.result else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); its picture exists once it has succeeded")
        }
        let guards = MediaGuards(maxPixels: backends.config.limits.maxPixels)
        let drawn: Result<[UInt8]?, Error> = try await NIOThreadPool.singleton.runIfActive {
            Result { try Self.picture(item, report: report, result: result, guards: guards)?.png() }
        }
        let png: [UInt8]?
        do { png = try drawn.get() } catch let error as MediaError {
            throw APIError(.unprocessableContent, "no_picture", "the video of job \(id.uuidString.lowercased()) cannot be read: \(error.message)")
        }
        guard let png else {
            throw APIError(.unprocessableContent, "no_picture", "job \(id.uuidString.lowercased())'s result has no \(report.rowNoun)s to draw")
        }
        // A succeeded job's result never changes, so neither does its picture.
        return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "private, max-age=3600"],
                        body: .init(byteBuffer: ByteBuffer(bytes: png)))
    }

    static func picture(_ item: Drawable, report: any SportReport, result: JSONValue, guards: MediaGuards) throws -> Picture? {
        guard let path = item.videoPath else {
            throw MediaError(kind: .invalidInput, message: "the video is no longer stored")
        }
        return try report.picture(result: result, options: item.job.options, videoAt: path, guards: guards)
    }

    /// The job as a report shows it, its picture drawn when `drawPicture` and the sport has one
    /// (a picture that cannot be drawn becomes a note, never a failed report).
    static func reportJob(_ item: Drawable, drawPicture: Bool, guards: MediaGuards) -> ReportJob {
        // When the clip was filmed, from its container; a video that cannot be read (or says nothing) leaves the upload's time.
        let recorded = item.videoPath.flatMap { try? MediaProbe.recordingDate($0, guards: guards) }
        var job = ReportJob(id: item.job.id, club: item.job.club, sport: item.sport, fileName: item.fileName, createdAt: item.job.createdAt,
                            recordedAt: recorded, status: item.job.status.rawValue, error: item.job.status == .failed ? item.job.lastError : nil,
                            result: item.reported)
        guard let result = item.result, let report = SportReports.forSport(item.sport) else { return job }
        guard drawPicture else {
            job.pictureNote = "Pictures are drawn for the first \(maxBatchPictures) jobs of a batch; GET /v1/jobs/\(item.job.id.uuidString.lowercased())/picture draws this one."
            return job
        }
        do {
            job.picture = try picture(item, report: report, result: result, guards: guards)
        } catch let error as MediaError {
            job.pictureNote = "No picture: the video cannot be read (\(error.message))."
        } catch {
            job.pictureNote = "No picture: \(error)."
        }
        return job
    }

    func jobReport(_ id: UUID, _ caller: Caller) async throws -> Response {
        let job = try await jobs.job(id, caller)
        let item = try await drawable(job, club: caller.visibleClub)
        guard item.result != nil else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); its report exists once it has succeeded")
        }
        let guards = MediaGuards(maxPixels: backends.config.limits.maxPixels)
        let pdf = try await NIOThreadPool.singleton.runIfActive {
            try SessionReport.pdf(Self.reportJob(item, drawPicture: true, guards: guards), report: SportReports.forSport(item.sport))
        }
        return Self.pdfResponse(pdf, name: "reelwork-job-\(id.uuidString.lowercased()).pdf")
    }

    func batchReport(_ id: UUID, _ caller: Caller) async throws -> Response {
        let batch = try await batches.batch(id, caller)
        let club = caller.visibleClub
        let page = try await backends.sql { try JobRepository($0).list(JobFilter(batchId: batch.id), limit: Self.maxBatchJobs, cursor: nil) }
        var items: [Drawable] = []
        for job in page.jobs.reversed() { items.append(try await drawable(job, club: club)) }
        let omitted = max(0, batch.total - items.count)
        let guards = MediaGuards(maxPixels: backends.config.limits.maxPixels)
        let header = BatchReport.Batch(id: batch.id, club: batch.club, sport: try Self.sport(batch.sport, of: "batch \(id.uuidString.lowercased())"), label: batch.label,
                                       createdAt: batch.createdAt, counts: batch.counts)
        let report = SportReports.forSport(header.sport)
        let pdf = try await NIOThreadPool.singleton.runIfActive { [items] in
            var drawn = 0
            let jobs = items.map { item -> ReportJob in
                let draw = item.result != nil && drawn < Self.maxBatchPictures
                if draw { drawn += 1 }
                return Self.reportJob(item, drawPicture: draw, guards: guards)
            }
            return try BatchReport.pdf(header, report: report, jobs: jobs, omitted: omitted)
        }
        return Self.pdfResponse(pdf, name: "reelwork-batch-\(id.uuidString.lowercased()).pdf")
    }

    /// The batch's stats table as JSON (basketball: seed 001's shooting line per succeeded session
    /// and the batch's total, counts added and percentages from the sums): the same lines as the
    /// batch report's "Stats by session", for its newest `maxBatchJobs` jobs. A corrected session
    /// counts its newest confirmed shots.
    func batchStats(_ id: UUID, _ caller: Caller) async throws -> Response {
        let batch = try await batches.batch(id, caller)
        let sport = try Self.sport(batch.sport, of: "batch \(id.uuidString.lowercased())")
        guard let report = SportReports.forSport(sport), let table = report as? any SessionStatsTable else {
            let sports = SportRegistry.names { $0.report is any SessionStatsTable }
            throw APIError(.unprocessableContent, "no_stats", "stats tables are added up for \(sports) batches; \(batch.sport) batches have none")
        }
        let page = try await backends.sql { try JobRepository($0).list(JobFilter(batchId: batch.id), limit: Self.maxBatchJobs, cursor: nil) }
        var sessions: [JSONValue] = [], rows: [JSONValue] = []
        for job in page.jobs.reversed() where job.status == .succeeded {
            let item = try await drawable(job, club: caller.visibleClub)
            guard let result = item.reported else { continue }
            let jobRows = report.rows(in: result)
            rows += jobRows
            var line = table.statsRow(name: item.fileName ?? "", rows: jobRows)
            if case .object(var fields) = line {
                fields["jobId"] = .string(job.id.uuidString.lowercased())
                fields["fileName"] = item.fileName.map(JSONValue.string) ?? .null
                fields["name"] = nil
                line = .object(fields)
            }
            sessions.append(line)
        }
        var total = table.statsRow(name: "", rows: rows)
        if case .object(var fields) = total { fields["name"] = nil; total = .object(fields) }
        let body: JSONValue = .object(["batchId": .string(batch.id.uuidString.lowercased()), "sport": .string(batch.sport),
                                       "sessions": .array(sessions), "total": total,
                                       "jobsOmitted": .number(Double(max(0, batch.total - page.jobs.count)))])
        return try JSONResponse.make(body)
    }

    static func pdfResponse(_ pdf: [UInt8], name: String) -> Response {
        Response(status: .ok, headers: [.contentType: "application/pdf", .contentDisposition: "inline; filename=\"\(name)\"",
                                        .cacheControl: "private, no-cache"],
                 body: .init(byteBuffer: ByteBuffer(bytes: pdf)))
    }
}
