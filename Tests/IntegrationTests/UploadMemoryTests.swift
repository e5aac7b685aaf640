import Foundation
import ReelworkClient
import ReelworkCore
import TestSupport
import Threading
import XCTest

/// Uploads stream to storage: receiving a 400 MB file must not grow the coordinator by the file's size.
final class UploadMemoryTests: XCTestCase {
    static let uploadBytes = 400_000_000
    static let allowedGrowth = 100 * 1024 * 1024

    func testCoordinatorPeakRSSWhileReceiving400MBStaysWithin100MBOfIdle() throws {
        let stack = try TestStack()
        defer { stack.shutdown() }
        try stack.startCoordinator()
        let pid = try XCTUnwrap(stack.coordinator?.processIdentifier)

        // MPEG-TS segments concatenate into a valid stream, so a big real video costs one short encode.
        let segment = stack.directory.appendingPathComponent("segment.ts")
        try Tool.ffmpeg(["-f", "lavfi", "-i", "testsrc2=size=1280x720:rate=30", "-t", "10", "-c:v", "libx264", "-preset", "ultrafast",
                         "-b:v", "8M", "-pix_fmt", "yuv420p", "-f", "mpegts", segment.path])
        let big = stack.directory.appendingPathComponent("big.ts")
        let chunk = try Data(contentsOf: segment)
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        let out = try FileHandle(forWritingTo: big)
        var written = 0
        while written < Self.uploadBytes { out.write(chunk); written += chunk.count }
        try out.close()

        // Warm up: one small upload, so idle RSS includes the code paths an upload touches.
        let client = try stack.client()
        _ = try awaitSync { try await client.uploadVideo(file: segment) }
        // Idle means settled: two readings a poll (50 ms) apart within 1 MiB of each other.
        var idle = try Self.rss(pid)
        XCTAssertTrue(try stack.waitUntil(timeout: 10) {
            let before = idle
            idle = try Self.rss(pid)
            return abs(idle - before) < 1 << 20
        })

        let sampler = PeakSampler(pid: pid)
        sampler.start()
        let video = try awaitSync { try await client.uploadVideo(file: big) }
        let peak = sampler.stop()
        XCTAssertEqual(video.sizeBytes, Int64(written))
        let growth = peak - idle
        print("coordinator RSS idle \(idle / 1_048_576) MiB, peak while receiving \(written / 1_000_000) MB: \(peak / 1_048_576) MiB (+\(growth / 1_048_576) MiB)")
        XCTAssertLessThanOrEqual(growth, Self.allowedGrowth)
    }

    static func rss(_ pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try XCTUnwrap(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        let kb = try XCTUnwrap(Int(line.split(separator: " ").dropFirst().first ?? ""))
        return kb * 1024
    }

    /// Samples a process's RSS every 20 ms on a `BackgroundLoop` and keeps the peak.
    final class PeakSampler: Sendable {
        private let peak = LockedValue(0)
        private let loop: BackgroundLoop<Int?>

        init(pid: Int32) {
            loop = BackgroundLoop(name: "rss-sampler", interval: 0.02) { try? UploadMemoryTests.rss(pid) }
            loop.onRound = { [peak] value in if let value { peak.withLock { $0 = max($0, value) } } }
        }

        func start() { loop.start() }

        func stop() -> Int {
            loop.stop()
            return peak.withLock { $0 }
        }
    }
}
