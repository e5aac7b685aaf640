import Foundation
import ReelworkClient
import ReelworkCore

/// Ids as a person types them: a whole id, or its start, as the CLI prints them (8 hex digits, as
/// git takes the start of a commit's hash). The start is looked up among the caller's records; it
/// must name exactly one.
enum IDResolver {
    /// How many matches an ambiguous start lists.
    static let shown = 5

    static func job(_ text: String, _ api: CoordinatorClient) async throws -> UUID {
        try await resolve(text, noun: "job") { try await api.jobs(limit: shown, idPrefix: $0).jobs.map(\.id) }
    }

    static func batch(_ text: String, _ api: CoordinatorClient) async throws -> UUID {
        try await resolve(text, noun: "batch") { try await api.batches(limit: shown, idPrefix: $0).batches.map(\.id) }
    }

    static func resolve(_ text: String, noun: String, matching: (String) async throws -> [UUID]) async throws -> UUID {
        if let id = UUID(uuidString: text) { return id }
        guard let prefix = IDPrefix(text) else {
            throw UserFacingError("'\(text.prefix(64))' is not a \(noun) id: give the whole id or its first \(IDPrefix.minimumDigits) or more hex digits")
        }
        let found = try await matching(prefix.digits)
        switch found.count {
        case 0:
            throw UserFacingError("no \(noun) id starts with '\(prefix)'")
        case 1:
            return found[0]
        default:
            let listed = found.map { $0.uuidString.lowercased() }.joined(separator: ", ")
            throw UserFacingError("'\(prefix)' is ambiguous: \(found.count == shown ? "\(shown) or more" : "\(found.count)") \(noun)s start with it "
                + "(\(listed)); give more digits")
        }
    }
}
