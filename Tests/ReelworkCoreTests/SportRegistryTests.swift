import Archery
import Basketball
import Bowling
import ReelworkCore
import SportKit
import Sports
import Tennis
import XCTest

/// The registry and what the rest of the code reads beside it agree.
final class SportRegistryTests: XCTestCase {
    /// Each sport is registered once, looked up by its own plug-in, and known by its exact stored
    /// name only (`sport(named:)` answers stored rows; clients' names go through `Sport.parse`).
    func testEachPluginIsRegisteredUnderItsOwnSport() {
        XCTAssertEqual(Set(SportRegistry.sports).count, SportRegistry.plugins.count, "\(SportRegistry.sports)")
        for plugin in SportRegistry.plugins {
            XCTAssertEqual(SportRegistry.plugin(for: plugin.sport)?.sport, plugin.sport)
            XCTAssertEqual(SportRegistry.sport(named: plugin.sport.rawValue), plugin.sport)
            XCTAssertEqual(SportRegistry.plugin(named: plugin.sport.rawValue)?.sport, plugin.sport)
        }
        XCTAssertNil(SportRegistry.plugin(named: "tennis "), "stored names are exact")
        XCTAssertTrue(SportRegistry.sports.starts(with: [.tennis, .bowling, .archery, .basketball]), "the order messages list them in")
        XCTAssertNil(SportRegistry.sport(named: "curling"))
        XCTAssertNil(SportRegistry.sport(named: "Tennis"), "stored names are exact")
        XCTAssertNil(SportRegistry.plugin(for: Sport(rawValue: "curling")))
    }

    /// The registry's stages (the API's `StageName` values) are the generic ones and every
    /// plug-in's own, each once; a sport's plan names no stage the registry does not know.
    func testTheRegistryKnowsEveryStageAPlanNames() {
        let stages = SportRegistry.stages
        XCTAssertEqual(Set(stages).count, stages.count, "\(stages)")
        XCTAssertEqual(Array(stages.prefix(StageName.generic.count)), StageName.generic)
        for plugin in SportRegistry.plugins {
            for options: JSONValue in [.emptyObject, .object(["pose": .bool(true)])] {
                for stage in StageName.plan(for: plugin.sport, options: options) {
                    XCTAssertTrue(stages.contains(stage), "\(plugin.sport.rawValue): \(stage.rawValue)")
                }
            }
        }
        XCTAssertTrue(stages.map(\.rawValue).starts(with: ["probe", "decode", "objects", "pose", "noop", "swings", "metrics", "ball",
                                                           "shot_metrics", "scoring", "shots"]), "\(stages)")
    }

    /// What the worker hands the store with a result (`SportRegistry.table(for:)`) is the plug-in's
    /// own table, and no two sports write the same SQL table. (StoreTests' ResultRowsTests hold
    /// each table to the columns the migrations made.)
    func testTheStoreIsHandedEachPluginsOwnTable() {
        for sport in SportRegistry.sports {
            XCTAssertEqual(SportRegistry.table(for: sport)?.sqlTable, SportRegistry.plugin(for: sport)?.table?.sqlTable, sport.rawValue)
        }
        let tables = SportRegistry.plugins.compactMap(\.table).map(\.sqlTable)
        XCTAssertEqual(Set(tables).count, tables.count, "\(tables)")
    }

    /// `reelwork jobs results`' FOUND column: each sport sums up its own result in one line.
    func testEachSportSumsUpItsResultInOneLine() {
        func rows(_ n: Int) -> JSONValue { .array(Array(repeating: .emptyObject, count: n)) }
        func summary(_ sport: Sport, _ result: [String: JSONValue]) -> String? { SportRegistry.plugin(for: sport)?.summary(of: .object(result)) }
        XCTAssertEqual(summary(.bowling, ["shots": rows(3)]), "3 shots")
        XCTAssertEqual(summary(.bowling, ["shots": rows(1)]), "1 shot")
        XCTAssertEqual(summary(.tennis, ["swings": rows(2)]), "2 swings")
        XCTAssertEqual(summary(.tennis, ["swings": rows(0)]), "0 swings")
        XCTAssertEqual(summary(.basketball, ["shots": rows(10), "stats": .object(["fieldGoalsMade": .number(6)])]), "10 shots, 6 made")
        XCTAssertEqual(summary(.basketball, ["shots": rows(1)]), "1 shot")
        XCTAssertEqual(summary(.archery, ["arrows": rows(6), "total": .number(54)]), "6 arrows, 54")
        XCTAssertEqual(summary(.archery, ["arrows": rows(6)]), "-", "no total, no end")
        for sport in SportRegistry.sports { XCTAssertEqual(summary(sport, ["noop": .bool(true)]), "-", sport.rawValue) }
    }

    /// A sport's own correction routes (archery's `arrows`) are mounted side by side under
    /// `/v1/jobs/{id}/`: each needs a segment and a table of its own, and neither may be another
    /// route's or the row corrections' (`corrections`, `result_confirmations`).
    func testOwnCorrectionRoutesHaveTheirOwnSegmentAndTable() {
        let routes = SportRegistry.confirmationRoutes
        XCTAssertEqual(routes.map(\.sport), [.archery])
        let segments = routes.map(\.route.segment), tables = routes.map(\.route.confirmationsTable)
        XCTAssertEqual(Set(segments).count, segments.count, "\(segments)")
        XCTAssertEqual(Set(tables).count, tables.count, "\(tables)")
        for (sport, route) in routes {
            XCTAssertFalse(["corrections", "results", "picture", "report.pdf", "retry", "cancel"].contains(route.segment), sport.rawValue)
            XCTAssertNotEqual(route.confirmationsTable, "result_confirmations", sport.rawValue)
            XCTAssertFalse(route.operations.isEmpty, sport.rawValue)
        }
    }

    /// A sport's options are charged to its first own stage, which every plan has.
    func testEveryPluginsPlanHasAStageForItsOptions() {
        for plugin in SportRegistry.plugins {
            XCTAssertNotNil(plugin.plan(options: .emptyObject).optionsStage, plugin.sport.rawValue)
        }
    }

    func testTheCoordinatorsCheckUsesTheSportsParser() {
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["dominantHand": .string("both")]), sport: .tennis))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.emptyObject, sport: .bowling), "bowling needs a ballProfile")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.emptyObject, sport: .tennis))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["threePointDistanceFt": .number(40)]), sport: .basketball), "BasketballOptions' own range")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.emptyObject, sport: .basketball))
        XCTAssertThrowsError(try SportRegistry.checkOptions(.object(["expectedArrowCount": .number(0)]), sport: .archery), "ArcheryOptions' own range")
        XCTAssertNoThrow(try SportRegistry.checkOptions(.object(["expectedArrowCount": .number(6)]), sport: .archery))
    }
}
