import Foundation
import Media
import Pipeline
import ReelworkCore
import Tennis
import TestSupport
import Vision
import XCTest

/// A real person (cut from person.jpg) moving across a background at a known speed, made with
/// ffmpeg: the whole pipeline must follow them as one track whose landmarks move with them.
final class MovingPersonTests: XCTestCase {
    /// The overlay's left edge is at x = 20 + 150 · t pixels.
    static let speed = 150.0
    static let seconds = 3

    private var scratch: ScratchDirectory!

    override func setUpWithError() throws {
        try RealModels.require()
        scratch = try ScratchDirectory()
    }

    override func tearDown() {
        scratch?.remove()
    }

    /// 640×360, 30 fps, 3 s; the background's noise is seeded (ffmpeg's default seed), so every run
    /// makes the same file.
    private func clip() throws -> String {
        let path = scratch.path("walk.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=c=0x6a7a5a:size=640x360:rate=30,noise=alls=8:allf=t",
                         "-loop", "1", "-i", Paths.photo("person.jpg"),
                         "-filter_complex", "[1:v]crop=120:320:170:75[p];[0:v][p]overlay=x='20+t*\(Int(Self.speed))':y=20:shortest=1",
                         "-t", String(Self.seconds), "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
        return path
    }

    private func numbers(_ value: JSONValue?) -> [Double] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { if case .number(let n) = $0 { return n } else { return nil } }
    }

    func testOnePersonCrossingTheFrameIsOneTrackWithLandmarksMovingWithThem() throws {
        let path = try clip()
        for mode in VisionSettings.PersonDetection.allCases {
            try checkOnePersonCrossing(path, mode: mode)
        }
    }

    private func checkOnePersonCrossing(_ path: String, mode: VisionSettings.PersonDetection) throws {
        let reporter = RecordingReporter()
        var settings = Paths.settings
        settings.personDetection = mode
        let pipeline = AnalysisPipeline(sport: .tennis, vision: settings, models: VisionModelPool())
        let output = try pipeline.run(location: path, reporter: reporter)
        let result = output.document.result
        let sampled = 10 * Self.seconds

        // The frames the detector saw are in the detections, with their times, and have the person:
        // every sampled frame, or (people followed by their landmarks) the first and one a second.
        guard case .array(let frames)? = result["detections"] else { return XCTFail("no detections: \(result)") }
        let detectorTimes: [Double] = mode == .everySample ? (0..<sampled).map { Double($0) / 10 } : [0, 1, 2]
        XCTAssertEqual(frames.map { $0["t"] }, detectorTimes.map { .number($0) }, "\(mode)")
        XCTAssertEqual(result["vision"]?["detectorRuns"], .number(Double(detectorTimes.count)), "\(mode)")
        XCTAssertEqual(result["vision"]?["personDetection"], .string(mode.rawValue))
        for frame in frames {
            guard case .array(let boxes)? = frame["boxes"] else { return XCTFail("no boxes in \(frame)") }
            XCTAssertTrue(boxes.contains { numbers($0).first == 0 }, "a person at t = \(String(describing: frame["t"]))")
        }

        // One track, in (nearly) every frame.
        guard case .array(let tracks)? = result["poses"], tracks.count == 1, case .array(let poses)? = tracks[0]["frames"] else {
            return XCTFail("expected one track: \(String(describing: result["poses"]))")
        }
        XCTAssertEqual(tracks[0]["trackId"], .number(1))
        XCTAssertGreaterThanOrEqual(poses.count, sampled - 1)

        // Landmarks move with the overlay: nose and hips keep their place on the person.
        var noseOffsets: [Double] = [], hipOffsets: [Double] = [], times: [Double] = [], noseX: [Double] = []
        for pose in poses {
            guard case .number(let t)? = pose["t"] else { return XCTFail("no time in \(pose)") }
            let values = numbers(pose["landmarks"])
            XCTAssertEqual(values.count, 33 * 3)
            let overlayLeft = 20 + Self.speed * t
            noseOffsets.append(values[0] - overlayLeft)
            hipOffsets.append((values[23 * 3] + values[24 * 3]) / 2 - overlayLeft)
            times.append(t)
            noseX.append(values[0])
            XCTAssertLessThan(values[1], values[23 * 3 + 1], "nose above the hips at t = \(t)")
        }
        for offsets in [noseOffsets, hipOffsets] {
            let mean = offsets.reduce(0, +) / Double(offsets.count)
            XCTAssertLessThan(offsets.map { abs($0 - mean) }.max()!, 6, "landmarks stay on the person: \(offsets)")
            XCTAssertTrue((0...120).contains(mean), "inside the 120 px wide cut-out: \(mean)")
        }
        // The least-squares speed of the nose is the overlay's.
        let tMean = times.reduce(0, +) / Double(times.count), xMean = noseX.reduce(0, +) / Double(noseX.count)
        let covariance: Double = zip(times, noseX).map { (t: Double, x: Double) -> Double in (t - tMean) * (x - xMean) }.reduce(0, +)
        let variance: Double = times.map { (t: Double) -> Double in (t - tMean) * (t - tMean) }.reduce(0, +)
        let slope = covariance / variance
        XCTAssertEqual(slope, Self.speed, accuracy: Self.speed * 0.05)

        // Stages: decode, objects and pose ran together over one decode, each with its own progress;
        // then tennis's swings and metrics.
        XCTAssertEqual(output.document.stages.map(\.name), ["probe", "decode", "objects", "pose", "swings", "metrics"])
        XCTAssertEqual(output.document.stages.map(\.framesDone), [nil, 90, sampled, sampled, nil, nil])
        XCTAssertEqual(output.document.stages.map(\.framesPlanned), [nil, 90, sampled, sampled, nil, nil])
        XCTAssertEqual(reporter.started, [.probe, .decode, .objects, .pose, .swings, .metrics])
        XCTAssertEqual(reporter.progress(of: .objects), Array(1...sampled))
        XCTAssertEqual(reporter.progress(of: .pose), Array(1...sampled))
        XCTAssertEqual(reporter.progress(of: .decode).last, 90)
        XCTAssertEqual(result["framesDecoded"], .number(90))
        XCTAssertEqual(result["framesSampled"], .number(Double(sampled)))
        XCTAssertEqual(result["vision"]?["frameWidth"], .number(640))
    }

    /// Two real people (from person.jpg and bus.jpg) walking towards each other; the second passes
    /// in front and hides the first completely for a moment. Each keeps one track throughout, and
    /// the tracks do not swap: each box stays on its own person.
    func testTwoPlayersCrossingKeepOneTrackEach() throws {
        let path = scratch.path("cross.mp4")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "color=c=0x6a7a5a:size=960x540:rate=30,noise=alls=8:allf=t",
                         "-loop", "1", "-i", Paths.photo("person.jpg"), "-loop", "1", "-i", Paths.photo("bus.jpg"),
                         "-filter_complex", "[1:v]crop=120:320:170:75,scale=150:400[a];[2:v]crop=190:560:40:370,scale=136:400[b];"
                             + "[0:v][a]overlay=x='40+120*t':y=60:shortest=1[ab];[ab][b]overlay=x='760-120*t':y=80:shortest=1",
                         "-t", "6", "-c:v", "libx264", "-pix_fmt", "yuv420p", path])
        // Centres of the two cut-outs at time t.
        func walker(_ t: Double) -> Double { 40 + 120 * t + 75 }
        func passer(_ t: Double) -> Double { 760 - 120 * t + 68 }

        let output = try AnalysisPipeline(sport: .tennis, vision: Paths.settings, models: VisionModelPool())
            .run(location: path, reporter: RecordingReporter())
        guard case .array(let tracks)? = output.document.result["poses"] else { return XCTFail("no poses") }
        XCTAssertEqual(tracks.count, 2, "one track per player: \(tracks.map { $0["trackId"] })")
        var followed: [String] = []
        for track in tracks {
            guard case .array(let frames)? = track["frames"] else { return XCTFail("no frames in \(track)") }
            XCTAssertGreaterThanOrEqual(frames.count, 55, "nearly every one of the 60 sampled frames")
            var toWalker: [Double] = [], toPasser: [Double] = []
            for frame in frames {
                guard case .number(let t)? = frame["t"] else { return XCTFail("no time") }
                let box = numbers(frame["box"])
                let centre = (box[0] + box[2]) / 2
                toWalker.append(abs(centre - walker(t)))
                toPasser.append(abs(centre - passer(t)))
            }
            // The hidden walker's track coasts through the crossing, so it may stray a little then.
            if toPasser.max()! <= 20 { followed.append("passer") }
            if toWalker.max()! <= 60 { followed.append("walker") }
        }
        XCTAssertEqual(followed.sorted(), ["passer", "walker"])
    }
}
