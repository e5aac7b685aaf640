import Archery
import ArcheryScenes
import Foundation
import ReelworkCore

// Times one 12-megapixel photo (4000 × 3000, a 122 cm face seen 25° off its axis with six arrows,
// rendered by ArcheryScenes) through face finding, arrows and scoring, several runs in one
// process; prints each run and the median, and checks the end against the scene's truth.
//
// usage: archery-bench [RUNS]     (default 7)
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
var last: ArcheryEnd?
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
