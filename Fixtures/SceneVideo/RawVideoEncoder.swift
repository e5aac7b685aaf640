import Foundation

/// Encodes rgb24 frames to H.264 by piping them into the ffmpeg CLI as they are made, so a clip is never
/// held in memory whole.
public final class RawVideoEncoder {
    public let output: URL
    public let width: Int
    public let height: Int
    private let process = Process()
    private let input = Pipe()
    private let errorLog: URL
    private var finished = false

    public init(output: URL, width: Int, height: Int, framesPerSecond: Int) throws {
        self.output = output
        self.width = width
        self.height = height
        // A write to ffmpeg after it died must come back as EPIPE, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        // stderr goes to a file: a pipe nobody reads could fill and stall ffmpeg.
        errorLog = FileManager.default.temporaryDirectory
            .appendingPathComponent("ffmpeg-encode-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: errorLog.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-v", "error", "-y",
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)",
                             "-r", "\(framesPerSecond)", "-i", "-",
                             "-c:v", "libx264", "-preset", "veryfast", "-crf", "16", "-pix_fmt", "yuv420p",
                             output.path]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: errorLog)
        try process.run()
    }

    deinit {
        if !finished {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: errorLog)
    }

    /// Writes one frame (width × height × 3 bytes).
    public func write(_ frame: UnsafeBufferPointer<UInt8>) throws {
        precondition(frame.count == width * height * 3, "frame size does not match \(width)x\(height)")
        let fd = input.fileHandleForWriting.fileDescriptor
        var offset = 0
        while offset < frame.count {
            let written = Foundation.write(fd, frame.baseAddress! + offset, frame.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                try? input.fileHandleForWriting.close()
                process.waitUntilExit()
                finished = true
                throw EncoderFailure(description: "writing to ffmpeg failed (\(reason)): \(errorText())")
            }
            offset += written
        }
    }

    /// Closes ffmpeg's input and waits for it; throws with its stderr when it fails.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw EncoderFailure(description: "ffmpeg exited \(process.terminationStatus) encoding \(output.path): \(errorText())")
        }
    }

    private func errorText() -> String {
        (try? String(contentsOf: errorLog, encoding: .utf8)) ?? "(no stderr)"
    }
}

/// ffmpeg refused the frames or failed to encode them; the text carries ffmpeg's own error output.
public struct EncoderFailure: Error, CustomStringConvertible {
    public let description: String
}
