import CFFmpeg

/// Measures a decoded frame's brightness: converts it with libswscale to full-range 8-bit
/// gray at most `maxWidth` pixels wide, then computes the mean and variance of the pixels.
///
/// Owns the scaler and the gray buffer, both reused across frames and freed in deinit.
final class LumaMeter {
    /// Brightness statistics do not need full resolution; 320 px keeps a sample cheap.
    static let maxWidth = 320

    private var scaler: OpaquePointer?
    private var buffer: UnsafeMutableRawPointer?
    private var bufferCapacity = 0

    init() {}

    deinit {
        sws_freeContext(scaler)
        buffer?.deallocate()
    }

    /// Mean luminance and variance (0–255 scale) of `frame`, or nil when libswscale cannot
    /// convert its pixel format (e.g. a hardware frame); a missing sample is not an error.
    func measure(_ frame: Frame) -> (mean: Double, variance: Double)? {
        let source = frame.pointer
        let width = Int(source.pointee.width), height = Int(source.pointee.height)
        guard width > 0, height > 0 else { return nil }
        let outWidth = min(width, Self.maxWidth)
        let outHeight = max(1, Int((Double(height) * Double(outWidth) / Double(width)).rounded()))
        // Rows aligned to 64 bytes let libswscale use its SIMD paths.
        let stride = (outWidth + 63) & ~63

        let format = AVPixelFormat(rawValue: source.pointee.format)
        // Returns the same context while the frame geometry and format stay the same.
        scaler = sws_getCachedContext(scaler, Int32(width), Int32(height), format,
                                      Int32(outWidth), Int32(outHeight), AV_PIX_FMT_GRAY8,
                                      SWS_AREA, nil, nil, nil)
        guard let scaler else { return nil }
        setFullRangeOutput(scaler, sourceIsFullRange: source.pointee.color_range == AVCOL_RANGE_JPEG)

        let gray = grayBuffer(byteCount: stride * outHeight)
        let written = withUnsafePointer(to: &source.pointee.data) { planes in
            withUnsafePointer(to: &source.pointee.linesize) { strides in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        var destination: UnsafeMutablePointer<UInt8>? = gray
                        var destinationStride = Int32(stride)
                        return sws_scale(scaler, planes, strides, 0, Int32(height), &destination, &destinationStride)
                    }
                }
            }
        }
        guard written > 0 else { return nil }
        return Self.statistics(gray, width: outWidth, height: outHeight, stride: stride)
    }

    /// The quality thresholds are on the full 0–255 scale. libswscale writes GRAY8 as full
    /// range and expands limited-range (16–235) luma on the way; it knows that yuvj* formats
    /// are already full range, but decoders such as VP9 say "full range" only in the frame's
    /// color_range, which the scaler cannot see: without this, such video would be expanded
    /// twice (a luma of 30 would read as 16).
    private func setFullRangeOutput(_ scaler: OpaquePointer, sourceIsFullRange: Bool) {
        var inverseTable: UnsafeMutablePointer<Int32>? = nil, table: UnsafeMutablePointer<Int32>? = nil
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0
        var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(scaler, &inverseTable, &sourceRange, &table, &destinationRange,
                                       &brightness, &contrast, &saturation) >= 0 else { return }
        // yuvj* formats already set the source range; the frame's tag can only widen it.
        let wantedSourceRange: Int32 = sourceIsFullRange ? 1 : sourceRange
        guard wantedSourceRange != sourceRange || destinationRange != 1 else { return }
        _ = sws_setColorspaceDetails(scaler, inverseTable, wantedSourceRange, table, 1, brightness, contrast, saturation)
    }

    private func grayBuffer(byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        if byteCount > bufferCapacity {
            buffer?.deallocate()
            buffer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            bufferCapacity = byteCount
        }
        return buffer!.bindMemory(to: UInt8.self, capacity: bufferCapacity)
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
