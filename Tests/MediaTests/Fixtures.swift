import FuzzSupport
import Foundation
import Media
import ReelworkCore
import TestSupport
import XCTest

/// A temporary directory of generated test files, made on first use and removed by `remove()`.
final class FixtureDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reelwork-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: url) }

    /// The path of `name`, first made by running ffmpeg with `arguments` + the path, once.
    func video(_ name: String, _ arguments: [String]) throws -> String {
        let path = path(name)
        if !FileManager.default.fileExists(atPath: path) { try Tool.ffmpeg(arguments + [path]) }
        return path
    }

    /// A copy of `source` keeping only its first `fraction` of bytes.
    func truncated(_ source: String, to name: String, fraction: Double = 0.5) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        let path = path(name)
        try data.prefix(Int(Double(data.count) * fraction)).write(to: URL(fileURLWithPath: path))
        return path
    }

    func write(_ data: Data, to name: String) throws -> String {
        let path = path(name)
        try data.write(to: URL(fileURLWithPath: path))
        return path
    }
}

/// A test case whose tests share one fixture directory, made before its first test and removed
/// after its last (each subclass gets its own).
class FixtureTestCase: XCTestCase {
    nonisolated(unsafe) private static var directories: [ObjectIdentifier: FixtureDirectory] = [:]

    var fixtures: FixtureDirectory { Self.directories[ObjectIdentifier(Self.self)]! }

    override class func setUp() {
        super.setUp()
        directories[ObjectIdentifier(self)] = try! FixtureDirectory()
    }

    override class func tearDown() {
        directories.removeValue(forKey: ObjectIdentifier(self))?.remove()
        super.tearDown()
    }
}

/// The lavfi inputs the tests use: synthetic, so every run makes identical files.
enum Source {
    /// Moving colour bars with text: real texture, normal brightness.
    static func testPattern(seconds: Double = 2, rate: String = "25", size: String = "320x240") -> [String] {
        ["-f", "lavfi", "-i", "testsrc2=size=\(size):rate=\(rate)", "-t", String(seconds)]
    }

    static func color(_ name: String, seconds: Double = 2) -> [String] {
        ["-f", "lavfi", "-i", "color=\(name):size=320x240:rate=25", "-t", String(seconds)]
    }

    static let h264 = ["-c:v", "libx264", "-pix_fmt", "yuv420p"]
}

/// Deterministic pseudo-random bytes (SplitMix64), so the "random bytes" input is the same every run.
func pseudoRandomBytes(count: Int, seed: UInt64 = 0x5EED) -> Data {
    var generator = SeededGenerator(seed: seed)
    var bytes = Data(capacity: count)
    while bytes.count < count {
        withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0.prefix(count - bytes.count)) }
    }
    return bytes
}

/// Asserts that `body` throws a MediaError of `kind` whose message contains every one of
/// `fragments`; returns the error for further checks.
@discardableResult
func assertMediaError<T>(_ kind: ErrorKind, containing fragments: [String],
                         file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) -> MediaError? {
    do {
        let value = try body()
        XCTFail("expected a MediaError, got \(value)", file: file, line: line)
    } catch let error as MediaError {
        XCTAssertEqual(error.kind, kind, "kind of: \(error.message)", file: file, line: line)
        for fragment in fragments {
            XCTAssertTrue(error.message.contains(fragment), "'\(error.message)' should contain '\(fragment)'", file: file, line: line)
        }
        XCTAssertEqual(error.description, error.message, file: file, line: line)
        return error
    } catch {
        XCTFail("expected a MediaError, got \(type(of: error)): \(error)", file: file, line: line)
    }
    return nil
}
