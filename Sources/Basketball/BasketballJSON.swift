import ReelworkCore
import SportKit

/// The result document and the CSV, in one place so the names match.
enum BasketballJSON {
    static let csvHeader = ["shotNumber", "releaseTime", "rimTime", "made", "shotType", "distanceFt", "confidence"]

    static func result(_ r: BasketballResult) -> JSONValue {
        .object([
            "hoop": .object([
                "rimLeft": point(r.hoop.left), "rimRight": point(r.hoop.right), "source": .string(r.hoopSource.rawValue),
                "pixelsPerFoot": .number(round(r.hoop.pixelsPerFoot, 0.01)),
            ]),
            "shots": .array(r.shots.map(shot)),
            "stats": r.stats.json(),
            "framesSeen": .number(Double(r.framesSeen)),
            "framesWithBall": .number(Double(r.framesWithBall)),
            "framesWithBallFromDetector": .number(Double(r.framesWithBallFromDetector)),
            "threePointDistanceFt": .number(r.threePointDistanceFt),
        ])
    }

    static func shot(_ s: BasketballShot) -> JSONValue {
        .object([
            "shotNumber": .number(Double(s.shotNumber)),
            "releaseTime": .number(round(s.releaseTime, 0.001)),
            "rimTime": .number(round(s.rimTime, 0.001)),
            "made": .bool(s.made),
            "shotType": .string(s.shotType.rawValue),
            "distanceFt": .number(round(s.distanceFt, 0.1)),
            "confidence": .number(s.confidence),
            "releasePoint": point(s.releasePoint),
            "trajectory": .array(s.trajectory.map { .array([.number(round($0.t, 0.001)), .number(round($0.x, 0.1)), .number(round($0.y, 0.1))]) }),
            "review": .array(s.review.map(\.json)),
        ])
    }

    static func csv(_ shots: [BasketballShot]) -> String {
        CSV.render(header: csvHeader, rows: shots.map { s in
            [String(s.shotNumber), CSV.number(round(s.releaseTime, 0.001)), CSV.number(round(s.rimTime, 0.001)),
             s.made ? "true" : "false", s.shotType.rawValue, CSV.number(round(s.distanceFt, 0.1)), CSV.number(s.confidence)]
        })
    }

    static func point(_ p: FramePoint) -> JSONValue { .array([.number(round(p.x, 0.1)), .number(round(p.y, 0.1))]) }

    /// To the nearest `unit` (0.1, 0.01, 0.001), divided rather than multiplied back so that 24.7
    /// prints as 24.7, not 24.700000000000003.
    static func round(_ value: Double, _ unit: Double) -> Double {
        let steps = (1 / unit).rounded()
        return (value * steps).rounded() / steps
    }
}
