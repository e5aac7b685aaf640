import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelworkCore

extension CoordinatorClient {
    /// `GET /v1/events` as it arrives: every item of the stream (events and comments), until the
    /// server ends it or the connection drops (the stream then finishes, or throws what went wrong).
    /// A non-2xx answer throws the API's error. Resume with `lastEventId` after a drop.
    public func events(job: UUID? = nil, batch: UUID? = nil, lastEventId: String? = nil) -> AsyncThrowingStream<ServerSentEvent, any Error> {
        var query: [String: String] = [:]
        query["job"] = job?.uuidString.lowercased()
        query["batch"] = batch?.uuidString.lowercased()
        var request = request("GET", url("/v1/events", query: query))
        request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
        if let lastEventId { request.setValue(lastEventId, forHTTPHeaderField: "Last-Event-ID") }
        // Heartbeats come every 15 s by default: a minute of silence is a dead connection.
        request.timeoutInterval = 60
        let target = baseURL.absoluteString
        return AsyncThrowingStream { continuation in
            let delegate = EventStreamDelegate(continuation: continuation, target: target)
            let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }
}

/// Parses a streamed response as it arrives and passes its items on; a non-2xx answer is
/// collected (bounded) and thrown as the API's error.
private final class EventStreamDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Safe: URLSession calls a delegate's methods one at a time on its serial delegate queue; only they touch the vars.
    let continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation
    let target: String
    var parser = ServerSentEventParser()
    var status = 0
    var errorBody = Data()

    init(continuation: AsyncThrowingStream<ServerSentEvent, any Error>.Continuation, target: String) {
        self.continuation = continuation
        self.target = target
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        status = (response as? HTTPURLResponse)?.statusCode ?? 0
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard (200..<300).contains(status) else {
            if errorBody.count < 64 * 1024 { errorBody.append(data.prefix(64 * 1024 - errorBody.count)) }
            return
        }
        do {
            for item in try parser.feed(data) { continuation.yield(item) }
        } catch {
            continuation.finish(throwing: ClientError.badResponse("\(error)"))
            dataTask.cancel()
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        defer { session.finishTasksAndInvalidate() }
        if let error {
            return continuation.finish(throwing: ClientError.unreachable("events from \(target): \(error.localizedDescription)"))
        }
        guard (200..<300).contains(status) else {
            if let body = try? ReelworkJSON.decoder.decode(APIErrorBody.self, from: errorBody) {
                return continuation.finish(throwing: ClientError.api(status: status, code: body.error.code, message: body.error.message))
            }
            return continuation.finish(throwing: ClientError.badResponse("HTTP \(status) from \(target)/v1/events"))
        }
        continuation.finish()
    }
}
