import Foundation
import Pictures
import ReelworkCore
import SportKit
import Sports

/// A job page's "say when unsure" (issue 31): for a sport whose rows carry `review` (tennis's
/// swings, basketball's shots, any sport that adds it), a marker at the top of the result ("3 to
/// review") and a table of the detected rows with each one's confidence and review reasons, the
/// rows to look at marked.
extension DashboardRoutes {
    /// nil for a sport without rows, or whose rows carry no `review`.
    static func reviewSection(sport: String, result: JSONValue) -> [String: Any]? {
        guard let report = SportRegistry.plugin(named: sport)?.report else { return nil }
        let rows = report.rows(in: result)
        guard rows.contains(where: { $0["review"] != nil }) else { return nil }
        // The report's own columns, with the confidence added where the sport's table lacks it.
        let columns = report.columns
        let hasConfidence = columns.contains { $0.title == "Confidence" }
        let noun = report.rowNoun
        var flagged = 0
        let views = rows.map { row -> [String: Any] in
            let reasons = reviewReasons(row)
            if !reasons.isEmpty { flagged += 1 }
            var cells = columns.map { $0.cell(row) }
            if !hasConfidence { cells.append(confidenceText(row)) }
            return ["cells": cells, "reasons": reasons, "needsReview": !reasons.isEmpty]
        }
        let headings = columns.map { $0.title.replacingOccurrences(of: "\n", with: " ") } + (hasConfidence ? [] : ["Confidence"])
        let plural = { (n: Int) in "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return [
            "count": flagged, "any": flagged > 0, "total": rows.count,
            "marker": flagged > 0 ? "\(flagged) to review" : "nothing to review",
            "summary": flagged > 0
                ? "\(flagged) of \(plural(rows.count)) \(flagged == 1 ? "has" : "have") a reason for a person to look (under Confidence and review, each with its reasons; each reason lowers the confidence)."
                : "None of the \(plural(rows.count)) has a reason for a person to look.",
            "headings": headings, "rows": views,
        ]
    }

    /// A row's review reasons, `{code, message}` each; malformed entries are shown as far as they go.
    static func reviewReasons(_ row: JSONValue) -> [[String: String]] {
        guard case .array(let items)? = row["review"] else { return [] }
        return items.map { item in
            let text = { (key: String) -> String in if case .string(let s)? = item[key] { s } else { "" } }
            return ["code": text("code"), "message": text("message")]
        }
    }

    static func confidenceText(_ row: JSONValue) -> String {
        guard let value = row["confidence"]?.number, value.isFinite else { return "–" }
        return String(format: "%.2f", value)
    }
}
