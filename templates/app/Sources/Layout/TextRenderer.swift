/// Draws frames as text: one point is one terminal cell. Edges are rounded to whole cells
/// (each edge on its own, as Yoga rounds to pixels, so neighbours never gap or overlap);
/// text wraps as its measure function wrapped it; borders are box-drawing lines.
public enum TextRenderer {
    public static func draw(_ frame: Frame) -> String {
        let width = max(0, Int(frame.rect.width.rounded())), height = max(0, Int(frame.rect.height.rounded()))
        var grid = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        func putCell(_ c: Character, _ x: Int, _ y: Int) {
            guard y >= 0, y < height, x >= 0, x < width else { return }
            grid[y][x] = c
        }
        // Each frame is drawn within the cells its clipping ancestors show.
        func draw(_ f: Frame, _ ox: Double, _ oy: Double, clip: (x0: Int, y0: Int, x1: Int, y1: Int)) {
            let origin = (x: ox + f.rect.x, y: oy + f.rect.y)
            let x0 = Int(origin.x.rounded()), x1 = Int((origin.x + f.rect.width).rounded())
            let y0 = Int(origin.y.rounded()), y1 = Int((origin.y + f.rect.height).rounded())
            func put(_ c: Character, _ x: Int, _ y: Int) {
                guard x >= clip.x0, x < clip.x1, y >= clip.y0, y < clip.y1 else { return }
                putCell(c, x, y)
            }
            switch f.content {
            case .none: break
            case .text(let text):
                // Wrapped at the width it was measured at (whole cells), not at its rounded edges.
                for (row, line) in TextMetrics.wrap(text, width: Int(f.rect.width + 1e-9)).enumerated() where y0 + row < y1 {
                    for (column, c) in line.enumerated() where x0 + column < x1 { put(c, x0 + column, y0 + row) }
                }
            case .button(let label, _):
                // A button is drawn whole or not at all: half a control reads as something else.
                let text = "(\(label))"
                if x0 >= clip.x0, x0 + text.count <= min(x1, clip.x1), y0 >= clip.y0, y0 < min(y1, clip.y1) {
                    for (column, c) in text.enumerated() { put(c, x0 + column, y0) }
                }
            case .border:
                guard x1 - x0 >= 2, y1 - y0 >= 2 else { break }
                for x in (x0 + 1)..<(x1 - 1) { put("─", x, y0); put("─", x, y1 - 1) }
                for y in (y0 + 1)..<(y1 - 1) { put("│", x0, y); put("│", x1 - 1, y) }
                put("┌", x0, y0); put("┐", x1 - 1, y0); put("└", x0, y1 - 1); put("┘", x1 - 1, y1 - 1)
            }
            let inner = f.clips ? (max(clip.x0, x0), max(clip.y0, y0), min(clip.x1, x1), min(clip.y1, y1)) : clip
            for c in f.children { draw(c, origin.x, origin.y, clip: inner) }
        }
        draw(frame, 0, 0, clip: (0, 0, width, height))
        return grid.map { row in
            var line = String(row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
