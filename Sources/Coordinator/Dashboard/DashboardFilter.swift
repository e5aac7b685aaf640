import Foundation
import Hummingbird
import ReelworkCore
import Sports
import Store

/// The jobs page's filter as it travels in a URL (`status`, `sport`, `error`, `club`, `batch`,
/// `from`, `to`, `q`): parsed and checked into a `JobSearch`, and written back into links, so a
/// filtered page is a bookmark. A club key's filter is always its own club.
struct DashboardFilter: Sendable, Equatable {
    /// The fields in URL order, as sent (for the form and for links).
    private(set) var fields: [(name: String, value: String)] = []
    private(set) var search = JobSearch()

    static let names = ["status", "sport", "error", "club", "batch", "from", "to", "q"]
    static let errorKinds = ErrorKind.allCases.map(\.rawValue) + ["stalled"]
    static let maxTextLength = 200

    static func == (a: Self, b: Self) -> Bool { a.search == b.search }

    /// - Throws: `DashboardProblem` (400) naming the field and what it accepts.
    init(_ values: [String: String], ownClub: String?) throws {
        for name in Self.names {
            guard let raw = values[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { continue }
            guard raw.count <= Self.maxTextLength else {
                throw DashboardProblem(.badRequest, "The filter '\(name)' is longer than \(Self.maxTextLength) characters.")
            }
            fields.append((name, raw))
            switch name {
            case "status":
                guard let status = JobStatus(rawValue: raw) else {
                    throw DashboardProblem(.badRequest, "Unknown status '\(raw)': use one of \(JobStatus.allCases.map(\.rawValue).joined(separator: ", ")).")
                }
                search.status = status
            case "sport":
                do { search.sport = try Sport.parse(raw) } catch let error as ReelworkError {
                    throw DashboardProblem(.badRequest, error.message)
                }
            case "error":
                guard Self.errorKinds.contains(raw) else {
                    throw DashboardProblem(.badRequest, "Unknown error kind '\(raw)': use one of \(Self.errorKinds.joined(separator: ", ")).")
                }
                search.errorKind = raw
            case "club":
                do { search.club = try ClubName.validate(raw) } catch let error as ReelworkError {
                    throw DashboardProblem(.badRequest, error.message)
                }
            case "batch":
                guard let id = UUID(uuidString: raw) else { throw DashboardProblem(.badRequest, "The batch '\(raw)' is not a batch id (a UUID).") }
                search.batchId = id
            case "from", "to":
                guard let date = Self.time(raw) else {
                    throw DashboardProblem(.badRequest, "The time '\(raw)' in '\(name)' is not a time: write 2026-11-24, 2026-11-24T08:30Z or 2026-11-24T08:30:00+01:00.")
                }
                if name == "from" { search.from = date } else { search.to = date }
            default:
                search.text = raw
            }
        }
        if let ownClub { search.club = ownClub }
    }

    func value(_ name: String) -> String { fields.first { $0.name == name }?.value ?? "" }

    /// The filter as a query string (no leading `?`), plus `extra` items.
    func query(_ extra: [(String, String)] = []) -> String {
        (fields + extra.map { (name: $0.0, value: $0.1) }).map { "\($0.name)=\(Self.escape($0.value))" }.joined(separator: "&")
    }

    var isEmpty: Bool { fields.isEmpty }

    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    /// A date, a date and minutes, or a full RFC 3339 time; without a zone it is UTC.
    static func time(_ text: String) -> Date? {
        var candidate = text.uppercased()
        if candidate.count == 10 { candidate += "T00:00:00Z" }
        let hasZone = candidate.hasSuffix("Z") || candidate.dropFirst(10).contains("+") || candidate.dropFirst(10).contains("-")
        if !hasZone { candidate += "Z" }
        // Minutes without seconds: 2026-11-24T08:30Z.
        if let t = candidate.firstIndex(of: "T"), candidate[t...].filter({ $0 == ":" }).count == 1 {
            let zoneStart = candidate.lastIndex { $0 == "Z" || $0 == "+" || $0 == "-" } ?? candidate.endIndex
            candidate.insert(contentsOf: ":00", at: zoneStart)
        }
        for options: ISO8601DateFormatter.Options in [[.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime]] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: candidate), JobRoutes.plausibleTimes.contains(date) { return date }
        }
        return nil
    }
}
