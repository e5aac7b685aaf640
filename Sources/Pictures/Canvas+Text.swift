import CCairo

/// Labels and report text, in DejaVu Sans through cairo's own text API (fontconfig finds the
/// font; a PDF embeds the glyphs it uses).
extension Canvas {
    /// Draws `text` with its baseline at `at.y`; with `halo`, each glyph gets an outline of that
    /// colour first, so a label stays readable over a video frame.
    public func text(_ text: String, at: Point, font: Font, _ colour: Colour, anchor: TextAnchor = .start, halo: Colour? = nil) {
        guard !text.isEmpty else { return }
        select(font)
        var x = at.x
        switch anchor {
        case .start: break
        case .middle: x -= measure(text) / 2
        case .end: x -= measure(text)
        }
        record(text, at: Point(x, at.y))
        cairo_move_to(cairo, x, at.y)
        if let halo {
            cairo_text_path(cairo, text)
            setColour(halo)
            cairo_set_line_width(cairo, max(2, font.size / 5))
            cairo_stroke_preserve(cairo)
            setColour(colour)
            cairo_fill(cairo)
        } else {
            setColour(colour)
            cairo_show_text(cairo, text)
        }
        cairo_new_path(cairo)
    }

    /// How far `text` advances in `font`.
    public func textWidth(_ text: String, font: Font) -> Double {
        select(font)
        return measure(text)
    }

    /// `text` cut with "…" to at most `width`.
    public func fitted(_ text: String, font: Font, width: Double) -> String {
        guard textWidth(text, font: font) > width else { return text }
        var characters = Array(text)
        while !characters.isEmpty, textWidth(String(characters) + "…", font: font) > width { characters.removeLast() }
        return String(characters) + "…"
    }

    /// `text` broken into lines at spaces, each at most `width` wide. A word wider than `width`
    /// (a long file name) is broken too, starting on the line it follows, after a "-", "_" or "."
    /// where it can be: nothing is cut.
    public func wrapped(_ text: String, font: Font, width: Double) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = line.isEmpty ? word : line + " " + word
            if textWidth(candidate, font: font) <= width {
                line = candidate
            } else if textWidth(word, font: font) <= width {
                lines.append(line)
                line = word
            } else {
                let lead = line.isEmpty ? "" : line + " "
                var pieces = broken(word, font: font, width: width, firstWidth: width - textWidth(lead, font: font))
                if pieces[0].isEmpty { lines.append(line) } else { lines.append(lead + pieces[0]) }
                pieces.removeFirst()
                line = pieces.removeLast()
                lines += pieces
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// `word` in pieces: the first at most `firstWidth` wide (empty when not even a short piece
    /// fits there), the others at most `width`, each but the first at least one character.
    private func broken(_ word: String, font: Font, width: Double, firstWidth: Double) -> [String] {
        var pieces: [String] = [], rest = Array(word), room = firstWidth
        while textWidth(String(rest), font: font) > room, rest.count > 1 {
            var fits = 0
            while fits < rest.count, textWidth(String(rest[...fits]), font: font) <= room { fits += 1 }
            // A break after punctuation in the second half of the piece reads better than one mid-word.
            let breakAfter = rest[..<fits].lastIndex { "-_.".contains($0) }.map { $0 + 1 }
            let cut = breakAfter.flatMap { $0 > fits / 2 ? $0 : nil } ?? fits
            if cut == 0 && pieces.isEmpty && room < width {
                pieces.append("")
            } else {
                let taken = max(1, cut)
                pieces.append(String(rest[..<taken]))
                rest.removeFirst(taken)
            }
            room = width
        }
        return pieces.isEmpty ? ["", String(rest)] : pieces + [String(rest)]
    }

    /// Notes where `text`'s ink lands (the current font, its baseline starting at `origin`) and
    /// the clip around it, in the canvas's own units.
    private func record(_ text: String, at origin: Point) {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        let ink = deviceBox(x1: origin.x + extents.x_bearing, y1: origin.y + extents.y_bearing,
                            x2: origin.x + extents.x_bearing + extents.width, y2: origin.y + extents.y_bearing + extents.height)
        var clip = (x1: 0.0, y1: 0.0, x2: 0.0, y2: 0.0)
        cairo_clip_extents(cairo, &clip.x1, &clip.y1, &clip.x2, &clip.y2)
        let clipBox = deviceBox(x1: clip.x1, y1: clip.y1, x2: clip.x2, y2: clip.y2)
        let canvasBox = Rect(x: 0, y: 0, width: width, height: height)
        drawnText.append(DrawnText(text: text, page: page, ink: ink, clip: clipBox.intersection(canvasBox)))
    }

    /// A box in the current transform's units as a box on the canvas.
    private func deviceBox(x1: Double, y1: Double, x2: Double, y2: Double) -> Rect {
        let corners = [(x1, y1), (x2, y1), (x1, y2), (x2, y2)].map { corner -> (Double, Double) in
            var (x, y) = corner
            cairo_user_to_device(cairo, &x, &y)
            return (x, y)
        }
        let xs = corners.map(\.0), ys = corners.map(\.1)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    private func select(_ font: Font) {
        cairo_select_font_face(cairo, Font.family, CAIRO_FONT_SLANT_NORMAL, font.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cairo, font.size)
    }

    private func measure(_ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cairo, text, &extents)
        return extents.x_advance
    }
}
