import Foundation
import Hummingbird
import ReelworkCore
import Store

/// Turns a request's `Authorization: Bearer KEY` into a caller, or a 401 that says what is wrong
/// without repeating the key. An unknown key and a revoked one get the same answer.
struct Authenticator: Sendable {
    let backends: Backends

    /// Headers clients put keys in by mistake; named in the 401 so the fix is obvious.
    static let misplacedKeyHeaders = ["X-API-Key", "Api-Key", "X-Auth-Token"]

    func caller(for request: Request) async throws -> Caller {
        guard let header = request.headers[.authorization] else {
            if let misplaced = Self.misplacedKeyHeaders.first(where: { request.headers[.init($0)!] != nil }) {
                throw Self.refusal("the key was sent in \(misplaced); send it as 'Authorization: Bearer KEY'")
            }
            throw Self.refusal("this endpoint needs an API key: send 'Authorization: Bearer KEY' (an operator makes keys with `reelwork keys create`)")
        }
        guard let presented = BearerCredential.parse(header) else {
            throw Self.refusal("the Authorization header must be 'Bearer KEY'")
        }
        guard let record = try await lookUp(presented) else { throw Self.refusal("the API key is not valid (unknown, or revoked)") }
        return Caller(record)
    }

    /// The key's record, or nil for one that is unknown or revoked (remembered for a moment in
    /// `Backends.unknownKeys`, so repeating it costs no lookup).
    /// - Throws: 401 for a malformed key.
    func lookUp(_ presented: String) async throws -> APIKeyRecord? {
        if backends.unknownKeys.contains(presented) { return nil }
        let record: APIKeyRecord?
        do {
            record = try await backends.sql { try APIKeyRepository($0).lookup(presented: presented) }
        } catch let error as APIKeyFormatError {
            throw Self.refusal("the API key is malformed: \(error.description)")
        }
        if record == nil { backends.unknownKeys.insert(presented) }
        return record
    }

    static func refusal(_ message: String) -> APIError {
        var error = APIError(.unauthorized, "unauthorized", message)
        error.headers[.wwwAuthenticate] = "Bearer"
        return error
    }
}
