import Foundation
import Hummingbird
import NIOCore
import ReelworkCore
import SportKit
import Sports
import Store

/// `POST /v1/jobs/{id}/corrections` and `GET /v1/jobs/{id}/corrections`: a person corrects a
/// succeeded job's rows (issue 31), as a sport's own route corrects what is not rows
/// (`ConfirmationRoutes`, archery's arrows):
/// basketball's shots (made or missed, 2PT or 3PT, an attempt added or dropped), bowling's shots (a
/// false one dropped, the result set), tennis's swings (one dropped or added). The sport's plug-in
/// says what each op reads (`SportPlugin.corrector`); this file knows no sport. Each POST is a whole
/// set of corrections to the detected result and makes the next version in `result_confirmations`;
/// the detected result never changes, and the newest version is what CSV, stats and reports add up.
struct CorrectionRoutes {
    let backends: Backends
    let jobs: JobRoutes

    func register(on api: APIRouter) {
        CorrectionMetric.register()
        api.post("/v1/jobs/:id/corrections", .clubData) { request, context, caller in
            // The job first, as a sport's own route does: another club's answers as a missing one, whatever the body.
            let target = try await correctableJob(RouteParams.uuid(context, "id"), caller)
            let body = try await JSONResponse.decode(JSONValue.self, from: request, limit: backends.config.limits.maxJSONBytes)
            return try JSONResponse.make(try await correct(target, body).json(), status: .created)
        }
        api.get("/v1/jobs/:id/corrections", .clubData) { request, context, caller in
            try await confirmed(RouteParams.uuid(context, "id"), caller, format: request.uri.queryParameters.get("format"))
        }
    }

    /// The job, if it is a succeeded job of a sport with row corrections that the caller may see
    /// (another club's reads as missing), with its sport's corrector.
    func correctableJob(_ id: UUID, _ caller: Caller) async throws -> (job: JobView, corrector: RowCorrector) {
        let job = try await jobs.job(id, caller)
        guard let corrector = SportRegistry.plugin(named: job.sport)?.corrector else {
            throw APIError(.unprocessableContent, "not_correctable",
                           "job \(id.uuidString.lowercased()) is a \(job.sport) job; /v1/jobs/{id}/corrections corrects \(SportRegistry.names { $0.corrector != nil }) jobs\(Self.ownRoutes)")
        }
        guard job.status == .succeeded else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); its result can be corrected once it has succeeded")
        }
        return (job, corrector)
    }

    /// Where the sports with their own correction route are corrected instead, for the message
    /// that refuses them here: " (an archery end: /v1/jobs/{id}/arrows)"; empty when none has one.
    static var ownRoutes: String {
        let routes = SportRegistry.confirmationRoutes.map { sport, route in
            let article = "aeiou".contains(sport.rawValue.first ?? "b") ? "an" : "a"
            return "\(article) \(sport.rawValue) \(route.noun): /v1/jobs/{id}/\(route.segment)"
        }
        return routes.isEmpty ? "" : " (" + routes.joined(separator: "; ") + ")"
    }

    /// Stores the confirmed version `body`'s corrections give (the API's POST and the dashboard's
    /// form), and counts the corrections it adds to the version before. Throws 400
    /// `invalid_corrections` naming the correction and its problem; nothing is stored then.
    func correct(_ id: UUID, _ body: JSONValue, _ caller: Caller) async throws -> Confirmation {
        try await correct(try await correctableJob(id, caller), body)
    }

    func correct(_ target: (job: JobView, corrector: RowCorrector), _ body: JSONValue) async throws -> Confirmation {
        let (job, corrector) = target, id = target.job.id
        guard let document = try await backends.sql({ try JobRepository($0).result(jobId: id) }) else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) has no stored result")
        }
        let corrected: CorrectedRows
        do {
            corrected = try corrector.correct(body, detected: document.result, videoSeconds: document.video?.durationSeconds)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_corrections", error.message)
        }
        return try await backends.storeConfirmation(.results, sport: job.sport, jobId: id,
                                                    corrections: corrected.corrections, confirmed: corrected.confirmed)
    }

    func confirmed(_ id: UUID, _ caller: Caller, format: String?) async throws -> Response {
        let csv = try JobRoutes.wantsCSV(format)
        let (job, _) = try await correctableJob(id, caller)
        guard let confirmation = try await backends.sql({ try ConfirmationRepository($0, .results).latest(jobId: id) }) else {
            throw APIError(.notFound, "no_confirmation", "job \(id.uuidString.lowercased())'s result has not been corrected: POST its corrections to /v1/jobs/{id}/corrections")
        }
        guard csv else { return try JSONResponse.make(confirmation.json()) }
        guard let table = SportRegistry.plugin(named: job.sport)?.table else {
            throw APIError(.badRequest, "invalid_request", "CSV results exist for \(SportRegistry.names { $0.table != nil }) jobs, not for \(job.sport)")
        }
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: table.csv(rowsOf: confirmation.confirmed))))
    }
}
