import CFFmpeg

/// FFmpeg's negative return codes, and their text.
enum FFmpegStatus {
    static let endOfFile = reelwork_averror_eof()
    static let tryAgain = reelwork_averror_eagain()
    static let invalidData = reelwork_averror_invaliddata()
    static let httpServerError = reelwork_averror_http_server_error()
    static let httpUnauthorized = reelwork_averror_http_unauthorized()
    static let httpForbidden = reelwork_averror_http_forbidden()
    static let noPTS = reelwork_av_nopts_value()

    /// The AVERROR code for a POSIX errno value.
    static func posix(_ errno: Int32) -> Int32 { reelwork_averror_from_errno(errno) }

    /// FFmpeg's own description of `code` (`av_strerror`); for codes it does not know, the
    /// text says "Error number N occurred", which still lets a person look it up.
    static func message(for code: Int32) -> String {
        let capacity = Int(reelwork_error_max_string_size())
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            buffer.initialize(repeating: 0)
            _ = av_strerror(code, buffer.baseAddress, capacity)
            return String(cString: buffer.baseAddress!)
        }
    }
}
