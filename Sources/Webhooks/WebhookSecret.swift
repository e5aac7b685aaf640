import Foundation

/// An endpoint's signing secret, Standard Webhooks style: `whsec_` + base64 of the key bytes. The
/// HMAC key is the decoded bytes, not the text. Its description never shows the key, so a secret
/// in a log line or an error message leaks nothing.
public struct WebhookSecret: Sendable, Equatable, CustomStringConvertible {
    public static let prefix = "whsec_"
    /// Bytes in a generated key: 256 bits, as much as HMAC-SHA256 can use.
    public static let generatedByteCount = 32
    /// The specification's bounds on a key's length, enforced when a secret is read back.
    public static let byteCountRange = 24...64

    /// The whole text (`whsec_…`), as shown once to the club and stored for signing.
    public let text: String
    /// The HMAC key.
    public let key: Data

    /// A new secret of `generatedByteCount` random bytes from the system's secure generator.
    public static func generate() -> WebhookSecret {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<generatedByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let key = Data(bytes)
        return WebhookSecret(text: prefix + key.base64EncodedString(), key: key)
    }

    /// Reads a secret back from its text.
    /// - Throws: `WebhookSecret.FormatError` (which never repeats the text) for anything that is
    ///   not `whsec_` followed by the base64 of 24 to 64 bytes.
    public init(parsing text: String) throws {
        guard text.hasPrefix(Self.prefix) else { throw FormatError(reason: "it does not start with \(Self.prefix)") }
        guard let key = Data(base64Encoded: String(text.dropFirst(Self.prefix.count))) else {
            throw FormatError(reason: "the part after \(Self.prefix) is not base64")
        }
        guard Self.byteCountRange.contains(key.count) else {
            throw FormatError(reason: "its key is \(key.count) bytes; \(Self.byteCountRange.lowerBound) to \(Self.byteCountRange.upperBound) are allowed")
        }
        self.init(text: text, key: key)
    }

    private init(text: String, key: Data) {
        self.text = text
        self.key = key
    }

    public var description: String { "\(Self.prefix)… (redacted)" }

    /// Why a text is not a webhook secret.
    public struct FormatError: Error, CustomStringConvertible, Equatable {
        public let reason: String
        public var description: String { "not a webhook secret: \(reason)" }
    }
}
