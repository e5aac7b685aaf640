import CFFmpeg
import ReelworkCore

/// Packed RGB24 pixels as a PNG file, by libavcodec's PNG encoder (lossless, so what a person sees
/// is the decoded frame itself).
enum PNGEncoder {
    /// Encodes `pixels` (`width` × `height` × 3 bytes, rows top to bottom). Throws `.internal`
    /// when this FFmpeg has no PNG encoder or the encoder fails.
    static func encode(_ pixels: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0, pixels.count >= width * height * 3 else {
            throw MediaError(kind: .internal, message: "cannot encode \(pixels.count) bytes as a \(width)×\(height) PNG")
        }
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else {
            throw MediaError(kind: .internal, message: "this FFmpeg has no PNG encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError.outOfMemory("a PNG encoder") }
        var contextOrNil: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&contextOrNil) }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = AV_PIX_FMT_RGB24
        context.pointee.time_base = AVRational(num: 1, den: 25)
        try check(avcodec_open2(context, codec, nil), "cannot open the PNG encoder")

        let frame = try Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = AV_PIX_FMT_RGB24.rawValue
        try check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate the PNG encoder's picture")
        guard let plane = frame.pointer.pointee.data.0 else { throw MediaError.outOfMemory("the PNG encoder's picture") }
        let stride = Int(frame.pointer.pointee.linesize.0), rowBytes = width * 3
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<height {
                (plane + y * stride).update(from: source.baseAddress! + y * rowBytes, count: rowBytes)
            }
        }
        try check(avcodec_send_frame(context, frame.pointer), "the PNG encoder refused the picture")
        try check(avcodec_send_frame(context, nil), "the PNG encoder could not finish")
        let packet = try Packet()
        try check(avcodec_receive_packet(context, packet.pointer), "the PNG encoder gave no picture")
        defer { packet.unref() }
        let size = Int(packet.pointer.pointee.size)
        guard size > 0, let data = packet.pointer.pointee.data else { throw MediaError(kind: .internal, message: "the PNG encoder gave an empty picture") }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    private static func check(_ status: Int32, _ what: String) throws {
        if status < 0 { throw MediaError(kind: .internal, message: "\(what): \(FFmpegStatus.message(for: status))") }
    }
}
