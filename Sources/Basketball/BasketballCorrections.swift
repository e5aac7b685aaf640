import ReelworkCore
import SportKit

/// A person's corrections of a basketball session (issue 31): a shot made or missed, a two or a
/// three, an attempt the finder missed added, a false one dropped. The confirmed version's `stats`
/// are seed 001's shooting line recomputed from its shots, so a corrected session's percentages
/// never mix detected and confirmed shots.
public enum BasketballCorrections {
    static let shotTypes = ShotType.allCases.map(\.rawValue)

    /// `{op: "made", index, made}`, `{op: "type", index, shotType: "2PT"|"3PT"}`, `{op: "drop",
    /// index}`, `{op: "add", releaseTime, made, shotType}` (an added attempt has no rim time,
    /// distance or confidence: nothing measured it). Shots are ordered by release time.
    public static let corrector = RowCorrector(rowNoun: "shot", resultKey: "shots", numberKey: "shotNumber", timePath: ["releaseTime"], operations: [
        "drop": .drop,
        "made": .change { reader in ["made": .bool(try reader.bool("made"))] },
        "type": .change { reader in ["shotType": .string(try reader.choice("shotType", shotTypes))] },
        "add": .add { reader in
            ["releaseTime": .number(try reader.time("releaseTime")), "made": .bool(try reader.bool("made")),
             "shotType": .string(try reader.choice("shotType", shotTypes)), "rimTime": .null, "distanceFt": .null, "confidence": .null]
        },
    ], example: #"{"op": "made", "index": 2, "made": true}, {"op": "type", "index": 0, "shotType": "3PT"}, {"op": "drop", "index": 4}, {"op": "add", "releaseTime": 12.4, "made": false, "shotType": "2PT"}"#,
    summary: { shots in ["stats": ShootingStats(rows: shots).json()] })
}
