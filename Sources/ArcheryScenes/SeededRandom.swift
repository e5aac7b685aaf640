// The same generator as BowlingScenes (copied: the two scene modules do not depend on each other).
/// SplitMix64: a tiny deterministic generator, so "camera noise" is the same on every run and machine.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// A generator for one frame, independent of the frames rendered before it (random access).
    init(seed: UInt64, stream: Int) {
        self.init(seed: seed ^ (UInt64(truncatingIfNeeded: stream) &* 0x9E37_79B9_7F4A_7C15))
        _ = next()
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A whole number in -amplitude...amplitude.
    mutating func offset(amplitude: Int) -> Int {
        guard amplitude > 0 else { return 0 }
        return Int(next() % UInt64(2 * amplitude + 1)) - amplitude
    }
}
