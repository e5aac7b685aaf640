import Foundation
import Hummingbird
import NIOCore
import ReelworkCore
import SportKit
import Store

/// `POST /v1/jobs/{id}/<segment>` and `GET /v1/jobs/{id}/<segment>`: a sport's own correction
/// route (`SportPlugin.confirmationRoute`; archery's `arrows`). Each POST is a whole set of
/// corrections to the detected result and makes the next confirmed version in the sport's table;
/// the detected result never changes, the newest version is the current one, and
/// `GET /v1/jobs/{id}/results` shows it as `confirmed`. The sport reads the corrections and
/// builds the confirmed document; this type holds what every sport's route shares (access, the
/// club check, the body's limit, the versioned storage and its metric), and names no sport.
struct ConfirmationRoutes {
    let backends: Backends
    let jobs: JobRoutes
    let sport: Sport
    let route: ConfirmationRoute

    func register(on api: APIRouter) {
        api.post("/v1/jobs/:id/\(route.segment)", .clubData) { request, context, caller in
            try await confirm(RouteParams.uuid(context, "id"), request, caller)
        }
        api.get("/v1/jobs/:id/\(route.segment)", .clubData) { request, context, caller in
            try await confirmed(RouteParams.uuid(context, "id"), caller, format: request.uri.queryParameters.get("format"))
        }
    }

    var table: ConfirmationRepository.Table { ConfirmationRepository.Table(route.confirmationsTable) }

    /// The job, if it is a succeeded job of this sport the caller may see (another club's reads as missing).
    func sportJob(_ id: UUID, _ caller: Caller) async throws -> JobView {
        let job = try await jobs.job(id, caller)
        guard job.sport == sport.rawValue else {
            throw APIError(.unprocessableContent, "not_\(sport.rawValue)",
                           "job \(id.uuidString.lowercased()) is a \(job.sport) job; \(route.segment) are corrected on \(sport.rawValue) jobs only")
        }
        guard job.status == .succeeded else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); its \(route.segment) can be corrected once it has succeeded")
        }
        return job
    }

    func confirm(_ id: UUID, _ request: Request, _ caller: Caller) async throws -> Response {
        let job = try await sportJob(id, caller)
        let body = try await JSONResponse.decode(JSONValue.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let pending: any PendingConfirmation
        do {
            pending = try route.read(body, job.options)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_corrections", error.message)
        }
        guard let document = try await backends.sql({ try JobRepository($0).result(jobId: id) }) else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) has no stored result")
        }
        let confirmed: JSONValue
        do {
            confirmed = try pending.confirmed(detected: document.result)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_corrections", error.message)
        }
        let confirmation = try await backends.storeConfirmation(table, sport: sport.rawValue, jobId: id,
                                                                corrections: pending.corrections, confirmed: confirmed)
        return try JSONResponse.make(confirmation.json(), status: .created)
    }

    func confirmed(_ id: UUID, _ caller: Caller, format: String?) async throws -> Response {
        let csv = try JobRoutes.wantsCSV(format)
        _ = try await sportJob(id, caller)
        let table = table
        guard let confirmation = try await backends.sql({ try ConfirmationRepository($0, table).latest(jobId: id) }) else {
            throw APIError(.notFound, "no_confirmation",
                           "job \(id.uuidString.lowercased())'s \(route.noun) has not been confirmed: POST its corrections to /v1/jobs/{id}/\(route.segment)")
        }
        guard csv else { return try JSONResponse.make(confirmation.json()) }
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: route.csv(confirmation.confirmed))))
    }
}
