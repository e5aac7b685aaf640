import ReelworkCore
import SportKit

/// A person's corrections of a bowling session (issue 31): a false shot dropped (a ball return, a
/// bowler walking through), a shot's result set to what the pins did. The measured metrics of a
/// kept shot stay as measured: a person corrects what they saw, not a speed.
public enum BowlingCorrections {
    /// Seed 000's `ShotResult` cases, and Reelwork's own `gutter` and `incomplete` (seed 003).
    public static let results = ["strike", "spare", "open", "split", "washout", "gutter", "incomplete"]

    /// `{op: "drop", index}`, `{op: "result", index, result}`. Shots keep the detected order.
    public static let corrector = RowCorrector(rowNoun: "shot", resultKey: "shots", numberKey: "shotNumber", timePath: nil, operations: [
        "drop": .drop,
        "result": .change { reader in ["result": .string(try reader.choice("result", results))] },
    ], example: #"{"op": "drop", "index": 1}, {"op": "result", "index": 0, "result": "strike"}"#)
}
