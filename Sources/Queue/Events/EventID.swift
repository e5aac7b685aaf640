/// A Redis stream entry id, `<milliseconds>-<sequence>`: the `id:` of a server-sent event and the
/// `Last-Event-ID` a client resumes after. Ordered as Redis orders them.
public struct EventID: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let milliseconds: UInt64
    public let sequence: UInt64

    public init(milliseconds: UInt64, sequence: UInt64) {
        self.milliseconds = milliseconds
        self.sequence = sequence
    }

    /// Parses `123-4` strictly (two runs of at most 20 ASCII digits that fit 64 bits); anything else,
    /// including Redis's special ids (`$`, `-`, `+`), is nil.
    public init?(_ text: some StringProtocol) {
        let parts = Substring(text).split(separator: "-", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 2, let ms = Self.number(parts[0]), let seq = Self.number(parts[1]) else { return nil }
        self.init(milliseconds: ms, sequence: seq)
    }

    /// The id before every real one (`XREAD … 0-0` reads a stream from its start).
    public static let zero = EventID(milliseconds: 0, sequence: 0)

    public var description: String { "\(milliseconds)-\(sequence)" }

    public static func < (a: EventID, b: EventID) -> Bool {
        (a.milliseconds, a.sequence) < (b.milliseconds, b.sequence)
    }

    private static func number(_ text: Substring) -> UInt64? {
        guard !text.isEmpty, text.count <= 20, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return UInt64(text)
    }
}
