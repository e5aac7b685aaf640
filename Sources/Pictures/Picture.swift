/// A result drawn: its size, a caption, and how to draw it. Drawn on an image for
/// `GET /v1/jobs/{id}/picture` and `analyze --picture`, and into a report's page (scaled to fit)
/// by the same code. The frames it shows are decoded before; drawing only draws.
public struct Picture {
    /// In the picture's own units: pixels of its PNG.
    public let width: Double
    public let height: Double
    /// One sentence saying what the picture shows.
    public let caption: String
    let paint: (Canvas) -> Void

    public init(width: Double, height: Double, caption: String, draw: @escaping (Canvas) -> Void) {
        (self.width, self.height, self.caption, self.paint) = (width, height, caption, draw)
    }

    /// Draws the picture with its top left at `origin`, `scale` times its own size.
    public func draw(on canvas: Canvas, at origin: Point = Point(0, 0), scale: Double = 1) {
        canvas.withSavedState {
            canvas.transform(offset: origin, scale: scale)
            canvas.clip(Rect(x: 0, y: 0, width: width, height: height))
            paint(canvas)
        }
    }

    /// The picture as a PNG of `width` × `height` pixels.
    public func png() throws -> [UInt8] {
        let canvas = try Canvas.image(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)))
        draw(on: canvas)
        return try canvas.png()
    }
}
