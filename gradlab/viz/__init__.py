"""Drawings of gradlab's autograd graph: `draw(out)` in a notebook shows the Tensor/Function DAG.

Four small steps, each testable alone (see design.md):

    graph.walk(roots) -> Graph (plain dataclasses)      no Graphviz needed
    dot.to_dot(graph) -> DOT text                        deterministic, escaped
    render.render_svg(dot_text) -> SVG, or None          runs Graphviz's `dot` program
    tree.tree_text(graph) -> text drawing                the fallback without `dot`

The backward player (`animate_backward`, package `player/`) is built on the same walk, DOT writer and renderer.
`jacobian(f, x)` and `vjp(y, x, v)` (jacobian.py) show Jacobians and the vector-Jacobian product of `y.backward(v)`
as labelled matrices.

`import gradlab` does not import this package; nothing here imports graphviz or ipywidgets.
"""
import html
import os

from .dot import layout_cost, to_dot
from .graph import Edge, FunctionNode, Graph, TensorNode, walk
from .i18n import get_language, set_language
from .jacobian import JacobianView, VJPPanel, jacobian, vjp, vjp_html
from .player import BackwardPlayer, BackwardQuiz, animate_backward, legend_html, record_backward
from .render import INSTALL_HINT, GraphvizNotFound, render_svg, svg_img_html, which_dot
from .render import render as _render   # keep `gradlab.viz.render` the module
from .tree import TextDrawing, tree, tree_text

__all__ = ["draw", "animate_backward", "jacobian", "vjp", "vjp_html", "JacobianView", "VJPPanel", "record_backward", "BackwardPlayer", "BackwardQuiz", "legend_html", "set_language", "get_language", "tree", "walk", "to_dot", "render_svg", "which_dot", "GraphDrawing", "Graph", "TensorNode",
           "FunctionNode", "Edge", "INSTALL_HINT", "GraphvizNotFound"]

_FORMATS = {".svg": "svg", ".png": "png", ".pdf": "pdf"}


class GraphDrawing:
    """What `draw()` returns: shows itself inline in Jupyter (SVG), or as text without Graphviz.

    .graph   the walked data (nodes, edges, roots, notes)
    .source  the DOT text
    .save(path)  writes .svg, .png or .pdf (by extension) with Graphviz's `dot`
    """

    def __init__(self, graph, source):
        self.graph = graph
        self.source = source
        self._svg = None
        self._problem = None

    def svg(self):
        """The SVG text (rendered once), or None when `dot` is missing, fails or takes too long."""
        if self._svg is None:
            try:
                self._svg = render_svg(self.source, raise_errors=True)
                self._problem = None
            except GraphvizNotFound:
                self._problem = INSTALL_HINT
            except Exception as error:      # too slow (timeout) or a Graphviz error: say so, show text
                self._problem = f"{error} Showing the text drawing instead."
        return self._svg

    def tree(self):
        """The plain-text drawing of the same graph."""
        return tree_text(self.graph)

    def save(self, path, format=None):
        """Write the drawing to path; the format comes from the extension (.svg, .png, .pdf) or format=."""
        path = os.fspath(path)
        fmt = format or _FORMATS.get(os.path.splitext(path)[1].lower())
        if fmt is None:
            raise ValueError(f"cannot tell the format of {path!r}: use a .svg, .png or .pdf name, or format=")
        data = _render(self.source, fmt)
        with open(path, "wb") as f:
            f.write(data)
        return path

    def _html(self):
        svg = self.svg()
        if svg is not None:
            # the notes ("Large graph: showing ...") also sit in the drawing's legend, at its bottom, which
            # a tall graph puts thousands of pixels down: repeat them above the picture
            notes = "".join(f'<div style="font-size:smaller;color:#b00020">{html.escape(n)}</div>'
                            for n in self.graph.notes if self.graph.truncated)
            return notes + svg_img_html(svg, nodes=len(self.graph.nodes), alt=self.graph.summary().strip("<>"))
        return fallback_html(self.tree(), self._problem or INSTALL_HINT)

    def _repr_mimebundle_(self, include=None, exclude=None):
        try:
            page = self._html()
        except Exception:       # a drawing must never break a student's notebook
            page = fallback_html(tree_text(self.graph))
        return {"text/html": page, "text/plain": self.graph.summary()}

    def __repr__(self):
        return self.graph.summary()


def fallback_html(text, hint=INSTALL_HINT):
    """The text drawing in <pre> plus a one-line hint (how to install Graphviz, or what went wrong)."""
    # the hint first and the text in a box of bounded height: a large graph's tree is thousands of lines
    return (f'<div class="gradlab-graph-text"><div style="font-size:smaller;opacity:0.8">{html.escape(hint)}</div>'
            f'<pre style="max-height:480px;overflow:auto">{html.escape(str(text))}</pre></div>')


MAX_NODES = 400          # draw()'s default cap on the nodes drawn
LAYOUT_BUDGET = 3000     # layout_cost() a drawing may have without max_nodes=: about a second of `dot`


def draw(root_or_roots, names=None, show_saved=False, functions_only=False, rankdir="TB", legend=False,
         max_nodes=None, formulas=False):
    """Draw the autograd graph behind a tensor (or a list of tensors, or a grad_fn node).

    names: a mapping such as locals(), to label tensors with their variable names.
    show_saved: show what each Function saved for backward, with versions (stale ones in red).
    functions_only: only the Function nodes (torchviz's view).
    rankdir: 'TB' (inputs on top), 'LR' (left to right), 'BT' (output on top).
    legend: add the colour legend.
    formulas: list in each Function's card its gradient formula per input (`grad_self = grad * other`).
    max_nodes: larger graphs are cut, with a note at the top. Without it, at most 400 nodes, and fewer when
    the graph's long edges would make the layout take more than about a second (a leaf feeding hundreds of
    ops far apart): no drawing freezes a cell. An explicit max_nodes= is obeyed (dot then has 8 s).
    """
    limit = MAX_NODES if max_nodes is None else max_nodes
    graph = walk(root_or_roots, names=names, show_saved=show_saved, functions_only=functions_only,
                 max_nodes=limit, formulas=formulas)
    if max_nodes is None:
        cost = layout_cost(graph)
        while cost > LAYOUT_BUDGET and limit > 20:
            limit = max(20, min(limit // 2, int(len(graph.nodes) * LAYOUT_BUDGET / cost)))
            graph = walk(root_or_roots, names=names, show_saved=show_saved, functions_only=functions_only,
                         max_nodes=limit, formulas=formulas)
            cost = layout_cost(graph)
        if limit < MAX_NODES and graph.truncated:
            graph.notes[:] = [n for n in graph.notes if not n.startswith("Large graph:")]
            graph.notes.insert(0, f"Large graph: showing the {len(graph.nodes)} nodes nearest the output (its long "
                                  f"edges would make a larger drawing slow to lay out); pass max_nodes= to draw more.")
    return GraphDrawing(graph, to_dot(graph, rankdir=rankdir, legend=legend))

