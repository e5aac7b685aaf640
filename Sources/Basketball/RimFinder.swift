import ReelworkCore

/// Finds the rim when the `hoop` option is absent: an orange horizontal bar with a white backboard
/// beside or above it. Looks at the first `framesToLook` frames and takes the first bar that is
/// found in two frames in a row at the same place (a ball in flight is not a bar, and a bar seen once
/// may be a shirt's stripe).
struct RimFinder {
    static let framesToLook = 30
    /// A bar at least this many times as wide as it is tall.
    static let minAspect = 4.0

    let grid: CellGrid
    let table: ColorTable
    let width: Int
    let height: Int
    private(set) var framesLooked = 0
    private var previous: RimLine?
    private var mask: [UInt8]
    private var labeler: ComponentLabeler
    private var components: [Component] = []

    init(width: Int, height: Int, table: ColorTable) {
        (self.width, self.height, self.table) = (width, height, table)
        grid = CellGrid(width: width, height: height)
        mask = [UInt8](repeating: 0, count: grid.count)
        labeler = ComponentLabeler(rows: grid.rows)
    }

    /// The rim, once seen twice in the same place.
    mutating func look<Frame: RGBFrameRows>(at frame: Frame) -> RimLine? {
        framesLooked += 1
        let found = bestBar(in: frame)
        defer { previous = found }
        guard let found, let previous else { return nil }
        let tolerance = max(2.0, 0.05 * found.widthPixels) + Double(grid.step)
        let same = abs(found.left.x - previous.left.x) <= tolerance && abs(found.right.x - previous.right.x) <= tolerance
            && abs(found.centre.y - previous.centre.y) <= tolerance
        return same ? found : nil
    }

    private mutating func bestBar<Frame: RGBFrameRows>(in frame: Frame) -> RimLine? {
        let columns = grid.columns, step = grid.step, rimBit = ColorTable.rimBit
        for row in 0..<grid.rows {
            frame.withRow(row * step) { pixels, pixelStep in
                var pixel = pixels
                for column in 0..<columns {
                    mask[row * columns + column] = table.lookup(pixel) & rimBit != 0 ? 1 : 0
                    if column + 1 < columns { pixel += pixelStep * step }
                }
            }
        }
        mask.withUnsafeBufferPointer { labeler.label(mask: $0, columns: columns, rows: grid.rows, into: &components) }
        let s = Double(step)
        var best: (rim: RimLine, width: Double)?
        for bar in components {
            let w = Double(bar.width) * s, h = Double(bar.height) * s
            guard w >= RimLine.minimumWidthPixels, w >= Self.minAspect * h, Double(bar.cells) >= 0.5 * Double(bar.width * bar.height) else { continue }
            guard whiteShareNear(bar, frame: frame) >= 0.15 else { continue }
            if best.map({ w > $0.width }) ?? true {
                // The bar's ends are half a cell beyond its first and last cells' centres.
                let y = Double(bar.minY + bar.maxY) / 2 * s
                let rim = RimLine(left: FramePoint(x: (Double(bar.minX) - 0.5) * s, y: y), right: FramePoint(x: (Double(bar.maxX) + 0.5) * s, y: y))
                best = (rim, w)
            }
        }
        return best?.rim
    }

    /// The share of white pixels in the box one bar's width above the bar and one either side:
    /// where the backboard is, seen from the front (behind the bar) or from the side (beside it).
    private func whiteShareNear<Frame: RGBFrameRows>(_ bar: Component, frame: Frame) -> Double {
        let s = grid.step, barWidth = bar.width * s
        let left = max(0, bar.minX * s - barWidth), right = min(width - 1, bar.maxX * s + barWidth)
        let bottom = max(0, bar.minY * s - 1), top = max(0, bar.minY * s - barWidth)
        guard left < right, top < bottom else { return 0 }
        var white = 0, all = 0
        for y in stride(from: top, through: bottom, by: s) {
            frame.withRow(y) { pixels, pixelStep in
                var x = left
                while x <= right {
                    if table.lookup(pixels + x * pixelStep) & ColorTable.whiteBit != 0 { white += 1 }
                    all += 1
                    x += s
                }
            }
        }
        return all > 0 ? Double(white) / Double(all) : 0
    }
}
