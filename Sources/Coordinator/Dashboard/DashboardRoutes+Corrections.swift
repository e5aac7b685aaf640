import Foundation
import Hummingbird
import Pictures
import ReelworkCore
import SportKit
import Sports
import Store

/// A job page's corrections (issue 31): the detected totals beside the newest confirmed version's,
/// its rows (the detected ones before any) with where each came from and the detected index a
/// correction names, and a form that sends a whole set of corrections as the API's
/// `POST /v1/jobs/{id}/corrections` does, with the same checks and the same answers.
extension DashboardRoutes {
    func registerCorrections(on router: Router<APIRequestContext>) {
        action(router, "/dashboard/jobs/:id/corrections") { _, context, visitor, form in
            let id = try Self.jobID(context)
            let text = form["corrections"] ?? ""
            let body: JSONValue
            do {
                body = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(text.utf8))
            } catch {
                throw DashboardProblem(.badRequest, "The corrections are not JSON: write them as {\"corrections\": [{\"op\": …, \"index\": …}]}.")
            }
            _ = try await corrections.correct(id, body, visitor.caller)
            return DashboardRenderer.redirect("/dashboard/jobs/\(id.uuidString.lowercased())#corrections")
        }
    }

    /// The page's corrections section for a succeeded job of a sport with row corrections; nil for
    /// any other job.
    func correctionSection(_ job: JobView, result: JSONValue) async throws -> [String: Any]? {
        guard let plugin = SportRegistry.plugin(named: job.sport), let corrector = plugin.corrector else {
            return nil
        }
        let confirmation = try await backends.sql { try ConfirmationRepository($0, .results).latest(jobId: job.id) }
        let report = plugin.report
        func totals(_ document: JSONValue) -> [[String: String]] {
            (report?.totals(corrector.rows(in: document)) ?? []).map { ["label": $0.label, "value": $0.value] }
        }
        var section: [String: Any] = [
            "rowNoun": corrector.rowNoun, "ops": corrector.opNames, "example": corrector.example,
            "detectedTotals": totals(result),
            "text": (confirmation.map { JSONValue.object(["corrections": $0.corrections]) } ?? .object(["corrections": .array([])])).jsonString(),
        ]
        if let confirmation {
            section["confirmed"] = ["version": confirmation.version, "created": DashboardFormat.time(confirmation.createdAt),
                                    "totals": totals(confirmation.applied(to: result))] as [String: Any]
        }
        let columns = report?.columns ?? []
        // Before any correction the detected rows, each at its own index.
        let rows = confirmation.map { corrector.rows(in: $0.confirmed) } ?? corrector.rows(in: result).enumerated().map { index, row in
            guard case .object(var fields) = row else { return row }
            fields["detectedIndex"] = .number(Double(index))
            return .object(fields)
        }
        section["headings"] = columns.map(\.title)
        section["rows"] = rows.map { row -> [String: Any] in
            let source = row["source"].flatMap { if case .string(let s) = $0 { s } else { nil } } ?? "detected"
            let index = row["detectedIndex"]?.number.map { String(Int($0)) } ?? "–"
            return ["cells": columns.map { $0.cell(row) }, "source": source, "changed": source != "detected", "detectedIndex": index]
        }
        return section
    }
}
