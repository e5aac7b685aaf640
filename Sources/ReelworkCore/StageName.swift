/// Stage names as the API shows them. A run is an ordered list of stages.
public enum StageName: String, Codable, CaseIterable, Sendable {
    case probe, decode

    /// The stages a run of `sport` goes through, in order. Sport pipelines extend this list.
    public static func plan(for sport: Sport) -> [StageName] {
        [.probe, .decode]
    }
}
