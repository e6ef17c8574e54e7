import Foundation
import Layout
import Testing

func box(_ w: Double, _ h: Double, name: String? = nil, spec: SizeSpec = SizeSpec()) -> Node { .fixed(Size(width: w, height: h), spec: spec, name: name) }

func row(_ width: Double, _ children: [StackChild], justify: Justify = .start, align: Align = .stretch, spacing: Double = 0) -> Frame {
    Flexbox.layout(.stack(.horizontal, spacing: spacing, justifyContent: justify, alignItems: align, children),
                  in: SizeRange(min: Size(width: width, height: 0), max: Size(width: width, height: .infinity)))
}

func widths(_ f: Frame) -> [Double] { f.children.map(\.rect.width) }
func xs(_ f: Frame) -> [Double] { f.children.map(\.rect.x) }

/// Each expected value is worked out by hand from the flexbox rules (CSS Flexbox §9.7).
@Suite struct LayoutTests {
    /// Before: 40/40. Both grow from 0 to share 80; 40 is under the first one's min of 55, so
    /// it is frozen at 55 and the other gets what is left: 25.
    @Test func growingHonoursMin() {
        let f = row(80, [
            StackChild(box(0, 10, spec: SizeSpec(minWidth: .points(55))), flexGrow: 1),
            StackChild(box(0, 10), flexGrow: 1),
        ])
        #expect(widths(f) == [55, 25])
    }

    /// 100 to share from 20 + 20: 60 free, 30 each would make the first 50, over its max of 30;
    /// frozen at 30, the second gets 100 - 30 = 70.
    @Test func growingHonoursMax() {
        let f = row(100, [
            StackChild(box(20, 10, spec: SizeSpec(maxWidth: .points(30))), flexGrow: 1),
            StackChild(box(20, 10), flexGrow: 1),
        ])
        #expect(widths(f) == [30, 70])
    }

    /// Grow factors 1 and 3 share 80 free: 20 and 60.
    @Test func growFactorsShareInProportion() {
        #expect(widths(row(100, [StackChild(box(10, 1), flexGrow: 1), StackChild(box(10, 1), flexGrow: 3)])) == [30, 70])
    }

    /// 120 + 60 in 120: 60 too much, taken in proportion to shrink × basis (120 : 60): 40 and 20.
    @Test func shrinkingIsWeightedByBasis() {
        #expect(widths(row(120, [StackChild(box(120, 1), flexShrink: 1), StackChild(box(60, 1), flexShrink: 1)])) == [80, 40])
    }

    /// As above, but the first may not go under 100: frozen there, the second takes the rest of
    /// the overflow: 60 - (180 - 120 - 20) = 20.
    @Test func shrinkingHonoursMin() {
        let f = row(120, [
            StackChild(box(120, 1, spec: SizeSpec(minWidth: .points(100))), flexShrink: 1),
            StackChild(box(60, 1), flexShrink: 1),
        ])
        #expect(widths(f) == [100, 20])
    }

    @Test func withoutShrinkChildrenOverflow() {
        #expect(widths(row(50, [StackChild(box(40, 1)), StackChild(box(40, 1))])) == [40, 40])
    }

    /// A border (an inset) around a child keeps the child's bounds, grown by the border: a
    /// bordered child of max width 30 is at most 32 wide, and its sibling takes the rest.
    @Test func aWrapperKeepsItsChildsBounds() {
        let f = row(100, [
            StackChild(.bordered(box(0, 1, name: "inner", spec: SizeSpec(maxWidth: .points(30)))), flexGrow: 1),
            StackChild(box(0, 1), flexGrow: 1),
        ])
        #expect(widths(f) == [32, 68])
        #expect(f.named("inner").map(\.width) == [30])
        let padded = row(100, [StackChild(.inset(EdgeInsets(left: 5, right: 5), box(0, 1, spec: SizeSpec(minWidth: .points(60)))), flexShrink: 1),
                               StackChild(box(80, 1), flexShrink: 1)])
        #expect(widths(padded)[0] >= 70, "the child's min, with its padding, holds while the row shrinks: \(widths(padded))")
    }

    /// A min above a max: the min wins, as `min-width` does over `max-width` in CSS; and a
    /// child's min beats its parent's room (it overflows): min width 50 in a 30-wide column is 50.
    @Test func aMinWinsOverAMaxAndOverTheParentsRoom() {
        let crossed = row(100, [StackChild(box(0, 1, spec: SizeSpec(minWidth: .points(40), maxWidth: .points(20))), flexGrow: 1),
                                StackChild(box(0, 1), flexGrow: 1)])
        #expect(widths(crossed) == [40, 60])
        let fixed = row(100, [StackChild(box(10, 1, spec: SizeSpec(minWidth: .points(40), maxWidth: .points(20))))])
        #expect(widths(fixed) == [40])
        let column = Flexbox.layout(.stack(.vertical, [StackChild(box(10, 1, spec: SizeSpec(minWidth: .points(50))))]),
                                   in: SizeRange(max: Size(width: 30, height: .infinity)))
        #expect(column.children.map(\.rect.width) == [50])
    }

    /// Free space may be negative (CSS Flexbox §9.5): a 40-wide child in a 10-wide row has
    /// -30 to share, so centred it starts at -15 and at the end at -30, overflowing both sides
    /// or the start, as a browser draws it. With negative free space, space-between falls back
    /// to start, and space-around and space-evenly to center (CSS Box Alignment §5.3).
    @Test func overflowIsCentredOrEndAlignedAsInTheBrowser() {
        #expect(xs(row(10, [StackChild(box(40, 1))], justify: .center)) == [-15])
        #expect(xs(row(10, [StackChild(box(40, 1))], justify: .end)) == [-30])
        let two = [StackChild(box(20, 1)), StackChild(box(20, 1))]
        #expect(xs(row(10, two, justify: .spaceBetween)) == [0, 20])
        // space-around and space-evenly fall back to a safe centre: the start when the
        // children overflow (CSS Box Alignment; what Chromium does, see BrowserTests).
        #expect(xs(row(10, two, justify: .spaceAround)) == [0, 20])
        #expect(xs(row(10, two, justify: .spaceEvenly)) == [0, 20])
        #expect(xs(row(50, two, justify: .spaceBetween)) == [0, 30], "positive free space is shared as before")
    }

    @Test func aBasisIsWhereFlexingStarts() {
        // Bases 10 and 50 (not their own 30 and 30); 40 free shared equally.
        let f = row(100, [
            StackChild(box(30, 1), flexGrow: 1, flexBasis: .points(10)),
            StackChild(box(30, 1), flexGrow: 1, flexBasis: .percent(50)),
        ])
        #expect(widths(f) == [30, 70])
    }

    /// 10 + 20 in 100 leaves 70 free.
    @Test func justify() {
        let children = [StackChild(box(10, 10)), StackChild(box(20, 20))]
        #expect(xs(row(100, children, justify: .start)) == [0, 10])
        #expect(xs(row(100, children, justify: .end)) == [70, 80])
        #expect(xs(row(100, children, justify: .center)) == [35, 45])
        #expect(xs(row(100, children, justify: .spaceBetween)) == [0, 80])
        #expect(xs(row(100, children, justify: .spaceAround)) == [17.5, 62.5])
        let evenly = row(100, [StackChild(box(10, 10)), StackChild(box(20, 20)), StackChild(box(10, 10))], justify: .spaceEvenly)
        #expect(xs(evenly) == [15, 40, 75])
        #expect(xs(row(100, children, spacing: 5)) == [0, 15])
    }

    /// The row is as tall as its tallest child (20).
    @Test func alignAcross() {
        let children = [StackChild(box(10, 10)), StackChild(box(10, 20))]
        #expect(row(100, children, align: .start).children.map(\.rect.y) == [0, 0])
        #expect(row(100, children, align: .center).children.map(\.rect.y) == [5, 0])
        #expect(row(100, children, align: .end).children.map(\.rect.y) == [10, 0])
        let stretched = row(100, [StackChild(.text("a")), StackChild(box(10, 20)), StackChild(.text("b", spec: SizeSpec(maxHeight: .points(12))))])
        #expect(stretched.children.map(\.rect.height) == [20, 20, 12])
        let own = row(100, [StackChild(box(10, 10), alignSelf: .end), StackChild(box(10, 20))], align: .start)
        #expect(own.children.map(\.rect.y) == [10, 0])
    }

    /// A row 12 wide: "1." (2) + 1 + text + 1 + "[x]" (3) leaves 5 for the text, which wraps to
    /// three lines of at most 5; the row is 3 tall.
    @Test func textWrapsToTheWidthLeftForIt() {
        let f = row(12, [
            StackChild(.text("1.")),
            StackChild(.text("aaa bbb ccc", name: "text"), flexGrow: 1, flexShrink: 1),
            StackChild(.text("[x]")),
        ], align: .start, spacing: 1)
        #expect(f.named("text") == [Rect(x: 3, y: 0, width: 5, height: 3)])
        #expect(f.rect.height == 3)
        #expect(TextMetrics.wrap("aaa bbb ccc", width: 5) == ["aaa", "bbb", "ccc"])
        // A word longer than a line stays whole and overflows, as a browser's does
        // (`overflow-wrap: normal`); before, it was cut where the line ended.
        #expect(TextMetrics.wrap("abcdefgh ij", width: 3) == ["abcdefgh", "ij"])
    }

    @Test func percentagesReferToTheParent() {
        let f = Flexbox.layout(.stack(.horizontal, [StackChild(box(0, 1, spec: SizeSpec(width: .percent(25))))]),
                              in: .exactly(Size(width: 200, height: 10)))
        #expect(widths(f) == [50])
    }

    @Test func insetOverlayAndBackground() {
        let f = Flexbox.layout(.bordered(box(4, 2, name: "content"), name: "border"), in: .unconstrained)
        #expect(f.rect == Rect(x: 0, y: 0, width: 6, height: 4))
        #expect(f.named("content") == [Rect(x: 1, y: 1, width: 4, height: 2)])
        #expect(f.named("border") == [Rect(x: 0, y: 0, width: 6, height: 4)])
    }

    /// Before: each level measured its children again with no cache; depth 10 took 49 ms and
    /// depth 12 203 ms. Counted, not timed: each node is computed a few times at most.
    @Test func costIsLinearInTheNumberOfNodes() {
        func tree(_ depth: Int) -> Node {
            guard depth > 0 else { return .text("leaf text") }
            let d: Direction = depth % 2 == 0 ? .vertical : .horizontal
            return .stack(d, spacing: 1, [StackChild(tree(depth - 1), flexGrow: 1, flexShrink: 1), StackChild(tree(depth - 1), flexShrink: 1)])
        }
        let nodes = (1 << 13) - 1  // depth 12, two children each
        let (frame, computed) = Flexbox.measured(tree(12), in: SizeRange(max: Size(width: 300, height: .infinity)))
        #expect(frame.count == nodes)
        #expect(computed <= 4 * nodes, "\(computed) computations for \(nodes) nodes")

        func chain(_ depth: Int) -> Node { depth == 0 ? .text("x") : .stack(.vertical, [StackChild(chain(depth - 1))]) }
        let deep = Flexbox.measured(chain(300), in: SizeRange(max: Size(width: 80, height: .infinity)))
        #expect(deep.computed <= 4 * 301, "\(deep.computed) computations for 301 nodes")
    }

    @Test func theTextRendererDrawsBordersAndText() {
        let node = Node.bordered(.stack(.horizontal, spacing: 1, [
            StackChild(.text("hello world"), flexShrink: 1),
            StackChild(.text("[x]")),
        ]))
        let frame = Flexbox.layout(node, in: SizeRange(min: Size(width: 12, height: 0), max: Size(width: 12, height: .infinity)))
        #expect(TextRenderer.draw(frame) == """
            ┌──────────┐
            │hello  [x]│
            │world     │
            └──────────┘
            """)
    }

    /// Before: every change laid the whole tree out again. A kept tree lays out only the
    /// changed row and re-places its siblings from their kept results, and gets the same
    /// frames as a layout from scratch.
    @Test func aKeptLayoutRedoesOnlyWhatChanged() {
        func list(_ texts: [String]) -> Node {
            .stack(.vertical, texts.enumerated().map { i, t in
                StackChild(.stack(.horizontal, spacing: 1, [StackChild(.text("\(i + 1).")), StackChild(.text(t), flexGrow: 1, flexShrink: 1)]))
            })
        }
        var texts = (0..<300).map { "item \($0) with words that wrap" }
        let range = SizeRange(min: Size(width: 20, height: 0), max: Size(width: 20, height: .infinity))
        let tree = LayoutTree()
        let first = tree.layout(list(texts), in: range)
        #expect(first.computed > 900)
        texts[150] = "changed, and longer than it was before"
        let second = tree.layout(list(texts), in: range)
        #expect(second.frame == Flexbox.layout(list(texts), in: range))
        #expect(second.computed < 12, "\(second.computed) nodes computed for a one-row change")
        // Nothing changed: nothing computed.
        #expect(tree.layout(list(texts), in: range).computed == 0)
    }

    /// A scroll viewport shows its child from the offset (held within what there is), at most
    /// as large as its parent allows, and clips what falls outside.
    @Test func aScrollViewportShowsItsChildFromItsOffsetAndClips() {
        let rows = Node.stack(.vertical, (0..<10).map { StackChild(box(5, 2, name: "row\($0)")) })
        let range = SizeRange(max: Size(width: 5, height: 6))
        let f = Flexbox.layout(.scroll(.vertical, offset: 4, rows), in: range)
        #expect(f.rect == Rect(x: 0, y: 0, width: 5, height: 6) && f.clips)
        #expect(f.named("row2") == [Rect(x: 0, y: 0, width: 5, height: 2)])
        #expect(Flexbox.layout(.scroll(.vertical, offset: 500, rows), in: range).named("row9") == [Rect(x: 0, y: 4, width: 5, height: 2)])
        #expect(Flexbox.layout(.scroll(.vertical, offset: -3, rows), in: range).named("row0") == [Rect(x: 0, y: 0, width: 5, height: 2)])
        let text = Node.stack(.vertical, (0..<5).map { StackChild(.text("line \($0)")) })
        #expect(TextRenderer.draw(Flexbox.layout(.scroll(.vertical, offset: 2, text), in: SizeRange(max: Size(width: 6, height: 2)))) == "line 2\nline 3")
    }

    /// A button is sized and drawn as `(label)`, and a tap finds it where it is drawn, never
    /// where a viewport has clipped it away.
    @Test func aButtonIsFoundWhereItIsDrawn() {
        let ui = Node.scroll(.vertical, offset: 1, .stack(.vertical, [
            StackChild(.button("a", action: "first")),
            StackChild(.button("b", action: "second")),
        ]))
        let f = Flexbox.layout(ui, in: SizeRange(max: Size(width: 10, height: 1)))
        #expect(TextRenderer.draw(f) == "(b)")
        #expect(f.action(at: 1, 0) == "second")
        #expect(f.action(at: 1, -1) == nil, "the first button is scrolled out of view")
        #expect(f.action(at: 5, 0) == nil)
    }

    /// Before: text in a row shrank to nothing (at 10 columns an item's text disappeared). As
    /// a CSS flex item's automatic minimum size, text keeps its longest word, and the row
    /// overflows instead; an explicit min width of 0 still lets it go.
    @Test func textInARowKeepsItsLongestWord() {
        let f = row(6, [StackChild(box(4, 1)), StackChild(.text("milk and eggs"), flexShrink: 1)])
        #expect(widths(f) == [4, 4])
        let g = row(6, [StackChild(box(4, 1)), StackChild(.text("milk and eggs", spec: SizeSpec(minWidth: .points(0))), flexShrink: 1)])
        #expect(widths(g) == [4, 2])
    }
}

/// Wrapping stacks, as Chromium lays them out (`flex-wrap: wrap`; each figure below is what
/// it computed for the same boxes).
@Suite struct WrapTests {
    func five(_ first: SizeSpec = SizeSpec(width: .points(30), height: .points(10)), grow fourth: Double = 0,
              lines: AlignContent = .stretch) -> Frame {
        let box = SizeSpec(width: .points(30), height: .points(10))
        let children = [StackChild(.fixed(.zero, spec: first))] + (1..<5).map { i in
            StackChild(.fixed(.zero, spec: box), flexGrow: i == 3 ? fourth : 0)
        }
        return Flexbox.layout(.stack(.horizontal, spacing: 2, wrap: .wrap, alignContent: lines, size: SizeSpec(width: .points(100), height: .points(50)), children),
                              in: SizeRange(max: Size(width: 1000, height: 1000)))
    }

    /// Five boxes 30 wide in a row 100 wide: three fit on the first line, two go on the next;
    /// the lines share the height left (stretched, the default) or sit together in the middle.
    @Test func childrenThatDoNotFitGoOnTheNextLine() {
        let f = five()
        #expect(f.children.map(\.rect.x) == [0, 32, 64, 0, 32])
        #expect(f.children.map(\.rect.y) == [0, 0, 0, 26, 26])
        #expect(five(lines: .center).children.map(\.rect.y) == [14, 14, 14, 26, 26])
    }

    /// Each line shares out its own room, and a child of no height is stretched to its line.
    @Test func eachLineFlexesAndStretchesOnItsOwn() {
        let f = five(SizeSpec(width: .points(30)), grow: 1)
        #expect(f.children[0].rect == Rect(x: 0, y: 0, width: 30, height: 24))
        #expect(f.children[3].rect == Rect(x: 0, y: 26, width: 68, height: 10))
        #expect(f.children[4].rect == Rect(x: 70, y: 26, width: 30, height: 10))
    }

    /// A wrapping row sized to fit (here 64 wide, so only two boxes fit on a line) is as tall
    /// as its lines.
    @Test func aWrappingRowIsAsTallAsItsLines() {
        let box = StackChild(.fixed(.zero, spec: SizeSpec(width: .points(30), height: .points(10))))
        let row = Node.stack(.horizontal, spacing: 2, wrap: .wrap, size: SizeSpec(width: .points(64)), [box, box, box])
        let f = Flexbox.layout(.stack(.vertical, alignItems: .start, [StackChild(row)]), in: SizeRange(max: Size(width: 1000, height: 1000)))
        #expect(f.children[0].rect == Rect(x: 0, y: 0, width: 64, height: 22))
        #expect(f.children[0].children.map(\.rect.y) == [0, 0, 12])
    }
}

/// Children placed against a stack's edges, as Chromium lays out `position: absolute` in a
/// `position: relative` flex container (each figure is what it computed for the same boxes).
@Suite struct AbsoluteTests {
    /// In a row 100x50 that centres along and aligns to the end across: the box in the flow is
    /// centred as if it were alone; one box sits 5 from the right and bottom edges, one
    /// stretches between its left and right offsets, and one with no offsets goes where the
    /// row would put its only child.
    @Test func aChildOutOfTheFlowIsPlacedAgainstTheStacksEdges() {
        let box = SizeSpec(width: .points(20), height: .points(10))
        let f = Flexbox.layout(.stack(.horizontal, justifyContent: .center, alignItems: .end, size: SizeSpec(width: .points(100), height: .points(50)), [
            StackChild(.fixed(Size(width: 30, height: 50))),
            .absolute(.fixed(.zero, spec: box), bottom: .points(5), right: .points(5)),
            .absolute(.fixed(.zero, spec: SizeSpec(height: .points(10))), top: .points(0), left: .points(10), right: .points(10)),
            .absolute(.fixed(.zero, spec: box)),
        ]), in: SizeRange(max: Size(width: 1000, height: 1000)))
        #expect(f.children.map(\.rect) == [
            Rect(x: 35, y: 0, width: 30, height: 50), Rect(x: 75, y: 35, width: 20, height: 10),
            Rect(x: 10, y: 0, width: 80, height: 10), Rect(x: 40, y: 40, width: 20, height: 10),
        ])
    }

    /// It takes no room: a stack sized to fit is its flow's size.
    @Test func aChildOutOfTheFlowTakesNoRoom() {
        let f = Flexbox.layout(.stack(.vertical, [
            StackChild(.fixed(Size(width: 30, height: 20))),
            .absolute(.fixed(.zero, spec: SizeSpec(width: .points(300), height: .points(200))), top: .points(0), left: .points(0)),
        ]), in: SizeRange(max: Size(width: 1000, height: 1000)))
        #expect(f.rect == Rect(x: 0, y: 0, width: 30, height: 20))
        #expect(f.children[1].rect == Rect(x: 0, y: 0, width: 300, height: 200))
    }
}

/// Percentages, as Chromium lays them out (found by laying percentage trees out in it).
@Suite struct PercentTests {
    /// A percent flex basis in a column whose height is not known yet (auto) is `content`
    /// (CSS Flexbox §7.2.3): the item's own height aside, its empty content gives 0 — not its
    /// `height: 39px`. Chromium: the column 0 tall, the item 47x0 at x 103.
    @Test func aPercentBasisOfAnAutoHeightColumnIsTheContent() {
        let item = Node.leaf(Leaf(measure: .fixed(.zero), size: SizeSpec(width: .points(103), height: .points(39), maxWidth: .points(47))))
        let f = Flexbox.layout(.stack(.vertical, alignItems: .center, [StackChild(item, flexGrow: 1, flexShrink: 1, flexBasis: .percent(10))]),
                               in: SizeRange(min: Size(width: 253, height: 0), max: Size(width: 253, height: .infinity)))
        #expect(f.rect.height == 0, "\(f)")
        #expect(f.children.first?.rect == Rect(x: 103, y: 0, width: 47, height: 0), "\(f)")
    }
}

/// No input crashes layout (issue: a tree 5,000 deep overflowed the layout queue's stack, and
/// NaN and infinite sizes reached frames).
/// The module's names resolve beside Foundation's: `Layout.Length` (not Foundation's
/// `Dimension`), and the algorithm is `Flexbox`, not a type named as the module is.
@Suite struct LayoutNamesTests {
    @Test func namesResolveBesideFoundation() {
        let length: Layout.Length = .points(12)
        let spec = Layout.SizeSpec(width: length)
        let frame = Layout.Flexbox.layout(.fixed(Layout.Size(width: 1, height: 1), spec: spec), in: .unconstrained)
        #expect(frame.rect.width == 12)
        #expect(Foundation.UnitLength.meters.symbol == "m", "Foundation's names are Foundation's")
    }
}

@Suite struct LayoutLimitsTests {
    /// `depth` levels: insets and one-child stacks in turn, a box at the bottom.
    func deep(_ depth: Int) -> Node {
        var node = box(1, 1)
        for i in 0..<depth { node = i % 2 == 0 ? .inset(EdgeInsets(top: 1, left: 1, bottom: 1, right: 1), node) : .stack(.vertical, [StackChild(node, flexGrow: 1)]) }
        return node
    }

    func depth(_ f: Frame) -> Int {
        var deepest = 0
        var stack = [(f, 1)]
        while let (frame, level) = stack.popLast() {
            deepest = max(deepest, level)
            for c in frame.children { stack.append((c, level + 1)) }
        }
        return deepest
    }

    @Test func aDeepTreeLaysOutOnAnyThreadHeldToTheMaximumDepth() async {
        for levels in [100, 2_000, 5_000] {
            let node = deep(levels)
            // On a dispatch queue (512 KiB of stack), as LayoutQueue runs; again through a
            // kept tree, as it keeps one.
            let (plain, kept) = await withCheckedContinuation { (done: CheckedContinuation<(Frame, Frame), Never>) in
                DispatchQueue(label: "deep").async {
                    let tree = LayoutTree()
                    _ = tree.layout(node, in: .unconstrained)
                    done.resume(returning: (Flexbox.layout(node, in: .unconstrained), tree.layout(node, in: .unconstrained).frame))
                }
            }
            #expect(depth(plain) == min(levels + 1, Flexbox.maximumDepth), "\(levels)")
            #expect(kept == plain, "\(levels): the kept tree lays out the same")
            if levels < Flexbox.maximumDepth {
                // Whole: each inset adds 2 to the box's 1.
                #expect(plain.rect.width == Double(1 + 2 * ((levels + 1) / 2)), "\(levels): \(plain.rect)")
            }
        }
    }

    @Test func noFrameHoldsANaNOrAnInfiniteLength() {
        let nan = Double.nan, inf = Double.infinity
        let nodes: [Node] = [
            box(nan, 10), box(inf, inf), box(10, 10, spec: SizeSpec(width: .points(nan))), box(10, 10, spec: SizeSpec(minWidth: .points(inf))),
            .stack(.horizontal, spacing: nan, [StackChild(box(10, 10)), StackChild(box(10, 10), flexGrow: nan)]),
            .stack(.horizontal, [StackChild(box(10, 10), spacingBefore: inf, flexBasis: .percent(nan))]),
            .inset(EdgeInsets(top: nan, left: inf, bottom: -inf, right: 1), box(10, 10)),
            .scroll(.vertical, offset: nan, box(10, 10)),
            .stack(.horizontal, spacing: nan, wrap: .wrap, alignContent: .spaceEvenly, [StackChild(box(10, 10)), StackChild(box(inf, 10), flexGrow: 1)]),
            .stack(.vertical, wrap: .wrap, size: SizeSpec(height: .points(inf)), [StackChild(box(10, nan)), StackChild(box(10, 10), flexBasis: .points(nan))]),
            .stack(.horizontal, [.absolute(box(10, 10), top: .points(nan), left: .points(inf)), .absolute(box(nan, 10), bottom: .percent(inf), right: .points(-inf))]),
            .text("a few words", TextMetrics(characterWidth: 1e-300, lineHeight: 1)),
            .text("a few words", TextMetrics(characterWidth: nan, lineHeight: inf)),
        ]
        for (i, node) in nodes.enumerated() {
            for range in [SizeRange.unconstrained, SizeRange.exactly(Size(width: 100, height: 100)), SizeRange(max: Size(width: inf, height: 50))] {
                Flexbox.layout(node, in: range).visit { frame, origin in
                    let finite = [frame.rect.x, frame.rect.y, frame.rect.width, frame.rect.height, origin.x, origin.y].allSatisfy(\.isFinite)
                    #expect(finite, "node \(i) in \(range): \(frame.rect)")
                }
            }
        }
    }
}
