/// Whether a mark on the white zone lies on the face (a shadow) or stands in front of it (a shaft),
/// told by the line printed between the two white rings (0.9 face radii).
///
/// A shadow only darkens what it falls on, so the line shows through it, darker than the shadow
/// either side of the line. A shaft hides the line: where it crosses it, it keeps about its own
/// brightness. The shadow of an arrow further in first shows on the white (on the black it does not
/// show, on the coloured zones it keeps their colour), where it looks like a grey shaft; its arrow
/// may not have been found, so its line cannot always say whose shadow it is (`ArrowCandidates`).
struct ShadowOnTheFace {
    let image: WorkingImage
    let face: TargetFace

    /// The printed line the test looks for (face radii): between the 2 and the 1.
    static let lineRadius = 0.9
    /// The white either side of the line where the mark's own brightness is measured (face radii
    /// from the line): clear of the line's blur, inside the white zone.
    static let bodyBand = 0.02...0.08
    /// How far along the mark from the line's crossing the darkest point is looked for (working
    /// pixels): the line's width and blur, and the error of where the crossing is found.
    static let crossingReach = 3.0
    /// The line shows through when its darkest point on the mark is under this share of the mark's
    /// brightness beside it: on the benchmark's tuning ends 149 of 160 shafts crossing the line kept
    /// 0.8 or more of it there, and 37 of 48 shadows fell under 0.65 (docs/benchmarks/accuracy.md).
    static let showsThroughBelow = 0.65

    /// True where the line shows through the mark from `head` to `tail` (face coordinates), false
    /// where the mark hides it; nil where the mark does not reach past the line, has too little of
    /// itself on the white beside it to measure, or leaves the picture there.
    func lineShowsThrough(head: (x: Double, y: Double), tail: (x: Double, y: Double)) -> Bool? {
        guard let start = face.pixel(faceX: head.x, faceY: head.y).map({ image.workingPoint($0.x, $0.y) }),
            let end = face.pixel(faceX: tail.x, faceY: tail.y).map({ image.workingPoint($0.x, $0.y) })
        else { return nil }
        let length = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
        // Both ends come from the picture; a mark longer than the picture is none of its marks.
        guard length >= 4, length <= Double(image.width + image.height) else { return nil }
        let steps = Int(2 * length)
        var crossing: (x: Double, y: Double)?
        var body = [Double]()
        var previousRadius: Double?
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            let p = (x: start.x + (end.x - start.x) * t, y: start.y + (end.y - start.y) * t)
            let source = image.sourcePoint(p.x, p.y)
            guard let radius = face.radius(pixelX: source.x, pixelY: source.y) else { return nil }
            if let previousRadius, crossing == nil, (previousRadius - Self.lineRadius) * (radius - Self.lineRadius) <= 0 { crossing = p }
            previousRadius = radius
            if Self.bodyBand.contains(abs(radius - Self.lineRadius)), let luma = luma(p.x, p.y) { body.append(luma) }
        }
        guard let crossing, body.count >= 3 else { return nil }
        // The crossing needs the mark on both sides of it, not its end.
        func distance(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot()
        }
        let fromEnd = min(distance(crossing, start), distance(crossing, end))
        guard fromEnd > Self.crossingReach else { return nil }
        let (ux, uy) = ((end.x - start.x) / length, (end.y - start.y) / length)
        var darkest = Double.infinity
        for d in stride(from: -Self.crossingReach, through: Self.crossingReach, by: 0.5) {
            guard let luma = luma(crossing.x + ux * d, crossing.y + uy * d) else { return nil }
            darkest = min(darkest, luma)
        }
        body.sort()
        let brightness = max(1, body[body.count / 2])
        return darkest < Self.showsThroughBelow * brightness
    }

    /// The brightness (Rec. 601 luma) at a working-pixel position; nil off the picture.
    private func luma(_ x: Double, _ y: Double) -> Double? {
        image.colour(x: x, y: y).map { ArrowFinder.lumaChroma($0).x }
    }
}
