import ReelworkCore
import SportKit

/// `swings` and `metrics` on what `objects` and `pose` saw: every tracked player's poses, and the
/// balls and rackets in each sampled frame.
final class TennisAnalysis: SportAnalysis {
    /// A swing found in one player's track, kept for the `metrics` stage.
    struct Found {
        var trackId: Int
        var candidate: SwingCandidate
        var track: [PoseFrame]
    }

    /// Tracks shorter than this (seconds of sampled frames) are passers-by, not players.
    static let minimumTrackFrames = 5

    let options: TennisOptions
    private var found: [Found] = []
    /// Every track with its id, for the people near each swing.
    private var tracks: [(id: Int, track: [PoseFrame])] = []

    init(options: TennisOptions) {
        self.options = options
    }

    func run(_ stage: StageName, on input: DecodedInput) throws -> [String: JSONValue] {
        switch stage {
        case .swings:
            found = findSwings(input.sampled)
            return [:]
        case .metrics:
            return ["swings": measure(found)]
        default:
            preconditionFailure("tennis has no stage \(stage.rawValue)")
        }
    }

    /// The `swings` stage: candidates in every player's track, in time order.
    func findSwings(_ sampled: SampledVision?) -> [Found] {
        guard let sampled else { return [] }
        let objects = Self.objectFrames(sampled)
        var found: [Found] = []
        let tracks = Self.poseTracks(sampled)
        self.tracks = tracks.map { (id: $0.0, track: $0.1) }
        for (trackId, raw) in tracks where raw.count >= Self.minimumTrackFrames {
            let others = tracks.filter { $0.0 != trackId }.map(\.1)
            let track = BorrowedLandmarks.distrusted(raw, among: others, hand: options.dominantHand)
            for candidate in SwingDetector.detect(track: track, objects: objects, options: options) {
                found.append(Found(trackId: trackId, candidate: candidate, track: track))
            }
        }
        return found
    }

    /// The `metrics` stage: `result.swings`, numbered from 1 in order of start time.
    func measure(_ found: [Found]) -> JSONValue {
        let swings = found.map { item -> (trackId: Int, json: JSONValue) in
            var swing = SwingMetricsCalculator.measure(item.candidate, track: item.track, options: options)
            let others = tracks.filter { $0.id != item.trackId }
            if let other = NearbyPeople.near(item.track, at: swing.keyFrameTimes.contact, others: others) {
                swing.review.append(.personNearby(trackId: other))
                swing.confidence = SwingConfidence.value(missingAtContact: swing.missingAtContact, review: swing.review)
            }
            return (item.trackId, swing.json())
        }.sorted { a, b in
            (a.json["startTime"]?.number ?? 0, a.trackId) < (b.json["startTime"]?.number ?? 0, b.trackId)
        }
        return .array(swings.enumerated().map { index, swing in
            guard case .object(var fields) = swing.json else { return swing.json }
            fields["swingNumber"] = .number(Double(index + 1))
            fields["trackId"] = .number(Double(swing.trackId))
            return .object(fields)
        })
    }

    /// Each pose track as this module reads it, in track id order.
    static func poseTracks(_ sampled: SampledVision) -> [(Int, [PoseFrame])] {
        sampled.tracks.map { track in
            (track.id, track.poses.map { pose in
                PoseFrame(time: pose.time, landmarks: pose.landmarks.map { Landmark(x: $0.x, y: $0.y, visibility: $0.visibility) })
            })
        }
    }

    /// Balls and rackets per sampled frame (COCO's classes; none with a detector whose classes are unnamed).
    static func objectFrames(_ sampled: SampledVision) -> [ObjectFrame] {
        guard sampled.classNames != nil else { return [] }
        let balls = sampled.classIds(named: "sports ball"), rackets = sampled.classIds(named: "tennis racket")
        return sampled.frames.map { frame in
            func boxes(_ classes: Set<Int>) -> [Box] {
                frame.boxes.filter { classes.contains($0.classId) }.map { d in
                    Box(x1: d.x1, y1: d.y1, x2: d.x2, y2: d.y2, confidence: d.confidence)
                }
            }
            return ObjectFrame(time: frame.time, balls: boxes(balls), rackets: boxes(rackets))
        }
    }
}
