import CCairo
import Media

/// What went wrong drawing a picture or a report (cairo's own words).
public struct DrawingError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { message }
}

/// One cairo surface and its drawing context: a PNG image (pixels) or a PDF document (pages, in
/// points). The same calls draw on both, so a picture drawn for `GET …/picture` is drawn the same
/// way into a report. Owns every cairo pointer; one thread at a time.
public final class Canvas {
    public enum Kind: Sendable { case png, pdf }

    public let kind: Kind
    /// Pixels (PNG) or points (PDF) of the image or of each page.
    public let width: Double
    public let height: Double
    let surface: OpaquePointer
    let cairo: OpaquePointer
    /// Where a PDF's bytes go as cairo writes them; nil for an image.
    private let sink: ByteSink?
    /// The page being drawn, from 1 (an image has one).
    public private(set) var page = 1
    /// Every text drawn so far, where its ink landed: what tests read to prove that nothing is cut
    /// off or drawn over other text.
    public internal(set) var drawnText: [DrawnText] = []

    /// The largest image cairo makes (its own limit is 32,767 pixels a side).
    public static let maxImageSide = 16_384

    private init(kind: Kind, width: Double, height: Double, surface: OpaquePointer, sink: ByteSink?) throws {
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw DrawingError(message: "cairo could not make a \(Int(width))×\(Int(height)) surface: \(Self.text(status))")
        }
        (self.kind, self.width, self.height, self.surface, self.sink) = (kind, width, height, surface, sink)
        cairo = cairo_create(surface)
        cairo_set_line_join(cairo, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
    }

    deinit {
        cairo_destroy(cairo)
        cairo_surface_destroy(surface)
    }

    /// A white image of `width` × `height` pixels, written with `png()`.
    public static func image(width: Int, height: Int) throws -> Canvas {
        guard (1...maxImageSide).contains(width), (1...maxImageSide).contains(height) else {
            throw DrawingError(message: "a picture of \(width)×\(height) pixels is outside 1…\(maxImageSide) a side")
        }
        let canvas = try Canvas(kind: .png, width: Double(width), height: Double(height),
                                surface: cairo_image_surface_create(CAIRO_FORMAT_RGB24, Int32(width), Int32(height)), sink: nil)
        canvas.fill(Rect(x: 0, y: 0, width: Double(width), height: Double(height)), .white)
        return canvas
    }

    /// A PDF document whose pages are `width` × `height` points, written with `pdf()`; `title`
    /// goes into its metadata.
    public static func document(width: Double, height: Double, title: String) throws -> Canvas {
        let sink = ByteSink()
        let surface = cairo_pdf_surface_create_for_stream(ByteSink.write, Unmanaged.passUnretained(sink).toOpaque(), width, height)!
        let canvas = try Canvas(kind: .pdf, width: width, height: height, surface: surface, sink: sink)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Reelwork")
        return canvas
    }

    /// The image as PNG bytes.
    public func png() throws -> [UInt8] {
        precondition(kind == .png, "png() is for an image canvas")
        try check("drawing the picture")
        let sink = ByteSink()
        let status = cairo_surface_write_to_png_stream(surface, ByteSink.write, Unmanaged.passUnretained(sink).toOpaque())
        guard status == CAIRO_STATUS_SUCCESS else { throw DrawingError(message: "cairo could not write the PNG: \(Self.text(status))") }
        return sink.bytes
    }

    /// Ends the current page of a document; what is drawn next goes on a new one.
    public func newPage() {
        precondition(kind == .pdf, "pages are a document's")
        cairo_show_page(cairo)
        page += 1
    }

    /// Ends the document (its last page included) and gives its PDF bytes. Draw nothing after.
    public func pdf() throws -> [UInt8] {
        precondition(kind == .pdf, "pdf() is for a document canvas")
        try check("drawing the report")
        cairo_show_page(cairo)
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS, let sink else { throw DrawingError(message: "cairo could not write the PDF: \(Self.text(status))") }
        return sink.bytes
    }

    // MARK: state

    /// Runs `body` with the drawing state (transform, clip, colour) saved, and restores it after.
    public func withSavedState<R>(_ body: () throws -> R) rethrows -> R {
        cairo_save(cairo)
        defer { cairo_restore(cairo) }
        return try body()
    }

    /// From now on (until the state is restored), `(x, y)` is drawn at `offset + scale × (x, y)`.
    public func transform(offset: Point, scale: Double) {
        cairo_translate(cairo, offset.x, offset.y)
        cairo_scale(cairo, scale, scale)
    }

    /// From now on (until the state is restored), nothing is drawn outside `rect`.
    public func clip(_ rect: Rect) {
        cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(cairo)
    }

    func check(_ what: String) throws {
        let status = cairo_status(cairo)
        guard status == CAIRO_STATUS_SUCCESS else { throw DrawingError(message: "cairo failed \(what): \(Self.text(status))") }
    }

    func setColour(_ colour: Colour) {
        cairo_set_source_rgba(cairo, Double(colour.red) / 255, Double(colour.green) / 255, Double(colour.blue) / 255, colour.alpha)
    }

    static func text(_ status: cairo_status_t) -> String { String(cString: cairo_status_to_string(status)) }
}

/// One text as drawn: its ink's box and the clip it was drawn inside, both in the canvas's own
/// units (pixels of the image, points of the page), on `page`.
public struct DrawnText: Sendable, Equatable {
    public var text: String
    public var page: Int
    public var ink: Rect
    /// What the clip (a picture's frame, a thumbnail) let through; the whole page without one.
    public var clip: Rect
}

/// Collects the bytes cairo writes (a PNG or a PDF stream). Passed to cairo as its closure
/// pointer, unretained: the canvas keeps it alive for as long as cairo may write.
final class ByteSink {
    var bytes: [UInt8] = []

    static let write: cairo_write_func_t = { closure, data, length in
        guard let closure else { return CAIRO_STATUS_WRITE_ERROR }
        let sink = Unmanaged<ByteSink>.fromOpaque(closure).takeUnretainedValue()
        if let data, length > 0 { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
        return CAIRO_STATUS_SUCCESS
    }
}
