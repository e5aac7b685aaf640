extension Duration {
    /// The duration as a number of seconds (what Prometheus's `_seconds` gauges hold).
    public var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
