/// One item of a `text/event-stream`: an event (`id:`, `event:`, `data:` lines ended by a blank
/// line) or a comment line (`: heartbeat`).
public enum ServerSentEvent: Sendable, Equatable {
    case event(id: String?, type: String, data: String)
    case comment(String)
}

/// Splits a `text/event-stream` into items as bytes arrive, in any chunks (a line may span two).
/// Lines are bounded: a line longer than `maxLineBytes` is an error, not unbounded memory.
public struct ServerSentEventParser: Sendable {
    public static let maxLineBytes = 1 << 20
    private var partial: [UInt8] = []
    private var id: String?
    private var type: String?
    private var data: [String] = []

    public init() {}

    public struct LineTooLong: Error, CustomStringConvertible {
        public var description: String { "an event-stream line is longer than \(ServerSentEventParser.maxLineBytes) bytes" }
    }

    /// The items `bytes` completes.
    public mutating func feed(_ bytes: some Sequence<UInt8>) throws -> [ServerSentEvent] {
        var items: [ServerSentEvent] = []
        for byte in bytes {
            guard byte == UInt8(ascii: "\n") else {
                partial.append(byte)
                if partial.count > Self.maxLineBytes { throw LineTooLong() }
                continue
            }
            if partial.last == UInt8(ascii: "\r") { partial.removeLast() }
            let line = String(decoding: partial, as: UTF8.self)
            partial.removeAll(keepingCapacity: true)
            if let item = take(line) { items.append(item) }
        }
        return items
    }

    private mutating func take(_ line: String) -> ServerSentEvent? {
        if line.isEmpty {
            defer { id = nil; type = nil; data = [] }
            guard type != nil || !data.isEmpty || id != nil else { return nil }
            return .event(id: id, type: type ?? "message", data: data.joined(separator: "\n"))
        }
        if line.hasPrefix(":") { return .comment(String(line.dropFirst()).trimmingLeadingSpace()) }
        let field: Substring, value: String
        if let colon = line.firstIndex(of: ":") {
            field = line[..<colon]
            value = String(line[line.index(after: colon)...]).trimmingLeadingSpace()
        } else {
            field = Substring(line)
            value = ""
        }
        switch field {
        case "id": id = value
        case "event": type = value
        case "data": data.append(value)
        default: break // `retry:` and unknown fields
        }
        return nil
    }
}

extension String {
    /// Drops one leading space, as the event-stream format says.
    fileprivate func trimmingLeadingSpace() -> String { hasPrefix(" ") ? String(dropFirst()) : self }
}
