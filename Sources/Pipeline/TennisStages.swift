import ReelworkCore
import Tennis
import Vision

/// `swings` and `metrics`: the Tennis module run on what `objects` and `pose` recorded — every
/// tracked player's poses, and the balls and rackets in each sampled frame.
enum TennisStages {
    /// A swing found in one player's track, kept for the `metrics` stage.
    struct Found {
        var trackId: Int
        var candidate: SwingCandidate
        var track: [PoseFrame]
    }

    /// Tracks shorter than this (seconds of sampled frames) are passers-by, not players.
    static let minimumTrackFrames = 5

    /// The `swings` stage: candidates in every player's track, in time order.
    static func findSwings(options: JSONValue, recorder: VisionRecorder?) throws -> [Found] {
        let tennis = try TennisOptions.parse(options)
        guard let recorder else { return [] }
        let objects = objectFrames(recorder)
        var found: [Found] = []
        for (trackId, track) in poseTracks(recorder) where track.count >= minimumTrackFrames {
            for candidate in SwingDetector.detect(track: track, objects: objects, options: tennis) {
                found.append(Found(trackId: trackId, candidate: candidate, track: track))
            }
        }
        return found
    }

    /// The `metrics` stage: `result.swings`, numbered from 1 in order of start time.
    static func measure(_ found: [Found], options: JSONValue) throws -> JSONValue {
        let tennis = try TennisOptions.parse(options)
        let swings = found.map { item -> (trackId: Int, json: JSONValue) in
            (item.trackId, SwingMetricsCalculator.measure(item.candidate, track: item.track, options: tennis).json())
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

    /// Each pose track as the Tennis module reads it, in track id order.
    static func poseTracks(_ recorder: VisionRecorder) -> [(Int, [PoseFrame])] {
        recorder.tracks.keys.sorted().map { id in
            (id, recorder.tracks[id]!.map { frame in
                PoseFrame(time: frame.time, landmarks: stride(from: 0, to: frame.values.count - 2, by: 3).map { i in
                    Tennis.Landmark(x: Double(frame.values[i]) / 10, y: Double(frame.values[i + 1]) / 10,
                                    visibility: Double(frame.values[i + 2]) / 1000)
                })
            })
        }
    }

    /// Balls and rackets per sampled frame (COCO's classes; none with a custom detector).
    static func objectFrames(_ recorder: VisionRecorder) -> [ObjectFrame] {
        guard recorder.classes != nil else { return [] }
        return recorder.frames.map { frame in
            func boxes(_ classId: Int) -> [Box] {
                frame.boxes.filter { $0.classId == classId }.map { d in
                    Box(x1: d.box.x1, y1: d.box.y1, x2: d.box.x2, y2: d.box.y2, confidence: d.confidence)
                }
            }
            return ObjectFrame(time: frame.time, balls: boxes(COCOClass.sportsBall), rackets: boxes(COCOClass.tennisRacket))
        }
    }
}
