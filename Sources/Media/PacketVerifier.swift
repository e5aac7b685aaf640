import CFFmpeg

/// Proves that a container holds all the packets it declares, by demuxing every packet
/// without decoding (I/O-bound: no pixel is decoded).
enum PacketVerifier {
    /// Throws `.invalidInput` "truncated video: …" when a read fails before the end, or when
    /// the video stream has fewer packets than the container declares; `.transient` for
    /// network failures. Consumes the demuxer's packets: use a fresh Demuxer afterwards.
    static func verify(_ demuxer: Demuxer, videoStream index: Int32) throws {
        let declared = Int(demuxer.stream(index).pointee.nb_frames)
        let packet = try Packet()
        var videoPackets = 0
        while try demuxer.read(into: packet) {
            if packet.streamIndex == index { videoPackets += 1 }
        }
        if declared > 0 && videoPackets < declared {
            throw MediaError.invalidInput(
                "truncated video: the container declares \(declared) video frames but only \(videoPackets) are present")
        }
    }
}
