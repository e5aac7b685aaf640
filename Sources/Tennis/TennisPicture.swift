import Foundation
import Media
import Pictures
import ReelworkCore

/// Tennis (seed 004): each swing's five keyframes as thumbnails of its own video, cropped around
/// the player, with the dominant wrist's path through the swing drawn on each and the wrist's
/// place at that keyframe marked. Reads the result document only (`result.swings[]` and the
/// player's track in `result.poses[]`).
public struct TennisPicture: SportReport {
    public init() {}

    public var rowNoun: String { "swing" }

    /// The swings, each with its speed's share of its player's fastest swing (`RacketHandSpeed`).
    public func rows(in result: JSONValue) -> [JSONValue] { RacketHandSpeed.annotated(ResultValues.items(result["swings"])) }

    /// Swings drawn: each is five decodes, so a long session shows its first ones (the report's
    /// table has them all).
    static let maxSwings = 6
    static let keyframes = [("preparation", "Preparation"), ("backswing", "Backswing"), ("contact", "Contact"),
                            ("followThrough", "Follow through"), ("recovery", "Recovery")]
    static let thumbWidth = 230.0, gap = 10.0, margin = 16.0, rowTitleHeight = 30.0, labelHeight = 24.0
    /// Frames are decoded this wide at most, then cropped around the player.
    static let maxFrameWidth = 1280
    /// BlazePose's wrists.
    static let leftWrist = 15, rightWrist = 16
    static let minimumVisibility = 0.5
    static let wristColour = Colour(0xffcc00), contactColour = Colour(0xff3b30)

    public func picture(result: JSONValue, options: JSONValue, frames: any FrameSource) throws -> Picture? {
        let swings = Array(rows(in: result).prefix(Self.maxSwings))
        guard swings.contains(where: { $0["keyFrameTimes"] != nil }) else { return nil }
        let all = rows(in: result).count
        let display = (width: Double(frames.displaySize.width), height: Double(frames.displaySize.height))
        let wrist = ResultValues.text(options, "dominantHand") == "left" ? Self.leftWrist : Self.rightWrist
        var drawn: [SwingRow] = []
        for (index, swing) in swings.enumerated() {
            let track = Self.track(result, id: swing["trackId"]?.number.map { Int($0) })
            let start = swing["startTime"]?.number ?? 0, end = swing["endTime"]?.number ?? start
            let window = track.filter { $0.t >= start - 0.05 && $0.t <= end + 0.05 }
            let crop = Self.crop(around: window, display: display)
            var thumbs: [Thumb] = []
            for (key, label) in Self.keyframes {
                guard let t = swing["keyFrameTimes"]?[key]?.number else { continue }
                let frame = try frames.frame(atSeconds: t, maxWidth: min(Int(display.width), Self.maxFrameWidth))
                let wristAt = window.min { abs($0.t - t) < abs($1.t - t) }.flatMap { $0.point(wrist) }
                thumbs.append(Thumb(label: "\(label) · \(String(format: "%.2f s", t))", frame: frame, wrist: wristAt, contact: key == "contact"))
            }
            drawn.append(SwingRow(title: Self.title(swing, index), colour: .series(index), crop: crop,
                                  path: window.compactMap { $0.point(wrist) }, thumbs: thumbs))
        }
        let thumbHeight = (Self.thumbWidth * drawn[0].crop.height / drawn[0].crop.width).rounded()
        let rowHeight = Self.rowTitleHeight + thumbHeight + Self.labelHeight + Self.gap
        let width = Self.margin * 2 + 5 * Self.thumbWidth + 4 * Self.gap
        let footer = all > swings.count ? 26.0 : 0
        let height = Self.margin + Double(drawn.count) * rowHeight + footer
        let tracked = drawn.contains { !$0.path.isEmpty }
        let relative = swings.contains { RacketHandSpeed.speed($0) != nil && !RacketHandSpeed.isMeasured($0) }
        let caption = "\(all) swing\(all == 1 ? "" : "s"): each one's keyframes from the video"
            + (tracked ? ", around the player, with the wrist's path (yellow) and its place at that moment (red at contact)" : " (no pose track in the result: whole frames, no wrist path)")
            + (all > swings.count ? "; the first \(swings.count) are drawn." : ".")
            + (relative ? " Racket-hand speeds are against the player's fastest swing in the clip; with the player's height (option playerHeight) they are in km/h." : "")
        return Picture(width: width, height: height, caption: caption) { canvas in
            canvas.fill(Rect(x: 0, y: 0, width: width, height: height), .white)
            var y = Self.margin
            for row in drawn {
                Self.draw(row, top: y, thumbHeight: thumbHeight, display: display, on: canvas)
                y += rowHeight
            }
            if footer > 0 {
                canvas.text("The first \(swings.count) of \(all) swings are drawn; the report's table lists them all.",
                            at: Point(Self.margin, y + 8), font: Font(size: 13), .muted)
            }
        }
    }

    struct Thumb {
        var label: String
        var frame: FramePixels
        var wrist: Point?
        var contact: Bool
    }

    struct SwingRow {
        var title: String
        var colour: Colour
        /// The part of the video each thumbnail shows, in displayed pixels.
        var crop: Rect
        var path: [Point]
        var thumbs: [Thumb]
    }

    /// One sampled frame of the player's track: time, landmarks as `[x, y, visibility, …]`, box.
    struct TrackFrame {
        var t: Double
        var landmarks: [Double]
        var box: [Double]

        func point(_ landmark: Int) -> Point? {
            let i = landmark * 3
            guard landmarks.count > i + 2, landmarks[i + 2] >= TennisPicture.minimumVisibility else { return nil }
            return Point(landmarks[i], landmarks[i + 1])
        }
    }

    static func track(_ result: JSONValue, id: Int?) -> [TrackFrame] {
        guard let id else { return [] }
        let track = ResultValues.items(result["poses"]).first { $0["trackId"]?.number.map { Int($0) } == id }
        return ResultValues.items(track?["frames"]).compactMap { frame in
            guard let t = frame["t"]?.number else { return nil }
            return TrackFrame(t: t, landmarks: ResultValues.items(frame["landmarks"]).compactMap(\.number),
                              box: ResultValues.items(frame["box"]).compactMap(\.number))
        }
    }

    /// The player through the swing with room around, 4:3 like most clips, inside the frame; the
    /// whole frame when the track is unknown (no poses in the result).
    static func crop(around window: [TrackFrame], display: (width: Double, height: Double)) -> Rect {
        let whole = Rect(x: 0, y: 0, width: display.width, height: display.height)
        let boxes = window.map(\.box).filter { $0.count == 4 }
        guard !boxes.isEmpty else { return whole }
        let x1 = boxes.map { $0[0] }.min()!, y1 = boxes.map { $0[1] }.min()!
        let x2 = boxes.map { $0[2] }.max()!, y2 = boxes.map { $0[3] }.max()!
        var height = (y2 - y1) * 1.3, width = (x2 - x1) * 1.6
        // 4:3, the taller or the wider side deciding.
        if width / height < 4.0 / 3 { width = height * 4 / 3 } else { height = width * 3 / 4 }
        if width > display.width || height > display.height {
            let fit = min(display.width / width, display.height / height)
            (width, height) = (width * fit, height * fit)
        }
        let cx = (x1 + x2) / 2, cy = (y1 + y2) / 2
        let x = min(max(0, cx - width / 2), display.width - width), y = min(max(0, cy - height / 2), display.height - height)
        return Rect(x: x, y: y, width: width, height: height)
    }

    static func title(_ swing: JSONValue, _ index: Int) -> String {
        var parts = ["Swing \(ResultValues.number(swing, "swingNumber").map { Int($0) } ?? index + 1)",
                     ResultValues.text(swing, "type") ?? "swing"]
        if let start = swing["startTime"]?.number, let end = swing["endTime"]?.number {
            parts.append(String(format: "%.2f–%.2f s", start, end))
        }
        if RacketHandSpeed.speed(swing) != nil { parts.append("racket-hand speed: \(RacketHandSpeed.text(swing))") }
        if let turn = ResultValues.number(swing, "metrics", "shoulderTurn") { parts.append("shoulder turn \(degrees(turn))") }
        return parts.joined(separator: " · ")
    }

    static func draw(_ row: SwingRow, top: Double, thumbHeight: Double, display: (width: Double, height: Double), on canvas: Canvas) {
        canvas.fill(Rect(x: margin, y: top + 6, width: 5, height: 17), row.colour)
        canvas.text(row.title, at: Point(margin + 12, top + 20), font: Font(size: 15, bold: true), .ink)
        for (column, thumb) in row.thumbs.enumerated() {
            let cell = Rect(x: margin + Double(column) * (thumbWidth + gap), y: top + rowTitleHeight, width: thumbWidth, height: thumbHeight)
            // Rows share the first row's cell; a crop of another shape is fitted inside it.
            let fit = min(cell.width / row.crop.width, cell.height / row.crop.height)
            let rect = Rect(x: cell.x + (cell.width - row.crop.width * fit) / 2, y: cell.y + (cell.height - row.crop.height * fit) / 2,
                            width: row.crop.width * fit, height: row.crop.height * fit)
            canvas.fill(cell, .ink)
            // The crop in the decoded frame's pixels (it may be smaller than the displayed video).
            let s = Double(thumb.frame.width) / display.width
            canvas.draw(thumb.frame, in: rect, source: Rect(x: row.crop.x * s, y: row.crop.y * s, width: row.crop.width * s, height: row.crop.height * s))
            let k = rect.width / row.crop.width
            func place(_ p: Point) -> Point { Point(rect.x + (p.x - row.crop.x) * k, rect.y + (p.y - row.crop.y) * k) }
            canvas.withSavedState {
                canvas.clip(rect)
                canvas.polyline(row.path.map(place), wristColour, width: 3, outline: Colour.black.with(alpha: 0.5))
                if let wrist = thumb.wrist {
                    canvas.circle(centre: place(wrist), radius: 6, fill: thumb.contact ? contactColour : .white, stroke: .black, lineWidth: 1.5)
                }
            }
            canvas.stroke(cell, thumb.contact ? contactColour : .rule, width: thumb.contact ? 3 : 1)
            canvas.text(thumb.label, at: Point(cell.x, cell.maxY + 16), font: Font(size: 12, bold: thumb.contact), thumb.contact ? contactColour : .ink)
        }
    }

    // MARK: the report

    public func totals(_ rows: [JSONValue]) -> [Total] {
        let f = ResultValues.format, mean = ResultValues.mean
        func metric(_ key: String) -> [Double?] { rows.map { ResultValues.number($0, "metrics", key) } }
        func count(_ type: String) -> Int { rows.filter { ResultValues.text($0, "type") == type }.count }
        return [
            Total("Swings", "\(rows.count)"),
            Total("Forehands", "\(count("forehand"))"),
            Total("Backhands", "\(count("backhand"))"),
            Total("Serves", "\(count("serve"))"),
        ] + RacketHandSpeed.totals(rows) + [
            Total("Shoulder turn (mean)", Self.degrees(mean(metric("shoulderTurn")))),
            Total("Contact height (mean)", f(mean(metric("contactHeight")).map { $0 * 100 }, 0, " % of body height")),
            Total("Follow through (mean)", Self.degrees(mean(metric("followThrough")))),
            Total("Tracking quality (mean)", f(mean(metric("trackingQuality")).map { $0 * 100 }, 0, " %")),
        ]
    }

    /// Degrees as a coach reads them: whole degrees, but a tenth under 10° so that a small angle
    /// (a follow through of 0.3°) does not read as none.
    static func degrees(_ value: Double?, unit: String = "°") -> String {
        guard let value, value.isFinite else { return ResultValues.missing }
        return ResultValues.format(value, abs(value) < 9.95 ? 1 : 0, unit)
    }

    public var columns: [ReportColumn] {
        let f = ResultValues.format
        return [
            ReportColumn("#", weight: 0.5) { f($0["swingNumber"]?.number, 0, "") },
            ReportColumn("Type", weight: 1.1) { ResultValues.text($0, "type") ?? ResultValues.missing },
            ReportColumn("Time\ns", weight: 1.4) { row in
                guard let start = row["startTime"]?.number, let end = row["endTime"]?.number else { return ResultValues.missing }
                return String(format: "%.2f–%.2f", start, end)
            },
            ReportColumn("Contact\ns") { f(ResultValues.number($0, "keyFrameTimes", "contact"), 2, "") },
            ReportColumn("Racket-hand\nspeed", weight: 2) { RacketHandSpeed.text($0) },
            ReportColumn("Shoulder\nturn °") { Self.degrees(ResultValues.number($0, "metrics", "shoulderTurn"), unit: "") },
            ReportColumn("Contact\nheight %") { f(ResultValues.number($0, "metrics", "contactHeight").map { $0 * 100 }, 0, "") },
            ReportColumn("Follow\nthrough °") { Self.degrees(ResultValues.number($0, "metrics", "followThrough"), unit: "") },
            ReportColumn("Tracking\n%") { f(ResultValues.number($0, "metrics", "trackingQuality").map { $0 * 100 }, 0, "") },
        ]
    }
}
