import Foundation
import ReelworkClient
import ReelworkCore
import Store
import TestSupport
import Threading
import XCTest

/// `reelwork submit DIR --recursive` as a club runs it: one batch, only missing files sent, the
/// same command again creates nothing, and files that are not videos are skipped with a reason.
final class SubmitCommandTests: XCTestCase {
    var stack: TestStack!
    var clubKey = ""
    var folder: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        stack = try TestStack()
        clubKey = try stack.createKey(["--club", "north"])
        try stack.startCoordinator()
        folder = stack.directory.appendingPathComponent("season")
        let nested = folder.appendingPathComponent("week 2")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        for (i, dir) in [folder!, folder!, folder!, nested].enumerated() {
            try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=96x64:rate=10", "-t", "0.5", "-vf", "hue=h=\(i * 11)",
                             "-c:v", "libx264", "-pix_fmt", "yuv420p", dir.appendingPathComponent("clip-\(i).mp4").path])
        }
        try Data("coach's notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("x".utf8).write(to: folder.appendingPathComponent(".DS_Store"))
        environment = ["REELWORK_API_KEY": clubKey, "XDG_STATE_HOME": stack.directory.appendingPathComponent("state").path]
    }

    override func tearDown() {
        stack?.shutdown()
    }

    func submit() throws -> (status: Int32, output: String, stdout: String) {
        try stack.run(["submit", folder.path, "--recursive", "--sport", "tennis", "--label", "season", "--parallel", "2"],
                      extraEnvironment: environment)
    }

    func count(_ sql: String) throws -> Int {
        try stack.db().query(sql).rows[0].int("n")
    }

    func testAFolderBecomesOneBatchAndRunningItAgainCreatesNothing() throws {
        // One clip is on the coordinator already: it is found by its hash, not sent again.
        let client = try stack.client(key: clubKey)
        _ = try awaitSync { try await client.uploadVideo(file: self.folder.appendingPathComponent("clip-0.mp4")) }

        let first = try submit()
        XCTAssertEqual(first.status, 0, first.output)
        let jobIds = first.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(jobIds.count, 4, first.output)
        XCTAssertTrue(first.output.contains("notes.txt: not a video"), first.output)
        XCTAssertFalse(first.output.contains(".DS_Store"), "hidden files are left out")
        XCTAssertTrue(first.output.contains("1 of 4 file(s) already on the coordinator"), first.output)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM batches WHERE club = 'north' AND label = 'season'"), 1)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM jobs WHERE club = 'north' AND batch_id IS NOT NULL"), 4)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM videos WHERE club = 'north'"), 4)

        let again = try submit()
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertEqual(again.stdout.split(separator: "\n").map(String.init), jobIds, "the same jobs")

        // Without its journal (another machine, a wiped home), the batch and jobs are found again.
        try FileManager.default.removeItem(at: stack.directory.appendingPathComponent("state"))
        let fresh = try submit()
        XCTAssertEqual(fresh.status, 0, fresh.output)
        XCTAssertEqual(fresh.stdout.split(separator: "\n").map(String.init), jobIds)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM batches"), 1)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM jobs"), 4)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM videos"), 4)
    }

    /// A coordinator whose database was reset (a local stack started afresh) has none of the
    /// journal's ids: the command sends everything again into a new batch instead of failing on a
    /// batch that is gone.
    func testAJournalFromADatabaseSinceResetIsSentAfresh() throws {
        let first = try submit()
        XCTAssertEqual(first.status, 0, first.output)
        let oldJobs = Set(first.stdout.split(separator: "\n").map(String.init))
        XCTAssertEqual(oldJobs.count, 4, first.output)
        try stack.db().execute("TRUNCATE jobs, batches, videos CASCADE")

        let again = try submit()
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("the coordinator has no batch"), again.output)
        let newJobs = Set(again.stdout.split(separator: "\n").map(String.init))
        XCTAssertEqual(newJobs.count, 4, again.output)
        XCTAssertTrue(newJobs.isDisjoint(with: oldJobs), "new jobs, not the forgotten ids")
        XCTAssertEqual(try count("SELECT count(*) AS n FROM batches WHERE club = 'north' AND label = 'season'"), 1)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM jobs WHERE club = 'north' AND batch_id IS NOT NULL"), 4)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM videos WHERE club = 'north'"), 4)
    }

    func testAFolderWithoutRecursiveIsRefusedWithTheFix() throws {
        let result = try stack.run(["submit", folder.path, "--sport", "tennis"], extraEnvironment: environment)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.output.contains("add --recursive"), result.output)
        XCTAssertEqual(try count("SELECT count(*) AS n FROM batches"), 0)
    }
}
