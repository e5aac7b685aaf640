import ReelworkCore

/// Reads one correction's fields (`corrections[2]`), each checked, with messages naming the field
/// and what it must be. Remembers what it read: that, with the op, is the correction as stored.
public struct CorrectionReader: Sendable {
    let item: JSONValue
    /// `corrections[2]`, for messages.
    public let name: String
    /// The video's length in seconds, when known: an added row's times lie within it.
    public let videoSeconds: Double?
    /// The fields read so far, as read.
    public private(set) var read: [String: JSONValue] = [:]

    /// Times are bounded by this when the video's length is not known (a day).
    static let maximumSeconds = 86_400.0

    init(item: JSONValue, name: String, videoSeconds: Double?) {
        (self.item, self.name, self.videoSeconds) = (item, name, videoSeconds)
    }

    /// `index`: a detected row's 0-based index.
    mutating func index() throws -> Int {
        guard case .number(let n)? = item["index"], let index = Int(exactly: n), (0...RowCorrector.maximumIndex).contains(index) else {
            throw ReelworkError.invalidInput("\(name).index must be a whole number from 0 (a detected row's index, 0-based)")
        }
        read["index"] = .number(Double(index))
        return index
    }

    /// `true` or `false`.
    public mutating func bool(_ key: String) throws -> Bool {
        guard case .bool(let value)? = item[key] else { throw ReelworkError.invalidInput("\(name).\(key) must be true or false") }
        read[key] = .bool(value)
        return value
    }

    /// One of `allowed` (exactly as spelled).
    public mutating func choice(_ key: String, _ allowed: [String]) throws -> String {
        guard case .string(let value)? = item[key], allowed.contains(value) else {
            throw ReelworkError.invalidInput("\(name).\(key) must be one of \(allowed.joined(separator: ", "))")
        }
        read[key] = .string(value)
        return value
    }

    /// Seconds from the start of the video, within it.
    public mutating func time(_ key: String) throws -> Double {
        let limit = videoSeconds.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? Self.maximumSeconds
        guard case .number(let value)? = item[key], value.isFinite, value >= 0, value <= limit else {
            let bound = videoSeconds == nil ? "\(Int(limit))" : "\((limit * 1000).rounded(.down) / 1000) (the video's length)"
            throw ReelworkError.invalidInput("\(name).\(key) must be seconds from 0 to \(bound)")
        }
        read[key] = .number(value)
        return value
    }
}
