// basketball-bench render FILE [--seconds S] [--fps F] [--height H]   a shooting session (BasketballScenes) + FILE.options.json
//                                                                    and FILE.truth.json (run-local.sh's sample)
// basketball-bench track FILE --options JSON
//
// `track` decodes FILE with the ffmpeg CLI to RGB24 (RawVideoDecoder) and times only
// BasketballTracker.process, frame by frame. Frames are read in batches and timed while ffmpeg
// waits on its full pipe, so the decoder does not share the cores with the timed pass. Prints one
// JSON line. loadtest/basketball-bench.sh repeats it beside `ffmpeg -benchmark` decoding the same
// clip and reports medians and the ratio tracking ÷ decoding (target < 1).
import Basketball
import BasketballScenes
import BenchSupport
import Foundation
import ReelworkCore
import SceneVideo

let arguments = BenchArguments(name: "basketball-bench",
                               usage: "usage: basketball-bench render FILE [--seconds S] [--fps F] [--height H] | track FILE --options JSON",
                               flags: ["--seconds", "--fps", "--height", "--options"])
let mode = arguments.mode, file = arguments.file
let seconds = arguments["--seconds"].flatMap { Double($0) } ?? 20, optionsPath = arguments["--options"]
let fps = arguments["--fps"].flatMap { Int($0) } ?? 60, height = arguments["--height"].flatMap { Int($0) } ?? 1080
let width = height * 16 / 9

@MainActor func render() throws {
    // Every kind of shot, 2PT and 3PT, with dribbles and passes between, until the clip is long enough.
    let pattern: [SceneEvent] = [
        .dribble(playerX: 16, bounces: 2), .shot(.swish, distanceFt: 15), .pass(playerX: 20, towardHoop: false),
        .shot(.rimOut, distanceFt: 24), .shot(.bank, distanceFt: 12), .dribble(playerX: 24, bounces: 2),
        .shot(.airball, distanceFt: 24), .shot(.swish, distanceFt: 24), .pass(playerX: 14, towardHoop: true),
        .shot(.offBoard, distanceFt: 16),
    ]
    func duration(_ events: [SceneEvent]) -> Double {
        let sketch = ShootingScene(width: 64, height: 36, fps: 10, events: events)
        return sketch.time(ofFrame: sketch.frameCount)
    }
    var events: [SceneEvent] = []
    repeat {
        events.append(pattern[events.count % pattern.count])
    } while duration(events) < seconds
    let scene = ShootingScene(width: width, height: height, fps: fps, events: events, seed: 21)
    try ShootingSceneRenderer(scene: scene).encode(to: URL(fileURLWithPath: file))
    let ends = scene.rimEnds
    let options: JSONValue = .object(["hoop": .object(["rimLeft": .array([.number(ends.left.x), .number(ends.left.y)]),
                                                       "rimRight": .array([.number(ends.right.x), .number(ends.right.y)])])])
    try options.encodedText().write(toFile: file + ".options.json", atomically: true, encoding: .utf8)
    // The truth beside the clip, as scripts/lib/sample-truth.py reads it: each attempt and seed 001's totals.
    let made = scene.truth.filter(\.made).count, threes = scene.truth.filter(\.isThreePoint), threesMade = threes.filter(\.made).count
    let truth: JSONValue = .object([
        "sport": .string("basketball"),
        "shots": .array(scene.truth.map { shot in
            .object(["made": .bool(shot.made), "shotType": .string(shot.isThreePoint ? "3PT" : "2PT"),
                     "releaseTime": .number((shot.releaseTime * 1000).rounded() / 1000), "distanceFt": .number(shot.distanceFt),
                     "kind": .string(shot.kind.rawValue)])
        }),
        "stats": .object([
            "fieldGoalsAttempted": .number(Double(scene.truth.count)), "fieldGoalsMade": .number(Double(made)),
            "threePointAttempted": .number(Double(threes.count)), "threePointMade": .number(Double(threesMade)),
            "points": .number(Double(2 * (made - threesMade) + 3 * threesMade)),
        ]),
    ])
    try truth.encodedText().write(toFile: file + ".truth.json", atomically: true, encoding: .utf8)
    print("rendered \(file): \(width)x\(height) \(fps) fps, \(scene.frameCount) frames, \(scene.truth.count) shots, \(made) made; truth: "
          + scene.truth.map { "\($0.kind.rawValue)@\(Int($0.distanceFt))ft" }.joined(separator: " "))
}

@MainActor func track() throws {
    guard let optionsPath else { arguments.fail("track needs --options FILE (basketball-bench render writes FILE.options.json)") }
    let options = try BasketballOptions.parse(try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: optionsPath))))
    let tracker = try BasketballTracker(options: options, frameWidth: width, frameHeight: height, frameRate: Double(fps))
    let decoder = try RawVideoDecoder(input: URL(fileURLWithPath: file), width: width, height: height)
    let clock = ContinuousClock()
    var inTracker = Duration.zero, frames = 0, perFrame: [Double] = []
    var batch: [PackedRGBFrame] = []
    var finished = false
    while !finished {
        batch.removeAll(keepingCapacity: true)
        while batch.count < 30 {
            guard let pixels = decoder.next() else { finished = true; break }
            guard let frame = PackedRGBFrame(width: width, height: height, pixels: pixels) else { arguments.fail("bad frame size") }
            batch.append(frame)
        }
        for frame in batch {
            let before = clock.now
            try tracker.process(frame, time: Double(frames) / Double(fps), frameIndex: frames)
            let spent = clock.now - before
            inTracker += spent
            perFrame.append(spent.seconds * 1000)
            frames += 1
        }
    }
    let before = clock.now
    let result = try tracker.finish()
    let finish = (clock.now - before).seconds
    perFrame.sort()
    let summary: [String: Any] = [
        "frames": frames, "tracker_s": inTracker.seconds, "tracker_ms_per_frame": inTracker.seconds * 1000 / Double(max(1, frames)),
        "tracker_p99_ms": perFrame.isEmpty ? 0 : perFrame[min(perFrame.count - 1, perFrame.count * 99 / 100)],
        "finish_s": finish, "shots": result.shots.count, "made": result.stats.fieldGoalsMade, "frames_with_ball": result.framesWithBall,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
}

do {
    switch mode {
    case "render": try render()
    case "track": try track()
    default: arguments.fail("unknown mode \(mode)")
    }
} catch {
    arguments.fail("\(error)")
}
