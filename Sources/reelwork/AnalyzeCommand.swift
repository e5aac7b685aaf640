import ArgumentParser
import Foundation
import Media
import Pictures
import Pipeline
import ReelworkCore
import SportKit
import Sports

struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze", abstract: "Run a job's stages on one file in this process, no services needed.",
        discussion: "Prints one JSON document to stdout (or, with --format csv, its rows as CSV: bowling or basketball shots, tennis swings, archery arrows); progress goes to stderr. Exit status 1 when a stage fails (the reason is on stderr). Models and sampling come from the REELWORK_* variables (see the README) unless the flags say otherwise.")

    @Argument(help: "The video file (or an http(s) URL libavformat can read).") var file: String
    @Option(help: "Sport: \(SportRegistry.sportNames).") var sport: String
    @Option(name: .customLong("options"), help: "A JSON file with the sport's options.") var optionsFile: String?
    @Option(help: "Output format: json (the whole document) or csv (bowling or basketball shots / tennis swings / archery arrows, one row each).")
    var format: AnalyzeFormat = .json
    @Option(help: "Decoder threads (0 = FFmpeg's choice).") var threads: Int = 0
    @Option(name: .customLong("sample-fps"), help: "Frames per second the models look at (\(VisionSettings.Env.sampleFPS), default 10).")
    var sampleFPS: Double?
    @Option(name: .customLong("inference-threads"), help: "ONNX Runtime threads per model (\(VisionSettings.Env.inferenceThreads); 0 = all cores).")
    var inferenceThreads: Int?
    @Option(name: .customLong("detector-model"), help: "YOLO ONNX file (\(VisionSettings.Env.detectorModel)).") var detectorModel: String?
    @Option(name: .customLong("pose-model"), help: "BlazePose ONNX file (\(VisionSettings.Env.poseModel)).") var poseModel: String?
    @Flag(name: .customLong("compact"), help: "Print the JSON on one line.") var compact = false
    @Option(name: .customLong("picture"), help: "Also draw the result over frames of the video into this PNG file (every sport: the lane, the swings, the face, the shot chart).")
    var pictureFile: String?
    @Option(name: .customLong("report"), help: "Also write a session report (totals, the picture, a table of shots, swings or arrows) to this PDF file (every sport).")
    var reportFile: String?

    enum AnalyzeFormat: String, ExpressibleByArgument, CaseIterable { case json, csv }

    func run() throws {
        let sport = try Sport.parse(self.sport)
        let plugin = SportRegistry.plugin(for: sport)
        let table = plugin?.table
        if format == .csv, table == nil {
            throw ValidationError("--format csv is for \(SportRegistry.names { $0.table != nil }); \(sport.rawValue) results are JSON only")
        }
        let drawing = plugin?.report
        if drawing == nil, pictureFile != nil || reportFile != nil {
            throw ValidationError("--picture and --report are for \(SportRegistry.names { $0.report != nil }); \(sport.rawValue) results are not drawn yet")
        }
        let options = try optionsFile.map(OptionsFile.load) ?? .emptyObject
        let environment = ProcessInfo.processInfo.environment
        var vision = try VisionSettings.fromEnvironment(environment)
        if let sampleFPS {
            guard sampleFPS > 0, sampleFPS <= 1000 else { throw ValidationError("--sample-fps must be more than 0 and at most 1000") }
            vision.sampleFPS = sampleFPS
        }
        if let inferenceThreads {
            guard inferenceThreads >= 0 else { throw ValidationError("--inference-threads must be ≥ 0") }
            vision.inferenceThreads = inferenceThreads
        }
        if let detectorModel { vision.detectorModel = detectorModel }
        if let poseModel { vision.poseModel = poseModel }
        let pipeline = AnalysisPipeline(sport: sport, options: options, decodeOptions: DecodeOptions(threads: threads), vision: vision,
                                        limits: try InputLimits.fromEnvironment(environment))
        do {
            let output = try pipeline.run(location: file, reporter: TerminalStageReporter())
            if format == .csv, let table {
                FileHandle.standardOutput.write(Data(table.csv(from: output.document.result).utf8))
            } else {
                let encoder = compact ? ReelworkJSON.encoder : ReelworkJSON.prettyEncoder
                FileHandle.standardOutput.write(try encoder.encode(output.document))
                FileHandle.standardOutput.write(Data("\n".utf8))
            }
            if let drawing { try draw(output.document.result, sport: sport, options: options, with: drawing) }
        } catch let failure as StageFailure {
            Terminal.writeErr("error: \(failure.description) [\(failure.kind.rawValue)]\n")
            throw ExitCode(1)
        }
    }
}

extension AnalyzeCommand {
    /// Writes `--picture` and `--report`; a result with nothing to draw says so and exits 1
    /// (after the report, which still has the totals and the table).
    func draw(_ result: JSONValue, sport: Sport, options: JSONValue, with drawing: any SportReport) throws {
        guard pictureFile != nil || reportFile != nil else { return }
        let picture = try drawing.picture(result: result, options: options, videoAt: file)
        if let reportFile {
            let job = ReportJob(id: nil, club: nil, sport: sport, fileName: URL(fileURLWithPath: file).lastPathComponent, createdAt: Date(),
                                createdAs: "Analysed", recordedAt: try? MediaProbe.recordingDate(file), status: JobStatus.succeeded.rawValue, result: result,
                                picture: picture)
            try Data(try SessionReport.pdf(job, report: drawing)).write(to: URL(fileURLWithPath: reportFile))
            Terminal.writeErr("wrote \(reportFile)\n")
        }
        if let pictureFile {
            guard let picture else {
                Terminal.writeErr("error: no picture: the result has no \(drawing.rowNoun)s to draw\n")
                throw ExitCode(1)
            }
            try Data(try picture.png()).write(to: URL(fileURLWithPath: pictureFile))
            Terminal.writeErr("wrote \(pictureFile)\n")
        }
    }
}

/// Shows stage progress on stderr: one line with every running stage (decode, objects and pose
/// run at the same time).
final class TerminalStageReporter: StageReporter {
    private var lastDraw = Date.distantPast
    private var running: [(stage: StageName, done: Int, planned: Int?)] = []

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {
        running.append((stage, 0, framesPlanned))
        draw(force: true)
    }

    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {
        if let index = running.firstIndex(where: { $0.stage == stage }) {
            running[index].done = framesDone
            running[index].planned = framesPlanned ?? running[index].planned
        }
        draw(force: false)
    }

    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        running.removeAll { $0.stage == stage }
        let frames = framesDone.map { " (\($0) frames)" } ?? ""
        Terminal.status("\(stage.rawValue) \(status.rawValue)\(frames)\(error.map { ": \($0.message)" } ?? "")", final: true)
        draw(force: true)
    }

    private func draw(force: Bool) {
        guard !running.isEmpty, force || Date().timeIntervalSince(lastDraw) > 0.1 else { return }
        lastDraw = Date()
        if running.count == 1, let only = running.first, only.done == 0 {
            Terminal.status("\(only.stage.rawValue) …")
            return
        }
        Terminal.status(running.map { entry in
            let fraction = entry.planned.map { $0 > 0 ? Double(entry.done) / Double($0) : 0 } ?? 0
            return "\(entry.stage.rawValue) \(Terminal.bar(fraction, width: 12)) \(entry.done)\(entry.planned.map { "/\($0)" } ?? "")"
        }.joined(separator: "  "))
    }
}
