import Layout
import Testing

/// Frames computed by hand. Leaves are fixed-size boxes, so every number below follows from
/// the rules in Layout's documentation.
@Suite struct LayoutTests {
    func box(_ w: Double, _ h: Double, _ name: String? = nil) -> Node { .leaf(Size(width: w, height: h), name: name) }
    func rects(_ f: Frame) -> [Rect] { f.children.map(\.rect) }
    func range(_ w: Double, _ h: Double) -> SizeRange { .exactly(Size(width: w, height: h)) }
    func r(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

    @Test func verticalSpacingAndPerChildSpacing() {
        let node = Node.stack(.vertical, spacing: 10, alignItems: .start, children: [
            StackChild(box(50, 20)), StackChild(box(30, 10), spacingBefore: 5, spacingAfter: 7), StackChild(box(40, 30)),
        ])
        let f = Layout.layout(node, in: .unconstrained)
        #expect(f.rect == r(0, 0, 50, 20 + 10 + 5 + 10 + 7 + 10 + 30))
        #expect(rects(f) == [r(0, 0, 50, 20), r(0, 35, 30, 10), r(0, 62, 40, 30)])
    }

    @Test(arguments: [
        (Justify.start, [0.0, 20]), (.center, [30, 50]), (.end, [60, 80]), (.spaceBetween, [0, 80]), (.spaceAround, [15, 65]),
    ])
    func justifyContent(_ justify: Justify, _ xs: [Double]) {
        // 100 wide, two 20-wide children: 60 points free.
        let node = Node.stack(.horizontal, justifyContent: justify, alignItems: .start, children: [StackChild(box(20, 10)), StackChild(box(20, 10))])
        let f = Layout.layout(node, in: range(100, 40))
        #expect(rects(f).map(\.x) == xs)
    }

    @Test(arguments: [(Align.start, 0.0, 10.0), (.center, 15, 10), (.end, 30, 10), (.stretch, 0, 40)])
    func alignItems(_ align: Align, _ y: Double, _ height: Double) {
        let node = Node.stack(.horizontal, alignItems: align, children: [StackChild(box(20, 10))])
        let f = Layout.layout(node, in: range(100, 40))
        #expect(rects(f) == [r(0, y, 20, height)])
    }

    @Test func alignSelfOverridesAlignItems() {
        let node = Node.stack(.vertical, alignItems: .start, children: [
            StackChild(box(20, 10)), StackChild(box(20, 10), alignSelf: .end), StackChild(box(20, 10), alignSelf: .center),
            StackChild(box(20, 10), alignSelf: .stretch),
        ])
        let f = Layout.layout(node, in: SizeRange(min: Size(width: 100, height: 0), max: Size(width: 100, height: .infinity)))
        #expect(rects(f) == [r(0, 0, 20, 10), r(80, 10, 20, 10), r(40, 20, 20, 10), r(0, 30, 100, 10)])
    }

    @Test func flexGrowWithARemainder() {
        // 100 wide, children 10 + 10 + 10: 70 to grow by factors 1, 1, 1 → 23 each, 1 left over to the first.
        let node = Node.stack(.horizontal, alignItems: .start, children: [
            StackChild(box(10, 5), flexGrow: 1), StackChild(box(10, 5), flexGrow: 1), StackChild(box(10, 5), flexGrow: 1),
        ])
        let f = Layout.layout(node, in: range(100, 5))
        #expect(rects(f).map(\.width) == [34, 33, 33])
        #expect(rects(f).map(\.x) == [0, 34, 67])
    }

    @Test func flexGrowByFactorOnlyTheFlexible() {
        // 100 wide, 10 + 10 + 20 used: 60 to share 1:2 between the first two; the third is fixed.
        let node = Node.stack(.horizontal, alignItems: .start, children: [
            StackChild(box(10, 5), flexGrow: 1), StackChild(box(10, 5), flexGrow: 2), StackChild(box(20, 5)),
        ])
        #expect(rects(Layout.layout(node, in: range(100, 5))).map(\.width) == [30, 50, 20])
    }

    @Test func flexShrinkWithARemainder() {
        // 50 wide, 40 + 40 = 80: 30 too much, shrunk 1:1 → 15 each.
        let even = Node.stack(.horizontal, alignItems: .start, children: [StackChild(box(40, 5), flexShrink: 1), StackChild(box(40, 5), flexShrink: 1)])
        #expect(rects(Layout.layout(even, in: range(50, 5))).map(\.width) == [25, 25])
        // 31 too much among three: 10 each, 1 more from the first.
        let odd = Node.stack(.horizontal, alignItems: .start, children: [
            StackChild(box(30, 5), flexShrink: 1), StackChild(box(30, 5), flexShrink: 1), StackChild(box(30, 5), flexShrink: 1),
        ])
        #expect(rects(Layout.layout(odd, in: range(59, 5))).map(\.width) == [19, 20, 20])
        // Not flexible: it overflows, and the stack stays within its range.
        let rigid = Node.stack(.horizontal, alignItems: .start, children: [StackChild(box(40, 5)), StackChild(box(40, 5))])
        let f = Layout.layout(rigid, in: range(50, 5))
        #expect(f.rect.width == 50 && rects(f).map(\.x) == [0, 40])
    }

    @Test func flexBasisReplacesTheChildsOwnSize() {
        // Bases 30 and 10% of 200 = 20; 200 - 50 = 150 grown 1:1.
        let node = Node.stack(.horizontal, alignItems: .start, children: [
            StackChild(box(5, 5), flexGrow: 1, flexBasis: .points(30)), StackChild(box(5, 5), flexGrow: 1, flexBasis: .percent(10)),
        ])
        #expect(rects(Layout.layout(node, in: range(200, 5))).map(\.width) == [105, 95])
    }

    @Test func stretchTakesTheStacksCrossSizeUnlessSizedExplicitly() {
        let node = Node.stack(.horizontal, children: [
            StackChild(box(10, 10)), StackChild(box(10, 30)),
            StackChild(.leaf(Size(width: 10, height: 5), size: SizeSpec(height: .points(8)))),
        ])
        let f = Layout.layout(node, in: .unconstrained)
        #expect(f.rect == r(0, 0, 30, 30))
        #expect(rects(f).map(\.height) == [30, 30, 8])
    }

    @Test func percentAgainstAnUndefinedParentIsAuto() {
        let leaf = Node.leaf(Size(width: 40, height: 10), size: SizeSpec(width: .percent(50)))
        #expect(Layout.layout(leaf, in: SizeRange(max: Size(width: 300, height: 10))).rect.width == 150)
        #expect(Layout.layout(leaf, in: .unconstrained).rect.width == 40)
        // In a horizontal stack of undefined width, a percent flex basis is auto too.
        let node = Node.stack(.horizontal, alignItems: .start, children: [StackChild(box(40, 10), flexBasis: .percent(50))])
        #expect(rects(Layout.layout(node, in: .unconstrained)).map(\.width) == [40])
    }

    @Test func minAndMaxClamp() {
        let wide = Node.leaf(Size(width: 500, height: 10), size: SizeSpec(maxWidth: .points(200)))
        #expect(Layout.layout(wide, in: .unconstrained).rect.width == 200)
        let narrow = Node.leaf(Size(width: 5, height: 1), size: SizeSpec(minWidth: .points(60), minHeight: .percent(10)))
        let f = Layout.layout(narrow, in: SizeRange(max: Size(width: 300, height: 400)))
        #expect(f.rect.width == 60 && f.rect.height == 40)
        // An explicit size is clamped by the node's own min and max, and the parent's range wins over both.
        let sized = Node.leaf(.zero, size: SizeSpec(width: .points(500), maxWidth: .points(250)))
        #expect(Layout.layout(sized, in: .unconstrained).rect.width == 250)
        #expect(Layout.layout(sized, in: SizeRange(max: Size(width: 100, height: 100))).rect.width == 100)
    }

    @Test func nestedStacksInsetOverlayAndBackground() {
        // A 200-wide card: 10 inset, a row of an icon (20) and a title that grows, under a title bar.
        let row = Node.stack(.horizontal, spacing: 4, alignItems: .center, children: [
            StackChild(box(20, 20, "icon")), StackChild(box(50, 10, "title"), flexGrow: 1),
        ])
        let card = Node.background(.inset(EdgeInsets(all: 10), .stack(.vertical, spacing: 6, children: [
            StackChild(box(30, 12, "bar")), StackChild(row),
        ])), behind: box(0, 0, "fill"))
        let f = Layout.layout(.overlay(card, over: box(0, 0, "badge")), in: SizeRange(min: Size(width: 200, height: 0), max: Size(width: 200, height: .infinity)))
        #expect(f.rect == r(0, 0, 200, 10 + 12 + 6 + 20 + 10))
        #expect(f.named("fill") == [r(0, 0, 200, 58)])
        #expect(f.named("badge") == [r(0, 0, 200, 58)])
        #expect(f.named("bar") == [r(10, 10, 180, 12)])
        #expect(f.named("icon") == [r(10, 28, 20, 20)])
        #expect(f.named("title") == [r(34, 33, 156, 10)])
    }

    @Test func itIsAPureFunctionUsableFromAnyThread() async {
        let node = Node.stack(.horizontal, children: (0..<50).map { StackChild(box(Double($0), 10), flexShrink: 1) })
        let expected = Layout.layout(node, in: range(300, 10))
        let results = await withTaskGroup(of: Frame.self) { group in
            for _ in 0..<8 { group.addTask { Layout.layout(node, in: SizeRange.exactly(Size(width: 300, height: 10))) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == expected })
    }
}
