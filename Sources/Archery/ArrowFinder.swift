import Foundation

/// Finds arrows as the parts of the photo that do not look like the face should there.
///
/// The fitted homography says which zone every pixel is in; each zone's colour is measured in
/// this photo (medians, so light and white balance do not matter). A pixel far from its zone's
/// colour, and not explained by a ring line or the mix of two zones at a boundary, is foreign;
/// foreign pixels grouped 8-connected are shafts with their fletchings, or holes. A shaft narrows
/// toward the face (perspective) and carries its fletching at the far end, so its narrower end
/// is the impact; a round group is a hole, whose centre is the impact.
enum ArrowFinder {
    /// RGB distance beyond which a pixel is not the colour expected there.
    static let foreignDistance = 60.0
    /// Only pixels this far out (face radii) are looked at: a miss on the boss, not the room.
    static let searchRadius = 2.0
    /// A group this long (face radii) is a person or a hand in front of the face, not an arrow.
    static let maximumLength = 1.2

    static func find(in image: WorkingImage, face: FaceFinder.Found) -> [ArrowImpact] {
        let width = image.width, height = image.height
        let map = face.workingToFace.h
        let radiusPx = face.radiusWorkingPx
        // How near a line (face radii) a pixel may be mixed: the line's own width plus 1.5 pixels.
        let band = 0.004 + 1.5 / radiusPx
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
        for i in stride(from: 0, to: width * height, by: 2) {
            let rho = Double(rhos[i])
            guard rho <= 1.5 else { continue }
            let nearestTenth = (rho * 10).rounded() / 10
            guard abs(rho - nearestTenth) > band, abs(rho - 0.05) > band else { continue }
            let zone = zoneOf(rho)
            histograms[zone][Int(image.rgb[i * 3])] += 1
            histograms[zone][256 + Int(image.rgb[i * 3 + 1])] += 1
            histograms[zone][512 + Int(image.rgb[i * 3 + 2])] += 1
        }
        let colours = histograms.map { h -> SIMD3<Double> in
            SIMD3(median(h, 0), median(h, 256), median(h, 512))
        }
        let black = colours[RingColor.black.rawValue.int], white = colours[RingColor.white.rawValue.int]

        // Foreign pixels.
        var mask = [Bool](repeating: false, count: width * height)
        let limit = foreignDistance
        for i in 0..<(width * height) {
            let rho = Double(rhos[i])
            guard rho <= searchRadius else { continue }
            let p = SIMD3(Double(image.rgb[i * 3]), Double(image.rgb[i * 3 + 1]), Double(image.rgb[i * 3 + 2]))
            let zone = zoneOf(rho)
            var distance = length(p - colours[zone])
            guard distance > limit else { continue }
            let nearestTenth = (rho * 10).rounded() / 10
            let nearest = abs(rho - 0.05) < abs(rho - nearestTenth) ? 0.05 : nearestTenth
            if abs(rho - nearest) <= band, nearest > 0 {
                // Near a line: the line (black; white between 4 and 3, inside the black zone), the
                // zones on both sides, and any mix of them explain the pixel.
                let inner = colours[zoneOf(nearest - band - 1e-6)], outer = colours[zoneOf(nearest + band + 1e-6)]
                let line = abs(nearest - 0.7) < 1e-9 ? white : black
                distance = min(segmentDistance(p, inner, outer), segmentDistance(p, inner, line), segmentDistance(p, line, outer))
            }
            mask[i] = distance > limit
        }

        // Groups, then groups joined across the gaps a ring line's band cuts into a shaft (a grey
        // shaft crossing the line between black and white looks like a mix of the two there).
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
        let joined = join(groups, within: 2 * band * radiusPx + 2)
        let minimumArea = max(6, Int(0.00012 * radiusPx * radiusPx))
        return joined.compactMap { members in
            members.count >= minimumArea ? impact(of: members, radiusPx: radiusPx, image: image) : nil
        }
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
    static func impact(of members: [(x: Double, y: Double)], radiusPx: Double, image: WorkingImage) -> ArrowImpact? {
        let n = Double(members.count)
        let mx = members.reduce(0) { $0 + $1.x } / n, my = members.reduce(0) { $0 + $1.y } / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in members {
            sxx += (p.x - mx) * (p.x - mx); syy += (p.y - my) * (p.y - my); sxy += (p.x - mx) * (p.y - my)
        }
        let theta = 0.5 * atan2(2 * sxy, sxx - syy)
        let axis = (x: cos(theta), y: sin(theta)), across = (x: -sin(theta), y: cos(theta))
        let along = members.map { (t: ($0.x - mx) * axis.x + ($0.y - my) * axis.y, s: ($0.x - mx) * across.x + ($0.y - my) * across.y) }
        let tMin = along.map(\.t).min() ?? 0, tMax = along.map(\.t).max() ?? 0
        let sMin = along.map(\.s).min() ?? 0, sMax = along.map(\.s).max() ?? 0
        let length = tMax - tMin + 1, breadth = sMax - sMin + 1
        guard length <= maximumLength * radiusPx else { return nil }

        let xs = members.map(\.x), ys = members.map(\.y)
        let low = image.sourcePoint(xs.min() ?? 0, ys.min() ?? 0), high = image.sourcePoint(xs.max() ?? 0, ys.max() ?? 0)
        let half = Double(image.scale) / 2
        let box = BoundingBox(x: low.x - half, y: low.y - half, width: high.x - low.x + 2 * half, height: high.y - low.y + 2 * half)

        if length < 2.5 * breadth {
            // A hole (or an arrow seen end on): its centre.
            let c = image.sourcePoint(mx, my)
            return ArrowImpact(pixelX: c.x, pixelY: c.y, box: box, confidence: 0.6)
        }
        // Width of each end's last fifth: the fletched end is the wider.
        let endLength = max(2, 0.2 * length)
        func spread(_ inEnd: (Double) -> Bool) -> Double {
            let s = along.filter { inEnd($0.t) }.map(\.s)
            return (s.max() ?? 0) - (s.min() ?? 0) + 1
        }
        let lowWidth = spread { $0 <= tMin + endLength }, highWidth = spread { $0 >= tMax - endLength }
        let impactAtLow = lowWidth <= highWidth
        let tEnd = impactAtLow ? tMin : tMax
        let tip = along.filter { abs($0.t - tEnd) <= 1.5 }
        let s = tip.isEmpty ? 0 : tip.reduce(0) { $0 + $1.s } / Double(tip.count)
        // The extreme pixel's centre is half a pixel inside the shaft's end.
        let t = tEnd + (impactAtLow ? -0.5 : 0.5)
        let wx = mx + t * axis.x + s * across.x, wy = my + t * axis.y + s * across.y
        let c = image.sourcePoint(wx, wy)
        let ratio = max(lowWidth, highWidth) / max(1, min(lowWidth, highWidth))
        let confidence = min(0.95, 0.55 + 0.4 * min(1, (ratio - 1)))
        return ArrowImpact(pixelX: c.x, pixelY: c.y, box: box, confidence: confidence)
    }

    private static func median(_ histogram: [Int], _ offset: Int) -> Double {
        let total = histogram[offset..<(offset + 256)].reduce(0, +)
        guard total > 0 else { return 0 }
        var seen = 0
        for v in 0..<256 {
            seen += histogram[offset + v]
            if 2 * seen >= total { return Double(v) }
        }
        return 255
    }

    @inline(__always) private static func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

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
