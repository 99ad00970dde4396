"""Graph data -> DOT text (Graphviz's language). No Graphviz needed to build it.

The text is deterministic: node ids come from the walk (breadth-first order), attributes are
written in a fixed order with fixed number formats, and every string that came from the user
(variable names, values, slot names) is escaped for Graphviz's HTML-like labels, so a tensor named
`<img src=x onerror=alert(1)>` or `"];evil[` is drawn as that literal text.

Colour legend (shown in the drawing with legend=True), in the spirit of torchviz's:

    light blue box      leaf tensor (created by you; backward adds into its .grad)
    white box           intermediate tensor (still alive)
    green box           output tensor (a root you asked to draw)
    lavender box        a gradient tensor (some leaf's .grad, from create_graph=True)
    rounded grey box    Function node (named grad_fn.name(), as PyTorch names it)
      orange border     ... that is the grad_fn of the tensor it points to
    dashed blue box     AccumulateGrad: adds incoming gradients into its leaf's .grad
    orange row          a saved tensor (with the version it was saved at)
    red row             a saved tensor changed in place since: "stale (v1 ≠ v0)"

Edges follow the forward pass (inputs above, outputs below with rankdir='TB'); an edge into a
Function with several inputs is labelled with the input slot (`self`, `other`).
"""
import re

from .graph import FunctionNode, TensorNode

TENSOR_STYLE = {   # kind -> (fill, border)
    "leaf": ("#cfe2ff", "#3b6ea5"),
    "intermediate": ("#ffffff", "#8c8c8c"),
    "output": ("#c9f2c0", "#3c8d2f"),
    "grad": ("#e6d9ff", "#7b52ab"),
}
FUNCTION_FILL, FUNCTION_BORDER = "#f2f2f2", "#8c8c8c"
GRAD_FN_BORDER = "#d9730d"
ACCUMULATE_FILL, ACCUMULATE_BORDER = "#e8f1fb", "#3b6ea5"
SAVED_FILL, STALE_FILL = "#ffd8a8", "#ff9c9c"
EDGE_COLOR = "#555555"
BIG_GRAPH = 100         # nodes; above this the layout effort is capped (see to_dot)

LEGEND = [  # (fill, border, text) rows of the legend
    (TENSOR_STYLE["leaf"][0], TENSOR_STYLE["leaf"][1], "leaf tensor"),
    (TENSOR_STYLE["intermediate"][0], TENSOR_STYLE["intermediate"][1], "intermediate tensor"),
    (TENSOR_STYLE["output"][0], TENSOR_STYLE["output"][1], "output tensor"),
    (TENSOR_STYLE["grad"][0], TENSOR_STYLE["grad"][1], "gradient tensor (.grad)"),
    (FUNCTION_FILL, GRAD_FN_BORDER, "Function: grad_fn of the tensor below"),
    (FUNCTION_FILL, FUNCTION_BORDER, "Function (its output is gone)"),
    (ACCUMULATE_FILL, ACCUMULATE_BORDER, "AccumulateGrad: adds into .grad"),
    (SAVED_FILL, SAVED_FILL, "saved tensor (version)"),
    (STALE_FILL, STALE_FILL, "saved tensor changed in place: stale"),
]

# Inside an HTML-like label (delimited by < >) only these can end the label or start markup.
_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}


class Html(str):
    """An HTML-like label's markup: DOT writes it between < and >, where a string goes between quotes."""


_BARE = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|-?(\d+\.?\d*|\.\d+)")
_KEYWORDS = {"node", "edge", "graph", "digraph", "subgraph", "strict"}     # bare, these would be syntax


def quote(text):
    """Any text as a DOT string in double quotes; a line break becomes DOT's centred line break."""
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _value(value):
    if isinstance(value, Html):
        return f"<{value}>"
    if isinstance(value, bool):
        return "true" if value else "false"
    text = str(value)
    return text if _BARE.fullmatch(text) and text.lower() not in _KEYWORDS else quote(text)


class DotWriter:
    """The one writer of DOT text in gradlab.viz (drawings and the backward player): statements in the
    order given, every attribute value written the same way (a name or number bare, any other text
    quoted, an `Html` label between < >), so no caller quotes or escapes by hand."""

    def __init__(self, name="gradlab"):
        self.lines = [f"digraph {name} {{"]

    @staticmethod
    def _attrs(attrs):
        return ", ".join(f"{key}={_value(value)}" for key, value in attrs.items())

    def defaults(self, kind, attrs):
        """Attributes for the whole graph (kind 'graph') or every node/edge after this line."""
        self.lines.append(f"  {kind} [{self._attrs(attrs)}];")

    def node(self, node_id, attrs):
        self.lines.append(f"  {node_id} [{self._attrs(attrs)}];")

    def edge(self, src, dst, attrs):
        self.lines.append(f"  {src} -> {dst} [{self._attrs(attrs)}];")

    def same_rank(self, *node_ids):
        self.lines.append(f"  {{rank=same; {'; '.join(node_ids)};}}")

    def text(self):
        return "\n".join(self.lines + ["}"]) + "\n"


def escape(text):
    """Make any string safe inside a Graphviz HTML-like label (one line; control characters become spaces)."""
    out = []
    for ch in str(text):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch < " " or ch == "\x7f":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out)


def _lines(text):
    """Several lines, left-aligned, leading spaces kept (PyTorch's layout of nested brackets)."""
    rows = []
    for line in str(text).split("\n"):
        stripped = line.lstrip(" ")
        rows.append("&#160;" * (len(line) - len(stripped)) + escape(stripped))
    return '<BR ALIGN="LEFT"/>'.join(rows) + '<BR ALIGN="LEFT"/>'


def _shape_text(shape):
    return "scalar" if not shape else "shape (" + ", ".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def tensor_label(node):
    rows = []
    if node.name:
        rows.append(f'<TR><TD><B>{escape(node.name)}</B></TD></TR>')
    caption = {"leaf": "leaf", "intermediate": "", "output": "output", "grad": "gradient"}[node.kind]
    info = [caption] if caption else []
    info.append(_shape_text(node.shape))
    if node.dtype != "float32":
        info.append(node.dtype)
    rows.append(f'<TR><TD><FONT POINT-SIZE="10" COLOR="#555555">{escape(" · ".join(info))}</FONT></TD></TR>')
    rows.append(f'<TR><TD ALIGN="LEFT"><FONT FACE="Courier" POINT-SIZE="11">{_lines(node.values_text)}</FONT></TD></TR>')
    if node.grad_text is not None:
        rows.append('<TR><TD ALIGN="LEFT"><FONT POINT-SIZE="10" COLOR="#7b52ab">.grad</FONT></TD></TR>')
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT FACE="Courier" POINT-SIZE="11" COLOR="#5a3a8a">'
                    f'{_lines(node.grad_text)}</FONT></TD></TR>')
    return _table(rows)


def function_label(node, names=None):
    name = escape(node.name)
    rows = [f'<TR><TD><B>{name}</B></TD></TR>' if node.is_grad_fn_of is not None else f'<TR><TD>{name}</TD></TR>']
    if node.kind == "accumulate" and node.variable is None and node.variable_name:
        rows.append(f'<TR><TD><FONT POINT-SIZE="10">into {escape(node.variable_name)}.grad</FONT></TD></TR>')
    for slot, text in node.constants:
        rows.append(f'<TR><TD><FONT POINT-SIZE="10" COLOR="#555555">{escape(slot)} = {escape(text)}</FONT></TD></TR>')
    for slot, text in node.formulas:         # the chain rule at this node, one line per input (draw(formulas=True))
        rows.append(f'<TR><TD ALIGN="LEFT"><FONT FACE="Courier" POINT-SIZE="10" COLOR="#4a148c">'
                    f'grad_{escape(slot)} = {escape(text)}</FONT></TD></TR>')
    saved_ids = node.saved_ids or [None] * len(node.saved)
    for (slot, shape, saved_v, now_v, stale), tid in zip(node.saved, saved_ids):
        held = (names or {}).get(tid) or _shape_text(shape)
        where = f"saved {slot} = {held}"
        if stale:
            rows.append(f'<TR><TD BGCOLOR="{STALE_FILL}"><FONT POINT-SIZE="10">{escape(where)}<BR/>'
                        f'stale (v{now_v} ≠ v{saved_v})</FONT></TD></TR>')
        else:
            rows.append(f'<TR><TD BGCOLOR="{SAVED_FILL}"><FONT POINT-SIZE="10">{escape(where)} (v{saved_v})'
                        f'</FONT></TD></TR>')
    if node.freed:
        rows.append('<TR><TD><FONT POINT-SIZE="10" COLOR="#777777">saved values freed by backward</FONT></TD></TR>')
    return _table(rows)


def _table(rows):
    return Html('<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1">' + "".join(rows) + "</TABLE>")


def _node(writer, node, names):
    if isinstance(node, TensorNode):
        fill, border = TENSOR_STYLE[node.kind]
        attrs = {"shape": "box", "style": "filled", "fillcolor": fill, "color": border}
        if node.kind == "output":
            attrs["penwidth"] = 1.5
        attrs["label"] = tensor_label(node)
    elif node.kind == "accumulate":
        attrs = {"shape": "box", "style": "rounded,filled,dashed", "fillcolor": ACCUMULATE_FILL,
                 "color": ACCUMULATE_BORDER, "label": function_label(node, names)}
    elif node.is_grad_fn_of is not None:
        attrs = {"shape": "box", "style": "rounded,filled", "fillcolor": FUNCTION_FILL, "color": GRAD_FN_BORDER,
                 "penwidth": 2, "label": function_label(node, names)}
    else:
        attrs = {"shape": "box", "style": "rounded,filled", "fillcolor": FUNCTION_FILL, "color": FUNCTION_BORDER,
                 "label": function_label(node, names)}
    writer.node(node.id, attrs)


def _edge(writer, edge, accumulate_ids, parallel=False):
    if edge.kind == "grad_fn" and edge.src in accumulate_ids:
        attrs = {"style": "dashed", "color": ACCUMULATE_BORDER, "arrowhead": "none"}
    elif edge.kind == "grad_fn":
        attrs = {"color": GRAD_FN_BORDER}
    elif edge.kind == "saved":
        attrs = {"style": "dashed", "color": "#e69500", "fontcolor": "#b36b00", "constraint": False}
    else:
        attrs = {"color": EDGE_COLOR}
    if edge.label:
        # an external label: placed after the layout beside its edge, never on an arrow or a node (a head
        # label sat on the arrowheads and two of them collided at a node; a plain label adds a rank per
        # edge). Two edges between the same boxes (y * y) run side by side, where an external label would
        # sit on the other edge: those get plain labels, which the layout makes room for.
        # (a no-break space each side keeps an external label a few points off the line it belongs to)
        text = escape(edge.label) if parallel else f"&#160;{escape(edge.label)}&#160;"
        attrs["label" if parallel else "xlabel"] = Html(text)
    writer.edge(edge.src, edge.dst, attrs)


def layout_cost(graph):
    """Boxes Graphviz must place: the nodes plus one hidden point per rank an edge crosses.

    A long edge (one leaf feeding ops far down the graph) becomes a chain of hidden points, and the layout
    time grows with their number: a 400-node graph whose leaf feeds 400 ops spread over 100 ranks has
    10,000 of them and takes seconds, where a 400-node chain takes a fraction of one. Ranks are longest
    paths along the drawn edges (the `saved` ones do not constrain the layout)."""
    edges = [(e.src, e.dst) for e in graph.edges if e.kind != "saved"]
    ids = [n.id for n in graph.nodes]
    indeg, out = {i: 0 for i in ids}, {i: [] for i in ids}
    for a, b in edges:
        if a in out and b in indeg:
            out[a].append(b)
            indeg[b] += 1
    rank = {i: 0 for i in ids}
    ready = [i for i in ids if indeg[i] == 0]
    while ready:
        a = ready.pop()
        for b in out[a]:
            rank[b] = max(rank[b], rank[a] + 1)
            indeg[b] -= 1
            if indeg[b] == 0:
                ready.append(b)
    hidden = sum(max(0, rank[b] - rank[a] - 1) for a, b in edges if a in rank and b in rank)
    return len(ids) + hidden


LEGEND_COLUMNS = 3


def _legend_rows():
    rows = []
    for start in range(0, len(LEGEND), LEGEND_COLUMNS):
        cells = []
        for fill, border, text in LEGEND[start:start + LEGEND_COLUMNS]:
            cells.append(f'<TD BGCOLOR="{fill}" COLOR="{border}" BORDER="1" WIDTH="18"> </TD>'
                         f'<TD ALIGN="LEFT"><FONT POINT-SIZE="10">{escape(text)}</FONT></TD>')
        rows.append("<TR>" + "".join(cells) + "</TR>")
    return rows


def _graph_label(graph, legend):
    rows = []
    for note in graph.notes:
        rows.append(f'<TR><TD COLSPAN="{2 * LEGEND_COLUMNS}" ALIGN="LEFT"><FONT POINT-SIZE="10" COLOR="#b00020">{escape(note)}'
                    f'</FONT></TD></TR>')
    if legend:
        rows.extend(_legend_rows())
    if not rows:
        return None
    return Html('<TABLE BORDER="0" CELLSPACING="2" CELLPADDING="2">' + "".join(rows) + "</TABLE>")


def to_dot(graph, rankdir="TB", legend=False):
    """DOT text for a walked Graph. rankdir: 'TB' (inputs on top), 'LR', 'BT' (output on top), 'RL'."""
    if rankdir not in ("TB", "LR", "BT", "RL"):
        raise ValueError(f"rankdir must be 'TB', 'LR', 'BT' or 'RL', not {rankdir!r}")
    writer = DotWriter("gradlab")
    writer.defaults("graph", {"rankdir": rankdir, "bgcolor": "white", "fontname": "Helvetica", "nodesep": 0.4,
                              "ranksep": 0.45, "forcelabels": True})
    writer.defaults("node", {"fontname": "Helvetica", "fontsize": 12, "margin": "0.10,0.05"})
    writer.defaults("edge", {"fontname": "Helvetica", "fontsize": 10, "arrowsize": 0.7})
    if len(graph.nodes) > BIG_GRAPH:
        # cap Graphviz's x-coordinate optimisation: big graphs lay out in seconds instead of minutes
        writer.defaults("graph", {"nslimit": 1.0})
    label = _graph_label(graph, legend)
    if label is not None:
        writer.defaults("graph", {"labelloc": "b", "labeljust": "l", "label": label})
    accumulate_ids = set()
    names = {n.id: n.name for n in graph.nodes if isinstance(n, TensorNode) and n.name}
    for node in graph.nodes:
        _node(writer, node, names)
        if isinstance(node, FunctionNode) and node.kind == "accumulate":
            accumulate_ids.add(node.id)
    pairs = {}
    for edge in graph.edges:
        pairs[(edge.src, edge.dst)] = pairs.get((edge.src, edge.dst), 0) + 1
    for edge in graph.edges:
        _edge(writer, edge, accumulate_ids, parallel=pairs[(edge.src, edge.dst)] > 1)
    # a leaf and its AccumulateGrad side by side
    for node in graph.nodes:
        if isinstance(node, FunctionNode) and node.kind == "accumulate" and node.variable is not None:
            writer.same_rank(node.variable, node.id)
    return writer.text()
