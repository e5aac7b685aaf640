import Foundation
import Logging
import Hummingbird
import Queue
import ReelworkCore
import Store

/// The operators' controls over the pool (issue 13): `GET /v1/workers`, `POST /v1/workers/{id}/drain`,
/// `POST /v1/clubs/{name}/pause|resume` and `POST /v1/queue/pause|resume`. All of it is state in
/// Redis (`JobQueue+Control`): claims and worker heartbeats read it, so it takes effect without the
/// coordinator and survives its restart. Pausing never touches a running job.
struct ControlRoutes {
    let backends: Backends

    /// A worker id as workers make them (`host-pid`, or REELWORK_WORKER_ID): safe in a URL and a Redis key.
    static let maxWorkerIDLength = 200

    func register(on api: APIRouter) {
        api.get("/v1/workers", .operatorOnly) { _, _, _ in
            let queue = backends.queue
            let workers = try await backends.redis { try queue.workers(on: $0) }
            return try JSONResponse.make(WorkerList(workers: workers.map(Self.view)))
        }
        api.post("/v1/workers/:id/drain", .operatorOnly) { _, context, _ in
            try JSONResponse.make(try await drain(workerID: context.parameters.get("id") ?? ""), status: .accepted)
        }
        api.post("/v1/clubs/:name/pause", .operatorOnly) { _, context, _ in
            try JSONResponse.make(try await setPaused(true, clubNamed: context.parameters.get("name") ?? ""))
        }
        api.post("/v1/clubs/:name/resume", .operatorOnly) { _, context, _ in
            try JSONResponse.make(try await setPaused(false, clubNamed: context.parameters.get("name") ?? ""))
        }
        api.post("/v1/queue/pause", .operatorOnly) { _, _, _ in try JSONResponse.make(try await setPaused(true, club: nil)) }
        api.post("/v1/queue/resume", .operatorOnly) { _, _, _ in try JSONResponse.make(try await setPaused(false, club: nil)) }
    }

    /// Asks worker `text` to drain; the worker as listed, or 404 when none by that id is beating.
    /// (The dashboard's drain button calls this too.)
    func drain(workerID text: String) async throws -> WorkerView {
        let id = try Self.workerID(text)
        let queue = backends.queue
        let found: WorkerView? = try await backends.redis { redis in
            guard try queue.drain(workerID: id, on: redis) else { return nil }
            return try queue.workers(on: redis).first { $0.id == id }.map(Self.view)
        }
        guard let found else {
            throw APIError(.notFound, "worker_not_found", "no worker '\(id)' is beating (GET /v1/workers lists those that are)")
        }
        return found
    }

    /// Pauses or resumes one club's queue, after checking the name and that the club exists.
    func setPaused(_ paused: Bool, clubNamed text: String) async throws -> PauseStateView {
        let name: String
        do { name = try ClubName.validate(text) } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_club", error.message)
        }
        guard try await backends.sql({ try ClubRepository($0).exists(name) }) else {
            throw APIError(.notFound, "club_not_found", "no club '\(name)' (it has no key and no jobs)")
        }
        return try await setPaused(paused, club: name)
    }

    /// Pauses or resumes `club`'s queue, or the whole queue when nil.
    func setPaused(_ paused: Bool, club: String?) async throws -> PauseStateView {
        let queue = backends.queue
        let state = try await backends.redis { redis in
            if paused { try queue.pause(club: club, on: redis) } else { try queue.resume(club: club, on: redis) }
            return try queue.pauseState(on: redis)
        }
        backends.logger.notice("\(paused ? "paused" : "resumed") \(club.map { "club \($0)" } ?? "the whole queue")")
        return PauseStateView(paused: state.all, pausedClubs: state.clubs)
    }

    static func workerID(_ text: String) throws -> String {
        let scalars = text.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maxWorkerIDLength else {
            throw APIError(.badRequest, "invalid_worker_id", "a worker id has 1 to \(maxWorkerIDLength) characters")
        }
        if let bad = scalars.first(where: { !allowed($0) }) {
            throw APIError(.badRequest, "invalid_worker_id",
                           "worker id has '\(bad.escaped(asASCII: true))'; ids use letters, digits, '-', '_', '.', ':' and '@'")
        }
        return text
    }

    private static func allowed(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", ":", "@": true
        default: false
        }
    }

    /// The age comes from Redis's clock, which stamped the beat: the coordinator's own clock may disagree.
    static func view(_ w: JobQueue.WorkerPresence) -> WorkerView {
        WorkerView(id: w.id, host: w.host, version: w.version, slots: w.slots, running: w.running, startedAt: w.startedAt,
                   lastHeartbeatAt: w.lastBeat, heartbeatAgeSeconds: (w.heartbeatAge * 1000).rounded() / 1000,
                   draining: w.draining)
    }
}
