import CFFmpeg
import ReelworkCore

/// Packed RGB24 pixels as a baseline JPEG (JFIF), by libavcodec's MJPEG encoder: how a report's
/// PDF carries video frames (lossy like the video they came from, a small share of a lossless
/// image's bytes).
public enum JPEGEncoder {
    /// libavcodec's quantiser scale, 2 (finest) to 31: 3 keeps a frame's detail at print size.
    public static let defaultQuality = 3

    /// Encodes `pixels` (`width` × `height` × 3 bytes, rows top to bottom) with 4:2:0 chroma.
    /// Throws `.internal` when this FFmpeg has no MJPEG encoder or the encoder fails.
    public static func encode(_ pixels: [UInt8], width: Int, height: Int, quality: Int = defaultQuality) throws -> [UInt8] {
        let lambda = Int32(min(31, max(2, quality))) * FF_QP2LAMBDA
        // The full-range ("J") format is what a JFIF file holds; the encoder takes it as is.
        let format = StillImageEncoder.Format(name: "JPEG", encoderName: "JPEG (MJPEG)", codec: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ420P)
        return try StillImageEncoder.encode(pixels, width: width, height: height, as: format, configure: { context, frame in
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
            context.pointee.global_quality = lambda
            frame.pointee.color_range = AVCOL_RANGE_JPEG
            frame.pointee.quality = lambda
        }, fill: { frame, pixels in
            try fillPlanes(frame, from: pixels, width: width, height: height)
        })
    }

    /// RGB to JFIF's full-range Y′CbCr (BT.601 weights), chroma averaged over each 2 × 2 block.
    private static func fillPlanes(_ frame: UnsafeMutablePointer<AVFrame>, from rgb: [UInt8], width: Int, height: Int) throws {
        guard let yPlane = frame.pointee.data.0, let cbPlane = frame.pointee.data.1, let crPlane = frame.pointee.data.2 else {
            throw MediaError.outOfMemory("the JPEG encoder's picture")
        }
        let yStride = Int(frame.pointee.linesize.0), cbStride = Int(frame.pointee.linesize.1), crStride = Int(frame.pointee.linesize.2)
        func byte(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value.rounded()))) }
        rgb.withUnsafeBufferPointer { source in
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    let r = Double(source[i]), g = Double(source[i + 1]), b = Double(source[i + 2])
                    yPlane[y * yStride + x] = byte(0.299 * r + 0.587 * g + 0.114 * b)
                }
            }
            for cy in 0..<(height + 1) / 2 {
                for cx in 0..<(width + 1) / 2 {
                    var r = 0.0, g = 0.0, b = 0.0, n = 0.0
                    for y in (2 * cy)..<min(height, 2 * cy + 2) {
                        for x in (2 * cx)..<min(width, 2 * cx + 2) {
                            let i = (y * width + x) * 3
                            r += Double(source[i]); g += Double(source[i + 1]); b += Double(source[i + 2]); n += 1
                        }
                    }
                    (r, g, b) = (r / n, g / n, b / n)
                    cbPlane[cy * cbStride + cx] = byte(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
                    crPlane[cy * crStride + cx] = byte(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
                }
            }
        }
    }
}
