import CFFmpeg
import ReelworkCore

/// One picture through one libavcodec image encoder (PNG, MJPEG): the context, the frame, the
/// send–flush–receive round and the packet's bytes, with every failure an `.internal` MediaError
/// naming the format. `PNGEncoder` and `JPEGEncoder` say only what differs: the pixel format, the
/// encoder's settings and how the RGB pixels fill the frame.
enum StillImageEncoder {
    struct Format {
        /// The format's name in messages ("PNG").
        var name: String
        /// The encoder's name where it may be missing ("JPEG (MJPEG)").
        var encoderName: String
        var codec: AVCodecID
        var pixelFormat: AVPixelFormat
    }

    /// Encodes `pixels` (`width` × `height` × 3 bytes of RGB24). `configure` sets the encoder's
    /// options and the frame's before the encoder opens and the frame's planes are allocated;
    /// `fill` writes the pixels into the allocated frame.
    static func encode(_ pixels: [UInt8], width: Int, height: Int, as format: Format,
                       configure: (UnsafeMutablePointer<AVCodecContext>, UnsafeMutablePointer<AVFrame>) -> Void = { _, _ in },
                       fill: (UnsafeMutablePointer<AVFrame>, [UInt8]) throws -> Void) throws -> [UInt8] {
        guard width > 0, height > 0, pixels.count >= width * height * 3 else {
            throw MediaError(kind: .internal, message: "cannot encode \(pixels.count) bytes as a \(width)×\(height) \(format.name)")
        }
        guard let codec = avcodec_find_encoder(format.codec) else {
            throw MediaError(kind: .internal, message: "this FFmpeg has no \(format.encoderName) encoder")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError.outOfMemory("a \(format.name) encoder") }
        var contextOrNil: UnsafeMutablePointer<AVCodecContext>? = context
        defer { avcodec_free_context(&contextOrNil) }
        context.pointee.width = Int32(width)
        context.pointee.height = Int32(height)
        context.pointee.pix_fmt = format.pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 25)
        let frame = try Frame()
        frame.pointer.pointee.width = Int32(width)
        frame.pointer.pointee.height = Int32(height)
        frame.pointer.pointee.format = format.pixelFormat.rawValue
        configure(context, frame.pointer)
        try check(avcodec_open2(context, codec, nil), "cannot open the \(format.name) encoder")
        try check(av_frame_get_buffer(frame.pointer, 0), "cannot allocate the \(format.name) encoder's picture")
        try fill(frame.pointer, pixels)
        try check(avcodec_send_frame(context, frame.pointer), "the \(format.name) encoder refused the picture")
        try check(avcodec_send_frame(context, nil), "the \(format.name) encoder could not finish")
        let packet = try Packet()
        try check(avcodec_receive_packet(context, packet.pointer), "the \(format.name) encoder gave no picture")
        defer { packet.unref() }
        let size = Int(packet.pointer.pointee.size)
        guard size > 0, let data = packet.pointer.pointee.data else {
            throw MediaError(kind: .internal, message: "the \(format.name) encoder gave an empty picture")
        }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    private static func check(_ status: Int32, _ what: String) throws {
        if status < 0 { throw MediaError(kind: .internal, message: "\(what): \(FFmpegStatus.message(for: status))") }
    }
}
