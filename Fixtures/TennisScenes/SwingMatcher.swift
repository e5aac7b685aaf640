import ReelworkCore

/// A swing as the analysis reported it (`result.swings[i]`), the fields the scoring reads.
public struct DetectedSwing: Sendable, Equatable {
    public var trackId: Int
    public var type: String
    public var contactTime: Double
    public var confidence: Double
    /// The codes of why a person should look at it; empty when nothing is in doubt.
    public var review: [String]

    /// `result.swings` read back; entries without a contact time are left out.
    public static func all(in result: JSONValue?) -> [DetectedSwing] {
        guard case .array(let swings)? = result else { return [] }
        return swings.compactMap { swing in
            guard case .number(let contact)? = swing["keyFrameTimes"]?["contact"] else { return nil }
            var review: [String] = []
            if case .array(let reasons)? = swing["review"] {
                review = reasons.map { text($0["code"]) }
            }
            return DetectedSwing(trackId: Int(swing["trackId"]?.number ?? 0), type: text(swing["type"]),
                                 contactTime: contact, confidence: swing["confidence"]?.number ?? 0, review: review)
        }
    }
}

private func text(_ value: JSONValue?) -> String {
    if case .string(let s)? = value { return s }
    return ""
}

/// One sequence's detections against its truth.
public struct SequenceScore: Sendable {
    public struct Match: Sendable {
        public var truth: Int
        public var detected: Int
        /// |detected − true contact| in the sequence's frames.
        public var errorFrames: Double
        public var typeRight: Bool
    }

    public var matches: [Match]
    /// Truth swings nothing was matched to, and detections matched to no swing (indices).
    public var missed: [Int]
    public var extra: [Int]
    public var truthCount: Int
    public var detectedCount: Int

    /// The "swing count right": as many swings reported as there were.
    public var countExact: Bool { truthCount == detectedCount }

    /// Whether detection `index` is right in everything a coach reads: a real swing, its contact
    /// within `SwingMatcher.contactFrames` frames, its type right.
    public func isRight(_ index: Int) -> Bool {
        matches.contains { $0.detected == index && $0.errorFrames <= SwingMatcher.contactFrames && $0.typeRight }
    }
}

/// Pairs detections with true swings by contact time.
public enum SwingMatcher {
    /// A detection is the same swing when its contact is this close (seconds): under half the
    /// shortest gap the generator leaves between contacts, so one detection cannot stand for two.
    public static let window = 0.45
    /// The target: contact within 2 frames.
    public static let contactFrames = 2.0

    /// Closest pairs first, each swing and each detection used once.
    public static func score(truth: [SwingTruth], detected: [DetectedSwing], fps: Double) -> SequenceScore {
        var pairs: [(gap: Double, truth: Int, detected: Int)] = []
        for (i, t) in truth.enumerated() {
            for (j, d) in detected.enumerated() where abs(d.contactTime - t.contactTime) <= window {
                pairs.append((abs(d.contactTime - t.contactTime), i, j))
            }
        }
        pairs.sort { ($0.gap, $0.truth, $0.detected) < ($1.gap, $1.truth, $1.detected) }
        var truthUsed = Set<Int>(), detectedUsed = Set<Int>()
        var matches: [SequenceScore.Match] = []
        for pair in pairs where !truthUsed.contains(pair.truth) && !detectedUsed.contains(pair.detected) {
            truthUsed.insert(pair.truth)
            detectedUsed.insert(pair.detected)
            matches.append(SequenceScore.Match(truth: pair.truth, detected: pair.detected, errorFrames: pair.gap * fps,
                                               typeRight: detected[pair.detected].type == truth[pair.truth].type))
        }
        return SequenceScore(matches: matches.sorted { $0.truth < $1.truth },
                             missed: truth.indices.filter { !truthUsed.contains($0) },
                             extra: detected.indices.filter { !detectedUsed.contains($0) },
                             truthCount: truth.count, detectedCount: detected.count)
    }
}
