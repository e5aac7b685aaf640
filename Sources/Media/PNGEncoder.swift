import CFFmpeg
import ReelworkCore

/// Packed RGB24 pixels as a PNG file, by libavcodec's PNG encoder (lossless, so what a person sees
/// is the decoded frame itself).
enum PNGEncoder {
    /// Encodes `pixels` (`width` × `height` × 3 bytes, rows top to bottom). Throws `.internal`
    /// when this FFmpeg has no PNG encoder or the encoder fails.
    static func encode(_ pixels: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        try StillImageEncoder.encode(pixels, width: width, height: height,
                                     as: .init(name: "PNG", encoderName: "PNG", codec: AV_CODEC_ID_PNG, pixelFormat: AV_PIX_FMT_RGB24)) { frame, pixels in
            guard let plane = frame.pointee.data.0 else { throw MediaError.outOfMemory("the PNG encoder's picture") }
            let stride = Int(frame.pointee.linesize.0), rowBytes = width * 3
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    (plane + y * stride).update(from: source.baseAddress! + y * rowBytes, count: rowBytes)
                }
            }
        }
    }
}
