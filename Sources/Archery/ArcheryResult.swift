import ReelworkCore

/// An archery job's result: one end scored from a photo (or from the steady frames of a video).
public struct ArcheryResult: Sendable, Equatable {
    public var face: TargetFace
    /// In the order found: by clock position from 12 o'clock.
    public var arrows: [DetectedArrow]
    public var total: Int
    public var xCount: Int
    public var tens: Int
    public var expectedArrowCount: Int?
    /// expectedArrowCount − arrows found, when that is positive.
    public var missingArrows: Int?
    public var message: String?
    /// Possible arrows found beyond `expectedArrowCount` and not scored (the least arrow-like).
    public var leftOutCandidates: Int?

    public init(face: TargetFace, arrows: [DetectedArrow], total: Int, xCount: Int, tens: Int, expectedArrowCount: Int?,
                missingArrows: Int?, message: String?, leftOutCandidates: Int? = nil) {
        (self.face, self.arrows, self.total, self.xCount, self.tens) = (face, arrows, total, xCount, tens)
        (self.expectedArrowCount, self.missingArrows, self.message) = (expectedArrowCount, missingArrows, message)
        self.leftOutCandidates = leftOutCandidates
    }

    /// The result document: `face` {center {x, y}, radius, ringsFound, homography}, `arrows[]`
    /// (seed 002's DetectedArrow fields plus `score`, `isXRing`), `total`, `xCount`, `tens`,
    /// and `expectedArrowCount`, `missingArrows`, `message` when arrows are missing, or
    /// `leftOutCandidates` and `message` when more were found than shot.
    public func json() -> JSONValue { ArcheryJSON.encode(self) }

    /// One CSV row per arrow, with a header row (`ArcheryCSV.columns`).
    public func csv() -> String { ArcheryCSV.text(for: self) }
}
