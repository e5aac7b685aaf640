public enum SwingMetricsCalculator {
    /// The `metrics` stage for one swing.
    public static func measure(_ swing: SwingCandidate, track: [PoseFrame], options: TennisOptions) -> Swing {
        SwingMeasurer.measure(swing, track: track, options: options)
    }
}
