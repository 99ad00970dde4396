"""Jacobians as labelled matrices, and the vector-Jacobian product that `y.backward(v)` computes.

    jacobian(f, x)      J of f at x (autograd.functional.jacobian), shown as a table: one row per
                        element of the output, one column per element of the input
    vjp(y, x, v)        J of an already recorded y, beside v and vᵀJ: `vᵀ · J = vᵀJ`, the numbers
                        `y.backward(v)` adds into x.grad and `autograd.grad(y, x, v)` returns

Both return objects that show themselves in Jupyter (`_repr_mimebundle_`). `vjp_data` + `vjp_html` are
the plain-data and HTML halves of the panel; the backward player shows the same panel at its first step
when it starts from a small gradient= (player/recording.py, `start_vjp`).

Tensors of two or more dimensions are flattened in row-major order (as `reshape(-1)` lists them) and
every label keeps the full index, `∂y[1,0]`. HTML uses inline styles only: an untrusted notebook keeps
them, and the light background keeps the contrast in a dark theme.
"""
import html
import inspect
from dataclasses import dataclass
from typing import Any, Tuple

import numpy as np

from ..autograd import functional
from ..autograd import grad as autograd_grad
from ..autograd.node import SECOND_BACKWARD_ERROR
from ..creation import from_numpy
from ..tensor import Tensor
from .i18n import get_language, resolve, t, using

MAX_SHOWN = 12           # jacobian(): rows and columns shown before the table is cut (head and tail)
MAX_ELEMENTS = 16        # vjp(): elements of y and of each input; J is built one row per element of y

_BOX = ("display:inline-block;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#212121;"
        "background:#fff;border:1px solid #bdbdbd;border-radius:6px;padding:8px 12px;font-size:13px;"
        "line-height:1.4;max-width:100%;overflow-x:auto")
_TITLE = "font-weight:bold;font-size:14px;margin-bottom:4px"
_NOTE = "font-size:12px;color:#424242;margin:4px 0"
_WARN = "font-size:12px;color:#b00020;margin:4px 0"
# JupyterLab styles every table of an output (theme colours, striped and hovered rows): the table and its
# rows set their own colours, so the numbers stay dark on white in a dark theme too
_TABLE = "border-collapse:collapse;font-family:monospace;font-size:12px;margin:2px 0;color:#212121;background:#fff"
_ROW = "background:#fff"
_HEAD = "padding:2px 6px;color:#424242;font-weight:normal;white-space:nowrap;text-align:center"
_CELL = "padding:2px 8px;border:1px solid #e0e0e0;text-align:right;white-space:nowrap"
_ZERO = ";color:#757575"             # zeros fade (still 4.6:1 on white): a diagonal J shows its shape
_MATRIX = "display:inline-flex;flex-direction:column;align-items:center;margin:0 2px"
_CAPTION = "font-family:monospace;font-size:13px;font-weight:bold;margin-bottom:2px"
_OP = "font-size:22px;font-weight:bold;padding:0 6px;align-self:center"


# --- numbers and labels -----------------------------------------------------------------------------
def number_text(v):
    """A matrix entry for people: '0', '4.5', '-0.3333', '1.024e+04', 'nan'."""
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    v = float(v)
    return "0" if v == 0 else f"{v:.4g}"


def array_text(a):
    """'[51.2, 512, 0.0512]', nested for more dimensions, every element written out (vjp's are few)."""
    a = np.asarray(a)
    if a.ndim == 0:
        return number_text(a)
    return "[" + ", ".join(array_text(row) for row in a) + "]"


def index_labels(name, shape, prefix=""):
    """One label per element in row-major order: 'x[0]', 'x[1,2]'; a 0-d tensor is just 'x'."""
    if len(shape) == 0:
        return [f"{prefix}{name}"]
    return [f"{prefix}{name}[{','.join(map(str, idx))}]" for idx in np.ndindex(*shape)]


def _shape_text(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _kept(n, limit):
    """The indices shown of n, and where the '⋯' gap goes (None: all shown): head and tail halves."""
    if n <= limit:
        return list(range(n)), None
    head = limit - limit // 2
    return list(range(head)) + list(range(n - limit // 2, n)), head


def matrix_html(values, row_labels, col_labels, caption=None, limit=None):
    """A 2-D array as a labelled table; beyond `limit` rows or columns only the head and tail are shown.
    row_labels None: no label column (a row vector such as vᵀ). Returns (html, shown rows, shown columns)."""
    labelled = row_labels is not None
    row_labels = row_labels if labelled else [""]
    values = np.asarray(values).reshape(len(row_labels), len(col_labels))
    rows, row_gap = _kept(len(row_labels), limit or len(row_labels) or 1)
    cols, col_gap = _kept(len(col_labels), limit or len(col_labels) or 1)

    def head_row():
        cells = [f'<th style="{_HEAD}"></th>'] if labelled else []
        for k, j in enumerate(cols):
            if k == col_gap:
                cells.append(f'<th style="{_HEAD}">⋯</th>')
            cells.append(f'<th style="{_HEAD}">{html.escape(col_labels[j])}</th>')
        return f'<tr style="{_ROW}">' + "".join(cells) + "</tr>"

    def body_row(i):
        cells = [f'<th style="{_HEAD};text-align:right">{html.escape(row_labels[i])}</th>'] if labelled else []
        for k, j in enumerate(cols):
            if k == col_gap:
                cells.append(f'<td style="{_CELL};text-align:center">⋯</td>')
            v = values[i, j]
            cells.append(f'<td style="{_CELL}{_ZERO if v == 0 else ""}">{number_text(v)}</td>')
        return f'<tr style="{_ROW}">' + "".join(cells) + "</tr>"

    lines = [head_row()]
    for k, i in enumerate(rows):
        if k == row_gap:
            width = len(cols) + (col_gap is not None)
            gap = "".join(f'<td style="{_CELL};text-align:center">⋮</td>' for _ in range(width))
            label = f'<th style="{_HEAD}">⋮</th>' if labelled else ""
            lines.append(f'<tr style="{_ROW}">{label}{gap}</tr>')
        lines.append(body_row(i))
    top = f'<div style="{_CAPTION}">{html.escape(caption)}</div>' if caption else ""
    table = f'<table class="gradlab-matrix" style="{_TABLE}">{"".join(lines)}</table>'
    return f'<div style="{_MATRIX}">{top}{table}</div>', len(rows), len(cols)


# --- jacobian(f, x) -----------------------------------------------------------------------------------
def _parameter_names(f, count):
    """f's positional parameter names when they name every input ('x', 'w'), else None."""
    try:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):          # builtins and some callables have no signature
        return None
    names = [p.name for p in params[:count]]
    return names if len(names) == count else None


def _default_names(count, base):
    return [base] if count == 1 else [f"{base}{i}" for i in range(count)]


def _names_from(mapping, tensors):
    """The first public name each tensor has in a mapping such as locals(), or None."""
    found = []
    for tensor in tensors:
        found.append(next((str(k) for k, v in (mapping or {}).items()
                           if v is tensor and not str(k).startswith("_")), None))
    return found


@dataclass(frozen=True)
class Block:
    """J of one output with respect to one input, as a 2-D array (output elements × input elements)."""
    output: str
    input: str
    output_shape: Tuple[int, ...]
    input_shape: Tuple[int, ...]
    matrix: Any


class JacobianView:
    """What `viz.jacobian(f, x)` returns: `.J` (also `.jacobian`) is exactly what
    `autograd.functional.jacobian(f, x)` returned; in Jupyter it shows as labelled matrices."""

    def __init__(self, J, blocks, lang, limit=MAX_SHOWN):
        self.J = J
        self.blocks = blocks
        self.lang = lang
        self.limit = limit

    @property
    def jacobian(self):
        return self.J

    def _block_html(self, b):
        rows = index_labels(b.output, b.output_shape, "∂")
        cols = index_labels(b.input, b.input_shape, "∂")
        table, shown_rows, shown_cols = matrix_html(b.matrix, rows, cols, limit=self.limit)
        shape = _shape_text(b.output_shape + b.input_shape)
        about = t("jac_about", y=b.output, x=b.input, shape=shape, rows=len(rows), cols=len(cols))
        parts = [f'<div style="{_TITLE}">{html.escape(t("jac_title", y=b.output, x=b.input))}</div>',
                 f'<div style="{_NOTE}">{html.escape(about)}</div>']
        for name, s in ((b.output, b.output_shape), (b.input, b.input_shape)):
            if len(s) >= 2:
                flat = t("jac_flat", name=name, shape=_shape_text(s))
                parts.append(f'<div style="{_NOTE}">{html.escape(flat)}</div>')
        if shown_rows < len(rows) or shown_cols < len(cols):
            cut = t("jac_truncated", r=shown_rows, rows=len(rows), c=shown_cols, cols=len(cols))
            parts.append(f'<div style="{_WARN}">{html.escape(cut)}</div>')
        return f'<div style="margin:4px 0 10px 0">{"".join(parts)}{table}</div>'

    def html(self):
        with using(self.lang):
            body = "".join(self._block_html(b) for b in self.blocks)
            return f'<div class="gradlab-jacobian" lang="{self.lang}" style="{_BOX}">{body}</div>'

    def text(self):
        with using(self.lang):
            tensors = _flat_blocks(self.J)
            lines = []
            for b, tensor in zip(self.blocks, tensors):
                lines.append(t("jac_title", y=b.output, x=b.input) + f", J.shape = {_shape_text(tuple(tensor.shape))}:")
                lines.append(repr(tensor))
            return "\n".join(lines)

    def _repr_mimebundle_(self, include=None, exclude=None):
        try:
            page = self.html()
        except Exception:     # a view must never break a student's notebook: fall back to the text
            page = f"<pre>{html.escape(self.text())}</pre>"
        return {"text/html": page, "text/plain": self.text()}

    def __repr__(self):
        return self.text()


def _flat_blocks(J):
    """autograd.functional.jacobian's result (a Tensor, a tuple, or a tuple of tuples) as a flat list."""
    if isinstance(J, Tensor):
        return [J]
    return [b for item in J for b in _flat_blocks(item)]


def jacobian(f, inputs, names=None, output_name=None, lang=None, max_shown=MAX_SHOWN):
    """The Jacobian of f at `inputs` (a Tensor or a tuple of Tensors, as autograd.functional.jacobian),
    shown as labelled matrices: row ∂y[i] (the output's elements, flattened row-major), column ∂x[j].

    names: a mapping such as locals() to name the inputs; otherwise f's parameter names ('x', 'w'), or
    x / x0, x1, ... output_name: the output's name, 'y' by default (y0, y1, ... for a tuple of outputs).
    max_shown: larger Jacobians show the head and tail of their rows and columns, with a note.
    `.J` is the Jacobian tensor (or tuple) exactly as autograd.functional.jacobian returns it.
    """
    lang = resolve(lang)
    J = functional.jacobian(f, inputs)
    in_tuple = isinstance(inputs, tuple)
    xs = inputs if in_tuple else (inputs,)
    given = _names_from(names, xs) if names is not None else [None] * len(xs)
    fallback = _parameter_names(f, len(xs)) or _default_names(len(xs), "x")
    x_names = [g or d for g, d in zip(given, fallback)]
    # the output's shape is in J's shape: J[i][j].shape == outputs[i].shape + inputs[j].shape
    rows_of = J if (in_tuple and isinstance(J, tuple) and isinstance(J[0], tuple)) or \
        (not in_tuple and isinstance(J, tuple)) else (J,)
    out_count = len(rows_of)
    if isinstance(output_name, (tuple, list)):
        y_names = list(output_name)
    else:
        y_names = [output_name] if output_name and out_count == 1 else _default_names(out_count, output_name or "y")
    blocks = []
    for i, row in enumerate(rows_of):
        per_input = row if in_tuple else (row,)
        for j, (x, block) in enumerate(zip(xs, per_input)):
            x_shape = tuple(x.shape)
            full = tuple(block.shape)
            y_shape = full[:len(full) - len(x_shape)]
            matrix = block.detach().numpy().reshape(int(np.prod(y_shape, dtype=int)), int(np.prod(x_shape, dtype=int)))
            blocks.append(Block(y_names[i], x_names[j], y_shape, x_shape, matrix))
    return JacobianView(J, blocks, lang, max_shown)


# --- vjp(y, x, v) ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class VJPInput:
    """One input of the product: its name and shape, J (y's elements × its elements) and vᵀJ."""
    name: str
    shape: Tuple[int, ...]
    J: Any                       # 2-D numpy array
    result: Any                  # numpy array of the input's shape: what autograd.grad(y, x, v) returned
    stored: bool = True          # y.backward(v) stores it in x.grad: x is a leaf, or called retain_grad()


@dataclass(frozen=True)
class VJPData:
    """Everything the panel shows, as plain numpy data."""
    y: str
    y_shape: Tuple[int, ...]
    v_name: str
    v: Any                       # numpy array of y's shape (ones for a one-element y without v)
    v_given: bool
    inputs: Tuple[VJPInput, ...]


_FREED_HINT = (
    "\n\ngradlab: vjp() reads J from the graph recorded behind y, and a backward already ran through it "
    "and freed it. Build y again (run the cells that compute it) and call viz.vjp(y, x, v) before "
    "y.backward(v), or pass retain_graph=True to the backward that comes first.")


def _too_large(what, shape, limit):
    return ValueError(
        f"vjp() shows J as a table with one row per element of y and one column per element of each input, "
        f"but {what} has shape {_shape_text(shape)} ({int(np.prod(shape, dtype=int))} elements), more than "
        f"{limit}. Try the same computation on a smaller example (a few elements, e.g. x = torch.randn(3)); "
        f"for the numbers alone, autograd.grad(y, x, v) has no size limit.")


def _retaining(y):
    """The tensors in y's graph that called retain_grad(): each node keeps weak references to the tensors
    it produced (`_outputs`, as viz/graph.py reads them)."""
    found, seen, stack = [], set(), [y.grad_fn]
    while stack:
        fn = stack.pop()
        if fn is None or id(fn) in seen:
            continue
        seen.add(id(fn))
        for ref in getattr(fn, "_outputs", None) or ():
            tensor = ref()
            if tensor is not None and tensor.retains_grad:
                found.append(tensor)
        stack.extend(nxt for nxt, _ in fn.next_functions)
    return found


def vjp_data(y, inputs, v=None, names=None, input_names=None, max_elements=MAX_ELEMENTS):
    """J of y with respect to each input (one autograd.grad per element of y, retain_graph=True), v, and
    vᵀJ as autograd.grad(y, inputs, v) returns it. `.grad` is left alone and the graph stays usable.

    Refused: a y or input with more than `max_elements` elements (ValueError); a wrong v, no graph, an
    input y does not use: autograd.grad's own errors, which are backward's; a freed graph: backward's
    error plus what to do. Hooks registered on tensors of the graph (register_hook) run on each of these
    autograd.grad calls, as they would in PyTorch."""
    if not isinstance(y, Tensor):
        raise TypeError(f"vjp() expects the Tensor y that backward would start from, but got {type(y).__name__}")
    single = isinstance(inputs, Tensor)
    xs = (inputs,) if single else tuple(inputs)
    if not xs:
        raise ValueError("vjp() needs at least one input tensor x, as in vjp(y, x, v)")
    for i, x in enumerate(xs):
        if not isinstance(x, Tensor):
            raise TypeError(f"vjp() expects the inputs as a Tensor or a sequence of Tensors, but input {i} "
                            f"is a {type(x).__name__}")
    if y.numel() > max_elements:
        raise _too_large("y", tuple(y.shape), max_elements)
    for x, name in zip(xs, _names_from(names, xs)):
        if x.numel() > max_elements:
            raise _too_large(name or "an input", tuple(x.shape), max_elements)
    # autograd.grad fills the .grad of tensors that called retain_grad() (PyTorch's does too): put it back
    kept = [(r, r.grad) for r in _retaining(y)]
    try:
        # first the product itself: it raises exactly what y.backward(v) would for a wrong v or no graph
        results = autograd_grad(y, xs, v, retain_graph=True)
        rows = []
        base = y.detach().numpy()
        for k in range(y.numel()):
            one_hot = np.zeros(base.shape, base.dtype)
            one_hot.reshape(-1)[k] = 1
            rows.append(autograd_grad(y, xs, from_numpy(one_hot), retain_graph=True))
    except RuntimeError as error:
        if str(error) == SECOND_BACKWARD_ERROR:
            raise RuntimeError(SECOND_BACKWARD_ERROR + _FREED_HINT) from None
        raise
    finally:
        for r, grad in kept:
            r.grad = grad
    found = _names_from(names, [y] + list(xs))
    y_name = found[0] or "y"
    v_name = (_names_from(names, [v])[0] if v is not None else None) or "v"
    x_names = list(input_names) if input_names is not None else [
        n or d for n, d in zip(found[1:], _default_names(len(xs), "x"))]
    v_array = np.ones(tuple(y.shape), base.dtype) if v is None else v.detach().numpy().copy()
    parts = []
    for j, (x, name) in enumerate(zip(xs, x_names)):
        J = np.stack([r[j].detach().numpy().reshape(-1) for r in rows]) if rows else \
            np.zeros((0, x.numel()), base.dtype)
        parts.append(VJPInput(name, tuple(x.shape), J, results[j].detach().numpy().copy(),
                              x.grad_fn is None or x.retains_grad))
    return VJPData(y_name, tuple(y.shape), v_name, v_array, v is not None, tuple(parts))


def vjp_html(data, compact=False):
    """The panel in the active language: per input, `vᵀ · J = vᵀJ` as matrices side by side (they wrap
    below each other in a narrow column), then what it means. compact: the player's version (a short
    intro, no autograd.grad call spelled out)."""
    y, v = data.y, data.v_name
    call = f"{y}.backward({v if data.v_given else ''})"
    v_labels = index_labels(v, data.y_shape)
    parts = []
    if compact:
        parts.append(f'<div style="{_NOTE}">{html.escape(t("vjp_player_intro"))}</div>')
    else:
        parts.append(f'<div style="{_TITLE}">{html.escape(t("vjp_title", call=call))}</div>')
    if not data.v_given:
        parts.append(f'<div style="{_NOTE}">{html.escape(t("vjp_implicit", y=y))}</div>')
    for x in data.inputs:
        rows = index_labels(y, data.y_shape, "∂")
        cols = index_labels(x.name, x.shape, "∂")
        vt, _, _ = matrix_html(data.v.reshape(1, -1), None, v_labels, caption="vᵀ")
        jm, _, _ = matrix_html(x.J, rows, cols, caption=f"J = ∂{y}/∂{x.name}")
        res, _, _ = matrix_html(x.result.reshape(1, -1), None, cols, caption="vᵀJ")
        if len(data.inputs) > 1:
            parts.append(f'<div style="{_NOTE};font-weight:bold">{html.escape(t("vjp_wrt", x=x.name))}</div>')
        # side by side; in the player's narrow column one under the other, as wrapping would split them oddly
        flow = "flex-direction:column;align-items:flex-start" if compact else "flex-wrap:wrap;align-items:center"
        op = _OP + (";align-self:flex-start;padding:0 0 0 40px;line-height:1" if compact else "")
        parts.append(f'<div class="gradlab-vjp-row" style="display:flex;{flow};gap:4px">'
                     f'{vt}<span style="{op}">·</span>{jm}<span style="{op}">=</span>{res}</div>')
        value = array_text(x.result)
        if compact:
            same = t("vjp_same_player", x=x.name, value=value)
        else:
            names = ", ".join(i.name for i in data.inputs)
            names = names if len(data.inputs) == 1 else f"({names})"
            grad_call = f"autograd.grad({y}, {names}{', ' + v if data.v_given else ''})"
            same = t("vjp_same" if x.stored else "vjp_same_nonleaf", backward=call, x=x.name, grad=grad_call,
                     value=value)
        parts.append(f'<div style="{_NOTE}">{html.escape(same)}</div>')
    if data.inputs:
        parts.append(f'<div style="{_NOTE}">{html.escape(t("vjp_how", y=y, x=data.inputs[0].name))}</div>')
    if not compact:
        parts.append(f'<div style="{_NOTE}">{html.escape(t("vjp_built", y=y))}</div>')
        for name, shape in [(y, data.y_shape)] + [(x.name, x.shape) for x in data.inputs]:
            if len(shape) >= 2:       # flattened for the table: say in which order
                flat = t("jac_flat", name=name, shape=_shape_text(shape))
                parts.append(f'<div style="{_NOTE}">{html.escape(flat)}</div>')
    return f'<div class="gradlab-vjp" lang="{get_language()}" style="{_BOX}">{"".join(parts)}</div>'


def vjp_text(data):
    """The panel as plain text: the heading, then J and vᵀJ of each input as numpy prints them."""
    call = f"{data.y}.backward({data.v_name if data.v_given else ''})"
    lines = [t("vjp_title", call=call), f"vᵀ = {np.array2string(data.v.reshape(-1), precision=4)}"]
    for x in data.inputs:
        lines.append(f"J = ∂{data.y}/∂{x.name} =\n{np.array2string(x.J, precision=4)}")
        lines.append(f"vᵀJ = {np.array2string(x.result, precision=4)}")
    return "\n".join(lines)


class VJPPanel:
    """What `viz.vjp(y, x, v)` returns: `.data` (plain numpy: J, v, vᵀJ per input); in Jupyter,
    `vᵀ · J = vᵀJ` as matrices side by side, and what backward and autograd.grad do with it."""

    def __init__(self, data, lang):
        self.data = data
        self.lang = lang

    @property
    def J(self):
        """J of each input as a 2-D numpy array (one array for a single input, else a tuple)."""
        js = tuple(x.J for x in self.data.inputs)
        return js[0] if len(js) == 1 else js

    def html(self):
        with using(self.lang):
            return vjp_html(self.data)

    def text(self):
        with using(self.lang):
            return vjp_text(self.data)

    def _repr_mimebundle_(self, include=None, exclude=None):
        try:
            page = self.html()
        except Exception:     # never break a notebook: the text is always there
            page = f"<pre>{html.escape(self.text())}</pre>"
        return {"text/html": page, "text/plain": self.text()}

    def __repr__(self):
        return self.text()


def vjp(y, inputs, v=None, names=None, lang=None, max_elements=MAX_ELEMENTS):
    """Show the vector-Jacobian product behind `y.backward(v)` and `autograd.grad(y, inputs, v)`:
    J of y with respect to each input (read from the recorded graph, one autograd.grad per element of y,
    retain_graph=True), v, and vᵀJ side by side. `.grad` stays untouched and the graph intact, so call it
    before y.backward(v). v may be None only for a one-element y (then v = 1, as backward's).

    names: a mapping such as locals() to name y, v and the inputs (else y, v, x / x0, x1, ...).
    Refused: tensors with more than max_elements elements (a ValueError with the shape), a v of the wrong
    shape (backward's error), a graph a backward already freed (backward's error and what to do).
    """
    lang = resolve(lang)
    return VJPPanel(vjp_data(y, inputs, v, names=names, max_elements=max_elements), lang)
