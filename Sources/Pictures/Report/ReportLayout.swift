import Foundation
import ReelworkCore

/// Lays a report out on US Letter pages the way seed 001's exporter does (612 × 792 pt, 50 pt
/// margins; a title, a "Generated" line, section headers, key–value lines, tables whose header
/// repeats on each page). A cursor runs down the page; whatever does not fit below it starts a
/// new page, so a long table simply goes on over as many pages as it needs.
final class ReportLayout {
    static let pageWidth = 612.0, pageHeight = 792.0, margin = 50.0
    static let bodyFont = Font(size: 10), smallFont = Font(size: 8.5), tableFont = Font(size: 8.5)

    let canvas: Canvas
    private let footer: String
    private(set) var y = margin
    private(set) var pages = 1
    var width: Double { Self.pageWidth - 2 * Self.margin }
    var bottom: Double { Self.pageHeight - Self.margin }

    init(title: String, footer: String) throws {
        canvas = try Canvas.document(width: Self.pageWidth, height: Self.pageHeight, title: title)
        self.footer = footer
        drawFooter()
    }

    func newPage() {
        canvas.newPage()
        pages += 1
        y = Self.margin
        drawFooter()
    }

    /// Starts a new page unless `height` more fits on this one.
    func room(_ height: Double) {
        if y + height > bottom { newPage() }
    }

    func space(_ height: Double) { y += height }

    func title(_ text: String) {
        for line in canvas.wrapped(text, font: Font(size: 20, bold: true), width: width) {
            room(26)
            canvas.text(line, at: Point(Self.margin, y + 20), font: Font(size: 20, bold: true), .ink)
            y += 26
        }
    }

    /// Text in `font`, wrapped to the page's width.
    func paragraph(_ text: String, font: Font = bodyFont, colour: Colour = .ink) {
        let lineHeight = font.size * 1.4
        for line in canvas.wrapped(text, font: font, width: width) {
            room(lineHeight)
            canvas.text(line, at: Point(Self.margin, y + font.size), font: font, colour)
            y += lineHeight
        }
    }

    /// A section's heading with a rule under it; never alone at the foot of a page.
    func section(_ text: String, keepWith following: Double = 60) {
        room(30 + following)
        y += 8
        canvas.text(canvas.fitted(text, font: Font(size: 13, bold: true), width: width), at: Point(Self.margin, y + 13),
                    font: Font(size: 13, bold: true), .ink)
        y += 18
        canvas.line(from: Point(Self.margin, y), to: Point(Self.margin + width, y), .rule, width: 0.8)
        y += 8
    }

    /// Label–value lines, in two columns or (for long values) one.
    func keyValues(_ items: [Total], columns: Int = 2, labelWidth: Double = 140) {
        let columnWidth = width / Double(columns), lineHeight = 15.0
        for first in stride(from: 0, to: items.count, by: columns) {
            room(lineHeight)
            for (column, item) in items[first..<min(first + columns, items.count)].enumerated() {
                let x = Self.margin + Double(column) * columnWidth
                canvas.text(canvas.fitted(item.label, font: Self.bodyFont, width: labelWidth - 6), at: Point(x, y + 10), font: Self.bodyFont, .muted)
                canvas.text(canvas.fitted(item.value, font: Font(size: 10, bold: true), width: columnWidth - labelWidth - 8),
                            at: Point(x + labelWidth, y + 10), font: Font(size: 10, bold: true), .ink)
            }
            y += lineHeight
        }
    }

    /// The picture as wide as the page allows (never enlarged), at most `maxHeight` tall, with its caption under it.
    func picture(_ picture: Picture, maxHeight: Double = 420) {
        let scale = min(1, width / picture.width, maxHeight / picture.height)
        let shown = (width: picture.width * scale, height: picture.height * scale)
        room(shown.height + 30)
        picture.draw(on: canvas, at: Point(Self.margin, y), scale: scale)
        canvas.stroke(Rect(x: Self.margin, y: y, width: shown.width, height: shown.height), .rule, width: 0.5)
        y += shown.height + 4
        paragraph(picture.caption, font: Self.smallFont, colour: .muted)
    }

    /// `rows` under `columns`, the header again at the top of each page the table reaches. A
    /// column's title may have two lines ("Launch\nmph"): the name, then the unit.
    func table(_ columns: [ReportColumn], rows: [JSONValue]) {
        let rowHeight = 15.0, total = columns.reduce(0) { $0 + $1.weight }
        let widths = columns.map { width * $0.weight / total }
        let titles = columns.map { $0.title.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
        let headerLines = titles.map(\.count).max() ?? 1
        let headerHeight = 4 + 11 * Double(headerLines)
        func header() {
            canvas.fill(Rect(x: Self.margin, y: y, width: width, height: headerHeight), .panel)
            for line in 0..<headerLines {
                y += 11
                var x = Self.margin
                for (title, w) in zip(titles, widths) {
                    if line < title.count {
                        canvas.text(canvas.fitted(title[line], font: Font(size: 8.5, bold: line == 0), width: w - 6), at: Point(x + 3, y - 1),
                                    font: Font(size: 8.5, bold: line == 0), line == 0 ? .ink : .muted)
                    }
                    x += w
                }
            }
            y += 4
        }
        room(headerHeight + 2 * rowHeight)
        header()
        for (index, row) in rows.enumerated() {
            if y + rowHeight > bottom {
                newPage()
                header()
            }
            if index % 2 == 1 { canvas.fill(Rect(x: Self.margin, y: y, width: width, height: rowHeight), Colour(0xf9fafb)) }
            drawRow(columns.map { $0.cell(row) }, widths: widths, font: Self.tableFont, height: rowHeight)
        }
        canvas.line(from: Point(Self.margin, y), to: Point(Self.margin + width, y), .rule, width: 0.8)
        y += 6
    }

    private func drawRow(_ cells: [String], widths: [Double], font: Font, height: Double) {
        var x = Self.margin
        for (cell, w) in zip(cells, widths) {
            canvas.text(canvas.fitted(cell, font: font, width: w - 6), at: Point(x + 3, y + height - 4.5), font: font, .ink)
            x += w
        }
        y += height
    }

    private func drawFooter() {
        let at = Self.pageHeight - Self.margin / 2
        canvas.text(canvas.fitted(footer, font: Self.smallFont, width: width - 60), at: Point(Self.margin, at), font: Self.smallFont, .muted)
        canvas.text("page \(pages)", at: Point(Self.margin + width, at), font: Self.smallFont, .muted, anchor: .end)
    }

    func pdf() throws -> [UInt8] { try canvas.pdf() }

    /// Times in reports: UTC, to the minute.
    static func time(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm 'UTC'"
        return formatter.string(from: date)
    }
}
