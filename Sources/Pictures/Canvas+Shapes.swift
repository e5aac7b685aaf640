import CCairo

/// Rectangles, lines, paths, circles and polygons.
extension Canvas {
    public func fill(_ rect: Rect, _ colour: Colour) {
        cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
        setColour(colour)
        cairo_fill(cairo)
    }

    public func stroke(_ rect: Rect, _ colour: Colour, width: Double) {
        cairo_rectangle(cairo, rect.x, rect.y, rect.width, rect.height)
        setColour(colour)
        cairo_set_line_width(cairo, width)
        cairo_stroke(cairo)
    }

    public func line(from start: Point, to end: Point, _ colour: Colour, width: Double) {
        polyline([start, end], colour, width: width)
    }

    /// A path through `points`, round joins and ends. With `outline`, a wider line of that colour
    /// goes underneath first, so the path stands out over a busy video frame.
    public func polyline(_ points: [Point], _ colour: Colour, width: Double, outline: Colour? = nil) {
        guard let first = points.first else { return }
        func trace() {
            cairo_move_to(cairo, first.x, first.y)
            for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
        }
        if let outline {
            trace()
            setColour(outline)
            cairo_set_line_width(cairo, width * 2)
            cairo_stroke(cairo)
        }
        trace()
        setColour(colour)
        cairo_set_line_width(cairo, width)
        cairo_stroke(cairo)
    }

    /// A circle, filled and/or outlined.
    public func circle(centre: Point, radius: Double, fill: Colour?, stroke: Colour? = nil, lineWidth: Double = 1) {
        cairo_new_sub_path(cairo)
        cairo_arc(cairo, centre.x, centre.y, radius, 0, 2 * Double.pi)
        if let fill {
            setColour(fill)
            stroke == nil ? cairo_fill(cairo) : cairo_fill_preserve(cairo)
        }
        if let stroke {
            setColour(stroke)
            cairo_set_line_width(cairo, lineWidth)
            cairo_stroke(cairo)
        }
        cairo_new_path(cairo)
    }

    /// A closed shape through `points`, filled.
    public func polygon(_ points: [Point], fill: Colour) {
        guard let first = points.first else { return }
        cairo_move_to(cairo, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(cairo, point.x, point.y) }
        cairo_close_path(cairo)
        setColour(fill)
        cairo_fill(cairo)
    }
}
