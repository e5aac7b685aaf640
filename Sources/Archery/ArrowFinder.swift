import Foundation
import SportMath

/// Finds arrows as the parts of the photo that do not look like the face should there.
///
/// The fitted homography says which zone every pixel is in; each zone's colour is measured in
/// this photo (medians, so light and white balance do not matter). A pixel far from its zone's
/// colour, and not explained by a ring line or the mix of two zones at a boundary, is foreign;
/// foreign pixels grouped 8-connected are shafts with their fletchings, or holes. Outside the face
/// no one colour is expected (paper, boss, stand and sky share the outer zone): there a pixel is
/// foreign when it is a thin mark unlike both of its sides (`ThinMark`). A shaft narrows
/// toward the face (perspective) and carries its fletching at the far end, so its narrower end
/// is the impact; a round group is a hole, whose centre is the impact.
///
/// A 4:2:0 photo (every phone's JPEG, H.264 video) keeps its colour at half resolution, so beside
/// each ring's edge the colour is a mix of both sides while the brightness is sharp: that smear is
/// measured in the photo, and where there is one, a pixel within it is judged by its brightness
/// (the zone's, or at the line the zones' and the line's) and its colour (any mix of theirs) apart.
enum ArrowFinder {
    /// RGB distance beyond which a pixel is not the colour expected there: at least this, more where
    /// a zone's own colour spreads (uneven light, noise), 4 × its spread.
    static let foreignDistance = 40.0
    /// The least brightness (BT.601 luma) difference that makes a pixel foreign where only its
    /// brightness is trusted (beside a ring's edge in a 4:2:0 photo).
    static let minimumLumaDistance = 15.0
    /// Only pixels this far out (face radii) are looked at: a miss on the boss, not the room. A
    /// shaft's end at this edge is where the search cut it (`impactInsideSearch`).
    static let searchRadius = 1.5
    /// A group this long (face radii) is a person or a hand in front of the face, not an arrow.
    static let maximumLength = 1.2

    /// Ring lines are up to about 2 mm wide on every face size (a 40 cm face's are a larger share
    /// of it); this much either side of a ring's edge may be line.
    static let lineAllowanceMm = 2.5

    static func find(in image: WorkingImage, face: FaceFinder.Found, options: ArcheryOptions) -> [ArrowImpact] {
        let arrowRadius = options.arrowRadiusInFaceRadii
        let lineAllowance = lineAllowanceMm / (options.faceDiameterCm * 5)
        let width = image.width, height = image.height
        let map = face.workingToFace.h
        let radiusPx = face.radiusWorkingPx
        // How near a line (face radii) a pixel may be mixed: the line's own width plus 1.5 pixels.
        let band = lineAllowance + 1.5 / radiusPx
        let edgeBlur = 1.2 / radiusPx
        let zoneOf: (Double) -> Int = { rho in rho < 1 ? min(4, Int(rho / 0.2)) : 5 }

        // Face coordinates' radius per pixel, computed once.
        var rhos = [Float](repeating: .infinity, count: width * height)
        for y in 0..<height {
            let fy = Double(y)
            for x in 0..<width {
                let fx = Double(x)
                let w = map[6] * fx + map[7] * fy + map[8]
                guard w > 1e-12 || w < -1e-12 else { continue }
                let u = (map[0] * fx + map[1] * fy + map[2]) / w, v = (map[3] * fx + map[4] * fy + map[5]) / w
                rhos[y * width + x] = Float((u * u + v * v).squareRoot())
            }
        }

        // Each zone's colour: per-channel medians of pixels away from every line.
        var histograms = [[Int]](repeating: [Int](repeating: 0, count: 768), count: 6)
        var lumaHistograms = [[Int]](repeating: [Int](repeating: 0, count: 256), count: 6)
        for i in stride(from: 0, to: width * height, by: 2) {
            let rho = Double(rhos[i])
            guard rho <= searchRadius else { continue }
            let nearestTenth = (rho * 10).rounded() / 10
            guard abs(rho - nearestTenth) > band, abs(rho - 0.05) > band else { continue }
            let zone = zoneOf(rho)
            histograms[zone][Int(image.rgb[i * 3])] += 1
            histograms[zone][256 + Int(image.rgb[i * 3 + 1])] += 1
            histograms[zone][512 + Int(image.rgb[i * 3 + 2])] += 1
            let y = lumaChroma(SIMD3(Double(image.rgb[i * 3]), Double(image.rgb[i * 3 + 1]), Double(image.rgb[i * 3 + 2]))).x
            lumaHistograms[zone][max(0, min(255, Int(y.rounded())))] += 1
        }
        let colours = histograms.map { h -> SIMD3<Double> in
            SIMD3(quantile(h, 0, 0.5), quantile(h, 256, 0.5), quantile(h, 512, 0.5))
        }
        // Each zone's spread: the interquartile range / 1.349 per channel (σ for a normal spread).
        let limits = histograms.map { h -> Double in
            let spread = [0, 256, 512].map { (quantile(h, $0, 0.75) - quantile(h, $0, 0.25)) / 1.349 }
            return max(foreignDistance, 4 * (spread.map { $0 * $0 }.reduce(0, +)).squareRoot())
        }
        // How far a pixel's brightness alone may stray from its zone's: 4 σ of the zone's brightness.
        let lumaLimits = lumaHistograms.map { h in max(minimumLumaDistance, 4 * (quantile(h, 0, 0.75) - quantile(h, 0, 0.25)) / 1.349) }
        let black = colours[RingColor.black.rawValue.int], white = colours[RingColor.white.rawValue.int]

        // A 4:2:0 photo (JPEG, H.264) keeps its colour at half resolution: past a ring's edge the
        // colour is smeared over a pixel or two more than the blur, the brightness is not. How far,
        // measured in this photo: outside each of the lines at 0.1…0.5 (black, neutral) the zone is
        // coloured, so the share of its colour a pixel holds says how far the line's greyness reaches.
        let smearBins = 16
        var smearSum = [Double](repeating: 0, count: smearBins), smearCount = [Int](repeating: 0, count: smearBins)
        for i in 0..<(width * height) {
            let rho = Double(rhos[i])
            guard rho > 0.1, rho < 0.6 else { continue }
            let nearest = (rho * 10).rounded(.down) / 10
            let bin = Int((rho - nearest) * radiusPx * 4)
            guard bin < smearBins else { continue }
            let zone = lumaChroma(colours[zoneOf(nearest + 1e-6)])
            let norm = zone.y * zone.y + zone.z * zone.z
            guard norm > 400 else { continue }
            let q = lumaChroma(SIMD3(Double(image.rgb[i * 3]), Double(image.rgb[i * 3 + 1]), Double(image.rgb[i * 3 + 2])))
            smearSum[bin] += (q.y * zone.y + q.z * zone.z) / norm
            smearCount[bin] += 1
        }
        var smearPx = 0.0
        for bin in (0..<smearBins).reversed() where smearCount[bin] > 0 && smearSum[bin] / Double(smearCount[bin]) < 0.9 {
            smearPx = Double(bin + 1) / 4
            break
        }
        // A lossless or 4:4:4 photo's colour is whole up to the edge (≥ 0.9 within the first half
        // pixel, steep perspective included); a 4:2:0 photo's reaches 0.9 about a pixel out, and is
        // mixed up to three times that far. Only then is a pixel's colour judged apart from its brightness.
        let smear = smearPx > 0.5 ? 3 * smearPx / radiusPx : 0
        let chromaBand = lineAllowance + smear, chromaReach = smear

        // Foreign pixels.
        var mask = [Bool](repeating: false, count: width * height)
        let outsideLines = 1 + max(band, chromaBand) + max(edgeBlur, chromaReach)
        let thinMark = ThinMark(image: image, arrowRadiusPx: arrowRadius * radiusPx)
        for i in 0..<(width * height) {
            let rho = Double(rhos[i])
            guard rho <= searchRadius else { continue }
            let p = SIMD3(Double(image.rgb[i * 3]), Double(image.rgb[i * 3 + 1]), Double(image.rgb[i * 3 + 2]))
            let zone = zoneOf(rho)
            // Outside the face no one colour is expected: the paper's margin, the boss, its edge, the
            // stand and what is behind share the outer zone. A shaft there is a thin mark unlike both
            // sides of it, where the sides are alike; an edge between two of those is not.
            if rho > outsideLines {
                mask[i] = thinMark.isThinMark(at: i, limit: foreignDistance)
                continue
            }
            var distance = length(p - colours[zone])
            var limit = limits[zone]
            guard distance > limit, !isShadow(p, of: colours[zone], limit: limit) else { continue }
            let nearestTenth = (rho * 10).rounded() / 10
            let nearest = abs(rho - 0.05) < abs(rho - nearestTenth) ? 0.05 : nearestTenth
            // The line lies inside its ring, so only a pixel or so of blur and fit error reaches
            // past the ring's edge: a shaft's tip just outside a ring (a line cutter's) stays foreign.
            if rho >= nearest - max(band, chromaBand), rho <= nearest + max(edgeBlur, chromaReach), nearest > 0 {
                // Near a line: the line (black; white between 4 and 3, inside the black zone), the
                // zones on both sides, and any mix of them explain the pixel.
                let inner = colours[zoneOf(nearest - band - 1e-6)], outer = colours[zoneOf(nearest + band + 1e-6)]
                let line = abs(nearest - 0.7) < 1e-9 ? white : black
                limit = max(limits[zoneOf(nearest - band - 1e-6)], limits[zoneOf(nearest + band + 1e-6)])
                if rho >= nearest - band, rho <= nearest + edgeBlur {
                    distance = min(segmentDistance(p, inner, outer), segmentDistance(p, inner, line), segmentDistance(p, line, outer))
                }
                guard distance > limit, smear > 0 else { mask[i] = distance > limit; continue }
                // 4:2:0 (JPEG, H.264): the colour is kept at half resolution and smeared over about
                // two pixels each side of an edge, the brightness stays sharp. The brightness must be
                // the zones' or the line's (only the zone's own past the ring's edge, so a line
                // cutter's tip stays foreign), the colour any mix of theirs.
                let q = lumaChroma(p)
                let (a, b, c) = (lumaChroma(inner), lumaChroma(outer), lumaChroma(line))
                // Outside the line's band the brightness is one zone's alone, held to that zone's own
                // spread of brightness: a grey shaft's brightness may lie near a zone's.
                var lumaDistance = max(0, q.x - max(a.x, b.x, c.x), min(a.x, b.x, c.x) - q.x)
                if rho > nearest + edgeBlur {
                    lumaDistance = abs(q.x - b.x) * limit / lumaLimits[zoneOf(nearest + band + 1e-6)]
                } else if rho < nearest - band {
                    lumaDistance = abs(q.x - a.x) * limit / lumaLimits[zoneOf(nearest - band - 1e-6)]
                }
                let chroma = { (v: SIMD3<Double>) in SIMD3(0, v.y, v.z) }
                let chromaDistance = min(segmentDistance(chroma(q), chroma(a), chroma(b)), segmentDistance(chroma(q), chroma(a), chroma(c)),
                                         segmentDistance(chroma(q), chroma(c), chroma(b)))
                if lumaDistance <= limit, chromaDistance <= limit { continue }
            }
            mask[i] = distance > limit
        }

        // Groups, then groups joined across the gaps a ring line's band cuts into a shaft (a grey
        // shaft crossing the line between black and white looks like a mix of the two there).
        let foreign = ForeignPixels(width: width, height: height, mask: mask)
        let contrast = ShaftContrast(image: image, arrowRadiusPx: arrowRadius * radiusPx)
        var groups = [[(x: Double, y: Double)]]()
        var stack = [Int]()
        for start in mask.indices where mask[start] {
            mask[start] = false
            stack.append(start)
            var members = [(x: Double, y: Double)]()
            while let i = stack.popLast() {
                let x = i % width, y = i / width
                members.append((Double(x), Double(y)))
                for dy in -1...1 {
                    let ny = y + dy
                    guard ny >= 0, ny < height else { continue }
                    for dx in -1...1 {
                        let nx = x + dx
                        guard nx >= 0, nx < width else { continue }
                        let n = ny * width + nx
                        if mask[n] { mask[n] = false; stack.append(n) }
                    }
                }
            }
            groups.append(members)
        }
        let arrowRadiusPx = arrowRadius * radiusPx
        let faceCentre = face.faceToWorking.apply(0, 0) ?? (x: Double(width) / 2, y: Double(height) / 2)
        let joined = joinCollinear(join(groups, within: 2 * band * radiusPx + 2), radiusPx: radiusPx, arrowRadiusPx: arrowRadiusPx)
        let minimumArea = max(6, Int(0.00012 * radiusPx * radiusPx))
        let pose = FacePose(face: face.face, width: image.sourceWidth, height: image.sourceHeight)
        let impacts = joined.flatMap { members -> [ArrowImpact] in
            guard members.count >= minimumArea, !isRingArc(members, workingToFace: face.workingToFace) else { return [] }
            let shafts = ShaftSplitter.shafts(in: members, radiusPx: radiusPx, arrowRadiusPx: arrowRadiusPx)
            // One straight run or none: the group's own shape says where its impact is (a hole too).
            guard shafts.count > 1 else { return impact(of: members, radiusPx: radiusPx, arrowRadiusPx: arrowRadiusPx, faceCentre: faceCentre, image: image).map { [$0] } ?? [] }
            return shafts.map { shaft in
                let c = image.sourcePoint(shaft.x, shaft.y), tail = image.sourcePoint(shaft.tail.x, shaft.tail.y)
                return ArrowImpact(pixelX: c.x, pixelY: c.y, box: box(of: shaft.members, image: image), confidence: shaft.confidence,
                                   isShaft: true, tailX: tail.x, tailY: tail.y, crossesAnother: true)
            }
        }.compactMap { found -> ArrowImpact? in
            guard var impact = impactInsideSearch(found, face: face.face) else { return nil }
            if let pose { impact = impactByPerspective(impact, pose: pose) }
            // A shaft's impact is where the shaft ends, which may lie inside another group or past a
            // zone of the shaft's own colour.
            func followed(_ impact: ArrowImpact) -> ArrowImpact {
                guard impact.isShaft, let tx = impact.tailX, let ty = impact.tailY else { return impact }
                let head = image.workingPoint(impact.pixelX, impact.pixelY), tail = image.workingPoint(tx, ty)
                let end = foreign.shaftEnd(head: head, tail: tail, tolerance: max(1, arrowRadiusPx), maximumGap: 2 * band * radiusPx + 2,
                                           maximumLength: maximumLength * radiusPx, contrast: contrast)
                var moved = impact
                (moved.pixelX, moved.pixelY) = image.sourcePoint(end.x, end.y)
                return moved
            }
            // A group cut off at the face's edge (the boss behind it read as the face's colour) has
            // its nock's end there: followed, it leaves the face, and the impact is the other end.
            let end = followed(impactOnTheFace(impact, face: face.face, pose: pose))
            let turned = impactOnTheFace(end, face: face.face, pose: pose)
            return turned == end ? end : followed(turned)
        }
        let shadows = ShadowOnTheFace(image: image, face: face.face)
        return ArrowCandidates.plausible(impacts, face: face.face, arrowRadius: arrowRadius, lineShowsThrough: shadows.lineShowsThrough)
    }

    static let collinearGap = 0.12

    /// A shaft with one end on the face and the other past its edge entered the face at the end on
    /// it: the other is its nock, which stands out towards the camera and, leaning, past the face in
    /// the picture. The group's shape (`impact(of:)`) cannot tell when the fletching is not seen
    /// apart from the boss behind it. Ends within `edgeMargin` of the edge decide nothing.
    static func impactOnTheFace(_ impact: ArrowImpact, face: TargetFace) -> ArrowImpact {
        guard impact.isShaft, let tx = impact.tailX, let ty = impact.tailY,
              let headRadius = face.radius(pixelX: impact.pixelX, pixelY: impact.pixelY), let tailRadius = face.radius(pixelX: tx, pixelY: ty),
              headRadius > 1 + edgeMargin, tailRadius < 1 - edgeMargin else { return impact }
        return impact.turned(tailX: tx, tailY: ty)
    }

    static let edgeMargin = 0.03

    /// `impactOnTheFace`, unless the camera's pose says the shaft already runs from its impact the
    /// way an arrow stands out (`perspectiveCosine` above `perspectiveAgreement`): then it is a miss
    /// in the boss whose nock leans over the face in the picture, and stays one.
    static func impactOnTheFace(_ impact: ArrowImpact, face: TargetFace, pose: FacePose?) -> ArrowImpact {
        if let pose, let cosine = perspectiveCosine(impact, pose: pose), cosine > perspectiveAgreement { return impact }
        return impactOnTheFace(impact, face: face)
    }

    /// An arrow stands out of the face towards the camera, so its nock lies from its impact the
    /// way the face's normal runs in the picture (`FacePose`). A shaft running clearly the other
    /// way (its direction's cosine with that way below −`perspectiveAgreement`) was taken the wrong
    /// way round: its fletching's colour or the zone under it hid which end is which. The face's
    /// edge (`impactOnTheFace`) turns a shaft only where this way does not clearly agree with it.
    static func impactByPerspective(_ impact: ArrowImpact, pose: FacePose) -> ArrowImpact {
        guard let cosine = perspectiveCosine(impact, pose: pose), cosine < -perspectiveAgreement,
              let tx = impact.tailX, let ty = impact.tailY else { return impact }
        return impact.turned(tailX: tx, tailY: ty)
    }

    /// The cosine between a shaft's direction from its impact to its tail and the way the face's
    /// normal runs in the picture there (`FacePose.outward`); nil for a hole or where the pose
    /// gives no way.
    static func perspectiveCosine(_ impact: ArrowImpact, pose: FacePose) -> Double? {
        guard impact.isShaft, let tx = impact.tailX, let ty = impact.tailY else { return nil }
        let dx = tx - impact.pixelX, dy = ty - impact.pixelY, length = (dx * dx + dy * dy).squareRoot()
        guard length > 0, let outward = pose.outward(pixelX: (impact.pixelX + tx) / 2, pixelY: (impact.pixelY + ty) / 2) else { return nil }
        return (dx * outward.x + dy * outward.y) / length
    }

    /// Arrows lean and so stray from the normal's way in the picture; only a shaft running nearly
    /// opposite to it is turned, where a lean cannot explain it.
    static let perspectiveAgreement = 0.8

    /// A shaft's end at the edge of the search (`searchRadius`) is where the search cut it, not an
    /// end: the impact is the other end. A shaft cut at both ends runs across the search's edge (a
    /// boss's edge, a stand's leg) and its impact, if it is an arrow, lies beyond: nil.
    static func impactInsideSearch(_ impact: ArrowImpact, face: TargetFace) -> ArrowImpact? {
        guard impact.isShaft, let tx = impact.tailX, let ty = impact.tailY,
              let headRadius = face.radius(pixelX: impact.pixelX, pixelY: impact.pixelY),
              let tailRadius = face.radius(pixelX: tx, pixelY: ty) else { return impact }
        let cut = searchRadius - searchEdgeMargin
        switch (headRadius >= cut, tailRadius >= cut) {
        case (true, true): return nil
        case (true, false):
            return impact.turned(tailX: tx, tailY: ty)
        default: return impact
        }
    }

    /// How near the search's edge (face radii) a shaft's end counts as cut by it.
    static let searchEdgeMargin = 0.02

    /// Pieces of one shaft cut apart where it runs along a ring line (a grey shaft over the band of a
    /// black line on white looks like the line's blur): a piece lying on another's axis, within
    /// 0.12 face radii of its end, is the same shaft.
    static func joinCollinear(_ groups: [[(x: Double, y: Double)]], radiusPx: Double, arrowRadiusPx: Double) -> [[(x: Double, y: Double)]] {
        var groups = groups
        let offLine = max(2, 2 * arrowRadiusPx + 1), maximumGap = collinearGap * radiusPx
        var changed = true
        while changed {
            changed = false
            let shapes = groups.map(Shape.init)
            search: for a in groups.indices where shapes[a].isElongated {
                for b in groups.indices where b != a && groups[b].count >= 3 {
                    let line = shapes[a]
                    let (t, s) = line.coordinates(shapes[b].centre)
                    guard abs(s) <= offLine else { continue }
                    if shapes[b].isElongated {
                        let cosine = abs(line.axis.x * shapes[b].axis.x + line.axis.y * shapes[b].axis.y)
                        guard cosine >= 0.97 else { continue }
                    }
                    let gap = max(0, t - shapes[b].halfLength - line.tMax, line.tMin - (t + shapes[b].halfLength))
                    guard gap <= maximumGap else { continue }
                    groups[a] += groups[b]
                    groups.remove(at: b)
                    changed = true
                    break search
                }
            }
        }
        return groups
    }

    /// A group's centre, principal axis and extent along it.
    struct Shape {
        var centre: (x: Double, y: Double)
        var axis: (x: Double, y: Double)
        var tMin, tMax, breadth: Double
        var halfLength: Double { (tMax - tMin) / 2 }
        var isElongated: Bool { tMax - tMin + 1 >= 2.5 * breadth && tMax - tMin >= 6 }

        init(_ members: [(x: Double, y: Double)]) {
            let line = PrincipalAxis(members)
            (centre, axis) = (line.centre, line.axis)
            let (mx, my) = centre
            var tMin = 0.0, tMax = 0.0, sMin = 0.0, sMax = 0.0
            for p in members {
                let t = (p.x - mx) * axis.x + (p.y - my) * axis.y, s = -(p.x - mx) * axis.y + (p.y - my) * axis.x
                tMin = min(tMin, t); tMax = max(tMax, t); sMin = min(sMin, s); sMax = max(sMax, s)
            }
            (self.tMin, self.tMax, breadth) = (tMin, tMax, sMax - sMin + 1)
        }

        func coordinates(_ p: (x: Double, y: Double)) -> (Double, Double) {
            let dx = p.x - centre.x, dy = p.y - centre.y
            return (dx * axis.x + dy * axis.y, -dx * axis.y + dy * axis.x)
        }
    }

    /// The least arc (radians) a group must span to be judged a piece of a ring.
    static let ringArcSpan = 0.15

    /// Whether a group follows a circle about the centre rather than a straight line: a piece of a
    /// ring's edge (the printed face's on a paper of another white, the boss's), which a shaft
    /// never does. In face coordinates a ring is a circle: its pixels keep their distance from the
    /// centre and bend away from any straight line through them, a shaft's the other way round.
    static func isRingArc(_ members: [(x: Double, y: Double)], workingToFace: Homography) -> Bool {
        let points = members.compactMap { workingToFace.apply($0.x, $0.y) }
        guard points.count >= 6 else { return false }
        let rhos = points.map { ($0.x * $0.x + $0.y * $0.y).squareRoot() }.sorted()
        let rho = rhos[rhos.count / 2]
        guard rho > 0.5 else { return false }
        let angles = points.map { atan2($0.y, $0.x) }
        let centre = atan2(angles.map(sin).reduce(0, +), angles.map(cos).reduce(0, +))
        let offsets = angles.map { remainder($0 - centre, 2 * .pi) }
        guard (offsets.max() ?? 0) - (offsets.min() ?? 0) >= ringArcSpan else { return false }
        let circleError = (rhos.reduce(0) { $0 + ($1 - rho) * ($1 - rho) } / Double(rhos.count)).squareRoot()
        let line = Shape(points)
        let lineError = (points.reduce(0.0) { sum, p in let s = line.coordinates(p).1; return sum + s * s } / Double(points.count)).squareRoot()
        return circleError < lineError / 2
    }

    /// Groups whose pixels come within `gap` of each other, as one.
    static func join(_ groups: [[(x: Double, y: Double)]], within gap: Double) -> [[(x: Double, y: Double)]] {
        // Tiny specks stay alone: joining them would only glue noise to arrows.
        let boxes = groups.map { g in
            (minX: g.map(\.x).min() ?? 0, maxX: g.map(\.x).max() ?? 0, minY: g.map(\.y).min() ?? 0, maxY: g.map(\.y).max() ?? 0)
        }
        var parent = Array(groups.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i { parent[i] = parent[parent[i]]; i = parent[i] }
            return i
        }
        let gap2 = gap * gap
        for a in groups.indices where groups[a].count >= 3 {
            for b in (a + 1)..<groups.count where groups[b].count >= 3 {
                let p = boxes[a], q = boxes[b]
                guard p.minX - gap <= q.maxX, q.minX - gap <= p.maxX, p.minY - gap <= q.maxY, q.minY - gap <= p.maxY,
                      root(a) != root(b) else { continue }
                let near = groups[a].contains { u in
                    u.x >= q.minX - gap && u.x <= q.maxX + gap && u.y >= q.minY - gap && u.y <= q.maxY + gap
                        && groups[b].contains { v in (u.x - v.x) * (u.x - v.x) + (u.y - v.y) * (u.y - v.y) <= gap2 }
                }
                if near { parent[root(b)] = root(a) }
            }
        }
        var merged = [Int: [(x: Double, y: Double)]]()
        for i in groups.indices { merged[root(i), default: []] += groups[i] }
        return merged.keys.sorted().compactMap { merged[$0] }
    }

    /// The impact of one group of foreign pixels, or nil when it is not shaped like an arrow.
    static func impact(of members: [(x: Double, y: Double)], radiusPx: Double, arrowRadiusPx: Double, faceCentre: (x: Double, y: Double),
                       image: WorkingImage) -> ArrowImpact? {
        let line = PrincipalAxis(members)
        let (mx, my) = line.centre, axis = line.axis, across = line.across
        let along = members.map { (t: ($0.x - mx) * axis.x + ($0.y - my) * axis.y, s: ($0.x - mx) * across.x + ($0.y - my) * across.y) }
        let tMin = along.map(\.t).min() ?? 0, tMax = along.map(\.t).max() ?? 0
        let sMin = along.map(\.s).min() ?? 0, sMax = along.map(\.s).max() ?? 0
        let length = tMax - tMin + 1, breadth = sMax - sMin + 1
        guard length <= maximumLength * radiusPx else { return nil }

        let box = box(of: members, image: image)

        // A hole is small: a torn ring about twice the shaft across. A short, fat group is an arrow
        // seen nearly end on, its fletching beside its shaft.
        if length < 2.5 * breadth, length <= 6 * arrowRadiusPx + 3 {
            // A hole (or an arrow seen end on): its centre, as the middle of its extents across and
            // along the direction to the face's centre. A ring line's band takes a strip out of a
            // hole on it, which moves its centroid but not those extents (the strip runs across).
            var c = image.sourcePoint(mx, my)
            let rx = mx - faceCentre.x, ry = my - faceCentre.y, rn = (rx * rx + ry * ry).squareRoot()
            if rn > 1e-9 {
                let ux = rx / rn, uy = ry / rn
                let radial = members.map { ($0.x - mx) * ux + ($0.y - my) * uy }, tangential = members.map { -($0.x - mx) * uy + ($0.y - my) * ux }
                let a = ((radial.min() ?? 0) + (radial.max() ?? 0)) / 2, b = ((tangential.min() ?? 0) + (tangential.max() ?? 0)) / 2
                c = image.sourcePoint(mx + a * ux - b * uy, my + a * uy + b * ux)
            }
            return ArrowImpact(pixelX: c.x, pixelY: c.y, box: box, confidence: 0.6)
        }
        // The fletching (four shafts wide) and the perspective (the nock is nearer the camera) put
        // more of the group's pixels toward the nock: the centroid sits nearer that end, so the
        // impact is the end farther from it.
        let impactAtLow = -tMin >= tMax
        let tEnd = impactAtLow ? tMin : tMax
        let asymmetry = abs(-tMin - tMax) / max(1, length)
        let tip = along.filter { abs($0.t - tEnd) <= 1.5 }
        let s = tip.isEmpty ? 0 : tip.reduce(0) { $0 + $1.s } / Double(tip.count)
        // The extreme pixel's centre is half a pixel inside the shaft's end.
        let t = tEnd + (impactAtLow ? -0.5 : 0.5)
        let wx = mx + t * axis.x + s * across.x, wy = my + t * axis.y + s * across.y
        let c = image.sourcePoint(wx, wy)
        let tOther = impactAtLow ? tMax : tMin
        let tail = image.sourcePoint(mx + tOther * axis.x, my + tOther * axis.y)
        let confidence = min(0.95, 0.55 + 0.4 * min(1, 4 * asymmetry))
        return ArrowImpact(pixelX: c.x, pixelY: c.y, box: box, confidence: confidence, isShaft: true, tailX: tail.x, tailY: tail.y,
                           endsAlike: asymmetry < ArrowReviewTuning.endsAlikeAsymmetry)
    }

    /// The members' box in source pixels (pixel edges, not centres).
    static func box(of members: [(x: Double, y: Double)], image: WorkingImage) -> BoundingBox {
        let xs = members.map(\.x), ys = members.map(\.y)
        let low = image.sourcePoint(xs.min() ?? 0, ys.min() ?? 0), high = image.sourcePoint(xs.max() ?? 0, ys.max() ?? 0)
        let half = Double(image.scale) / 2
        return BoundingBox(x: low.x - half, y: low.y - half, width: high.x - low.x + 2 * half, height: high.y - low.y + 2 * half)
    }

    private static func quantile(_ histogram: [Int], _ offset: Int, _ q: Double) -> Double {
        let total = histogram[offset..<(offset + 256)].reduce(0, +)
        guard total > 0 else { return 0 }
        var seen = 0
        for v in 0..<256 {
            seen += histogram[offset + v]
            if Double(seen) >= q * Double(total) { return Double(v) }
        }
        return 255
    }

    /// BT.601 luma and colour differences (full range, as JPEG): Y, Cb, Cr.
    @inline(__always) static func lumaChroma(_ p: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(0.299 * p.x + 0.587 * p.y + 0.114 * p.z, -0.168736 * p.x - 0.331264 * p.y + 0.5 * p.z, 0.5 * p.x - 0.418688 * p.y - 0.081312 * p.z)
    }

    @inline(__always) private static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    /// A shadow on a coloured zone keeps the zone's colour and loses light: the pixel is the zone's
    /// colour times a factor between `shadowLight` bounds, within half the zone's limit. A shaft is
    /// darker still or another colour. On the white and black zones a grey shaft (aluminium) and a
    /// shadow have the same colour, so there nothing is taken for a shadow.
    static let shadowLight = 0.3...0.9
    /// The least colour (max − min channel) a zone needs for its shadows to be told from grey.
    static let shadowZoneChroma = 40.0

    @inline(__always) static func isShadow(_ p: SIMD3<Double>, of zone: SIMD3<Double>, limit: Double) -> Bool {
        let norm = (zone * zone).sum()
        guard norm > 900, zone.max() - zone.min() >= shadowZoneChroma else { return false }
        let k = (p * zone).sum() / norm
        return shadowLight.contains(k) && length(p - k * zone) <= limit / 2
    }

    /// Distance from `p` to the segment a–b in RGB: the colours a pixel straddling two regions takes.
    private static func segmentDistance(_ p: SIMD3<Double>, _ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let d = b - a
        let dd = (d * d).sum()
        let t = dd > 0 ? max(0, min(1, ((p - a) * d).sum() / dd)) : 0
        return length(p - (a + t * d))
    }
}

private extension UInt8 {
    var int: Int { Int(self) }
}
