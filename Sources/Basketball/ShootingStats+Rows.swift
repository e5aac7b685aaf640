import ReelworkCore

extension ShootingStats {
    /// The line of shots as the result document holds them (`made`, `shotType`): a confirmed
    /// version's shots are JSON, some added by a person, never `BasketballShot`s.
    public init(rows: [JSONValue]) {
        let threes = rows.filter { $0["shotType"] == .string(ShotType.threePoint.rawValue) }
        self.init(fieldGoalsAttempted: rows.count, fieldGoalsMade: rows.count { $0["made"] == .bool(true) },
                  threePointAttempted: threes.count, threePointMade: threes.count { $0["made"] == .bool(true) })
    }
}
