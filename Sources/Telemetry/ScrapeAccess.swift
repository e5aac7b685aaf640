import Crypto
import Foundation
import ReelworkCore
import Store

/// Who may read `/metrics`: an operator's API key, or the scrape token (`REELWORK_METRICS_TOKEN`),
/// each as `Authorization: Bearer …`. A club's or a worker's key is known but not allowed (403);
/// anything else is 401.
public struct ScrapeAccess: Sendable {
    public enum Verdict: Equatable, Sendable {
        case allowed
        /// No credentials, or ones that are not valid.
        case unauthorized(String)
        /// A valid key whose role may not read metrics.
        case forbidden(String)
    }

    /// The role of a presented API key; nil when it is unknown or revoked. Throws
    /// `APIKeyFormatError` for text that is not a key at all, anything else when it cannot tell.
    public typealias RoleLookup = @Sendable (String) async throws -> APIKeyRole?

    /// Only the token's digest is kept: comparing digests takes the same time whatever the
    /// presented text shares with the token (swift-crypto compares digests in constant time) and
    /// whatever its length.
    private let tokenDigest: SHA256.Digest?
    private let role: RoleLookup

    public init(token: String?, role: @escaping RoleLookup) {
        tokenDigest = token.map { SHA256.hash(data: Data($0.utf8)) }
        self.role = role
    }

    /// Keys looked up in the keys table through `keys`.
    public init(token: String?, keys: PGPool) {
        self.init(token: token) { presented in
            try await keys.withConnection { try APIKeyRepository($0).lookup(presented: presented)?.role }
        }
    }

    /// Decides on a request's `Authorization` header. Throws when the key store cannot answer.
    public func check(authorization: String?) async throws -> Verdict {
        let wanted = tokenDigest == nil ? "an operator API key" : "an operator API key or the scrape token (\(MetricsSettings.Env.scrapeToken))"
        guard let authorization else { return .unauthorized("/metrics needs \(wanted): send 'Authorization: Bearer …'") }
        guard let presented = BearerCredential.parse(authorization) else {
            return .unauthorized("the Authorization header must be 'Bearer …' with \(wanted)")
        }
        if let tokenDigest, SHA256.hash(data: Data(presented.utf8)) == tokenDigest { return .allowed }
        let found: APIKeyRole?
        do { found = try await role(presented) } catch is APIKeyFormatError { found = nil }
        switch found {
        case nil: return .unauthorized("not \(wanted) (unknown, revoked or mistyped)")
        case .operator?: return .allowed
        case let other?: return .forbidden("a \(other.rawValue) key may not read metrics; use \(wanted)")
        }
    }
}
