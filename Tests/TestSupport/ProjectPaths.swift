import Foundation
import ReelworkCore
import XCTest

/// Where the package's models and test photos are, as absolute paths, so tests do not depend on
/// the working directory.
public enum ProjectPaths {
    /// The package root (this file is Tests/TestSupport/ProjectPaths.swift).
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    public static func inRoot(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    public static func photo(_ name: String) -> String { inRoot("models/test-photos/\(name)") }

    /// The default vision settings with absolute paths; the ONNX Runtime library may come from the environment.
    public static var visionSettings: VisionSettings {
        var s = VisionSettings()
        s.ortLibrary = ProcessInfo.processInfo.environment[VisionSettings.Env.ortLibrary].flatMap { $0.isEmpty ? nil : $0 }
            ?? inRoot(s.ortLibrary)
        s.detectorModel = inRoot(s.detectorModel)
        s.poseModel = inRoot(s.poseModel)
        return s
    }

    /// A missing model or photo is a test failure that says how to get it, never a skip.
    public static func requireModels(photos: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let s = visionSettings
        for path in [s.ortLibrary, s.detectorModel, s.poseModel] + photos.map(photo) where !FileManager.default.fileExists(atPath: path) {
            XCTFail("\(path) is missing: run scripts/setup-models.sh and scripts/setup-test-photos.sh", file: file, line: line)
            throw MissingTestFile(path: path)
        }
    }
}

/// A model or photo the tests need is not there (see `ProjectPaths.requireModels`).
public struct MissingTestFile: Error {
    public let path: String

    public init(path: String) {
        self.path = path
    }
}
