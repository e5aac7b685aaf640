import Foundation

/// Decodes a clip to packed RGB24 frames with the ffmpeg CLI, one frame at a time from its pipe:
/// the tests and the benchmark read real decoded (compressed and restored) pictures without the
/// Media module.
public final class RawVideoDecoder {
    public let width: Int
    public let height: Int
    private let process = Process()
    private let output = Pipe()

    public init(input: URL, width: Int, height: Int) throws {
        (self.width, self.height) = (width, height)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-i", input.path,
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }

    /// The next frame, or nil at the end of the clip.
    public func next() -> [UInt8]? {
        let size = width * height * 3
        let data = output.fileHandleForReading.readData(ofLength: size)
        guard data.count == size else { return nil }
        return [UInt8](data)
    }
}
