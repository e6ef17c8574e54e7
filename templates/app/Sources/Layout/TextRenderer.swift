/// Draws frames as text: one point is one terminal cell. Edges are rounded to whole cells
/// (each edge on its own, as Yoga rounds to pixels, so neighbours never gap or overlap);
/// text wraps as its measure function wrapped it; borders are box-drawing lines.
public enum TextRenderer {
    public static func draw(_ frame: Frame) -> String {
        let width = max(0, Int(frame.rect.width.rounded())), height = max(0, Int(frame.rect.height.rounded()))
        var grid = Array(repeating: Array(repeating: Character(" "), count: width), count: height)
        func put(_ c: Character, _ x: Int, _ y: Int) {
            guard y >= 0, y < height, x >= 0, x < width else { return }
            grid[y][x] = c
        }
        frame.visit { f, origin in
            let x0 = Int(origin.x.rounded()), x1 = Int((origin.x + f.rect.width).rounded())
            let y0 = Int(origin.y.rounded()), y1 = Int((origin.y + f.rect.height).rounded())
            switch f.content {
            case .none: break
            case .text(let text):
                for (row, line) in TextMetrics.wrap(text, width: x1 - x0).enumerated() where y0 + row < y1 {
                    for (column, c) in line.enumerated() where x0 + column < x1 { put(c, x0 + column, y0 + row) }
                }
            case .border:
                guard x1 - x0 >= 2, y1 - y0 >= 2 else { break }
                for x in (x0 + 1)..<(x1 - 1) { put("─", x, y0); put("─", x, y1 - 1) }
                for y in (y0 + 1)..<(y1 - 1) { put("│", x0, y); put("│", x1 - 1, y) }
                put("┌", x0, y0); put("┐", x1 - 1, y0); put("└", x0, y1 - 1); put("┘", x1 - 1, y1 - 1)
            }
        }
        return grid.map { row in
            var line = String(row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }
}
