import Foundation

/// Points on the face's colour boundaries, found along rays from inside the gold.
///
/// Boundary k (0…4) lies between zone k and zone k + 1 (gold/red, red/blue, blue/black,
/// black/white, white/the world outside) at 0.2 · (k + 1) face radii. A boundary point is where a
/// run of the next zone's colour starts, so the dividing line (drawn inside the higher ring, World
/// Archery's rule) is on the inner side of it, as the ring's radius says.
struct RingBoundaryTracer {
    static let boundaryCount = 5
    static let rayCount = 360

    struct Trace {
        /// Working pixels of the gold's centroid: a point inside the gold whatever the view.
        var seedX: Double
        var seedY: Double
        /// The face's radius guessed from the gold's area (5 × its equivalent radius).
        var radiusGuess: Double
        /// `points[k]`: boundary k's points in working pixels.
        var points: [[(x: Double, y: Double)]]
    }

    /// Nil when there is no gold patch large enough to be a face's centre.
    static func trace(_ image: WorkingImage) -> Trace? {
        guard let gold = GoldPatch.centre(in: image) else { return nil }
        let radiusGuess = 5 * gold.radius
        // A run of a zone's colour must be longer than any dividing line (2 mm lines on a 40 cm face
        // are 0.01 face radii; the guess from the gold runs low) or a white line in the black zone
        // would be taken for the white zone. Skipping a zone (an arrow hid the boundary) takes a
        // run of half a ring.
        let minRun = max(3, Int((0.03 * radiusGuess).rounded(.up)))
        let skipRun = max(5, Int((0.05 * radiusGuess).rounded(.up)))
        // The face's outer line, black inside the white zone, belongs to the face.
        let maxLine = max(3, Int((0.015 * radiusGuess).rounded(.up)))
        // Lines, noise and thin shafts between two zones are skipped; a wider gap is an occluder.
        let maxGap = max(4, Int((0.03 * radiusGuess).rounded(.up)))
        let maxLength = Int(7 * radiusGuess)
        var points = [[(x: Double, y: Double)]](repeating: [], count: boundaryCount)
        let labels = image.labels, width = image.width, height = image.height
        for ray in 0..<rayCount {
            let angle = Double(ray) * 2 * .pi / Double(rayCount)
            let dx = cos(angle), dy = sin(angle)
            // Labels along the ray, 1 px apart; 5 = outside the image.
            var along = [UInt8]()
            along.reserveCapacity(maxLength)
            for t in 0..<maxLength {
                let x = Int((gold.x + Double(t) * dx).rounded()), y = Int((gold.y + Double(t) * dy).rounded())
                guard x >= 0, y >= 0, x < width, y < height else { break }
                along.append(labels[y * width + x].rawValue)
            }
            var zone = 0, lastInZone = -1, t = 0
            while t < along.count {
                let label = Int(along[t])
                if label == zone { lastInZone = t; t += 1; continue }
                let candidate: Int? = zone == 4 ? (label != RingColor.white.rawValue.asInt ? 5 : nil)
                    : (label > zone && label <= 4 ? label : nil)
                guard let next = candidate, lastInZone >= 0 else { t += 1; continue }
                // The run must hold for minRun pixels (for the outside: anything but white).
                let needed = next == zone + 1 ? minRun : skipRun
                var run = 0
                while t + run < along.count, run < needed {
                    let l = Int(along[t + run])
                    if next == 5 ? l == RingColor.white.rawValue.asInt : l != next { break }
                    run += 1
                }
                let reachedEdge = t + run == along.count
                guard run >= needed || (next == 5 && reachedEdge && run >= 2) else { t += 1; continue }
                var start = t
                if next == 5 {
                    // The face's outer line is part of the face: the edge is where black ends.
                    var s = t
                    while s < t + run, s - t < maxLine, along[s] == RingColor.black.rawValue { s += 1 }
                    if s < t + run { start = s }
                }
                if next == zone + 1, start - lastInZone <= maxGap {
                    let r = Double(start) - 0.5
                    points[zone].append((gold.x + r * dx, gold.y + r * dy))
                }
                if next == 5 { break }
                zone = next
                lastInZone = t
                t += 1
            }
        }
        return Trace(seedX: gold.x, seedY: gold.y, radiusGuess: radiusGuess, points: points)
    }
}

private extension UInt8 {
    var asInt: Int { Int(self) }
}
