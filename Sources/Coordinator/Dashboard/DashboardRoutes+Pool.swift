import Foundation
import Hummingbird
import Logging
import Queue
import ReelworkCore
import Store

/// The overview (per club waiting, running, failed, caps, the last hour, workers online), the
/// workers page with its drain buttons, and the pause and resume buttons.
extension DashboardRoutes {
    func registerOverview(on router: Router<APIRequestContext>) {
        page(router, "/dashboard") { _, _, visitor in
            let club = visitor.caller.visibleClub
            let queue = backends.queue
            let (stats, pause, workers) = try await backends.redis { redis in
                (try queue.stats(on: redis), try queue.pauseState(on: redis), try queue.workers(on: redis))
            }
            let (names, failed, minutes) = try await backends.sql { db in
                let dashboard = DashboardRepository(db)
                return (try dashboard.clubNames(club: club), try dashboard.failedByClub(club: club), try dashboard.throughput(club: club, minutes: 60))
            }
            var clubs = Set(names).union(failed.keys).union(stats.readyByClub.keys).union(stats.runningByClub.keys)
            if let club { clubs = clubs.filter { $0 == club } }
            let cap = backends.config.queue.clubCap
            let rows: [[String: Any]] = clubs.sorted().map { name in
                let running = stats.runningByClub[name] ?? 0
                let paused = pause.clubs.contains(name)
                return ["name": name, "waiting": stats.readyByClub[name] ?? 0, "running": running, "failed": failed[name] ?? 0,
                        "paused": paused, "capped": cap > 0, "cap": cap, "capPercent": cap > 0 ? min(100, running * 100 / cap) : 0,
                        "jobsHref": "/dashboard/jobs?club=\(DashboardFilter.escape(name))",
                        "failedHref": "/dashboard/failed?club=\(DashboardFilter.escape(name))",
                        "pauseAction": "/dashboard/clubs/\(DashboardFilter.escape(name))/\(paused ? "resume" : "pause")",
                        "pauseLabel": paused ? "Resume" : "Pause"]
            }
            var context = visitor.base
            context["title"] = "Overview"
            context["clubs"] = rows
            context["queuePaused"] = pause.all
            context["chart"] = ThroughputChart.svg(minutes)
            context["hourSucceeded"] = minutes.reduce(0) { $0 + $1.succeeded }
            context["hourFailed"] = minutes.reduce(0) { $0 + $1.failed }
            context["workersOnline"] = workers.count
            let global = backends.config.queue.globalCap
            context["globalCapText"] = global > 0 ? "at most \(global) running" : "no cap"
            context["clubCapText"] = cap > 0 ? "at most \(cap)" : "no cap"
            return renderer.page("overview", context)
        }
    }

    func registerPool(on router: Router<APIRequestContext>) {
        page(router, "/dashboard/workers") { _, _, visitor in
            guard visitor.isOperator else { throw DashboardProblem(.forbidden, "Only an operator key sees the workers.") }
            let queue = backends.queue
            let workers = try await backends.redis { try queue.workers(on: $0) }
            var context = visitor.base
            context["title"] = "Workers"
            context["workers"] = workers.map { w -> [String: Any] in
                let view = ControlRoutes.view(w)
                return ["id": view.id, "host": view.host, "version": view.version, "slots": view.slots, "running": view.running,
                        "age": String(format: "%.1f s", view.heartbeatAgeSeconds), "draining": view.draining,
                        "drainAction": "/dashboard/workers/\(DashboardFilter.escape(view.id))/drain"]
            }
            return renderer.page("workers", context)
        }
        action(router, "/dashboard/workers/:id/drain", operatorOnly: true) { _, context, _, _ in
            _ = try await control.drain(workerID: context.parameters.get("id") ?? "")
            return DashboardRenderer.redirect("/dashboard/workers")
        }
        action(router, "/dashboard/queue/pause", operatorOnly: true) { _, _, _, _ in
            _ = try await control.setPaused(true, club: nil)
            return DashboardRenderer.redirect("/dashboard")
        }
        action(router, "/dashboard/queue/resume", operatorOnly: true) { _, _, _, _ in
            _ = try await control.setPaused(false, club: nil)
            return DashboardRenderer.redirect("/dashboard")
        }
        action(router, "/dashboard/clubs/:name/pause", operatorOnly: true) { _, context, _, _ in
            _ = try await control.setPaused(true, clubNamed: context.parameters.get("name") ?? "")
            return DashboardRenderer.redirect("/dashboard")
        }
        action(router, "/dashboard/clubs/:name/resume", operatorOnly: true) { _, context, _, _ in
            _ = try await control.setPaused(false, clubNamed: context.parameters.get("name") ?? "")
            return DashboardRenderer.redirect("/dashboard")
        }
        page(router, "/dashboard/batches") { request, _, visitor in
            let club = visitor.caller.visibleClub
            let cursor = try Self.cursor(request)
            let page = try await backends.sql { try BatchRepository($0).list(club: club, limit: 50, cursor: cursor, frames: false) }
            var context = visitor.base
            context["title"] = "Batches"
            context["batches"] = page.batches.map { b -> [String: Any] in
                let ended = b.count(JobStatus.terminal)
                return ["id": b.id.uuidString.lowercased(), "label": b.label ?? DashboardFormat.shortID(b.id), "club": b.club, "sport": b.sport,
                        "created": DashboardFormat.time(b.createdAt), "total": b.total, "ended": ended,
                        "percent": b.total > 0 ? ended * 100 / b.total : 0,
                        "counts": b.counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                        "jobsHref": "/dashboard/jobs?batch=\(b.id.uuidString.lowercased())"]
            }
            if let next = page.nextCursor { context["nextHref"] = "/dashboard/batches?after=\(next)" }
            return renderer.page("batches", context)
        }
    }

    /// The `after` parameter: the id of the last row of the previous page.
    static func cursor(_ request: Request) throws -> UUID? {
        guard let text = request.uri.queryParameters.get("after"), !text.isEmpty else { return nil }
        guard let id = UUID(uuidString: text) else { throw DashboardProblem(.badRequest, "The page cursor '\(text.prefix(60))' is not an id.") }
        return id
    }
}
