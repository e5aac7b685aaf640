import Foundation
import Pictures
import ReelworkCore
import SportKit
import Sports

/// A succeeded job's result as its sport's own picture: the PNG that `GET /v1/jobs/{id}/picture`
/// and the reports draw (the sport's `SportReport`, cairo), so every sport is drawn once, in its
/// own module, and a new sport's picture shows here with no code in the coordinator. The caption
/// is the report's totals. Nil for a sport without a report, or a result with nothing to draw.
enum ResultPicture {
    struct Picture {
        var html: String
        var caption: String
    }

    /// `pictureHref`: the job's picture route, e.g. `/dashboard/jobs/ID/picture.png`.
    static func picture(sport: String, result: JSONValue, pictureHref: String) -> Picture? {
        guard let plugin = SportRegistry.plugin(named: sport), let report = plugin.report else { return nil }
        let rows = report.rows(in: result)
        guard !rows.isEmpty else { return nil }
        let noun = "\(rows.count) \(report.rowNoun)\(rows.count == 1 ? "" : "s")"
        // The count is said once, as the noun ("6 arrows"), not again as the report's "Arrows 6".
        let totals = report.totals(rows).filter { !$0.isMissing && $0.label.lowercased() != "\(report.rowNoun)s" }.map { "\($0.label) \($0.value)" }
        let html = #"<img src="\#(escape(pictureHref))" alt="the \#(plugin.sport.rawValue) result: \#(noun) drawn over the video" id="result-picture" class="sport-picture">"#
        return Picture(html: html, caption: ([noun.prefix(1).uppercased() + noun.dropFirst()] + totals).joined(separator: " · "))
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
