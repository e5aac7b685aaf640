import ReelworkCore

/// One decoded frame as rows of 8-bit RGB. `withRow` gives a pointer to pixel (0, y)'s red byte
/// and the byte step from one pixel to the next along the row; the pointer must not escape `body`.
/// Media's `RGBImage` has exactly this shape (`extension RGBImage: @retroactive RGBFrameRows {}`).
public protocol RGBFrameRows {
    var width: Int { get }
    var height: Int { get }
    func withRow<R>(_ y: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R
}

/// An owned frame of packed RGB24 rows (width × height × 3 bytes): for tests, scenes and benchmarks.
public struct PackedRGBFrame: RGBFrameRows, Sendable {
    public let width: Int
    public let height: Int
    public let pixels: [UInt8]

    /// nil when `pixels` does not hold width × height × 3 bytes or a side is not positive.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, let count = width.checkedMultiplying(by: height)?.checkedMultiplying(by: 3),
              pixels.count == count else { return nil }
        (self.width, self.height, self.pixels) = (width, height, pixels)
    }

    public func withRow<R>(_ y: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside \(width)×\(height)")
        return try pixels.withUnsafeBufferPointer { buffer in
            // Non-empty: width and height are positive.
            try body(buffer.baseAddress.unsafelyUnwrapped + y * width * 3, 3)
        }
    }
}
