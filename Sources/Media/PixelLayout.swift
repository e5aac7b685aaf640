/// How a float image tensor is laid out.
public enum PixelLayout: Sendable, Equatable {
    /// NCHW: all red values, then all green, then all blue (YOLO's input).
    case planar
    /// NHWC: red, green, blue of each pixel together (BlazePose's input).
    case interleaved
}

/// Where a letterboxed picture landed inside the model input, to map results back.
public struct LetterboxPlacement: Sendable, Equatable {
    /// The picture's top-left corner and size inside the input, in input pixels.
    public var left: Int, top: Int, width: Int, height: Int
    /// Source pixels per input pixel (the same on both axes).
    public var sourcePerInputPixel: Double

    public init(left: Int, top: Int, width: Int, height: Int, sourcePerInputPixel: Double) {
        self.left = left
        self.top = top
        self.width = width
        self.height = height
        self.sourcePerInputPixel = sourcePerInputPixel
    }
}
