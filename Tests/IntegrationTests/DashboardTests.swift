import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// The dashboard over HTTP, against the coordinator in process (`InProcessStack`: its router, real
/// PostgreSQL and Redis): sign-in and its cookie, CSRF on every action, a revoked key's session,
/// club isolation, bulk actions that confirm their count and change exactly what the filter
/// matches, stills of a result, and clear answers to malformed filters. Jobs are run as a worker
/// records them (`InProcessStack.runWaitingNoopJobs`).
final class DashboardTests: InProcessTestCase {
    var video: UUID!
    var alphaKey = ""
    var betaKey = ""
    var dashboard: DashboardSession { stack.dashboardSession() }

    /// New stills a key may have decoded per second here (a burst of twice that).
    static let stillsPerSecond = 2

    override var stackSettings: [String: String] {
        TestStack.fastQueue.merging(["REELWORK_DASHBOARD_STILLS_PER_SECOND": "\(Self.stillsPerSecond)"]) { $1 }
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        video = try stack.uploadTinyClip()
        alphaKey = try stack.createKey(["--club", "alpha"])
        betaKey = try stack.createKey(["--club", "beta"])
    }

    func signedIn(_ key: String) throws -> DashboardSession {
        var session = dashboard
        let answer = try session.signIn(key)
        XCTAssertEqual(answer.status, 303, answer.body)
        return session
    }

    func testSignInTakesAValidKeyAndGivesAStrictHttpOnlyCookie() throws {
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

    /// Every dashboard page, the sign-in form included, carries the Content-Security-Policy that
    /// keeps a stored `<script>` from running even if one were ever written unescaped.
    func testDashboardPagesCarryTheContentSecurityPolicy() throws {
        let session = try signedIn(alphaKey)
        for (path, answer) in [("/dashboard/login", try dashboard.get("/dashboard/login")), ("/dashboard", try session.get("/dashboard")),
                               ("/dashboard/jobs", try session.get("/dashboard/jobs"))] {
            XCTAssertEqual(answer.status, 200, path)
            let policy = try XCTUnwrap(answer.headers["content-security-policy"], "\(path) has a Content-Security-Policy")
            for directive in ["default-src 'none'", "script-src 'self'", "frame-ancestors 'none'", "form-action 'self'"] {
                XCTAssertTrue(policy.contains(directive), "\(path): \(directive) in \(policy)")
            }
            XCTAssertFalse(policy.contains("script-src 'self' 'unsafe-inline'"), "no inline scripts: \(policy)")
        }
    }

    /// Markup stored in a file name, a batch label and an error message is shown as text on every
    /// page that shows it: escaped in the HTML, never a tag. (`DashboardBrowserTests` checks in
    /// Chromium that nothing runs.)
    func testMarkupInAFileNameALabelAndAnErrorIsShownAsText() throws {
        let fileMarkup = #"<img src=x onerror="alert('file')">.mp4"#
        let labelMarkup = #"<script>alert("label")</script>"#
        let errorMarkup = #"<img src=y onerror=alert(2)><script>alert("error")</script>"#
        var upload = URLComponents(string: "/v1/videos")!
        upload.queryItems = [URLQueryItem(name: "club", value: "c"), URLQueryItem(name: "filename", value: fileMarkup)]
        let (uploaded, uploadStatus, _) = try stack.request("POST", upload.string!, key: stack.operatorKey, body: try Data(contentsOf: stack.makeTinyClip()))
        XCTAssertEqual(uploadStatus, 201, String(decoding: uploaded, as: UTF8.self))
        let video = try ReelworkJSON.decoder.decode(VideoView.self, from: uploaded)
        let api = try stack.client()
        _ = try awaitSync { try await api.createBatch(CreateBatchRequest(sport: "tennis", label: labelMarkup, club: "c")) }
        let job = try stack.submitNoop(video: video.id, seconds: 0, tag: 41)
        try stack.db().execute("""
            UPDATE jobs SET status = 'failed', last_error = '\(errorMarkup.replacingOccurrences(of: "'", with: "''"))',
                            last_error_kind = 'invalid_input', finished_at = now() WHERE id = '\(job.id.uuidString.lowercased())'
            """)
        let session = try signedIn(stack.operatorKey)
        let pages = ["/dashboard/jobs", "/dashboard/jobs/\(job.id.uuidString.lowercased())", "/dashboard/batches", "/dashboard/failed"]
        var shown: [String: Int] = [:]
        for path in pages {
            let page = try session.get(path)
            XCTAssertEqual(page.status, 200, "\(path): \(page.body.prefix(300))")
            for (what, markup) in [("file name", fileMarkup), ("label", labelMarkup), ("error", errorMarkup)] {
                XCTAssertFalse(page.body.contains(markup), "\(path): the \(what) is written raw")
                if page.body.contains(Self.escaped(markup)) { shown[what, default: 0] += 1 }
            }
            XCTAssertFalse(page.body.contains("<img src=x") || page.body.contains("<img src=y") || page.body.contains(#"<script>alert"#),
                           "\(path): no stored tag reached the HTML")
        }
        XCTAssertGreaterThanOrEqual(shown["file name"] ?? 0, 2, "the file name is shown (escaped) on the jobs list and the job's page")
        XCTAssertGreaterThanOrEqual(shown["label"] ?? 0, 1, "the label is shown (escaped) on the batches page")
        XCTAssertGreaterThanOrEqual(shown["error"] ?? 0, 1, "the error is shown (escaped) on the job's or the failures' page")
    }

    /// HTML escaping as the templates do it (`{{ }}`): & < > " '.
    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            .replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
    }

    func testAnActionWithoutTheSessionsCSRFTokenChangesNothing() throws {
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

    func testARevokedKeysSessionEndsAtOnce() throws {
        let session = try signedIn(alphaKey)
        XCTAssertEqual(try session.get("/dashboard").status, 200)
        try stack.db().query("UPDATE api_keys SET revoked_at = now() WHERE id = (SELECT k.id FROM api_keys k JOIN clubs c ON c.id = k.club_id WHERE c.name = 'alpha')")
        let after = try session.get("/dashboard/jobs")
        XCTAssertEqual(after.status, 401)
        XCTAssertTrue(after.body.contains("its API key was revoked"), after.body)
        XCTAssertEqual(try session.post("/dashboard/logout", []).status, 401, "and its forms do nothing")
    }

    func testAClubKeySeesAndChangesItsClubOnly() throws {
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
        XCTAssertEqual(try alpha.get("/dashboard/jobs/\(betaJob.id.uuidString.lowercased())/events").status, 404, "nor its live events")
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

    func testAMalformedFilterGetsAClearAnswer() throws {
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

    /// Login CSRF: the sign-in form carries a token of its own, in a hidden field and in a cookie
    /// scoped to the form; a POST without both, or with two that differ, signs nobody in.
    func testTheSignInFormNeedsItsOwnTokenSoAnotherSiteCannotSignABrowserIn() throws {
        func sessionCookie(_ answer: DashboardSession.Answer) -> String? {
            answer.headers["set-cookie"].flatMap { $0.hasPrefix("reelwork_session=") ? $0 : nil }
        }
        let form = try dashboard.get("/dashboard/login")
        let token = try XCTUnwrap(form.loginToken, form.body)
        let loginCookie = try XCTUnwrap(form.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        XCTAssertTrue(loginCookie.hasPrefix("reelwork_login=\(token)"), loginCookie)
        var withCookie = dashboard
        withCookie.cookie = loginCookie
        var otherCookie = dashboard
        otherCookie.cookie = "reelwork_login=" + String(repeating: "0", count: 64)
        for (label, client, fields) in [("no token at all", dashboard, [("key", alphaKey)]),
                                        ("the field without its cookie", dashboard, [("key", alphaKey), ("login_csrf", token)]),
                                        ("the cookie without the field", withCookie, [("key", alphaKey)]),
                                        ("a field that is not the cookie's", otherCookie, [("key", alphaKey), ("login_csrf", token)])] {
            let answer = try client.post("/dashboard/login", fields)
            XCTAssertEqual(answer.status, 403, label)
            XCTAssertTrue(answer.body.contains("security token"), "\(label): \(answer.body.prefix(500))")
            XCTAssertNil(sessionCookie(answer), "\(label): a session was opened")
        }
        let signed = try withCookie.post("/dashboard/login", [("key", alphaKey), ("login_csrf", token)])
        XCTAssertEqual(signed.status, 303, signed.body)
        let cookie = try XCTUnwrap(sessionCookie(signed))
        XCTAssertFalse(cookie.contains("Secure"), "a plain-HTTP stack's cookie would never come back if it were Secure: \(cookie)")
    }

    /// Behind https (the public URL says so) both cookies are Secure: never sent over plain HTTP.
    func testCookiesAreSecureWhenThePublicURLIsHttps() throws {
        let https = try InProcessStack(settings: ["REELWORK_PUBLIC_URL": "https://reelwork.example.org"])
        defer { https.shutdown() }
        let key = try https.createKey(["--club", "alpha"])
        try https.startCoordinator()
        var session = https.dashboardSession()
        let form = try session.get("/dashboard/login")
        XCTAssertTrue(form.headers["set-cookie"]?.contains("; Secure") ?? false, "\(form.headers)")
        let signed = try session.signIn(key)
        XCTAssertEqual(signed.status, 303, signed.body)
        let cookie = try XCTUnwrap(signed.headers["set-cookie"])
        XCTAssertTrue(cookie.hasPrefix("reelwork_session=") && cookie.contains("; Secure"), cookie)
    }

    func testBulkRetryConfirmsItsCountThenRetriesExactlyWhatTheFilterMatches() throws {
        let failing = try (1...2).map { try stack.submitNoop(video: video, club: "alpha", seconds: 0.05, tag: $0, extra: ["invalidAttempts": .number(1)]) }
        let otherClub = try stack.submitNoop(video: video, club: "beta", seconds: 0.05, tag: 3, extra: ["invalidAttempts": .number(1)])
        let fine = try stack.submitNoop(video: video, club: "alpha", seconds: 0.05, tag: 4)
        // Run as a worker records them (`runWaitingNoopJobs`): the first attempts of `failing` and `otherClub` fail.
        XCTAssertEqual(Set(try stack.runWaitingNoopJobs()), Set((failing + [otherClub, fine]).map(\.id)))
        for job in failing + [otherClub] { XCTAssertEqual(try stack.status(job.id), "failed") }
        XCTAssertEqual(try stack.status(fine.id), "succeeded")

        let session = try signedIn(stack.operatorKey)
        let csrf = try XCTUnwrap(try session.get("/dashboard/jobs?status=failed&club=alpha").csrf)
        let filter = [("status", "failed"), ("club", "alpha")]
        let confirm = try session.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "retry")] + filter)
        XCTAssertEqual(confirm.status, 200)
        XCTAssertTrue(confirm.body.contains("Retry 2 jobs?"), confirm.body)
        XCTAssertEqual(try stack.status(failing[0].id), "failed", "the confirmation changed nothing")

        let done = try session.post("/dashboard/jobs/bulk", [("csrf", csrf), ("action", "retry"), ("confirmed", "2")] + filter)
        XCTAssertTrue(done.body.contains("Retried 2 jobs."), done.body)
        XCTAssertEqual(Set(try stack.runWaitingNoopJobs()), Set(failing.map(\.id)), "exactly the retried jobs wait to run again")
        for job in failing { XCTAssertEqual(try stack.status(job.id), "succeeded", "retried, it runs again") }
        XCTAssertEqual(try stack.status(otherClub.id), "failed", "beta's failed job was outside the filter")
        XCTAssertEqual(try stack.db().query("SELECT attempt FROM jobs WHERE id = $1", [fine.id]).rows.first?["attempt"], "1",
                       "a succeeded job is not retried")
    }

    /// The job page shows the sport's own picture (the PNG the API and the reports draw) with the
    /// report's totals as its caption; stills of the video come from `frame.png` at any time.
    func testATennisResultShowsTheSportsPictureAndStillsOfItsOwnVideo() throws {
        let clip = try stack.makeTinyClip()   // 1 s, 160×120, 10 frames a second
        let client = try stack.client()
        let upload = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try stack.submitNoop(video: upload.id, club: "alpha", seconds: 0.05, tag: 7)
        try stack.runWaitingNoopJobs()
        XCTAssertEqual(try stack.status(job.id), "succeeded")
        // A swing as the tennis pipeline writes it, so the page has keyframes to show.
        let swing = #"{"swings": [{"type": "forehand", "startTime": 0.1, "endTime": 0.9, "keyFrameTimes": {"preparation": 0.1, "backswing": 0.3, "contact": 0.5, "followThrough": 0.7, "recovery": 0.9}}]}"#
        try stack.db().query("UPDATE results SET result = $2::jsonb WHERE job_id = $1", [job.id, swing])

        let id = job.id.uuidString.lowercased()
        let alpha = try signedIn(alphaKey)
        let page = try alpha.get("/dashboard/jobs/\(id)")
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.body.contains(#"<img src="/dashboard/jobs/\#(id)/picture.png""#), "the sport's picture:\n\(page.body)")
        XCTAssertTrue(page.body.contains("<figcaption>1 swing · "), "captioned with the report's totals:\n\(page.body)")
        XCTAssertFalse(page.body.contains("Swings 1"), "the count said once")
        let picture = stack.directory.appendingPathComponent("picture.png")
        XCTAssertEqual(try alpha.download("/dashboard/jobs/\(id)/picture.png", to: picture), 200)
        XCTAssertEqual(try Data(contentsOf: picture).prefix(8), Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG")
        XCTAssertEqual(try signedIn(betaKey).get("/dashboard/jobs/\(id)/picture.png").status, 404, "not another club's")

        // The contact still is the clip's frame at 0.5 s, not another one.
        let still = stack.directory.appendingPathComponent("contact.png")
        XCTAssertEqual(try alpha.download("/dashboard/jobs/\(id)/frame.png?t=0.5&w=200", to: still), 200)
        let shown = try Tool.run("ffmpeg", ["-v", "error", "-i", still.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        XCTAssertEqual(shown.count, 160 * 120 * 3, "never scaled past the video's own 160×120")
        func frame(_ seconds: String) throws -> Data {
            try Tool.run("ffmpeg", ["-v", "error", "-ss", seconds, "-i", clip.path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        }
        func difference(_ a: Data, _ b: Data) -> Double { Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count)) }
        let right = difference(shown, try frame("0.5")), wrong = difference(shown, try frame("0.8"))
        XCTAssertLessThan(right, 2, "the frame at 0.5 s")
        XCTAssertGreaterThan(wrong, right * 3, "another frame differs")
        let artifacts = TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/pictures")
        try FileManager.default.createDirectory(at: artifacts, withIntermediateDirectories: true)
        _ = try? FileManager.default.removeItem(at: artifacts.appendingPathComponent("tennis-contact.png"))
        try FileManager.default.copyItem(at: still, to: artifacts.appendingPathComponent("tennis-contact.png"))

        // Bad requests for a still say what is wrong; another club's job has no stills.
        for (query, expected) in [("t=soon", "t must be a time"), ("t=-1", "t must be a time"), ("t=0.5&w=5000", "w must be a width"),
                                  ("t=0.5&w=ten", "w must be a width"), ("t=99", "after the end of the video"), ("", "t must be a time")] {
            let answer = try alpha.get("/dashboard/jobs/\(id)/frame.png?\(query)")
            XCTAssertEqual(answer.status, 400, query)
            XCTAssertTrue(answer.body.contains(expected), "\(query): \(answer.body.prefix(1000))")
        }
        let beta = try signedIn(betaKey)
        XCTAssertEqual(try beta.get("/dashboard/jobs/\(id)/frame.png?t=0.5").status, 404, "another club's video is not shown")
    }

    /// Stills cost a decode each: a key asking for many new ones at once meets 429 naming the
    /// setting, while a still already made is served from memory at once, also when asked for at a
    /// time or width that differs only by rounding; another key has its own share.
    func testStillsAreCachedAndNewDecodesAreLimitedPerKey() throws {
        let clip = try stack.makeTinyClip()
        let client = try stack.client()
        let upload = try awaitSync { try await client.uploadVideo(file: clip) }
        let job = try stack.submitNoop(video: upload.id, club: "alpha", seconds: 0.05, tag: 8)
        try stack.runWaitingNoopJobs()
        XCTAssertEqual(try stack.status(job.id), "succeeded")
        let id = job.id.uuidString.lowercased()
        let alpha = try signedIn(alphaKey)
        XCTAssertEqual(try alpha.get("/dashboard/jobs/\(id)/frame.png?t=0.5&w=200").status, 200)
        let answers = try (0..<20).map { try alpha.get("/dashboard/jobs/\(id)/frame.png?t=0.\($0 / 3)\($0 % 10)&w=\(100 + $0 * 40)") }
        let refused = try XCTUnwrap(answers.first { $0.status == 429 },
                                    "20 new stills at once must meet a limit of \(Self.stillsPerSecond) a second: \(answers.map(\.status))")
        XCTAssertTrue(refused.body.contains("REELWORK_DASHBOARD_STILLS_PER_SECOND"), refused.body)
        // New decodes are being refused, yet the still made first is served, under any spelling that rounds to it.
        for query in ["t=0.5&w=200", "t=0.5001&w=200", "t=0.499&w=210"] {
            XCTAssertEqual(try alpha.get("/dashboard/jobs/\(id)/frame.png?\(query)").status, 200, "\(query): from the cache")
        }
        let other = try signedIn(try stack.createKey(["--club", "alpha"]))
        XCTAssertEqual(try other.get("/dashboard/jobs/\(id)/frame.png?t=0.95&w=900").status, 200, "another key has its own share")
    }
}
