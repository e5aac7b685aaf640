import ReelworkCore
import SportKit
import Sports
import XCTest

/// The registry and what the rest of the code reads beside it agree.
final class SportRegistryTests: XCTestCase {
    func test_EachPluginIsRegisteredUnderItsOwnSport() {
        for (sport, plugin) in SportRegistry.plugins { XCTAssertEqual(plugin.sport, sport) }
    }

    /// The store finds a sport's typed rows without the sport modules (`ResultTable.forSport`);
    /// the plug-in names the same table, so CSV, SQL rows and the result agree.
    func test_ThePluginsTableIsTheOneTheStoreWrites() {
        for sport in Sport.allCases {
            XCTAssertEqual(SportRegistry.plugin(for: sport)?.table?.sqlTable, ResultTable.forSport(sport)?.sqlTable, sport.rawValue)
            XCTAssertEqual(SportRegistry.plugin(for: sport)?.table?.columns.map(\.name), ResultTable.forSport(sport)?.columns.map(\.name), sport.rawValue)
        }
    }

    /// A sport's options are charged to its first own stage, which every plan has.
    func test_EveryPluginsPlanHasAStageForItsOptions() {
        for plugin in SportRegistry.plugins.values {
            XCTAssertNotNil(plugin.plan(options: .emptyObject).optionsStage, plugin.sport.rawValue)
        }
    }

    func test_TheCoordinatorsCheckUsesTheSportsParser() {
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["dominantHand": .string("both")]), sport: .tennis))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.emptyObject, sport: .bowling), "bowling needs a ballProfile")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.emptyObject, sport: .tennis))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["threePointDistanceFt": .number(40)]), sport: .basketball), "BasketballOptions' own range")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.emptyObject, sport: .basketball))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["expectedArrowCount": .number(0)]), sport: .archery), "ArcheryOptions' own range")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.object(["expectedArrowCount": .number(6)]), sport: .archery))
    }
}
