import Foundation

/// An API key as the server keeps it: everything but the secret, which is never stored.
public struct APIKeyRecord: Codable, Sendable, Equatable {
    public var id: UUID
    /// The key's first characters (`rw_club_ab12cd34`), to recognise it in a list.
    public var prefix: String
    public var role: APIKeyRole
    /// The club's name for a club key; nil for operator and worker keys.
    public var club: String?
    public var label: String?
    public var createdAt: Date
    public var revokedAt: Date?
    public var lastUsedAt: Date?

    public init(id: UUID, prefix: String, role: APIKeyRole, club: String?, label: String?, createdAt: Date,
                revokedAt: Date?, lastUsedAt: Date?) {
        self.id = id
        self.prefix = prefix
        self.role = role
        self.club = club
        self.label = label
        self.createdAt = createdAt
        self.revokedAt = revokedAt
        self.lastUsedAt = lastUsedAt
    }

    public var isRevoked: Bool { revokedAt != nil }
}
