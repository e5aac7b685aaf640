import Foundation
import Hummingbird
import ReelworkCore

/// Who sent a request: the key that authenticated it.
struct Caller: Sendable, Equatable {
    let keyId: UUID
    let role: APIKeyRole
    /// The club of a club key; nil for operator and worker keys.
    let club: String?

    init(keyId: UUID, role: APIKeyRole, club: String?) {
        self.keyId = keyId
        self.role = role
        self.club = club
    }

    init(_ record: APIKeyRecord) {
        self.init(keyId: record.id, role: record.role, club: record.club)
    }

    /// The one club whose records this caller may see, or nil when it may see every club's
    /// (operators, and workers reading a video to analyse). Repositories filter by it, so another
    /// club's id reads exactly like one that does not exist.
    var visibleClub: String? { role == .club ? club : nil }

    /// The club a new record belongs to. A club key's own club (naming another one is 403); an
    /// operator names any club, or gets `defaultClub`.
    func owningClub(requested: String?, defaultClub: String) throws -> String {
        switch role {
        case .club:
            let own = club ?? ""
            if let requested, requested != own {
                throw APIError(.forbidden, "forbidden", "this key belongs to club \(own); it cannot create records for club '\(requested.prefix(64))'")
            }
            return own
        case .operator, .worker:
            guard let requested else { return defaultClub }
            do { return try ClubName.validate(requested) } catch let error as ReelworkError {
                throw APIError(.badRequest, "invalid_club", error.message)
            }
        }
    }
}
