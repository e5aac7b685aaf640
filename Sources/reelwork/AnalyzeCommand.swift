import ArgumentParser
import Foundation
import Media
import Pipeline
import ReelworkCore

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze", abstract: "Run a job's stages on one file in this process, no services needed.",
        discussion: "Prints one JSON document to stdout; progress goes to stderr. Exit status 1 when a stage fails (the reason is on stderr).")

    @Argument(help: "The video file (or an http(s) URL libavformat can read).") var file: String
    @Option(help: "Sport: \(Sport.allCases.map(\.rawValue).joined(separator: ", ")).") var sport: String
    @Option(name: .customLong("options"), help: "A JSON file with the sport's options.") var optionsFile: String?
    @Option(help: "Output format (json).") var format: AnalyzeFormat = .json
    @Option(help: "Decoder threads (0 = FFmpeg's choice).") var threads: Int = 0

    enum AnalyzeFormat: String, ExpressibleByArgument { case json }

    func run() throws {
        let sport = try Sport.parse(self.sport)
        let options = try optionsFile.map(OptionsFile.load) ?? .emptyObject
        let pipeline = AnalysisPipeline(sport: sport, options: options, decodeOptions: DecodeOptions(threads: threads))
        do {
            let output = try pipeline.run(location: file, reporter: TerminalStageReporter())
            print(String(decoding: try ReelworkJSON.prettyEncoder.encode(output.document), as: UTF8.self))
        } catch let failure as StageFailure {
            Terminal.writeErr("error: \(failure.description) [\(failure.kind.rawValue)]\n")
            throw ExitCode(1)
        }
    }
}

/// Shows stage progress on stderr.
final class TerminalStageReporter: StageReporter {
    private var lastDraw = Date.distantPast

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        Terminal.status("\(stage.rawValue) …")
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        guard Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        let fraction = framesPlanned.map { $0 > 0 ? Double(framesDone) / Double($0) : 0 } ?? 0
        Terminal.status("\(stage.rawValue) \(Terminal.bar(fraction)) \(framesDone)\(framesPlanned.map { "/\($0)" } ?? "") frames")
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        let frames = framesDone.map { " (\($0) frames)" } ?? ""
        Terminal.status("\(stage.rawValue) \(status.rawValue)\(frames)\(error.map { ": \($0.message)" } ?? "")", final: true)
    }
}
