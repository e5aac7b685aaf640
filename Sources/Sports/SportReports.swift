import Pictures
import ReelworkCore
import SportKit

/// The drawings of the registered sports (their plug-ins' `report`).
public enum SportReports {
    public static func forSport(_ sport: Sport) -> (any SportReport)? {
        SportRegistry.plugin(for: sport)?.report
    }
}
