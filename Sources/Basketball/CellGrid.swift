/// The frame seen on a grid of cells: every `step`-th pixel of every `step`-th row. A ball at least
/// 2.5 px in radius at 540 rows cannot hide between samples, and a quarter of the pixels at 1080p
/// keeps the pass cheaper than decoding the frame.
struct CellGrid: Sendable {
    let step: Int
    let columns: Int
    let rows: Int

    init(width: Int, height: Int) {
        step = max(1, height / 540)
        columns = (width + step - 1) / step
        rows = (height + step - 1) / step
    }

    var count: Int { columns * rows }
}
