import CFFmpeg

/// One libswscale conversion of decoded frames into a packed 8-bit format (`Output`), and the
/// buffer it writes into: the context is cached for the frame's size and format (rebuilt only when
/// they change), the buffer grows when needed and is otherwise reused. Both are freed in deinit.
/// `LumaMeter` and `RGBConverter` are its users; each decides only the colour details.
///
/// One caller at a time; a result's pixels are valid until the next call or until the scaler is freed.
final class PixelScaler {
    /// The packed formats the users need.
    enum Output {
        case gray8, rgb24

        var format: AVPixelFormat {
            switch self {
            case .gray8: return AV_PIX_FMT_GRAY8
            case .rgb24: return AV_PIX_FMT_RGB24
            }
        }

        var bytesPerPixel: Int {
            switch self {
            case .gray8: return 1
            case .rgb24: return 3
            }
        }
    }

    /// libswscale's colour details of the current context (`sws_getColorspaceDetails`): the source's
    /// matrix and range, the destination's, and the picture adjustments. Ranges: 1 full, 0 limited.
    struct ColorDetails {
        var inverseTable: UnsafePointer<Int32>?
        var sourceRange: Int32
        var table: UnsafePointer<Int32>?
        var destinationRange: Int32
        var brightness: Int32, contrast: Int32, saturation: Int32
    }

    /// What one conversion wrote: `rows` rows, `stride` bytes apart.
    struct Scaled {
        let pixels: UnsafeMutablePointer<UInt8>
        let stride: Int
        let rows: Int
    }

    let output: Output
    let flags: Int32
    private var context: OpaquePointer?
    private var buffer: UnsafeMutableRawPointer?
    private var capacity = 0

    init(output: Output, flags: Int32) {
        self.output = output
        self.flags = flags
    }

    deinit {
        sws_freeContext(context)
        buffer?.deallocate()
    }

    /// Converts `frame` to `width` × `height` pixels. Before scaling, `adjustColors` sees the context's
    /// colour details (when it has any: YUV sources) and returns the ones to set, or nil to keep them.
    /// Returns nil when libswscale cannot convert the frame's pixel format.
    func scale(_ frame: UnsafeMutablePointer<AVFrame>, width: Int, height: Int,
               adjustColors: (ColorDetails) -> ColorDetails?) -> Scaled? {
        let sourceHeight = frame.pointee.height
        // Returns the same context while the frame geometry and format stay the same.
        context = sws_getCachedContext(context, frame.pointee.width, sourceHeight, AVPixelFormat(rawValue: frame.pointee.format),
                                       Int32(width), Int32(height), output.format, flags, nil, nil, nil)
        guard let context else { return nil }
        if let current = colorDetails(context), let wanted = adjustColors(current) {
            _ = sws_setColorspaceDetails(context, wanted.inverseTable, wanted.sourceRange, wanted.table, wanted.destinationRange,
                                         wanted.brightness, wanted.contrast, wanted.saturation)
        }

        let stride = (width * output.bytesPerPixel + 63) & ~63  // rows aligned to 64 bytes for libswscale's SIMD paths
        // libswscale's SIMD converters may write a little past the end of a row (whole vectors);
        // a spare row at the end keeps the last row's overrun inside the buffer.
        let pixels = pixelBuffer(byteCount: stride * (height + 1))
        let written = withUnsafePointer(to: &frame.pointee.data) { planes in
            withUnsafePointer(to: &frame.pointee.linesize) { strides in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        var destination: UnsafeMutablePointer<UInt8>? = pixels
                        var destinationStride = Int32(stride)
                        return sws_scale(context, planes, strides, 0, sourceHeight, &destination, &destinationStride)
                    }
                }
            }
        }
        return Scaled(pixels: pixels, stride: stride, rows: Int(written))
    }

    /// Nil when the context has no colour details to give (not a YUV conversion).
    private func colorDetails(_ context: OpaquePointer) -> ColorDetails? {
        var inverseTable: UnsafeMutablePointer<Int32>? = nil, table: UnsafeMutablePointer<Int32>? = nil
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0
        var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(context, &inverseTable, &sourceRange, &table, &destinationRange,
                                       &brightness, &contrast, &saturation) >= 0 else { return nil }
        return ColorDetails(inverseTable: inverseTable.map { UnsafePointer($0) }, sourceRange: sourceRange,
                            table: table.map { UnsafePointer($0) }, destinationRange: destinationRange,
                            brightness: brightness, contrast: contrast, saturation: saturation)
    }

    private func pixelBuffer(byteCount: Int) -> UnsafeMutablePointer<UInt8> {
        if byteCount > capacity {
            buffer?.deallocate()
            buffer = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: 64)
            capacity = byteCount
        }
        return buffer!.bindMemory(to: UInt8.self, capacity: capacity)
    }
}
