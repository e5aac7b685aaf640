import Foundation
import Media
import Pictures
import ReelworkCore

/// Basketball (seed 001): a frame of the session with the rim marked and every attempt's flight
/// (green made, red missed), beside a shot chart by distance from the rim: one dot per attempt,
/// filled when made and open when missed, stacked by foot, with the three-point line. Reads the
/// result document only (`result.hoop`, `result.shots[]`, `result.threePointDistanceFt`).
public struct BasketballPicture: SportReport, SessionStatsTable {
    public init() {}

    public var rowNoun: String { "shot" }

    public func rows(in result: JSONValue) -> [JSONValue] { ResultValues.items(result["shots"]) }

    /// Frames wider than this are drawn scaled down (pixels of the picture).
    static let maxFrameWidth = 1280
    static let chartWidth = 420.0
    static let made = Colour(0x34c759), missed = Colour(0xff453a)

    public func picture(result: JSONValue, options: JSONValue, frames: any FrameSource) throws -> Picture? {
        let shots = rows(in: result)
        guard !shots.isEmpty else { return nil }
        let display = frames.displaySize
        let start = ResultValues.number(shots.first, "releaseTime") ?? 0
        let frame = try frames.frame(atSeconds: start, maxWidth: min(display.width, Self.maxFrameWidth))
        let scale = Double(frame.width) / Double(max(1, display.width))
        let unit = max(1, Double(frame.width) / 640)
        let frameWidth = Double(frame.width), frameHeight = Double(frame.height)
        // The chart keeps its text size beside a large frame.
        let chartScale = max(1, frameHeight / 480)
        let chartHeight = max(frameHeight / chartScale, 360)
        let width = frameWidth + Self.chartWidth * chartScale, height = max(frameHeight, chartHeight * chartScale)
        let threePoint = ResultValues.number(result, "threePointDistanceFt") ?? 22.15
        let madeCount = shots.filter { $0["made"] == .bool(true) }.count
        let caption = "\(shots.count) shot\(shots.count == 1 ? "" : "s"), \(madeCount) made, over the frame at \(String(format: "%.2f", frame.time)) s "
            + "with the rim marked; beside it the shot chart by distance (filled: made, open: missed) with the \(CSV.number(threePoint)) ft three-point line."
        let rim = Self.rim(result)
        return Picture(width: width, height: height, caption: caption) { canvas in
            canvas.fill(Rect(x: 0, y: 0, width: width, height: height), .ink)
            canvas.draw(frame, in: Rect(x: 0, y: 0, width: frameWidth, height: frameHeight))
            for (index, shot) in shots.enumerated() {
                Self.drawFlight(shot, number: Self.number(shot, index), scale: scale, unit: unit, on: canvas)
            }
            if let rim {
                let left = Point(rim.left.x * scale, rim.left.y * scale), right = Point(rim.right.x * scale, rim.right.y * scale)
                canvas.line(from: left, to: right, .white, width: 3 * unit)
                for end in [left, right] { canvas.circle(centre: end, radius: 3.5 * unit, fill: .white, stroke: .black, lineWidth: unit) }
                canvas.text("rim", at: Point(right.x + 6 * unit, right.y + 4 * unit), font: Font(size: 12 * unit, bold: true), .white, halo: .black)
            }
            canvas.withSavedState {
                canvas.transform(offset: Point(frameWidth, 0), scale: chartScale)
                Self.drawChart(shots, threePoint: threePoint, height: height / chartScale, on: canvas)
            }
        }
    }

    static func number(_ shot: JSONValue, _ index: Int) -> Int {
        ResultValues.number(shot, "shotNumber").map { Int($0) } ?? index + 1
    }

    static func isMade(_ shot: JSONValue) -> Bool { shot["made"] == .bool(true) }

    static func rim(_ result: JSONValue) -> (left: Point, right: Point)? {
        guard let left = point(result["hoop"]?["rimLeft"]), let right = point(result["hoop"]?["rimRight"]) else { return nil }
        return (left, right)
    }

    /// `[x, y]`, or nil.
    static func point(_ value: JSONValue?) -> Point? {
        let items = ResultValues.items(value)
        guard items.count >= 2, let x = items[0].number, let y = items[1].number else { return nil }
        return Point(x, y)
    }

    /// `trajectory` points `[t, x, y]` in displayed pixels.
    static func path(_ shot: JSONValue) -> [Point] {
        ResultValues.items(shot["trajectory"]).compactMap { p in
            let items = ResultValues.items(p)
            guard items.count >= 3, let x = items[1].number, let y = items[2].number else { return nil }
            return Point(x, y)
        }
    }

    /// The flight from release on, in the shot's colour, with the release marked as on the chart
    /// (filled made, open missed) and the shot's number beside it.
    static func drawFlight(_ shot: JSONValue, number: Int, scale: Double, unit: Double, on canvas: Canvas) {
        let colour = isMade(shot) ? made : missed
        let points = path(shot).map { Point($0.x * scale, $0.y * scale) }
        if points.count > 1 { canvas.polyline(points, colour, width: 2.5 * unit, outline: Colour.black.with(alpha: 0.55)) }
        guard let release = point(shot["releasePoint"]).map({ Point($0.x * scale, $0.y * scale) }) ?? points.first else { return }
        drawDot(at: release, radius: 5 * unit, made: isMade(shot), colour: colour, on: canvas)
        canvas.text("\(number)", at: Point(release.x - 8 * unit, release.y - 9 * unit), font: Font(size: 13 * unit, bold: true), colour,
                    anchor: .end, halo: .black)
    }

    static func drawDot(at centre: Point, radius: Double, made: Bool, colour: Colour, on canvas: Canvas) {
        if made {
            canvas.circle(centre: centre, radius: radius, fill: colour, stroke: .black, lineWidth: radius / 4)
        } else {
            canvas.circle(centre: centre, radius: radius, fill: Colour.black.with(alpha: 0.35), stroke: colour, lineWidth: radius / 2.5)
        }
    }

    // MARK: the shot chart

    /// The chart in its own units: `chartWidth` wide, `height` tall, its top left at (0, 0). The
    /// rim at the left, feet to the right; the 2PT zone and the 3PT zone tinted apart.
    static func drawChart(_ shots: [JSONValue], threePoint: Double, height: Double, on canvas: Canvas) {
        let left = 34.0, right = chartWidth - 18, top = 58.0, bottom = height - 128
        let farthest = shots.compactMap { $0["distanceFt"]?.number }.filter(\.isFinite).max() ?? 0
        let maxFeet = max(30, (max(farthest, threePoint) / 5).rounded(.up) * 5 + 2)
        func x(_ feet: Double) -> Double { left + min(max(feet, 0), maxFeet) / maxFeet * (right - left) }
        canvas.text("Shot chart by distance", at: Point(left - 16, 26), font: Font(size: 16, bold: true), .white)
        canvas.text("feet from the rim's centre at release", at: Point(left - 16, 44), font: Font(size: 12), Colour(0x98a2b3))
        // Zones, the line, the axis.
        canvas.fill(Rect(x: x(0), y: top, width: x(threePoint) - x(0), height: bottom - top), Colour(0xffffff, alpha: 0.05))
        canvas.fill(Rect(x: x(threePoint), y: top, width: x(maxFeet) - x(threePoint), height: bottom - top), Colour(0x00c2ff, alpha: 0.10))
        canvas.text("2PT", at: Point((x(0) + x(threePoint)) / 2, top + 18), font: Font(size: 13, bold: true), Colour(0x98a2b3), anchor: .middle)
        canvas.text("3PT", at: Point((x(threePoint) + x(maxFeet)) / 2, top + 18), font: Font(size: 13, bold: true), Colour(0x7fd8ff), anchor: .middle)
        canvas.line(from: Point(x(threePoint), top - 4), to: Point(x(threePoint), bottom), Colour(0x00c2ff), width: 2)
        canvas.text("\(CSV.number(threePoint)) ft", at: Point(x(threePoint), top - 8), font: Font(size: 11), Colour(0x7fd8ff), anchor: .middle)
        canvas.line(from: Point(x(0), bottom), to: Point(x(maxFeet), bottom), .white, width: 1.5)
        for feet in stride(from: 0.0, through: maxFeet, by: 5) {
            canvas.line(from: Point(x(feet), bottom), to: Point(x(feet), bottom + 5), .white, width: 1)
            canvas.text(CSV.number(feet), at: Point(x(feet), bottom + 18), font: Font(size: 11), .white, anchor: .middle)
        }
        // The hoop at 0 ft.
        canvas.line(from: Point(x(0), top), to: Point(x(0), bottom), Colour(0xff9f0a), width: 3)
        canvas.text("rim", at: Point(x(0) + 4, bottom - 6), font: Font(size: 11), Colour(0xff9f0a))
        // One dot per attempt, made ones first, each on the lowest level where it overlaps no other.
        let radius = 8.5, step = radius * 2 + 2
        var placed: [(x: Double, level: Int)] = []
        let ordered = shots.enumerated().sorted { (isMade($0.element) ? 0 : 1, $0.offset) < (isMade($1.element) ? 0 : 1, $1.offset) }
        for (index, shot) in ordered {
            guard let feet = shot["distanceFt"]?.number, feet.isFinite else { continue }
            let cx = x(feet)
            let level = (0...).first { level in !placed.contains { $0.level == level && abs($0.x - cx) < 2 * radius + 1 } }!
            placed.append((cx, level))
            let centre = Point(cx, max(top + 30, bottom - radius - 3 - Double(level) * step))
            drawDot(at: centre, radius: radius, made: isMade(shot), colour: isMade(shot) ? made : missed, on: canvas)
            // The shot's number, as beside its flight on the frame.
            canvas.text("\(number(shot, index))", at: Point(centre.x, centre.y + 3.5), font: Font(size: 9.5, bold: true),
                        isMade(shot) ? .black : .white, anchor: .middle)
        }
        // The key and the session's line.
        var y = bottom + 46
        drawDot(at: Point(left - 8, y - 4), radius: 6.5, made: true, colour: made, on: canvas)
        canvas.text("made", at: Point(left + 4, y), font: Font(size: 13), .white)
        drawDot(at: Point(left + 70, y - 4), radius: 6.5, made: false, colour: missed, on: canvas)
        canvas.text("missed", at: Point(left + 82, y), font: Font(size: 13), .white)
        y += 24
        let stats = ShotTotals(shots)
        for line in ["FG \(stats.made)/\(stats.attempted) (\(percent(stats.made, of: stats.attempted)))  ·  3PT \(stats.threesMade)/\(stats.threes) (\(percent(stats.threesMade, of: stats.threes)))",
                     "eFG \(String(format: "%.1f %%", stats.effectivePercentage))  ·  \(stats.points) points"] {
            canvas.text(canvas.fitted(line, font: Font(size: 13), width: chartWidth - left), at: Point(left - 16, y), font: Font(size: 13), .white)
            y += 19
        }
    }

    static func percent(_ made: Int, of attempted: Int) -> String {
        String(format: "%.1f %%", attempted > 0 ? Double(made) / Double(attempted) * 100 : 0)
    }

    /// Seed 001's field-goal totals over `rows` (one session's or a batch's): counts add, percentages
    /// come from the sums (made ÷ attempted × 100, 0 with no attempt; eFG% = (FGM + 0.5 × 3PM) ÷ FGA).
    struct ShotTotals {
        var attempted = 0, made = 0, threes = 0, threesMade = 0
        init(_ rows: [JSONValue]) {
            for row in rows {
                let three = ResultValues.text(row, "shotType") == "3PT", hit = BasketballPicture.isMade(row)
                attempted += 1
                made += hit ? 1 : 0
                threes += three ? 1 : 0
                threesMade += three && hit ? 1 : 0
            }
        }
        var effectivePercentage: Double { attempted > 0 ? (Double(made) + 0.5 * Double(threesMade)) / Double(attempted) * 100 : 0 }
        var points: Int { 2 * (made - threesMade) + 3 * threesMade }
    }

    // MARK: the report

    /// Seed 001's shooting line: attempts, makes and percentages, eFG% and points.
    public func totals(_ rows: [JSONValue]) -> [Total] {
        let s = ShotTotals(rows)
        let p = Self.percent
        return [
            Total("Field goals (FGM/FGA)", "\(s.made)/\(s.attempted)"),
            Total("Field goal %", p(s.made, s.attempted)),
            Total("2PT (made/attempted)", "\(s.made - s.threesMade)/\(s.attempted - s.threes)"),
            Total("3PT (made/attempted)", "\(s.threesMade)/\(s.threes)"),
            Total("3PT %", p(s.threesMade, s.threes)),
            Total("Effective FG % (eFG%)", String(format: "%.1f %%", s.effectivePercentage)),
            Total("Points", "\(s.points)"),
            Total("Mean distance", ResultValues.format(ResultValues.mean(rows.map { $0["distanceFt"]?.number }), 1, " ft")),
        ]
    }

    /// A batch's stats table: seed 001's shooting line for each session and for the whole batch.
    public var statsColumns: [ReportColumn] {
        let f = ResultValues.format
        return [
            ReportColumn("Session", weight: 2.6) { ResultValues.text($0, "name") ?? "" },
            ReportColumn("FG\nmade/att.") { Self.pair($0, "fieldGoalsMade", "fieldGoalsAttempted") },
            ReportColumn("FG %", weight: 0.8) { f($0["fieldGoalPercentage"]?.number, 1, "") },
            ReportColumn("3PT\nmade/att.") { Self.pair($0, "threePointMade", "threePointAttempted") },
            ReportColumn("3PT %", weight: 0.8) { f($0["threePointPercentage"]?.number, 1, "") },
            ReportColumn("eFG %", weight: 0.8) { f($0["effectiveFieldGoalPercentage"]?.number, 1, "") },
            ReportColumn("Points", weight: 0.8) { f($0["points"]?.number, 0, "") },
        ]
    }

    /// "made/attempted" from a stats row.
    static func pair(_ row: JSONValue, _ made: String, _ attempted: String) -> String {
        ResultValues.format(row[made]?.number, 0, "") + "/" + ResultValues.format(row[attempted]?.number, 0, "")
    }

    /// One line of the stats table: `name` and the totals over `rows` with seed 001's field names.
    public func statsRow(name: String, rows: [JSONValue]) -> JSONValue {
        let s = ShotTotals(rows)
        func pct(_ made: Int, _ attempted: Int) -> Double { attempted > 0 ? Double(made) / Double(attempted) * 100 : 0 }
        return .object([
            "name": .string(name),
            "fieldGoalsAttempted": .number(Double(s.attempted)), "fieldGoalsMade": .number(Double(s.made)),
            "fieldGoalPercentage": .number(pct(s.made, s.attempted)),
            "threePointAttempted": .number(Double(s.threes)), "threePointMade": .number(Double(s.threesMade)),
            "threePointPercentage": .number(pct(s.threesMade, s.threes)),
            "effectiveFieldGoalPercentage": .number(s.effectivePercentage), "points": .number(Double(s.points)),
        ])
    }

    public var columns: [ReportColumn] {
        let f = ResultValues.format
        return [
            ReportColumn("#", weight: 0.5) { f($0["shotNumber"]?.number, 0, "") },
            ReportColumn("Release\ns") { f($0["releaseTime"]?.number, 2, "") },
            ReportColumn("At rim\ns") { f($0["rimTime"]?.number, 2, "") },
            ReportColumn("Result") { row in
                switch row["made"] {
                case .bool(true)?: "made"
                case .bool(false)?: "missed"
                default: ResultValues.missing
                }
            },
            ReportColumn("Type", weight: 0.7) { ResultValues.text($0, "shotType") ?? ResultValues.missing },
            ReportColumn("Distance\nft") { f($0["distanceFt"]?.number, 1, "") },
            ReportColumn("Confidence") { f($0["confidence"]?.number, 2, "") },
        ]
    }
}
