import ReelworkCore

/// A decoded photo or frame: packed RGB24, rows top to bottom, in display orientation.
public struct ArcheryImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    /// Throws `ReelworkError.invalidInput` when the buffer does not hold width × height × 3 bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) throws {
        guard width > 0, height > 0, let area = width.checkedMultiplying(by: height),
              let bytes = area.checkedMultiplying(by: 3), bytes == pixels.count else {
            throw ReelworkError.invalidInput("an archery image must be width × height × 3 bytes of RGB (got \(width)×\(height), \(pixels.count) bytes)")
        }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }
}
