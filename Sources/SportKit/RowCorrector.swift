import ReelworkCore

/// How a person corrects a sport's detected rows (issue 31): basketball's shots, bowling's shots,
/// tennis's swings. A sport names its operations (`drop`, `made`, `add`, …) and what each reads;
/// this type reads a request's corrections with messages that name the correction and the problem,
/// checks every index against the detected rows, and gives the confirmed rows. The detected result
/// never changes: a confirmed version is made from it alone, so indices always name detected rows.
///
/// Shared by the sports so that each one states only its own fields, and every sport refuses bad
/// input with the same words (a bad index, an unknown op, a row corrected twice).
public struct RowCorrector: Sendable {
    /// What one row is called in messages ("shot", "swing").
    public let rowNoun: String
    /// Where the rows are in the result document, and so in the confirmed one (`shots`).
    public let resultKey: String
    /// The row number's key (`shotNumber`), 1-based, renumbered in the confirmed rows.
    public let numberKey: String
    /// A row's time (`releaseTime`), so that added rows take their place in the session; nil keeps
    /// the detected order (a sport that adds no rows).
    public let timePath: [String]?
    /// The operations by their `op` name.
    public let operations: [String: RowOperation]
    /// The confirmed document's fields computed from its rows (basketball's `stats`), so that a
    /// confirmed version never shows totals of the detected rows.
    public let summary: @Sendable ([JSONValue]) -> [String: JSONValue]
    /// One correction of each op, as a person writes them (the dashboard's hint).
    public let example: String

    /// Most corrections in one request: a session's worth, never an unbounded list.
    public static let maximumCorrections = 200
    /// Indices are read up to this; a bigger one cannot name a detected row anyway.
    static let maximumIndex = 9_999

    public init(rowNoun: String, resultKey: String, numberKey: String, timePath: [String]?, operations: [String: RowOperation],
                example: String, summary: @escaping @Sendable ([JSONValue]) -> [String: JSONValue] = { _ in [:] }) {
        (self.rowNoun, self.resultKey, self.numberKey, self.timePath) = (rowNoun, resultKey, numberKey, timePath)
        (self.operations, self.example, self.summary) = (operations, example, summary)
    }

    /// The op names, sorted, for messages: "add, drop, made or type".
    public var opNames: String {
        let names = operations.keys.sorted()
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// The rows of a result document, or of a confirmed version.
    public func rows(in document: JSONValue) -> [JSONValue] {
        if case .array(let rows)? = document[resultKey] { return rows }
        return []
    }

    /// Reads `{"corrections": [{"op": …, "index": …, …}]}` and applies it to the detected `result`.
    /// `videoSeconds` bounds the times an added row may have (nil: a day). Throws
    /// `ReelworkError.invalidInput` naming the correction and its problem; nothing is partly applied.
    public func correct(_ body: JSONValue, detected result: JSONValue, videoSeconds: Double?) throws -> CorrectedRows {
        guard case .array(let items)? = body["corrections"] else {
            throw ReelworkError.invalidInput("corrections must be an array of {op: \(opNames), …}")
        }
        guard items.count <= Self.maximumCorrections else {
            throw ReelworkError.invalidInput("at most \(Self.maximumCorrections) corrections at once, not \(items.count)")
        }
        let detected = rows(in: result)
        var dropped = Set<Int>(), changed = [Int: [String: JSONValue]](), changedBy = Set<String>(), added: [[String: JSONValue]] = []
        var stored: [JSONValue] = [], kinds: [String] = []
        for (position, item) in items.enumerated() {
            let name = "corrections[\(position)]"
            guard case .object = item else { throw ReelworkError.invalidInput("\(name) must be an object {op: \(opNames), …}") }
            guard case .string(let op)? = item["op"] else { throw ReelworkError.invalidInput("\(name).op must be \(opNames)") }
            guard let operation = operations[op] else {
                throw ReelworkError.invalidInput("\(name).op must be \(opNames), not '\(String(op.unicodeScalars.prefix(40)))'")
            }
            var reader = CorrectionReader(item: item, name: name, videoSeconds: videoSeconds)
            func index() throws -> Int {
                let index = try reader.index()
                guard index < detected.count else {
                    throw ReelworkError.invalidInput("\(name): \(rowNoun) index \(index) does not exist: the result has \(detected.count) detected \(rowNoun)s"
                        + (detected.isEmpty ? "" : " (0…\(detected.count - 1))"))
                }
                guard !dropped.contains(index) else {
                    throw ReelworkError.invalidInput("\(name): \(rowNoun) \(index) is already dropped: a dropped \(rowNoun) takes no other correction")
                }
                return index
            }
            switch operation {
            case .drop:
                let index = try index()
                guard changed[index] == nil else {
                    throw ReelworkError.invalidInput("\(name): \(rowNoun) \(index) is both corrected and dropped: give one or the other")
                }
                dropped.insert(index)
            case .change(let read):
                let index = try index()
                guard changedBy.insert("\(op) \(index)").inserted else {
                    throw ReelworkError.invalidInput("\(name): \(rowNoun) \(index) takes '\(op)' twice: give one per \(rowNoun)")
                }
                changed[index, default: [:]].merge(try read(&reader)) { _, new in new }
            case .add(let read):
                added.append(try read(&reader))
            }
            stored.append(.object(reader.read.merging(["op": .string(op)]) { _, new in new }))
            kinds.append(op)
        }
        var rows: [(row: JSONValue, time: Double?)] = []
        for (index, row) in detected.enumerated() where !dropped.contains(index) {
            guard case .object(var fields) = row else { continue }
            if let change = changed[index] { fields.merge(change) { _, new in new } }
            fields["source"] = .string(changed[index] == nil ? "detected" : "corrected")
            fields["detectedIndex"] = .number(Double(index))
            rows.append((.object(fields), time(of: .object(fields))))
        }
        for var fields in added {
            fields["source"] = .string("added")
            fields["detectedIndex"] = .null
            rows.append((.object(fields), time(of: .object(fields))))
        }
        if timePath != nil {
            // Stable: rows without a time keep their place after the timed ones.
            rows = rows.enumerated().sorted { a, b in
                (a.element.time ?? .infinity, a.offset) < (b.element.time ?? .infinity, b.offset)
            }.map(\.element)
        }
        let numbered = rows.enumerated().map { number, entry -> JSONValue in
            guard case .object(var fields) = entry.row else { return entry.row }
            fields[numberKey] = .number(Double(number + 1))
            return .object(fields)
        }
        var confirmed = summary(numbered)
        confirmed[resultKey] = .array(numbered)
        return CorrectedRows(corrections: .array(stored), confirmed: .object(confirmed), kinds: kinds)
    }

    private func time(of row: JSONValue) -> Double? {
        guard let timePath else { return nil }
        var value: JSONValue? = row
        for key in timePath { value = value?[key] }
        return value?.number
    }
}

/// One correction operation: what its `op` does and the fields it reads.
public enum RowOperation: Sendable {
    /// Drops detected row `index` (a false detection).
    case drop
    /// Sets fields of detected row `index`: the closure reads them and returns the row's new fields.
    case change(@Sendable (inout CorrectionReader) throws -> [String: JSONValue])
    /// A row the analysis missed: the closure reads its fields and returns the new row's.
    case add(@Sendable (inout CorrectionReader) throws -> [String: JSONValue])
}

/// The outcome of a request's corrections.
public struct CorrectedRows: Sendable, Equatable {
    /// The corrections as read (op, index and the fields read), never the body as sent: nothing
    /// else a client put in it is stored.
    public var corrections: JSONValue
    /// The confirmed document: the rows (renumbered, each with `source` and `detectedIndex`) and
    /// the summary computed from them.
    public var confirmed: JSONValue
    /// Each correction's op, in order (the metric's `kind`).
    public var kinds: [String]
}
