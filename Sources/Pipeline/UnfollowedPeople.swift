/// Whether the detector must look again because someone the tracker holds is not followed by their
/// landmarks (the tracked mode, beside its first run, its refresh and a lost person).
///
/// A track nobody follows is usually a player hidden behind another a moment ago: the detector looks
/// for them on every sample until they are found again or their track ends. A person the detector
/// saw but the pose model has never seen (a spectator cut by the frame's edge, a poster of a player)
/// is also a track nobody follows, and would keep the detector on every sample of the clip; they are
/// set aside until the detector's next run looks at them again. A hidden player is not set aside
/// even when the detector still finds their box: the pose model saw them before they were hidden.
struct UnfollowedPeople {
    /// Tracks the detector saw on its last run that the pose model has never seen.
    private(set) var unposable: Set<Int> = []
    /// Tracks the pose model has seen at least once (track ids are never reused within a clip).
    private var seen: Set<Int> = []

    /// True when fewer people are followed than the tracker holds (at most `limit`), the unposable
    /// left out.
    func needDetector(followed: Int, liveTracks: Set<Int>, limit: Int) -> Bool {
        followed < min(liveTracks.subtracting(unposable).count, limit)
    }

    /// The tracks followed after a frame.
    mutating func followed(_ tracks: some Sequence<Int>) {
        seen.formUnion(tracks)
    }

    /// After a frame the detector saw: the tracks it detected whose crop the pose model found
    /// nobody in.
    mutating func detectorRan(unseen tracks: Set<Int>) {
        unposable = tracks.subtracting(seen)
    }
}
