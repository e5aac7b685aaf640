import ReelworkCore
import SportKit

/// A person's corrections of a tennis session (issue 31): a false swing dropped (a player walking,
/// a ball bounced before a serve), a missed one added by its type and contact time. An added swing
/// has no window or metrics: nothing measured it.
public enum TennisCorrections {
    /// `{op: "drop", index}`, `{op: "add", type: forehand|backhand|serve, contactTime}`. Swings
    /// are ordered by contact time.
    public static let corrector = RowCorrector(rowNoun: "swing", resultKey: "swings", numberKey: "swingNumber",
                                               timePath: ["keyFrameTimes", "contact"], operations: [
        "drop": .drop,
        "add": .add { reader in
            let type = try reader.choice("type", SwingType.allCases.map(\.rawValue))
            return ["type": .string(type), "keyFrameTimes": .object(["contact": .number(try reader.time("contactTime"))]),
                    "startTime": .null, "endTime": .null, "confidence": .null]
        },
    ], example: #"{"op": "drop", "index": 3}, {"op": "add", "type": "backhand", "contactTime": 8.2}"#)
}
