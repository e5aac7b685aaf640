/// A connected group of marked cells (8-connected), in cell coordinates.
struct Component: Sendable {
    var cells: Int
    var minX: Int
    var maxX: Int
    var minY: Int
    var maxY: Int

    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }

    mutating func absorb(_ other: Component) {
        cells += other.cells
        minX = min(minX, other.minX); maxX = max(maxX, other.maxX)
        minY = min(minY, other.minY); maxY = max(maxY, other.maxY)
    }

    /// Whether the boxes, each grown by `gap` cells, overlap.
    func near(_ other: Component, gap: Int) -> Bool {
        minX - gap <= other.maxX && other.minX - gap <= maxX && minY - gap <= other.maxY && other.minY - gap <= maxY
    }
}

/// Labels the marked cells of a mask (1 = marked) into components: horizontal runs, joined to the
/// touching runs of the row above with union–find over runs (far fewer than cells). Buffers are
/// reused from frame to frame.
struct ComponentLabeler {
    private var runY: [Int32] = []
    private var runStart: [Int32] = []
    private var runEnd: [Int32] = []
    private var parent: [Int32] = []
    /// More runs than this in one frame is noise (or a surface of the ball's colour): the rest are dropped.
    let runCapacity: Int

    init(rows: Int) {
        runCapacity = max(4096, rows * 16)
        for array in [\ComponentLabeler.runY, \.runStart, \.runEnd, \.parent] { self[keyPath: array].reserveCapacity(runCapacity) }
    }

    mutating func label(mask: UnsafeBufferPointer<UInt8>, columns: Int, rows: Int, into components: inout [Component]) {
        runY.removeAll(keepingCapacity: true); runStart.removeAll(keepingCapacity: true)
        runEnd.removeAll(keepingCapacity: true); parent.removeAll(keepingCapacity: true)
        components.removeAll(keepingCapacity: true)
        var previousFirst = 0, previousEnd = 0
        for y in 0..<rows {
            let rowFirst = runY.count
            let base = y * columns
            var x = 0
            while x < columns {
                while x < columns && mask[base + x] == 0 { x &+= 1 }
                if x >= columns { break }
                let start = x
                while x < columns && mask[base + x] != 0 { x &+= 1 }
                guard runY.count < runCapacity else { break }
                runY.append(Int32(y)); runStart.append(Int32(start)); runEnd.append(Int32(x - 1))
                parent.append(Int32(runY.count - 1))
            }
            let rowEnd = runY.count
            if y > 0 {
                var j = previousFirst
                for i in rowFirst..<rowEnd {
                    while j < previousEnd && runEnd[j] + 1 < runStart[i] { j += 1 }
                    var k = j
                    while k < previousEnd && runStart[k] <= runEnd[i] + 1 {
                        union(i, k)
                        k += 1
                    }
                }
            }
            (previousFirst, previousEnd) = (rowFirst, rowEnd)
        }
        guard !runY.isEmpty else { return }
        // Roots come before their members (the smaller index wins), so one pass in order suffices.
        var slot = [Int32](repeating: -1, count: runY.count)
        for i in 0..<runY.count {
            let root = find(i)
            let length = Int(runEnd[i] - runStart[i]) + 1, y = Int(runY[i])
            if slot[root] < 0 {
                slot[root] = Int32(components.count)
                components.append(Component(cells: length, minX: Int(runStart[i]), maxX: Int(runEnd[i]), minY: y, maxY: y))
            } else {
                components[Int(slot[root])].absorb(Component(cells: length, minX: Int(runStart[i]), maxX: Int(runEnd[i]), minY: y, maxY: y))
            }
        }
    }

    private mutating func find(_ i: Int) -> Int {
        var i = i
        while Int(parent[i]) != i {
            parent[i] = parent[Int(parent[i])]
            i = Int(parent[i])
        }
        return i
    }

    private mutating func union(_ a: Int, _ b: Int) {
        let rootA = find(a), rootB = find(b)
        if rootA < rootB { parent[rootB] = Int32(rootA) } else if rootB < rootA { parent[rootA] = Int32(rootB) }
    }
}
