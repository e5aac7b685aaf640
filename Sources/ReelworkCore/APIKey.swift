/// An API key as its holder sees it: a role prefix (`rw_club_`, `rw_op_`, `rw_worker_`) and 52
/// lowercase base32 characters carrying 256 random bits. Only the server's hash of `text` is
/// ever stored; this value exists between generation and printing, or parsing and lookup.
public struct APIKey: Sendable, Equatable {
    public let role: APIKeyRole
    /// The whole key, prefix included: what the holder sends and what is hashed.
    public let text: String

    /// Random bytes in a key: 256 bits, twice the 128 that makes guessing hopeless, so a weak
    /// generator or a partial leak of a key still leaves a wide margin.
    public static let randomByteCount = 32
    /// Characters after the prefix: ceil(256 / 5).
    public static let bodyLength = (randomByteCount * 8 + 4) / 5
    /// Characters of the body shown in lists (40 bits: enough to tell keys apart, far too few to use).
    public static let displayedBodyLength = 8

    /// RFC 4648 base32, lowercase: no characters that need escaping in a header, a shell or a
    /// URL, and no 0/O or 1/l to misread when a key is typed.
    static let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567".utf8)

    /// A new key from `generator` (the system's cryptographic generator unless a test passes another).
    public static func generate(role: APIKeyRole, using generator: inout some RandomNumberGenerator) -> APIKey {
        let bytes = (0..<randomByteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return APIKey(role: role, text: role.keyPrefix + base32(bytes))
    }

    public static func generate(role: APIKeyRole) -> APIKey {
        var system = SystemRandomNumberGenerator()
        return generate(role: role, using: &system)
    }

    /// Checks the shape of a presented key (prefix, length, alphabet) before any lookup, so a
    /// malformed one gets a precise error instead of a plain "unknown key".
    public static func parse(_ text: String) throws(APIKeyFormatError) -> APIKey {
        guard !text.isEmpty else { throw .empty }
        // Longest prefix first is not needed today (none is a prefix of another), but costs nothing.
        let roles = APIKeyRole.allCases.sorted { $0.keyPrefix.count > $1.keyPrefix.count }
        guard let role = roles.first(where: { text.utf8.starts(with: $0.keyPrefix.utf8) }) else { throw .unknownPrefix }
        let body = text.utf8.dropFirst(role.keyPrefix.utf8.count)
        // Counted in bytes: every valid character is one byte, and a multi-byte one is invalid anyway.
        if let bad = body.firstIndex(where: { !alphabet.contains($0) }) {
            let position = body.distance(from: body.startIndex, to: bad) + 1
            if position <= bodyLength { throw .invalidCharacter(position: position) }
        }
        guard body.count == bodyLength else { throw .wrongLength(expected: bodyLength, found: text.unicodeScalars.count - role.keyPrefix.count) }
        return APIKey(role: role, text: text)
    }

    /// The start of the key shown by `keys list` and stored beside the hash.
    public var displayPrefix: String {
        String(text.prefix(role.keyPrefix.count + Self.displayedBodyLength))
    }

    private init(role: APIKeyRole, text: String) {
        self.role = role
        self.text = text
    }

    /// Unpadded base32: 5 bits per character, the last one zero-filled.
    static func base32(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int((buffer >> UInt32(bits)) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int((buffer << UInt32(5 - bits)) & 31)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
