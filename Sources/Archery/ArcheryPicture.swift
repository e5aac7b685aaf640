import Foundation
import Media
import Pictures
import ReelworkCore

/// Archery (seed 002): the photo (or the video's frame once every arrow is in) with the face found
/// and each arrow marked, and beside it the face rectified: the frame's pixels warped frontal by
/// the result's homography, the scoring rings drawn over it, each arrow at its normalised place
/// with its number and score. Reads the result document only (`result.face.homography`,
/// `result.arrows[]`).
public struct ArcheryPicture: SportReport {
    public init() {}

    public var rowNoun: String { "arrow" }

    public func rows(in result: JSONValue) -> [JSONValue] { ResultValues.items(result["arrows"]) }

    /// The rectified face's side, in pixels, and how far out it shows (face radii).
    static let faceSide = 600.0, reach = 1.15
    static let header = 46.0, footer = 34.0, gap = 12.0
    static let titleFont = Font(size: 24, bold: true), scoresFont = Font(size: 19)
    /// Each further line of a wrapped title or score list adds this much to its band.
    static let titleLineHeight = 30.0, scoresLineHeight = 25.0
    /// Frames are read this wide at most.
    static let maxFrameWidth = 1600
    static let ringColour = Colour(0x00e5ff), markColour = Colour(0xff2dd4)

    public func picture(result: JSONValue, options: JSONValue, frames: any FrameSource) throws -> Picture? {
        let arrows = rows(in: result)
        let h = ResultValues.items(result["face"]?["homography"]).compactMap(\.number)
        guard h.count == 9, let inverse = Self.inverse(h) else { return nil }
        let display = frames.displaySize
        // A video's end is whole once its last arrow is in; a photo has one frame.
        let time = arrows.compactMap { $0["arrivalTime"]?.number }.max() ?? 0
        let frame = try frames.frame(atSeconds: time, maxWidth: min(display.width, Self.maxFrameWidth))
        let toFrame = Double(frame.width) / Double(max(1, display.width))
        let rectified = Self.rectify(frame, inverse: inverse, scale: toFrame, side: Int(Self.faceSide))
        let photoScale = Self.faceSide / Double(frame.height)
        let photoWidth = (Double(frame.width) * photoScale).rounded()
        let width = photoWidth + Self.gap + Self.faceSide
        let marks = arrows.enumerated().map { index, arrow in Mark(arrow, index: index) }
        // The title and the scores wrap (an end of 24 arrows, a long title): the bands above and
        // below the pictures grow, and nothing is cut. A score's number and value never part.
        let measure = try Canvas.image(width: 1, height: 1)
        let titleLines = measure.wrapped(Self.title(result, arrows: arrows.count), font: Self.titleFont, width: width - 24)
        // Two no-break spaces and a space: entries stay apart on a line and wrap only between them.
        let scores = marks.map { "\($0.number):\u{00A0}\($0.scoreText)" }.joined(separator: "\u{00A0}\u{00A0} ")
        let scoreLines = measure.wrapped(scores.isEmpty ? "No arrows found on the face." : scores, font: Self.scoresFont, width: width - 24)
        let header = Self.header + Double(titleLines.count - 1) * Self.titleLineHeight
        let height = header + Self.faceSide + Self.footer + Double(scoreLines.count - 1) * Self.scoresLineHeight
        let caption = "\(arrows.count) arrow\(arrows.count == 1 ? "" : "s"): left, the \(ResultValues.text(result, "input") == "video" ? "video's frame at \(String(format: "%.2f", frame.time)) s" : "photo") "
            + "with the face found (cyan) and each arrow's impact; right, the face rectified by the fitted homography with the scoring rings, each arrow numbered with its score."
        return Picture(width: width, height: height, caption: caption) { canvas in
            canvas.fill(Rect(x: 0, y: 0, width: width, height: height), .ink)
            for (index, line) in titleLines.enumerated() {
                canvas.text(line, at: Point(12, 32 + Double(index) * Self.titleLineHeight), font: Self.titleFont, .white)
            }
            // The photo, the face's outline and the impacts.
            let photo = Rect(x: 0, y: header, width: photoWidth, height: Self.faceSide)
            canvas.draw(frame, in: photo)
            canvas.withSavedState {
                canvas.clip(photo)
                let k = toFrame * photoScale
                func place(_ p: (x: Double, y: Double)) -> Point { Point(photo.x + p.x * k, photo.y + p.y * k) }
                let outline = (0...120).compactMap { step -> Point? in
                    let a = Double(step) / 120 * 2 * .pi
                    return Self.apply(inverse, cos(a), sin(a)).map(place)
                }
                canvas.polyline(outline, Self.ringColour, width: 2, outline: Colour.black.with(alpha: 0.5))
                var taken: [Rect] = []
                for mark in marks {
                    guard let x = mark.pixelX, let y = mark.pixelY else { continue }
                    Self.drawMark(mark, at: place((x, y)), on: canvas, scoreLabel: false, taken: &taken)
                }
            }
            // The face rectified, its rings and the arrows.
            let face = Rect(x: photoWidth + Self.gap, y: header, width: Self.faceSide, height: Self.faceSide)
            canvas.draw(rectified, in: face)
            let perRadius = Self.faceSide / (2 * Self.reach)
            let centre = Point(face.x + Self.faceSide / 2, face.y + Self.faceSide / 2)
            canvas.withSavedState {
                canvas.clip(face)
                for ring in [0.05] + (1...10).map({ Double($0) / 10 }) {
                    canvas.circle(centre: centre, radius: ring * perRadius, fill: nil, stroke: Self.ringColour.with(alpha: 0.8), lineWidth: 1)
                }
                var taken: [Rect] = []
                for mark in marks {
                    Self.drawMark(mark, at: Point(centre.x + mark.x * perRadius, centre.y + mark.y * perRadius), on: canvas, scoreLabel: true,
                                  taken: &taken)
                }
            }
            for (index, line) in scoreLines.enumerated() {
                canvas.text(line, at: Point(12, header + Self.faceSide + 25 + Double(index) * Self.scoresLineHeight), font: Self.scoresFont, .white)
            }
        }
    }

    /// One arrow as drawn: its number, score, places.
    struct Mark {
        var number: Int
        var x: Double
        var y: Double
        var pixelX: Double?
        var pixelY: Double?
        var score: Int?
        var isX: Bool
        /// A person should look at it: it carries `review` reasons (an older result without
        /// `review`: its confidence was capped at 0.5 on a line).
        var needsCheck: Bool

        init(_ arrow: JSONValue, index: Int) {
            number = ResultValues.number(arrow, "arrowNumber").map { Int($0) } ?? index + 1
            x = ResultValues.number(arrow, "normalizedX") ?? .nan
            y = ResultValues.number(arrow, "normalizedY") ?? .nan
            pixelX = ResultValues.number(arrow, "pixelX")
            pixelY = ResultValues.number(arrow, "pixelY")
            score = ResultValues.number(arrow, "score").map { Int($0) }
            isX = arrow["isXRing"] == .bool(true) || arrow["isX"] == .bool(true)
            if case .array(let reasons)? = arrow["review"] {
                needsCheck = !reasons.isEmpty
            } else {
                needsCheck = (ResultValues.number(arrow, "confidence") ?? 1) <= 0.5
            }
        }

        /// "X", "10" … "1", "M" for a miss, as archers write them.
        var scoreText: String {
            guard let score else { return ResultValues.missing }
            return isX ? "X" : score == 0 ? "M" : "\(score)"
        }
    }

    /// The impact, and its label where it overlaps no label drawn before (above right, below
    /// right, above left, below left of it, else above right anyway): arrows in a group stay readable.
    static func drawMark(_ mark: Mark, at point: Point, on canvas: Canvas, scoreLabel: Bool, taken: inout [Rect]) {
        guard point.x.isFinite, point.y.isFinite else { return }
        canvas.circle(centre: point, radius: 6, fill: markColour, stroke: .white, lineWidth: 2)
        // Large enough to read in a report, where the picture is shown at about a third of its size.
        let font = Font(size: 20, bold: true)
        let label = scoreLabel ? "\(mark.number) · \(mark.scoreText)\(mark.needsCheck ? "?" : "")" : "\(mark.number)"
        let width = canvas.textWidth(label, font: font), height = font.size
        let baselines = [Point(point.x + 10, point.y - 8), Point(point.x + 10, point.y + 8 + height),
                         Point(point.x - 10 - width, point.y - 8), Point(point.x - 10 - width, point.y + 8 + height)]
        func box(_ p: Point) -> Rect { Rect(x: p.x - 2, y: p.y - height, width: width + 4, height: height + 4) }
        func overlaps(_ a: Rect, _ b: Rect) -> Bool { a.x < b.maxX && b.x < a.maxX && a.y < b.maxY && b.y < a.maxY }
        let at = baselines.first { p in !taken.contains { overlaps($0, box(p)) } } ?? baselines[0]
        taken.append(box(at))
        canvas.text(label, at: at, font: font, .white, halo: .black)
    }

    static func title(_ result: JSONValue, arrows: Int) -> String {
        let f = ResultValues.format
        var parts = ["End: \(arrows) arrow\(arrows == 1 ? "" : "s")", "total \(f(ResultValues.number(result, "total"), 0, ""))",
                     "\(f(ResultValues.number(result, "xCount"), 0, "")) X",
                     ResultValues.number(result, "tens").map { "\(Int($0)) ten\($0 == 1 ? "" : "s") (X included)" } ?? "– tens"]
        if let missing = ResultValues.number(result, "missingArrows") { parts.append("\(Int(missing)) missing") }
        return parts.joined(separator: " · ")
    }

    /// The face warped frontal: each pixel of a `side` × `side` square over ±`reach` face radii
    /// (y down, as the result's coordinates and the picture's rows) sampled (bilinear) from where the
    /// homography's inverse puts it in the frame.
    static func rectify(_ frame: FramePixels, inverse: [Double], scale: Double, side: Int) -> FramePixels {
        var out = [UInt8](repeating: 40, count: side * side * 3)
        let step = 2 * reach / Double(side)
        frame.rgb.withUnsafeBufferPointer { rgb in
            for row in 0..<side {
                let fy = -reach + (Double(row) + 0.5) * step
                for column in 0..<side {
                    let fx = -reach + (Double(column) + 0.5) * step
                    guard let p = apply(inverse, fx, fy) else { continue }
                    let x = p.x * scale - 0.5, y = p.y * scale - 0.5
                    guard x >= 0, y >= 0, x < Double(frame.width - 1), y < Double(frame.height - 1) else { continue }
                    let x0 = Int(x), y0 = Int(y), ax = x - Double(x0), ay = y - Double(y0)
                    let i = (y0 * frame.width + x0) * 3, below = frame.width * 3, o = (row * side + column) * 3
                    for c in 0..<3 {
                        let top = Double(rgb[i + c]) * (1 - ax) + Double(rgb[i + 3 + c]) * ax
                        let bottom = Double(rgb[i + below + c]) * (1 - ax) + Double(rgb[i + below + 3 + c]) * ax
                        out[o + c] = UInt8(max(0, min(255, (top * (1 - ay) + bottom * ay).rounded())))
                    }
                }
            }
        }
        return FramePixels(width: side, height: side, time: frame.time, rgb: out)
    }

    /// `m` (row-major 3 × 3) applied to (x, y, 1); nil at or behind the horizon.
    static func apply(_ m: [Double], _ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let w = m[6] * x + m[7] * y + m[8]
        guard abs(w) > 1e-12 else { return nil }
        let px = (m[0] * x + m[1] * y + m[2]) / w, py = (m[3] * x + m[4] * y + m[5]) / w
        return px.isFinite && py.isFinite ? (px, py) : nil
    }

    /// The inverse of a row-major 3 × 3 matrix; nil when it is singular or not finite.
    static func inverse(_ m: [Double]) -> [Double]? {
        let (a, b, c, d, e, f, g, h, i) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        return [(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
                (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
                (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]
    }

    // MARK: the report

    public func totals(_ rows: [JSONValue]) -> [Total] {
        let marks = rows.enumerated().map { Mark($1, index: $0) }
        let scores = marks.compactMap(\.score)
        let total = scores.reduce(0, +)
        return [
            Total("Arrows", "\(rows.count)"),
            Total("Total", "\(total)"),
            Total("X", "\(marks.filter(\.isX).count)"),
            Total("10s (X included)", "\(scores.filter { $0 == 10 }.count)"),
            Total("Average per arrow", scores.isEmpty ? ResultValues.missing : String(format: "%.2f", Double(total) / Double(scores.count))),
            Total("To review", "\(marks.filter(\.needsCheck).count)"),
        ]
    }

    public var columns: [ReportColumn] {
        let f = ResultValues.format
        return [
            ReportColumn("#", weight: 0.5) { f($0["arrowNumber"]?.number, 0, "") },
            ReportColumn("Score", weight: 0.7) { Mark($0, index: 0).scoreText },
            ReportColumn("x\nface radii") { f(ResultValues.number($0, "normalizedX"), 3, "") },
            ReportColumn("y\nface radii") { f(ResultValues.number($0, "normalizedY"), 3, "") },
            ReportColumn("From centre\nface radii", weight: 1.2) { f(ResultValues.number($0, "distanceFromCenter"), 3, "") },
            ReportColumn("Clock\n°") { f(ResultValues.number($0, "clockPositionDeg"), 0, "") },
            ReportColumn("Confidence", weight: 1.1) { f(ResultValues.number($0, "confidence"), 2, "") },
            ReportColumn("Arrival\ns") { f(ResultValues.number($0, "arrivalTime"), 2, "") },
        ]
    }
}
