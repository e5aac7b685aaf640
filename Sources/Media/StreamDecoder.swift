import CFFmpeg

/// A libavcodec decoder opened for one stream. Owns the AVCodecContext (freed in deinit).
final class StreamDecoder {
    enum SendResult {
        case accepted
        /// The decoder has output waiting; receive frames, then send the same packet again.
        case full
        /// The decoder refused the packet (damaged data); it was not consumed.
        case rejected(Int32)
    }

    enum ReceiveResult {
        case frame
        /// Send more input first.
        case needsInput
        /// Fully drained after end of stream.
        case finished
        /// Decoding one packet failed; later calls go on with the next one.
        case failed(Int32)
    }

    private var context: UnsafeMutablePointer<AVCodecContext>?

    /// Opens the decoder for `stream` of `demuxer` with `threads` threads (0 = FFmpeg picks,
    /// one per core plus one), using frame and slice threading where the codec supports them.
    /// Frames larger than `guards.maxPixels` are refused by the decoder (counted as damaged), so a
    /// stream that switches to a huge picture mid-way cannot take the memory for it.
    /// `reducedScale`: decode at 1/2^n of the size where the codec can (FFmpeg's `lowres`, 0–3 for
    /// JPEG), for a decode that only needs the picture's headers and side data.
    init(_ demuxer: Demuxer, streamIndex: Int32, threads: Int, guards: MediaGuards, reducedScale: Int = 0) throws {
        let stream = demuxer.stream(streamIndex)
        let parameters = stream.pointee.codecpar!
        guard let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw MediaError.invalidInput("no decoder for codec '\(Demuxer.codecName(parameters))'")
        }
        guard let context = avcodec_alloc_context3(codec) else { throw MediaError.outOfMemory("a decoder") }
        self.context = context

        let copied = avcodec_parameters_to_context(context, parameters)
        if copied < 0 { throw MediaError.ffmpeg(copied, "cannot set up the decoder", at: demuxer.location) }
        // Threading must be configured before avcodec_open2; afterwards it is fixed.
        // Frame threading is what makes H.264 decoding scale across cores.
        context.pointee.thread_count = Int32(clamping: max(0, threads))
        context.pointee.thread_type = FF_THREAD_FRAME | FF_THREAD_SLICE
        // Lets the decoder compute best_effort_timestamp in the stream's units.
        context.pointee.pkt_timebase = stream.pointee.time_base

        var options = guards.decoderOptions()
        defer { av_dict_free(&options) }
        if reducedScale > 0 { av_dict_set(&options, "lowres", String(min(reducedScale, Int(codec.pointee.max_lowres))), 0) }
        let opened = avcodec_open2(context, codec, &options)
        if opened < 0 {
            throw MediaError.ffmpeg(opened, "cannot open the \(String(cString: codec.pointee.name)) decoder", at: demuxer.location)
        }
    }

    deinit {
        avcodec_free_context(&context)
    }

    /// Forgets every frame and reference the decoder holds (after a seek, before the new position's packets).
    func flush() {
        avcodec_flush_buffers(context)
    }

    /// Sends one packet, or nil to start draining at the end of the stream. With `droppingIfUnreferenced`
    /// the decoder leaves the packet's frame out, undecoded, when no other frame refers to it
    /// (skip_frame = AVDISCARD_NONREF, for this packet only); a reference frame is decoded as usual.
    /// Decoders that do not support it decode the frame.
    func send(_ packet: Packet?, droppingIfUnreferenced: Bool = false) -> SendResult {
        // Read when the packet is submitted (with frame threading, copied to the thread that decodes
        // it), so it can change from one packet to the next.
        context?.pointee.skip_frame = packet != nil && droppingIfUnreferenced ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
        let status = avcodec_send_packet(context, packet?.pointer)
        if status >= 0 { return .accepted }
        if status == FFmpegStatus.tryAgain { return .full }
        // EOF here means draining had already started: nothing more to accept.
        if status == FFmpegStatus.endOfFile { return .accepted }
        return .rejected(status)
    }

    /// Receives the next decoded frame into `frame` (replacing what it held).
    func receive(into frame: Frame) -> ReceiveResult {
        let status = avcodec_receive_frame(context, frame.pointer)
        if status >= 0 { return .frame }
        if status == FFmpegStatus.tryAgain { return .needsInput }
        if status == FFmpegStatus.endOfFile { return .finished }
        return .failed(status)
    }
}
