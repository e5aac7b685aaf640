import Foundation
import ReelworkCore

/// A batch's report: its jobs counted by state, the sport's totals over every succeeded job, then
/// one section per job (each on a page of its own) with that job's totals, picture and table.
public enum BatchReport {
    public struct Batch: Sendable {
        public var id: UUID
        public var club: String
        public var sport: Sport
        public var label: String?
        public var createdAt: Date
        /// Jobs in the batch by state (the batch's own counts, all of its jobs).
        public var counts: [String: Int]
        public init(id: UUID, club: String, sport: Sport, label: String?, createdAt: Date, counts: [String: Int]) {
            (self.id, self.club, self.sport, self.label, self.createdAt, self.counts) = (id, club, sport, label, createdAt, counts)
        }
    }

    /// `report`: the sport's drawing (its plug-in's), nil when it has none; `jobs` are the sections,
    /// in order; `omitted` jobs of the batch are beyond what one report shows.
    public static func pdf(_ batch: Batch, report: (any SportReport)?, jobs: [ReportJob], omitted: Int = 0,
                           generatedAt: Date = Date()) throws -> [UInt8] {
        try layout(batch, report: report, jobs: jobs, omitted: omitted, generatedAt: generatedAt).pdf()
    }

    /// The report laid out, before its bytes are written (tests read where its text went).
    static func layout(_ batch: Batch, report: (any SportReport)?, jobs: [ReportJob], omitted: Int = 0,
                       generatedAt: Date = Date()) throws -> ReportLayout {
        let sport = batch.sport.rawValue.capitalized
        let name = batch.label ?? "batch \(batch.id.uuidString.lowercased())"
        let layout = try ReportLayout(title: "\(sport) batch report: \(name)",
                                      footers: ["Reelwork · \(sport) batch report · \(name)", "Reelwork · \(sport) batch report"])
        layout.title("\(sport) batch report")
        layout.paragraph(name, font: Font(size: 12, bold: true))
        layout.paragraph("Generated: \(ReportLayout.time(generatedAt))", font: ReportLayout.smallFont, colour: .muted)
        layout.space(6)
        layout.section("Batch")
        let total = batch.counts.values.reduce(0, +)
        let states = batch.counts.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        layout.keyValues([Total("Club", batch.club), Total("Created", ReportLayout.time(batch.createdAt)),
                          Total("Jobs", "\(total)"), Total("By state", states.isEmpty ? "none" : states),
                          Total("Batch", batch.id.uuidString.lowercased())], columns: 1)
        if omitted > 0 {
            layout.paragraph("This report shows the first \(jobs.count) jobs; \(omitted) more are in the batch (GET /v1/batches/\(batch.id.uuidString.lowercased())/jobs).",
                             colour: .muted)
        }
        let succeeded = jobs.filter { $0.result != nil }
        if let report {
            layout.section("Totals over \(succeeded.count) succeeded job\(succeeded.count == 1 ? "" : "s")")
            layout.keyValues(report.totals(succeeded.flatMap { report.rows(in: $0.result!) }))
            if let stats = report as? any SessionStatsTable, !succeeded.isEmpty {
                layout.section("Stats by session")
                layout.table(stats.statsColumns, rows: succeeded.map { stats.statsRow(name: $0.name, rows: report.rows(in: $0.result!)) }
                                 + [stats.statsRow(name: "Total", rows: succeeded.flatMap { report.rows(in: $0.result!) })])
            }
        }
        layout.section("Jobs")
        layout.table(jobColumns(report), rows: jobs.enumerated().map { index, job in
            .object(["n": .number(Double(index + 1)), "file": .string(job.name), "status": .string(job.status),
                     "rows": job.result.flatMap { result in report.map { .number(Double($0.rows(in: result).count)) } } ?? .null])
        })
        for (index, job) in jobs.enumerated() {
            layout.newPage()
            layout.title("\(index + 1). \(job.name)")
            layout.paragraph((job.id.map { "Job \($0.uuidString.lowercased()) · " } ?? "") + "\(job.when.label.lowercased()) \(job.when.value) · \(job.status)",
                             font: ReportLayout.smallFont, colour: .muted)
            SessionReport.body(job, on: layout, report: report)
        }
        return layout
    }

    static func jobColumns(_ report: (any SportReport)?) -> [ReportColumn] {
        [ReportColumn("#", weight: 0.4) { ResultValues.format($0["n"]?.number, 0, "") },
         ReportColumn("File", weight: 3) { ResultValues.text($0, "file") ?? "" },
         ReportColumn("Status", weight: 1) { ResultValues.text($0, "status") ?? "" },
         ReportColumn("\(report?.rowNoun.capitalized ?? "Row")s", weight: 0.8) { ResultValues.format($0["rows"]?.number, 0, "") }]
    }
}
