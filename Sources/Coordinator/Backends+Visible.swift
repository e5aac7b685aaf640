import Foundation
import Hummingbird
import Store

extension Backends {
    /// The record `find` gives for `id` as `caller` may see it (`find` gets the club a club key is
    /// confined to, nil for an operator); a missing record, and another club's, both answer 404
    /// `code` with the same message, so a club learns nothing about the ids of others.
    func visible<T: Sendable>(_ noun: String, id: UUID, code: String, to caller: Caller,
                              _ find: @escaping (PGConnection, String?) throws -> T?) async throws -> T {
        let club = caller.visibleClub
        guard let found = try await sql({ try find($0, club) }) else {
            throw APIError(.notFound, code, "no \(noun) with id \(id.uuidString.lowercased())")
        }
        return found
    }
}
