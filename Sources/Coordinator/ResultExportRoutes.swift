import Foundation
import Hummingbird
import NIOCore
import ReelworkCore
import SportKit
import Sports
import Store

/// `GET /v1/results.csv`: a season's results as one CSV, one row per shot, swing or arrow with its
/// job's id and file name, for a batch (`batch`) or a filter (`sport`, and optionally `club`,
/// `from`, `to`). A filter names one sport, since each sport's rows have their own columns.
struct ResultExportRoutes {
    let backends: Backends
    let batches: BatchRoutes

    func register(on api: APIRouter) {
        api.get("/v1/results.csv", .clubData) { request, _, caller in try await export(request.uri.queryParameters, caller) }
    }

    func export(_ query: Parameters, _ caller: Caller) async throws -> Response {
        var search = JobSearch()
        var sportName = query.get("sport")
        if let batch = query.get("batch") {
            guard let id = UUID(uuidString: batch) else { throw APIError(.badRequest, "invalid_id", "'batch' must be a batch id (a UUID), not '\(batch)'") }
            let found = try await batches.batch(id, caller)
            if let named = sportName, named.lowercased() != found.sport {
                throw APIError(.badRequest, "invalid_request", "batch \(batch.lowercased()) is for \(found.sport), not \(named)")
            }
            search.batchId = id
            sportName = found.sport
        }
        guard let sportName else {
            throw APIError(.badRequest, "invalid_request", "name a 'batch' or a 'sport': each sport's rows have their own columns")
        }
        let sport = try JobRoutes.checkedSport(sportName)
        guard let table = SportRegistry.plugin(for: sport)?.table else {
            throw APIError(.badRequest, "invalid_request", "CSV results exist for \(SportRegistry.names { $0.table != nil }) jobs, not for \(sport.rawValue)")
        }
        search.sport = sport
        if let club = query.get("club") { search.club = try JobRoutes.validClub(club) }
        if let own = caller.visibleClub { search.club = own }
        for name in ["from", "to"] {
            guard let text = query.get(name) else { continue }
            guard let date = DashboardFilter.time(text), JobRoutes.plausibleTimes.contains(date) else {
                throw APIError(.badRequest, "invalid_request", "'\(name)' must be a time such as 2026-11-24 or 2026-11-24T08:30Z, not '\(text)'")
            }
            if name == "from" { search.from = date } else { search.to = date }
        }
        let csv: String
        do {
            csv = try await backends.sql { [search] in try ResultRowsRepository($0).seasonCSV(search, table: table) }
        } catch let error as ReelworkError {
            throw APIError(.badRequest, "too_many_jobs", error.message)
        }
        return Self.csvResponse(csv, name: "reelwork-\(sport.rawValue)-results.csv")
    }

    static func csvResponse(_ csv: String, name: String) -> Response {
        Response(status: .ok, headers: [.contentType: "text/csv; charset=utf-8", .contentDisposition: "attachment; filename=\"\(name)\""],
                 body: .init(byteBuffer: ByteBuffer(string: csv)))
    }
}
