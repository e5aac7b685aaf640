// tennis-bench N SEED [--worst-dir DIR] [--worst K] [--swings FILE]
//
// N generated pose sequences (TennisScenes.PoseSequenceGenerator, seeds SEED…SEED+N−1) through the
// tennis plug-in's `swings` and `metrics` stages, exactly as a worker runs them after `pose`, each
// compared with the truth the generator wrote. Prints the accuracy table (loadtest/accuracy-bench.sh
// tennis runs this); the K worst sequences go to DIR as JSON (truth, detections, conditions, and the
// player's racket-wrist track to plot). `--swings FILE` writes every reported swing as a line of
// tab-separated values (seed, frames a second, true type or "none", camera azimuth, noise, blur
// rate, missing-frame run, true peak speed, signed contact error in frames, right, confidence,
// review codes) to see where contact errs and to calibrate the confidence.
import Foundation
import ReelworkCore
import SportKit
import Tennis
import TennisScenes

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("tennis-bench: \(message)\n".utf8))
    exit(2)
}

var positional: [String] = [], flags: [String: String] = [:]
var rest = Array(CommandLine.arguments.dropFirst())
while !rest.isEmpty {
    let a = rest.removeFirst()
    if a.hasPrefix("--") {
        guard !rest.isEmpty, ["--worst-dir", "--worst", "--swings"].contains(a) else { fail("unknown flag or missing value: \(a)") }
        flags[a] = rest.removeFirst()
    } else {
        positional.append(a)
    }
}
guard positional.count == 2, let count = Int(positional[0]), count > 0, let firstSeed = UInt64(positional[1]) else {
    fail("usage: tennis-bench N SEED [--worst-dir DIR] [--worst K] [--swings FILE]")
}
let worstCount = flags["--worst"].flatMap { Int($0) } ?? 8

/// One sequence's outcome, kept for the tables and the worst cases.
struct Outcome {
    var sequence: PoseSequence
    var detected: [DetectedSwing]
    var score: SequenceScore
    var seconds: Double

    /// Worse first: a wrong count, then the largest contact error, then a wrong type.
    var badness: Double {
        let count = Double(score.missed.count + score.extra.count) * 1000
        return count + (score.matches.map(\.errorFrames).max() ?? 0) + Double(score.matches.filter { !$0.typeRight }.count) * 0.5
    }
}

func analyse(_ sequence: PoseSequence) throws -> [DetectedSwing] {
    let options = JSONValue.object(["dominantHand": .string(sequence.hand.rawValue)])
    let analysis = try TennisPlugin().analysis(options: options)
    let input = DecodedInput(sampled: sequence.sampled)
    _ = try analysis.run(.swings, on: input)
    return DetectedSwing.all(in: try analysis.run(.metrics, on: input)["swings"])
}

var outcomes: [Outcome] = []
for k in 0..<count {
    let seed = firstSeed + UInt64(k)
    let sequence = PoseSequenceGenerator.make(seed: seed)
    let started = DispatchTime.now().uptimeNanoseconds
    let detected = try analyse(sequence)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    outcomes.append(
        Outcome(
            sequence: sequence, detected: detected,
            score: SwingMatcher.score(truth: sequence.swings, detected: detected, fps: sequence.fps), seconds: seconds))
}

func percent(_ part: Int, _ whole: Int) -> String {
    whole == 0 ? "–" : String(format: "%.1f %%", 100 * Double(part) / Double(whole))
}
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((p / 100 * Double(sorted.count - 1)).rounded()))]
}

let truthTotal = outcomes.map(\.score.truthCount).reduce(0, +)
let detectedTotal = outcomes.map(\.score.detectedCount).reduce(0, +)
let matches = outcomes.flatMap(\.score.matches)
let exact = outcomes.filter(\.score.countExact).count
let errors = matches.map(\.errorFrames)
let within2 = errors.filter { $0 <= SwingMatcher.contactFrames }.count
print("tennis: \(count) sequences, seeds \(firstSeed)…\(firstSeed + UInt64(count) - 1), \(truthTotal) swings, \(detectedTotal) detected")
print("| metric | value | target |")
print("|---|---|---|")
print("| swing count exact, per sequence | \(exact) / \(count) = \(percent(exact, count)) | ≥ 95 % |")
print("| swing recall | \(matches.count) / \(truthTotal) = \(percent(matches.count, truthTotal)) | |")
print("| swing precision | \(matches.count) / \(detectedTotal) = \(percent(matches.count, detectedTotal)) | |")
print("| contact within 2 frames (of found swings) | \(within2) / \(matches.count) = \(percent(within2, matches.count)) | all |")
print(
    String(
        format: "| contact error, frames: p50 / p90 / p95 / p99 / max | %.2f / %.2f / %.2f / %.2f / %.2f | ≤ 2 |",
        percentile(errors, 50), percentile(errors, 90), percentile(errors, 95), percentile(errors, 99), errors.max() ?? .nan))
let typeRight = matches.filter(\.typeRight).count
print("| type right (of found swings) | \(typeRight) / \(matches.count) = \(percent(typeRight, matches.count)) | |")
for kind in ["forehand", "backhand", "serve"] {
    let mine = outcomes.flatMap { o in o.score.matches.filter { o.sequence.swings[$0.truth].type == kind } }
    print("|   \(kind) | \(mine.filter(\.typeRight).count) / \(mine.count) = \(percent(mine.filter(\.typeRight).count, mine.count)) | |")
}
print(String(format: "| analysis time per sequence, median | %.1f ms | |", 1000 * percentile(outcomes.map(\.seconds), 50)))

// Where the misses and false swings are, by condition.
print("\nby condition (sequences; count exact; recall; precision):")
func line(_ name: String, _ subset: [Outcome]) {
    let t = subset.map(\.score.truthCount).reduce(0, +), d = subset.map(\.score.detectedCount).reduce(0, +)
    let m = subset.map(\.score.matches.count).reduce(0, +)
    print("  \(name): \(subset.count); \(percent(subset.filter(\.score.countExact).count, subset.count)); \(percent(m, t)); \(percent(m, d))")
}
line("passer-by walking", outcomes.filter { $0.sequence.conditions.passersBy > 0 && !$0.sequence.conditions.jogging })
line("passer-by jogging", outcomes.filter { $0.sequence.conditions.passersBy > 0 && $0.sequence.conditions.jogging })
line("nobody else", outcomes.filter { $0.sequence.conditions.passersBy == 0 })
line("camera in front", outcomes.filter { abs($0.sequence.conditions.cameraAzimuthDegrees - 180) < 90 })
line("camera behind", outcomes.filter { abs($0.sequence.conditions.cameraAzimuthDegrees - 180) >= 90 })
line("left-handed", outcomes.filter { $0.sequence.hand == .left })
line("24–40 fps", outcomes.filter { $0.sequence.fps < 40 })
line("40–60 fps", outcomes.filter { $0.sequence.fps >= 40 })
line("run of missing frames", outcomes.filter { $0.sequence.conditions.dropBurst > 0 })

// Where contact errs: within 2 frames by the swing's type and by why it was flagged for review,
// with the signed error (reported − true, frames) to show a lag or a lead.
struct FoundSwing {
    var error: Double
    var signedFrames: Double
    var type: String
    var review: [String]
}
let found = outcomes.flatMap { o in
    o.score.matches.map { m in
        FoundSwing(
            error: m.errorFrames,
            signedFrames: (o.detected[m.detected].contactTime - o.sequence.swings[m.truth].contactTime) * o.sequence.fps,
            type: o.sequence.swings[m.truth].type, review: o.detected[m.detected].review)
    }
}
print("\ncontact by kind (found swings; within 2 frames; signed error p10 / p50 / p90, frames):")
func contactLine(_ name: String, _ subset: [FoundSwing]) {
    guard !subset.isEmpty else { return }
    let within = subset.filter { $0.error <= SwingMatcher.contactFrames }.count
    let signed = subset.map(\.signedFrames)
    print(
        "  \(name): \(subset.count); \(percent(within, subset.count)); "
            + String(format: "%.2f / %.2f / %.2f", percentile(signed, 10), percentile(signed, 50), percentile(signed, 90)))
}
for kind in ["forehand", "backhand", "serve"] { contactLine(kind, found.filter { $0.type == kind }) }
contactLine("not flagged", found.filter { $0.review.isEmpty })
for code in Set(found.flatMap(\.review)).sorted() { contactLine("flagged \(code)", found.filter { $0.review.contains(code) }) }
if let path = flags["--swings"] {
    var text = "seed\tfps\ttype\tazimuth\tnoise\tblurRate\tdropBurst\tpeakSpeed\tsignedFrames\tright\tconfidence\treview\n"
    for o in outcomes {
        let (s, c) = (o.sequence, o.sequence.conditions)
        for (index, detected) in o.detected.enumerated() {
            // A phantom has no true swing: its type is "none" and its speed and contact error are empty.
            let truth = o.score.matches.first { $0.detected == index }.map { s.swings[$0.truth] }
            let signed = truth.map { String(format: "%.3f", (detected.contactTime - $0.contactTime) * s.fps) } ?? ""
            text +=
                "\(s.seed)\t" + String(format: "%.1f\t", s.fps) + "\(truth?.type ?? "none")\t"
                + String(format: "%.1f\t%.4f\t%.3f\t%.3f\t", c.cameraAzimuthDegrees, c.noise, c.blurRate, c.dropBurst)
                + (truth.map { String(format: "%.2f", $0.peakSpeed) } ?? "") + "\t\(signed)\t\(o.score.isRight(index) ? 1 : 0)\t"
                + String(format: "%.3f\t", detected.confidence) + detected.review.joined(separator: ",") + "\n"
        }
    }
    try text.write(toFile: path, atomically: true, encoding: .utf8)
}

// Reliability: of the swings given a confidence in each band, how many were right (a real swing,
// contact within 2 frames, type right).
print("\nreliability (confidence band: swings, right, mean confidence):")
print("| confidence | swings | right | mean confidence |")
print("|---|---|---|---|")
let reported = outcomes.flatMap { o in o.detected.indices.map { (confidence: o.detected[$0].confidence, right: o.score.isRight($0)) } }
for band in 0..<10 {
    let lo = Double(band) / 10, hi = lo + 0.1
    let inBand = reported.filter { $0.confidence >= lo && ($0.confidence < hi || (band == 9 && $0.confidence <= 1)) }
    guard !inBand.isEmpty else { continue }
    let right = inBand.filter(\.right).count
    let mean = inBand.map(\.confidence).reduce(0, +) / Double(inBand.count)
    print(
        String(format: "| %.1f–%.1f | %d | ", lo, hi, inBand.count) + "\(right) (\(percent(right, inBand.count)))" + String(format: " | %.3f |", mean)
    )
}
let flagged = outcomes.flatMap { o in o.detected.indices.filter { !o.detected[$0].review.isEmpty }.map { o.score.isRight($0) } }
let unflagged = outcomes.flatMap { o in o.detected.indices.filter { o.detected[$0].review.isEmpty }.map { o.score.isRight($0) } }
print(
    "\nreview: \(flagged.count) swings flagged, \(flagged.filter { $0 }.count) of them right (\(percent(flagged.filter { $0 }.count, flagged.count)));"
        + " \(unflagged.count) not flagged, \(unflagged.filter { $0 }.count) right (\(percent(unflagged.filter { $0 }.count, unflagged.count)))")
var reasons: [String: (all: Int, wrong: Int)] = [:]
for o in outcomes {
    for (i, d) in o.detected.enumerated() {
        for reason in d.review {
            let key = reason.split(separator: ":").first.map(String.init) ?? reason
            reasons[key, default: (0, 0)].all += 1
            if !o.score.isRight(i) { reasons[key, default: (0, 0)].wrong += 1 }
        }
    }
}
for (reason, n) in reasons.sorted(by: { $0.value.all > $1.value.all }) { print("  \(reason): \(n.all) (\(n.wrong) not right)") }

// The worst cases, with what is needed to see why: truth, detections, conditions, the wrist track.
if let dir = flags["--worst-dir"] {
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    let worst = outcomes.filter { $0.badness > SwingMatcher.contactFrames }.sorted { $0.badness > $1.badness }.prefix(worstCount)
    print("\nworst sequences (in \(dir)):")
    for o in worst {
        let s = o.sequence
        let wrist = s.hand == .right ? 16 : 15
        let player = s.sampled.tracks.first { $0.id == s.playerTrackId }?.poses ?? []
        let json = JSONValue.object([
            "seed": .number(Double(s.seed)), "fps": .number(s.fps), "hand": .string(s.hand.rawValue),
            "conditions": s.conditions.json(),
            "truth": .array(
                s.swings.map {
                    .object([
                        "type": .string($0.type), "contactTime": .number($0.contactTime),
                        "contactFrame": .number(Double($0.contactFrame)), "peakSpeed": .number($0.peakSpeed)
                    ])
                }),
            "idle": .array(s.idle.map { .object(["kind": .string($0.kind), "start": .number($0.start), "end": .number($0.end)]) }),
            "detected": .array(
                o.detected.map {
                    .object([
                        "trackId": .number(Double($0.trackId)), "type": .string($0.type),
                        "contactTime": .number($0.contactTime), "confidence": .number($0.confidence),
                        "review": .array($0.review.map { .string($0) })
                    ])
                }),
            "missed": .array(o.score.missed.map { .number(Double($0)) }), "extra": .array(o.score.extra.map { .number(Double($0)) }),
            "wristTrack": .array(
                player.map {
                    .array([
                        .number($0.time), .number($0.landmarks[wrist].x), .number($0.landmarks[wrist].y),
                        .number($0.landmarks[wrist].visibility)
                    ])
                })
        ])
        let path = "\(dir)/seed-\(s.seed).json"
        try json.jsonString().write(toFile: path, atomically: true, encoding: .utf8)
        let truthText = s.swings.map { "\($0.type)@\(String(format: "%.2f", $0.contactTime))" }.joined(separator: " ")
        let foundText = o.detected.map { "\($0.type)@\(String(format: "%.2f", $0.contactTime))" }.joined(separator: " ")
        print("  seed \(s.seed): truth [\(truthText)] found [\(foundText)] fps \(String(format: "%.0f", s.fps))")
    }
}
