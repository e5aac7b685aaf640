import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A person corrects a basketball session through the real stack (issue 31): the confirmed version
/// is stored beside the detected result, the job's CSV, the season export, the batch's stats and
/// the corrections metric all follow it, only the job's own club can make or see it, and every bad
/// request is refused with nothing stored. The jobs run the diagnostic pipeline; their results are
/// then written as the basketball pipeline writes them (the document and its typed rows).
final class CorrectionsJobTests: CoordinatorTestCase {
    /// Three attempts: a missed two at 1 s, a made three at 4 s, a missed two at 8 s.
    static let session = """
        {"hoop": {"source": "found"}, "shots": [
          {"shotNumber": 1, "releaseTime": 1, "rimTime": 2, "made": false, "shotType": "2PT", "distanceFt": 15, "confidence": 0.8},
          {"shotNumber": 2, "releaseTime": 4, "rimTime": 5, "made": true, "shotType": "3PT", "distanceFt": 23, "confidence": 0.9},
          {"shotNumber": 3, "releaseTime": 8, "rimTime": 9, "made": false, "shotType": "2PT", "distanceFt": 12, "confidence": 0.7}],
         "stats": {"fieldGoalsAttempted": 3, "fieldGoalsMade": 1, "threePointAttempted": 1, "threePointMade": 1, "points": 3}}
        """

    func post(_ path: String, key: String, body: String) throws -> (status: Int, code: String?, message: String, json: JSONValue?) {
        let (data, status, _) = try HTTP.request("POST", URL(string: "\(stack.coordinatorURL)\(path)")!, key: key, body: Data(body.utf8),
                                                 headers: ["Content-Type": "application/json"])
        return (status, HTTP.apiError(data)?.code, HTTP.apiError(data)?.message ?? "", try? ReelworkJSON.decoder.decode(JSONValue.self, from: data))
    }

    func text(_ path: String, key: String) throws -> (status: Int, body: String) {
        let (data, status, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)\(path)")!, key: key)
        return (status, String(decoding: data, as: UTF8.self))
    }

    /// The job's result replaced by `session`, with its typed rows, as the worker writes both.
    func storeSession(_ job: UUID) throws {
        let db = try stack.db()
        try db.query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [job, Self.session])
        try db.query("""
            INSERT INTO basketball_shots (job_id, attempt, shot_number, release_time, rim_time, made, shot_type, distance_ft, confidence)
            SELECT $1, r.attempt, s.n, s.release, s.release + 1, s.made, s.type, s.distance, s.confidence
            FROM results r, (VALUES (1, 1.0, false, '2PT', 15.0, 0.8), (2, 4.0, true, '3PT', 23.0, 0.9), (3, 8.0, false, '2PT', 12.0, 0.7))
                 AS s(n, release, made, type, distance, confidence)
            WHERE r.job_id = $1
            """, [job])
    }

    /// `reelwork_corrections_total{sport, kind}` on the coordinator's `/metrics`.
    func corrections(_ kind: String, sport: String = "basketball") throws -> Double? {
        let (status, body) = try text("/metrics", key: stack.operatorKey)
        XCTAssertEqual(status, 200)
        let line = body.split(separator: "\n").first {
            $0.hasPrefix(MetricName.corrections + "{") && $0.contains(#"sport="\#(sport)""#) && $0.contains(#"kind="\#(kind)""#)
        }
        return line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
    }

    func confirmedRows(_ csv: String) -> [String] {
        Array(csv.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty })
    }

    func testABasketballSessionIsCorrectedByItsOwnClubAndEveryTotalFollowsTheConfirmedShots() throws {
        try stack.startWorker()
        let alphaKey = try stack.createKey(["--club", "alpha"]), betaKey = try stack.createKey(["--club", "beta"])
        let alpha = try stack.client(key: alphaKey)
        let clip = try stack.makeTinyClip()
        let video = try awaitSync { try await alpha.uploadVideo(file: clip) }
        let noop = JSONValue.object(["noop": .object([:])])
        let batch = try awaitSync { try await alpha.createBatch(CreateBatchRequest(sport: "basketball", options: noop)) }
        let corrected = try XCTUnwrap(try awaitSync { try await alpha.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [video.id])) }.jobIds.first)
        let untouched = try awaitSync {
            try await alpha.createJob(CreateJobRequest(videoId: video.id, sport: "basketball", options: .object(["noop": .object([:]), "tag": .number(2)])))
        }.id
        let archery = try awaitSync {
            try await alpha.createJob(CreateJobRequest(videoId: video.id, sport: "archery", options: .object(["noop": .object([:])])))
        }.id
        let failed = try awaitSync {
            try await alpha.createJob(CreateJobRequest(videoId: video.id, sport: "basketball",
                                                       options: .object(["noop": .object(["invalidAttempts": .number(1)]), "tag": .number(3)])))
        }.id
        for job in [corrected, untouched, archery] { XCTAssertEqual(try stack.waitForTerminal(job).status, .succeeded, stack.logTail()) }
        XCTAssertEqual(try stack.waitForTerminal(failed).status, .failed)
        for job in [corrected, untouched] { try storeSession(job) }
        let id = corrected.uuidString.lowercased(), path = "/v1/jobs/\(corrected.uuidString.lowercased())/corrections"
        let detectedCSV = try awaitSync { try await alpha.resultsCSV(corrected) }
        XCTAssertEqual(confirmedRows(detectedCSV).count, 3, detectedCSV)
        XCTAssertEqual(try corrections("made"), 0, "each kind is exported from the start")

        // Another club: exactly as if the job did not exist, and nothing is stored.
        let beta = try post(path, key: betaKey, body: #"{"corrections": [{"op": "drop", "index": 0}]}"#)
        XCTAssertEqual(beta.status, 404)
        XCTAssertEqual(beta.code, "job_not_found")
        XCTAssertEqual(try text(path, key: betaKey).status, 404)
        XCTAssertEqual(try text(path, key: alphaKey).status, 404, "nothing confirmed yet")

        // Bad corrections, wrong jobs: a clear answer each, nothing stored.
        let bad: [(String, String)] = [
            (#"{"corrections": [{"op": "drop", "index": 3}]}"#, "shot index 3 does not exist: the result has 3 detected shots (0…2)"),
            (#"{"corrections": [{"op": "move", "index": 0}]}"#, "corrections[0].op must be add, drop, made or type, not 'move'"),
            (#"{"corrections": [{"op": "made", "index": 0, "made": 1}]}"#, "corrections[0].made must be true or false"),
            (#"{"corrections": [{"op": "add", "releaseTime": 1e9, "made": true, "shotType": "2PT"}]}"#, "corrections[0].releaseTime must be seconds"),
            (#"{"corrections": [{"op": "drop", "index": 1}, {"op": "type", "index": 1, "shotType": "2PT"}]}"#, "shot 1 is already dropped"),
            (#"{"shots": []}"#, "corrections must be an array"),
        ]
        for (body, message) in bad {
            let answer = try post(path, key: alphaKey, body: body)
            XCTAssertEqual(answer.status, 400, body)
            XCTAssertEqual(answer.code, "invalid_corrections", body)
            XCTAssertTrue(answer.message.contains(message), "\(body): '\(answer.message)' should say '\(message)'")
        }
        XCTAssertEqual(try post(path, key: alphaKey, body: "{not json").code, "invalid_json")
        let notDone = try post("/v1/jobs/\(failed.uuidString.lowercased())/corrections", key: alphaKey, body: #"{"corrections": []}"#)
        XCTAssertEqual(notDone.status, 409)
        XCTAssertEqual(notDone.code, "no_results")
        let wrongSport = try post("/v1/jobs/\(archery.uuidString.lowercased())/corrections", key: alphaKey, body: #"{"corrections": []}"#)
        XCTAssertEqual(wrongSport.status, 422)
        XCTAssertEqual(wrongSport.code, "not_correctable")
        XCTAssertTrue(wrongSport.message.contains("/v1/jobs/{id}/arrows"), wrongSport.message)
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM result_confirmations").rows[0]["n"], "0")
        XCTAssertEqual(try corrections("drop"), 0, "refused corrections are not counted")

        // The first missed two was made; the three was a false attempt.
        let first = try post(path, key: alphaKey, body: #"{"corrections": [{"op": "made", "index": 0, "made": true}, {"op": "drop", "index": 1}]}"#)
        XCTAssertEqual(first.status, 201, first.message)
        XCTAssertEqual(first.json?["version"], .number(1))
        XCTAssertEqual(first.json?["shots"]?.arrayCount, 2)
        XCTAssertEqual(first.json?["stats"]?["fieldGoalsMade"], .number(1))
        XCTAssertEqual(first.json?["stats"]?["threePointAttempted"], .number(0))
        XCTAssertEqual(first.json?["stats"]?["points"], .number(2))

        // Both versions visible; the detected rows never change.
        let document = try awaitSync { try await alpha.results(corrected) }
        XCTAssertEqual(document.result["shots"]?.arrayCount, 3, "the detected result is unchanged")
        XCTAssertEqual(document.confirmed?["version"], .number(1))
        XCTAssertEqual(try stack.db().query("SELECT count(*) AS n FROM basketball_shots WHERE job_id = $1", [corrected]).rows[0]["n"], "3")
        XCTAssertNil(try awaitSync { try await alpha.results(untouched) }.confirmed)

        // The job's CSV, the confirmed CSV and the season export count the confirmed shots.
        let csv = try awaitSync { try await alpha.resultsCSV(corrected) }
        XCTAssertEqual(csv.components(separatedBy: "\r\n").first, detectedCSV.components(separatedBy: "\r\n").first, "the same columns")
        XCTAssertEqual(confirmedRows(csv).map { $0.split(separator: ",", omittingEmptySubsequences: false).prefix(5).joined(separator: ",") },
                       ["1,1,2,true,2PT", "2,8,9,false,2PT"])
        XCTAssertEqual(try awaitSync { try await alpha.confirmedCSV(corrected, .corrections) }, csv)
        XCTAssertEqual(try awaitSync { try await alpha.resultsCSV(untouched) }, detectedCSV, "an uncorrected job keeps its detected rows")
        let season = try text("/v1/results.csv?sport=basketball", key: alphaKey)
        XCTAssertEqual(season.status, 200, season.body)
        let seasonRows = confirmedRows(season.body)
        XCTAssertEqual(seasonRows.filter { $0.hasPrefix(id) }.count, 2, season.body)
        XCTAssertEqual(seasonRows.filter { $0.hasPrefix(untouched.uuidString.lowercased()) }.count, 3, season.body)
        XCTAssertTrue(seasonRows.contains { $0.hasPrefix(id) && $0.contains(",1,1,2,true,2PT,") }, season.body)

        // The batch's stats add up the confirmed shots.
        let (statsData, statsStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/batches/\(batch.id.uuidString.lowercased())/stats")!, key: alphaKey)
        XCTAssertEqual(statsStatus, 200)
        let stats = try ReelworkJSON.decoder.decode(JSONValue.self, from: statsData)
        XCTAssertEqual(stats["total"]?["fieldGoalsAttempted"], .number(2), "\(stats)")
        XCTAssertEqual(stats["total"]?["fieldGoalsMade"], .number(1), "\(stats)")
        XCTAssertEqual(stats["total"]?["points"], .number(2), "\(stats)")
        // So does the batch's PDF report (its totals and its table of shots).
        let (pdf, pdfStatus, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/v1/batches/\(batch.id.uuidString.lowercased())/report.pdf")!, key: alphaKey)
        XCTAssertEqual(pdfStatus, 200)
        let pdfFile = stack.directory.appendingPathComponent("batch.pdf")
        try pdf.write(to: pdfFile)
        let report = String(decoding: try Tool.run("pdftotext", ["-layout", pdfFile.path, "-"]), as: UTF8.self)
        XCTAssertNotNil(report.range(of: #"Field goals \(FGM/FGA\)\s+1/2"#, options: .regularExpression), report)

        // The CLI sends the next whole set: one more correction, counted once; the earlier two are not counted again.
        let file = stack.directory.appendingPathComponent("corrections.json")
        try Data(#"{"corrections": [{"op": "made", "index": 0, "made": true}, {"op": "drop", "index": 1}, {"op": "type", "index": 2, "shotType": "3PT"}]}"#.utf8)
            .write(to: file)
        let sent = try stack.run(["jobs", "correct", id, "--file", file.path], extraEnvironment: ["REELWORK_API_KEY": alphaKey])
        XCTAssertEqual(sent.status, 0, sent.output)
        let second = try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(sent.stdout.utf8))
        XCTAssertEqual(second["version"], .number(2))
        XCTAssertEqual(second["stats"]?["threePointAttempted"], .number(1))
        XCTAssertEqual(try corrections("made"), 1)
        XCTAssertEqual(try corrections("drop"), 1)
        XCTAssertEqual(try corrections("type"), 1)
        XCTAssertEqual(try corrections("add"), 0)

        // The job page shows both versions, and its form makes the next one; another club's page is missing.
        var page = DashboardSession(baseURL: stack.coordinatorURL)
        XCTAssertEqual(try page.signIn(alphaKey).status, 303)
        let shown = try page.get("/dashboard/jobs/\(id)")
        XCTAssertTrue(shown.body.contains("version 2"), shown.body)
        XCTAssertTrue(shown.body.contains("Save corrections"), shown.body)
        let saved = try page.post("/dashboard/jobs/\(id)/corrections", [
            ("csrf", try XCTUnwrap(shown.csrf)),
            ("corrections", #"{"corrections": [{"op": "add", "releaseTime": 6, "made": true, "shotType": "3PT"}]}"#),
        ])
        XCTAssertEqual(saved.status, 303, saved.body)
        XCTAssertEqual(try awaitSync { try await alpha.results(corrected) }.confirmed?["version"], .number(3))
        XCTAssertEqual(try corrections("add"), 1)
        let refused = try page.post("/dashboard/jobs/\(id)/corrections", [("csrf", try XCTUnwrap(shown.csrf)), ("corrections", #"{"corrections": [{"op": "drop", "index": 7}]}"#)])
        XCTAssertEqual(refused.status, 400)
        XCTAssertTrue(refused.body.contains("shot index 7 does not exist"), refused.body)
        var other = DashboardSession(baseURL: stack.coordinatorURL)
        XCTAssertEqual(try other.signIn(betaKey).status, 303)
        let otherCSRF = try XCTUnwrap(try other.get("/dashboard").csrf)
        XCTAssertEqual(try other.post("/dashboard/jobs/\(id)/corrections", [("csrf", otherCSRF), ("corrections", #"{"corrections": []}"#)]).status, 404)
        XCTAssertEqual(try stack.db().query("SELECT max(version) AS v FROM result_confirmations WHERE job_id = $1", [corrected]).rows[0]["v"], "3")

        // In Chromium, as a coach: the page, its button, the next version's totals (screenshots for a person to look at).
        let browser = try Tool.run("/usr/bin/python3", [
            TestStack.packageRoot.appendingPathComponent("tools/dashboard-browser/corrections.py").path, "--url", stack.coordinatorURL,
            "--club-key", alphaKey, "--job", id, "--corrections", #"{"corrections": [{"op": "drop", "index": 0}, {"op": "made", "index": 2, "made": true}]}"#,
            "--expect", "2/2", "--out", TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/corrections").path,
        ])
        print(String(decoding: browser, as: UTF8.self))
        XCTAssertEqual(try awaitSync { try await alpha.results(corrected) }.confirmed?["stats"]?["fieldGoalsAttempted"], .number(2))
    }

    /// Bowling and tennis through the same route: a false shot dropped and a result set, a missed
    /// swing added; the job's CSV and the season export (bowling's flags, tennis's contact time read
    /// out of the confirmed JSON) give the confirmed rows. Archery's arrows count in the same metric.
    func testABowlingShotAndATennisSwingAreCorrectedAndTheExportsFollow() throws {
        try stack.startWorker()
        let key = try stack.createKey(["--club", "gamma"])
        let client = try stack.client(key: key)
        let clip = try stack.makeTinyClip()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        func job(_ sport: String) throws -> UUID {
            try awaitSync { try await client.createJob(CreateJobRequest(videoId: video.id, sport: sport, options: .object(["noop": .object([:])]))) }.id
        }
        let bowling = try job("bowling"), tennis = try job("tennis"), archery = try job("archery")
        for id in [bowling, tennis, archery] { XCTAssertEqual(try stack.waitForTerminal(id).status, .succeeded, stack.logTail()) }
        let db = try stack.db()
        try db.query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [bowling, """
            {"shots": [{"shotNumber": 1, "startTime": 0.1, "launchSpeed": 9.5, "result": null, "flags": [{"code": "ball_return", "message": "a ball return"}]},
                       {"shotNumber": 2, "startTime": 0.5, "launchSpeed": 17.2, "result": "gutter", "flags": [{"code": "slow", "message": "slow"}]}]}
            """])
        try db.query("""
            INSERT INTO bowling_shots (job_id, attempt, shot_number, start_time, launch_speed, result, flags)
            SELECT $1, attempt, 1, 0.1, 9.5, NULL, '[{"code": "ball_return"}]'::jsonb FROM results WHERE job_id = $1
            UNION ALL SELECT $1, attempt, 2, 0.5, 17.2, 'gutter', '[{"code": "slow"}]'::jsonb FROM results WHERE job_id = $1
            """, [bowling])
        try db.query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [tennis, """
            {"swings": [{"swingNumber": 1, "type": "forehand", "startTime": 0.2, "endTime": 0.6, "keyFrameTimes": {"contact": 0.4}}]}
            """])
        try db.query("""
            INSERT INTO tennis_swings (job_id, attempt, swing_number, type, start_time, end_time, contact_time)
            SELECT $1, attempt, 1, 'forehand', 0.2, 0.6, 0.4 FROM results WHERE job_id = $1
            """, [tennis])

        let dropped = try post("/v1/jobs/\(bowling.uuidString.lowercased())/corrections", key: key,
                               body: #"{"corrections": [{"op": "drop", "index": 0}, {"op": "result", "index": 1, "result": "strike"}]}"#)
        XCTAssertEqual(dropped.status, 201, dropped.message)
        let bowlingCSV = try awaitSync { try await client.resultsCSV(bowling) }
        XCTAssertEqual(confirmedRows(bowlingCSV).count, 1, bowlingCSV)
        XCTAssertTrue(confirmedRows(bowlingCSV)[0].hasPrefix("1,0.5,"), bowlingCSV)
        XCTAssertTrue(confirmedRows(bowlingCSV)[0].hasSuffix(",strike,,slow"), bowlingCSV)
        let bowlingSeason = confirmedRows(try text("/v1/results.csv?sport=bowling", key: key).body)
        XCTAssertEqual(bowlingSeason.count, 1)
        XCTAssertTrue(bowlingSeason.first?.hasSuffix(",strike,,slow") ?? false, "\(bowlingSeason)")
        XCTAssertEqual(try corrections("drop", sport: "bowling"), 1)
        XCTAssertEqual(try corrections("result", sport: "bowling"), 1)
        let wrongOp = try post("/v1/jobs/\(bowling.uuidString.lowercased())/corrections", key: key, body: #"{"corrections": [{"op": "add", "startTime": 1}]}"#)
        XCTAssertEqual(wrongOp.status, 400)
        XCTAssertTrue(wrongOp.message.contains("corrections[0].op must be drop or result, not 'add'"), wrongOp.message)

        let added = try post("/v1/jobs/\(tennis.uuidString.lowercased())/corrections", key: key,
                             body: #"{"corrections": [{"op": "add", "type": "serve", "contactTime": 0.1}]}"#)
        XCTAssertEqual(added.status, 201, added.message)
        let tennisSeason = confirmedRows(try text("/v1/results.csv?sport=tennis", key: key).body)
        XCTAssertEqual(tennisSeason.count, 2, "\(tennisSeason)")
        let header = try text("/v1/results.csv?sport=tennis", key: key).body.components(separatedBy: "\r\n")[0].split(separator: ",")
        let contact = try XCTUnwrap(header.firstIndex(of: "contactTime")), type = try XCTUnwrap(header.firstIndex(of: "type"))
        let cells = tennisSeason.map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        XCTAssertEqual(cells.map { String($0[type]) }, ["serve", "forehand"], "the added serve first, by its contact time")
        XCTAssertEqual(cells.map { String($0[contact]) }, ["0.1", "0.4"])
        XCTAssertEqual(try corrections("add", sport: "tennis"), 1)

        let end = #"{"arrows": [{"id": 0, "arrowNumber": 1, "normalizedX": 0.02, "normalizedY": 0.015, "score": 10, "isXRing": true}], "total": 10, "xCount": 1, "tens": 1, "input": "photo"}"#
        try db.query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [archery, end])
        XCTAssertEqual(try corrections("delete", sport: "archery"), 0)
        let deleted = try post("/v1/jobs/\(archery.uuidString.lowercased())/arrows", key: key, body: #"{"corrections": [{"op": "delete", "index": 0}]}"#)
        XCTAssertEqual(deleted.status, 201, deleted.message)
        XCTAssertEqual(try corrections("delete", sport: "archery"), 1)
    }
}

private extension JSONValue {
    var arrayCount: Int? { if case .array(let items) = self { items.count } else { nil } }
}
