import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import XCTest

/// The webhook routes against the coordinator in process (`InProcessStack`: its router, real
/// PostgreSQL and Redis) that refuses internal addresses (the production default): a club
/// registers, lists, rotates and deletes its endpoints and sees each secret once; an operator names
/// the club; bad requests get a 4xx naming the problem and create nothing.
final class WebhookRoutesTests: InProcessTestCase {
    /// An address literal: public, and it resolves without DNS (the machine may have none).
    let publicURL = "https://93.184.216.34/reelwork"
    var clubKey = ""
    var club: CoordinatorClient!

    override func setUpWithError() throws {
        try super.setUpWithError()
        clubKey = try stack.createKey(["--club", "eagles"])
        club = try stack.client(key: clubKey)
    }

    private func send(_ method: String, _ path: String, key: String? = nil, body: Data? = nil) throws -> (data: Data, status: Int) {
        let (data, status, _) = try stack.request(method, path, key: key ?? clubKey, body: body)
        return (data, status)
    }

    private func endpointCount() throws -> Int {
        try stack.db().query("SELECT count(*) AS n FROM webhook_endpoints").rows[0].int("n")
    }

    func testAClubRegistersRotatesAndDeletesAnEndpointAndSeesEachSecretOnce() throws {
        let club = self.club!
        let created = try awaitSync { try await club.createWebhook(CreateWebhookRequest(url: self.publicURL, events: ["job.failed", "batch.completed"])) }
        XCTAssertTrue(created.secret.hasPrefix("whsec_"), created.secret)
        XCTAssertEqual(created.webhook.club, "eagles")
        XCTAssertEqual(created.webhook.events, [.jobFailed, .batchCompleted])
        XCTAssertEqual(created.webhook.url, publicURL)
        let path = "/v1/webhooks/\(created.webhook.id.uuidString.lowercased())"

        let listed = try send("GET", "/v1/webhooks")
        XCTAssertEqual(listed.status, 200)
        XCTAssertEqual(try ReelworkJSON.decoder.decode(WebhookEndpointPage.self, from: listed.data).webhooks, [created.webhook])
        let shown = try send("GET", path)
        XCTAssertEqual(try ReelworkJSON.decoder.decode(WebhookEndpointRecord.self, from: shown.data), created.webhook)
        let secretBody = String(created.secret.dropFirst("whsec_".count))
        XCTAssertFalse(String(decoding: listed.data + shown.data, as: UTF8.self).contains(secretBody), "the secret is shown once")

        let rotated = try awaitSync { try await club.rotateWebhookSecret(created.webhook.id) }
        XCTAssertNotEqual(rotated.secret, created.secret)
        XCTAssertTrue(rotated.secret.hasPrefix("whsec_"))
        let grace = try XCTUnwrap(rotated.webhook.previousSecretExpiresAt).timeIntervalSinceNow
        XCTAssertEqual(grace, WebhookSettings().rotationGraceSeconds, accuracy: 60, "the old secret signs for the grace period")
        XCTAssertEqual(try awaitSync { try await club.webhookDeliveries(created.webhook.id) }.deliveries, [])

        XCTAssertEqual(try send("DELETE", path).status, 204)
        for (method, suffix) in [("GET", ""), ("DELETE", ""), ("POST", "/rotate"), ("GET", "/deliveries")] {
            let gone = try send(method, path + suffix)
            XCTAssertEqual(gone.status, 404, "\(method) \(suffix)")
            XCTAssertEqual(HTTP.apiError(gone.data)?.code, "webhook_not_found", "\(method) \(suffix)")
        }
        XCTAssertEqual(try endpointCount(), 0)
    }

    func testAnOperatorNamesTheClubAndSeesEveryClubsEndpoints() throws {
        let club = self.club!
        let op = try stack.client()
        let hawks = try awaitSync { try await op.createWebhook(CreateWebhookRequest(url: self.publicURL, events: ["job.succeeded"], club: "hawks")) }
        XCTAssertEqual(hawks.webhook.club, "hawks")
        let eagles = try awaitSync { try await club.createWebhook(CreateWebhookRequest(url: self.publicURL, events: ["job.succeeded"])) }

        XCTAssertEqual(Set(try awaitSync { try await op.webhooks() }.webhooks.map(\.id)), [hawks.webhook.id, eagles.webhook.id])
        XCTAssertEqual(try awaitSync { try await op.webhooks(club: "hawks") }.webhooks.map(\.id), [hawks.webhook.id])
        XCTAssertEqual(try awaitSync { try await club.webhooks() }.webhooks.map(\.id), [eagles.webhook.id])
        XCTAssertEqual(try awaitSync { try await club.webhooks(club: "hawks") }.webhooks, [], "another club's list reads as empty")

        let forHawks = try send("POST", "/v1/webhooks", body: Data(#"{"url":"\#(publicURL)","events":["job.failed"],"club":"hawks"}"#.utf8))
        XCTAssertEqual(forHawks.status, 403)
        XCTAssertEqual(HTTP.apiError(forHawks.data)?.code, "forbidden")
        XCTAssertEqual(try endpointCount(), 2)
    }

    func testAClubHasAtMostTheLimitOfEndpoints() throws {
        let club = self.club!
        for _ in 0..<WebhookRepository.maxEndpointsPerClub {
            _ = try awaitSync { try await club.createWebhook(CreateWebhookRequest(url: self.publicURL, events: ["job.failed"])) }
        }
        let over = try send("POST", "/v1/webhooks", body: Data(#"{"url":"\#(publicURL)","events":["job.failed"]}"#.utf8))
        XCTAssertEqual(over.status, 409)
        XCTAssertEqual(HTTP.apiError(over.data)?.code, "too_many_webhooks")
        XCTAssertEqual(try endpointCount(), WebhookRepository.maxEndpointsPerClub)
    }

    /// Guarantee 6: each refusal names what is wrong, and nothing is created.
    func testBadInputGetsAClearErrorAndCreatesNothing() throws {
        let events = #""events":["job.failed"]"#
        let cases: [(body: String, status: Int, code: String, says: String)] = [
            (#"{"url":"ftp://93.184.216.34/x",\#(events)}"#, 400, "invalid_url", "only http and https"),
            (#"{"url":"javascript:alert(1)",\#(events)}"#, 400, "invalid_url", "only http and https"),
            (#"{"url":"https://user:secret@93.184.216.34/x",\#(events)}"#, 400, "invalid_url", "user name or password"),
            (#"{"url":"https://93.184.216.34:99999/x",\#(events)}"#, 400, "invalid_url", "port"),
            (#"{"url":"http://127.0.0.1:8080/x",\#(events)}"#, 400, "invalid_url", "loopback"),
            (#"{"url":"http://localhost/x",\#(events)}"#, 400, "invalid_url", "loopback"),
            (#"{"url":"http://[::1]/x",\#(events)}"#, 400, "invalid_url", "loopback"),
            (#"{"url":"http://10.1.2.3/x",\#(events)}"#, 400, "invalid_url", "private"),
            (#"{"url":"http://169.254.169.254/latest/meta-data",\#(events)}"#, 400, "invalid_url", "link-local"),
            (#"{"url":"https://93.184.216.34/\#(String(repeating: "a", count: 2_100))",\#(events)}"#, 400, "invalid_url", "at most 2048"),
            (#"{"url":"https://93.184.216.34/x","events":["job.exploded"]}"#, 400, "invalid_events", "'job.exploded' is not a webhook event"),
            (#"{"url":"https://93.184.216.34/x","events":[]}"#, 400, "invalid_events", "at least one"),
            (#"{"url":"https://93.184.216.34/x"}"#, 400, "invalid_json", "missing field 'events'"),
            (#"{"url":5,\#(events)}"#, 400, "invalid_json", "'url'"),
            ("not json", 400, "invalid_json", "not valid JSON"),
            (#"{"url":"\#(publicURL)","events":["job.failed"],"club":"has spaces"}"#, 403, "forbidden", "belongs to club eagles"),
        ]
        for (body, status, code, says) in cases {
            let answer = try send("POST", "/v1/webhooks", body: Data(body.utf8))
            let error = HTTP.apiError(answer.data)
            XCTAssertEqual(answer.status, status, "\(body.prefix(120)): \(String(decoding: answer.data.prefix(300), as: UTF8.self))")
            XCTAssertEqual(error?.code, code, String(body.prefix(120)))
            XCTAssertTrue(error?.message.contains(says) == true, "\(body.prefix(120)): \(error?.message ?? "no message")")
        }
        let oversize = try send("POST", "/v1/webhooks", body: Data(#"{"url":"\#(publicURL)","events":["\#(String(repeating: "x", count: 300_000))"]}"#.utf8))
        XCTAssertEqual(oversize.status, 413)
        XCTAssertEqual(HTTP.apiError(oversize.data)?.code, "body_too_large")
        let badOperatorClub = try send("POST", "/v1/webhooks", key: stack.operatorKey,
                                       body: Data(#"{"url":"\#(publicURL)","events":["job.failed"],"club":"has spaces"}"#.utf8))
        XCTAssertEqual(badOperatorClub.status, 400)
        XCTAssertEqual(HTTP.apiError(badOperatorClub.data)?.code, "invalid_club")
        XCTAssertEqual(try endpointCount(), 0, "nothing half-created")

        let created = try awaitSync { try await self.club.createWebhook(CreateWebhookRequest(url: self.publicURL, events: ["job.failed"])) }
        let path = "/v1/webhooks/\(created.webhook.id.uuidString.lowercased())"
        for (method, suffix, status, code) in [("GET", "/deliveries?limit=0", 400, "invalid_request"), ("GET", "/deliveries?limit=101", 400, "invalid_request"),
                                               ("GET", "/deliveries?cursor=nope", 400, "invalid_request"),
                                               ("POST", "/deliveries/msg_00000000000000000000000000000000/redeliver", 404, "delivery_not_found"),
                                               ("POST", "/deliveries/not-an-id/redeliver", 404, "delivery_not_found")] {
            let answer = try send(method, path + suffix)
            XCTAssertEqual(answer.status, status, suffix)
            XCTAssertEqual(HTTP.apiError(answer.data)?.code, code, suffix)
        }
        XCTAssertEqual(try send("GET", "/v1/webhooks/not-a-uuid").status, 400)
    }
}

/// `reelwork webhooks` against a coordinator process (the command line needs one).
final class WebhookCommandTests: CoordinatorTestCase {
    let publicURL = "https://93.184.216.34/reelwork"

    private func endpointCount() throws -> Int {
        try stack.db().query("SELECT count(*) AS n FROM webhook_endpoints").rows[0].int("n")
    }

    /// `reelwork webhooks`, as an operator (the stack's key): the secret alone on the last line of
    /// stdout, the API's errors as the command's.
    func testTheCommandLineRegistersListsRotatesAndDeletes() throws {
        let created = try stack.run(["webhooks", "create", publicURL, "--event", "job.failed", "--event", "batch.completed", "--club", "eagles"])
        XCTAssertEqual(created.status, 0, created.output)
        let secret = created.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(secret.hasPrefix("whsec_"), created.stdout)
        let listed = try stack.run(["webhooks", "list", "--club", "eagles", "--format", "json"])
        let page = try ReelworkJSON.decoder.decode(WebhookEndpointPage.self, from: Data(listed.stdout.utf8))
        XCTAssertEqual(page.webhooks.map(\.events), [[.jobFailed, .batchCompleted]])
        XCTAssertFalse(listed.stdout.contains(secret.dropFirst(6)))
        let id = try XCTUnwrap(page.webhooks.first?.id.uuidString.lowercased())

        let rotated = try stack.run(["webhooks", "rotate", id])
        XCTAssertEqual(rotated.status, 0, rotated.output)
        let newSecret = rotated.stdout.split(separator: "\n").last.map(String.init) ?? ""
        XCTAssertTrue(newSecret.hasPrefix("whsec_") && newSecret != secret, rotated.stdout)
        XCTAssertEqual(try stack.run(["webhooks", "deliveries", id]).status, 0)
        XCTAssertEqual(try stack.run(["webhooks", "delete", id]).status, 0)
        XCTAssertEqual(try endpointCount(), 0)

        let refused = try stack.run(["webhooks", "create", "ftp://93.184.216.34/x"])
        XCTAssertNotEqual(refused.status, 0)
        XCTAssertTrue(refused.output.contains("only http and https"), refused.output)
        let gone = try stack.run(["webhooks", "redeliver", id, "msg_00000000000000000000000000000000"])
        XCTAssertNotEqual(gone.status, 0)
        XCTAssertTrue(gone.output.contains("webhook_not_found"), gone.output)
    }
}
