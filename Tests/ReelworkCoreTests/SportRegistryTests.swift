import ReelworkCore
import SportKit
import Sports
import XCTest

/// The registry and what the rest of the code reads beside it agree.
final class SportRegistryTests: XCTestCase {
    func test_EachPluginIsRegisteredUnderItsOwnSport() {
        for (sport, plugin) in SportRegistry.plugins { XCTAssertEqual(plugin.sport, sport) }
    }

    /// What the worker hands the store with a result (`SportRegistry.table(for:)`) is the plug-in's
    /// own table, and no two sports write the same SQL table. (StoreTests' ResultRowsTests hold
    /// each table to the columns the migrations made.)
    func test_TheStoreIsHandedEachPluginsOwnTable() {
        for sport in Sport.allCases {
            XCTAssertEqual(SportRegistry.table(for: sport)?.sqlTable, SportRegistry.plugin(for: sport)?.table?.sqlTable, sport.rawValue)
        }
        let tables = SportRegistry.plugins.values.compactMap(\.table).map(\.sqlTable)
        XCTAssertEqual(Set(tables).count, tables.count, "\(tables)")
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
