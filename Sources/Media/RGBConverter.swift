import CFFmpeg
import ReelworkCore

/// Converts decoded frames to packed 8-bit RGB at their coded size with libswscale, into one
/// buffer reused for every frame (reallocated only when the frame size grows).
///
/// Only the colour conversion happens here; resizing to a model's input is `ImageResampler`'s
/// job, whose rule libswscale's scalers do not reproduce. Owns the scaler and the buffer, freed in
/// deinit. One caller at a time.
final class RGBConverter {
    /// libswscale's flags for the conversion. No scaling takes place, so they only choose how
    /// chroma is brought to full resolution and how carefully values are rounded: the default
    /// (no flags beyond bilinear) takes libswscale's fast unscaled YUV→RGB path.
    let flags: Int32
    private var scaler: OpaquePointer?
    private var buffer: UnsafeMutableRawPointer?
    private var capacity = 0
    private var configured: ColorKey?

    /// What the scaler's colour details were set for.
    private struct ColorKey: Equatable {
        var width: Int32, height: Int32, format: Int32, colorspace: Int32, fullRange: Bool
    }

    init(flags: Int32 = SWS_BILINEAR) {
        self.flags = flags
    }

    deinit {
        sws_freeContext(scaler)
        buffer?.deallocate()
    }

    /// Converts `frame` and returns a view of it in display orientation (turned `rotation` degrees
    /// clockwise). The view is valid until the next call or until this converter is freed.
    /// Throws `.internal` when libswscale cannot convert the frame's pixel format.
    func convert(_ frame: Frame, rotation: Int) throws -> RGBImage {
        let source = frame.pointer
        let width = source.pointee.width, height = source.pointee.height
        guard width > 0, height > 0 else { throw MediaError(kind: .internal, message: "a decoded frame has no size") }
        let format = source.pointee.format
        let stride = (Int(width) * 3 + 63) & ~63  // rows aligned to 64 bytes for libswscale's SIMD paths
        // libswscale's SIMD converters may write a little past the end of a row (whole vectors);
        // a spare row at the end keeps the last row's overrun inside the buffer.
        let pixels = pixelBuffer(byteCount: stride * (Int(height) + 1))

        scaler = sws_getCachedContext(scaler, width, height, AVPixelFormat(rawValue: format),
                                      width, height, AV_PIX_FMT_RGB24, flags, nil, nil, nil)
        guard let scaler else {
            let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: format)).map { String(cString: $0) } ?? "format \(format)"
            throw MediaError(kind: .internal, message: "libswscale cannot convert \(name) frames to RGB")
        }
        configureColors(scaler, source, format: format)

        let written = withUnsafePointer(to: &source.pointee.data) { planes in
            withUnsafePointer(to: &source.pointee.linesize) { strides in
                planes.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { planes in
                    strides.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        var destination: UnsafeMutablePointer<UInt8>? = pixels
                        var destinationStride = Int32(stride)
                        return sws_scale(scaler, planes, strides, 0, height, &destination, &destinationStride)
                    }
                }
            }
        }
        guard written == height else {
            throw MediaError(kind: .internal, message: "libswscale converted \(written) of \(height) rows to RGB")
        }
        return RGBImage(coded: pixels, codedWidth: Int(width), codedHeight: Int(height), stride: stride, rotation: rotation)
    }

    /// Tells the scaler the frame's colour matrix (BT.709 for most HD video, BT.601 otherwise) and
    /// range. Without it libswscale assumes BT.601 limited range whatever the frame says; yuvj*
    /// formats (JPEG) set full range themselves. Done only when these change, since setting them
    /// rebuilds the scaler's tables.
    private func configureColors(_ scaler: OpaquePointer, _ frame: UnsafeMutablePointer<AVFrame>, format: Int32) {
        let colorspace = Int32(frame.pointee.colorspace.rawValue)
        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
        let key = ColorKey(width: frame.pointee.width, height: frame.pointee.height, format: format,
                           colorspace: colorspace, fullRange: fullRange)
        if configured == key { return }
        configured = key

        var inverseTable: UnsafeMutablePointer<Int32>? = nil, table: UnsafeMutablePointer<Int32>? = nil
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0
        var brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        guard sws_getColorspaceDetails(scaler, &inverseTable, &sourceRange, &table, &destinationRange,
                                       &brightness, &contrast, &saturation) >= 0 else { return }  // not YUV: nothing to set
        // sws_getCoefficients takes AVColorSpace's numbering and falls back to BT.601 for unknown values.
        let coefficients = sws_getCoefficients(colorspace)
        _ = sws_setColorspaceDetails(scaler, coefficients, fullRange ? 1 : sourceRange, table, 1,
                                     brightness, contrast, saturation)
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
