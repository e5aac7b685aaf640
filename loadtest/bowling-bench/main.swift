// bowling-bench render FILE [--seconds S] [--camera 1080p|720p]   a bowling clip (BowlingScenes) + FILE.options.json
// bowling-bench ball FILE --options JSON [--threads T]
//
// `ball` times, in one process and alternating within one run: decode-only (every frame decoded, no
// RGB: the decode stage alone), then decode → RGB → the ball tracker (the bowling plan's streamed
// `decode` + `ball`), with the time spent inside BallTracker.process summed separately. Prints one
// JSON line. loadtest/bowling-bench.sh repeats it and reports medians and the ratio
// tracking ÷ decoding (target < 1: tracking costs less than decoding).
import BenchSupport
import Bowling
import BowlingScenes
import Foundation
import Media
import ReelworkCore

let arguments = BenchArguments(name: "bowling-bench",
                               usage: "usage: bowling-bench render FILE [--seconds S] | ball FILE --options JSON [--threads T]",
                               flags: ["--seconds", "--options", "--threads", "--camera"])
let mode = arguments.mode, file = arguments.file
let seconds = arguments["--seconds"].flatMap { Double($0) } ?? 30, optionsPath = arguments["--options"]
let threads = arguments["--threads"].flatMap { Int($0) } ?? 0
let camera = arguments["--camera"] == "720p" ? LaneCamera.behindBowler720p : .behindBowler1080p

@MainActor func render() throws {
    // Shots of both kinds, left and right of the lane, until the clip is `seconds` long.
    let pattern: [BowlingShot] = [.hook(.right, speedMph: 17, revRateRPM: 300), .straight(board: 17.5, speedMph: 20),
                                  .hook(.right, speedMph: 14, revRateRPM: 380), .gutter(.right)]
    var shots: [BowlingShot] = []
    while Double(shots.count) * 4.6 < seconds { shots.append(pattern[shots.count % pattern.count]) }
    let scene = BowlingScene(camera: camera, hand: .right, shots: shots, noise: .init(seed: 3, amplitude: 4))
    let truths = try BowlingRenderer.render(scene, to: URL(fileURLWithPath: file))
    try BowlingClipOptions(scene: scene).jsonString().write(toFile: file + ".options.json", atomically: true, encoding: .utf8)
    // The known truth in the result's own names, for scripts/lib/sample-truth.py.
    let truthShots: [[String: Any]] = truths.map { truth in
        ["launchSpeed": truth.launchSpeed ?? NSNull(), "arrowBoard": truth.arrowBoard, "pocketBoard": truth.pocketBoard,
         "entryAngle": truth.entryAngle ?? NSNull(), "revRate": truth.revRate, "gutter": truth.isGutter]
    }
    try JSONSerialization.data(withJSONObject: ["sport": "bowling", "shots": truthShots], options: [.sortedKeys])
        .write(to: URL(fileURLWithPath: file + ".truth.json"))
    print("rendered \(file): \(truths.count) shots; truth: " + truths.map { truth in
        String(format: "launch %.1f mph, arrows %.1f, pocket %.1f, entry %.1f°, %@", truth.launchSpeed ?? .nan, truth.arrowBoard,
               truth.pocketBoard, truth.entryAngle ?? .nan, truth.isGutter ? "gutter" : "\(Int(truth.revRate)) rpm")
    }.joined(separator: " | "))
}

@MainActor func ball() throws {
    guard let optionsPath else { arguments.fail("ball needs --options FILE (bowling-bench render writes FILE.options.json)") }
    let options = try BowlingOptions.parse(try ReelworkJSON.decoder.decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: optionsPath))))
    let clock = ContinuousClock()
    let decodeOptions = DecodeOptions(threads: threads)

    var start = clock.now
    let plain = try VideoDecoder(location: file, options: decodeOptions)
    let decoded = try plain.decodeAll(progress: { _ in }).framesDecoded
    let decodeOnly = (clock.now - start).seconds

    start = clock.now
    let decoder = try VideoDecoder(location: file, options: decodeOptions)
    let tracker = try BallTracker(options: options, frameWidth: decoder.displaySize.width, frameHeight: decoder.displaySize.height,
                                  frameRate: decoder.facts.fps)
    var inTracker = Duration.zero
    _ = try decoder.decodeAll(sampling: .everyFrame, progress: { _ in }, onSample: { frame in
        let before = clock.now
        try tracker.process(frame.image, time: frame.time, frameIndex: frame.frameIndex)
        inTracker += clock.now - before
    })
    let tracks = try tracker.finish()
    let streamed = (clock.now - start).seconds

    let result: [String: Any] = [
        "frames": decoded, "decode_only_s": decodeOnly, "decode_rgb_ball_s": streamed, "tracker_s": inTracker.seconds,
        "ball_fps": Double(decoded) / streamed, "decode_fps": Double(decoded) / decodeOnly,
        "tracker_over_decode": inTracker.seconds / decodeOnly, "added_over_decode": (streamed - decodeOnly) / decodeOnly,
        "shots": tracks.shots.count, "frames_with_ball": tracks.framesWithBall,
    ]
    print(String(decoding: try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys]), as: UTF8.self))
}

do {
    switch mode {
    case "render": try render()
    case "ball": try ball()
    default: arguments.fail("unknown mode \(mode)")
    }
} catch {
    arguments.fail("\(error)")
}
