/// SplitMix64: deterministic "camera noise", the same on every run and machine.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

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
