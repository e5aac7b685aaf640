import SportMath

/// The photo at the resolution the face finder works at: box-averaged by a whole factor so the
/// long side is at most `maxSide` (a 12 MP photo becomes about 1.3 MP), each pixel's RGB and colour
/// class kept. Working pixel (i, j) is the mean of the source's k × k block starting at (k·i, k·j),
/// so its centre is source pixel (k·i + (k − 1)/2, …).
struct WorkingImage: Sendable {
    static let maxSide = 1600

    let width: Int
    let height: Int
    /// The box factor k.
    let scale: Int
    let sourceWidth: Int
    let sourceHeight: Int
    var rgb: [UInt8]
    var labels: [RingColor]

    init(_ image: ArcheryImage) {
        let k = max(1, (max(image.width, image.height) + Self.maxSide - 1) / Self.maxSide)
        let w = image.width / k, h = image.height / k
        (width, height, scale, sourceWidth, sourceHeight) = (w, h, k, image.width, image.height)
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        var labels = [RingColor](repeating: .other, count: w * h)
        let sourceWidth = image.width
        image.pixels.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { out in
                labels.withUnsafeMutableBufferPointer { labelsOut in
                    var sums = [Int](repeating: 0, count: w * 3)
                    let area = k * k
                    for row in 0..<h {
                        for i in sums.indices { sums[i] = 0 }
                        for dy in 0..<k {
                            var s = ((row * k + dy) * sourceWidth) * 3
                            for column in 0..<w {
                                var r = 0, g = 0, b = 0
                                for _ in 0..<k {
                                    r += Int(source[s]); g += Int(source[s + 1]); b += Int(source[s + 2])
                                    s += 3
                                }
                                sums[column * 3] += r; sums[column * 3 + 1] += g; sums[column * 3 + 2] += b
                            }
                        }
                        for column in 0..<w {
                            let r = sums[column * 3] / area, g = sums[column * 3 + 1] / area, b = sums[column * 3 + 2] / area
                            let o = (row * w + column) * 3
                            out[o] = UInt8(r); out[o + 1] = UInt8(g); out[o + 2] = UInt8(b)
                            labelsOut[row * w + column] = RingColor.classify(r, g, b)
                        }
                    }
                }
            }
        }
        self.rgb = rgb
        self.labels = labels
    }

    @inline(__always) func label(_ x: Int, _ y: Int) -> RingColor { labels[y * width + x] }

    /// Source pixel coordinates of a working-pixel position.
    func sourcePoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let k = Double(scale)
        return (k * x + (k - 1) / 2, k * y + (k - 1) / 2)
    }

    /// The inverse of `sourcePoint`.
    func workingPoint(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let k = Double(scale)
        return ((x - (k - 1) / 2) / k, (y - (k - 1) / 2) / k)
    }

    /// The RGB colour at a working-pixel position, bilinear; nil where its 2 × 2 neighbourhood
    /// leaves the image.
    func colour(x: Double, y: Double) -> SIMD3<Double>? {
        // Compared as Doubles first: a NaN or a huge position is off the image, not a trap.
        guard x >= 0, y >= 0, x < Double(width - 1), y < Double(height - 1) else { return nil }
        let x0 = Int(x.rounded(.down)), y0 = Int(y.rounded(.down))
        let fx = x - Double(x0), fy = y - Double(y0)
        func at(_ px: Int, _ py: Int) -> SIMD3<Double> {
            let o = (py * width + px) * 3
            return SIMD3(Double(rgb[o]), Double(rgb[o + 1]), Double(rgb[o + 2]))
        }
        let top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx, bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx
        return top * (1 - fy) + bottom * fy
    }

    /// Working → source pixels as a homography (a scale and a shift).
    var toSource: Homography {
        let k = Double(scale), shift = (k - 1) / 2
        return Homography(h: [k, 0, shift, 0, k, shift, 0, 0, 1])
    }
}
