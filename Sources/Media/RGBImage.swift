/// A picture as 8-bit RGB in display orientation (the video's rotation already applied), read-only.
///
/// A view, not a copy: it does not own its pixels. The one a `SampledFrame` carries is valid only
/// inside the callback that receives it. Rotation costs nothing here: a turned picture is the same
/// bytes read with other steps, so no rotated copy is ever made.
public struct RGBImage {
    /// Size as displayed (for a 90° or 270° rotation, the coded height and width).
    public let width: Int
    public let height: Int
    /// Pixel (0, 0) as displayed.
    let origin: UnsafePointer<UInt8>
    /// Bytes from displayed pixel (x, y) to (x + 1, y), and to (x, y + 1); negative when rotated.
    let columnStep: Int
    let rowStep: Int

    /// A view of packed RGB24 rows (`stride` bytes apart) of a `codedWidth` × `codedHeight`
    /// picture that a player turns `rotation` degrees clockwise (0, 90, 180 or 270) for display.
    init(coded pixels: UnsafePointer<UInt8>, codedWidth: Int, codedHeight: Int, stride: Int, rotation: Int) {
        let lastRow = (codedHeight - 1) * stride, lastColumn = (codedWidth - 1) * 3
        switch rotation {
        case 90:  // displayed (x, y) is coded (y, H - 1 - x)
            (width, height) = (codedHeight, codedWidth)
            (origin, columnStep, rowStep) = (pixels + lastRow, -stride, 3)
        case 180: // displayed (x, y) is coded (W - 1 - x, H - 1 - y)
            (width, height) = (codedWidth, codedHeight)
            (origin, columnStep, rowStep) = (pixels + lastRow + lastColumn, -3, -stride)
        case 270: // displayed (x, y) is coded (W - 1 - y, x)
            (width, height) = (codedHeight, codedWidth)
            (origin, columnStep, rowStep) = (pixels + lastColumn, stride, -3)
        default:
            (width, height) = (codedWidth, codedHeight)
            (origin, columnStep, rowStep) = (pixels, 3, stride)
        }
    }

    /// The red, green and blue values of displayed pixel (x, y); both must be inside the picture.
    public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) outside \(width)×\(height)")
        let p = origin + x * columnStep + y * rowStep
        return (p[0], p[1], p[2])
    }

    /// Calls `body` with a pointer to displayed pixel (0, `y`)'s red byte and the byte step from one
    /// displayed pixel to the next along the row (3 unrotated; negative or a row stride when turned).
    /// For per-frame scans that must neither copy nor allocate; the pointer must not escape `body`.
    public func withRow<R>(_ y: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R {
        precondition(y >= 0 && y < height, "row \(y) outside \(width)×\(height)")
        return try body(origin + y * rowStep, columnStep)
    }

    /// The pixels as packed RGB24 rows in display orientation (width × height × 3 bytes). Allocates:
    /// for tests and debugging, not for the per-frame path.
    public func packedPixels() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var index = 0
        for y in 0..<height {
            var p = origin + y * rowStep
            for _ in 0..<width {
                bytes[index] = p[0]; bytes[index + 1] = p[1]; bytes[index + 2] = p[2]
                index += 3
                p += columnStep
            }
        }
        return bytes
    }

    /// Calls `body` with a view of packed RGB24 `pixels` (`width` × `height` × 3 bytes, rows top to
    /// bottom) turned `rotation` degrees clockwise; the view must not escape `body`.
    public static func withPackedPixels<R>(_ pixels: [UInt8], width: Int, height: Int, rotation: Int = 0,
                                           _ body: (RGBImage) throws -> R) rethrows -> R {
        precondition(width > 0 && height > 0 && pixels.count >= width * height * 3, "need \(width)×\(height)×3 bytes")
        return try pixels.withUnsafeBufferPointer { buffer in
            try body(RGBImage(coded: buffer.baseAddress!, codedWidth: width, codedHeight: height, stride: width * 3, rotation: rotation))
        }
    }
}
