import CCairo
import Glibc
import Media

/// Video frames on a canvas: the picture a result is drawn over.
extension Canvas {
    /// Pixels per inch a frame keeps on a PDF page: a photo printed this fine shows no pixels at
    /// reading distance, and a video frame holds no finer detail anyway.
    public static let printResolution = 200.0

    /// Paints `source` (the frame's pixels, all of it unless given) of `frame` into `rect`, scaled
    /// to fill it. On an image the frame is painted as it is; in a PDF only `source` goes in, as a
    /// JPEG of at most `printResolution` pixels per inch of the page (never more than its own).
    public func draw(_ frame: FramePixels, in rect: Rect, source: Rect? = nil) {
        let crop = source ?? Rect(x: 0, y: 0, width: Double(frame.width), height: Double(frame.height))
        guard crop.width > 0, crop.height > 0, rect.width > 0, rect.height > 0 else { return }
        let image = Self.surface(of: frame)
        defer { cairo_surface_destroy(image) }
        switch kind {
        case .png: paint(image, crop: crop, in: rect)
        case .pdf:
            let printed = printedCopy(of: image, crop: crop, shownAs: rect)
            defer { cairo_surface_destroy(printed) }
            let size = Rect(x: 0, y: 0, width: Double(cairo_image_surface_get_width(printed)), height: Double(cairo_image_surface_get_height(printed)))
            paint(printed, crop: size, in: rect)
        }
    }

    /// `crop` of `image` drawn into `rect`.
    private func paint(_ image: OpaquePointer, crop: Rect, in rect: Rect) {
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

    /// The pixels a page needs of `crop` of `image` shown as `rect` (in the current transform),
    /// as a surface carrying their JPEG, which cairo's PDF surface embeds instead of the pixels.
    /// When JPEG encoding fails the surface is embedded losslessly, still only at print size.
    private func printedCopy(of image: OpaquePointer, crop: Rect, shownAs rect: Rect) -> OpaquePointer {
        var pageWidth = rect.width, pageHeight = rect.height
        cairo_user_to_device_distance(cairo, &pageWidth, &pageHeight)
        let inches = (width: abs(pageWidth) / 72, height: abs(pageHeight) / 72)
        let pixels = (width: max(1, Int(min(crop.width, (inches.width * Self.printResolution).rounded(.up)))),
                      height: max(1, Int(min(crop.height, (inches.height * Self.printResolution).rounded(.up)))))
        let printed = cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(pixels.width), Int32(pixels.height))!
        let scaler = cairo_create(printed)!
        cairo_scale(scaler, Double(pixels.width) / crop.width, Double(pixels.height) / crop.height)
        cairo_set_source_surface(scaler, image, -crop.x, -crop.y)
        cairo_pattern_set_filter(cairo_get_source(scaler), CAIRO_FILTER_GOOD)
        cairo_paint(scaler)
        cairo_destroy(scaler)
        cairo_surface_flush(printed)
        guard cairo_surface_status(printed) == CAIRO_STATUS_SUCCESS,
              let jpeg = try? JPEGEncoder.encode(Self.rgb(of: printed), width: pixels.width, height: pixels.height),
              let bytes = malloc(jpeg.count) else { return printed }
        jpeg.withUnsafeBytes { bytes.copyMemory(from: $0.baseAddress!, byteCount: jpeg.count) }
        // cairo keeps the bytes with the surface and frees them (free) when it lets go of them.
        let status = cairo_surface_set_mime_data(printed, CAIRO_MIME_TYPE_JPEG, bytes.assumingMemoryBound(to: UInt8.self), UInt(jpeg.count),
                                                 { free($0) }, bytes)
        if status != CAIRO_STATUS_SUCCESS { free(bytes) }
        return printed
    }

    /// An RGB24 image surface's pixels as packed RGB bytes, rows top to bottom.
    private static func rgb(of image: OpaquePointer) -> [UInt8] {
        let width = Int(cairo_image_surface_get_width(image)), height = Int(cairo_image_surface_get_height(image))
        let stride = Int(cairo_image_surface_get_stride(image))
        guard let data = cairo_image_surface_get_data(image) else { return [UInt8](repeating: 0, count: width * height * 3) }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width {
                let pixel = row[x], i = (y * width + x) * 3
                rgb[i] = UInt8((pixel >> 16) & 0xff)
                rgb[i + 1] = UInt8((pixel >> 8) & 0xff)
                rgb[i + 2] = UInt8(pixel & 0xff)
            }
        }
        return rgb
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
