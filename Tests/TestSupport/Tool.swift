import Foundation
import XCTest

/// Runs the ffmpeg and ffprobe CLIs, which make the test videos and give the reference answers.
public enum Tool {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Runs `command` (looked up on PATH) and returns its standard output; throws when it exits non-zero.
    @discardableResult
    public static func run(_ command: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and block the child.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(command) \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(errorText)")
        }
        return data
    }

    public static func ffmpeg(_ arguments: [String]) throws {
        try run("ffmpeg", ["-hide_banner", "-nostdin", "-v", "error", "-y"] + arguments)
    }

    /// ffprobe's JSON answer (`-of json` is added).
    public static func ffprobe(_ arguments: [String]) throws -> [String: Any] {
        let data = try run("ffprobe", ["-v", "error", "-of", "json"] + arguments)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// What ffprobe says about the first video stream and the container.
    public struct Reference {
        public var width: Int
        public var height: Int
        public var codec: String
        public var nbFrames: Int?
        public var avgFrameRate: Double
        public var duration: Double
        /// av_display_rotation_get of the display matrix (counterclockwise), when present.
        public var sideDataRotation: Int?
        /// Frames ffprobe decoded (`-count_frames`).
        public var decodedFrames: Int
    }

    public static func reference(_ path: String) throws -> Reference {
        let json = try ffprobe(["-select_streams", "v:0", "-count_frames",
                                "-show_entries", "stream=nb_frames,nb_read_frames,width,height,codec_name,avg_frame_rate:stream_side_data=rotation",
                                "-show_entries", "format=duration", path])
        let stream = try XCTUnwrap((json["streams"] as? [[String: Any]])?.first)
        let format = try XCTUnwrap(json["format"] as? [String: Any])
        let rate = try XCTUnwrap(stream["avg_frame_rate"] as? String).split(separator: "/").compactMap { Double($0) }
        let sideData = (stream["side_data_list"] as? [[String: Any]])?.first
        return Reference(
            width: try XCTUnwrap(stream["width"] as? Int),
            height: try XCTUnwrap(stream["height"] as? Int),
            codec: try XCTUnwrap(stream["codec_name"] as? String),
            nbFrames: (stream["nb_frames"] as? String).flatMap { Int($0) },
            avgFrameRate: rate.count == 2 ? rate[0] / rate[1] : 0,
            duration: try XCTUnwrap((format["duration"] as? String).flatMap { Double($0) }),
            sideDataRotation: sideData?["rotation"] as? Int,
            decodedFrames: try XCTUnwrap((stream["nb_read_frames"] as? String).flatMap { Int($0) }))
    }
}
