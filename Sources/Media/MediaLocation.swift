import CFFmpeg
import Foundation
import ReelworkCore

/// Where a video is read from: a local path or an http(s) URL that libavformat opens.
struct MediaLocation {
    let string: String
    /// True for http(s) URLs, where I/O failures are worth retrying.
    let isNetwork: Bool

    init(_ string: String) {
        self.string = string
        let lower = string.lowercased()
        isNetwork = lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// Without a read timeout a stalled server would hang a worker forever.
    static let networkReadTimeoutMicroseconds = 30_000_000

    /// The size of a local regular file; nil for URLs, for paths that cannot be stat'ed (the open
    /// call then reports the real problem) and for FIFOs and devices, which have no size of their own.
    var localFileSize: Int64? {
        guard !isNetwork, let attributes = try? FileManager.default.attributesOfItem(atPath: string),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }

    /// Errors that a retry can cure when they happen on a network read.
    private static let transientCodes: Set<Int32> = [
        ECONNREFUSED, ECONNRESET, ECONNABORTED, ETIMEDOUT, EHOSTUNREACH, EHOSTDOWN,
        ENETUNREACH, ENETDOWN, ENETRESET, EPIPE, EIO, EAGAIN,
    ].reduce(into: [FFmpegStatus.httpServerError]) { $0.insert(FFmpegStatus.posix($1)) }

    /// The kind of a failure with FFmpeg code `code` while reading this location.
    /// An allocation FFmpeg refuses is one over `FFmpegLibrary.maxAllocationBytes` that the file
    /// asked for (Linux does not fail ordinary allocations; it kills the process): the file's fault.
    func errorKind(for code: Int32) -> ErrorKind {
        if code == FFmpegStatus.posix(ENOMEM) { return .invalidInput }
        if isNetwork && Self.transientCodes.contains(code) { return .transient }
        return .invalidInput
    }

    /// Options for avformat_open_input / avio_open2. The caller owns the dictionary
    /// and must free it with av_dict_free.
    func openOptions(authorization: String? = nil) -> OpaquePointer? {
        var options: OpaquePointer? = nil
        // Only the protocols a plain file or URL needs: a playlist or reference inside a
        // served file (HLS, concat, mov dref) must not make FFmpeg open local files or
        // other hosts' ports on our behalf. Nested opens inherit this list.
        av_dict_set(&options, "protocol_whitelist", isNetwork ? "http,https,tcp,tls" : "file", 0)
        if isNetwork {
            av_dict_set(&options, "rw_timeout", String(Self.networkReadTimeoutMicroseconds), 0)
            // CR and LF would end the header early and start another: never from a key, but checked.
            if let authorization, !authorization.contains(where: { $0 == "\r" || $0 == "\n" }) {
                av_dict_set(&options, "headers", "Authorization: \(authorization)\r\n", 0)
            }
        }
        return options
    }
}
