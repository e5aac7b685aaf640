import ArgumentParser
import Foundation
import ReelworkCore

/// `--yes` and `--dry-run`, for the commands that change many jobs at once (`jobs retry --failed`,
/// `batches cancel`, `workers drain`).
struct ConfirmationOptions: ParsableArguments {
    @Flag(name: [.customShort("y"), .long], help: "Go ahead without asking (for scripts: needed when stdin is not a terminal).")
    var yes = false
    @Flag(name: .customLong("dry-run"), help: "Print how many jobs would change and what would be done, and change nothing.")
    var dryRun = false

    func validate() throws {
        if yes, dryRun { throw ValidationError("--yes and --dry-run contradict each other: give one") }
    }
}

/// Asking before an action that reaches many jobs, as `gh` does: the question names the count;
/// `--yes` skips it, `--dry-run` prints what would be done instead; with no terminal to answer on
/// (a script, a pipe, CI) and no `--yes`, the command refuses and changes nothing.
enum Confirmation {
    /// Where the answer comes from: stdin, unless a test says otherwise.
    struct Input: Sendable {
        var isTerminal: @Sendable () -> Bool
        var readLine: @Sendable () -> String?

        static let standard = Input(isTerminal: { isatty(STDIN_FILENO) != 0 }, readLine: { Swift.readLine() })
    }

    @TaskLocal static var input = Input.standard

    /// Whether to go ahead. `question` is asked (on stderr) as "QUESTION DETAIL. [y/N]"; `plan` is what a
    /// dry run prints (on stdout) after "dry run: ", and it returns false. An answer other than y
    /// or yes says nothing changed and exits 1; so does no terminal without `--yes`, with an
    /// error naming the flag.
    static func proceed(_ question: String, detail: String? = nil, plan: String, _ options: ConfirmationOptions) throws -> Bool {
        if options.dryRun {
            print("dry run: \(plan); nothing changed")
            return false
        }
        if options.yes { return true }
        guard input.isTerminal() else {
            let asked = question.hasSuffix("?") ? String(question.dropLast()) : question
            throw UserFacingError("\(asked)\(detail.map { " (\($0))" } ?? ""): this needs confirmation, "
                + "and stdin is not a terminal to ask on; pass --yes to go ahead (or --dry-run to see what would change). Nothing changed.")
        }
        Terminal.writeErr("\(question)\(detail.map { " \($0)." } ?? "") [y/N] ")
        let answer = (input.readLine() ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        guard answer == "y" || answer == "yes" else {
            Terminal.writeErr("nothing changed\n")
            throw ExitCode(1)
        }
        return true
    }

    /// "1 job", "12 jobs": `noun` with its count, `s` added unless there is one.
    static func count(_ n: Int, _ noun: String) -> String {
        "\(n) \(noun)\(n == 1 ? "" : "s")"
    }
}

/// How `jobs retry --failed` names the jobs it reaches: "of club north (sport bowling, failed in
/// the last 1d)", "of every club".
struct RetryScope {
    var club: String?
    var sport: String?
    var errorKind: String?
    var since: String?
    var until: String?

    var description: String {
        var narrower: [String] = []
        if let sport { narrower.append("sport \(sport)") }
        if let errorKind { narrower.append("error kind \(errorKind)") }
        if let since { narrower.append(Self.isAge(since) ? "failed in the last \(since)" : "failed since \(since)") }
        if let until { narrower.append(Self.isAge(until) ? "failed more than \(until) ago" : "failed before \(until)") }
        let clubs = club.map { "of club \($0)" } ?? (narrower.isEmpty ? "of every club" : "of any club")
        return narrower.isEmpty ? clubs : "\(clubs) (\(narrower.joined(separator: ", ")))"
    }

    /// `30m`, `2h`, `1d`: an age, not a time.
    static func isAge(_ text: String) -> Bool {
        ReelworkJSON.parseDate(text) == nil
    }
}
