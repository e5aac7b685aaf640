import CFFmpeg
import Foundation
import ReelworkCore

/// An open container (libavformat), with its stream info read.
///
/// Owns the AVFormatContext and closes it in deinit, including when init throws after
/// opening. Not thread-safe: one thread uses one Demuxer at a time.
final class Demuxer {
    let location: MediaLocation
    let guards: MediaGuards
    private var context: UnsafeMutablePointer<AVFormatContext>?
    /// Kept alive for as long as the context may call it.
    private let interrupt: InterruptHandle?
    /// Each stream's picture size as the container's header gives it, before any frame was
    /// decoded: a probing decoder that refuses a picture over `maxPixels` forgets the size.
    private var declaredSizes: [(width: Int32, height: Int32)] = []

    /// Opens `location` and reads its stream info; throws a MediaError naming the problem
    /// (empty file, not a video file, truncated index, network failure, a stop requested).
    /// The decoders that stream probing opens refuse pictures larger than `guards.maxPixels`.
    init(location: MediaLocation, guards: MediaGuards = MediaGuards()) throws {
        FFmpegLibrary.prepare()
        self.location = location
        self.guards = guards
        interrupt = InterruptHandle(guards)
        // An empty file gives FFmpeg's generic "Invalid data"; say what it really is.
        if location.localFileSize == 0 { throw MediaError.invalidInput("the file is empty") }

        var options = location.openOptions(authorization: guards.httpAuthorization)
        defer { av_dict_free(&options) }
        guard var opened = avformat_alloc_context() else { throw MediaError.outOfMemory("a demuxer") }
        if let interrupt { opened.pointee.interrupt_callback = interrupt.callback }
        var openedOrNil: UnsafeMutablePointer<AVFormatContext>? = opened
        let status = avformat_open_input(&openedOrNil, location.string, nil, &options)
        // On failure avformat_open_input frees the context itself and leaves it nil.
        guard status >= 0, let openedOrNil else { throw Self.openError(status, location, guards) }
        opened = openedOrNil
        context = opened
        declaredSizes = (0..<Int(opened.pointee.nb_streams)).map { i in
            opened.pointee.streams[i].map { ($0.pointee.codecpar.pointee.width, $0.pointee.codecpar.pointee.height) } ?? (0, 0)
        }

        let info = Self.findStreamInfo(opened, guards)
        if info < 0 { throw MediaError.ffmpeg(info, "cannot read the stream info of \(location.string)", at: location) }
    }

    /// avformat_find_stream_info, with each stream's probing decoder bounded like ours.
    private static func findStreamInfo(_ format: UnsafeMutablePointer<AVFormatContext>, _ guards: MediaGuards) -> Int32 {
        let count = Int(format.pointee.nb_streams)
        guard guards.maxPixels != nil, count > 0 else { return avformat_find_stream_info(format, nil) }
        var perStream = (0..<count).map { _ in guards.decoderOptions() }
        defer { for i in perStream.indices { av_dict_free(&perStream[i]) } }
        return perStream.withUnsafeMutableBufferPointer { avformat_find_stream_info(format, $0.baseAddress) }
    }

    deinit {
        avformat_close_input(&context)
    }

    private var format: UnsafeMutablePointer<AVFormatContext> { context! }

    /// libavformat's name for the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    var containerName: String { String(cString: format.pointee.iformat.pointee.name) }

    /// The container's duration in seconds, when it declares one.
    var declaredDuration: Double? {
        let duration = format.pointee.duration
        guard duration != FFmpegStatus.noPTS, duration > 0 else { return nil }
        return Double(duration) / Double(reelwork_av_time_base())
    }

    /// The picture size of stream `index`: what probing found, else what the header declared.
    func pictureSize(_ index: Int32) -> (width: Int, height: Int) {
        let parameters = stream(index).pointee.codecpar.pointee
        if parameters.width > 0 && parameters.height > 0 { return (Int(parameters.width), Int(parameters.height)) }
        let declared: (width: Int32, height: Int32) = declaredSizes.indices.contains(Int(index)) ? declaredSizes[Int(index)] : (0, 0)
        return (Int(declared.width), Int(declared.height))
    }

    /// The value of metadata tag `key` (case-insensitive) of the container, else of the first
    /// stream that has it; nil when none does.
    func metadata(_ key: String) -> String? {
        let dictionaries = [format.pointee.metadata] + streams.map(\.pointee.metadata)
        for dictionary in dictionaries {
            if let entry = av_dict_get(dictionary, key, nil, 0), let value = entry.pointee.value { return String(cString: value) }
        }
        return nil
    }

    /// The stream at `index`; valid while this Demuxer lives.
    func stream(_ index: Int32) -> UnsafeMutablePointer<AVStream> {
        format.pointee.streams[Int(index)]!
    }

    private var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(format.pointee.nb_streams)).compactMap { format.pointee.streams[$0] }
    }

    /// The index of the best video stream, one that FFmpeg can decode.
    /// Throws "no video stream (found: …)" or "no decoder for codec '…'".
    func bestVideoStreamIndex() throws -> Int32 {
        let index = av_find_best_stream(format, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        // A cover image (an mp3's album art) is a one-picture "video" stream, not a video.
        guard index >= 0, stream(index).pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0 else {
            // A file cut inside its header can open with its streams half-described.
            if let problem = ContainerDiagnosis.problem(at: location, guards: guards) { throw MediaError.invalidInput(problem) }
            throw MediaError.invalidInput("no video stream (found: \(streamKinds()))")
        }
        let parameters = stream(index).pointee.codecpar!
        guard avcodec_find_decoder(parameters.pointee.codec_id) != nil else {
            throw MediaError.invalidInput("no decoder for codec '\(Self.codecName(parameters))'")
        }
        return index
    }

    /// FFmpeg's short codec name, or the container's four-character tag when FFmpeg does
    /// not know the codec (its name would just be "none").
    static func codecName(_ parameters: UnsafePointer<AVCodecParameters>) -> String {
        let id = parameters.pointee.codec_id
        if id != AV_CODEC_ID_NONE { return String(cString: avcodec_get_name(id)) }
        let tag = parameters.pointee.codec_tag
        let bytes = [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: tag >> $0) }
        guard tag != 0, bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { return "unknown" }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// What the streams are, e.g. "audio, subtitle", for the "no video stream" message.
    private func streamKinds() -> String {
        var kinds: [String] = []
        for stream in streams {
            let kind: String
            if stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 {
                kind = "cover image"
            } else if let name = av_get_media_type_string(stream.pointee.codecpar.pointee.codec_type) {
                kind = String(cString: name)
            } else {
                kind = "unknown"
            }
            if !kinds.contains(kind) { kinds.append(kind) }
        }
        return kinds.isEmpty ? "no streams" : kinds.joined(separator: ", ")
    }

    /// Tells the demuxer not to return (and, where it can, not to read) other streams' packets.
    func discardAllStreams(except index: Int32) {
        for (i, stream) in streams.enumerated() where i != Int(index) {
            stream.pointee.discard = AVDISCARD_ALL
        }
    }

    /// The size of the input in bytes, when the I/O layer knows it.
    var byteSize: Int64? {
        guard let io = format.pointee.pb else { return nil }
        let size = avio_size(io)
        return size >= 0 ? size : nil
    }

    /// Throws "truncated video" when the container's index (e.g. an mp4's moov) points at
    /// data past the end of the file: the file was cut short after the index was written.
    /// Costs no I/O; does nothing when the size or the index is unknown.
    func checkIndexFitsInFile() throws {
        guard let size = byteSize, size > 0 else { return }
        var indexedEnd: Int64 = 0
        for stream in streams {
            for i in 0..<avformat_index_get_entries_count(stream) {
                guard let entry = avformat_index_get_entry(stream, i) else { continue }
                // Positions come from the file: a sum past Int64.max lies past any file's end.
                indexedEnd = max(indexedEnd, entry.pointee.pos.checkedAdding(Int64(entry.pointee.size)) ?? .max)
            }
        }
        if indexedEnd > size {
            throw MediaError.invalidInput(
                "truncated video: the file ends at byte \(size) but its index points to data up to byte \(indexedEnd)")
        }
    }

    /// Moves reading to the key frame at or before `timestamp` (in `stream`'s time base), so
    /// decoding from there reaches that time without decoding the video from its start. Returns
    /// false when the container cannot seek (reading then goes on from where it was).
    func seek(stream index: Int32, toKeyFrameBefore timestamp: Int64) -> Bool {
        avformat_seek_file(format, index, Int64.min, timestamp, timestamp, AVSEEK_FLAG_BACKWARD) >= 0
    }

    /// Reads the next packet of a stream not discarded into `packet`; returns false at the end.
    /// A read error before the end throws: `.transient` for network I/O failures, otherwise
    /// `.invalidInput` "truncated video: …".
    func read(into packet: Packet) throws -> Bool {
        packet.unref()
        var status = av_read_frame(format, packet.pointer)
        // Only non-blocking inputs say EAGAIN; ours block, but if one ever does, wait a little
        // and retry, for at most about a second, rather than spin or hang.
        for _ in 0..<100 where status == FFmpegStatus.tryAgain {
            usleep(10_000)
            status = av_read_frame(format, packet.pointer)
        }
        if status >= 0 { return true }
        // At a network drop libavformat may report plain EOF and keep the cause in pb->error.
        let ioError = format.pointee.pb?.pointee.error ?? 0
        if status == FFmpegStatus.endOfFile && (ioError == 0 || ioError == FFmpegStatus.endOfFile) { return false }
        throw readError(status == FFmpegStatus.endOfFile ? ioError : status)
    }

    private func readError(_ status: Int32) -> MediaError {
        let position = format.pointee.pb.map { avio_tell($0) } ?? 0
        let kind = location.errorKind(for: status)
        if kind != .invalidInput {
            return MediaError.ffmpeg(status, "reading \(location.string) failed at byte \(position)", at: location)
        }
        let of = byteSize.map { " of \($0)" } ?? ""
        return MediaError.ffmpeg(status, "truncated video: reading stopped at byte \(position)\(of)", at: location)
    }

    private static func openError(_ status: Int32, _ location: MediaLocation, _ guards: MediaGuards) -> MediaError {
        if location.errorKind(for: status) != .invalidInput {
            return MediaError.ffmpeg(status, "cannot read \(location.string)", at: location)
        }
        switch status {
        case FFmpegStatus.invalidData, FFmpegStatus.endOfFile:
            // FFmpeg only says "Invalid data"; look at the bytes to tell a cut-off file apart.
            if let problem = ContainerDiagnosis.problem(at: location, guards: guards) { return .invalidInput(problem) }
            return MediaError.ffmpeg(status, "not a video file", at: location)
        default:
            return MediaError.ffmpeg(status, "cannot open \(location.string)", at: location)
        }
    }
}
