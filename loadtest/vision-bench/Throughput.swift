import Foundation
import Media
import Pipeline
import ReelworkCore
import Sports
import Threading
import Vision

/// `vision-bench throughput LIST --slots S --threads T`: one worker's throughput on a set of clips,
/// in this process. LIST has one clip a line: `SPORT PATH [OPTIONS.json]`. `S` slot threads each take
/// the next clip and run its whole analysis as a worker's slot does (`JobRunner`: AnalysisPipeline with
/// `concurrentJobs` = slots, `REELWORK_INFERENCE_THREADS` = T (0: cores ÷ slots), the models loaded
/// once before the clock starts, as `reelwork worker` does, then per job from the pool). No queue or
/// database: a job costs them a few round trips (docs/benchmarks/queue.md, "no-op jobs"), against seconds of analysis.
/// Prints one JSON line: wall and CPU seconds, clips per hour, video seconds per wall second.
enum Throughput {
    struct Outcome {
        var video: Double
        var error: String?
    }

    struct Clip: Sendable {
        var sport: Sport
        var path: String
        var options: JSONValue
    }

    static func run(_ arguments: Arguments, _ settings: VisionSettings, slots: Int) throws {
        let clips = try readList(arguments.target)
        var vision = settings
        vision.inferenceThreads = arguments.threads
        let models = VisionModelPool()
        try AnalysisPipeline.preloadModels(vision, concurrentJobs: slots, pool: models)

        let next = LockedValue(0)
        let outcomes = LockedValue([Outcome]())
        let options = arguments.decodeOptions, settings = vision
        let cpuBefore = cpuSeconds()
        let clock = ContinuousClock(), start = clock.now
        let done = DispatchGroup()
        for _ in 0..<slots {
            done.enter()
            Thread.detachNewThread {
                defer { done.leave() }
                while true {
                    let index = next.withLock { value -> Int in
                        defer { value += 1 }
                        return value
                    }
                    guard index < clips.count else { return }
                    let clip = clips[index]
                    let pipeline = AnalysisPipeline(sport: clip.sport, options: clip.options, decodeOptions: options,
                                                    vision: settings, concurrentJobs: slots, models: models)
                    do {
                        let output = try pipeline.run(location: clip.path, reporter: SilentReporter())
                        _ = try ReelworkJSON.encoder.encode(output.document)
                        outcomes.withLock { $0.append(Outcome(video: output.facts?.durationSeconds ?? 0, error: nil)) }
                    } catch {
                        outcomes.withLock { $0.append(Outcome(video: 0, error: "\(clip.path): \(error)")) }
                    }
                }
            }
        }
        done.wait()
        let wall = (clock.now - start).seconds
        let cpu = cpuSeconds() - cpuBefore
        let results = outcomes.withLock { $0 }
        if let error = results.compactMap(\.error).first { fail(error) }
        let video = results.map(\.video).reduce(0, +)
        printJSON(["slots": slots, "inference_threads": arguments.threads, "clips": clips.count, "video_seconds": video,
                   "wall_seconds": wall, "cpu_seconds": cpu, "clips_per_hour": Double(clips.count) / wall * 3600,
                   "realtime_factor": video / wall, "peak_rss_mib": peakRSSMiB()])
    }

    private static func readList(_ path: String) throws -> [Clip] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }.map { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 2 else { fail("\(path): expected 'SPORT PATH [OPTIONS.json]', got '\(line)'") }
            let options = try fields.count > 2
                ? JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: fields[2])))
                : JSONValue.emptyObject
            return Clip(sport: try Sport.parse(fields[0]), path: fields[1], options: options)
        }
    }
}

/// Takes the pipeline's progress reports and ignores them (a worker's cost of writing them is the queue's).
final class SilentReporter: StageReporter {
    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws {}
    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {}
    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {}
}
