import Foundation

/// The project's JSON encoder: writes every id (a JSON string that is exactly a UUID) in lower
/// case, as RFC 9562 recommends and as the CLI, the database and the dashboard write them.
/// Foundation's `UUID` encodes itself upper case and `JSONEncoder` has no strategy to change that,
/// so the rule is applied here, once, to what every model encodes (API answers, live events, the
/// event stream's stored JSON), rather than by a custom `encode(to:)` on each type with an id.
/// Input accepts either case (`UUID(uuidString:)`).
public final class LowercaseIDJSONEncoder: JSONEncoder, @unchecked Sendable {
    public override func encode<T: Encodable>(_ value: T) throws -> Data {
        Self.lowercasingIDs(try super.encode(value))
    }

    /// `json` with each string value that is exactly an upper-case (or mixed-case) UUID written in
    /// lower case; every other byte as it was. Strings are walked with their escapes, so text
    /// inside a longer string is never touched.
    static func lowercasingIDs(_ json: Data) -> Data {
        var bytes = [UInt8](json)
        var i = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "\"") else { i += 1; continue }
            // A string starts at i: find its closing quote, skipping escapes.
            var end = i + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            if end - i - 1 == 36, isUUID(bytes[(i + 1)..<end]) {
                for j in (i + 1)..<end where (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(bytes[j]) {
                    bytes[j] += 32
                }
            }
            i = end + 1
        }
        return Data(bytes)
    }

    /// 8-4-4-4-12 hexadecimal digits.
    private static func isUUID(_ text: ArraySlice<UInt8>) -> Bool {
        for (offset, byte) in text.enumerated() {
            if [8, 13, 18, 23].contains(offset) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                let hex = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                guard hex else { return false }
            }
        }
        return true
    }
}
