import Foundation

/// The credential of an `Authorization: Bearer …` header, read the same way by the API's
/// authentication and by `/metrics`: the scheme in any case, blanks around the credential ignored.
public enum BearerCredential {
    /// The credential, or nil when the header names another scheme or carries no credential.
    public static func parse(_ header: String) -> String? {
        let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
        return String(parts[1]).trimmingCharacters(in: .whitespaces)
    }
}
