import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One streamed file upload with progress callbacks, through URLSession's upload-from-file task
/// (the file is read in chunks as the socket takes them).
enum FileUpload {
    static func send(_ request: URLRequest, file: URL, progress: @escaping @Sendable (Int64, Int64) -> Void) async throws -> (Data, Int) {
        guard FileManager.default.isReadableFile(atPath: file.path) else {
            throw ClientError.unreachable("cannot read \(file.path)")
        }
        return try await withCheckedThrowingContinuation { continuation in
            let delegate = Delegate(progress: progress, continuation: continuation, target: request.url?.absoluteString ?? "")
            let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
            session.uploadTask(with: request, fromFile: file).resume()
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
