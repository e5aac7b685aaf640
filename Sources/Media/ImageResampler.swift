import ReelworkCore

/// Bilinear resampling of an `RGBImage` straight into a float model input (RGB, values 0…1).
///
/// The rule is the one tools/models/README.md states and `reference_infer.py` executes, reproduced
/// operation for operation in float32 so both give the same bits: the source coordinate of output
/// pixel o is `s = start + (o + 0.5) · step − 0.5`; rows are blended first, then columns; then ÷ 255.
/// (libswscale's bilinear filter widens with the scale factor when shrinking, so its results differ
/// from this rule by several levels; it is only used for the colour conversion.)
///
/// Owns its lookup tables and reuses them, so after the first call of a size nothing is allocated.
/// One caller at a time.
public final class ImageResampler {
    private var columns = AxisTable()
    private var rows = AxisTable()

    public init() {}

    /// Stretches the whole image to `width` × `height` (no aspect kept): edges clamped (the border
    /// pixels repeat). Writes exactly `3 · width · height` floats into `output`.
    public func resize(_ image: RGBImage, into output: borrowing FixedBuffer<Float>, width: Int, height: Int,
                       layout: PixelLayout) {
        precondition(output.count >= 3 * width * height, "output holds \(output.count) floats, needs \(3 * width * height)")
        columns.fill(count: width, start: 0, step: Double(image.width) / Double(width), sourceCount: image.width,
                     byteStep: image.columnStep, clamp: true)
        rows.fill(count: height, start: 0, step: Double(image.height) / Double(height), sourceCount: image.height,
                  byteStep: image.rowStep, clamp: true)
        output.withUnsafeMutableBufferPointer {
            blend(image, $0, outputWidth: width, outputHeight: height, left: 0, top: 0, layout: layout)
        }
    }

    /// Resamples the square `side` × `side` source region whose top-left corner is (`left`, `top`)
    /// (source pixels, not rounded, may reach outside the image) onto `size` × `size`; outside the
    /// image the picture is black (0). Writes `3 · size · size` floats.
    public func crop(_ image: RGBImage, left: Double, top: Double, side: Double, into output: borrowing FixedBuffer<Float>,
                     size: Int, layout: PixelLayout) {
        output.withUnsafeMutableBufferPointer {
            writeCrop(image, left: left, top: top, side: side, into: $0, size: size, layout: layout)
        }
    }

    /// `crop` into an array of at least `3 · size · size` floats (a tensor staged for another thread).
    public func crop(_ image: RGBImage, left: Double, top: Double, side: Double, into output: inout [Float],
                     size: Int, layout: PixelLayout) {
        output.withUnsafeMutableBufferPointer {
            writeCrop(image, left: left, top: top, side: side, into: $0, size: size, layout: layout)
        }
    }

    private func writeCrop(_ image: RGBImage, left: Double, top: Double, side: Double, into output: UnsafeMutableBufferPointer<Float>,
                           size: Int, layout: PixelLayout) {
        precondition(output.count >= 3 * size * size, "output holds \(output.count) floats, needs \(3 * size * size)")
        precondition(side > 0, "empty crop")
        let step = side / Double(size)
        columns.fill(count: size, start: left, step: step, sourceCount: image.width, byteStep: image.columnStep, clamp: false)
        rows.fill(count: size, start: top, step: step, sourceCount: image.height, byteStep: image.rowStep, clamp: false)
        blend(image, output, outputWidth: size, outputHeight: size, left: 0, top: 0, layout: layout)
    }

    /// Scales the image to fit `width` × `height` keeping its aspect, centred, the rest filled with
    /// `padding` (Ultralytics' letterbox: grey 114/255). Writes `3 · width · height` floats.
    @discardableResult
    public func letterbox(_ image: RGBImage, into output: borrowing FixedBuffer<Float>, width: Int, height: Int,
                          layout: PixelLayout, padding: Float = 114 / 255) -> LetterboxPlacement {
        precondition(output.count >= 3 * width * height, "output holds \(output.count) floats, needs \(3 * width * height)")
        let scale = min(Double(width) / Double(image.width), Double(height) / Double(image.height))
        let fitWidth = max(1, min(width, Int((Double(image.width) * scale).rounded())))
        let fitHeight = max(1, min(height, Int((Double(image.height) * scale).rounded())))
        let left = Int((Double(width - fitWidth) / 2 - 0.1).rounded()), top = Int((Double(height - fitHeight) / 2 - 0.1).rounded())
        output.fill(with: padding)
        columns.fill(count: fitWidth, start: 0, step: Double(image.width) / Double(fitWidth), sourceCount: image.width,
                     byteStep: image.columnStep, clamp: true)
        rows.fill(count: fitHeight, start: 0, step: Double(image.height) / Double(fitHeight), sourceCount: image.height,
                  byteStep: image.rowStep, clamp: true)
        output.withUnsafeMutableBufferPointer {
            blend(image, $0, outputWidth: width, outputHeight: height, left: left, top: top, layout: layout)
        }
        return LetterboxPlacement(left: left, top: top, width: fitWidth, height: fitHeight,
                                  sourcePerInputPixel: Double(image.width) / Double(fitWidth))
    }

    /// Writes the `columns.count` × `rows.count` block at (`left`, `top`) of the output.
    private func blend(_ image: RGBImage, _ output: UnsafeMutableBufferPointer<Float>, outputWidth: Int, outputHeight: Int,
                       left: Int, top: Int, layout: PixelLayout) {
        let base = output.baseAddress!
        let plane = outputWidth * outputHeight
        let (xFirst, xSecond, xKeep, xTake) = (columns.first, columns.second, columns.keep, columns.take)
        for j in 0..<rows.count {
            let rowA = image.origin + rows.first[j], rowB = image.origin + rows.second[j]
            let keepY = rows.keep[j], takeY = rows.take[j]
            let y = top + j
            for i in 0..<columns.count {
                let a0 = rowA + xFirst[i], a1 = rowA + xSecond[i], b0 = rowB + xFirst[i], b1 = rowB + xSecond[i]
                let keepX = xKeep[i], takeX = xTake[i]
                let x = left + i
                for c in 0..<3 {
                    // Rows first: the value at each of the two source columns, then across them.
                    let atFirst = Float(a0[c]) * keepY + Float(b0[c]) * takeY
                    let atSecond = Float(a1[c]) * keepY + Float(b1[c]) * takeY
                    let value = (atFirst * keepX + atSecond * takeX) / 255
                    switch layout {
                    case .planar: base[c * plane + y * outputWidth + x] = value
                    case .interleaved: base[(y * outputWidth + x) * 3 + c] = value
                    }
                }
            }
        }
    }
}

/// For each output position along one axis: the two source pixels (as byte offsets from the
/// image's origin) and their weights. Arrays keep their capacity between calls.
struct AxisTable {
    var count = 0
    var first: [Int] = [], second: [Int] = []
    /// Weights of the first and second pixel: 1 − f and f, or 0 for a pixel outside the image
    /// (weight 0 gives exactly the reference's "the sample reads 0": x · 0 = 0 for any pixel value).
    var keep: [Float] = [], take: [Float] = []

    /// `clamp`: edge pixels repeat (whole-image resize); otherwise pixels outside read 0 (crops).
    mutating func fill(count: Int, start: Double, step: Double, sourceCount: Int, byteStep: Int, clamp: Bool) {
        self.count = count
        first.removeAll(keepingCapacity: true); second.removeAll(keepingCapacity: true)
        keep.removeAll(keepingCapacity: true); take.removeAll(keepingCapacity: true)
        for o in 0..<count {
            // Same operation order as reference_infer.py's bilinear_weights, in float64.
            var s = start + (Double(o) + 0.5) * step - 0.5
            if clamp { s = max(s, 0) }
            let floor = s.rounded(.down)
            let f = Float(s - floor)
            var i0 = Int(floor), i1 = i0 + 1
            var w0: Float = 1 - f, w1 = f
            if clamp {
                i0 = min(i0, sourceCount - 1)
                i1 = min(i1, sourceCount - 1)
            } else {
                if i0 < 0 || i0 >= sourceCount { w0 = 0 }
                if i1 < 0 || i1 >= sourceCount { w1 = 0 }
                // Any in-image pixel will do for a weight-0 read; this keeps every read inside the picture.
                i0 = min(max(i0, 0), sourceCount - 1)
                i1 = min(max(i1, 0), sourceCount - 1)
            }
            first.append(i0 * byteStep); second.append(i1 * byteStep)
            keep.append(w0); take.append(w1)
        }
    }
}
