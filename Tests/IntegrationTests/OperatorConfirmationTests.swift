import Foundation
import Glibc
import ReelworkClient
import ReelworkCore
import Store
import XCTest

/// Operator actions show their reach before they act (issue 32): `jobs retry --failed`, `batches
/// cancel` and `workers drain` say how many jobs they change and ask; `--yes` for scripts,
/// `--dry-run` to look; with no terminal to ask on and no `--yes` they refuse and change nothing.
final class OperatorConfirmationTests: QueueStackTestCase {
    /// Two failed jobs of club a and one of club b (each fails its first attempt only).
    func failedJobs() throws -> (a: Set<UUID>, b: UUID) {
        try stack.startWorker()
        let made = try (1...3).map { tag in
            try stack.submitNoop(video: video, club: tag == 3 ? "b" : "a", seconds: 0, tag: tag,
                                 extra: ["invalidAttempts": .number(1)], maxAttempts: 1)
        }
        for job in made { XCTAssertEqual(try stack.waitForTerminal(job.id).status, .failed) }
        return (Set(made.prefix(2).map(\.id)), made[2].id)
    }

    func failedCount() throws -> Int {
        try stack.db().query("SELECT count(*) AS n FROM jobs WHERE status = 'failed'").rows[0].int("n")
    }

    func testRetryFailedSaysHowManyAsksAndRefusesWithoutATerminal() throws {
        let (a, b) = try failedJobs()
        let retry = ["jobs", "retry", "--failed", "--club", "a", "--since", "1d"]

        // The coordinator's dry run counts and changes nothing.
        let client = try stack.client()
        let preview = try awaitSync { try await client.retryFailed(RetryFilter(club: "a", dryRun: true)) }
        XCTAssertEqual(preview, BulkRetryResult(retried: [], matched: 2, dryRun: true))
        XCTAssertEqual(try failedCount(), 3)

        let piped = try stack.run(retry, typing: nil)
        XCTAssertEqual(piped.status, 1, piped.output)
        XCTAssertTrue(piped.output.contains("Retry 2 failed jobs of club a (failed in the last 1d)"), piped.output)
        XCTAssertTrue(piped.output.contains("pass --yes"), piped.output)
        XCTAssertEqual(try failedCount(), 3, "refused: nothing retried")

        let dry = try stack.run(retry + ["--dry-run"], typing: nil)
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.stdout.contains("dry run: would retry 2 failed jobs of club a (failed in the last 1d)"), dry.output)
        XCTAssertEqual(try failedCount(), 3, "a dry run changes nothing")

        let declined = try stack.run(retry, typing: "n\n")
        XCTAssertEqual(declined.status, 1, declined.output)
        XCTAssertTrue(declined.output.contains("Retry 2 failed jobs of club a (failed in the last 1d)? [y/N]"), declined.output)
        XCTAssertTrue(declined.output.contains("nothing changed"), declined.output)
        XCTAssertEqual(try failedCount(), 3, "answered no: nothing retried")

        let accepted = try stack.run(retry, typing: "y\n")
        XCTAssertEqual(accepted.status, 0, accepted.output)
        XCTAssertEqual(Set(accepted.stdout.split(separator: "\n").compactMap { UUID(uuidString: String($0)) }), a, accepted.output)
        XCTAssertTrue(accepted.output.contains("retried 2 failed jobs"), accepted.output)
        XCTAssertEqual(try stack.status(b), "failed", "club b's job is not in reach")

        // A script says --yes; nothing left to retry is said, not asked.
        let again = try stack.run(retry + ["--yes"], typing: nil)
        XCTAssertEqual(again.status, 0, again.output)
        XCTAssertTrue(again.output.contains("no failed jobs of club a"), again.output)
    }

    func testBatchCancelSaysHowManyJobsItReachesAndAsks() throws {
        // No worker: the batch's jobs wait.
        let other = try stack.makeClip("other.mp4", "testsrc=size=160x120:rate=10", seconds: 1)
        let client = try stack.client()
        let second = try awaitSync { try await client.uploadVideo(file: other) }.id
        let noop: JSONValue = .object(["noop": .object(["seconds": .number(0)])])
        let batch = try awaitSync { try await client.createBatch(CreateBatchRequest(sport: "tennis", options: noop, label: "tue")) }
        _ = try awaitSync { try await client.addBatchJobs(batch.id, AddBatchJobsRequest(videoIds: [self.video, second])) }
        let short = String(batch.id.uuidString.lowercased().prefix(8))
        func waiting() throws -> Int {
            try stack.db().query("SELECT count(*) AS n FROM jobs WHERE status = 'queued' AND batch_id = $1", [batch.id]).rows[0].int("n")
        }

        let piped = try stack.run(["batches", "cancel", short], typing: nil)
        XCTAssertEqual(piped.status, 1, piped.output)
        XCTAssertTrue(piped.output.contains("Cancel 2 jobs of batch \(short) (tue)"), piped.output)
        XCTAssertTrue(piped.output.contains("pass --yes"), piped.output)
        XCTAssertEqual(try waiting(), 2)

        let dry = try stack.run(["batches", "cancel", short, "--dry-run"], typing: nil)
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.stdout.contains("would cancel 2 jobs of batch \(short) (tue): 2 waiting jobs end now"), dry.output)
        XCTAssertEqual(try waiting(), 2)

        let yes = try stack.run(["batches", "cancel", short, "--yes"], typing: nil)
        XCTAssertEqual(yes.status, 0, yes.output)
        XCTAssertEqual(try waiting(), 0)
        XCTAssertTrue(yes.stdout.contains("2 cancelled"), yes.output)

        let none = try stack.run(["batches", "cancel", short], typing: nil)
        XCTAssertEqual(none.status, 0, none.output)
        XCTAssertTrue(none.output.contains("nothing to cancel"), none.output)
    }

    func testDrainSaysWhatHappensToTheWorkersRunningJobsAndAsks() throws {
        try stack.startWorker()
        let client = try stack.client()
        _ = try stack.submitNoop(video: video, seconds: 60, tag: 1)
        var worker: WorkerView?
        XCTAssertTrue(try stack.waitUntil(timeout: 30) {
            worker = try awaitSync { try await client.workers() }.workers.first
            return worker?.running == 1
        }, "the worker runs the job")
        let id = try XCTUnwrap(worker?.id)

        let piped = try stack.run(["workers", "drain", id], typing: nil)
        XCTAssertEqual(piped.status, 1, piped.output)
        XCTAssertTrue(piped.output.contains("Drain worker \(id)"), piped.output)
        XCTAssertTrue(piped.output.contains("pass --yes"), piped.output)

        let dry = try stack.run(["workers", "drain", id, "--dry-run"], typing: nil)
        XCTAssertEqual(dry.status, 0, dry.output)
        XCTAssertTrue(dry.stdout.contains("would drain worker \(id): it stops claiming jobs and exits; its 1 running job gets"), dry.output)
        XCTAssertEqual(try awaitSync { try await client.workers() }.workers.first?.draining, false, "nothing changed")

        let declined = try stack.run(["workers", "drain", id], typing: "\n")
        XCTAssertEqual(declined.status, 1, declined.output)
        XCTAssertEqual(try awaitSync { try await client.workers() }.workers.first?.draining, false, "Enter alone is no")

        let yes = try stack.run(["workers", "drain", id], typing: "yes\n")
        XCTAssertEqual(yes.status, 0, yes.output)
        XCTAssertTrue(yes.stdout.contains("draining"), yes.output)
    }
}

extension TestStack {
    /// Runs the CLI with `typing` on a terminal as its stdin (a pseudo-terminal with those
    /// keystrokes waiting), or with nil a pipe that is closed at once: stdin is no terminal.
    func run(_ arguments: [String], typing: String?) throws -> (status: Int32, output: String, stdout: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        var terminal: (master: FileHandle, slave: FileHandle)?
        if let typing {
            let pty = try PseudoTerminal.functions()
            let master = pty.openpt(O_RDWR | O_NOCTTY)
            guard master >= 0, pty.grantpt(master) == 0, pty.unlockpt(master) == 0, let name = pty.ptsname(master) else {
                throw ReelworkError.configuration("no pseudo-terminal")
            }
            let slave = open(String(cString: name), O_RDWR | O_NOCTTY)
            guard slave >= 0 else { throw ReelworkError.configuration("cannot open \(String(cString: name))") }
            terminal = (FileHandle(fileDescriptor: master, closeOnDealloc: true), FileHandle(fileDescriptor: slave, closeOnDealloc: true))
            terminal?.master.write(Data(typing.utf8))
            process.standardInput = terminal?.slave
        } else {
            let input = Pipe()
            process.standardInput = input
            try input.fileHandleForWriting.close()
        }
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        withExtendedLifetime(terminal) {}
        let o = String(decoding: stdout, as: UTF8.self)
        return (process.terminationStatus, o + String(decoding: stderr, as: UTF8.self), o)
    }
}

/// The C library's pseudo-terminal calls, which Glibc's Swift module leaves out (they need
/// _XOPEN_SOURCE): looked up by name.
enum PseudoTerminal {
    typealias FD = @convention(c) (Int32) -> Int32
    typealias Name = @convention(c) (Int32) -> UnsafeMutablePointer<CChar>?

    static func functions() throws -> (openpt: FD, grantpt: FD, unlockpt: FD, ptsname: Name) {
        let libc = dlopen(nil, RTLD_NOW)
        func symbol<T>(_ name: String, as: T.Type) throws -> T {
            guard let found = dlsym(libc, name) else { throw ReelworkError.configuration("no \(name) in the C library") }
            return unsafeBitCast(found, to: T.self)
        }
        return (try symbol("posix_openpt", as: FD.self), try symbol("grantpt", as: FD.self), try symbol("unlockpt", as: FD.self),
                try symbol("ptsname", as: Name.self))
    }
}
