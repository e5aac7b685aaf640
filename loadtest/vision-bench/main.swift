// vision-bench: the figures behind docs/benchmarks/vision.md (loadtest/vision-bench.sh runs it).
//
//   vision-bench infer yolo|pose --input RAW [--threads N] [--runs R] [--warmup W] [--model PATH]
//       ONNX Runtime runs alone, on a fixed tensor, timed like reference_infer.py's `bench`:
//       W untimed runs, then R timed runs one after the other; prints JSON with median_ms.
//   vision-bench stages FILE [--threads N] [--decode-threads T] [--sample-fps F]
//       The stage overhead: the streamed decode+objects+pose pass against decode-only time plus
//       inference-only time (the same numbers of detector and pose runs as the pass, on prepared inputs).
//   vision-bench analyze FILE [--threads N] [--decode-threads T] [--sample-fps F]
//       The whole analysis (AnalysisPipeline, as `reelwork analyze` runs it): wall seconds,
//       realtime factor, peak RSS, detector and pose runs (REELWORK_PERSON_DETECTION picks the mode).
//   vision-bench decode FILE [--decode-threads T] [--sample-fps F] [--decode-every-frame]
//       The decode side of the analysis alone: the sampled decode (frames converted to RGB at the
//       sampling rate, no models): wall and CPU seconds, frames decoded and left undecoded.
//   vision-bench throughput LIST [--slots S] [--threads T]
//       One worker's throughput: S slots analysing the clips listed in LIST (`SPORT PATH [OPTIONS.json]`
//       a line) with T inference threads per job (Throughput.swift); loadtest/throughput-sweep.sh runs it.
//   --decode-every-frame (stages, analyze, throughput): decode every frame, also those no sample needs
//       (DecodeOptions.dropsUnsampledFrames off), to compare with the default.
//
// Model paths and the ONNX Runtime library come from the REELWORK_* variables (defaults: models/).
import Foundation
import Inference
import Media
import Pipeline
import ReelworkCore
import Tennis
import Vision

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("vision-bench: \(message)\n".utf8))
    exit(2)
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

struct Arguments {
    var mode = ""
    var target = ""
    var threads = 2
    var decodeThreads = 0
    var runs = 50
    var warmup = 5
    var input: String?
    var model: String?
    var sampleFPS: Double?
    var colorConversion = DecodeOptions.ColorConversion.fast
    var poseThreads: Int?
    var spinning = false
    var dropsUnsampledFrames = true
    var slots = 1

    /// The decoder's settings these flags ask for.
    var decodeOptions: DecodeOptions {
        DecodeOptions(threads: decodeThreads, colorConversion: colorConversion, dropsUnsampledFrames: dropsUnsampledFrames)
    }

    init(_ list: [String]) {
        var rest = list
        func value(_ flag: String) -> String {
            guard !rest.isEmpty else { fail("\(flag) needs a value") }
            return rest.removeFirst()
        }
        func number(_ flag: String) -> Int {
            guard let n = Int(value(flag)), n >= 0 else { fail("\(flag) needs a whole number") }
            return n
        }
        while !rest.isEmpty {
            let argument = rest.removeFirst()
            switch argument {
            case "--threads": threads = number(argument)
            case "--decode-threads": decodeThreads = number(argument)
            case "--runs": runs = max(1, number(argument))
            case "--warmup": warmup = number(argument)
            case "--input": input = value(argument)
            case "--model": model = value(argument)
            case "--accurate-color": colorConversion = .accurate
            case "--pose-threads": poseThreads = number(argument)
            case "--spin": spinning = true
            case "--decode-every-frame": dropsUnsampledFrames = false
            case "--slots": slots = max(1, number(argument))
            case "--sample-fps":
                guard let f = Double(value(argument)), f > 0 else { fail("--sample-fps needs a number > 0") }
                sampleFPS = f
            default:
                guard !argument.hasPrefix("-") else { fail("unknown flag \(argument)") }
                if mode.isEmpty { mode = argument } else if target.isEmpty { target = argument } else { fail("unexpected \(argument)") }
            }
        }
    }
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func printJSON(_ object: [String: Any]) {
    let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// Peak resident set size of this process so far (VmHWM), in MiB.
func peakRSSMiB() -> Double { statusMiB("VmHWM:") }

/// User + system CPU seconds of this process so far: what a run cost, whatever else the machine was doing.
func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Resident set size now (VmRSS), in MiB.
func rssMiB() -> Double { statusMiB("VmRSS:") }

func statusMiB(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
          let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
    return kb / 1024
}

let arguments = Arguments(Array(CommandLine.arguments.dropFirst()))
// REELWORK_BENCH_RSS_TRACE=1: the resident size every 5 s on stderr, to see the phases of a run.
if ProcessInfo.processInfo.environment["REELWORK_BENCH_RSS_TRACE"] == "1" {
    let tracer = Thread {
        while true {
            FileHandle.standardError.write(Data(String(format: "rss %.0f MiB\n", rssMiB()).utf8))
            Thread.sleep(forTimeInterval: Double(ProcessInfo.processInfo.environment["REELWORK_BENCH_RSS_EVERY"] ?? "5") ?? 5)
        }
    }
    tracer.start()
}
var settings: VisionSettings
do { settings = try VisionSettings.fromEnvironment(ProcessInfo.processInfo.environment) } catch { fail("\(error)") }
if let fps = arguments.sampleFPS { settings.sampleFPS = fps }
let clock = ContinuousClock()

do {
    switch arguments.mode {
    case "infer":
        try Infer.run(arguments, settings)
    case "stages":
        try StageOverhead.run(arguments, settings)
    case "analyze":
        try WholeAnalysis.run(arguments, settings)
    case "throughput":
        try Throughput.run(arguments, settings, slots: arguments.slots)
    case "decode":
        try SampledDecode.run(arguments, settings)
    case "prep":
        try Preprocessing.run(arguments, settings)
    case "profile":
        try Profile.run(arguments, settings)
    case "jsonmem":
        try JSONMemory.run(arguments)
    default:
        fail("usage: vision-bench infer yolo|pose --input RAW | stages FILE | analyze FILE  [--threads N]")
    }
} catch {
    fail("\(error)")
}

/// ONNX Runtime alone: the same measurement as reference_infer.py's `bench`.
enum Infer {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        guard ["yolo", "pose"].contains(arguments.target) else { fail("infer yolo|pose") }
        guard let input = arguments.input else { fail("--input RAW (the tensor reference_infer.py's bench uses)") }
        let runtime = try VisionModels.runtime(at: settings.ortLibrary)
        let path = arguments.model ?? (arguments.target == "yolo" ? settings.detectorModel : settings.poseModel)
        let session = try InferenceSession(runtime: runtime, modelPath: path,
                                           options: SessionOptions(intraOpThreads: arguments.threads, interOpThreads: 1))
        let binding = try session.makeBinding()
        let data = try Data(contentsOf: URL(fileURLWithPath: input))
        let values = data.withUnsafeBytes { raw in (0..<(data.count / 4)).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self).littleEndian) } }
        try binding.inputs[0].assign(values)
        for _ in 0..<arguments.warmup { try session.run(binding) }
        var times: [Double] = []
        for _ in 0..<arguments.runs {
            let start = clock.now
            try session.run(binding)
            times.append((clock.now - start).seconds * 1000)
        }
        printJSON(["model": arguments.target, "file": path, "threads": arguments.threads, "runs": arguments.runs,
                   "warmup": arguments.warmup, "median_ms": median(times), "mean_ms": times.reduce(0, +) / Double(times.count),
                   "min_ms": times.min()!, "onnxruntime": runtime.version])
    }
}

/// Records when stages start and finish.
final class TimingReporter: StageReporter {
    var started: [StageName: ContinuousClock.Instant] = [:]
    var finished: [StageName: ContinuousClock.Instant] = [:]

    func stageStarted(_ stage: StageName, framesPlanned: Int?) throws { started[stage] = clock.now }
    func stageProgress(_ stage: StageName, framesDone: Int, framesPlanned: Int?) throws {}
    func stageFinished(_ stage: StageName, status: StageStatus, framesDone: Int?, error: (any ClassifiedError)?) throws {
        finished[stage] = clock.now
    }
}

/// The streamed pass against its parts measured alone.
enum StageOverhead {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        let file = arguments.target
        var vision = settings
        vision.inferenceThreads = arguments.threads
        let decodeOptions = arguments.decodeOptions

        // 1. The streamed pass, models loaded beforehand (a worker has them loaded).
        let pool = VisionModelPool()
        try AnalysisPipeline.preloadModels(vision, concurrentJobs: 1, pool: pool)
        let pipeline = AnalysisPipeline(sport: .tennis, decodeOptions: decodeOptions, vision: vision, models: pool)
        let reporter = TimingReporter()
        let output = try pipeline.run(location: file, reporter: reporter)
        let streamed = (reporter.finished[.pose]! - reporter.started[.decode]!).seconds
        let result = output.document.result
        guard case .number(let detectorRuns)? = result["vision"]?["detectorRuns"], case .number(let poseRuns)? = result["vision"]?["poseRuns"] else {
            fail("no vision result")
        }
        let frames = Int(detectorRuns), poses = Int(poseRuns)

        // 2. Decode alone (every frame, quality samples, no RGB conversion).
        let decodeStart = clock.now
        _ = try VideoDecoder(location: file, options: decodeOptions).decodeAll { _ in }
        let decodeOnly = (clock.now - decodeStart).seconds

        // 3. Inference alone: as many detector and pose runs as the pass made, on
        //    inputs prepared from the clip's first frame (run time does not depend on the pixels).
        let models = try pool.checkout(vision, threads: arguments.threads)
        var box = BoundingBox(x1: 0, y1: 0, x2: 100, y2: 300)
        _ = try VideoDecoder(location: file).decodeAll(sampling: .everyNth(Int.max), progress: { _ in }) { frame in
            let people = try models.detector.detect(frame.image).filter { $0.classId == COCOClass.person }
            if let first = people.first { box = first.box }
            _ = try models.pose.estimate(frame.image, personBox: box)
        }
        let inferStart = clock.now
        for _ in 0..<frames { try models.detector.run() }
        let detectorOnly = (clock.now - inferStart).seconds
        let poseStart = clock.now
        for _ in 0..<poses { try models.pose.run() }
        let poseOnly = (clock.now - poseStart).seconds
        pool.checkin(models)

        let parts = decodeOnly + detectorOnly + poseOnly
        printJSON(["file": file, "threads": arguments.threads, "sampled_frames": frames, "poses": poses,
                   "streamed_seconds": streamed, "streamed_fps": Double(frames) / streamed,
                   "decode_only_seconds": decodeOnly, "detector_only_seconds": detectorOnly, "pose_only_seconds": poseOnly,
                   "parts_seconds": parts, "parts_fps": Double(frames) / parts, "ratio": streamed / parts])
    }
}

/// The sampled decode alone, as the streamed stages run it, without the models.
enum SampledDecode {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        let cpuBefore = cpuSeconds(), start = clock.now
        var checksum = 0
        let report = try VideoDecoder(location: arguments.target, options: arguments.decodeOptions)
            .decodeAll(sampling: .fps(settings.sampleFPS), progress: { _ in }) { frame in
                checksum &+= Int(frame.image.pixel(x: frame.image.width / 2, y: frame.image.height / 2).green)
            }
        let seconds = (clock.now - start).seconds
        printJSON(["file": arguments.target, "wall_seconds": seconds, "cpu_seconds": cpuSeconds() - cpuBefore,
                   "frames": report.framesDecoded, "frames_dropped": report.framesDropped, "frames_sampled": report.framesSampled,
                   "touched": checksum])
    }
}

/// The whole analysis of one clip, in this process.
enum WholeAnalysis {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        var vision = settings
        vision.inferenceThreads = arguments.threads
        let start = clock.now
        let pipeline = AnalysisPipeline(sport: .tennis, decodeOptions: arguments.decodeOptions, vision: vision,
                                        models: VisionModelPool())
        let output = try pipeline.run(location: arguments.target, reporter: TimingReporter())
        let json = try ReelworkJSON.encoder.encode(output.document)
        let seconds = (clock.now - start).seconds
        let duration = output.facts?.durationSeconds ?? 0
        // What the models found (detections and poses), as a fingerprint: runs with and without
        // --decode-every-frame must print the same one.
        let found = try ReelworkJSON.encoder.encode(JSONValue.array([output.document.result["detections"] ?? .null,
                                                                     output.document.result["poses"] ?? .null]))
        let fingerprint = found.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
        printJSON(["file": arguments.target, "threads": arguments.threads, "video_seconds": duration, "wall_seconds": seconds,
                   "realtime_factor": duration / seconds, "result_bytes": json.count, "peak_rss_mib": peakRSSMiB(),
                   "cpu_seconds": cpuSeconds(),
                   "person_detection": vision.personDetection.rawValue,
                   "detector_runs": output.document.result["vision"]?["detectorRuns"]?.number ?? 0,
                   "pose_runs": output.document.result["vision"]?["poseRuns"]?.number ?? 0,
                   "found_fnv1a": String(fingerprint, radix: 16)])
    }
}

/// What the frame path costs besides decoding and inference: RGB conversion, resize, crop.
enum Preprocessing {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        let file = arguments.target
        let models = try VisionModels(settings: settings, threads: arguments.threads)
        let box = BoundingBox(x1: 800, y1: 200, x2: 1100, y2: 1000)
        var results: [String: Any] = ["file": file]
        let resampler = ImageResampler()
        let buffer = FixedBuffer<Float>(count: 3 * 416 * 416, repeating: 0)
        _ = try VideoDecoder(location: file).decodeAll(sampling: .everyNth(Int.max), progress: { _ in }) { frame in
            for layout in [PixelLayout.planar, .interleaved] {
                let start = clock.now
                for _ in 0..<50 { resampler.resize(frame.image, into: buffer, width: 416, height: 416, layout: layout) }
                results["resize_\(layout)_ms"] = (clock.now - start).seconds * 1000 / 50
                let cropStart = clock.now
                for _ in 0..<50 { resampler.crop(frame.image, left: 300, top: 100, side: 1000, into: buffer, size: 416, layout: layout) }
                results["crop416_\(layout)_ms"] = (clock.now - cropStart).seconds * 1000 / 50
            }
        }
        for (name, work) in [("decode_sampled_rgb", 0), ("plus_resize", 1), ("plus_resize_and_2_crops", 2)] {
            let start = clock.now
            var frames = 0
            _ = try VideoDecoder(location: file, options: arguments.decodeOptions)
                .decodeAll(sampling: .fps(settings.sampleFPS), progress: { _ in }) { frame in
                    frames += 1
                    if work >= 1 { models.detector.prepare(frame.image) }
                    if work >= 2 {
                        for _ in 0..<2 { _ = models.pose.prepare(frame.image, personBox: box) }
                    }
                }
            results[name + "_seconds"] = (clock.now - start).seconds
            results["frames"] = frames
        }
        printJSON(results)
    }
}

/// The streamed pass's work, step by step, with a clock around each step.
enum Profile {
    static func run(_ arguments: Arguments, _ settings: VisionSettings) throws {
        let models = try VisionModels(settings: settings, threads: arguments.threads, poseThreads: arguments.poseThreads,
                                      allowSpinning: arguments.spinning)
        let pose = models.pose
        var tracker = PersonTracker()
        var t: [String: Double] = [:]
        t["rss_after_loading_mib"] = rssMiB()
        var poseRuns = 0
        var last = clock.now
        func lap(_ name: String) {
            let now = clock.now
            t[name, default: 0] += (now - last).seconds
            last = now
        }
        let start = clock.now
        _ = try VideoDecoder(location: arguments.target, options: arguments.decodeOptions)
            .decodeAll(sampling: .fps(settings.sampleFPS), progress: { _ in }) { frame in
                lap("decode_and_rgb")
                models.detector.prepare(frame.image)
                lap("resize")
                try models.detector.run()
                lap("detector_run")
                let found = models.detector.decode(sourceWidth: frame.image.width, sourceHeight: frame.image.height)
                let people = tracker.update(with: found.filter { $0.classId == COCOClass.person })
                lap("decode_and_track")
                for person in people.prefix(settings.maxPeoplePerFrame) {
                    _ = pose.prepare(frame.image, personBox: person.box)
                    lap("crop")
                    try pose.run()
                    poseRuns += 1
                    lap("pose_run")
                }
            }
        lap("decode_and_rgb")
        t["total"] = (clock.now - start).seconds
        t["pose_runs"] = Double(poseRuns)
        t["rss_after_decoding_mib"] = rssMiB()
        t["peak_rss_mib"] = peakRSSMiB()
        printJSON(t)
    }
}

/// What a result of `frames` pose frames costs in memory as a JSONValue tree, and to encode.
enum JSONMemory {
    static func run(_ arguments: Arguments) throws {
        let frames = Int(arguments.target) ?? 12_000
        FreedMemory.returnToSystem()
        let before = rssMiB()
        var list: [JSONValue] = []
        for i in 0..<frames {
            var landmarks: [JSONValue] = []
            for k in 0..<99 { landmarks.append(.number(Double((i * 7 + k * 13) % 19_200) / 10)) }
            let box: [JSONValue] = [.number(51.6), .number(384.7), .number(221.9), .number(916.2)]
            let frame: [String: JSONValue] = ["t": .number(Double(i) / 10), "score": .number(0.995), "box": .array(box),
                                              "landmarks": .array(landmarks)]
            list.append(.object(frame))
        }
        let poses = JSONValue.array(list)
        let tree = rssMiB()
        let data = try ReelworkJSON.encoder.encode(poses)
        let encoded = peakRSSMiB()
        printJSON(["frames": frames, "rss_before_mib": before, "rss_with_tree_mib": tree, "peak_after_encoding_mib": encoded,
                   "json_bytes": data.count])
    }
}
