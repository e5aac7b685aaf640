import CFFmpeg

/// One compressed packet (AVPacket), reused for every read. Freed in deinit.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws {
        guard let packet = av_packet_alloc() else { throw MediaError.outOfMemory("a packet") }
        pointer = packet
    }

    deinit {
        var packet: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&packet)
    }

    var streamIndex: Int32 { pointer.pointee.stream_index }

    /// The presentation timestamp in stream time-base units; nil when the container gave none.
    var timestamp: Int64? {
        let pts = pointer.pointee.pts
        return pts != FFmpegStatus.noPTS ? pts : nil
    }

    /// Releases the packet's data so the next read does not leak it.
    func unref() { av_packet_unref(pointer) }
}
