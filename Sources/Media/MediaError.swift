import CFFmpeg
import Foundation
import ReelworkCore

/// Why a video could not be probed or decoded, in words meant for the person who sent it.
///
/// `kind` is `.invalidInput` for anything about the file itself (it will fail the same way
/// on every retry) and `.transient` for I/O or network failures while reading an http(s)
/// location, a refused key or a server error included (a retry can succeed; `server` says which). FFmpeg's own error text (`av_strerror`) is part of
/// `message` whenever an FFmpeg call failed.
public struct MediaError: Error, ClassifiedError, CustomStringConvertible {
    public let kind: ErrorKind
    public let message: String
    /// Set when an http(s) read failed because of the server or the way to it, not the file:
    /// the caller may blame (and wait for) the server instead of the video.
    public let server: ServerFailure?

    /// How the server of an http(s) location failed a read.
    public enum ServerFailure: String, Sendable, Equatable {
        /// No connection, or it broke: refused, reset, timed out, no route, no such host.
        case unreachable
        /// 401: the credentials sent (`MediaGuards.httpAuthorization`) were refused.
        case unauthorized
        /// 403: known credentials, not allowed to read this.
        case forbidden
        /// Any 5xx.
        case serverError
    }

    public init(kind: ErrorKind, message: String, server: ServerFailure? = nil) {
        self.kind = kind
        self.message = message
        self.server = server
    }

    public var description: String { message }

    static func invalidInput(_ message: String) -> MediaError {
        MediaError(kind: .invalidInput, message: message)
    }

    /// An FFmpeg call on `location` returned `code`: `context` says what we were doing,
    /// FFmpeg's text says what went wrong, and the location decides the kind.
    static func ffmpeg(_ code: Int32, _ context: String, at location: MediaLocation) -> MediaError {
        if code == FFmpegStatus.posix(ENOMEM) {
            return MediaError(kind: location.errorKind(for: code), message:
                "\(context): the file asks for more memory than any video within the limits needs (over \(FFmpegLibrary.maxAllocationBytes >> 20) MiB at once); it is damaged or not a video")
        }
        return MediaError(kind: location.errorKind(for: code), message: "\(context): \(FFmpegStatus.message(for: code))",
                          server: location.serverFailure(for: code))
    }

    /// An allocation inside FFmpeg failed: not the file's fault, and may succeed later.
    static func outOfMemory(_ what: String) -> MediaError {
        MediaError(kind: .internal, message: "out of memory while allocating \(what)")
    }
}
