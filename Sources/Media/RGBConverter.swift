import CFFmpeg
import ReelworkCore

/// Converts decoded frames to packed 8-bit RGB at their coded size with libswscale, into one
/// buffer reused for every frame (reallocated only when the frame size grows).
///
/// Only the colour conversion happens here; resizing to a model's input is `ImageResampler`'s
/// job, whose rule libswscale's scalers do not reproduce. Owns its scaler (context and buffer).
/// One caller at a time.
final class RGBConverter {
    /// libswscale's flags for the conversion. No scaling takes place, so they only choose how
    /// chroma is brought to full resolution and how carefully values are rounded: the default
    /// (no flags beyond bilinear) takes libswscale's fast unscaled YUV→RGB path.
    var flags: Int32 { scaler.flags }
    private let scaler: PixelScaler
    private var configured: ColorKey?

    /// What the scaler's colour details were set for.
    private struct ColorKey: Equatable {
        var width: Int32, height: Int32, format: Int32, colorspace: Int32, fullRange: Bool
    }

    init(flags: Int32 = SWS_BILINEAR) {
        scaler = PixelScaler(output: .rgb24, flags: flags)
    }

    /// Converts `frame` and returns a view of it in display orientation (turned `rotation` degrees
    /// clockwise), at its coded size or, for stills and thumbnails, scaled to `codedSize` (before
    /// turning). The view is valid until the next call or until this converter is freed.
    /// Throws `.internal` when libswscale cannot convert the frame's pixel format.
    func convert(_ frame: Frame, rotation: Int, codedSize: (width: Int, height: Int)? = nil) throws -> RGBImage {
        let source = frame.pointer
        guard source.pointee.width > 0, source.pointee.height > 0 else { throw MediaError(kind: .internal, message: "a decoded frame has no size") }
        let width = codedSize?.width ?? Int(source.pointee.width), height = codedSize?.height ?? Int(source.pointee.height)
        guard width > 0, height > 0 else { throw MediaError(kind: .internal, message: "cannot scale a frame to \(width)×\(height)") }
        guard let rgb = scaler.scale(source, width: width, height: height, adjustColors: { colors(for: source, $0) }) else {
            let format = source.pointee.format
            let name = av_get_pix_fmt_name(AVPixelFormat(rawValue: format)).map { String(cString: $0) } ?? "format \(format)"
            throw MediaError(kind: .internal, message: "libswscale cannot convert \(name) frames to RGB")
        }
        guard rgb.rows == height else {
            throw MediaError(kind: .internal, message: "libswscale converted \(rgb.rows) of \(height) rows to RGB")
        }
        return RGBImage(coded: rgb.pixels, codedWidth: width, codedHeight: height, stride: rgb.stride, rotation: rotation)
    }

    /// Tells the scaler the frame's colour matrix (BT.709 for most HD video, BT.601 otherwise) and
    /// range. Without it libswscale assumes BT.601 limited range whatever the frame says; yuvj*
    /// formats (JPEG) set full range themselves. Only when these change (nil otherwise), since
    /// setting them rebuilds the scaler's tables.
    private func colors(for frame: UnsafeMutablePointer<AVFrame>, _ details: PixelScaler.ColorDetails) -> PixelScaler.ColorDetails? {
        let colorspace = Int32(frame.pointee.colorspace.rawValue)
        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG
        let key = ColorKey(width: frame.pointee.width, height: frame.pointee.height, format: frame.pointee.format,
                           colorspace: colorspace, fullRange: fullRange)
        if configured == key { return nil }
        configured = key
        var wanted = details
        // sws_getCoefficients takes AVColorSpace's numbering and falls back to BT.601 for unknown values.
        wanted.inverseTable = sws_getCoefficients(colorspace)
        wanted.sourceRange = fullRange ? 1 : details.sourceRange
        wanted.destinationRange = 1
        return wanted
    }
}
