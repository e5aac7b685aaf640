/// One frame a `FrameSampling` passed on, handed to `VideoDecoder.decodeAll`'s callback.
///
/// Its `image` points into the decoder's reused RGB buffer: it is valid only inside the callback
/// (copy what must outlive it, e.g. with `RGBImage.packedPixels()`).
public struct SampledFrame {
    /// Position among all decoded frames, 0-based, in presentation order.
    public let frameIndex: Int
    /// Position among the sampled frames, 0-based.
    public let sampleIndex: Int
    /// Presentation time in seconds from the stream's start, from the frame's own timestamp.
    public let time: Double
    /// The picture as RGB, in display orientation (the video's rotation applied).
    public let image: RGBImage
}
