import Archery
import Foundation
import Hummingbird
import NIOCore
import ReelworkCore
import Store

/// `POST /v1/jobs/{id}/arrows` and `GET /v1/jobs/{id}/arrows`: seed 002's adjustment step on the
/// server. A person's corrections (move, add, delete, by the detected arrows' indices) give a
/// confirmed version of a succeeded archery job's end, rescored by the same rule, stored beside the
/// detected one (`archery_confirmations`), which never changes. Each POST is a whole set of
/// corrections to the detected end and makes the next version; the newest is the current one, and
/// `GET /v1/jobs/{id}/results` shows it as `confirmed`.
struct ArcheryRoutes {
    let backends: Backends
    let jobs: JobRoutes

    /// The confirmed CSV's columns: seed 002's `ArrowPlacementResult` fields, plus where each came from.
    static let confirmedColumns = ["arrowNumber", "score", "isX", "normalizedX", "normalizedY", "distanceFromCenter",
                                   "clockPositionDeg", "wasAdjusted", "source", "detectedIndex"]

    func register(on api: APIRouter) {
        api.post("/v1/jobs/:id/arrows", .clubData) { request, context, caller in
            try await confirm(RouteParams.uuid(context, "id"), request, caller)
        }
        api.get("/v1/jobs/:id/arrows", .clubData) { request, context, caller in
            try await confirmed(RouteParams.uuid(context, "id"), caller, format: request.uri.queryParameters.get("format"))
        }
    }

    /// The job, if it is a succeeded archery job the caller may see (another club's reads as missing).
    func archeryJob(_ id: UUID, _ caller: Caller) async throws -> JobView {
        let job = try await jobs.job(id, caller)
        guard job.sport == Sport.archery.rawValue else {
            throw APIError(.unprocessableContent, "not_archery", "job \(id.uuidString.lowercased()) is a \(job.sport) job; arrows are corrected on archery jobs only")
        }
        guard job.status == .succeeded else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) is \(job.status.rawValue); its arrows can be corrected once it has succeeded")
        }
        return job
    }

    func confirm(_ id: UUID, _ request: Request, _ caller: Caller) async throws -> Response {
        let job = try await archeryJob(id, caller)
        let body = try await JSONResponse.decode(JSONValue.self, from: request, limit: backends.config.limits.maxJSONBytes)
        let corrections: [ArcheryCorrection], options: ArcheryOptions
        do {
            corrections = try ArcheryCorrections.parse(body)
            options = try ArcheryOptions.parse(job.options)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_corrections", error.message)
        }
        guard let document = try await backends.sql({ try JobRepository($0).result(jobId: id) }) else {
            throw APIError(.conflict, "no_results", "job \(id.uuidString.lowercased()) has no stored result")
        }
        let end: ConfirmedEnd
        do {
            end = try ArcheryCorrections.apply(corrections, toDetected: document.result, options: options)
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "invalid_corrections", error.message)
        }
        // The corrections as read, not as sent: nothing else a client put in the body is stored.
        let stored = JSONValue.array(corrections.map(Self.json))
        let confirmation = try await backends.storeConfirmation(.archery, sport: Sport.archery.rawValue, jobId: id,
                                                                corrections: stored, confirmed: Self.numbered(end.json()))
        return try JSONResponse.make(confirmation.json(), status: .created)
    }

    func confirmed(_ id: UUID, _ caller: Caller, format: String?) async throws -> Response {
        let csv = try JobRoutes.wantsCSV(format)
        _ = try await archeryJob(id, caller)
        guard let confirmation = try await backends.sql({ try ConfirmationRepository($0, .archery).latest(jobId: id) }) else {
            throw APIError(.notFound, "no_confirmation", "job \(id.uuidString.lowercased())'s end has not been confirmed: POST its corrections to /v1/jobs/{id}/arrows")
        }
        guard csv else { return try JSONResponse.make(confirmation.json()) }
        return Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: Self.csv(confirmation.confirmed))))
    }

    /// One correction as stored and shown: `{op, index?, x?, y?}`.
    static func json(_ correction: ArcheryCorrection) -> JSONValue {
        switch correction {
        case .move(let index, let x, let y):
            .object(["op": .string("move"), "index": .number(Double(index)), "x": .number(x), "y": .number(y)])
        case .add(let x, let y): .object(["op": .string("add"), "x": .number(x), "y": .number(y)])
        case .delete(let index): .object(["op": .string("delete"), "index": .number(Double(index))])
        }
    }

    /// The confirmed end's arrows, one CSV row each (RFC 4180, as the detected rows).
    static func csv(_ confirmed: JSONValue) -> String {
        let arrows: [JSONValue] = if case .array(let items)? = confirmed["arrows"] { items } else { [] }
        return CSV.render(header: confirmedColumns, rows: arrows.map { arrow in
            confirmedColumns.map { key in
                switch arrow[key] {
                case .number(let n)?: CSV.number(n)
                case .string(let s)?: s
                case .bool(let b)?: b ? "true" : "false"
                default: ""
                }
            }
        })
    }

    /// The confirmed end's document with each arrow numbered from 1, as the detected rows are.
    static func numbered(_ document: JSONValue) -> JSONValue {
        guard case .object(var fields) = document, case .array(let arrows)? = fields["arrows"] else { return document }
        fields["arrows"] = .array(arrows.enumerated().map { index, arrow in
            guard case .object(var a) = arrow else { return arrow }
            a["arrowNumber"] = .number(Double(index + 1))
            return .object(a)
        })
        return .object(fields)
    }
}
