import ReelworkCore
import SportMath

/// One round, moving, ball-coloured blob in a frame, in pixels.
struct BallCandidate: Sendable, Equatable {
    /// The centre of the blob's box: the rim's band or a net cord cutting the ball leaves it in place.
    var x: Double
    var y: Double
    /// Half the box's larger side.
    var radius: Double
    var area: Double
}

/// Finds ball candidates: cells of the ball's colour that are moving and outside the rim's band,
/// joined into round blobs.
///
/// The rim is orange too and must never be taken for the ball, so two independent guards keep it
/// out: cells in the band around the rim's line are never ball cells, and a cell that has been the
/// ball's colour for the last half second is scenery (the rim, a ball lying still, an orange sign),
/// not a ball in flight. The band also cuts a ball passing the rim in two, and net cords cut it
/// more: blobs whose boxes come within the band's height of each other are joined again.
final class BallBlobFinder {
    let grid: CellGrid
    let table: ColorTable
    let width: Int
    let height: Int
    /// Frames a cell may stay ball-coloured and still count as moving.
    let staticFrames: UInt16
    private let runLength: FixedBuffer<UInt16>
    private let mask: FixedBuffer<UInt8>
    /// 1 where a cell lies in the rim's band.
    private let rimMask: FixedBuffer<UInt8>
    private var labeler: ComponentLabeler
    private var components: [Component] = []
    private var joinGap = 1
    private var radiusRange = 2.5...Double.infinity
    private(set) var candidates: [BallCandidate] = []

    init(width: Int, height: Int, color: HSVColor, hueTolerance: Double, frameRate: Double) {
        (self.width, self.height) = (width, height)
        grid = CellGrid(width: width, height: height)
        table = ColorTable(ball: color, hueTolerance: hueTolerance)
        staticFrames = UInt16(max(3, min(1000, (frameRate * 0.5).rounded())))
        runLength = FixedBuffer(count: grid.count, repeating: 0)
        mask = FixedBuffer(count: grid.count, repeating: 0)
        rimMask = FixedBuffer(count: grid.count, repeating: 0)
        labeler = ComponentLabeler(rows: grid.rows)
        candidates.reserveCapacity(64)
        components.reserveCapacity(256)
    }

    /// Masks the rim's band and sets the ball sizes this rim allows (a ball nearer the camera than
    /// the rim looks larger, one farther smaller).
    func setRim(_ rim: RimLine) {
        let band = Self.bandHalfHeight(rim)
        let step = Double(grid.step)
        rimMask.fill(with: 0)
        for row in 0..<grid.rows {
            let y = Double(row) * step
            for column in 0..<grid.columns {
                let x = Double(column) * step
                guard x >= rim.left.x - band, x <= rim.right.x + band else { continue }
                if abs(y - rim.y(atX: min(max(x, rim.left.x), rim.right.x))) <= band { rimMask[row * grid.columns + column] = 1 }
            }
        }
        joinGap = Int((2 * band / step).rounded(.up)) + 1
        let expected = rim.expectedBallRadius
        radiusRange = max(2.5, 0.45 * expected)...max(3, 2.2 * expected)
    }

    /// The ball's radius if a blob with this box and area can be the ball: round (nearly square,
    /// and a disc fills π/4 of its box, less when cut by the band or cords), or a ball smeared by
    /// its motion (a capsule a ball wide); nil when it is neither or not of a ball's size here.
    func ballRadius(width w: Double, height h: Double, area: Double) -> Double? {
        let round = max(w, h) / 2
        if radiusRange.contains(round), max(w, h) <= 1.8 * min(w, h), area >= 0.3 * w * h { return round }
        guard let smear = BallSmear(boxWidth: w, boxHeight: h, area: area), radiusRange.contains(smear.diameter / 2) else { return nil }
        return smear.diameter / 2
    }

    /// Half the height of the band masked around the rim's line: the rim's tube, the ellipse a
    /// slightly raised camera sees, and a few pixels of error in the given ends.
    static func bandHalfHeight(_ rim: RimLine) -> Double { max(3, 0.12 * rim.widthPixels) }

    func find<Frame: RGBFrameRows>(in frame: Frame) {
        buildMask(frame)
        mask.withUnsafeBufferPointer { buffer in
            labeler.label(mask: buffer, columns: grid.columns, rows: grid.rows, into: &components)
        }
        collectCandidates()
    }

    private func buildMask<Frame: RGBFrameRows>(_ frame: Frame) {
        let columns = grid.columns, step = grid.step, limit = staticFrames
        let ballBit = ColorTable.ballBit
        for row in 0..<grid.rows {
            let base = row * columns
            frame.withRow(row * step) { pixels, pixelStep in
                var pixel = pixels
                let cellStep = pixelStep * step
                for column in 0..<columns {
                    let cell = base &+ column
                    if table.lookup(pixel) & ballBit != 0 {
                        let run = runLength[cell]
                        let next = run < UInt16.max ? run &+ 1 : run
                        runLength[cell] = next
                        mask[cell] = next <= limit && rimMask[cell] == 0 ? 1 : 0
                    } else {
                        runLength[cell] = 0
                        mask[cell] = 0
                    }
                    // The last column's step may point past the row; it is never read.
                    if column + 1 < columns { pixel += cellStep }
                }
            }
        }
    }

    private func collectCandidates() {
        candidates.removeAll(keepingCapacity: true)
        // Specks of one or two cells are noise; keep the largest blobs when a frame has very many.
        components.removeAll { $0.cells < 2 }
        if components.count > 128 {
            components.sort { $0.cells > $1.cells }
            components.removeLast(components.count - 128)
        }
        var i = 0
        while i < components.count {
            var merged = false
            var j = i + 1
            while j < components.count {
                if components[i].near(components[j], gap: joinGap) {
                    components[i].absorb(components[j])
                    components.remove(at: j)
                    merged = true
                } else {
                    j += 1
                }
            }
            if !merged { i += 1 }
        }
        let step = Double(grid.step)
        for component in components {
            let w = Double(component.width) * step, h = Double(component.height) * step
            let area = Double(component.cells) * step * step
            guard let radius = ballRadius(width: w, height: h, area: area) else { continue }
            // The box's centre: where the ball was halfway through the exposure when it is smeared.
            let x = (Double(component.minX + component.maxX) / 2) * step, y = (Double(component.minY + component.maxY) / 2) * step
            if candidates.count < candidates.capacity {
                candidates.append(BallCandidate(x: x, y: y, radius: radius, area: area))
            }
        }
    }
}
