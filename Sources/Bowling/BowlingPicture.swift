import Foundation
import Media
import Pictures
import ReelworkCore

/// Bowling (seeds 000, 003): each shot's path over the frame where the first shot starts, with
/// launch, arrows, breakpoint and pocket marked, and a panel beside the frame with each shot's
/// speeds and boards. Reads the result document only (`result.shots[]`).
public struct BowlingPicture: SportReport {
    public init() {}

    public var rowNoun: String { "shot" }

    public func rows(in result: JSONValue) -> [JSONValue] { ResultValues.items(result["shots"]) }

    /// Frames wider than this are drawn scaled down (pixels of the picture).
    static let maxFrameWidth = 1280
    static let panelWidth = 330.0

    /// The marks on a path, each its own shape so that they read without labels.
    enum Mark: CaseIterable {
        case launch, arrows, breakpoint, pocket
        var name: String {
            switch self {
            case .launch: "launch"
            case .arrows: "arrows (15 ft)"
            case .breakpoint: "breakpoint"
            case .pocket: "pocket (60 ft)"
            }
        }
    }

    public func picture(result: JSONValue, options: JSONValue, frames: any FrameSource) throws -> Picture? {
        let shots = rows(in: result)
        let paths = shots.map(Self.path)
        guard paths.contains(where: { !$0.isEmpty }) else { return nil }
        let display = frames.displaySize
        let start = ResultValues.number(shots.first, "startTime") ?? paths.first(where: { !$0.isEmpty })?.first?.t ?? 0
        let frame = try frames.frame(atSeconds: start, maxWidth: min(display.width, Self.maxFrameWidth))
        // Trajectories are in the video's displayed pixels; the frame may be smaller.
        let scale = Double(frame.width) / Double(max(1, display.width))
        let unit = max(1, Double(frame.width) / 640)
        let frameWidth = Double(frame.width), frameHeight = Double(frame.height)
        // The panel grows with the frame so that its text keeps its size beside it. It lists every
        // shot, in as many columns beside the frame as that takes (and taller than the frame when
        // even `maxPanelColumns` are not enough).
        let panelScale = max(1, frameHeight / 540)
        let legend = try Self.wrapped(Self.legend(shots))
        let panel = Self.panelLayout(legend.map(Self.entryHeight), frame: (frameWidth / panelScale, frameHeight / panelScale))
        let height = max(frameHeight, panel.height * panelScale)
        let width = frameWidth + Self.panelWidth * Double(panel.columns.count) * panelScale
        let caption = "\(shots.count) shot\(shots.count == 1 ? "" : "s") over the frame at \(String(format: "%.2f", frame.time)) s: "
            + "each path from the foul line to the pins with launch, arrows, breakpoint and pocket marked."
        return Picture(width: width, height: height, caption: caption) { canvas in
            canvas.fill(Rect(x: 0, y: 0, width: width, height: height), .ink)
            canvas.draw(frame, in: Rect(x: 0, y: 0, width: frameWidth, height: frameHeight))
            var labels: [Rect] = []
            for (index, path) in paths.enumerated() where !path.isEmpty {
                Self.drawShot(shots[index], path: path, number: Self.number(shots[index], index), colour: .series(index),
                              scale: scale, unit: unit, avoiding: &labels, on: canvas)
            }
            canvas.withSavedState {
                canvas.transform(offset: Point(frameWidth, 0), scale: panelScale)
                Self.drawPanel(legend, columns: panel.columns, height: height / panelScale, on: canvas)
            }
        }
    }

    /// A trajectory point: time, displayed pixels, feet past the foul line when calibrated.
    struct PathPoint {
        var t: Double
        var x: Double
        var y: Double
        var feet: Double?
    }

    static func path(_ shot: JSONValue) -> [PathPoint] {
        ResultValues.items(shot["trajectory"]).compactMap { p in
            guard let x = p["x"]?.number, let y = p["y"]?.number else { return nil }
            return PathPoint(t: p["t"]?.number ?? 0, x: x, y: y, feet: p["distanceFt"]?.number)
        }
    }

    static func number(_ shot: JSONValue, _ index: Int) -> Int {
        ResultValues.number(shot, "shotNumber").map { Int($0) } ?? index + 1
    }

    /// Where each mark sits on the path: launch at the first point, the arrows and the breakpoint
    /// at the points nearest their distances, the pocket at the last point (when the shot has a
    /// pocket board). A mark whose metric is null is not drawn.
    static func marks(_ shot: JSONValue, _ path: [PathPoint]) -> [(Mark, PathPoint)] {
        func nearest(_ feet: Double?) -> PathPoint? {
            guard let feet else { return nil }
            return path.filter { $0.feet != nil }.min { abs($0.feet! - feet) < abs($1.feet! - feet) }
        }
        var marks: [(Mark, PathPoint)] = []
        if let first = path.first { marks.append((.launch, first)) }
        if shot["arrowBoard"]?.number != nil, let p = nearest(15) { marks.append((.arrows, p)) }
        if let p = nearest(shot["breakpointDistance"]?.number), shot["breakpointBoard"]?.number != nil { marks.append((.breakpoint, p)) }
        if shot["pocketBoard"]?.number != nil, let last = path.last { marks.append((.pocket, last)) }
        return marks
    }

    /// Draws the shot's path and marks, and its number beside the path's end, moved up past the
    /// numbers in `labels` (shots that end together would hide each other's) and added to them.
    static func drawShot(_ shot: JSONValue, path: [PathPoint], number: Int, colour: Colour, scale: Double, unit: Double,
                         avoiding labels: inout [Rect], on canvas: Canvas) {
        let points = path.map { Point($0.x * scale, $0.y * scale) }
        canvas.polyline(points, colour, width: 2.5 * unit, outline: Colour.black.with(alpha: 0.55))
        for (mark, point) in marks(shot, path) {
            drawMark(mark, at: Point(point.x * scale, point.y * scale), size: 6 * unit, colour: colour, on: canvas)
        }
        guard let last = points.last else { return }
        let font = Font(size: 13 * unit, bold: true), text = "\(number)"
        // The label's box: the digits' advance, cap height above the baseline, a halo's width around.
        let first = Rect(x: last.x + 8 * unit, y: last.y - 6 * unit - 11 * unit, width: canvas.textWidth(text, font: font) + 2 * unit, height: 13 * unit)
        var box = first
        // Up past the numbers already there; at the frame's top, a column further right.
        while let hit = labels.first(where: { $0.overlaps(box) }) {
            box.y = hit.y - box.height - unit
            if box.y < 0 { (box.x, box.y) = (labels.filter { $0.overlaps(Rect(x: box.x, y: 0, width: box.width, height: first.maxY)) }.map(\.maxX).max()! + unit, first.y) }
        }
        labels.append(box)
        canvas.text(text, at: Point(box.x + unit, box.maxY - unit), font: font, colour, halo: .black)
    }

    /// A mark's shape: circle (launch), triangle (arrows, like the lane's own), diamond
    /// (breakpoint), square (pocket); white inside, the shot's colour around.
    static func drawMark(_ mark: Mark, at c: Point, size r: Double, colour: Colour, on canvas: Canvas) {
        let shape: [Point]
        switch mark {
        case .launch:
            canvas.circle(centre: c, radius: r, fill: .white, stroke: colour, lineWidth: r / 2.5)
            return
        case .arrows: shape = [Point(c.x, c.y - r * 1.2), Point(c.x + r * 1.1, c.y + r * 0.8), Point(c.x - r * 1.1, c.y + r * 0.8)]
        case .breakpoint: shape = [Point(c.x, c.y - r * 1.25), Point(c.x + r * 1.25, c.y), Point(c.x, c.y + r * 1.25), Point(c.x - r * 1.25, c.y)]
        case .pocket: shape = [Point(c.x - r, c.y - r), Point(c.x + r, c.y - r), Point(c.x + r, c.y + r), Point(c.x - r, c.y + r)]
        }
        canvas.polygon(shape, fill: colour)
        let inner = shape.map { Point(c.x + ($0.x - c.x) * 0.55, c.y + ($0.y - c.y) * 0.55) }
        canvas.polygon(inner, fill: .white)
    }

    // MARK: the panel

    /// Each shot's lines for the panel: its number, then speeds, boards, angle, revs and strike
    /// chance, a few to a line; nulls say why once.
    static func legend(_ shots: [JSONValue]) -> [(title: String, colour: Colour, lines: [String])] {
        shots.enumerated().map { index, shot in
            let f = ResultValues.format
            func value(_ key: String) -> Double? { shot[key]?.number }
            var lines: [String] = []
            if value("launchSpeed") != nil || value("impactSpeed") != nil {
                lines.append("launch \(f(value("launchSpeed"), 1, "")) · impact \(f(value("impactSpeed"), 1, "")) mph")
            }
            let boards = [value("arrowBoard").map { "arrows \(f($0, 1, ""))" },
                          value("pocketBoard").map { "pocket \(f($0, 1, "")) (off by \(f(value("pocketOffset"), 1, "")))" }].compactMap { $0 }
            if !boards.isEmpty { lines.append("board at " + boards.joined(separator: " · ")) }
            let path = [value("breakpointBoard").map { "breakpoint board \(f($0, 1, "")) at \(f(value("breakpointDistance"), 0, " ft"))" },
                        value("entryAngle").map { "entry \(f($0, 1, "°"))" }].compactMap { $0 }
            if !path.isEmpty { lines.append(path.joined(separator: " · ")) }
            let finish = [value("revRate").map { "\(f($0, 0, " rpm"))" + (ResultValues.text(shot, "revCategory").map { " (\($0))" } ?? "") },
                          value("strikeProbability").map { "strike chance \(f($0 * 100, 0, " %"))" }].compactMap { $0 }
            if !finish.isEmpty { lines.append(finish.joined(separator: " · ")) }
            if let end = ResultValues.text(shot, "result") { lines.append("ended: \(end)") }
            if lines.isEmpty { lines.append("no calibration: path in pixels only") }
            let title = "Shot \(number(shot, index))" + (shot["startTime"]?.number.map { String(format: " · %.2f s", $0) } ?? "")
            return (title, Colour.series(index), lines)
        }
    }

    static let lineFont = Font(size: 13), titleFont = Font(size: 15, bold: true)
    /// Room for text in a column of the panel.
    static let textWidth = panelWidth - 30

    /// `legend` with each line broken where it is wider than the panel's column, so nothing is cut.
    static func wrapped(_ legend: [(title: String, colour: Colour, lines: [String])]) throws -> [(title: String, colour: Colour, lines: [String])] {
        let measure = try Canvas.image(width: 1, height: 1)
        return legend.map { entry in
            (entry.title, entry.colour, entry.lines.flatMap { measure.wrapped($0, font: lineFont, width: textWidth - 2) })
        }
    }

    static let lineHeight = 17.0, titleHeight = 21.0, shotGap = 10.0, keyHeight = 110.0, topGap = 24.0
    /// Columns of shots beside the frame before the panel grows taller than the frame instead.
    static let maxPanelColumns = 4

    /// One shot's height in the panel (unscaled).
    static func entryHeight(_ entry: (title: String, colour: Colour, lines: [String])) -> Double {
        titleHeight + Double(entry.lines.count) * lineHeight + shotGap
    }

    /// Which shots go in which column (in order, each column filled before the next), and the
    /// panel's height (unscaled), beside a frame of `frame` size in the panel's units. The panel
    /// grows below the frame while the picture stays no taller than it is wide (a report shows
    /// it as large as that), then takes another column, up to `maxPanelColumns`, and then grows
    /// as tall as it takes. The key to the marks takes the foot.
    static func panelLayout(_ entries: [Double], frame: (width: Double, height: Double)) -> (columns: [[Int]], height: Double) {
        func fill(_ room: Double) -> [[Int]] {
            var columns: [[Int]] = [[]], used = 0.0
            for (index, entry) in entries.enumerated() {
                if used + entry > room, !columns[columns.count - 1].isEmpty {
                    columns.append([])
                    used = 0
                }
                columns[columns.count - 1].append(index)
                used += entry
            }
            return columns
        }
        let tallest = entries.max() ?? 0
        for count in 1...maxPanelColumns {
            let height = max(frame.height, 0.8 * (frame.width + Double(count) * panelWidth))
            let columns = fill(max(height - topGap - keyHeight, tallest))
            if columns.count <= count {
                let used = columns.map { $0.reduce(0) { $0 + entries[$1] } }.max() ?? 0
                return (columns, max(frame.height, topGap + used + keyHeight))
            }
        }
        var room = max(frame.height - topGap - keyHeight, tallest)
        var columns = fill(room)
        while columns.count > maxPanelColumns {
            room += lineHeight
            columns = fill(room)
        }
        return (columns, max(frame.height, topGap + room + keyHeight))
    }

    /// The panel in its own units: `panelWidth` a column of shots, `height` tall, its top left at (0, 0).
    static func drawPanel(_ legend: [(title: String, colour: Colour, lines: [String])], columns: [[Int]], height: Double, on canvas: Canvas) {
        var lowest = 0.0
        for (column, shots) in columns.enumerated() {
            let x = Double(column) * panelWidth + 18
            var y = topGap + 4
            for shot in shots.map({ legend[$0] }) {
                canvas.text(shot.title, at: Point(x, y), font: titleFont, shot.colour)
                y += titleHeight
                for line in shot.lines {
                    canvas.text(line, at: Point(x + 2, y), font: lineFont, .white)
                    y += lineHeight
                }
                y += shotGap
            }
            lowest = max(lowest, y)
        }
        // The key to the marks, at the panel's foot.
        let x = 18.0
        var keyY = max(lowest + 6, height - keyHeight + 14)
        canvas.line(from: Point(x, keyY - 16), to: Point(panelWidth - 12, keyY - 16), Colour.white.with(alpha: 0.3), width: 1)
        for mark in Mark.allCases {
            drawMark(mark, at: Point(x + 8, keyY - 4), size: 6, colour: Colour(0x98a2b3), on: canvas)
            canvas.text(mark.name, at: Point(x + 24, keyY + 1), font: Font(size: 13), .white)
            keyY += 21
        }
    }

    // MARK: the report

    public func totals(_ rows: [JSONValue]) -> [Total] {
        let f = ResultValues.format, mean = ResultValues.mean
        func values(_ key: String) -> [Double?] { rows.map { $0[key]?.number } }
        let gutters = rows.filter { ResultValues.text($0, "result") == "gutter" }.count
        return [
            Total("Shots", "\(rows.count)"),
            Total("Gutter balls", "\(gutters)"),
            Total("Launch speed (mean)", f(mean(values("launchSpeed")), 1, " mph")),
            Total("Impact speed (mean)", f(mean(values("impactSpeed")), 1, " mph")),
            Total("Arrows board (mean)", f(mean(values("arrowBoard")), 1, "")),
            Total("Breakpoint board (mean)", f(mean(values("breakpointBoard")), 1, "")),
            Total("Pocket offset (mean)", f(mean(values("pocketOffset")), 1, " boards")),
            Total("Entry angle (mean)", f(mean(values("entryAngle")), 1, "°")),
            Total("Rev rate (mean)", f(mean(values("revRate")), 0, " rpm")),
            Total("Strike chance (mean)", f(mean(values("strikeProbability")).map { $0 * 100 }, 0, " %")),
        ]
    }

    public var columns: [ReportColumn] {
        let f = ResultValues.format
        return [
            ReportColumn("#", weight: 0.5) { f($0["shotNumber"]?.number, 0, "") },
            ReportColumn("Start\ns", weight: 0.9) { f($0["startTime"]?.number, 2, "") },
            ReportColumn("Launch\nmph") { f($0["launchSpeed"]?.number, 1, "") },
            ReportColumn("Impact\nmph") { f($0["impactSpeed"]?.number, 1, "") },
            ReportColumn("Arrows\nboard", weight: 0.8) { f($0["arrowBoard"]?.number, 1, "") },
            ReportColumn("Breakpoint\nboard @ ft", weight: 1.3) { row in
                guard let board = row["breakpointBoard"]?.number else { return ResultValues.missing }
                return f(board, 1, "") + " @ " + f(row["breakpointDistance"]?.number, 0, " ft")
            },
            ReportColumn("Pocket\nboard", weight: 0.8) { f($0["pocketBoard"]?.number, 1, "") },
            ReportColumn("Entry\n°", weight: 0.8) { f($0["entryAngle"]?.number, 1, "") },
            ReportColumn("Revs\nrpm", weight: 0.8) { f($0["revRate"]?.number, 0, "") },
            ReportColumn("Strike\n%", weight: 0.8) { f($0["strikeProbability"]?.number.map { $0 * 100 }, 0, "") },
            ReportColumn("Result", weight: 0.9) { ResultValues.text($0, "result") ?? ResultValues.missing },
        ]
    }
}
