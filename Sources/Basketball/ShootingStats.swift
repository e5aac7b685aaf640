import ReelworkCore

/// Seed 001's shooting totals for field goals from video (no free throws: they are not seen as
/// attempts at the hoop from open play). Percentages as the seed computes them: made ÷ attempted × 100,
/// 0 when nothing was attempted; eFG% = (FGM + 0.5 × 3PM) ÷ FGA × 100 (DOMAIN.md).
public struct ShootingStats: Sendable, Equatable {
    public var fieldGoalsAttempted: Int
    public var fieldGoalsMade: Int
    public var threePointAttempted: Int
    public var threePointMade: Int

    public init(fieldGoalsAttempted: Int = 0, fieldGoalsMade: Int = 0, threePointAttempted: Int = 0, threePointMade: Int = 0) {
        (self.fieldGoalsAttempted, self.fieldGoalsMade) = (fieldGoalsAttempted, fieldGoalsMade)
        (self.threePointAttempted, self.threePointMade) = (threePointAttempted, threePointMade)
    }

    public init(shots: [BasketballShot]) {
        self.init(fieldGoalsAttempted: shots.count, fieldGoalsMade: shots.count { $0.made },
                  threePointAttempted: shots.count { $0.shotType == .threePoint },
                  threePointMade: shots.count { $0.shotType == .threePoint && $0.made })
    }

    /// Several sessions as one table (a batch): counts add, percentages are recomputed from the sums.
    public static func total(_ sessions: [ShootingStats]) -> ShootingStats {
        sessions.reduce(into: ShootingStats()) { sum, s in
            sum.fieldGoalsAttempted += s.fieldGoalsAttempted
            sum.fieldGoalsMade += s.fieldGoalsMade
            sum.threePointAttempted += s.threePointAttempted
            sum.threePointMade += s.threePointMade
        }
    }

    public var fieldGoalPercentage: Double { Self.percentage(fieldGoalsMade, of: fieldGoalsAttempted) }
    public var threePointPercentage: Double { Self.percentage(threePointMade, of: threePointAttempted) }
    public var effectiveFieldGoalPercentage: Double {
        fieldGoalsAttempted > 0 ? (Double(fieldGoalsMade) + 0.5 * Double(threePointMade)) / Double(fieldGoalsAttempted) * 100 : 0
    }
    /// 2 for each made two, 3 for each made three.
    public var points: Int { 2 * (fieldGoalsMade - threePointMade) + 3 * threePointMade }

    static func percentage(_ made: Int, of attempted: Int) -> Double {
        attempted > 0 ? Double(made) / Double(attempted) * 100 : 0
    }

    /// `stats`: seed 001's names; percentages rounded to 0.1.
    public func json() -> JSONValue {
        func rounded(_ value: Double) -> JSONValue { .number((value * 10).rounded() / 10) }
        return .object([
            "fieldGoalsAttempted": .number(Double(fieldGoalsAttempted)), "fieldGoalsMade": .number(Double(fieldGoalsMade)),
            "fieldGoalPercentage": rounded(fieldGoalPercentage),
            "threePointAttempted": .number(Double(threePointAttempted)), "threePointMade": .number(Double(threePointMade)),
            "threePointPercentage": rounded(threePointPercentage),
            "effectiveFieldGoalPercentage": rounded(effectiveFieldGoalPercentage),
            "points": .number(Double(points)),
        ])
    }

    public static let csvHeader = ["fieldGoalsAttempted", "fieldGoalsMade", "fieldGoalPercentage", "threePointAttempted",
                                   "threePointMade", "threePointPercentage", "effectiveFieldGoalPercentage", "points"]

    /// One row under `csvHeader` (a batch's table: one row per session and one for the total).
    public func csvCells() -> [String] {
        let json = json()
        return Self.csvHeader.map { json[$0]?.number.map(CSV.number) ?? "" }
    }
}
