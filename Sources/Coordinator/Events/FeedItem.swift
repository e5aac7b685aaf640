import Queue
import ReelworkCore

/// What a subscription yields: an event, a notice about the stream itself, or a tick (the feed's
/// clock, so a writer can send heartbeats and notice a client gone without a timer per client).
public enum FeedItem: Sendable, Equatable {
    case event(FeedEvent)
    /// The stream starts from now (`id`: the newest event then, to resume after): the id asked
    /// for is malformed or no longer kept. Always the first item when it comes.
    case reset(EventNotice, id: EventID?)
    /// The stream ends here; the client should reconnect after `notice.lastEventId`. The last item.
    case reconnect(EventNotice)
    case tick
}
