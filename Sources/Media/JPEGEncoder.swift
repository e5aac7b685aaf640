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
        guard width > 0, height > 0, pixels.count >= width * height * 3 else {
            throw MediaError(kind: .internal, message: "cannot encode \(pixels.count) bytes as a \(width)×\(height) JPEG")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw MediaError(kind: .internal, message: "this FFmpeg has no JPEG (MJPEG) encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError.outOfMemory("a JPEG encoder") }
        var contextOrNil: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&contextOrNil) }
        let lambda = Int32(min(31, max(2, quality))) * FF_QP2LAMBDA
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        // The full-range ("J") format is what a JFIF file holds; the encoder takes it as is.
        context.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        context.pointee.color_range = AVCOL_RANGE_JPEG
        context.pointee.time_base = AVRational(num: 1, den: 25)
        context.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        context.pointee.global_quality = lambda
        try check(avcodec_open2(context, codec, nil), "cannot open the JPEG encoder")

        let frame = try Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        frame.pointer.pointee.color_range = AVCOL_RANGE_JPEG
        frame.pointer.pointee.quality = lambda
        try check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate the JPEG encoder's picture")
        try fillPlanes(frame.pointer, from: pixels, width: width, height: height)
        try check(avcodec_send_frame(context, frame.pointer), "the JPEG encoder refused the picture")
        try check(avcodec_send_frame(context, nil), "the JPEG encoder could not finish")
        let packet = try Packet()
        try check(avcodec_receive_packet(context, packet.pointer), "the JPEG encoder gave no picture")
        defer { packet.unref() }
        let size = Int(packet.pointer.pointee.size)
        guard size > 0, let data = packet.pointer.pointee.data else { throw MediaError(kind: .internal, message: "the JPEG encoder gave an empty picture") }
        return Array(UnsafeBufferPointer(start: data, count: size))
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

    private static func check(_ status: Int32, _ what: String) throws {
        if status < 0 { throw MediaError(kind: .internal, message: "\(what): \(FFmpegStatus.message(for: status))") }
    }
}
