import ArgumentParser
import Foundation
import ReelworkCore
@testable import reelwork
import Synchronization
import XCTest

/// Operator actions that reach many jobs ask first, like `gh`: `--yes` for scripts, `--dry-run` to
/// see, and no terminal without `--yes` is a refusal.
final class ConfirmationTests: XCTestCase {
    /// Answers from a list; records whether the question was read at all.
    final class Answers: Sendable {
        let terminal: Bool
        private let left: Mutex<[String]>
        private let reads = Mutex(0)

        init(terminal: Bool, _ answers: [String] = []) {
            self.terminal = terminal
            left = Mutex(answers)
        }

        var readCount: Int { reads.withLock { $0 } }

        var input: Confirmation.Input {
            Confirmation.Input(isTerminal: { self.terminal }, readLine: {
                self.reads.withLock { $0 += 1 }
                return self.left.withLock { $0.isEmpty ? nil : $0.removeFirst() }
            })
        }
    }

    func options(_ arguments: [String]) throws -> ConfirmationOptions {
        try ConfirmationOptions.parse(arguments)
    }

    func ask(_ answers: Answers, _ arguments: [String] = []) throws -> Bool {
        let options = try options(arguments)
        return try Confirmation.$input.withValue(answers.input) {
            try Confirmation.proceed("Retry 12 failed jobs of club north?", plan: "would retry 12 failed jobs of club north", options)
        }
    }

    func testWithoutATerminalAndWithoutYesItRefusesNamingTheFlag() throws {
        let answers = Answers(terminal: false, ["y"])
        XCTAssertThrowsError(try ask(answers)) { error in
            let text = "\(error)"
            XCTAssertTrue(text.contains("pass --yes"), text)
            XCTAssertTrue(text.contains("Retry 12 failed jobs of club north"), text)
            XCTAssertTrue(text.contains("Nothing changed"), text)
        }
        XCTAssertEqual(answers.readCount, 0, "stdin is not read for an answer")
    }

    func testYesGoesAheadWithoutAsking() throws {
        let answers = Answers(terminal: false)
        XCTAssertTrue(try ask(answers, ["--yes"]))
        XCTAssertTrue(try ask(answers, ["-y"]))
        XCTAssertEqual(answers.readCount, 0)
    }

    func testADryRunNeverGoesAheadNorAsks() throws {
        let answers = Answers(terminal: true, ["y"])
        XCTAssertFalse(try ask(answers, ["--dry-run"]))
        XCTAssertEqual(answers.readCount, 0)
        XCTAssertThrowsError(try options(["--dry-run", "--yes"]), "the two contradict each other")
    }

    func testOnATerminalOnlyYOrYesGoesAhead() throws {
        XCTAssertTrue(try ask(Answers(terminal: true, ["y"])))
        XCTAssertTrue(try ask(Answers(terminal: true, [" YES "])))
        for answer in ["", "n", "no", "yep"] {
            XCTAssertThrowsError(try ask(Answers(terminal: true, [answer])), "'\(answer)'") { error in
                XCTAssertEqual((error as? ExitCode)?.rawValue, 1, "declined: nothing changed, exit status 1")
            }
        }
        XCTAssertThrowsError(try ask(Answers(terminal: true, [])), "end of input is no")
    }

    func testTheRetryScopeNamesTheFilter() {
        XCTAssertEqual(RetryScope(club: "north").description, "of club north")
        XCTAssertEqual(RetryScope().description, "of every club")
        XCTAssertEqual(RetryScope(club: "north", sport: "bowling", since: "1d").description,
                       "of club north (sport bowling, failed in the last 1d)")
        XCTAssertEqual(RetryScope(errorKind: "transient", since: "2026-01-01T00:00:00Z", until: "2h").description,
                       "of any club (error kind transient, failed since 2026-01-01T00:00:00Z, failed more than 2h ago)")
    }
}
