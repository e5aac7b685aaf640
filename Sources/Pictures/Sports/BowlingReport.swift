import Foundation
import Media
import ReelworkCore

/// Bowling (seeds 000, 003): each shot's path over the frame where the first shot starts, with
/// launch, arrows, breakpoint and pocket marked, and a panel beside the frame with each shot's
/// speeds and boards. Reads the result document only (`result.shots[]`), so it can move with the
/// sport.
public struct BowlingReport: SportReport {
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
        // The panel grows with the frame so that its text keeps its size beside it; it lists the
        // shots that fit beside the frame (at least two), the report's table has them all.
        let panelScale = max(1, frameHeight / 540)
        let legend = Self.legend(shots)
        let height = max(frameHeight, Self.panelHeight(Array(legend.prefix(2)), more: legend.count > 2) * panelScale)
        let listed = (1...max(1, legend.count)).last { Self.panelHeight(Array(legend.prefix($0)), more: $0 < legend.count) * panelScale <= height } ?? 1
        let width = frameWidth + Self.panelWidth * panelScale
        let caption = "\(shots.count) shot\(shots.count == 1 ? "" : "s") over the frame at \(String(format: "%.2f", frame.time)) s: "
            + "each path from the foul line to the pins with launch, arrows, breakpoint and pocket marked."
        return Picture(width: width, height: height, caption: caption) { canvas in
            canvas.fill(Rect(x: 0, y: 0, width: width, height: height), .ink)
            canvas.draw(frame, in: Rect(x: 0, y: 0, width: frameWidth, height: frameHeight))
            for (index, path) in paths.enumerated() where !path.isEmpty {
                Self.drawShot(shots[index], path: path, number: Self.number(shots[index], index), colour: .series(index),
                              scale: scale, unit: unit, on: canvas)
            }
            canvas.withSavedState {
                canvas.transform(offset: Point(frameWidth, 0), scale: panelScale)
                Self.drawPanel(Array(legend.prefix(listed)), more: legend.count - listed, height: height / panelScale, on: canvas)
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

    static func drawShot(_ shot: JSONValue, path: [PathPoint], number: Int, colour: Colour, scale: Double, unit: Double, on canvas: Canvas) {
        let points = path.map { Point($0.x * scale, $0.y * scale) }
        canvas.polyline(points, colour, width: 2.5 * unit, outline: Colour.black.with(alpha: 0.55))
        for (mark, point) in marks(shot, path) {
            drawMark(mark, at: Point(point.x * scale, point.y * scale), size: 6 * unit, colour: colour, on: canvas)
        }
        if let last = points.last {
            canvas.text("\(number)", at: Point(last.x + 9 * unit, last.y - 6 * unit), font: Font(size: 13 * unit, bold: true), colour,
                        halo: .black)
        }
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

    /// Each shot's lines for the panel: its number, then speeds and boards; nulls say why once.
    static func legend(_ shots: [JSONValue]) -> [(title: String, colour: Colour, lines: [String])] {
        shots.enumerated().map { index, shot in
            let f = ResultValues.format
            var lines: [String] = []
            let launch = shot["launchSpeed"]?.number, impact = shot["impactSpeed"]?.number
            if launch != nil || impact != nil { lines.append("launch \(f(launch, 1, " mph")) · impact \(f(impact, 1, " mph"))") }
            if let arrows = shot["arrowBoard"]?.number { lines.append("arrows board \(f(arrows, 1, ""))") }
            if let board = shot["breakpointBoard"]?.number {
                lines.append("breakpoint board \(f(board, 1, "")) at \(f(shot["breakpointDistance"]?.number, 0, " ft"))")
            }
            if let pocket = shot["pocketBoard"]?.number {
                lines.append("pocket board \(f(pocket, 1, "")) (off by \(f(shot["pocketOffset"]?.number, 1, "")))")
            }
            if let angle = shot["entryAngle"]?.number { lines.append("entry angle \(f(angle, 1, "°"))") }
            if let rev = shot["revRate"]?.number {
                lines.append("rev rate \(f(rev, 0, " rpm"))" + (ResultValues.text(shot, "revCategory").map { " (\($0))" } ?? ""))
            }
            if let strike = shot["strikeProbability"]?.number { lines.append("strike chance \(f(strike * 100, 0, " %"))") }
            if let end = ResultValues.text(shot, "result") { lines.append("ended: \(end)") }
            if lines.isEmpty { lines.append("no calibration: path in pixels only") }
            let title = "Shot \(number(shot, index))" + (shot["startTime"]?.number.map { String(format: " · %.2f s", $0) } ?? "")
            return (title, Colour.series(index), lines)
        }
    }

    static let lineHeight = 17.0, titleHeight = 21.0, shotGap = 10.0, keyHeight = 110.0, moreHeight = 22.0

    /// The panel's height (unscaled) with `legend` listed, and a line saying more shots are not.
    static func panelHeight(_ legend: [(title: String, colour: Colour, lines: [String])], more: Bool) -> Double {
        24 + legend.reduce(0) { $0 + titleHeight + Double($1.lines.count) * lineHeight + shotGap } + (more ? moreHeight : 0) + keyHeight
    }

    /// The panel in its own units: `panelWidth` wide, `height` tall, its top left at (0, 0).
    static func drawPanel(_ legend: [(title: String, colour: Colour, lines: [String])], more: Int, height: Double, on canvas: Canvas) {
        let origin = Point(0, 0)
        let x = origin.x + 18, textWidth = panelWidth - 30
        var y = origin.y + 28
        for shot in legend {
            canvas.text(shot.title, at: Point(x, y), font: Font(size: 15, bold: true), shot.colour)
            y += titleHeight
            for line in shot.lines {
                canvas.text(canvas.fitted(line, font: Font(size: 13), width: textWidth), at: Point(x + 2, y), font: Font(size: 13), .white)
                y += lineHeight
            }
            y += shotGap
        }
        if more > 0 {
            canvas.text("+ \(more) more shot\(more == 1 ? "" : "s"), drawn but not listed here", at: Point(x, y + 2), font: Font(size: 13), Colour(0x98a2b3))
            y += moreHeight
        }
        // The key to the marks, at the panel's foot.
        var keyY = max(y + 6, origin.y + height - keyHeight + 14)
        canvas.line(from: Point(x, keyY - 16), to: Point(origin.x + panelWidth - 12, keyY - 16), Colour.white.with(alpha: 0.3), width: 1)
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
