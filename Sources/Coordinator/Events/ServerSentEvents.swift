import Foundation
import Hummingbird
import NIOCore
import Queue
import ReelworkCore
import ServiceLifecycle

/// Writes a subscription as `text/event-stream`: each event as `id:`, `event:` (its type) and
/// `data:` (its JSON, one line), the stream's own notices as `event: reset` / `event: reconnect`,
/// and a `: heartbeat` comment when nothing was written for `heartbeatSeconds`. The response
/// ends when the feed ends the subscription, after `maxSeconds` (0: never), or when a write
/// fails because the client went away (noticed at the next heartbeat at the latest).
public enum ServerSentEvents {
    /// - Parameter onEnd: called once when the response has ended, however it ended.
    public static func response(_ subscription: EventSubscription, settings: EventSettings,
                                onEnd: @escaping @Sendable () -> Void = {}) -> Response {
        let heartbeat = Duration.seconds(settings.heartbeatSeconds)
        let limit: Duration? = settings.maxStreamSeconds > 0 ? .seconds(settings.maxStreamSeconds) : nil
        // No buffering by proxies (nginx honours X-Accel-Buffering), no caching.
        return Response(status: .ok, headers: [.contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-cache",
                                               .init("X-Accel-Buffering")!: "no"], body: ResponseBody { writer in
            defer { onEnd() }
            let started = ContinuousClock.now
            var lastWrite = started
            var lastId: EventID?
            // Sent at once, so the client knows it is connected; and how long to wait before reconnecting.
            try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
            for try await item in subscription {
                let text: String
                var ending = false
                switch item {
                case .event(let event):
                    lastId = event.id
                    text = "id: \(event.id)\nevent: \(event.type)\ndata: \(event.data)\n\n"
                case .reset(let notice, let id):
                    lastId = id ?? lastId
                    text = (id.map { "id: \($0)\n" } ?? "") + "event: \(EventNotice.reset)\ndata: \(json(notice))\n\n"
                case .reconnect(let notice):
                    text = "event: \(EventNotice.reconnect)\ndata: \(json(notice))\n\n"
                    ending = true
                case .tick:
                    let now = ContinuousClock.now
                    if Task.isShuttingDownGracefully {
                        // The server stops taking requests and waits for open ones: this one ends now.
                        let notice = EventNotice(message: "the server is shutting down; reconnect with Last-Event-ID to resume",
                                                 lastEventId: lastId?.description)
                        text = "event: \(EventNotice.reconnect)\ndata: \(json(notice))\n\n"
                        ending = true
                    } else if let limit, now - started >= limit {
                        let notice = EventNotice(message: "this stream's time is up (\(EventSettings.Env.maxStreamSeconds)); reconnect with Last-Event-ID to resume",
                                                 lastEventId: lastId?.description)
                        text = "event: \(EventNotice.reconnect)\ndata: \(json(notice))\n\n"
                        ending = true
                    } else if now - lastWrite >= heartbeat {
                        text = ": heartbeat\n\n"
                    } else {
                        continue
                    }
                }
                try await writer.write(ByteBuffer(string: text))
                lastWrite = .now
                if ending { break }
            }
            try await writer.finish(nil)
        })
    }

    static func json(_ notice: EventNotice) -> String {
        (try? ReelworkJSON.encoder.encode(notice)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
