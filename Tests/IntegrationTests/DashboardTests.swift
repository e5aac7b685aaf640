import Foundation
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// The dashboard over HTTP, on a real stack: sign-in and its cookie, CSRF on every action, a
/// revoked key's session, club isolation, bulk actions that confirm their count and change
/// exactly what the filter matches, and clear answers to malformed filters.
final class DashboardTests: QueueStackTestCase {
    var alphaKey = ""
    var betaKey = ""
    var dashboard: DashboardSession { DashboardSession(baseURL: stack.coordinatorURL) }

    override func setUpWithError() throws {
        try super.setUpWithError()
        alphaKey = try stack.createKey(["--club", "alpha"])
        betaKey = try stack.createKey(["--club", "beta"])
    }

    func signedIn(_ key: String) throws -> DashboardSession {
        var session = dashboard
        let answer = try session.signIn(key)
        XCTAssertEqual(answer.status, 303, answer.body)
        return session
    }

    func test_SignInTakesAValidKeyAndGivesAStrictHttpOnlyCookie() throws {
        let anonymous = try dashboard.get("/dashboard")
        XCTAssertEqual(anonymous.status, 303)
        XCTAssertEqual(anonymous.headers["location"], "/dashboard/login")
        XCTAssertEqual(try dashboard.get("/dashboard/login").status, 200)

        var session = dashboard
        let garbage = try session.signIn("hello")
        XCTAssertEqual(garbage.status, 401)
        XCTAssertTrue(garbage.body.contains("That is not an API key"), garbage.body)
        XCTAssertNil(session.cookie)
        let workerKey = try stack.createKey(["--worker"])
        let worker = try session.signIn(workerKey)
        XCTAssertEqual(worker.status, 403)
        XCTAssertTrue(worker.body.contains("Worker keys cannot sign in"), worker.body)

        let ok = try session.signIn(alphaKey)
        XCTAssertEqual(ok.status, 303)
        XCTAssertEqual(ok.headers["location"], "/dashboard")
        let cookie = try XCTUnwrap(ok.headers["set-cookie"])
        for attribute in ["HttpOnly", "SameSite=Strict", "Path=/dashboard"] {
            XCTAssertTrue(cookie.contains(attribute), "the cookie has \(attribute): \(cookie)")
        }
        XCTAssertFalse(cookie.contains(alphaKey), "the cookie is not the key")
        let overview = try session.get("/dashboard")
        XCTAssertEqual(overview.status, 200)
        XCTAssertTrue(overview.body.contains("club alpha"), "the page says who is signed in")
        XCTAssertEqual(overview.headers["cache-control"], "no-store")

        let out = try session.post("/dashboard/logout", [("csrf", try XCTUnwrap(overview.csrf))])
        XCTAssertEqual(out.status, 303)
        XCTAssertTrue(out.headers["set-cookie"]?.contains("Max-Age=0") == true)
        let after = try session.get("/dashboard")
        XCTAssertEqual(after.status, 401, "the old cookie no longer works after signing out")
    }

    func test_AnActionWithoutTheSessionsCSRFTokenChangesNothing() throws {
        let session = try signedIn(stack.operatorKey)
        let api = try stack.client()
        let csrf = try XCTUnwrap(try session.get("/dashboard").csrf)

        let missing = try session.post("/dashboard/queue/pause", [])
        XCTAssertEqual(missing.status, 403)
        XCTAssertTrue(missing.body.contains("no security token"), missing.body)
        let forged = try session.post("/dashboard/queue/pause", [("csrf", String(repeating: "0", count: csrf.count))])
        XCTAssertEqual(forged.status, 403)
        XCTAssertTrue(forged.body.contains("does not match"), forged.body)
        XCTAssertFalse(try awaitSync { try await api.queueStats() }.paused, "a refused form paused nothing")

        let other = try signedIn(stack.operatorKey)
        let otherCSRF = try XCTUnwrap(try other.get("/dashboard").csrf)
        XCTAssertNotEqual(otherCSRF, csrf, "each session has its own token")
        XCTAssertEqual(try session.post("/dashboard/queue/pause", [("csrf", otherCSRF)]).status, 403, "another session's token is refused")
        XCTAssertFalse(try awaitSync { try await api.queueStats() }.paused)

        let paused = try session.post("/dashboard/queue/pause", [("csrf", csrf)])
        XCTAssertEqual(paused.status, 303)
        XCTAssertTrue(try awaitSync { try await api.queueStats() }.paused, "the right token pauses the queue")
        XCTAssertTrue(try session.get("/dashboard").body.contains("Resume all claims"))
        XCTAssertEqual(try session.post("/dashboard/queue/resume", [("csrf", csrf)]).status, 303)
        XCTAssertFalse(try awaitSync { try await api.queueStats() }.paused)
    }

    func test_ARevokedKeysSessionEndsAtOnce() throws {
        let session = try signedIn(alphaKey)
        XCTAssertEqual(try session.get("/dashboard").status, 200)
        try stack.db().query("UPDATE api_keys SET revoked_at = now() WHERE id = (SELECT k.id FROM api_keys k JOIN clubs c ON c.id = k.club_id WHERE c.name = 'alpha')")
        let after = try session.get("/dashboard/jobs")
        XCTAssertEqual(after.status, 401)
        XCTAssertTrue(after.body.contains("its API key was revoked"), after.body)
        XCTAssertEqual(try session.post("/dashboard/logout", []).status, 401, "and its forms do nothing")
    }

    func test_AClubKeySeesAndChangesItsClubOnly() throws {
        let alphaJob = try stack.submitNoop(video: video, club: "alpha", seconds: 0.1, tag: 1)
        let betaJob = try stack.submitNoop(video: video, club: "beta", seconds: 0.1, tag: 2)
        let alpha = try signedIn(alphaKey)
        let jobs = try alpha.get("/dashboard/jobs")
        XCTAssertTrue(jobs.body.contains(alphaJob.id.uuidString.lowercased()))
        XCTAssertFalse(jobs.body.contains(betaJob.id.uuidString.lowercased()), "another club's job is not listed")
        let asked = try alpha.get("/dashboard/jobs?club=beta")
        XCTAssertFalse(asked.body.contains(betaJob.id.uuidString.lowercased()), "naming another club in the filter shows nothing of it")
        let page = try alpha.get("/dashboard/jobs/\(betaJob.id.uuidString.lowercased())")
        XCTAssertEqual(page.status, 404)
        XCTAssertEqual(try alpha.get("/dashboard/jobs/\(UUID().uuidString.lowercased())").body.contains("No job with id"), true)
        XCTAssertEqual(try alpha.get("/dashboard/jobs/\(betaJob.id.uuidString.lowercased())/stages").status, 404)
        XCTAssertFalse(try alpha.get("/dashboard").body.contains("data-club=\"beta\""), "the overview has no row for beta")
        XCTAssertEqual(try alpha.get("/dashboard/workers").status, 403)
        let csrf = try XCTUnwrap(jobs.csrf)
        XCTAssertEqual(try alpha.post("/dashboard/queue/pause", [("csrf", csrf)]).status, 403, "a club key cannot pause the queue")
        let cancel = try alpha.post("/dashboard/jobs/\(betaJob.id.uuidString.lowercased())/cancel", [("csrf", csrf)])
        XCTAssertEqual(cancel.status, 404)
        XCTAssertEqual(try stack.status(betaJob.id), "queued", "another club's job was not cancelled")
        // A bulk cancel of "everything" from alpha's session reaches alpha's jobs only.
        let confirm = try alpha.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "cancel")])
        XCTAssertTrue(confirm.body.contains("Cancel 1 job?"), confirm.body)
        let done = try alpha.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "cancel"), ("confirmed", "1")])
        XCTAssertTrue(done.body.contains("Cancelled 1 job."), done.body)
        XCTAssertEqual(try stack.status(alphaJob.id), "cancelled")
        XCTAssertEqual(try stack.status(betaJob.id), "queued")
    }

    func test_BulkRetryConfirmsItsCountThenRetriesExactlyWhatTheFilterMatches() throws {
        try stack.startWorker(slots: 2)
        let failing = try (1...2).map { try stack.submitNoop(video: video, club: "alpha", seconds: 0.05, tag: $0, extra: ["invalidAttempts": .number(1)]) }
        let otherClub = try stack.submitNoop(video: video, club: "beta", seconds: 0.05, tag: 3, extra: ["invalidAttempts": .number(1)])
        let fine = try stack.submitNoop(video: video, club: "alpha", seconds: 0.05, tag: 4)
        for job in failing + [otherClub] { XCTAssertEqual(try stack.waitForTerminal(job.id).status, .failed) }
        XCTAssertEqual(try stack.waitForTerminal(fine.id).status, .succeeded)

        let session = try signedIn(stack.operatorKey)
        let csrf = try XCTUnwrap(try session.get("/dashboard/jobs?status=failed&club=alpha").csrf)
        let filter = [("status", "failed"), ("club", "alpha")]
        let confirm = try session.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "retry")] + filter)
        XCTAssertEqual(confirm.status, 200)
        XCTAssertTrue(confirm.body.contains("Retry 2 jobs?"), confirm.body)
        XCTAssertEqual(try stack.status(failing[0].id), "failed", "the confirmation changed nothing")

        let done = try session.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "retry"), ("confirmed", "2")] + filter)
        XCTAssertTrue(done.body.contains("Retried 2 jobs."), done.body)
        for job in failing { XCTAssertEqual(try stack.waitForTerminal(job.id).status, .succeeded, "retried, it runs again") }
        XCTAssertEqual(try stack.status(otherClub.id), "failed", "beta's failed job was outside the filter")
        XCTAssertEqual(try stack.db().query("SELECT attempt FROM jobs WHERE id = $1", [fine.id]).rows.first?["attempt"], "1",
                       "a succeeded job is not retried")
    }

    func test_AMalformedFilterGetsAClearAnswer() throws {
        let session = try signedIn(stack.operatorKey)
        let cases = [("from=yesterday", "is not a time"), ("to=2026-13-40", "is not a time"), ("status=done", "Unknown status"),
                     ("batch=42", "is not a batch id"), ("error=boom", "Unknown error kind"), ("sport=curling", "curling"),
                     ("after=nope", "is not an id")]
        for (query, expected) in cases {
            let answer = try session.get("/dashboard/jobs?\(query)")
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertTrue(answer.body.contains(expected), "\(query): \(answer.body.prefix(2000))")
        }
        XCTAssertEqual(try session.get("/dashboard/jobs?from=2026-11-24&to=2026-11-24T08:30Z&q=50%25").status, 200,
                       "dates, minutes and a literal % are accepted")
        XCTAssertEqual(try session.get("/dashboard/jobs/not-a-uuid").status, 400)
    }
}
