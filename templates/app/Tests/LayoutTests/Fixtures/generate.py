#!/usr/bin/env python3
"""Lays out random trees in headless Chromium and writes what it computed to browser.json.

The trees use the subset of flexbox the Layout module implements: row and column stacks with
gap, justify-content, align-items and align-self, flex-grow, flex-shrink and flex-basis, and
widths, heights, minimums and maximums in pixels, nested three deep. Leaves are empty boxes.
With --percent, widths, heights, their limits and flex bases are percentages too (written to
browser-percent.json); with --padding, items have padding (content-box, as an inset is:
browser-padding.json); with --text, leaves hold text in Liberation Mono at 10px on 12px
lines (browser-text.json); with --border, items have borders and some padding too (both
content-box: one inset, browser-border.json); with --scroll, some items are scroll containers
around a node, vertical (a block as wide as the viewport) or horizontal (a flex line the content
does not shrink in), nested (browser-scroll.json); with --wrap, stacks have up to six children
and most wrap, with every align-content (browser-wrap.json); with --absolute, some items are
placed against their stack's edges (position: absolute in a position: relative stack, with some
of top, right, bottom and left: browser-absolute.json).
`LayoutTests.theEngineAgreesWithTheBrowser` lays each tree out with the Layout module and
compares every node's frame with Chromium's. Run it again (Debian: `apt install chromium`)
after changing the subset or the seed:

    python3 Tests/LayoutTests/Fixtures/generate.py [--count 300] [--seed 32]
    python3 Tests/LayoutTests/Fixtures/generate.py --percent [--count 300] [--seed 7]
    python3 Tests/LayoutTests/Fixtures/generate.py --padding [--count 300] [--seed 11]
    python3 Tests/LayoutTests/Fixtures/generate.py --text [--count 300] [--seed 5]
    python3 Tests/LayoutTests/Fixtures/generate.py --border [--count 300] [--seed 13]
    python3 Tests/LayoutTests/Fixtures/generate.py --scroll [--count 300] [--seed 17]
    python3 Tests/LayoutTests/Fixtures/generate.py --wrap [--count 300] [--seed 19]
    python3 Tests/LayoutTests/Fixtures/generate.py --absolute [--count 300] [--seed 23]
"""
import argparse
import html
import json
import os
import random
import subprocess
import sys
import tempfile

JUSTIFY = ["start", "center", "end", "spaceBetween", "spaceAround", "spaceEvenly"]
CSS_JUSTIFY = dict(start="flex-start", center="center", end="flex-end", spaceBetween="space-between",
                   spaceAround="space-around", spaceEvenly="space-evenly")
ALIGN = ["start", "center", "end", "stretch"]
CSS_ALIGN = dict(start="flex-start", center="center", end="flex-end", stretch="stretch")


def maybe(r, p, value):
    return value if r.random() < p else None


PERCENT = False
PADDING = False
TEXT = False
BORDER = False
SCROLL = False
WRAP = False
ABSOLUTE = False
CONTENT = ["start", "center", "end", "stretch", "spaceBetween", "spaceAround", "spaceEvenly"]
CSS_CONTENT = dict(CSS_JUSTIFY, stretch="stretch")
WORDS = ["a", "to", "the", "tree", "layout", "of", "flex", "boxes", "wraps", "at", "spaces", "monospace"]


def node(r, depth, nested):
    """A random node: a stack (when depth allows) or a leaf, with the flex item fields."""
    n = {}
    if depth > 0 and r.random() < 0.45:
        n["dir"] = r.choice(["row", "column"])
        n["justify"] = r.choice(JUSTIFY)
        n["align"] = r.choice(ALIGN)
        n["gap"] = r.choice([0, 0, 2, 5])
        n["children"] = [node(r, depth - 1, True) for _ in range(r.randint(1, 6 if WRAP else 4))]
        if WRAP and r.random() < 0.6:
            n["wrap"] = True
            n["content"] = r.choice(CONTENT)
    for key, p, lo, hi in [("w", 0.5, 0, 120), ("h", 0.5, 0, 80), ("minW", 0.15, 0, 90), ("maxW", 0.15, 10, 140),
                           ("minH", 0.15, 0, 60), ("maxH", 0.15, 10, 100)]:
        v = maybe(r, p, r.randint(lo, hi))
        if v is not None:
            if PERCENT and key in ("w", "h", "minW", "maxW") and r.random() < 0.4:
                n[key + "P"] = r.choice([10, 25, 33, 50, 75, 100])
            else:
                n[key] = v
    if nested:
        n["grow"] = r.choice([0, 0, 1, 2])
        n["shrink"] = r.choice([0, 1, 1, 3])
        n["basis"] = maybe(r, 0.25, r.randint(0, 100))
        if n["basis"] is None:
            del n["basis"]
        elif PERCENT and r.random() < 0.4:
            n["basisP"] = r.choice([10, 25, 50, 100])
            del n["basis"]
        s = maybe(r, 0.2, r.choice(ALIGN))
        if s:
            n["self"] = s
    if TEXT and "dir" not in n and r.random() < 0.6:
        n["text"] = " ".join(r.choice(WORDS) for _ in range(r.randint(1, 7)))
        for key in ["h", "minH", "maxH"]:
            n.pop(key, None)
    if PADDING and nested and "basis" not in n and r.random() < 0.35:
        n["pad"] = [r.choice([0, 2, 5, 10]) for _ in range(4)]
    if ABSOLUTE and nested and r.random() < 0.3:
        # Out of the flow: top, right, bottom, left (None: auto), against the parent stack.
        n["abs"] = [maybe(r, 0.45, r.randint(0, 40)) for _ in range(4)]
        # No align-self: on such a box the browser also aligns it between its offsets (CSS Box
        # Alignment for absolute positioning), which the engine does not.
        n.pop("self", None)
    if BORDER and nested and "basis" not in n and r.random() < 0.4:
        n["border"] = [r.choice([0, 1, 1, 2, 4]) for _ in range(4)]
        if r.random() < 0.4:
            n["pad"] = [r.choice([0, 2, 5]) for _ in range(4)]
    if SCROLL and nested and depth > 0 and r.random() < 0.3:
        # A scroll container around a node: the node keeps its sizes, the container takes the
        # flex item's fields and some sizes of its own; scroll containers nest.
        inner = {k: v for k, v in n.items() if k not in ("grow", "shrink", "basis", "basisP", "self")}
        n = {k: v for k, v in n.items() if k in ("grow", "shrink", "basis", "basisP", "self")}
        n["scroll"] = r.choice(["vertical", "horizontal"])
        for key, p, lo, hi in [("w", 0.4, 10, 120), ("h", 0.4, 10, 80), ("maxW", 0.1, 10, 140), ("maxH", 0.1, 10, 100)]:
            v = maybe(r, p, r.randint(lo, hi))
            if v is not None:
                n[key] = v
        if depth > 1 and r.random() < 0.3:
            inner = dict(dir=r.choice(["row", "column"]), justify=r.choice(JUSTIFY), align=r.choice(ALIGN), gap=0,
                         children=[node(r, depth - 2, True)] + [dict(inner, grow=0, shrink=1)])
        n["children"] = [inner]
    return n


def style(n, root, scrolled=None):
    s = []
    if ABSOLUTE and "children" in n:
        s.append("position:relative")
    if "abs" in n:
        s.append("position:absolute")
        for prop, v in zip(["top", "right", "bottom", "left"], n["abs"]):
            if v is not None:
                s.append("%s:%dpx" % (prop, v))
    if "scroll" in n:
        # Scrolled down, the content is a block as wide as the viewport (unless it has its own
        # width) and as tall as it is; across, a flex line the content does not shrink in.
        s += ["overflow-x:" + ("hidden" if n["scroll"] == "vertical" else "auto"),
              "overflow-y:" + ("auto" if n["scroll"] == "vertical" else "hidden"), "scrollbar-width:none",
              "display:" + ("block" if n["scroll"] == "vertical" else "flex")]
    if "dir" in n:
        s += ["display:flex", "flex-direction:" + n["dir"], "justify-content:" + CSS_JUSTIFY[n["justify"]],
              "align-items:" + CSS_ALIGN[n["align"]], "gap:%dpx" % n["gap"]]
        if n.get("wrap"):
            s += ["flex-wrap:wrap", "align-content:" + CSS_CONTENT[n["content"]]]
    for key, prop in [("w", "width"), ("h", "height"), ("minW", "min-width"), ("maxW", "max-width"),
                      ("minH", "min-height"), ("maxH", "max-height")]:
        if key in n:
            s.append("%s:%dpx" % (prop, n[key]))
        if key + "P" in n:
            s.append("%s:%d%%" % (prop, n[key + "P"]))
    if "pad" in n or "border" in n:
        # content-box: the sizes are the content's, the padding and border outside them, as an
        # inset is.
        s.append("box-sizing:content-box")
    if "pad" in n:
        s.append("padding:%dpx %dpx %dpx %dpx" % tuple(n["pad"]))
    if "border" in n:
        s += ["border-style:solid", "border-width:%dpx %dpx %dpx %dpx" % tuple(n["border"])]
    if scrolled == "horizontal":
        s += ["flex:none"]
    if not root and scrolled is None:
        s += ["flex-grow:%d" % n["grow"], "flex-shrink:%d" % n["shrink"],
              "flex-basis:" + ("%dpx" % n["basis"] if "basis" in n else "%d%%" % n["basisP"] if "basisP" in n else "auto")]
        if "self" in n:
            s.append("align-self:" + CSS_ALIGN[n["self"]])
    return ";".join(s)


def markup(n, counter, root=False, scrolled=None):
    i = counter[0]
    counter[0] += 1
    inner = "".join(markup(c, counter, scrolled=n.get("scroll")) for c in n.get("children", [])) + html.escape(n.get("text", ""))
    return '<div data-n="%d" style="%s">%s</div>' % (i, html.escape(style(n, root, scrolled)), inner)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=300)
    parser.add_argument("--seed", type=int, default=32)
    parser.add_argument("--chromium", default="chromium")
    parser.add_argument("--percent", action="store_true")
    parser.add_argument("--padding", action="store_true")
    parser.add_argument("--text", action="store_true")
    parser.add_argument("--border", action="store_true")
    parser.add_argument("--scroll", action="store_true")
    parser.add_argument("--wrap", action="store_true")
    parser.add_argument("--absolute", action="store_true")
    args = parser.parse_args()
    global PERCENT, PADDING, TEXT, BORDER, SCROLL, WRAP, ABSOLUTE
    PERCENT = args.percent
    PADDING = args.padding
    TEXT = args.text
    BORDER = args.border
    SCROLL = args.scroll
    WRAP = args.wrap
    ABSOLUTE = args.absolute
    r = random.Random(args.seed)
    cases = []
    for _ in range(args.count):
        tree = node(r, 3, False)
        tree.setdefault("dir", r.choice(["row", "column"]))
        tree.setdefault("justify", r.choice(JUSTIFY))
        tree.setdefault("align", r.choice(ALIGN))
        tree.setdefault("gap", 0)
        tree.setdefault("children", [node(r, 2, True) for _ in range(r.randint(1, 6 if WRAP else 4))])
        if WRAP and "wrap" not in tree and r.random() < 0.6:
            tree["wrap"] = True
            tree["content"] = r.choice(CONTENT)
        tree.pop("text", None)
        for key in ["w", "minW", "maxW", "minH", "maxH", "wP", "minWP", "maxWP", "hP"]:
            tree.pop(key, None)
        width = r.randint(40, 300)
        cases.append(dict(width=width, tree=tree))
    blocks = []
    for i, case in enumerate(cases):
        tree = dict(case["tree"])
        tree["w"] = case["width"]
        blocks.append('<section id="case%d">%s</section>' % (i, markup(tree, [0], root=True)))
    script = """
    const out = [];
    for (const section of document.querySelectorAll('section')) {
      const frames = [];
      const walk = (el) => {
        const r = el.getBoundingClientRect();
        const p = el.parentElement.getBoundingClientRect();
        frames.push([r.left - p.left, r.top - p.top, r.width, r.height]);
        for (const c of el.children) walk(c);
      };
      walk(section.firstElementChild);
      out.push(frames);
    }
    document.getElementById('out').textContent = JSON.stringify(out);
    """
    page = ("<!doctype html><html><head><style>* { box-sizing: border-box; margin: 0; padding: 0; border: 0 }"
            " section { position: relative; margin-bottom: 20px; width: 1000px }"
            " div { font: 10px/12px 'Liberation Mono'; overflow-wrap: normal; white-space: normal }</style></head><body>"
            + "".join(blocks) + '<pre id="out"></pre><script>' + script + "</script></body></html>")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "trees.html")
        with open(path, "w") as f:
            f.write(page)
        dom = subprocess.run([args.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", "file://" + path],
                             check=True, capture_output=True, text=True).stdout
    start = dom.index('<pre id="out">') + len('<pre id="out">')
    frames = json.loads(html.unescape(dom[start:dom.index("</pre>", start)]))
    for case, f in zip(cases, frames):
        case["frames"] = [[round(v, 4) for v in frame] for frame in f]
    version = subprocess.run([args.chromium, "--version"], capture_output=True, text=True).stdout.strip()
    out = dict(browser=version, seed=args.seed, cases=cases)
    name = "browser-absolute.json" if args.absolute else "browser-wrap.json" if args.wrap else "browser-border.json" if args.border else "browser-scroll.json" if args.scroll else "browser-text.json" if args.text else "browser-padding.json" if args.padding else "browser-percent.json" if args.percent else "browser.json"
    target = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(target, "w") as f:
        json.dump(out, f, separators=(",", ":"))
        f.write("\n")
    print("%d trees laid out by %s: %s" % (len(cases), version, target), file=sys.stderr)


if __name__ == "__main__":
    main()
