import CFFmpeg

/// Measures a decoded frame's brightness: converts it with libswscale to full-range 8-bit
/// gray at most `maxWidth` pixels wide, then computes the mean and variance of the pixels.
///
/// Owns its scaler (context and gray buffer), reused across frames.
final class LumaMeter {
    /// Brightness statistics do not need full resolution; 320 px keeps a sample cheap.
    static let maxWidth = 320

    private let scaler = PixelScaler(output: .gray8, flags: SWS_AREA)

    init() {}

    /// Mean luminance and variance (0–255 scale) of `frame`, or nil when libswscale cannot
    /// convert its pixel format (e.g. a hardware frame); a missing sample is not an error.
    func measure(_ frame: Frame) -> (mean: Double, variance: Double)? {
        let source = frame.pointer
        let width = Int(source.pointee.width), height = Int(source.pointee.height)
        guard width > 0, height > 0 else { return nil }
        let outWidth = min(width, Self.maxWidth)
        let outHeight = max(1, Int((Double(height) * Double(outWidth) / Double(width)).rounded()))
        let sourceIsFullRange = source.pointee.color_range == AVCOL_RANGE_JPEG
        guard let gray = scaler.scale(source, width: outWidth, height: outHeight,
                                      adjustColors: { Self.fullRangeOutput($0, sourceIsFullRange: sourceIsFullRange) }),
              gray.rows > 0 else { return nil }
        return Self.statistics(gray.pixels, width: outWidth, height: outHeight, stride: gray.stride)
    }

    /// The quality thresholds are on the full 0–255 scale. libswscale writes GRAY8 as full
    /// range and expands limited-range (16–235) luma on the way; it knows that yuvj* formats
    /// are already full range, but decoders such as VP9 say "full range" only in the frame's
    /// color_range, which the scaler cannot see: without this, such video would be expanded
    /// twice (a luma of 30 would read as 16). Nil when the details are already right.
    private static func fullRangeOutput(_ details: PixelScaler.ColorDetails, sourceIsFullRange: Bool) -> PixelScaler.ColorDetails? {
        // yuvj* formats already set the source range; the frame's tag can only widen it.
        let wantedSourceRange: Int32 = sourceIsFullRange ? 1 : details.sourceRange
        guard wantedSourceRange != details.sourceRange || details.destinationRange != 1 else { return nil }
        var wanted = details
        wanted.sourceRange = wantedSourceRange
        wanted.destinationRange = 1
        return wanted
    }

    private static func statistics(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int)
        -> (mean: Double, variance: Double) {
        var sum: UInt64 = 0, sumOfSquares: UInt64 = 0
        for row in 0..<height {
            let line = pixels + row * stride
            for column in 0..<width {
                let value = UInt64(line[column])
                sum &+= value
                sumOfSquares &+= value * value
            }
        }
        let count = Double(width * height)
        let mean = Double(sum) / count
        // Population variance; max(0, …) absorbs rounding when all pixels are equal.
        return (mean, max(0, Double(sumOfSquares) / count - mean * mean))
    }
}
