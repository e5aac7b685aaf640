import Bowling
import Foundation
import ReelworkCore
import SportKit
import Sports
import Store
import Tennis
import TestSupport
import XCTest

/// The typed result rows (bowling shots, tennis swings) are written by the statement that stores
/// the result, only by the run that owns the job, and replace an earlier attempt's rows.
final class ResultRowsTests: MigratedDatabaseTestCase {
    private func startedRun(sport: Sport, attempt: Int = 1, job: UUID? = nil) throws -> ClaimedRun {
        try db.startedRun(sport: sport, attempt: attempt, job: job)
    }

    private func document(_ result: JSONValue) -> AnalysisDocument {
        AnalysisDocument(video: nil, stages: [], warnings: [], result: result)
    }

    private func shot(_ number: Int, launch: Double?, flags: [String] = []) -> JSONValue {
        .object([
            "shotNumber": .number(Double(number)), "startTime": .number(0.5), "endTime": .number(3.25),
            "launchSpeed": launch.map(JSONValue.number) ?? .null, "entryAngle": .number(5.5), "revCategory": .string("tweener"),
            "strikeProbability": .number(0.8), "result": .null, "confidence": .number(0.9),
            "flags": .array(flags.map { .object(["code": .string($0), "message": .string("m, \"quoted\"")]) }),
            "unavailable": launch == nil ? .object(["launchSpeed": .string("Complete lane calibration to measure speed")]) : .object([:]),
            "trajectory": .array([
                .object(["t": .number(0.5), "x": .number(640), "y": .number(700), "board": .number(15), "distanceFt": .number(0),
                         "phase": .string("skid"), "interpolated": .bool(false)]),
                .object(["t": .number(0.6), "x": .number(641), "y": .number(650), "board": .number(14.5), "distanceFt": .number(2.5),
                         "phase": .string("skid"), "interpolated": .bool(true)]),
            ]),
        ])
    }

    /// Every registered sport's typed rows (its plug-in's `table`, defined in its own module) have
    /// the PostgreSQL table a migration made, with each column the store writes, of the column's
    /// type: the store links no sport, so only this holds the two together.
    func testEveryPluginsTableIsOneTheMigrationsMade() throws {
        let sqlType: [ResultTable.ColumnType: String] = [.integer: "integer", .number: "double precision", .text: "text",
                                                         .boolean: "boolean", .flags: "jsonb"]
        let tables = SportRegistry.plugins.compactMap(\.table)
        // A sport may have no rows; the four of today each have theirs, so the loop checks them all.
        XCTAssertGreaterThanOrEqual(tables.count, 4, "\(tables.map(\.sqlTable))")
        for table in tables {
            let made = try db.query("""
                SELECT column_name, data_type FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1
                """, [table.sqlTable]).rows
            var types: [String: String] = [:]
            for row in made { types[try row.string("column_name")] = try row.string("data_type") }
            XCTAssertFalse(types.isEmpty, "no migration made \(table.sqlTable)")
            for (column, type) in [("job_id", "uuid"), ("attempt", "integer"), ("unavailable", "jsonb")] {
                XCTAssertEqual(types[column], type, "\(table.sqlTable).\(column)")
            }
            for column in table.columns {
                XCTAssertEqual(types[column.sqlName], sqlType[column.type], "\(table.sqlTable).\(column.sqlName)")
            }
            if table.storesTrajectory { XCTAssertEqual(types["trajectory"], "jsonb", "\(table.sqlTable).trajectory") }
        }
    }

    func testShotsAreStoredAsRowsWithACompactTrajectoryAndReadBackAsCSV() throws {
        let run = try startedRun(sport: .bowling)
        let result = JSONValue.object(["shots": .array([shot(1, launch: 17.25, flags: ["speed_high", "angle"]), shot(2, launch: nil)])])
        XCTAssertTrue(try RunRepository(db).complete(run, document: document(result), facts: nil))

        let rows = try db.query("SELECT shot_number, launch_speed, rev_category, unavailable::text AS u, trajectory::text AS tr FROM bowling_shots ORDER BY shot_number").rows
        XCTAssertEqual(rows.map { $0["shot_number"] }, ["1", "2"])
        XCTAssertEqual(rows[0]["launch_speed"], "17.25")
        XCTAssertNil(rows[1]["launch_speed"], "a missing metric is NULL, not 0")
        XCTAssertEqual(rows[1]["u"], #"{"launchSpeed": "Complete lane calibration to measure speed"}"#)
        XCTAssertEqual(rows[0]["tr"], #"[[0.5, 640, 700, 15, 0, "skid", false], [0.6, 641, 650, 14.5, 2.5, "skid", true]]"#)

        let csv = try ResultRowsRepository(db).csv(jobId: run.jobId, table: .bowlingShots).components(separatedBy: "\r\n")
        XCTAssertEqual(csv[0], "shotNumber,startTime,endTime,launchSpeed,impactSpeed,foulLineBoard,arrowBoard,breakpointBoard,"
                             + "breakpointDistance,pocketBoard,pocketOffset,entryAngle,revRate,revCategory,strikeProbability,result,confidence,flags")
        XCTAssertEqual(csv[1], "1,0.5,3.25,17.25,,,,,,,,5.5,,tweener,0.8,,0.9,speed_high;angle")
        XCTAssertEqual(csv[2], "2,0.5,3.25,,,,,,,,,5.5,,tweener,0.8,,0.9,")
        XCTAssertEqual(csv.count, 4, "two rows and the final line end")
        // The same CSV as `reelwork analyze --format csv` makes from the document.
        XCTAssertEqual(ResultTable.bowlingShots.csv(from: result), csv.joined(separator: "\r\n"))
    }

    func testARetryReplacesTheEarlierAttemptsRowsAndALostRunWritesNone() throws {
        func swings(_ contacts: [Double]) -> AnalysisDocument {
            document(.object(["swings": .array(contacts.enumerated().map { index, contact in
                .object(["swingNumber": .number(Double(index + 1)), "trackId": .number(2), "type": .string("forehand"),
                         "keyFrameTimes": .object(["contact": .number(contact)]),
                         "metrics": .object(["peakWristSpeed": .number(9.5), "peakWristSpeedUnit": .string("torso/s")])])
            })]))
        }
        let first = try startedRun(sport: .tennis)
        XCTAssertTrue(try RunRepository(db).complete(first, document: swings([1.25, 2.5]), facts: nil))
        XCTAssertEqual(try db.query("SELECT contact_time FROM tennis_swings ORDER BY swing_number").rows.map { $0["contact_time"] }, ["1.25", "2.5"])

        // An operator retries the job; attempt 2 loses its lease and attempt 3 takes over.
        try db.query("UPDATE jobs SET status = 'queued' WHERE id = $1", [first.jobId])
        let second = try startedRun(sport: .tennis, attempt: 2, job: first.jobId)
        let third = try startedRun(sport: .tennis, attempt: 3, job: first.jobId)
        XCTAssertFalse(try RunRepository(db).complete(second, document: swings([9, 9, 9]), facts: nil), "the lost run no longer owns the job")
        XCTAssertEqual(try db.query("SELECT attempt FROM tennis_swings").rows.map { $0["attempt"] }, ["1", "1"], "it wrote nothing")

        XCTAssertTrue(try RunRepository(db).complete(third, document: swings([4.125]), facts: nil))
        let rows = try db.query("SELECT attempt, contact_time, peak_wrist_speed_unit FROM tennis_swings").rows
        XCTAssertEqual(rows.map { $0["attempt"] }, ["3"], "attempt 1's rows are gone")
        XCTAssertEqual(rows.first?["contact_time"], "4.125")
        XCTAssertEqual(try ResultRowsRepository(db).csv(jobId: first.jobId, table: .tennisSwings).components(separatedBy: "\r\n")[1],
                       "1,2,forehand,,,,,,4.125,,,9.5,torso/s,,,,")
    }

    func testARetryWithoutRowsStillDropsTheEarlierAttemptsRows() throws {
        let first = try startedRun(sport: .bowling)
        XCTAssertTrue(try RunRepository(db).complete(first, document: document(.object(["shots": .array([shot(1, launch: 16)])])), facts: nil))
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM bowling_shots").rows[0].int("n"), 1)

        try db.query("UPDATE jobs SET status = 'queued' WHERE id = $1", [first.jobId])
        let second = try startedRun(sport: .bowling, attempt: 2, job: first.jobId)
        XCTAssertTrue(try RunRepository(db).complete(second, document: document(.object(["shots": .array([])])), facts: nil))
        XCTAssertEqual(try db.query("SELECT count(*) AS n FROM bowling_shots").rows[0].int("n"), 0, "attempt 1's shot is gone")
        XCTAssertEqual(try ResultRowsRepository(db).csv(jobId: first.jobId, table: .bowlingShots).components(separatedBy: "\r\n").count, 2,
                       "the CSV is the header alone")
    }

    /// Whatever the result document holds, the rows never make the result fail to store: values of
    /// the wrong type become NULL, rows without a usable number are skipped, a repeated number keeps
    /// the first row.
    func testOddRowsNeverStopTheResultFromBeingStored() throws {
        let run = try startedRun(sport: .bowling)
        let result = JSONValue.object(["shots": .array([
            .object(["shotNumber": .number(1), "launchSpeed": .string("fast"), "revCategory": .number(3), "strikeProbability": .number(7),
                     "flags": .string("not a list"), "trajectory": .object([:])]),
            .object(["shotNumber": .number(1), "launchSpeed": .number(99)]),
            .object(["shotNumber": .string("two")]),
            .object(["shotNumber": .number(1e12)]),
            .object(["shotNumber": .number(0)]),
            .object(["launchSpeed": .number(12)]),
            .string("not a shot"),
            .object(["shotNumber": .number(3), "launchSpeed": .number(18.5)]),
        ])])
        XCTAssertTrue(try RunRepository(db).complete(run, document: document(result), facts: nil))
        XCTAssertEqual(try db.query("SELECT status FROM jobs WHERE id = $1", [run.jobId]).rows.first?["status"], "succeeded")
        let rows = try db.query("SELECT shot_number, launch_speed, rev_category, strike_probability, flags::text AS f FROM bowling_shots ORDER BY shot_number").rows
        XCTAssertEqual(rows.map { $0["shot_number"] }, ["1", "3"])
        XCTAssertNil(rows[0]["launch_speed"], "a string where a number belongs is NULL")
        XCTAssertNil(rows[0]["rev_category"], "a number where text belongs is NULL")
        XCTAssertEqual(rows[0]["strike_probability"], "7", "stored as given: the code validates, the insert does not refuse")
        XCTAssertEqual(rows[0]["f"], "[]")
        XCTAssertEqual(rows[1]["launch_speed"], "18.5")
    }
}
