/// Solves small dense linear systems A·x = b (homographies: 8×8; parabola and conic fits, Gauss–Newton
/// steps: a few unknowns). Shared by the sports so a degenerate fit fails the same way everywhere.
public enum LinearSolver {
    /// Gaussian elimination with partial pivoting. `a` is row-major n×n. Returns nil when the
    /// system is singular or nearly so (a pivot below `1e-12` × the largest entry), so degenerate
    /// calibration points fail instead of producing a wild transform.
    public static func solve(_ a: [Double], _ b: [Double]) -> [Double]? {
        let n = b.count
        guard n > 0, a.count == n * n, a.allSatisfy(\.isFinite), b.allSatisfy(\.isFinite) else { return nil }
        var m = a, rhs = b
        let scale = m.map(abs).max() ?? 0
        guard scale > 0 else { return nil }
        for column in 0..<n {
            var pivotRow = column
            for row in column + 1..<n where abs(m[row * n + column]) > abs(m[pivotRow * n + column]) {
                pivotRow = row
            }
            guard abs(m[pivotRow * n + column]) > 1e-12 * scale else { return nil }
            if pivotRow != column {
                for k in 0..<n { m.swapAt(column * n + k, pivotRow * n + k) }
                rhs.swapAt(column, pivotRow)
            }
            let pivot = m[column * n + column]
            for row in column + 1..<n {
                let factor = m[row * n + column] / pivot
                if factor == 0 { continue }
                for k in column..<n { m[row * n + k] -= factor * m[column * n + k] }
                rhs[row] -= factor * rhs[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = rhs[row]
            for k in row + 1..<n { sum -= m[row * n + k] * x[k] }
            x[row] = sum / m[row * n + row]
        }
        return x.allSatisfy(\.isFinite) ? x : nil
    }
}
