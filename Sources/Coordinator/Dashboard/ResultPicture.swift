import Foundation
import Pictures
import ReelworkCore

/// A succeeded job's result as a picture, where people would rather look than read: bowling shots
/// drawn over a frame of their own video (the path with launch, arrows, breakpoint and pocket marked,
/// each shot's speed and boards beside it) and as paths on a top-down lane; tennis swings as their
/// keyframes' thumbnails and on the clip's time line; an archery end and a basketball session as
/// the sport's own PNG (the face rectified with each arrow's score; the shot chart), from
/// `pictureHref`. HTML with SVG drawn on the server; stills come from `frameHref`
/// (`?t=SECONDS&w=PIXELS`). Nil for a result with nothing to draw.
enum ResultPicture {
    struct Picture {
        var html: String
        var caption: String
    }

    /// What the picture needs of the job besides its result.
    struct Source {
        /// The job's still route, e.g. `/dashboard/jobs/ID/frame.png`.
        var frameHref: String
        /// The job's picture route, e.g. `/dashboard/jobs/ID/picture.png`.
        var pictureHref: String
        var video: VideoFacts?
    }

    static func picture(sport: String, result: JSONValue, source: Source) -> Picture? {
        switch sport {
        case "bowling": bowling(result, source)
        case "tennis": tennis(result, source)
        case "archery": archery(result, source)
        case "basketball": basketball(result, source)
        default: nil
        }
    }

    // MARK: archery and basketball: the sport's own PNG

    static func archery(_ result: JSONValue, _ source: Source) -> Picture? {
        guard case .array(let arrows)? = result["arrows"], !arrows.isEmpty, let total = result["total"]?.number else { return nil }
        let scores = arrows.map { $0["isXRing"] == .bool(true) ? "X" : $0["score"]?.number.map { $0 == 0 ? "M" : "\(Int($0))" } ?? "?" }
        return sportPicture(source, alt: "the target face with each arrow and its score",
                            caption: "End: \(arrows.count) arrow\(arrows.count == 1 ? "" : "s"), total \(Int(total)) (\(scores.joined(separator: " ")))")
    }

    static func basketball(_ result: JSONValue, _ source: Source) -> Picture? {
        guard case .array(let shots)? = result["shots"], !shots.isEmpty else { return nil }
        let stats = result["stats"]
        let made = stats?["fieldGoalsMade"]?.number.map { Int($0) } ?? 0, points = stats?["points"]?.number.map { Int($0) } ?? 0
        return sportPicture(source, alt: "each shot's flight over a frame of the video, and the shot chart by distance",
                            caption: "\(shots.count) shot\(shots.count == 1 ? "" : "s"), \(made) made, \(points) points")
    }

    static func sportPicture(_ source: Source, alt: String, caption: String) -> Picture {
        Picture(html: #"<img src="\#(source.pictureHref)" alt="\#(alt)" id="result-picture" class="sport-picture">"#, caption: caption)
    }

    // MARK: bowling

    static let boardPx = 5.0, footPx = 8.0, laneLeft = 40.0, laneTop = 20.0
    static let laneWidth = 39 * boardPx, laneLength = 60 * footPx
    static let shotColours = ["#2457c5", "#c0392b", "#1a7f37", "#8e44ad", "#d35400", "#16a085"]

    static func x(board: Double) -> Double { laneLeft + (39.5 - board) * boardPx }   // board 1 on the right
    static func y(feet: Double) -> Double { laneTop + laneLength - feet * footPx }

    static func bowling(_ result: JSONValue, _ source: Source) -> Picture? {
        guard case .array(let shots)? = result["shots"], !shots.isEmpty else { return nil }
        let overFrame = source.video.flatMap { pathsOverFrame(shots, video: $0, frameHref: source.frameHref) }
        let caption = (overFrame == nil ? "" : "Each shot's tracked path over a frame of the video, then ") +
            "\(shots.count) shot(s) from above: the ball's path from the foul line (bottom) to the pins, with launch, arrows, breakpoint and pocket marked."
        return Picture(html: (overFrame.map { [$0] } ?? []).joined() + laneDiagram(shots), caption: caption)
    }

    /// The paths in the video's own pixels over the frame where the first shot starts.
    static func pathsOverFrame(_ shots: [JSONValue], video: VideoFacts, frameHref: String) -> String? {
        let turned = video.rotation == 90 || video.rotation == 270
        let width = Double(turned ? video.height : video.width), height = Double(turned ? video.width : video.height)
        guard width > 0, height > 0 else { return nil }
        let shown = min(width, 960), unit = max(1, width / 480)
        let time = shots.first?["startTime"]?.number ?? 0
        var s: [String] = []
        s.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(shown))" height="\##(Int(shown * height / width))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="bowling shots over a frame of the video" id="result-picture" class="over-frame">"##)
        s.append(##"<image href="\##(frameHref)?t=\##(String(format: "%.3f", time))&amp;w=\##(Int(shown))" x="0" y="0" width="\##(Int(width))" height="\##(Int(height))" preserveAspectRatio="none"/>"##)
        for (index, shot) in shots.enumerated() {
            let colour = shotColours[index % shotColours.count]
            let points: [(x: Double, y: Double, feet: Double?)] = (shot["trajectory"]?.items ?? []).compactMap { p in
                guard let x = p["x"]?.number, let y = p["y"]?.number else { return nil }
                return (x, y, p["distanceFt"]?.number)
            }
            guard let first = points.first, let last = points.last else { continue }
            let d = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f($0.element.x)) \(f($0.element.y))" }.joined(separator: " ")
            s.append(##"<path class="ball-path" d="\##(d)" fill="none" stroke="\##(colour)" stroke-width="\##(f(unit * 2))" stroke-linejoin="round" opacity="0.9"/>"##)
            func mark(_ point: (x: Double, y: Double, feet: Double?)?, _ label: String) {
                guard let point else { return }
                s.append(##"<circle cx="\##(f(point.x))" cy="\##(f(point.y))" r="\##(f(unit * 4))" fill="#fff" stroke="\##(colour)" stroke-width="\##(f(unit * 1.5))"><title>\##(label)</title></circle>"##)
            }
            func nearest(_ feet: Double?) -> (x: Double, y: Double, feet: Double?)? {
                guard let feet else { return nil }
                return points.filter { $0.feet != nil }.min { abs($0.feet! - feet) < abs($1.feet! - feet) }
            }
            mark(first, "launch")
            mark(nearest(shot["arrowBoard"]?.number == nil ? nil : 15), "at the arrows")
            mark(nearest(shot["breakpointDistance"]?.number), "breakpoint")
            mark(shot["pocketBoard"]?.number == nil ? nil : last, "pocket")
            let number = shot["shotNumber"]?.number.map { Int($0) } ?? index + 1
            // Shots often end near one another: each label sits a line lower than the one before.
            s.append(##"<text x="\##(f(last.x + unit * 6))" y="\##(f(last.y + Double(index) * unit * 12))" font-size="\##(f(unit * 11))" font-weight="bold" fill="\##(colour)" stroke="#fff" stroke-width="\##(f(unit * 0.6))" paint-order="stroke">Shot \##(number)</text>"##)
        }
        s.append("</svg>")
        return s.joined(separator: "\n")
    }

    /// The shots from above, board 1 on the right, with each shot's speed and boards beside the lane.
    static func laneDiagram(_ shots: [JSONValue]) -> String {
        var s: [String] = []
        let width = laneLeft + laneWidth + 300, height = laneTop + laneLength + 30
        s.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="bowling shots on the lane" class="lane-diagram">"##)
        s.append(##"<rect x="\##(laneLeft)" y="\##(laneTop)" width="\##(laneWidth)" height="\##(laneLength)" fill="#f3dcb0" stroke="#b08850"/>"##)
        for board in stride(from: 5, through: 35, by: 5) {
            s.append(##"<line x1="\##(f(x(board: Double(board))))" x2="\##(f(x(board: Double(board))))" y1="\##(laneTop)" y2="\##(f(laneTop + laneLength))" stroke="#e2c48e" stroke-width="0.6"/>"##)
            // The targeting arrows, 15 ft past the foul line.
            let ax = x(board: Double(board)), ay = y(feet: 15)
            s.append(##"<path d="M\##(f(ax)) \##(f(ay - 6)) l-3 9 h6 z" fill="#7a5a2a"/>"##)
        }
        s.append(##"<text x="\##(f(laneLeft + laneWidth / 2))" y="\##(f(laneTop + laneLength + 16))" font-size="11" text-anchor="middle" fill="#555">foul line · board 1 on the right</text>"##)
        s.append(##"<text x="\##(f(laneLeft + laneWidth / 2))" y="\##(f(laneTop - 6))" font-size="11" text-anchor="middle" fill="#555">pins (60 ft)</text>"##)
        var legendY = laneTop + 10
        for (index, shot) in shots.enumerated() {
            let colour = shotColours[index % shotColours.count]
            let points: [(Double, Double)] = (shot["trajectory"]?.items ?? []).compactMap { p in
                guard let board = p["board"]?.number, let feet = p["distanceFt"]?.number else { return nil }
                return (x(board: board), y(feet: feet))
            }
            if points.count > 1 {
                let d = points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(f($0.element.0)) \(f($0.element.1))" }.joined(separator: " ")
                s.append(##"<path class="lane-path" d="\##(d)" fill="none" stroke="\##(colour)" stroke-width="2.2"/>"##)
            }
            func mark(_ board: Double?, _ feet: Double?, _ label: String) {
                guard let board, let feet else { return }
                s.append(##"<circle cx="\##(f(x(board: board)))" cy="\##(f(y(feet: feet)))" r="4" fill="#fff" stroke="\##(colour)" stroke-width="2"><title>\##(label)</title></circle>"##)
            }
            mark(shot["foulLineBoard"]?.number, 0, "launch")
            mark(shot["arrowBoard"]?.number, 15, "at the arrows")
            mark(shot["breakpointBoard"]?.number, shot["breakpointDistance"]?.number, "breakpoint")
            mark(shot["pocketBoard"]?.number, 60, "pocket")
            let number = shot["shotNumber"]?.number.map { Int($0) } ?? index + 1
            var lines = ["Shot \(number)"]
            if let v = shot["launchSpeed"]?.number { lines.append(String(format: "launch %.1f mph", v)) }
            if let v = shot["impactSpeed"]?.number { lines.append(String(format: "impact %.1f mph", v)) }
            if let a = shot["arrowBoard"]?.number { lines.append(String(format: "arrows board %.1f", a)) }
            if let b = shot["breakpointBoard"]?.number, let d = shot["breakpointDistance"]?.number {
                lines.append(String(format: "breakpoint board %.1f at %.0f ft", b, d))
            }
            if let p = shot["pocketBoard"]?.number { lines.append(String(format: "pocket board %.1f", p)) }
            if let e = shot["entryAngle"]?.number { lines.append(String(format: "entry angle %.1f°", e)) }
            for (i, line) in lines.enumerated() {
                s.append(##"<text x="\##(f(laneLeft + laneWidth + 20))" y="\##(f(legendY))" font-size="12" fill="\##(i == 0 ? colour : "#333")"\##(i == 0 ? ##" font-weight="bold""## : "")>\##(escape(line))</text>"##)
                legendY += 15
            }
            legendY += 8
        }
        s.append("</svg>")
        return s.joined(separator: "\n")
    }

    // MARK: tennis

    /// Swings shown with thumbnails; each thumbnail is a decode, so a long session shows its first ones.
    static let swingsWithThumbnails = 12
    static let keyframes = [("preparation", "Preparation"), ("backswing", "Backswing"), ("contact", "Contact"),
                            ("followThrough", "Follow through"), ("recovery", "Recovery")]

    static func tennis(_ result: JSONValue, _ source: Source) -> Picture? {
        guard case .array(let swings)? = result["swings"], !swings.isEmpty else { return nil }
        var html = #"<div class="swings">"#
        for (i, swing) in swings.prefix(swingsWithThumbnails).enumerated() {
            html += #"<div class="swing-row" data-swing="\#(i + 1)"><p><strong>Swing \#(i + 1)</strong> \#(escape(swing["type"]?.text ?? "swing"))</p><div class="thumbs">"#
            for (key, label) in keyframes {
                guard let t = swing["keyFrameTimes"]?[key]?.number else { continue }
                let time = String(format: "%.2f s", t)
                html += #"<figure class="thumb\#(key == "contact" ? " contact" : "")"><img src="\#(source.frameHref)?t=\#(String(format: "%.3f", t))&amp;w=200" width="200" alt="\#(label) at \#(time)" loading="lazy"><figcaption>\#(label) · \#(time)</figcaption></figure>"#
            }
            html += "</div></div>"
        }
        if swings.count > swingsWithThumbnails {
            html += #"<p class="muted">Thumbnails of the first \#(swingsWithThumbnails) of \#(swings.count) swings; the time line shows them all.</p>"#
        }
        html += "</div>"
        return Picture(html: html + timeline(swings, duration: source.video?.durationSeconds),
                       caption: "\(swings.count) swing(s): each one's keyframes from the video, and all of them on the clip's time line (contact in red).")
    }

    /// The swings on the clip's time line; ticks mark the keyframes.
    static func timeline(_ swings: [JSONValue], duration: Double?) -> String {
        let ends = swings.compactMap { $0["endTime"]?.number }
        let span = max(duration ?? 0, ends.max() ?? 0, 1)
        let left = 20.0, width = 700.0, rowHeight = 46.0, top = 20.0
        let height = top + rowHeight * Double(swings.count) + 30
        func x(_ t: Double) -> Double { left + width * t / span }
        var s: [String] = []
        s.append(##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(Int(left * 2 + width))" height="\##(Int(height))" viewBox="0 0 \##(Int(left * 2 + width)) \##(Int(height))" role="img" aria-label="tennis swings on the time line" class="timeline">"##)
        s.append(##"<line x1="\##(left)" x2="\##(left + width)" y1="\##(f(height - 22))" y2="\##(f(height - 22))" stroke="#98a2b3"/>"##)
        s.append(##"<text x="\##(left)" y="\##(f(height - 6))" font-size="11" fill="#667085">0 s</text><text x="\##(left + width)" y="\##(f(height - 6))" font-size="11" text-anchor="end" fill="#667085">\##(String(format: "%.1f s", span))</text>"##)
        // Each swing's speed against its player's fastest, unless the result is in m/s.
        for (i, swing) in RacketHandSpeed.annotated(swings).enumerated() {
            guard let start = swing["startTime"]?.number, let end = swing["endTime"]?.number else { continue }
            let rowY = top + Double(i) * rowHeight
            s.append(##"<rect class="swing" x="\##(f(x(start)))" y="\##(f(rowY))" width="\##(f(max(2, x(end) - x(start))))" height="18" rx="3" fill="#dde8ff" stroke="#2457c5"/>"##)
            for key in ["preparation", "backswing", "contact", "followThrough", "recovery"] {
                guard let t = swing["keyFrameTimes"]?[key]?.number else { continue }
                let colour = key == "contact" ? "#c0392b" : "#2457c5"
                s.append(##"<line x1="\##(f(x(t)))" x2="\##(f(x(t)))" y1="\##(f(rowY - 3))" y2="\##(f(rowY + 21))" stroke="\##(colour)" stroke-width="2"><title>\##(key) at \##(String(format: "%.2f s", t))</title></line>"##)
            }
            var label = "\(swing["type"]?.text ?? "swing") \(String(format: "%.2f–%.2f s", start, end))"
            if RacketHandSpeed.speed(swing) != nil { label += " · racket-hand speed: \(RacketHandSpeed.text(swing))" }
            s.append(##"<text x="\##(left)" y="\##(f(rowY + 34))" font-size="12" fill="#333">\##(escape(label))</text>"##)
        }
        s.append("</svg>")
        return s.joined(separator: "\n")
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }
}

extension JSONValue {
    /// The elements, if this is an array.
    fileprivate var items: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// The string, if this is one.
    fileprivate var text: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
