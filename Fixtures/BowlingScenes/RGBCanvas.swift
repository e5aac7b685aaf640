import SportMath

/// An rgb24 image with the few fills the bowling scene needs. A pixel is covered when its centre
/// (integer coordinates, see `ImagePoint`) is inside the shape: crisp edges, no randomness.
struct RGBCanvas {
    let width: Int
    let height: Int
    var pixels: [UInt8]

    init(width: Int, height: Int, color: RGBColor) {
        self.width = width
        self.height = height
        pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in stride(from: 0, to: buffer.count, by: 3) {
                buffer[i] = color.r
                buffer[i + 1] = color.g
                buffer[i + 2] = color.b
            }
        }
    }

    /// Fills a convex polygon (a projected lane quad stays convex under a pinhole projection).
    mutating func fillConvexPolygon(_ corners: [ImagePoint], color: RGBColor) {
        guard corners.count >= 3 else { return }
        let top = max(0, Int(corners.map(\.y).min()!.rounded(.up)))
        let bottom = min(height - 1, Int(corners.map(\.y).max()!.rounded(.down)))
        guard top <= bottom else { return }
        let width = self.width
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top...bottom {
                let y = Double(row)
                var left = Double.infinity, right = -Double.infinity
                for k in corners.indices {
                    let p = corners[k], q = corners[(k + 1) % corners.count]
                    guard (p.y <= y && y <= q.y) || (q.y <= y && y <= p.y) else { continue }
                    let x = p.y == q.y ? min(p.x, q.x) : p.x + (y - p.y) * (q.x - p.x) / (q.y - p.y)
                    let x2 = p.y == q.y ? max(p.x, q.x) : x
                    left = min(left, x)
                    right = max(right, x2)
                }
                guard left <= right else { continue }
                let first = max(0, Int(left.rounded(.up))), last = min(width - 1, Int(right.rounded(.down)))
                guard first <= last else { continue }
                for column in first...last {
                    let i = (row * width + column) * 3
                    buffer[i] = color.r
                    buffer[i + 1] = color.g
                    buffer[i + 2] = color.b
                }
            }
        }
    }

    /// Fills a disc; with `noise`, each channel of each covered pixel moves by up to ± amplitude.
    mutating func fillDisc(centre: ImagePoint, radius: Double, color: RGBColor,
                           noise: inout SeededRandom, noiseAmplitude: Int = 0) {
        Self.fillDisc(in: &pixels, width: width, height: height, centre: centre, radius: radius,
                      color: color, noise: &noise, noiseAmplitude: noiseAmplitude)
    }

    /// The same fill on a caller's frame buffer, so the per-frame ball drawing needs no canvas copy.
    static func fillDisc(in buffer: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
                         centre: ImagePoint, radius: Double, color: RGBColor,
                         noise: inout SeededRandom, noiseAmplitude: Int) {
        guard radius > 0 else { return }
        let top = max(0, Int((centre.y - radius).rounded(.up)))
        let bottom = min(height - 1, Int((centre.y + radius).rounded(.down)))
        guard top <= bottom else { return }
        let r2 = radius * radius
        for row in top...bottom {
            let dy = Double(row) - centre.y
            let halfWidth = (r2 - dy * dy).squareRoot()
            let first = max(0, Int((centre.x - halfWidth).rounded(.up)))
            let last = min(width - 1, Int((centre.x + halfWidth).rounded(.down)))
            guard first <= last else { continue }
            for column in first...last {
                let i = (row * width + column) * 3
                if noiseAmplitude > 0 {
                    buffer[i] = clampByte(Int(color.r) + noise.offset(amplitude: noiseAmplitude))
                    buffer[i + 1] = clampByte(Int(color.g) + noise.offset(amplitude: noiseAmplitude))
                    buffer[i + 2] = clampByte(Int(color.b) + noise.offset(amplitude: noiseAmplitude))
                } else {
                    buffer[i] = color.r
                    buffer[i + 1] = color.g
                    buffer[i + 2] = color.b
                }
            }
        }
    }

    static func fillDisc(in pixels: inout [UInt8], width: Int, height: Int, centre: ImagePoint, radius: Double,
                         color: RGBColor, noise: inout SeededRandom, noiseAmplitude: Int) {
        pixels.withUnsafeMutableBufferPointer { buffer in
            fillDisc(in: buffer, width: width, height: height, centre: centre, radius: radius, color: color,
                     noise: &noise, noiseAmplitude: noiseAmplitude)
        }
    }

    /// Adds ± amplitude to every channel: used once per backdrop variant, never per frame (slow in DEBUG).
    mutating func addNoise(_ noise: inout SeededRandom, amplitude: Int) {
        guard amplitude > 0 else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            for i in buffer.indices {
                buffer[i] = clampByte(Int(buffer[i]) + noise.offset(amplitude: amplitude))
            }
        }
    }
}

@inline(__always) func clampByte(_ value: Int) -> UInt8 {
    UInt8(max(0, min(255, value)))
}
