import Foundation
import Hummingbird
import Logging
import Queue
import ReelworkCore
import SportKit
import Sports
import Store

/// The jobs page (filters, search, paging, bulk actions), a job's page with its live stages and
/// result picture, and the failed jobs grouped by kind and message.
extension DashboardRoutes {
    static let pageSize = 50
    static let failureGroupLimit = 100
    /// A bulk action's confirmation counts this many matching jobs at most, and says "more than"
    /// beyond: an exact count of a filter matching most of a million jobs reads all of them.
    static let bulkCountLimit = 1_000

    func registerJobs(on router: Router<APIRequestContext>) {
        page(router, "/dashboard/jobs") { request, _, visitor in
            let filter = try DashboardFilter(Self.query(request), ownClub: visitor.caller.visibleClub)
            let cursor = try Self.cursor(request)
            let found = try await backends.sql { try DashboardRepository($0).jobs(filter.search, limit: Self.pageSize, after: cursor) }
            var context = visitor.base
            context["title"] = "Jobs"
            context["filter"] = Dictionary(uniqueKeysWithValues: DashboardFilter.names.map { ($0, filter.value($0)) })
            context["statuses"] = Self.options([("", "any")] + JobStatus.allCases.map { ($0.rawValue, $0.rawValue) }, selected: filter.value("status"))
            context["sports"] = Self.options([("", "any")] + SportRegistry.sports.map { ($0.rawValue, $0.rawValue) }, selected: filter.value("sport"))
            context["errorKinds"] = Self.options([("", "any")] + DashboardFilter.errorKinds.map { ($0, $0) }, selected: filter.value("error"))
            context["jobs"] = found.jobs.map(Self.row)
            context["matchText"] = found.jobs.isEmpty ? "" : (found.more || cursor != nil
                ? "Showing \(found.jobs.count) matching jobs, newest first."
                : "\(found.jobs.count) matching job\(found.jobs.count == 1 ? "" : "s").")
            if found.more, let last = found.jobs.last {
                context["nextHref"] = "/dashboard/jobs?" + filter.query([("after", last.job.id.uuidString.lowercased())])
            }
            if cursor != nil { context["firstHref"] = "/dashboard/jobs" + (filter.isEmpty ? "" : "?" + filter.query()) }
            if filter.search.sport != nil || filter.search.batchId != nil {
                context["exportHref"] = "/dashboard/results.csv?" + filter.query()
            }
            context["hiddenFilter"] = DashboardFilter.names.compactMap { name -> [String: String]? in
                let value = filter.value(name)
                return value.isEmpty ? nil : ["name": name, "value": value]
            }
            return renderer.page("jobs", context)
        }
        page(router, "/dashboard/results.csv") { request, _, visitor in
            try await seasonCSV(try DashboardFilter(Self.query(request), ownClub: visitor.caller.visibleClub), visitor)
        }
        action(router, "/dashboard/jobs/bulk") { _, _, visitor, form in
            try await bulk(form, visitor)
        }
        page(router, "/dashboard/jobs/:id") { _, context, visitor in
            try await jobPage(try Self.jobID(context), visitor)
        }
        page(router, "/dashboard/jobs/:id/stages") { _, context, visitor in
            let (job, _) = try await findJob(try Self.jobID(context), visitor)
            var headers = DashboardRenderer.headers
            headers[.init("X-Reelwork-Terminal")!] = job.status.isTerminal ? "true" : "false"
            return renderer.page("stages", ["attempts": Self.attempts(job)], extraHeaders: headers)
        }
        // The job's live events (the API's stream, over the session): the page refreshes its stages on each.
        page(router, "/dashboard/jobs/:id/events") { request, context, visitor in
            let id = try Self.jobID(context)
            _ = try await findJob(id, visitor)
            return try await events.stream(request, filter: EventFilter(club: visitor.caller.visibleClub, jobId: id), key: visitor.caller.keyId)
        }
        page(router, "/dashboard/jobs/:id/result.json") { _, context, visitor in
            try await download(try Self.jobID(context), visitor, format: "json")
        }
        page(router, "/dashboard/jobs/:id/result.csv") { _, context, visitor in
            try await download(try Self.jobID(context), visitor, format: "csv")
        }
        action(router, "/dashboard/jobs/:id/retry") { _, context, visitor, _ in
            let id = try Self.jobID(context)
            _ = try await jobs.retry(id, visitor.caller)
            return DashboardRenderer.redirect("/dashboard/jobs/\(id.uuidString.lowercased())")
        }
        action(router, "/dashboard/jobs/:id/cancel") { _, context, visitor, _ in
            let id = try Self.jobID(context)
            _ = try await jobs.cancel(id, visitor.caller)
            return DashboardRenderer.redirect("/dashboard/jobs/\(id.uuidString.lowercased())")
        }
        page(router, "/dashboard/failed") { request, _, visitor in
            var club = visitor.caller.visibleClub
            if club == nil, let asked = request.uri.queryParameters.get("club"), !asked.isEmpty {
                do { club = try ClubName.validate(asked) } catch let error as ReelworkError { throw DashboardProblem(.badRequest, error.message) }
            }
            let groups = try await backends.sql { [club] in try DashboardRepository($0).failureGroups(club: club, limit: Self.failureGroupLimit) }
            var context = visitor.base
            context["title"] = "Failed"
            context["groups"] = groups.map { g -> [String: Any] in
                var jobsQuery = "status=failed&club=\(DashboardFilter.escape(g.club))"
                if let kind = g.errorKind { jobsQuery += "&error=\(DashboardFilter.escape(kind))" }
                return ["club": g.club, "kind": g.errorKind ?? "", "kindLabel": g.errorKind ?? "unknown", "message": g.message ?? "",
                        "hasKind": g.errorKind == nil ? "0" : "1", "hasMessage": g.message == nil ? "0" : "1",
                        "count": g.count, "lastFailed": DashboardFormat.time(g.lastFailedAt), "jobsHref": "/dashboard/jobs?" + jobsQuery]
            }
            return renderer.page("failed", context)
        }
        action(router, "/dashboard/failed/retry") { _, _, visitor, form in
            let club: String
            if let own = visitor.caller.visibleClub { club = own } else {
                do { club = try ClubName.validate(form["club"] ?? "") } catch let error as ReelworkError {
                    throw DashboardProblem(.badRequest, error.message)
                }
            }
            let kind = form["hasKind"] == "1" ? form["kind"] : nil
            let message = form["hasMessage"] == "1" ? form["message"] : nil
            let entries = try await backends.sql { try DashboardRepository($0).retryGroup(club: club, errorKind: kind, message: message) }
            try await jobs.enqueue(entries)
            backends.logger.notice("dashboard: retried \(entries.count) failed job(s) of club \(club) (\(kind ?? "no kind"))")
            return renderer.message("Retried", "Retried \(entries.count) job\(entries.count == 1 ? "" : "s") of club \(club): each has a fresh budget of attempts and is waiting in the queue.",
                                    back: ("/dashboard/failed", "Back to the failed jobs"), base: visitor.base)
        }
    }

    // MARK: pages

    /// The visitor's job `id` and its video (with where it is stored), or a 404 page's problem.
    func findJob(_ id: UUID, _ visitor: Visitor) async throws -> (job: JobView, video: (video: VideoView, storageKey: String)?) {
        let club = visitor.caller.visibleClub
        let found = try await backends.sql { db -> (JobView, (video: VideoView, storageKey: String)?)? in
            guard let job = try JobRepository(db).find(id: id, club: club) else { return nil }
            return (job, try VideoRepository(db).find(id: job.videoId, club: club))
        }
        guard let found else { throw DashboardProblem(.notFound, "No job with id \(id.uuidString.lowercased()).") }
        return found
    }

    func jobPage(_ id: UUID, _ visitor: Visitor) async throws -> Response {
        let (job, video) = try await findJob(id, visitor)
        let base = "/dashboard/jobs/\(id.uuidString.lowercased())"
        var context = visitor.base
        context["title"] = "Job \(DashboardFormat.shortID(id))"
        context["job"] = ["id": id.uuidString.lowercased(), "status": job.status.rawValue, "club": job.club, "sport": job.sport,
                          "attempt": job.attempt, "maxAttempts": job.maxAttempts, "failures": job.failures]
        context["statusTone"] = DashboardFormat.tone(job.status)
        context["fileName"] = job.fileName ?? video?.video.originalName ?? ""
        if let label = job.label { context["label"] = label }
        context["created"] = DashboardFormat.time(job.createdAt)
        if let batch = job.batchId {
            context["batchId"] = batch.uuidString.lowercased()
            context["batchHref"] = "/dashboard/jobs?batch=\(batch.uuidString.lowercased())"
        }
        if let error = job.lastError { context["lastError"] = ["kind": job.lastErrorKind ?? "error", "text": error] }
        context["canRetry"] = JobStatus.retryable.contains(job.status)
        context["canCancel"] = JobStatus.open.contains(job.status) && !job.cancelRequested
        context["actionBase"] = base
        context["liveHref"] = base + "/stages"
        context["eventsHref"] = base + "/events"
        context["eventTypes"] = JobEvent.Kind.allCases.map(\.rawValue).joined(separator: " ")
        context["terminal"] = job.status.isTerminal ? "true" : "false"
        context["attempts"] = Self.attempts(job)
        if job.status == .succeeded, let document = try await backends.sql({ try JobRepository($0).result(jobId: id) }) {
            context["hasResult"] = true
            context["hasCSV"] = SportRegistry.plugin(named: job.sport)?.table != nil
            if let review = Self.reviewSection(sport: job.sport, result: document.result) { context["review"] = review }
            if let picture = ResultPicture.picture(sport: job.sport, result: document.result, pictureHref: base + "/picture.png") {
                context["picture"] = ["html": picture.html, "caption": picture.caption]
            }
            if let section = try await correctionSection(job, result: document.result) { context["corrections"] = section }
        }
        return renderer.page("job", context)
    }

    /// Every succeeded job the filter matches as one CSV (the API's `GET /v1/results.csv`), for a
    /// filter that names a sport or a batch.
    func seasonCSV(_ filter: DashboardFilter, _ visitor: Visitor) async throws -> Response {
        var search = filter.search
        let club = visitor.caller.visibleClub
        if search.sport == nil, let batchId = search.batchId {
            search.sport = try await backends.sql { try BatchRepository($0).find(id: batchId, club: club) }.flatMap { SportRegistry.sport(named: $0.sport) }
        }
        guard let sport = search.sport, let table = SportRegistry.plugin(for: sport)?.table else {
            throw DashboardProblem(.badRequest, "Choose a sport (or a batch) to export: each sport's rows have their own columns.")
        }
        do {
            let csv = try await backends.sql { [search] in try ResultRowsRepository($0).seasonCSV(search, table: table) }
            return ResultExportRoutes.csvResponse(csv, name: "reelwork-\(sport.rawValue)-results.csv")
        } catch let error as ReelworkError {
            throw DashboardProblem(.badRequest, error.message)
        }
    }

    func download(_ id: UUID, _ visitor: Visitor, format: String) async throws -> Response {
        var response = try await jobs.results(id, visitor.caller, format: format)
        response.headers[.contentDisposition] = "attachment; filename=\"reelwork-\(DashboardFormat.shortID(id)).\(format)\""
        return response
    }

    /// The confirmation (how many jobs the filter's action would change), then, once confirmed, the action.
    func bulk(_ form: DashboardForm, _ visitor: Visitor) async throws -> Response {
        let filter = try DashboardFilter(form.fields, ownClub: visitor.caller.visibleClub)
        guard let action = form["action"], action == "retry" || action == "cancel" else {
            throw DashboardProblem(.badRequest, "Unknown bulk action '\(form["action"] ?? "")': retry or cancel.")
        }
        let retry = action == "retry"
        let statuses = retry ? DashboardRepository.retryable : DashboardRepository.cancellable
        let back = "/dashboard/jobs" + (filter.isEmpty ? "" : "?" + filter.query())
        guard let confirmed = form["confirmed"] else {
            let count = try await backends.sql { try DashboardRepository($0).count(filter.search, statuses: statuses, upTo: Self.bulkCountLimit) }
            let counted = count > Self.bulkCountLimit ? "more than \(Self.bulkCountLimit)" : "\(count)"
            var context = visitor.base
            let which = retry ? "failed or cancelled" : "waiting or running"
            let scope = filter.isEmpty ? "every job you can see" : "the filter (\(filter.fields.map { "\($0.name) \($0.value)" }.joined(separator: ", ")))"
            context["title"] = retry ? "Retry jobs" : "Cancel jobs"
            context["heading"] = retry ? "Retry \(counted) job\(count == 1 ? "" : "s")?" : "Cancel \(counted) job\(count == 1 ? "" : "s")?"
            context["text"] = count == 0
                ? "No \(which) job matches \(scope): nothing to do."
                : "\(counted.prefix(1).uppercased() + counted.dropFirst()) \(which) job\(count == 1 ? "" : "s") match\(count == 1 ? "es" : "") \(scope). " +
                  (retry ? "Each gets a fresh budget of attempts and waits in the queue again." : "Waiting ones end now; running ones stop at their worker's next heartbeat.")
            if count > 0 { context["count"] = counted }
            context["action"] = "/dashboard/jobs/bulk"
            context["button"] = retry ? "Retry \(counted)" : "Cancel \(counted)"
            context["backHref"] = back
            context["hidden"] = filter.fields.map { ["name": $0.name, "value": $0.value] } + [["name": "action", "value": action]]
            return renderer.page("confirm", context)
        }
        let changed: Int
        if retry {
            let entries = try await backends.sql { try DashboardRepository($0).retry(filter.search) }
            try await jobs.enqueue(entries)
            changed = entries.count
        } else {
            let by = Cancel.by(club: visitor.caller.visibleClub)
            let (cancelled, requested) = try await backends.sql { try DashboardRepository($0).cancel(filter.search, by: by) }
            let queue = backends.queue
            try await backends.redis { redis in for id in cancelled { _ = try queue.cancel(id, on: redis) } }
            changed = cancelled.count + requested
        }
        backends.logger.notice("dashboard: bulk \(action) changed \(changed) job(s)")
        var text = "\(retry ? "Retried" : "Cancelled") \(changed) job\(changed == 1 ? "" : "s")."
        let asConfirmed = confirmed.hasPrefix("more than ") ? changed > Self.bulkCountLimit : String(changed) == confirmed
        if !asConfirmed { text += " (The confirmation counted \(confirmed); jobs changed state in between.)" }
        return renderer.message(retry ? "Retried" : "Cancelled", text, back: (back, "Back to the jobs"), base: visitor.base)
    }

    // MARK: view models

    static func row(_ listing: JobListing) -> [String: Any] {
        let job = listing.job
        var row: [String: Any] = ["id": job.id.uuidString.lowercased(), "shortId": DashboardFormat.shortID(job.id), "club": job.club,
                                  "sport": job.sport, "status": job.status.rawValue, "statusTone": DashboardFormat.tone(job.status),
                                  "fileName": listing.fileName ?? "", "created": DashboardFormat.time(job.createdAt),
                                  "href": "/dashboard/jobs/\(job.id.uuidString.lowercased())", "error": String((job.lastError ?? "").prefix(160))]
        if let kind = job.lastErrorKind { row["errorKind"] = kind }
        return row
    }

    static func attempts(_ job: JobView) -> [[String: Any]] {
        job.attempts.reversed().map { attempt in
            let stages = job.stages.filter { $0.attempt == attempt.attempt }
            var view: [String: Any] = ["number": attempt.attempt, "worker": attempt.workerId, "started": DashboardFormat.time(attempt.startedAt),
                                       "stages": stages.map(stage)]
            if let end = attempt.finishedAt, let took = DashboardFormat.duration(end.timeIntervalSince(attempt.startedAt)) { view["took"] = took }
            if let outcome = attempt.outcome {
                view["outcome"] = outcome
                view["outcomeTone"] = DashboardFormat.tone(outcome: outcome)
            }
            if let error = attempt.error { view["error"] = error }
            return view
        }
    }

    static func stage(_ stage: StageView) -> [String: Any] {
        let percent = stage.status == .succeeded ? 100 : Int((stage.progress * 100).rounded(.down))
        var view: [String: Any] = ["name": stage.name, "status": stage.status.rawValue, "percent": percent]
        if let done = stage.framesDone, let planned = stage.framesPlanned { view["framesText"] = "\(done) of \(planned) frames" }
        else { view["framesText"] = stage.status.rawValue }
        if let took = DashboardFormat.duration(stage.durationSeconds) { view["took"] = took }
        if let error = stage.error { view["error"] = error }
        return view
    }

    static func options(_ items: [(String, String)], selected: String) -> [[String: Any]] {
        items.map { ["value": $0.0, "label": $0.1, "selected": $0.0 == selected] }
    }

    static func query(_ request: Request) -> [String: String] {
        var values: [String: String] = [:]
        for (key, value) in request.uri.queryParameters where values[String(key)] == nil {
            values[String(key)] = String(value)
        }
        return values
    }

    static func jobID(_ context: APIRequestContext) throws -> UUID {
        let text = context.parameters.get("id") ?? ""
        guard let id = UUID(uuidString: text) else { throw DashboardProblem(.badRequest, "'\(text.prefix(60))' is not a job id.") }
        return id
    }
}
