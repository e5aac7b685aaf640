import Foundation
import ReelworkCore

/// The live events of every job, on one capped Redis stream (`P:events`). Writers append with
/// `MAXLEN ~ cap` (Redis trims whole nodes, so the stream holds at least `cap` entries and a
/// little more); readers resume after any id still in it.
///
/// Each entry has one field, `e`, the event's JSON as the API sends it, so a reader passes the
/// bytes on without encoding them again.
public struct EventStream: Sendable {
    public let key: String
    public let cap: Int

    public init(prefix: String = "reelwork", cap: Int = EventSettings.defaultStreamCap) {
        self.key = "\(prefix):events"
        self.cap = cap
    }

    public init(config: ReelworkConfig) {
        self.init(prefix: config.queuePrefix, cap: config.events.streamCap)
    }

    /// One stored event: its id and its JSON.
    public struct Entry: Sendable, Equatable {
        public let id: EventID
        public let data: String

        public init(id: EventID, data: String) {
            self.id = id
            self.data = data
        }
    }

    /// What the stream holds, to judge whether a client's `Last-Event-ID` can still be resumed.
    public struct Bounds: Sendable, Equatable {
        /// The newest id ever added (nil: nothing ever was, or the stream is gone).
        public var lastGenerated: EventID?
        /// The newest id deleted with XDEL (Redis 7 counts only those, not what MAXLEN trims).
        public var maxDeleted: EventID?
        public var first: EventID?
        public var length: Int
        /// Entries ever added (Redis 7); more than `length` means some were trimmed or deleted.
        public var entriesAdded: Int?

        public init(lastGenerated: EventID? = nil, maxDeleted: EventID? = nil, first: EventID? = nil, length: Int = 0,
                    entriesAdded: Int? = nil) {
            self.lastGenerated = lastGenerated
            self.maxDeleted = maxDeleted
            self.first = first
            self.length = length
            self.entriesAdded = entriesAdded
        }

        /// Whether every event after `id` is still in the stream: `id` is not newer than the newest
        /// (a Redis flushed since would otherwise hide every new event behind an old id), nothing
        /// after it was deleted, and, once the cap trimmed the stream, `id` is not older than its
        /// first entry. (Redis does not say which ids it trimmed: an id just before the first entry
        /// may have lost nothing, and is still refused; its client starts from now.)
        public func canResume(after id: EventID) -> Bool {
            if id > (lastGenerated ?? .zero) { return false }
            if let maxDeleted, maxDeleted > id { return false }
            let trimmed = entriesAdded.map { $0 > length } ?? (first != nil && id == .zero)
            if trimmed, id < (first ?? lastGenerated ?? .zero) { return false }
            return true
        }
    }

    /// Appends `events` (one script call, so a batch of jobs is one round trip); returns their ids.
    @discardableResult
    public func append(_ events: [JobEvent], on redis: RedisConnection) throws -> [EventID] {
        guard !events.isEmpty else { return [] }
        var ids: [EventID] = []
        for start in stride(from: 0, to: events.count, by: Self.appendSlice) {
            let slice = events[start..<min(start + Self.appendSlice, events.count)]
            let payloads = try slice.map { String(decoding: try ReelworkJSON.encoder.encode($0), as: UTF8.self) }
            let reply = try Self.appendScript.run(on: redis, args: [key, String(cap)] + payloads)
            guard let list = reply.array, list.count == payloads.count else {
                throw RedisError(.protocolViolation, "appending \(payloads.count) events returned \(reply)")
            }
            ids += try list.map { item in
                guard let text = item.string, let id = EventID(text) else {
                    throw RedisError(.protocolViolation, "XADD returned '\(item)', not a stream id")
                }
                return id
            }
        }
        return ids
    }

    /// Events per script call: a call blocks Redis while it runs.
    static let appendSlice = 500

    static let appendScript = RedisScript(name: "events.append", source: """
        #!lua
        -- ARGV: key, cap, json… Appends each event, trimming the stream to about cap entries.
        -- No allow-oom: a Redis out of memory refuses events whole (the publisher counts them lost).
        local ids = {}
        for i = 3, #ARGV do
          ids[#ids + 1] = redis.call('XADD', ARGV[1], 'MAXLEN', '~', ARGV[2], '*', 'e', ARGV[i])
        end
        return ids
        """)

    /// Up to `count` events after `id`, oldest first, waiting up to `block` seconds for one when
    /// there is none yet (nil: do not wait).
    public func read(after id: EventID, count: Int, block: TimeInterval? = nil, on redis: RedisConnection) throws -> [Entry] {
        var arguments = ["XREAD", "COUNT", String(max(1, count))]
        if let block { arguments += ["BLOCK", String(max(1, Int((block * 1000).rounded())))] }
        arguments += ["STREAMS", key, id.description]
        let reply = try redis.command(arguments)
        // [[key, [[id, [field, value]], …]]], or nil when nothing came.
        guard case .array(let streams) = reply, let first = streams.first?.array, first.count == 2 else { return [] }
        return try Self.entries(first[1])
    }

    /// Up to `count` events after `id` (exclusive), oldest first; never waits.
    public func range(after id: EventID, count: Int, on redis: RedisConnection) throws -> [Entry] {
        try Self.entries(try redis.command("XRANGE", key, "(\(id)", "+", "COUNT", String(max(1, count))))
    }

    /// The stream's first, newest and newest-trimmed ids (an absent stream has none).
    public func bounds(on redis: RedisConnection) throws -> Bounds {
        let reply: RedisReply
        do {
            reply = try redis.command("XINFO", "STREAM", key)
        } catch let error as RedisError where error.source == .server && error.message.contains("no such key") {
            return Bounds()
        }
        let flat = reply.array ?? []
        var bounds = Bounds()
        for index in stride(from: 0, to: flat.count - 1, by: 2) {
            let value = flat[index + 1]
            switch flat[index].string {
            case "length": bounds.length = value.integer ?? 0
            case "last-generated-id": bounds.lastGenerated = value.string.flatMap(EventID.init)
            case "max-deleted-entry-id": bounds.maxDeleted = value.string.flatMap(EventID.init)
            case "first-entry": bounds.first = value.array?.first?.string.flatMap(EventID.init)
            case "entries-added": bounds.entriesAdded = value.integer
            default: continue
            }
        }
        return bounds
    }

    /// Decodes `[[id, [field, value, …]], …]`; an entry without the `e` field is skipped (it was not ours).
    static func entries(_ reply: RedisReply) throws -> [Entry] {
        try (reply.array ?? []).compactMap { item in
            guard let pair = item.array, pair.count == 2, let text = pair[0].string, let id = EventID(text) else {
                throw RedisError(.protocolViolation, "a stream entry that is not [id, fields]: \(item)")
            }
            let fields = pair[1].array ?? []
            var index = 0
            while index + 1 < fields.count {
                if fields[index].string == "e", let data = fields[index + 1].string { return Entry(id: id, data: data) }
                index += 2
            }
            return nil
        }
    }
}
