import FuzzSupport
import Foundation
import ReelworkCore
import TestSupport
import XCTest

/// Damaged real files, the way the world sends them, through the running coordinator's upload and
/// through `reelwork analyze`: every one ends in bounded time with a 2xx or a 4xx naming the
/// problem (a non-zero exit with a message for `analyze`), and the coordinator is alive after
/// each. `loadtest/media-fuzz.sh` runs many more of them in one process.
final class UploadFuzzTests: CoordinatorTestCase {
    /// Real files in the containers clubs upload, small so thousands of uploads fit the suite.
    func sources() throws -> [(name: String, data: Data)] {
        let clip = ["-f", "lavfi", "-i", "testsrc2=size=160x120:rate=10", "-t", "1"]
        let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
        let made: [(String, [String])] = [
            ("index-at-end.mp4", clip + h264),
            ("faststart.mp4", clip + h264 + ["-movflags", "+faststart"]),
            ("fragmented.mp4", clip + h264 + ["-movflags", "frag_keyframe+empty_moov"]),
            ("clip.mkv", clip + h264),
            ("clip.ts", clip + h264 + ["-f", "mpegts"]),
        ]
        return try made.map { name, arguments in
            let url = stack.directory.appendingPathComponent(name)
            try Tool.ffmpeg(arguments + [url.path])
            return (name, try Data(contentsOf: url))
        }
    }

    func testThousandsOfDamagedUploadsGetAnAnswerAndTheCoordinatorStaysUp() throws {
        let url = URL(string: "\(stack.coordinatorURL)/v1/videos")!
        var statuses: [Int: Int] = [:]
        var slowest = (seconds: 0.0, label: "")
        var count = 0
        for (index, source) in try sources().enumerated() {
            for damaged in DamagedFiles.cases(of: source.data, name: source.name, count: 300, seed: UInt64(10 + index)) {
                let started = Date()
                let (data, status, _) = try HTTP.request("POST", url, key: stack.operatorKey, body: damaged.data, headers: ["Content-Type": "application/octet-stream"])
                let seconds = Date().timeIntervalSince(started)
                if seconds > slowest.seconds { slowest = (seconds, damaged.label) }
                statuses[status, default: 0] += 1
                count += 1
                switch status {
                case 200, 201:
                    break
                case 400..<500:
                    let error = HTTP.apiError(data)
                    XCTAssertFalse(error?.message.isEmpty ?? true, "\(damaged.label): a 4xx names the problem")
                default:
                    XCTFail("\(damaged.label): answered \(status): \(String(decoding: data, as: UTF8.self))\n\(stack.logTail())")
                }
                XCTAssertTrue(stack.coordinator?.isRunning ?? false, "\(damaged.label) stopped the coordinator")
            }
        }
        let (_, health, _) = try HTTP.get(URL(string: "\(stack.coordinatorURL)/healthz")!)
        XCTAssertEqual(health, 200)
        XCTAssertTrue(stack.waitUntil(timeout: 10) {
            ((try? FileManager.default.contentsOfDirectory(atPath: self.stack.storageDir.appendingPathComponent("tmp").path)) ?? []).isEmpty
        }, "no temporary upload is left")
        XCTAssertEqual(try stack.run(["storage", "check"]).status, 0, "every stored file has its row")
        print("upload fuzz: \(count) damaged uploads: \(statuses.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }.joined(separator: ", ")); slowest \(String(format: "%.2f", slowest.seconds)) s (\(slowest.label))")
        XCTAssertGreaterThanOrEqual(count, 1500)
        XCTAssertLessThan(slowest.seconds, 10, slowest.label)
        XCTAssertGreaterThan(statuses[422] ?? 0, 300, "most damage is caught")
    }

    /// `analyze` runs the job's stages in one process: a damaged file ends it with status 1 and
    /// the reason, never a signal. (Bowling's stages, which load no model, keep each run short.)
    func testDamagedFilesThroughAnalyzeEndWithAMessageNotACrash() throws {
        let options = stack.directory.appendingPathComponent("ball.json")
        try Data(#"{"ballProfile": {"color": {"h": 220, "s": 80, "v": 70}}}"#.utf8).write(to: options)
        let file = stack.directory.appendingPathComponent("case.mp4")
        var exits: [Int32: Int] = [:]
        for (index, source) in try sources().prefix(3).enumerated() {
            for damaged in DamagedFiles.cases(of: source.data, name: source.name, count: 0, seed: UInt64(20 + index)).enumerated()
                .filter({ $0.offset % 24 == 0 }).map(\.element) {
                try damaged.data.write(to: file)
                let started = Date()
                let result = try stack.run(["analyze", file.path, "--sport", "bowling", "--options", options.path, "--compact"])
                XCTAssertLessThan(Date().timeIntervalSince(started), 30, damaged.label)
                exits[result.status, default: 0] += 1
                switch result.status {
                case 0: XCTAssertTrue(result.stdout.hasPrefix("{"), damaged.label)
                case 1: XCTAssertTrue(result.output.contains("error: "), "\(damaged.label): \(result.output)")
                default: XCTFail("\(damaged.label): analyze exited \(result.status) (a signal?): \(result.output.suffix(500))")
                }
            }
        }
        print("analyze fuzz: \(exits.values.reduce(0, +)) damaged files: \(exits.sorted { $0.key < $1.key }.map { "\($0.value) × exit \($0.key)" }.joined(separator: ", "))")
        XCTAssertGreaterThanOrEqual(exits.values.reduce(0, +), 25)
    }
}
