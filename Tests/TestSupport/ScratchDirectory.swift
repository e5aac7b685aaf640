import Foundation

/// A scratch directory for one test class, removed at the end.
public final class ScratchDirectory {
    public let url: URL

    public init(prefix: String = "reelwork-test") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
