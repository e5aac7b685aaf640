import Foundation
import ReelworkCore

/// Seed 001's PDF export for one job: a session report with the title, club, file and date, the
/// sport's totals, the picture of the result, and a table of the sport's rows (shots, swings) over
/// as many pages as it takes.
public enum SessionReport {
    /// `report`: the sport's drawing (its plug-in's); nil says the sport's results are not drawn yet.
    public static func pdf(_ job: ReportJob, report: (any SportReport)?, generatedAt: Date = Date()) throws -> [UInt8] {
        try layout(job, report: report, generatedAt: generatedAt).pdf()
    }

    /// The report laid out, before its bytes are written (tests read where its text went).
    static func layout(_ job: ReportJob, report: (any SportReport)?, generatedAt: Date = Date()) throws -> ReportLayout {
        let sport = job.sport.rawValue.capitalized
        let layout = try ReportLayout(title: "\(sport) session report: \(job.name)",
                                      footers: ["Reelwork · \(sport) session report · \(job.name)", "Reelwork · \(sport) session report"])
        layout.title("\(sport) session report")
        layout.paragraph(job.name, font: Font(size: 12, bold: true))
        layout.paragraph("Generated: \(ReportLayout.time(generatedAt))", font: ReportLayout.smallFont, colour: .muted)
        layout.space(6)
        layout.section("Session")
        layout.keyValues([job.club.map { Total("Club", $0) }, Total("File", job.name), job.when,
                          Total("Status", job.status), job.id.map { Total("Job", $0.uuidString.lowercased()) }].compactMap { $0 },
                         columns: 1)
        body(job, on: layout, report: report)
        return layout
    }

    /// Totals, picture and table of one job (also each section of a batch's report).
    static func body(_ job: ReportJob, on layout: ReportLayout, report: (any SportReport)?) {
        if let error = job.error {
            layout.space(4)
            layout.paragraph("Error: \(error)", colour: Colour(0xb42318))
        }
        guard let result = job.result else {
            layout.space(4)
            layout.paragraph("No result: the job is \(job.status).", colour: .muted)
            return
        }
        guard let report else {
            layout.space(4)
            layout.paragraph("Reports of \(job.sport.rawValue) results are not drawn yet; the result document has them.", colour: .muted)
            return
        }
        let rows = report.rows(in: result)
        layout.section("Totals")
        layout.keyValues(report.totals(rows))
        // The heading goes with the picture, not alone at the foot of the page before it.
        layout.section("Picture", keepWith: job.picture.map(layout.shownHeight) ?? 60)
        if let picture = job.picture {
            layout.picture(picture)
        } else {
            layout.paragraph(job.pictureNote ?? "Nothing to draw: the result has no \(report.rowNoun)s.", colour: .muted)
        }
        layout.section("\(report.rowNoun.capitalized)s (\(rows.count))")
        if rows.isEmpty {
            layout.paragraph("No \(report.rowNoun)s were found.", colour: .muted)
        } else {
            layout.table(report.columns, rows: rows)
        }
    }
}
