import ArgumentParser
import FuzzSupport
import Foundation
import Media
import ReelworkCore

/// Damaged videos by the thousand through what an upload and a job run: probe (every packet
/// demuxed), the limit check, and a full decode with the worker's guards. A trap would end this
/// process: before each case its label goes to `current-case.txt` in the work directory, so the
/// case that did it can be replayed (`--only LABEL`).
@main
struct MediaFuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media-fuzz", abstract: "Probe and decode damaged copies of real videos; report what each got.")

    @Argument(help: "Real videos to damage.") var sources: [String]
    @Option(help: "Cases in all, spread over the sources.") var cases = 10_000
    @Option(help: "Seed of the bit flips (cases are the same for the same seed).") var seed: UInt64 = 1
    @Option(name: .customLong("work-dir"), help: "Where each case is written before it runs.") var workDir = ".local/fuzz"
    @Option(name: .customLong("time-limit"), help: "Seconds a case may take before it counts as a hang.") var timeLimit = 10.0
    @Option(help: "Run only the case with this label.") var only: String?

    func run() throws {
        let work = URL(fileURLWithPath: workDir, isDirectory: true)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let casePath = work.appendingPathComponent("case.bin").path
        let current = work.appendingPathComponent("current-case.txt")
        let limits = InputLimits()
        let guards = MediaGuards(maxPixels: limits.maxPixels)
        var outcomes: [String: Int] = [:]
        var slowest = (seconds: 0.0, label: "")
        var slow: [String] = []
        var done = 0
        let started = Date()
        for (index, source) in sources.enumerated() {
            let original = try Data(contentsOf: URL(fileURLWithPath: source))
            let name = URL(fileURLWithPath: source).lastPathComponent
            let count = cases / sources.count + (index < cases % sources.count ? 1 : 0)
            for damaged in DamagedFiles.cases(of: original, name: name, count: count, seed: seed &+ UInt64(index)) {
                if let only, damaged.label != only { continue }
                try Data(damaged.label.utf8).write(to: current)
                try damaged.data.write(to: URL(fileURLWithPath: casePath))
                let caseStarted = Date()
                let outcome = Self.run(casePath, limits: limits, guards: guards)
                let seconds = Date().timeIntervalSince(caseStarted)
                outcomes[outcome, default: 0] += 1
                if seconds > slowest.seconds { slowest = (seconds, damaged.label) }
                if seconds > timeLimit { slow.append("\(String(format: "%.1f", seconds)) s: \(damaged.label)") }
                done += 1
                if done % 500 == 0 {
                    FileHandle.standardError.write(Data("\(done) cases, \(String(format: "%.0f", Date().timeIntervalSince(started))) s\n".utf8))
                }
            }
        }
        try? FileManager.default.removeItem(at: current)
        print("\(done) damaged files from \(sources.count) source(s) in \(String(format: "%.1f", Date().timeIntervalSince(started))) s:")
        for (outcome, n) in outcomes.sorted(by: { $0.value > $1.value }) { print("  \(n)  \(outcome)") }
        print("slowest: \(String(format: "%.3f", slowest.seconds)) s (\(slowest.label))")
        if !slow.isEmpty {
            print("over the \(timeLimit) s limit:\n  " + slow.joined(separator: "\n  "))
            throw ExitCode(1)
        }
    }

    /// What one file got: accepted (decoded), or refused with the kind of error and where.
    static func run(_ path: String, limits: InputLimits, guards: MediaGuards) -> String {
        do {
            let facts = try MediaProbe.probe(path, verifyPackets: true, guards: guards)
            try limits.check(facts)
            let report = try VideoDecoder(location: path, options: DecodeOptions(threads: 1, guards: guards)).decodeAll { _ in }
            return report.damagedPackets > 0 ? "accepted, damaged packets skipped while decoding" : "accepted and decoded"
        } catch let error as MediaError {
            return "refused: \(error.kind.rawValue) (\(Self.gist(error.message)))"
        } catch let error as ReelworkError {
            return "refused by a limit: \(Self.gist(error.message))"
        } catch {
            return "refused: \(type(of: error))"
        }
    }

    /// The kind of message without its numbers and quoted names, so outcomes group.
    static func gist(_ message: String) -> String {
        let words = message.split(separator: ":").first.map(String.init) ?? message
        return words.replacingOccurrences(of: "'[^']*'", with: "'…'", options: .regularExpression)
            .replacingOccurrences(of: "[0-9]+", with: "#", options: .regularExpression)
    }
}
