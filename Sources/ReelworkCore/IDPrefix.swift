import Foundation

/// The start of an id, as the CLI prints ids (8 hex digits) and a person types them back: 4 to 32
/// hex digits, dashes ignored, either case. It names the ids from `lowest` to `highest`, so a
/// lookup is a range on the primary key.
public struct IDPrefix: Sendable, Equatable, CustomStringConvertible {
    public static let minimumDigits = 4
    /// The digits, lower case, no dashes.
    public let digits: String

    /// Nil for anything but 4 to 32 ASCII hex digits (dashes ignored; other scripts' digits, such as
    /// fullwidth ones, are not hex digits of an id).
    public init?(_ text: String) {
        let digits = text.lowercased().filter { $0 != "-" }
        guard (Self.minimumDigits...32).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        self.digits = digits
    }

    public var lowest: UUID { Self.uuid(digits.padding(toLength: 32, withPad: "0", startingAt: 0)) }
    public var highest: UUID { Self.uuid(digits.padding(toLength: 32, withPad: "f", startingAt: 0)) }
    public var description: String { digits }

    private static func uuid(_ hex: String) -> UUID {
        let c = Array(hex)
        let text = String(c[0..<8]) + "-" + String(c[8..<12]) + "-" + String(c[12..<16]) + "-" + String(c[16..<20]) + "-" + String(c[20..<32])
        // 32 hex digits in the 8-4-4-4-12 form always make a UUID.
        return UUID(uuidString: text)!
    }
}
