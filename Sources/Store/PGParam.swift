import Foundation

/// A parameter value in text format.
///
/// Parameters are sent as text and PostgreSQL converts them to the column's (or cast's) type,
/// so `pgText` must be a literal that type's input function accepts.
public protocol PGParam {
    var pgText: String { get }
}

extension String: PGParam {
    public var pgText: String { self }
}

extension Int: PGParam {
    public var pgText: String { String(self) }
}

extension Int64: PGParam {
    public var pgText: String { String(self) }
}

extension Int32: PGParam {
    public var pgText: String { String(self) }
}

extension Double: PGParam {
    /// Swift's shortest round-tripping decimal, except for the non-finite values, which
    /// PostgreSQL spells differently ("Infinity", "-Infinity", "NaN").
    public var pgText: String {
        if isNaN { return "NaN" }
        if isInfinite { return self < 0 ? "-Infinity" : "Infinity" }
        return "\(self)"
    }
}

extension Bool: PGParam {
    public var pgText: String { self ? "true" : "false" }
}

extension UUID: PGParam {
    public var pgText: String { uuidString.lowercased() }
}

extension Date: PGParam {
    /// ISO 8601 in UTC with microseconds, e.g. "2026-11-21T05:32:10.123456Z": timestamptz keeps
    /// microseconds, so a Date written and read back differs by less than a microsecond.
    public var pgText: String { PGTimestamp.format(self) }
}
