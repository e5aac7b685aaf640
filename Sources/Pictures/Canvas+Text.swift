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

    /// `text` broken into lines at spaces, each at most `width` wide (a longer word is cut).
    public func wrapped(_ text: String, font: Font, width: Double) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            let candidate = line.isEmpty ? String(word) : line + " " + word
            if textWidth(candidate, font: font) <= width || line.isEmpty {
                line = candidate
            } else {
                lines.append(line)
                line = String(word)
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.map { fitted($0, font: font, width: width) }
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
