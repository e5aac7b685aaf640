import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// A job page marks what a person should look at (issue 31, "say when unsure"): for a sport whose
/// rows carry `review` (basketball's shots, tennis's swings), a marker at the top of the result
/// counts them ("2 to review") and a table shows every row's confidence and review reasons, the
/// rows to review marked; a session with none says "nothing to review"; a sport whose rows carry
/// no `review` shows neither. The jobs run the diagnostic pipeline; their results are then written
/// as the sports' pipelines write them.
final class ReviewMarkerTests: CoordinatorTestCase {
    static let basketball = """
        {"hoop": {"source": "found"}, "shots": [
          {"shotNumber": 1, "releaseTime": 1, "rimTime": 2, "made": true, "shotType": "2PT", "distanceFt": 12, "confidence": 0.9, "review": []},
          {"shotNumber": 2, "releaseTime": 4, "rimTime": 5, "made": false, "shotType": "2PT", "distanceFt": 17.2, "confidence": 0.38, "review": [
            {"code": "ballHiddenAtRim", "message": "the ball is seen in 4 of the 13 frames around its arrival at the rim"},
            {"code": "nearThreePointLine", "message": "released 17.2 ft from the rim as measured, within the measuring error of the 22.15 ft three-point line"}]},
          {"shotNumber": 3, "releaseTime": 8, "rimTime": 9, "made": true, "shotType": "2PT", "distanceFt": 9, "confidence": 0.45, "review": [
            {"code": "madeMissedClose", "message": "the ball came down 8% of a rim width inside the rim's end: in or off the rim is close"}]}],
         "stats": {"fieldGoalsAttempted": 3, "fieldGoalsMade": 2, "threePointAttempted": 0, "threePointMade": 0, "points": 4}}
        """
    static let cleanBasketball = """
        {"hoop": {"source": "found"}, "shots": [
          {"shotNumber": 1, "releaseTime": 1, "rimTime": 2, "made": true, "shotType": "2PT", "distanceFt": 12, "confidence": 0.9, "review": []}],
         "stats": {"fieldGoalsAttempted": 1, "fieldGoalsMade": 1, "threePointAttempted": 0, "threePointMade": 0, "points": 2}}
        """
    static let tennis = """
        {"swings": [
          {"swingNumber": 1, "type": "forehand", "startTime": 0.2, "endTime": 0.6, "confidence": 0.97, "keyFrameTimes": {"contact": 0.4}, "review": []},
          {"swingNumber": 2, "type": "serve", "startTime": 1.2, "endTime": 1.8, "confidence": 0.53, "keyFrameTimes": {"contact": 1.5}, "review": [
            {"code": "nearSwingThreshold", "message": "the wrist's peak speed (11.2 torso lengths/s) is close to the swing threshold (9)"}]}]}
        """

    func testAJobPageMarksTheRowsToReviewWithTheirConfidenceAndReasons() throws {
        try stack.startWorker()
        let key = try stack.createKey(["--club", "alpha"])
        let client = try stack.client(key: key)
        let clip = try stack.makeTinyClip()
        let video = try awaitSync { try await client.uploadVideo(file: clip) }
        func job(_ sport: String, _ tag: Double) throws -> UUID {
            try awaitSync {
                try await client.createJob(CreateJobRequest(videoId: video.id, sport: sport, options: .object(["noop": .object([:]), "tag": .number(tag)])))
            }.id
        }
        let shots = try job("basketball", 1), clean = try job("basketball", 2), swings = try job("tennis", 3), bowling = try job("bowling", 4)
        for id in [shots, clean, swings, bowling] { XCTAssertEqual(try stack.waitForTerminal(id).status, .succeeded, stack.logTail()) }
        let db = try stack.db()
        for (id, result) in [(shots, Self.basketball), (clean, Self.cleanBasketball), (swings, Self.tennis),
                             (bowling, #"{"shots": [{"shotNumber": 1, "startTime": 0.1, "launchSpeed": 9.5, "flags": []}]}"#)] {
            try db.query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [id, result])
        }

        var page = DashboardSession(baseURL: stack.coordinatorURL)
        XCTAssertEqual(try page.signIn(key).status, 303)
        func html(_ id: UUID) throws -> String {
            let answer = try page.get("/dashboard/jobs/\(id.uuidString.lowercased())")
            XCTAssertEqual(answer.status, 200)
            return answer.body
        }
        func count(_ needle: String, in body: String) -> Int { body.components(separatedBy: needle).count - 1 }

        // Basketball: two of three shots to review, the marker first in the result, each reason shown.
        let body = try html(shots)
        let marker = try XCTUnwrap(body.range(of: #"id="review-count">2 to review</a>"#), body)
        let result = try XCTUnwrap(body.range(of: "<h2>Result</h2>"))
        XCTAssertLessThan(result.upperBound, marker.lowerBound)
        XCTAssertLessThan(marker.upperBound, try XCTUnwrap(body.range(of: #"id="review-rows""#)).lowerBound, "the marker is above the table")
        XCTAssertEqual(count(#"<tr class="needs-review">"#, in: body), 2, body)
        XCTAssertTrue(body.contains("the ball is seen in 4 of the 13 frames around its arrival at the rim"), body)
        XCTAssertTrue(body.contains(#"<span class="tag warn">madeMissedClose</span>"#), body)
        XCTAssertTrue(body.contains("<td>0.38</td>"), "each shot's confidence is shown: \(body)")
        XCTAssertTrue(body.contains("2 of 3 shots have a reason for a person to look (under Confidence and review"), body)

        // A session with nothing in doubt says so; tennis's swings get a confidence column of their own.
        let cleanBody = try html(clean)
        XCTAssertTrue(cleanBody.contains(#"id="review-count">nothing to review</a>"#), cleanBody)
        XCTAssertEqual(count(#"<tr class="needs-review">"#, in: cleanBody), 0)
        let tennisBody = try html(swings)
        XCTAssertTrue(tennisBody.contains(#"id="review-count">1 to review</a>"#), tennisBody)
        XCTAssertTrue(tennisBody.contains("<th>Confidence</th>") && tennisBody.contains("<td>0.53</td>"), tennisBody)
        XCTAssertTrue(tennisBody.contains("close to the swing threshold"), tennisBody)
        // Bowling's shots carry `flags`, not `review`: no marker.
        XCTAssertFalse(try html(bowling).contains("review-count"))

        // In Chromium, as a coach: the marker, the table it leads to (screenshots for a person to look at).
        let browser = try Tool.run("/usr/bin/python3", [
            TestStack.packageRoot.appendingPathComponent("tools/dashboard-browser/review.py").path, "--url", stack.coordinatorURL,
            "--club-key", key, "--job", shots.uuidString.lowercased(), "--expect", "2 to review", "--rows", "2",
            "--reason", "within the measuring error of the 22.15 ft three-point line",
            "--out", TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/review").path,
        ])
        print(String(decoding: browser, as: UTF8.self))
    }
}
