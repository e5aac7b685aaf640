import Foundation

/// Real-valued draws for the scene generators, on top of the 64-bit stream.
extension SeededRandom {
    /// Uniform in [0, 1), from the top 53 bits (a Double's whole mantissa).
    public mutating func unit() -> Double {
        Double(next() >> 11) / Double(UInt64(1) << 53)
    }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// A standard normal draw (Box–Muller; the first uniform is kept away from 0 so the log is finite).
    public mutating func gaussian() -> Double {
        let u = max(unit(), 1e-12), v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// True with probability `p`.
    public mutating func chance(_ p: Double) -> Bool {
        unit() < p
    }

    /// A whole number in `range`.
    public mutating func integer(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.upperBound - range.lowerBound + 1))
    }
}
