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
    /// The footer, longest first: the first that fits is drawn.
    private let footers: [String]
    private(set) var y = margin
    private(set) var pages = 1
    var width: Double { Self.pageWidth - 2 * Self.margin }
    var bottom: Double { Self.pageHeight - Self.margin }

    /// `footers`: the footer's wordings, longest first (the last must fit: it is drawn whatever its width).
    init(title: String, footers: [String]) throws {
        precondition(!footers.isEmpty, "a report has a footer")
        canvas = try Canvas.document(width: Self.pageWidth, height: Self.pageHeight, title: title)
        self.footers = footers
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
        let font = Font(size: 13, bold: true)
        let lines = canvas.wrapped(text, font: font, width: width)
        room(30 + 16 * Double(lines.count - 1) + following)
        y += 8
        for (index, line) in lines.enumerated() {
            if index > 0 { y += 16 }
            canvas.text(line, at: Point(Self.margin, y + 13), font: font, .ink)
        }
        y += 18
        canvas.line(from: Point(Self.margin, y), to: Point(Self.margin + width, y), .rule, width: 0.8)
        y += 8
    }

    /// Label–value lines, in `columns` columns when every label and value fits on one line there,
    /// else in one. The labels' column is as wide as the widest label (up to half the column);
    /// a value too long for its line goes on over more lines, never cut.
    func keyValues(_ items: [Total], columns: Int = 2) {
        let labelFont = Self.bodyFont, valueFont = Font(size: 10, bold: true), lineHeight = 15.0
        let widestLabel = items.map { canvas.textWidth($0.label, font: labelFont) }.max() ?? 0
        func geometry(_ columns: Int) -> (column: Double, label: Double, value: Double) {
            let column = width / Double(columns), label = min(widestLabel + 12, column / 2)
            return (column, label, column - label - 8)
        }
        func oneLineEach(_ columns: Int) -> Bool {
            let g = geometry(columns)
            return widestLabel + 12 <= g.label && items.allSatisfy { canvas.textWidth($0.value, font: valueFont) <= g.value }
        }
        let used = columns > 1 && !oneLineEach(columns) ? 1 : columns
        let g = geometry(used)
        for first in stride(from: 0, to: items.count, by: used) {
            let group = items[first..<min(first + used, items.count)]
            let cells = group.map { (label: canvas.wrapped($0.label, font: labelFont, width: g.label - 6),
                                     value: canvas.wrapped($0.value, font: valueFont, width: g.value)) }
            let lines = cells.map { max($0.label.count, $0.value.count, 1) }.max() ?? 1
            room(lineHeight * Double(lines))
            for (column, cell) in cells.enumerated() {
                let x = Self.margin + Double(column) * g.column
                for (index, line) in cell.label.enumerated() {
                    canvas.text(line, at: Point(x, y + 10 + lineHeight * Double(index)), font: labelFont, .muted)
                }
                for (index, line) in cell.value.enumerated() {
                    canvas.text(line, at: Point(x + g.label, y + 10 + lineHeight * Double(index)), font: valueFont, .ink)
                }
            }
            y += lineHeight * Double(lines)
        }
    }

    static let pictureMaxHeight = 420.0

    /// How tall `picture` is on the page, its caption's first line included.
    func shownHeight(_ picture: Picture) -> Double {
        picture.height * min(1, width / picture.width, Self.pictureMaxHeight / picture.height) + 30
    }

    /// The picture as wide as the page allows (never enlarged), at most `maxHeight` tall, with its caption under it.
    func picture(_ picture: Picture, maxHeight: Double = pictureMaxHeight) {
        let scale = min(1, width / picture.width, maxHeight / picture.height)
        let shown = (width: picture.width * scale, height: picture.height * scale)
        room(shown.height + 30)
        picture.draw(on: canvas, at: Point(Self.margin, y), scale: scale)
        canvas.stroke(Rect(x: Self.margin, y: y, width: shown.width, height: shown.height), .rule, width: 0.5)
        y += shown.height + 4
        paragraph(picture.caption, font: Self.smallFont, colour: .muted)
    }

    /// `rows` under `columns`, the header again at the top of each page the table reaches. A
    /// column's title may have two lines ("Launch\nmph"): the name, then the unit. A title or a
    /// cell too wide for its column goes on over more lines (the row grows), never cut.
    func table(_ columns: [ReportColumn], rows: [JSONValue]) {
        let lineHeight = 11.0, total = columns.reduce(0) { $0 + $1.weight }
        let widths = columns.map { width * $0.weight / total }
        let headerFont = Font(size: 8.5, bold: true), unitFont = Font(size: 8.5)
        // Each title's lines: the name's (bold), then the unit's, each wrapped to the column.
        let titles: [[(text: String, font: Font)]] = zip(columns, widths).map { column, w in
            column.title.split(separator: "\n", omittingEmptySubsequences: false).enumerated().flatMap { index, part in
                let font = index == 0 ? headerFont : unitFont
                return canvas.wrapped(String(part), font: font, width: w - 6).map { (text: $0, font: font) }
            }
        }
        let headerLines = titles.map(\.count).max() ?? 1
        let headerHeight = 4 + lineHeight * Double(headerLines)
        func header() {
            canvas.fill(Rect(x: Self.margin, y: y, width: width, height: headerHeight), .panel)
            var x = Self.margin
            for (title, w) in zip(titles, widths) {
                for (line, part) in title.enumerated() {
                    canvas.text(part.text, at: Point(x + 3, y + lineHeight * Double(line + 1) - 1), font: part.font, part.font.bold ? .ink : .muted)
                }
                x += w
            }
            y += headerHeight
        }
        let laidOut = rows.map { row in zip(columns, widths).map { column, w in canvas.wrapped(column.cell(row), font: Self.tableFont, width: w - 6) } }
        let firstRowHeight = laidOut.first.map { rowHeight($0) } ?? 15
        room(headerHeight + firstRowHeight + 15)
        header()
        for (index, cells) in laidOut.enumerated() {
            let height = rowHeight(cells)
            if y + height > bottom {
                newPage()
                header()
            }
            if index % 2 == 1 { canvas.fill(Rect(x: Self.margin, y: y, width: width, height: height), Colour(0xf9fafb)) }
            var x = Self.margin
            for (lines, w) in zip(cells, widths) {
                for (line, text) in lines.enumerated() {
                    canvas.text(text, at: Point(x + 3, y + 10.5 + lineHeight * Double(line)), font: Self.tableFont, .ink)
                }
                x += w
            }
            y += height
        }
        canvas.line(from: Point(Self.margin, y), to: Point(Self.margin + width, y), .rule, width: 0.8)
        y += 6
    }

    /// A row whose cells have these lines: one line is 15 pt, each more 11 pt.
    private func rowHeight(_ cells: [[String]]) -> Double {
        15 + 11 * Double(max(0, (cells.map(\.count).max() ?? 1) - 1))
    }

    /// The footer names the report and (where it fits on the line) its file; "page N" at the right.
    private func drawFooter() {
        let at = Self.pageHeight - Self.margin / 2
        let text = footers.first { canvas.textWidth($0, font: Self.smallFont) <= width - 60 } ?? footers.last!
        canvas.text(text, at: Point(Self.margin, at), font: Self.smallFont, .muted)
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
