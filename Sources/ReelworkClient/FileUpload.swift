import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkCore

/// One upload with progress callbacks, through URLSession's upload task: a whole file streamed
/// from disk (read in chunks as the socket takes them), or one part's bytes.
enum FileUpload {
    enum Body {
        case file(URL)
        case data(Data)
    }

    /// `target` names the destination in errors (default: the request's URL; a presigned URL is
    /// a credential and is not shown).
    static func send(_ request: URLRequest, body: Body, target: String? = nil,
                     progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> (Data, Int) {
        if case .file(let file) = body, !FileManager.default.isReadableFile(atPath: file.path) {
            throw ReelworkError.invalidInput("cannot read \(file.path)")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let delegate = Delegate(progress: progress, continuation: continuation, target: target ?? request.url?.absoluteString ?? "")
            let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
            switch body {
            case .file(let file): session.uploadTask(with: request, fromFile: file).resume()
            case .data(let data): session.uploadTask(with: request, from: data).resume()
            }
            session.finishTasksAndInvalidate()
        }
    }

    private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // Safe: URLSession calls a delegate's methods one at a time on its serial delegate queue; only they touch `body`.
        let progress: @Sendable (Int64, Int64) -> Void
        let continuation: CheckedContinuation<(Data, Int), any Error>
        let target: String
        var body = Data()

        init(progress: @escaping @Sendable (Int64, Int64) -> Void, continuation: CheckedContinuation<(Data, Int), any Error>, target: String) {
            self.progress = progress
            self.continuation = continuation
            self.target = target
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                        totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
            progress(totalBytesSent, totalBytesExpectedToSend)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            body.append(data)
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if let error {
                continuation.resume(throwing: ClientError.unreachable("upload to \(target) failed: \(error.localizedDescription)"))
            } else {
                continuation.resume(returning: (body, (task.response as? HTTPURLResponse)?.statusCode ?? 0))
            }
        }
    }
}
