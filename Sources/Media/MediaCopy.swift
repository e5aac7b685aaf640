import CFFmpeg
import Foundation
import ReelworkCore

/// Copies a network location's bytes to a local file in one sequential read, so that the probe,
/// the decode and its seeks read the disk: a video in a bucket (or on the coordinator) then crosses
/// the network once per attempt instead of once per pass.
public enum MediaCopy {
    /// Whether `location` is an http(s) URL (a copy pays off) rather than a local path.
    public static func isNetwork(_ location: String) -> Bool {
        MediaLocation(location).isNetwork
    }

    /// Copies `location` to `path` (created or replaced) with the guards' timeout, credentials
    /// and stop check; returns the bytes copied. More than `maxBytes` is refused as the input's
    /// fault. `onChunk` is called after each chunk (a run's sign of life); what it throws ends the
    /// copy and is thrown as it is. Errors never quote the location: a presigned URL is a credential.
    @discardableResult
    public static func copy(_ location: String, to path: String, maxBytes: Int64, guards: MediaGuards,
                            onChunk: () throws -> Void = {}) throws -> Int64 {
        let place = MediaLocation(location)
        guard FileManager.default.createFile(atPath: path, contents: nil), let handle = FileHandle(forWritingAtPath: path) else {
            throw MediaError(kind: .internal, message: "cannot create \(path) for the local copy of the video")
        }
        defer { try? handle.close() }
        let copied = place.withBytes(guards: guards) { io -> Result<Int64, any Error> in
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            var total: Int64 = 0
            while true {
                // What has arrived, up to a buffer's worth: on a slow link the sign of life comes
                // with every read, not once a MiB.
                let count = buffer.withUnsafeMutableBufferPointer { avio_read_partial(io, $0.baseAddress, Int32($0.count)) }
                if count == FFmpegStatus.endOfFile || count == 0 { return .success(total) }
                if count < 0 { return .failure(MediaError.ffmpeg(count, "reading the video", at: place)) }
                total += Int64(count)
                guard total <= maxBytes else { return .failure(MediaError.invalidInput("the video is larger than the limit of \(maxBytes) bytes")) }
                do {
                    try buffer.withUnsafeBytes { try handle.write(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<Int(count)])) }
                } catch {
                    return .failure(MediaError(kind: .internal, message: "cannot write the local copy of the video to \(path): \(error.localizedDescription)"))
                }
                do { try onChunk() } catch { return .failure(error) }
            }
        }
        switch copied {
        case .failure(let failure): throw MediaError.ffmpeg(failure.code, "opening the video", at: place)
        case .success(.failure(let error)): throw error
        case .success(.success(let total)): return total
        }
    }
}
