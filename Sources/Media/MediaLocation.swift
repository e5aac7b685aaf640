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

    /// The location for messages and logs: a URL without its query, which may hold a credential
    /// (a presigned URL's signature, a worker's grant).
    var shown: String {
        guard isNetwork, let query = string.firstIndex(of: "?") else { return string }
        return String(string[..<query])
    }

    /// Without a read timeout a stalled server would hang a worker forever.
    static let networkReadTimeoutMicroseconds = 30_000_000

    /// FFmpeg's `reconnect_delay_max`: after a connection breaks mid-body it waits 0 s, then 1, 3,
    /// 7… before each try, and gives up once the next wait would exceed this. 0 is one try, at
    /// once. A store that accepts and then says nothing costs two read timeouts per try (the new
    /// connection's and the old one's): 0 keeps its failure at three read timeouts (90 s), inside
    /// the stage watchdog's default 120 s; 1 would be five, 3 seven. A store that is down fails the
    /// try at once. Longer outages are the job retry's (transient, with backoff).
    static let networkReconnectDelayMaxSeconds = 0

    /// The size of a local regular file; nil for URLs, for paths that cannot be stat'ed (the open
    /// call then reports the real problem) and for FIFOs and devices, which have no size of their own.
    var localFileSize: Int64? {
        guard !isNetwork, let attributes = try? FileManager.default.attributesOfItem(atPath: string),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = attributes[.size] as? NSNumber else { return nil }
        return size.int64Value
    }

    /// The network failing a read (no answer, a broken connection): a retry can cure it.
    private static let transientCodes: Set<Int32> = [
        ECONNREFUSED, ECONNRESET, ECONNABORTED, ETIMEDOUT, EHOSTUNREACH, EHOSTDOWN,
        ENETUNREACH, ENETDOWN, ENETRESET, EPIPE, EIO, EAGAIN,
    ].reduce(into: []) { $0.insert(FFmpegStatus.posix($1)) }

    /// The kind of a failure with FFmpeg code `code` while reading this location.
    /// An allocation FFmpeg refuses is one over `FFmpegLibrary.maxAllocationBytes` that the file
    /// asked for (Linux does not fail ordinary allocations; it kills the process): the file's fault.
    /// A server that refuses our credentials is not the file's fault either.
    func errorKind(for code: Int32) -> ErrorKind {
        if code == FFmpegStatus.posix(ENOMEM) { return .invalidInput }
        if serverFailure(for: code) != nil { return .transient }
        return .invalidInput
    }

    /// How the server failed, when `code` blames it (or the network) rather than the file.
    /// 404 and other 4xx are the file's: the server answered, and the file is not there for us.
    func serverFailure(for code: Int32) -> MediaError.ServerFailure? {
        guard isNetwork else { return nil }
        switch code {
        case FFmpegStatus.httpUnauthorized: return .unauthorized
        case FFmpegStatus.httpForbidden: return .forbidden
        case FFmpegStatus.httpServerError: return .serverError
        case _ where Self.transientCodes.contains(code): return .unreachable
        // Opening: the connection taken and closed with no answer (a server killed mid-request,
        // a proxy in front of one that is down). The object was checked when it was stored, so
        // its bytes are not what ended; reads mid-body that end early come as EIO.
        case FFmpegStatus.endOfFile: return .unreachable
        default: return nil
        }
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
            // A connection cut before the body's end is opened again at the byte where it broke (a
            // Range request; the stores and the coordinator serve ranges), instead of failing a
            // copy of gigabytes that has most of its bytes. Each break gets its own reconnect.
            // Not `reconnect_on_network_error`: it retries refused connects too, and nested inside
            // a reconnect it multiplies the time a stalled store takes to fail.
            av_dict_set(&options, "reconnect", "1", 0)
            av_dict_set(&options, "reconnect_delay_max", String(Self.networkReconnectDelayMaxSeconds), 0)
            // CR and LF would end the header early and start another: never from a key, but checked.
            if let authorization, !authorization.contains(where: { $0 == "\r" || $0 == "\n" }) {
                av_dict_set(&options, "headers", "Authorization: \(authorization)\r\n", 0)
            }
        }
        return options
    }
}

extension MediaLocation {
    /// Opens the location's bytes (no demuxing) with what a demuxer would get (the protocol
    /// whitelist, the read timeout, the reconnect, the credentials, the stop check), gives them to `body`, and
    /// closes them. Fails with FFmpeg's code when opening fails.
    func withBytes<T>(guards: MediaGuards, _ body: (UnsafeMutablePointer<AVIOContext>) -> T) -> Result<T, MediaOpenFailure> {
        FFmpegLibrary.prepare()
        var options = openOptions(authorization: guards.httpAuthorization)
        defer { av_dict_free(&options) }
        var opened: UnsafeMutablePointer<AVIOContext>? = nil
        // The context keeps calling the callback on every read: the handle lives until we return.
        let interrupt = InterruptHandle(guards)
        defer { withExtendedLifetime(interrupt) {} }
        let status: Int32
        if var callback = interrupt?.callback {
            status = avio_open2(&opened, string, AVIO_FLAG_READ, &callback, &options)
        } else {
            status = avio_open2(&opened, string, AVIO_FLAG_READ, nil, &options)
        }
        guard status >= 0, let io = opened else { return .failure(MediaOpenFailure(code: status)) }
        defer { avio_closep(&opened) }
        return .success(body(io))
    }
}

/// FFmpeg's code for a location that could not be opened.
struct MediaOpenFailure: Error {
    let code: Int32
}
