// Conversions and sums for numbers that come from outside (a file's header, a JSON body, a query):
// Swift traps on `Int(someDouble)` when the value is not finite or out of range, and on `a + b`
// when the sum overflows. A value from a client must never stop a process, so input paths use
// these instead and decide what an out-of-range value means (refuse it, or clamp it).

extension Int {
    /// `value` rounded by `rule`, or nil when it is not finite or does not fit in an Int.
    public init?(checkedRounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        guard value.isFinite else { return nil }
        self.init(exactly: value.rounded(rule))
    }

    /// `value` rounded by `rule` and clamped to Int's range; NaN becomes 0.
    public init(clampedRounding value: Double, _ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        if value.isNaN {
            self = 0
        } else if let exact = Int(checkedRounding: value, rule) {
            self = exact
        } else {
            self = value < 0 ? .min : .max
        }
    }
}

extension FixedWidthInteger {
    /// `self + other`, or nil when the sum overflows.
    public func checkedAdding(_ other: Self) -> Self? {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? nil : sum
    }

    /// `self × other`, or nil when the product overflows.
    public func checkedMultiplying(by other: Self) -> Self? {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? nil : product
    }
}
