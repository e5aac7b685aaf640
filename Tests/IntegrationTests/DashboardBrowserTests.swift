import Foundation
import ReelworkClient
import ReelworkCore
import XCTest

/// The dashboard in headless Chromium (tools/dashboard-browser/check.py, Debian's chromium and
/// chromium-driver through python3-selenium; scripts/test.sh installs them): a stack runs real
/// jobs while the script signs in as a club and as an operator and checks what the pages show:
/// counts, a stage's progress advancing without a reload, a failed job leaving the failed list
/// when its group's Retry is pressed, another club's jobs absent. Screenshots of every page are
/// kept in .local/test-artifacts/dashboard/ for people to look at.
final class DashboardBrowserTests: QueueStackTestCase {
    static let script = TestStack.packageRoot.appendingPathComponent("tools/dashboard-browser/check.py")
    static let screenshots = TestStack.packageRoot.appendingPathComponent(".local/test-artifacts/dashboard")

    func testTheDashboardShowsLiveStateAndItsButtonsWorkInChromium() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: tool) {
            return XCTFail("\(tool) is missing: scripts/test.sh installs chromium and chromium-driver")
        }
        let alphaKey = try stack.createKey(["--club", "alpha"])
        _ = try stack.createKey(["--club", "beta"])
        try stack.startWorker(slots: 2, extraEnvironment: ["REELWORK_WORKER_ID": "browser-worker"])
        let failed = try stack.submitNoop(video: video, club: "alpha", seconds: 0.05, tag: 1, extra: ["invalidAttempts": .number(1)])
        let other = try stack.submitNoop(video: video, club: "beta", seconds: 0.05, tag: 2)
        XCTAssertEqual(try stack.waitForTerminal(failed.id).status, .failed)
        XCTAssertEqual(try stack.waitForTerminal(other.id).status, .succeeded)
        // Markup stored in a file name and a batch label (club gamma, apart from the checks above):
        // shown as text, and no element of it reaches the page.
        let markup = #"<img src="x-markup" onerror="window.__xss=1"><script>window.__xss=2</script>"#
        var upload = URLComponents(string: "\(stack.coordinatorURL)/v1/videos")!
        upload.queryItems = [URLQueryItem(name: "club", value: "gamma"), URLQueryItem(name: "filename", value: markup)]
        let (uploaded, uploadStatus, _) = try HTTP.request("POST", upload.url!, key: stack.operatorKey, body: try Data(contentsOf: stack.makeTinyClip()))
        XCTAssertEqual(uploadStatus, 201, String(decoding: uploaded, as: UTF8.self))
        let markupVideo = try ReelworkJSON.decoder.decode(VideoView.self, from: uploaded)
        let markupJob = try stack.submitNoop(video: markupVideo.id, club: "gamma", seconds: 0.05, tag: 4)
        let api = try stack.client()
        _ = try awaitSync { try await api.createBatch(CreateBatchRequest(sport: "tennis", label: markup, club: "gamma")) }
        XCTAssertEqual(try stack.waitForTerminal(markupJob.id).status, .succeeded)
        // Long enough for the browser to sign in, open its page and watch it move.
        let slow = try stack.submitNoop(video: video, club: "alpha", seconds: 25, tag: 3)

        try? FileManager.default.removeItem(at: Self.screenshots)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Self.script.path, "--url", stack.coordinatorURL, "--club-key", alphaKey, "--operator-key", stack.operatorKey,
                             "--slow-job", slow.id.uuidString.lowercased(), "--failed-job", failed.id.uuidString.lowercased(),
                             "--other-club-job", other.id.uuidString.lowercased(), "--worker", "browser-worker",
                             "--markup", markup, "--markup-job", markupJob.id.uuidString.lowercased(),
                             "--out", Self.screenshots.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // The stack's log first and the script's own lines last, ending with its reason, where a
        // CI log's tail keeps them.
        XCTAssertEqual(process.terminationStatus, 0, "the browser checks failed; the stack's log:\n\(stack.logTail())\n--- the script:\n\(text)")
        XCTAssertTrue(process.terminationStatus != 0 || text.contains("all dashboard checks passed"), text)
        print(text)
    }
}
