/// SplitMix64: a tiny deterministic generator, so what it draws (a scene's "camera noise", archery's
/// line-fit tries) is the same on every run and machine. Not for anything that must be unpredictable.
public struct SeededRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one frame, independent of the frames rendered before it (random access).
    public init(seed: UInt64, stream: Int) {
        self.init(seed: seed ^ (UInt64(truncatingIfNeeded: stream) &* 0x9E37_79B9_7F4A_7C15))
        _ = next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in -amplitude...amplitude.
    public mutating func offset(amplitude: Int) -> Int {
        guard amplitude > 0 else { return 0 }
        return Int(next() % UInt64(2 * amplitude + 1)) - amplitude
    }
}
