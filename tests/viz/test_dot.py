"""DOT text built from walked data (gradlab.viz.dot): deterministic, escaped, one Graphviz node per graph node."""
import re
import subprocess
import sys
import time

import pytest

import gradlab as torch
from gradlab.viz import draw
from gradlab.viz.dot import LEGEND, TENSOR_STYLE, escape, to_dot
from gradlab.viz.graph import walk

TUTORIAL = """
import gradlab as torch
from gradlab.viz import draw
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
"""

NODE_LINE = re.compile(r"^  (n\d+) \[", re.M)
EDGE_LINE = re.compile(r"^  (n\d+) -> (n\d+) \[(.*)\];$", re.M)


def tutorial_drawing(**options):
    ns = {}
    exec(TUTORIAL, ns)
    names = {k: v for k, v in ns.items() if k in ("x", "y", "z", "out")}
    return draw(ns["out"], names=names, **options), names


def test_one_dot_node_per_graph_node_and_one_edge_per_edge():
    d, _ = tutorial_drawing(show_saved=True, legend=True)
    assert NODE_LINE.findall(d.source) == [n.id for n in d.graph.nodes]
    assert [(a, b) for a, b, _ in EDGE_LINE.findall(d.source)] == [(e.src, e.dst) for e in d.graph.edges]


def test_same_graph_same_text_in_one_process():
    first, _ = tutorial_drawing(show_saved=True, legend=True)
    second, _ = tutorial_drawing(show_saved=True, legend=True)
    assert first.source == second.source


def test_same_text_in_another_process():
    here, _ = tutorial_drawing(show_saved=True)
    code = TUTORIAL + "import sys\nsys.stdout.write(draw(out, names=dict(x=x, y=y, z=z, out=out), show_saved=True).source)\n"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": ""}).stdout
    assert other == here.source


def test_labels_show_names_values_and_kinds():
    d, _ = tutorial_drawing()
    src = d.source
    for name in ("x", "y", "z", "out"):
        assert f"<B>{name}</B>" in src
    for fn in ("MeanBackward0", "MulBackward0", "AddBackward0", "AccumulateGrad"):
        assert fn in src
    assert "[[3., 3.],<BR ALIGN=\"LEFT\"/>&#160;[3., 3.]]" in src         # y's values, PyTorch's layout
    assert "other = 3" in src and "other = 2" in src
    fills = re.findall(r'fillcolor="(#[0-9a-f]{6})"', src)
    for kind in ("leaf", "intermediate", "output"):
        assert TENSOR_STYLE[kind][0] in fills
    # external labels: beside the edge, not on its arrowhead (forcelabels: always drawn)
    assert "label=<self>" in src and "xlabel=<&#160;self&#160;>" in src and "forcelabels=true" in src
    assert "torch.float32" not in src and "float32" not in src          # dtype only when not float32


def test_dtype_shown_when_not_float32():
    x = torch.ones(2, dtype=torch.float64, requires_grad=True)
    assert "float64" in draw(x * 2).source


def test_grad_shown_after_backward():
    ns = {}
    exec(TUTORIAL + "out.backward()\n", ns)
    src = draw(ns["out"], names={"x": ns["x"]}).source
    assert ".grad" in src and "[[4.5000, 4.5000]," in src


def test_grad_fn_highlight_and_accumulate_style():
    d, _ = tutorial_drawing()
    lines = {m.group(1): m.group(0) for m in re.finditer(r"^  (n\d+) \[.*$", d.source, re.M)}
    for node in d.graph.functions:
        line = lines[node.id]
        if node.kind == "accumulate":
            assert "dashed" in line
        elif node.is_grad_fn_of is not None:
            assert "penwidth=2" in line and f"<B>{node.name}</B>" in line
    assert "rank=same" in d.source


def test_stale_saved_tensor_marked():
    x = torch.ones(2, 2, requires_grad=True)
    a = x * x               # saves x (fresh) for both slots
    b = a.exp()
    b.mul_(2)
    src = draw(b.sum(), names={"b": b}, show_saved=True).source
    assert "stale (v1 ≠ v0)" in src and "saved result = b" in src
    assert src.count("stale (") == 1
    assert "saved self" in src                         # the fresh ones are listed too, without the mark
    assert "stale" not in draw(b.sum(), names={"b": b}).source


def test_rankdir_and_legend():
    d, _ = tutorial_drawing(rankdir="LR")
    assert "rankdir=LR" in d.source and "leaf tensor" not in d.source
    d, _ = tutorial_drawing(rankdir="BT", legend=True)
    assert "rankdir=BT" in d.source
    for _, _, text in LEGEND:
        assert escape(text) in d.source
    with pytest.raises(ValueError):
        to_dot(d.graph, rankdir="sideways")


def test_functions_only_dot():
    d, _ = tutorial_drawing(functions_only=True)
    assert "<B>x</B>" not in d.source and "into x.grad" in d.source
    assert len(NODE_LINE.findall(d.source)) == 5


HOSTILE = ['<img src=x onerror=alert(1)>', '"];evil[', "a & b", "x' y", "line\nbreak", "back\\slash"]


def test_hostile_names_are_literal_text():
    x = torch.ones(2, requires_grad=True)
    names = {HOSTILE[0]: x}
    y = x * 2
    names[HOSTILE[1]] = y
    z = y.sum()
    names[HOSTILE[2]] = z
    src = draw(z, names=names).source
    assert "<img" not in src and "onerror=alert(1)&gt;" in src
    assert '"];evil[' not in src and "&quot;];evil[" in src
    assert "a &amp; b" in src
    # nothing broke out of a label: still exactly the graph's nodes and edges, each line well formed
    d = draw(z, names=names)
    assert NODE_LINE.findall(src) == [n.id for n in d.graph.nodes]
    assert all(re.fullmatch(r"  n\d+ \[.*\];|  n\d+ -> n\d+ \[.*\];|  \{rank=same; n\d+; n\d+;\}|"
                            r"digraph gradlab \{|\}|  (graph|node|edge) \[.*\];", line)
               for line in src.splitlines()), src


@pytest.mark.parametrize("text", HOSTILE)
def test_escape_leaves_no_markup(text):
    out = escape(text)
    assert not set(out) & set('<>"\'\n')
    assert "&" not in out.replace("&amp;", "").replace("&lt;", "").replace("&gt;", "").replace(
        "&quot;", "").replace("&#39;", "")


def test_notes_reach_the_drawing():
    x = torch.ones(2, requires_grad=True)
    y = x
    for _ in range(50):
        y = y * 1.0
    src = draw(y, max_nodes=20).source
    assert "max_nodes=20" in src and len(NODE_LINE.findall(src)) == 20


def test_thousand_node_dot_time():
    x = torch.ones(4, requires_grad=True)
    keep = [x]
    for _ in range(500):
        keep.append(keep[-1] * 1.0001)
    start = time.perf_counter()
    d = draw(keep[-1], max_nodes=2000)
    elapsed = time.perf_counter() - start
    assert len(d.graph.nodes) >= 1000 and len(NODE_LINE.findall(d.source)) == len(d.graph.nodes)
    assert elapsed < 2.0, elapsed


def _two_leaves():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    d = c - a
    e = (d / b).sum()
    return e, locals(), 6


def _tutorial_graph():
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    z = y * y * 3            # y * y: two edges side by side between the same boxes
    out = z.mean()
    return out, locals(), 4


@pytest.mark.skipif(__import__("shutil").which("dot") is None, reason="needs Graphviz's dot")
@pytest.mark.parametrize("make", [_two_leaves, _tutorial_graph], ids=["two-leaves", "y-times-y"])
def test_slot_labels_sit_beside_the_arrows_not_on_them(make):
    """"self"/"other" sit beside their edges: none overlaps an arrowhead, an edge's line, a node or
    another slot label."""
    out, names, count = make()
    svg = draw(out, names=names).svg()

    def boxes(kind, tags):
        found = []
        for group in re.findall(rf'<g id="[^"]*" class="{kind}">(.*?)</g>', svg, re.S):
            for tag, pts in re.findall(rf'<({tags})[^>]* (?:points|d)="([^"]+)"', group):
                nums = list(map(float, re.findall(r"-?\d+(?:\.\d+)?", pts)))
                xs, ys = nums[0::2], nums[1::2]
                found.append((min(xs), min(ys), max(xs), max(ys)))
        return found

    labels, keys = [], []
    found = re.findall(r'<text text-anchor="(\w+)" x="([-\d.]+)" y="([-\d.]+)"[^>]*>((?:&#160;|\xa0)?)(self|other)'
                       r'(?:&#160;|\xa0)?</text>', svg)
    for anchor, x, y, pad, text in found:
        x, y = float(x), float(y)
        keys.append((x, y))
        width = {"self": 17.7, "other": 26.6}[text]      # 10 pt DejaVu Sans (Helvetica's stand-in), in pt
        space = 3.2 if pad else 0.0                       # the no-break spaces around an external label
        left = {"start": x + space, "middle": x - width / 2, "end": x - width - space}[anchor]
        labels.append((left, y - 8, left + width, y + 1))
    assert len(labels) == count

    def curve(d):
        """Points along an SVG path "M p0 C p1 p2 p3 p4 p5 p6 ...": cubic Beziers, finely sampled."""
        nums = list(map(float, re.findall(r"-?\d+(?:\.\d+)?", d)))
        pts, out = list(zip(nums[0::2], nums[1::2])), []
        for i in range(0, len(pts) - 3, 3):
            p0, p1, p2, p3 = pts[i:i + 4]
            for k in range(21):
                u = k / 20
                w = ((1 - u) ** 3, 3 * u * (1 - u) ** 2, 3 * u * u * (1 - u), u ** 3)
                out.append((sum(c * p[0] for c, p in zip(w, (p0, p1, p2, p3))),
                            sum(c * p[1] for c, p in zip(w, (p0, p1, p2, p3)))))
        return out

    lines = []           # (the edge's slot label or None, points along its line)
    for group in re.findall(r'<g id="[^"]*" class="edge">(.*?)</g>', svg, re.S):
        own = re.search(r'x="([-\d.]+)" y="([-\d.]+)"[^>]*>(?:&#160;|\xa0)?(?:self|other)', group)
        key = (float(own.group(1)), float(own.group(2))) if own else None
        for d in re.findall(r'<path[^>]* d="([^"]+)"', group):
            lines.append((key, curve(d)))
    assert len(lines) > 6

    def overlap(p, q):
        return p[0] < q[2] and q[0] < p[2] and p[1] < q[3] and q[1] < p[3]

    arrowheads = boxes("edge", "polygon")
    nodes = boxes("node", "polygon|path")
    assert len(arrowheads) >= 6 and len(nodes) >= 6
    for i, label in enumerate(labels):
        assert not any(overlap(label, h) for h in arrowheads), (label, "on an arrowhead")
        assert not any(overlap(label, n) for n in nodes), (label, "on a node")
        assert not any(overlap(label, other) for other in labels[i + 1:]), (label, "on another label")
        # on no other edge's line (beside its own one it may come within a point of it: Graphviz places
        # external labels around the edge's midpoint without looking at the curve)
        for key, points in lines:
            if key != keys[i]:
                assert not any(label[0] + 1 < x < label[2] - 1 and label[1] < y < label[3] for x, y in points), \
                    (label, "on another edge's line")


def test_one_writer_quotes_every_value_the_same_way():
    from gradlab.viz.dot import DotWriter, Html, quote
    assert quote('a"b\\c\nd') == '"a\\"b\\\\c\\nd"'
    w = DotWriter("g")
    w.defaults("graph", {"rankdir": "LR", "pad": 0.2})
    w.node("n0", {"label": "edge", "shape": "box", "width": 1.5, "fixedsize": False, "xlabel": Html("<B>x</B>"),
                  "color": "#ff0000", "tooltip": 'say "hi"'})
    w.node("n1", {"label": "n1"})
    w.edge("n0", "n1", {"label": " 2.5 everywhere "})
    w.same_rank("n0", "n1")
    text = w.text()
    assert '  n0 [label="edge", shape=box, width=1.5, fixedsize=false, xlabel=<<B>x</B>>, color="#ff0000", ' \
           'tooltip="say \\"hi\\""];' in text                    # a DOT keyword as a label is quoted
    assert text.startswith("digraph g {\n  graph [rankdir=LR, pad=0.2];") and text.endswith("}\n")
    assert '  n0 -> n1 [label=" 2.5 everywhere "];' in text and "  {rank=same; n0; n1;}" in text
    if __import__("shutil").which("dot"):
        from gradlab.viz.render import render_svg
        assert render_svg(text, raise_errors=True).count('class="node"') == 2


def test_one_edge_one_writer_one_renderer_in_the_package():
    """gradlab.viz has one Edge class (graph.py), one DOT writer and quoter (dot.py), one runner of `dot`
    (render.py): the backward player builds on them rather than keeping its own."""
    import pathlib
    import gradlab.viz
    root = pathlib.Path(gradlab.viz.__file__).parent
    sources = {p.relative_to(root).as_posix(): p.read_text(encoding="utf-8") for p in root.rglob("*.py")}
    where = lambda pattern: sorted(name for name, text in sources.items() if re.search(pattern, text, re.M))
    assert where(r"^class Edge\b") == ["graph.py"]
    assert where(r"digraph \{|\"digraph ") == ["dot.py"]
    assert where(r"^def (escape|quote|_esc\w*|_dot_quote)\(") == ["dot.py"]
    assert where(r"\bsubprocess\b") == ["render.py"]
