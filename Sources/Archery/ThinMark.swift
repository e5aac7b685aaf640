/// Whether a pixel of the working image lies on a thin mark: a line a few pixels wide (a shaft, its
/// shadow) that differs from the background on both sides of it, where the two sides are alike.
///
/// Outside the face the background is no one colour (the paper's margin, the boss, the stand, the
/// sky behind), so a pixel cannot be judged against a colour expected there. It can be judged
/// against its neighbours across the mark: a step from one background to another (the boss's edge)
/// has unlike sides and is no mark; a patch wider than the reach (the boss itself, the sky) has
/// sides like the pixel.
struct ThinMark {
    let width: Int
    let height: Int
    let rgb: [UInt8]
    /// How far either side the neighbours are looked at (pixels): past half a shaft's width, its
    /// blur, and a 4:2:0 photo's colour smear; then past half a fletching's (about four shafts
    /// wide), whose pixels weigh on which end of the shaft is its nock.
    let reaches: [Int]
    /// Along the rows, the columns and both diagonals.
    private static let directions = [(1, 0), (0, 1), (1, 1), (1, -1)]

    init(image: WorkingImage, arrowRadiusPx: Double) {
        (width, height, rgb) = (image.width, image.height, image.rgb)
        let shaft = max(3, Int((2 * arrowRadiusPx + 2.5).rounded(.up)))
        reaches = [shaft, max(shaft + 2, Int((5 * arrowRadiusPx + 2.5).rounded(.up)))]
    }

    /// Across at least one of four directions (along the rows, the columns, both diagonals), both
    /// sides differ from the pixel by more than `limit` (RGB distance) and from each other by at
    /// most `limit`, and the pixel is not their colour in shadow (`ArrowFinder.isShadow`: a shaft's
    /// shadow on a coloured boss is as thin as the shaft).
    func isThinMark(at index: Int, limit: Double) -> Bool {
        let x = index % width, y = index / width
        let p = colour(index), limit2 = limit * limit
        for reach in reaches {
            for (dx, dy) in Self.directions {
                guard let (a, b) = sides(x: x, y: y, dx: dx, dy: dy, reach: reach),
                      distance2(a, b) <= limit2, distance2(p, a) > limit2, distance2(p, b) > limit2 else { continue }
                return !ArrowFinder.isShadow(p, of: (a + b) / 2, limit: limit)
            }
        }
        return false
    }

    /// The colours `reach` pixels either side of (x, y) along (dx, dy) (a diagonal step counted as
    /// √2), or nil where one falls outside the image.
    private func sides(x: Int, y: Int, dx: Int, dy: Int, reach: Int) -> (SIMD3<Double>, SIMD3<Double>)? {
        let step = dx != 0 && dy != 0 ? max(2, Int((Double(reach) / 2.0.squareRoot()).rounded(.up))) : reach
        let ax = x - dx * step, ay = y - dy * step, bx = x + dx * step, by = y + dy * step
        guard ax >= 0, ay >= 0, bx >= 0, by >= 0, ax < width, bx < width, ay < height, by < height else { return nil }
        return (colour(ay * width + ax), colour(by * width + bx))
    }

    private func colour(_ index: Int) -> SIMD3<Double> {
        SIMD3(Double(rgb[index * 3]), Double(rgb[index * 3 + 1]), Double(rgb[index * 3 + 2]))
    }

    private func distance2(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { ((a - b) * (a - b)).sum() }
}
