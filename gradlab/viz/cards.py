"""Rich HTML cards for Jupyter: `_repr_html_` on Tensor and on grad_fn nodes, and `Tensor.draw()`.

`text/plain` is untouched: `__repr__` stays PyTorch's exact text (notebooks compare it). The HTML is
deterministic (no id(), no addresses, no times), every string is escaped, and a card never raises:
any failure falls back to the escaped text repr in <pre>. A tensor card costs well under 5 ms; a
node card also draws the node's neighbourhood (SVG when Graphviz's `dot` is installed, else text).
"""
import html

from ..autograd.node import AccumulateGrad, Node
from ..display.printing import torch_dtype_name
from ..tensor import Tensor
from . import draw, fallback_html
from .dot import to_dot
from .graph import slot_names, walk
from .render import render_svg, svg_img_html
from .tree import tree_text

# gradlab/__init__.py gives Tensor and Node hooks that import this module at the first card and call
# tensor_card / node_card / draw_tensor below; install() puts them on the classes directly.
# this module and gradlab.viz need only the standard library and numpy (Graphviz is looked for when drawing).

_CARD = ("display:inline-block;border:1px solid rgba(127,127,127,0.45);border-radius:6px;"
         "padding:4px 8px;font-size:12px;line-height:1.4")
_BADGE = "display:inline-block;padding:0 6px;margin:0 4px 2px 0;border-radius:8px;background:rgba(127,127,127,0.15)"
_GRAD_FN_BADGE = ("display:inline-block;padding:0 6px;margin:0 4px 2px 0;border-radius:8px;"
                  "background:rgba(217,115,13,0.18);border:1px solid rgba(217,115,13,0.7)")
_PRE = "margin:2px 0;padding:0;background:none"
_SAVED = "background:rgba(255,165,60,0.30)"
_STALE = "background:rgba(255,60,60,0.35)"


def _e(text):
    return html.escape(str(text), quote=True)


def _badge(text, style=_BADGE):
    return f'<span style="{style}">{_e(text)}</span>'


def _safe(render):
    """Wrap a card renderer: on any error, show the escaped text repr instead of raising."""
    def _repr_html_(self):
        try:
            return render(self)
        except Exception:
            try:
                text = repr(self)
            except Exception:
                text = f"<{type(self).__name__}>"
            return f'<pre style="{_PRE}">{_e(text)}</pre>'
    _repr_html_.__name__ = "_repr_html_"
    _repr_html_.__doc__ = render.__doc__
    return _repr_html_


def tensor_html(t):
    """A Tensor's card: its printed text, shape, dtype, requires_grad, is_leaf, grad_fn, and .grad."""
    badges = [_badge("shape [" + ", ".join(map(str, t._data.shape)) + "]"), _badge(f"{t.dtype}")]
    badges.append(_badge(f"requires_grad={t.requires_grad}"))
    badges.append(_badge(f"is_leaf={t.grad_fn is None}"))
    if t.grad_fn is not None:
        badges.append(_badge(f"grad_fn=<{type(t.grad_fn).__name__}>", _GRAD_FN_BADGE))   # as repr(t) shows it
    parts = [f'<div class="gradlab-tensor" style="{_CARD}">', "<div>", "".join(badges), "</div>",
             f'<pre style="{_PRE}">{_e(repr(t))}</pre>']
    grad = t._grad          # the slot: the .grad property warns on non-leaves
    if grad is not None:
        parts.append(f'<div style="opacity:0.8">.grad</div><pre style="{_PRE}">{_e(repr(grad))}</pre>')
    parts.append("</div>")
    return "".join(parts)


def _input_rows(node):
    rows = []
    for slot, (nxt, nr) in zip(slot_names(node), node.next_functions):
        if nxt is None:
            value = node.__dict__.get(slot)
            target = f"None (constant {value!r})" if isinstance(value, (int, float, bool)) else "None"
        else:
            name = "AccumulateGrad" if _is_accumulate(nxt) else nxt.name().rsplit("::", 1)[-1]
            target = f"{name}, output {nr}"
        rows.append(f"<tr><td>{_e(slot)}</td><td>{_e(target)}</td></tr>")
    return rows


def _is_accumulate(node):
    return isinstance(node, AccumulateGrad)


def _saved_rows(node):
    rows = []
    for slot, s in node.saved_tensors_info:
        data = s.data if s.is_output else s.tensor._data
        now = s.counter[0]
        shape = "[" + ", ".join(map(str, data.shape)) + "]"
        if now != s.version:
            state, style = f"stale (v{now} ≠ v{s.version})", _STALE
        else:
            state, style = f"version {s.version}", _SAVED
        rows.append(f'<tr style="{style}"><td>{_e(slot)}</td><td>{_e(shape)}</td>'
                    f"<td>{_e(torch_dtype_name(data.dtype))}</td><td>{_e(state)}</td></tr>")
    return rows


def _neighbourhood(node):
    """A small drawing: the node, the tensors it made, and its inputs one step away."""
    graph = walk(node, max_depth=1, max_nodes=40)
    svg = render_svg(to_dot(graph, rankdir="TB"))
    if svg is not None:       # an <img>, so the card still shows its drawing in an untrusted notebook
        return svg_img_html(svg, nodes=len(graph.nodes), alt=graph.summary().strip("<>"))
    return fallback_html(tree_text(graph))


def node_html(node):
    """A grad_fn node's card: its name, inputs (next_functions), saved tensors, and neighbourhood."""
    name = "AccumulateGrad" if _is_accumulate(node) else node.name().rsplit("::", 1)[-1]
    parts = [f'<div class="gradlab-node" style="{_CARD}">', f"<div>{_badge(name, _GRAD_FN_BADGE)}</div>"]
    if _is_accumulate(node):
        parts.append("<div>adds incoming gradients into the .grad of its leaf:</div>")
        parts.append(f'<pre style="{_PRE}">{_e(repr(node.variable))}</pre>')
    else:
        inputs = _input_rows(node)
        parts.append("<div><b>next_functions</b> (one per input)</div>")
        parts.append("<table>" + "".join(inputs) + "</table>" if inputs else "<div>none</div>")
        saved = _saved_rows(node)
        if saved:
            parts.append("<div><b>saved tensors</b></div><table>" + "".join(saved) + "</table>")
        elif getattr(node, "_freed", False):
            parts.append("<div><b>saved tensors</b>: freed by backward (use retain_graph=True to keep them)</div>")
    try:
        parts.append(_neighbourhood(node))
    except Exception:
        pass
    parts.append("</div>")
    return "".join(parts)


def _draw(self, **options):
    """t.draw(...) is gradlab.viz.draw(t, ...): the autograd graph behind this tensor."""
    return draw(self, **options)


# what gradlab/__init__.py's hooks on Tensor and Node call (they import this module at the first card)
tensor_card, node_card, draw_tensor = _safe(tensor_html), _safe(node_html), _draw


def install():
    """Give Tensor and Node an HTML card for Jupyter, and Tensor a .draw() shortcut. Idempotent."""
    Tensor._repr_html_ = tensor_card
    Node._repr_html_ = node_card
    if getattr(Tensor, "draw", _draw) is _draw or not hasattr(Tensor, "draw"):
        Tensor.draw = _draw
