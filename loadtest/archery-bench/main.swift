import Archery
import ArcheryScenes
import Foundation
import ReelworkCore

// Times one 12-megapixel photo (4000 × 3000, a 122 cm face seen 25° off its axis with six arrows,
// rendered by ArcheryScenes) through face finding, arrows and scoring, several runs in one
// process; prints each run and the median, and checks the end against the scene's truth.
//
// usage: archery-bench [RUNS]     (default 7)
//        archery-bench sweep [ENDS]  (default 200): random ends (six arrows anywhere on the face,
//                                    random tilts, views up to 35° off axis, 1000 × 750) scored
//                                    against their truth: how often the whole end is exact
//                                    (SWEEP_DETAIL=1 prints each wrong arrow).
//        archery-bench render FILE   a sample photo (1600 × 1200, six arrows, 20° off axis) as a
//                                    binary PPM (ffmpeg turns it into a JPEG or PNG) and
//                                    FILE.truth.json {"sport": "archery", "arrows": [{score,
//                                    normalizedX, normalizedY}], "total", "xCount"}, for run-local.sh
if CommandLine.arguments.dropFirst().first == "render" {
    guard let file = CommandLine.arguments.dropFirst(2).first else {
        FileHandle.standardError.write(Data("usage: archery-bench render FILE\n".utf8))
        exit(2)
    }
    try renderSample(to: file)
    exit(0)
}
if CommandLine.arguments.dropFirst().first == "sweep" {
    try sweep(ends: max(1, CommandLine.arguments.dropFirst(2).first.flatMap { Int($0) } ?? 200))
    exit(0)
}
let runs = max(1, CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 7)

let arrows = [
    SceneArrow(x: 0.02, y: 0.015, tiltDegrees: 10, tiltDirectionDegrees: 150, length: 0.55),
    SceneArrow(x: 0.16, y: -0.05, tiltDegrees: 12, tiltDirectionDegrees: 300, length: 0.55),
    SceneArrow(x: -0.2, y: 0.18, tiltDegrees: 8, tiltDirectionDegrees: 120, length: 0.55),
    SceneArrow(x: 0.3, y: 0.38, tiltDegrees: 12, tiltDirectionDegrees: 20, length: 0.55),
    SceneArrow(x: -0.45, y: -0.5, tiltDegrees: 10, tiltDirectionDegrees: 200, length: 0.55),
    SceneArrow(x: 0.55, y: -0.8, tiltDegrees: 15, tiltDirectionDegrees: 330, length: 0.55),
]
let camera = FaceCamera.framing(width: 4000, height: 3000, radiusPx: 1250, yawDegrees: 25, pitchDegrees: 10)
let renderStart = Date()
let photo = ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: arrows, noise: 6))
FileHandle.standardError.write(Data("rendered 4000×3000 in \(String(format: "%.2f", Date().timeIntervalSince(renderStart))) s\n".utf8))
let image = try ArcheryImage(width: photo.width, height: photo.height, pixels: photo.pixels)

/// This process's CPU seconds: the analysis is one thread, so on a busy machine CPU time shows what
/// it costs while wall-clock time also shows the wait for a core.
func cpuSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

var seconds = [Double](), cpu = [Double]()
var last: ArcheryResult?
for run in 1...runs {
    let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuSeconds()
    let end = try ArcheryAnalyzer.analyze(image, options: ArcheryOptions(expectedArrowCount: 6))
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    seconds.append(elapsed)
    cpu.append(cpuSeconds() - cpuStart)
    last = end
    print("run \(run): \(String(format: "%.3f", elapsed)) s wall, \(String(format: "%.3f", cpu[cpu.count - 1])) s CPU")
}
func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}
if let end = last {
    let correct = end.total == photo.truth.total && end.arrows.count == photo.truth.arrows.count
    print("end: \(end.arrows.count) arrows, total \(end.total) (truth \(photo.truth.total)), centre error "
        + String(format: "%.2f px", hypot(end.face.centerX - photo.truth.centerX, end.face.centerY - photo.truth.centerY))
        + (correct ? "" : "  MISMATCH"))
}
print(String(format: "median %.3f s wall, %.3f s CPU over %d runs (target < 1 s)", median(seconds), median(cpu), runs))

/// Random ends against their truth. Arrows are kept 0.01 face radii from lines (a line cutter's
/// score depends on the finder's last 0.003, tested on its own) and 0.12 apart.
func sweep(ends: Int) throws {
    var state: UInt64 = 0x5EED
    func uniform() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
    var exactEnds = 0, arrowsTotal = 0, arrowsExact = 0, noFace = 0
    var failures = [String]()
    for index in 0..<ends {
        var arrows = [SceneArrow]()
        while arrows.count < 6 {
            let r = 0.98 * uniform().squareRoot(), a = 2 * Double.pi * uniform()
            let nearLine = ([0.05] + (1...10).map { Double($0) / 10 }).contains { abs(r - $0) < 0.01 }
            let x = r * sin(a), y = r * cos(a)
            guard !nearLine, arrows.allSatisfy({ hypot($0.x - x, $0.y - y) >= 0.12 }) else { continue }
            arrows.append(SceneArrow(x: x, y: y, tiltDegrees: 5 + 12 * uniform(), tiltDirectionDegrees: 360 * uniform(), length: 0.55))
        }
        let offAxis = 35 * uniform().squareRoot(), direction = 2 * Double.pi * uniform()
        let camera = FaceCamera.framing(width: 1000, height: 750, radiusPx: 260 + 60 * uniform(),
                                        yawDegrees: offAxis * cos(direction), pitchDegrees: offAxis * sin(direction))
        let photo = ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: arrows, gain: 0.8 + 0.4 * uniform(), noise: 6,
                                                        seed: UInt64(index + 1)))
        let image = try ArcheryImage(width: photo.width, height: photo.height, pixels: photo.pixels)
        arrowsTotal += photo.truth.arrows.count
        guard let end = try? ArcheryAnalyzer.analyze(image, options: ArcheryOptions()) else {
            noFace += 1
            failures.append("end \(index): no face")
            continue
        }
        var good = 0
        for truth in photo.truth.arrows {
            if let found = end.arrows.min(by: { hypot($0.normalizedX - truth.x, $0.normalizedY - truth.y) < hypot($1.normalizedX - truth.x, $1.normalizedY - truth.y) }),
               hypot(found.normalizedX - truth.x, found.normalizedY - truth.y) <= 0.04, found.score == truth.score {
                good += 1
            } else if ProcessInfo.processInfo.environment["SWEEP_DETAIL"] != nil {
                let found = end.arrows.min(by: { hypot($0.normalizedX - truth.x, $0.normalizedY - truth.y) < hypot($1.normalizedX - truth.x, $1.normalizedY - truth.y) })
                print(String(format: "  end %d arrow at r %.3f (%.2f, %.2f) score %d: nearest found %.3f away at r %.3f, score %d", index,
                             hypot(truth.x, truth.y), truth.x, truth.y, truth.score,
                             found.map { hypot($0.normalizedX - truth.x, $0.normalizedY - truth.y) } ?? -1, found?.distanceFromCenter ?? -1, found?.score ?? -1))
            }
        }
        arrowsExact += good
        if good == photo.truth.arrows.count, end.arrows.count == photo.truth.arrows.count, end.total == photo.truth.total {
            exactEnds += 1
        } else {
            failures.append(String(format: "end %d: view %.0f° off axis, %d of 6 arrows right, %d found, total %d (truth %d)",
                                   index, offAxis, good, end.arrows.count, end.total, photo.truth.total))
        }
    }
    for line in failures.prefix(20) { print(line) }
    print("ends exact: \(exactEnds) of \(ends); arrows within 0.04 with their score: \(arrowsExact) of \(arrowsTotal); no face: \(noFace)")
}

/// The sample photo for the main command, with its truth in the result's own names.
func renderSample(to file: String) throws {
    let arrows = SceneArrow.sixArrows
    let camera = FaceCamera.framing(width: 1600, height: 1200, radiusPx: 480, yawDegrees: 20, pitchDegrees: 8)
    let photo = ArcheryRenderer.render(ArcheryScene(camera: camera, arrows: arrows, noise: 6))
    var ppm = Array("P6\n\(photo.width) \(photo.height)\n255\n".utf8)
    ppm += photo.pixels
    try Data(ppm).write(to: URL(fileURLWithPath: file))
    let truth: [String: Any] = [
        // The convention is named so a truth written before y turned downwards is not trusted.
        "sport": "archery", "total": photo.truth.total, "xCount": photo.truth.xCount, "convention": "y down",
        "arrows": photo.truth.arrows.map { ["score": $0.score, "isXRing": $0.isX, "normalizedX": $0.x, "normalizedY": $0.y] as [String: Any] },
    ]
    try JSONSerialization.data(withJSONObject: truth, options: [.sortedKeys]).write(to: URL(fileURLWithPath: file + ".truth.json"))
    print("rendered \(file): \(photo.truth.arrows.count) arrows, total \(photo.truth.total); scores "
        + photo.truth.arrows.map { $0.isX ? "X" : String($0.score) }.joined(separator: " "))
}
