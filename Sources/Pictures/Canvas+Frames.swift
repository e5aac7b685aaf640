import CCairo
import Media

/// Video frames on a canvas: the picture a result is drawn over.
extension Canvas {
    /// Paints `source` (the frame's pixels, all of it unless given) of `frame` into `rect`, scaled
    /// to fill it. In a PDF the frame goes in as a lossless image at its own resolution.
    public func draw(_ frame: FramePixels, in rect: Rect, source: Rect? = nil) {
        let crop = source ?? Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
        guard crop.width > 0, crop.height > 0, rect.width > 0, rect.height > 0 else { return }
        let image = Self.surface(of: frame)
        defer { cairo_surface_destroy(image) }
        withSavedState {
            clip(rect)
            cairo_translate(cairo, rect.x, rect.y)
            cairo_scale(cairo, rect.width / crop.width, rect.height / crop.height)
            cairo_set_source_surface(cairo, image, -crop.x, -crop.y)
            // Thumbnails are scaled down a lot: a box filter over the pixels, not a nearest pick.
            cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
            cairo_paint(cairo)
        }
    }

    /// An image surface holding `frame` (cairo's RGB24: one native-endian 32-bit word a pixel).
    private static func surface(of frame: FramePixels) -> OpaquePointer {
        let image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(frame.width), Int32(frame.height))!
        cairo_surface_flush(image)
        if cairo_surface_status(image) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(image) {
            let stride = Int(cairo_image_surface_get_stride(image))
            frame.rgb.withUnsafeBufferPointer { rgb in
                for y in 0..<frame.height {
                    let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                    var index = y * frame.width * 3
                    for x in 0..<frame.width {
                        row[x] = 0xff00_0000 | UInt32(rgb[index]) << 16 | UInt32(rgb[index + 1]) << 8 | UInt32(rgb[index + 2])
                        index += 3
                    }
                }
            }
            cairo_surface_mark_dirty(image)
        }
        return image
    }
}
