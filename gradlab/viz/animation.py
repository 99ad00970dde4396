"""Backward, step by step: watch `.grad` fill in.

`animate_backward(out)` runs the REAL `out.backward()` while listening to the engine's events
(`gradlab.autograd.events`), turns those events into a list of `Frame`s (plain data: which node runs,
what it received, what it sends along each edge, which buffers are filling up, how each leaf's `.grad`
grows) and shows them in a player:

    Play  ◀ prev  [====slider====]  next ▶
    Stack of frames: caption, the graph (drawn ONCE by `dot`, restyled per frame), the .grad panels

Three layers, each usable alone:
1. `record_backward(...)`  -> frames (no drawing, no widgets; what the tests check);
2. `_graph_dot` / `_frame_html` -> DOT text and HTML for one frame (the graph is laid out once; a frame
   only adds a <style> block that colours nodes and shows edge values, so nodes never move);
3. `BackwardPlayer` -> the ipywidgets player, `save_html` (no kernel, no network) and `save_gif`.

Frames are switched in the browser (`jslink`/`jsdlink`), so the player keeps working after the kernel
stops and inside an HTML export of the notebook.
"""
import hashlib
import html
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Dict, Optional, Tuple

import numpy as np

from .i18n import get_language, set_language, t, using  # noqa: F401  (set_language re-exported)

MAX_NODES = 300


# --------------------------------------------------------------------------------------------------
# 1. Plain data
# --------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class NodeInfo:
    """One grad_fn node of the graph. `id` is its place in a topological walk from out.grad_fn."""
    id: str                      # "n0", "n1", ... (deterministic: never id())
    name: str                    # exactly grad_fn.name(), e.g. "torch::autograd::AccumulateGrad"
    title: str                   # short name for people: "AccumulateGrad", "MulBackward0"
    tensor: Optional[str]        # name of the tensor it produced (or, for AccumulateGrad, of the leaf)
    is_accumulate: bool


@dataclass(frozen=True)
class Edge:
    """A gradient path: `source` node sends the gradient of its input slot `input_nr` to `target`."""
    id: str                      # "e0", "e1", ...
    source: str                  # node id
    input_nr: int
    target: str                  # node id
    output_nr: int               # which output of `target` the gradient belongs to


@dataclass(frozen=True)
class SentGradient:
    """A gradient sent along one edge during one step, and the target's buffer right after."""
    edge: Edge
    value: Any                   # numpy array
    buffer_total: Any            # numpy array: what the target holds so far for that output
    remaining: int               # contributions the target still awaits before it can run


@dataclass(frozen=True)
class Buffer:
    """The gradient a node is collecting before it runs: every contribution so far and their sum."""
    node: str
    output_nr: int
    contributions: Tuple[Any, ...]
    total: Any
    remaining: int


@dataclass(frozen=True)
class GradPanel:
    """A leaf's `.grad` at a step: `old` (before this backward), `added` (this backward), `new` (now)."""
    leaf: str                    # the leaf's name ("x", or "leaf 0" when unnamed)
    node: str                    # its AccumulateGrad node id
    old: Any                     # numpy array, or None when .grad was None
    added: Any                   # numpy array, or None when nothing has arrived yet
    new: Any                     # numpy array, or None
    just_now: bool               # True on the step where the accumulation happens


@dataclass(frozen=True)
class Frame:
    """One step of the animation. Step 0 is the start (the output's own gradient); then one per node."""
    index: int
    node: Optional[NodeInfo]     # the node running now (None at the start)
    received: Tuple[Any, ...]    # the gradient it received, one numpy array (or None) per output
    sent: Tuple[SentGradient, ...]
    buffers: Tuple[Buffer, ...]  # the buffers this step added into (running sums, remaining counts)
    grads: Tuple[GradPanel, ...]  # every leaf's .grad panel
    finished: Tuple[str, ...]    # ids of nodes that have run, this one included
    waiting: Tuple[str, ...]     # ids of nodes holding part of their gradient, not yet run
    caption: str

    @property
    def edge_values(self):
        """{(source title, input_nr, target title) or edge id: value}: handy in a notebook."""
        return {s.edge.id: s.value for s in self.sent}


@dataclass
class Recording:
    """The graph (nodes, edges) plus the frames of one backward."""
    nodes: Tuple[NodeInfo, ...]
    edges: Tuple[Edge, ...]
    frames: list
    root_name: Optional[str]
    leaves: Tuple[Tuple[str, str], ...]        # (AccumulateGrad node id, leaf name)
    root_grad: Any = None
    extra: Dict[str, Any] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------------
# Value text: short, shape-aware, plain words
# --------------------------------------------------------------------------------------------------
def _num(v):
    if isinstance(v, (bool, np.bool_)):
        return str(bool(v))
    v = float(v)
    if v == 0:
        return "0"
    return f"{v:.4g}"


def _nested(a):
    if a.ndim == 0:
        return _num(a)
    return "[" + ", ".join(_nested(row) for row in a) + "]"


def value_text(a, limit=6):
    """'0.25', '2.25 everywhere', '[[1, 2], [3, 4]]', or a summary for larger tensors."""
    if a is None:
        return "None"
    a = np.asarray(a)
    if a.size == 1 and a.ndim == 0:
        return _num(a)
    if a.size == 0:
        return t("empty")
    flat = a.reshape(-1)
    if np.all(flat == flat[0]):
        return t("everywhere", v=_num(flat[0]))
    if a.size <= limit:
        return _nested(a)
    shape = "×".join(map(str, a.shape))
    return t("range", lo=_num(flat.min()), hi=_num(flat.max()), shape=shape)


def sum_text(terms, total):
    """'4.5 + 4.5 = 9 everywhere' when every term is constant, else each value written out."""
    arrays = [np.asarray(t) for t in terms if t is not None] + [np.asarray(total)]
    constant = all(a.size > 1 and np.all(a.reshape(-1) == a.reshape(-1)[0]) for a in arrays) and \
        len({a.shape for a in arrays}) == 1
    if constant:
        words = ["None" if t is None else _num(np.asarray(t).reshape(-1)[0]) for t in terms]
        return " + ".join(words) + " = " + t("everywhere", v=_num(arrays[-1].reshape(-1)[0]))
    words = ["None" if t is None else value_text(t) for t in terms]
    return " + ".join(words) + f" = {value_text(total)}"


def _short_value(a):
    """Edge labels: even shorter."""
    text = value_text(a, limit=4)
    return text if len(text) <= 28 else t("shape", shape="×".join(map(str, np.asarray(a).shape)))


# --------------------------------------------------------------------------------------------------
# Checks that must happen before anything runs
# --------------------------------------------------------------------------------------------------
def _tensor_names(names):
    """names (e.g. locals()) -> {id(tensor): name}. Only used to look up live objects, never shown."""
    from ..tensor import Tensor
    table = {}
    for key, value in (names or {}).items():
        if isinstance(value, Tensor) and not str(key).startswith("_") and id(value) not in table:
            table[id(value)] = str(key)
    return table


def _walk(out, gradient, inputs):
    """The nodes backward will run, in the engine's topological order, with the engine's own checks."""
    from ..autograd import engine
    from ..autograd.node import SECOND_BACKWARD_ERROR
    roots = engine._root_edges([out], [gradient])          # no graph / non-scalar / shape errors
    root_node, root_nr, root_grad = roots[0]
    _, order = engine._discover([root_node])
    if inputs is not None:
        targets = set()
        for t in inputs:
            if t.grad_fn is not None:
                targets.add(t.grad_fn)
            elif t.requires_grad and t._accumulator is not None and t._accumulator() is not None:
                targets.add(t._accumulator())
        needed = engine._needed_nodes(order, targets)
        order = [n for n in order if n in needed]
    if any(getattr(n, "_freed", False) for n in order):
        raise RuntimeError(SECOND_BACKWARD_ERROR)
    return order, root_nr, root_grad


def _too_large(count, max_nodes, functions_only):
    hint = ("" if functions_only else
            "pass functions_only=True to draw only the grad_fn nodes, or ")
    return ValueError(
        f"This graph has {count} nodes to draw, more than max_nodes={max_nodes} can animate readably. "
        f"Options: {hint}animate a subgraph by passing inputs=[...] (only the part of the graph that "
        f"leads to those tensors) or a smaller output (e.g. one term of the loss), "
        f"or raise max_nodes if you really want all of it."
    )


def _count_drawn(order, functions_only):
    """Function nodes, plus (unless functions_only) the output box and one box per leaf."""
    from ..autograd.node import AccumulateGrad
    if functions_only:
        return len(order)
    return len(order) + 1 + sum(isinstance(n, AccumulateGrad) for n in order)


# --------------------------------------------------------------------------------------------------
# Recording: run the real backward, turn events into frames
# --------------------------------------------------------------------------------------------------
def record_backward(out, gradient=None, retain_graph=False, names=None, inputs=None, lang=None):
    """Run `out.backward(gradient, retain_graph=...)` for real and return its steps as `Frame`s
    (captions in `lang`: 'en', 'ko' or 'zh'; None: the global setting, see viz.set_language)."""
    with using(lang):
        return _record(out, gradient, retain_graph, names, inputs).frames


def _prepare(out, gradient, inputs, names, functions_only, max_nodes):
    from ..tensor import Tensor
    if not isinstance(out, Tensor):
        raise TypeError(f"animate_backward() expects the Tensor to run backward from, but got {type(out).__name__}")
    order, root_nr, root_grad = _walk(out, gradient, inputs)
    count = _count_drawn(order, functions_only)
    if max_nodes is not None and count > max_nodes:
        raise _too_large(count, max_nodes, functions_only)
    return order, root_grad


def _record(out, gradient=None, retain_graph=False, names=None, inputs=None,
            functions_only=False, max_nodes=None, _prepared=None):
    from ..autograd import events
    from ..autograd.node import AccumulateGrad
    order, root_grad = _prepared or _prepare(out, gradient, inputs, names, functions_only, max_nodes)
    table = _tensor_names(names)

    ids = {node: f"n{i}" for i, node in enumerate(order)}
    infos = {}
    for node in order:
        if isinstance(node, AccumulateGrad):
            tensor = node.variable
        else:
            outputs = getattr(node, "_outputs", ()) or ()
            tensor = outputs[0]() if outputs else None
        tname = table.get(id(tensor)) if tensor is not None else None
        title = node.name().split("::")[-1]
        infos[node] = NodeInfo(ids[node], node.name(), title, tname, isinstance(node, AccumulateGrad))
    leaf_names = {}
    for i, node in enumerate(n for n in order if isinstance(n, AccumulateGrad)):
        leaf_names[node] = infos[node].tensor or t("leaf_n", i=i)

    edges, edge_of = [], {}
    for node in order:
        for input_nr, (child, output_nr) in enumerate(node.next_functions):
            if child is not None and child in ids:
                edge = Edge(f"e{len(edges)}", ids[node], input_nr, ids[child], output_nr)
                edges.append(edge)
                edge_of[(node, input_nr)] = edge

    # .grad before this backward: the panels start from it (accumulation across calls).
    start_grad = {node: (None if node.variable._grad is None else np.array(node.variable._grad._data, copy=True))
                  for node in order if isinstance(node, AccumulateGrad)}

    with events.record() as log:
        out.backward(gradient, retain_graph=retain_graph, inputs=inputs)

    root_name = table.get(id(out))
    rec = Recording(tuple(infos[n] for n in order), tuple(edges), [], root_name,
                    tuple((ids[n], leaf_names[n]) for n in order if isinstance(n, AccumulateGrad)))
    rec.root_grad = np.array(root_grad._data, copy=True)
    rec.extra["slots"] = {ids[n]: tuple(range(len(n.next_functions))) for n in order}
    rec.extra["gradient_given"] = gradient is not None
    rec.extra["lang"] = get_language()
    rec.frames = _frames_from_events(log, rec, infos, ids, edge_of, leaf_names, start_grad, order)
    _finish_recording(rec)
    return rec


def _frames_from_events(log, rec, infos, ids, edge_of, leaf_names, start_grad, order):
    from ..autograd import events
    contributions = {}           # (node id, output_nr) -> list of arrays received so far
    finished, grads_now = [], dict(start_grad)
    added = {}                   # AccumulateGrad node -> array added by this backward
    frames = []

    def panels(just):
        return tuple(
            GradPanel(leaf_names[n], ids[n], start_grad[n], added.get(n), grads_now[n], n is just)
            for n in order if n in start_grad
        )

    def waiting():
        done = set(finished)
        return tuple(sorted({k[0] for k in contributions} - done, key=lambda i: int(i[1:])))

    def close(current):
        """Turn one node's events into its frame (a node captured for inputs= may not finish)."""
        node = current["node"]
        finished.append(ids[node])
        sent = tuple(current["sent"])
        touched = []
        for s in sent:
            key = (s.edge.target, s.edge.output_nr)
            if key not in touched:
                touched.append(key)
        buffers = tuple(
            Buffer(k[0], k[1], tuple(contributions[k]), _last_total(sent, k), _last_remaining(sent, k))
            for k in touched
        )
        frame = Frame(len(frames), infos[node], tuple(current["received"]), sent, buffers,
                      panels(current["just"]), tuple(finished), waiting(), "")
        frames.append(_replace_caption(frame, _node_caption(rec, infos, frame, current.get("accumulated"))))

    current = None
    for event in log:
        if isinstance(event, (events.NodeStarted, events.NodeFinished, events.BackwardFinished)) \
                and current is not None:
            close(current)
            current = None
        if isinstance(event, events.BackwardStarted):
            root = event.roots[0]
            if root in ids:
                contributions[(ids[root], 0)] = [event.root_grads[0]]
            frames.append(Frame(0, None, (), (), (), panels(None), (), waiting(),
                                _start_caption(rec, event.root_grads[0])))
        elif isinstance(event, events.NodeStarted) and event.node in ids:
            current = {"node": event.node, "received": event.grad_outputs, "sent": [], "just": None}
        elif isinstance(event, events.GradientSent) and current is not None:
            edge = edge_of.get((event.node, event.input_nr))
            if edge is not None:
                contributions.setdefault((edge.target, edge.output_nr), []).append(event.grad)
                current["sent"].append(SentGradient(edge, event.grad, event.buffer_total, event.remaining))
        elif isinstance(event, events.GradAccumulated) and current is not None:
            node = next((n for n in start_grad if n.variable is event.variable), None)
            if node is not None:
                added[node] = event.added if node not in added else added[node] + event.added
                grads_now[node] = event.new
                current["just"] = node
                current["accumulated"] = event
    return frames


def _last_total(sent, key):
    return [s.buffer_total for s in sent if (s.edge.target, s.edge.output_nr) == key][-1]


def _last_remaining(sent, key):
    return [s.remaining for s in sent if (s.edge.target, s.edge.output_nr) == key][-1]


def _replace_caption(frame, caption):
    from dataclasses import replace
    return replace(frame, caption=caption)


# --------------------------------------------------------------------------------------------------
# Captions: one line, plain words
# --------------------------------------------------------------------------------------------------
def _grad_name(tensor_name):
    if not tensor_name:
        return None
    # "dL/d2.bias" would read like a second derivative: a name that is not a plain identifier gets brackets
    return f"dL/d{tensor_name}" if tensor_name.isidentifier() else f"dL/d({tensor_name})"


def _start_caption(rec, root_grad):
    name = rec.root_name
    value = value_text(root_grad)
    # "changes exactly as fast as itself" explains the implicit 1 of a scalar; a passed gradient= is the user's
    implicit = np.all(np.asarray(root_grad) == 1) and not rec.extra.get("gradient_given")
    if name:
        if implicit:
            return t("start_implicit_named", name=name, g=_grad_name(name), value=value)
        return t("start_given_named", name=name, value=value)
    if implicit:
        return t("start_implicit", value=value)
    return t("start_given", value=value)


def _node_caption(rec, infos, frame, accumulated):
    info = frame.node
    by_id = {n.id: n for n in rec.nodes}
    received = [g for g in frame.received if g is not None]
    rtext = value_text(received[0]) if received else t("nothing")
    own = _grad_name(info.tensor)
    got = t("got_named", own=own, value=rtext) if own else t("got_unnamed", value=rtext)

    if info.is_accumulate:
        leaf = next(p for p in frame.grads if p.node == info.id)
        if accumulated is None:
            return t("acc_nothing", got=got, leaf=leaf.leaf)
        old, add, new = accumulated.old, accumulated.added, accumulated.new
        if old is None:
            return t("acc_store", got=got, leaf=leaf.leaf, new=value_text(new))
        return t("acc_add", got=got, leaf=leaf.leaf, sum=sum_text([old, add], new))

    text = t("fn_received", title=info.title, got=got)
    if not frame.sent:
        return text + t("nothing_to_send")
    groups = []                  # (target id, output_nr) -> list of SentGradient, in order
    for s in frame.sent:
        key = (s.edge.target, s.edge.output_nr)
        for g in groups:
            if g[0] == key:
                g[1].append(s)
                break
        else:
            groups.append((key, [s]))
    n_inputs = len(_input_slots(rec, info.id))
    parts = []
    for (target, _), items in groups:
        tinfo = by_id[target]
        tname = tinfo.tensor
        what = f"{_grad_name(tname)} = " if tname else ""
        if len(items) == 1:
            dest = tinfo.title if not tname or tinfo.is_accumulate else t("dest_grad_fn", title=tinfo.title,
                                                                           tensor=tname)
            parts.append(t("send_one", what=what, value=value_text(items[0].value), dest=dest))
        else:
            who = tname or t("output_of", title=tinfo.title)
            both = t("both_inputs") if len(items) == 2 == n_inputs else t("n_inputs", n=len(items))
            same = t("both_are") if len(items) == 2 else t("all_are")
            values = [value_text(s.value) for s in items]
            each = values[0] if len(set(values)) == 1 else t("and_values").join(values)
            parts.append(t("send_many", what=what, each=each, both=both, same=same, who=who,
                           total=value_text(items[-1].buffer_total)))
    text += t("sends_intro") + t("sends_join").join(parts)
    constants = n_inputs - len(frame.sent)
    if constants > 0 and len(frame.sent) >= 1:
        text += t("one_constant") if constants == 1 else t("n_constants", n=constants)
    for (target, _), items in groups:
        if items[-1].remaining > 0:
            tinfo = by_id[target]
            total = value_text(items[-1].buffer_total)
            text += (t("waits_one", title=tinfo.title, total=total) if items[-1].remaining == 1
                     else t("waits_n", title=tinfo.title, total=total, n=items[-1].remaining))
    return text + t("end")


def _input_slots(rec, node_id):
    return rec.extra.get("slots", {}).get(node_id, ())


# --------------------------------------------------------------------------------------------------
# 2. Drawing: one DOT, laid out once; a frame only restyles it
# --------------------------------------------------------------------------------------------------
COLORS = {
    "idle_fill": "#f5f5f5", "idle_line": "#9e9e9e",
    "run_fill": "#ffd54f", "run_line": "#e65100",
    "done_fill": "#c8e6c9", "done_line": "#2e7d32",
    "wait_fill": "#ffe0b2", "wait_line": "#ef6c00",
    "tensor_fill": "#e3f2fd", "tensor_line": "#1565c0",
    "hot": "#bf360c", "text": "#424242",     # hot: 5.6:1 on white (WCAG AA asks 4.5:1)
}


def _dot_quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _graph_dot(rec, functions_only=False, rankdir="TB", frame=None):
    """DOT text of the backward graph. With `frame`, colours are baked in (for the GIF); without it
    every element carries a class (gl_n3, gl_e5) that a frame's <style> block recolours."""
    c = COLORS
    lines = [
        "digraph backward {",
        f'  graph [rankdir={_dot_quote(rankdir)}, fontname="Helvetica", nodesep=0.5, ranksep=0.55, '
        'bgcolor="white", pad=0.2];',
        f'  node [fontname="Helvetica", fontsize=12, shape=box, style="rounded,filled", '
        f'fillcolor="{c["idle_fill"]}", color="{c["idle_line"]}", penwidth=1.5];',
        f'  edge [fontname="Helvetica", fontsize=11, color="{c["idle_line"]}", fontcolor="{c["text"]}", '
        f'penwidth=1.3];',
    ]
    state = _frame_state(rec, frame) if frame is not None else None
    if frame is not None:
        lines.append('  graph [size="9,10", dpi=96];')     # GIF frames: at most ~860x960 px, fast to encode

    def node_style(key):
        if state is None:
            return ""
        kind = state["nodes"].get(key)
        if kind is None:
            return ""
        fill, line = c[kind + "_fill"], c[kind + "_line"]
        width = 3 if kind == "run" else 1.5
        return f', fillcolor="{fill}", color="{line}", penwidth={width}'

    def edge_style(key):
        if state is None:
            return ""
        kind = state["edges"].get(key, "unsent")
        if kind == "hot":
            return f', color="{c["hot"]}", fontcolor="{c["hot"]}", penwidth=3'
        if kind == "unsent":
            return ', fontcolor="#ffffff00"'
        return ""

    if not functions_only:
        root_label = _esc_label(rec.root_name or t("output")) + "\\n" + t("start_of_backward")
        lines.append(f'  root [label="{root_label}", shape=box, style="filled", '
                     f'fillcolor="{c["tensor_fill"]}", color="{c["tensor_line"]}", class="gl_root"{node_style("root")}];')
    for n in rec.nodes:
        if n.is_accumulate:
            label = t("into_grad", leaf=_esc_label(n.tensor or t("the_leaf")))
        else:
            label = _esc_label(n.title) + ("\\n" + t("grad_fn_of", tensor=_esc_label(n.tensor)) if n.tensor else "")
        lines.append(f'  {n.id} [label="{label}", class="gl_{n.id}"{node_style(n.id)}];')
    if not functions_only:
        first = rec.nodes[0].id if rec.nodes else None
        if first:
            lines.append(f'  root -> {first} [label={_dot_quote(" " + _short_value(rec.root_grad) + " ")}, '
                         f'class="gl_eroot"{edge_style("root")}];')
        for node_id, leaf in rec.leaves:
            key = "leaf_" + node_id
            lines.append(f'  {key} [label="{_esc_label(leaf)}\\n{t("leaf_box")}", shape=box, style="filled", '
                         f'fillcolor="{c["tensor_fill"]}", color="{c["tensor_line"]}", class="gl_{key}"{node_style(key)}];')
            lines.append(f'  {node_id} -> {key} [label=" .grad ", style=dashed, class="gl_e{key}"{edge_style(key)}];')
    for e in rec.edges:
        value = rec.extra["edge_values"].get(e.id)
        label = _dot_quote(" " + (_short_value(value) if value is not None else "") + " ")
        lines.append(f'  {e.source} -> {e.target} [label={label}, class="gl_e{e.id}"{edge_style(e.id)}];')
    lines.append("}")
    return "\n".join(lines) + "\n"


def _esc_label(text):
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _frame_state(rec, frame):
    """How each node and edge looks at a frame: node kinds run/done/wait; edges hot/sent/unsent."""
    nodes, edges = {}, {}
    for node_id in frame.waiting:
        nodes[node_id] = "wait"
    for node_id in frame.finished:
        nodes[node_id] = "done"
    if frame.node is not None:
        nodes[frame.node.id] = "run"
    else:
        nodes["root"] = "run"
        edges["root"] = "hot"
    if frame.index > 0:
        nodes["root"] = "done"
        edges["root"] = "sent"
    sent_before = rec.extra["sent_at"]
    for edge_id, at in sent_before.items():
        if at < frame.index:
            edges[edge_id] = "sent"
        elif at == frame.index:
            edges[edge_id] = "hot"
    for p in frame.grads:
        key = "leaf_" + p.node
        if p.just_now:
            nodes[key] = "run"
            edges[key] = "hot"
        elif p.added is not None:
            nodes[key] = "done"
            edges[key] = "sent"
    return {"nodes": nodes, "edges": edges}


def _finish_recording(rec):
    """Derived tables the drawings need: each edge's value and the step that sends it."""
    values, sent_at = {}, {}
    for f in rec.frames:
        for s in f.sent:
            values[s.edge.id] = s.value
            sent_at[s.edge.id] = f.index
    rec.extra["edge_values"] = values
    rec.extra["sent_at"] = sent_at


def _dot_program():
    return shutil.which("dot")


def _run_dot(source, fmt):
    """`dot -T<fmt>` on DOT text; None when the program is missing or fails."""
    exe = _dot_program()
    if exe is None:
        return None
    try:
        done = subprocess.run([exe, f"-T{fmt}"], input=source.encode("utf-8"), capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def _render_svg(source):
    """SVG text, through the visualizer's renderer when it is installed, else `dot` directly."""
    try:
        from .render import render_svg
    except ImportError:
        render_svg = None
    if render_svg is not None:
        try:
            svg = render_svg(source)
        except Exception:       # the visualizer's renderer may be mid-development: fall back to ours
            svg = None
        if svg:
            return svg if isinstance(svg, str) else svg.decode("utf-8")
    data = _run_dot(source, "svg")
    return data.decode("utf-8") if data else None


def _clean_svg(svg):
    """Inline-ready SVG: no XML prolog, DOCTYPE, comments, ids or namespace URLs (the HTML parser
    puts <svg> in the SVG namespace anyway, and the exported file must name no external URL)."""
    svg = svg[svg.index("<svg"):]
    svg = re.sub(r"<!--.*?-->", "", svg, flags=re.S)
    svg = re.sub(r'\s+xmlns(:\w+)?="[^"]*"', "", svg)
    svg = re.sub(r'\s+id="[^"]*"', "", svg)
    svg = svg.replace("&#45;", "-")
    return re.sub(r"\n\s*\n", "\n", svg).strip()


# Layout: the text (step, caption, .grad panels, details, legend) in a fixed-size column on the left, the
# graph beside it scaled to fit the same height. A real network's caption and six .grad panels then never
# push the running node below the fold (at 1280x800 the whole frame fits on screen), and nothing moves
# between steps: the column keeps its size and scrolls inside itself when a step has much to say.
# The frame has its own light background, so its colours keep their contrast in JupyterLab's dark theme.
FRAME_HEIGHT = 540      # px: the text column's height and the graph's largest height
BASE_CSS = """
.gradlab-frame{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;color:#212121;max-width:1200px;
 background:#fff;padding:6px;border-radius:4px}
.gradlab-layout{display:flex;align-items:flex-start;gap:12px}
.gradlab-text{flex:0 0 340px;height:__H__px;overflow-y:auto}
.gradlab-layout>.gradlab-graph{flex:1 1 auto;min-width:0;text-align:center}
.gradlab-caption{font-size:15px;line-height:1.4;padding:8px 12px;margin:4px 0 8px 0;background:#fff8e1;
 border-left:5px solid #ffb300;border-radius:4px}
.gradlab-step{font-size:12px;color:#616161;margin-bottom:2px}
.gradlab-graph svg{max-width:100%;max-height:__H__px;width:auto;height:auto}
.gradlab-panels{display:flex;flex-wrap:wrap;gap:8px;margin-top:6px}
.gradlab-panel{border:1px solid #90caf9;border-radius:6px;padding:6px 10px;background:#f5fbff;font-size:13px}
.gradlab-panel.gradlab-now{border:2px solid #e65100;background:#fff3e0}
.gradlab-panel b{font-family:monospace}
.gradlab-legend{font-size:12px;color:#555;margin:6px 0 2px 0}
.gradlab-legend span{padding:1px 6px;border-radius:3px;margin-right:4px}
.gradlab-details{font-size:12px;color:#555;margin-top:6px}
.gradlab-table{border-collapse:collapse;font-size:13px}
.gradlab-table td,.gradlab-table th{border:1px solid #ddd;padding:3px 8px;text-align:left}
""".replace("__H__", str(FRAME_HEIGHT)).strip()


def legend_html():
    """The colour legend, in the active language."""
    return ('<div class="gradlab-legend">'
            f'<span style="background:{COLORS["run_fill"]}">{t("running_now")}</span> '
            f'<span style="background:{COLORS["wait_fill"]}">{t("collecting")}</span> '
            f'<span style="background:{COLORS["done_fill"]}">{t("done")}</span> '
            f'<span style="color:{COLORS["hot"]};font-weight:bold">{t("sent_now")}</span></div>')


def __getattr__(name):
    if name == "LEGEND":                  # the English legend, as this module used to export it
        with using("en"):
            return legend_html()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _frame_css(scope, rec, frame):
    """The per-frame <style>: colours nodes and edges of the shared SVG, shows the edge values sent so far."""
    c = COLORS
    state = _frame_state(rec, frame)
    rules = []
    shapes = "path,polygon,ellipse"
    for key, kind in state["nodes"].items():
        sel = ",".join(f".{scope} g.gl_{key}>{s}" for s in shapes.split(","))
        width = 3 if kind == "run" else 1.5
        rules.append(f"{sel}{{fill:{c[kind + '_fill']};stroke:{c[kind + '_line']};stroke-width:{width}px}}")
    all_edges = ["root"] + [e.id for e in rec.edges] + ["leaf_" + n for n, _ in rec.leaves]
    for key in all_edges:
        kind = state["edges"].get(key, "unsent")
        g = f".{scope} g.gl_e{key}"
        if kind == "unsent":
            rules.append(f"{g} text{{visibility:hidden}}")
        elif kind == "hot":
            rules.append(f"{g} path{{stroke:{c['hot']};stroke-width:3px}}"
                         f"{g} polygon{{stroke:{c['hot']};fill:{c['hot']}}}"
                         f"{g} text{{fill:{c['hot']};font-weight:bold}}")
        else:
            rules.append(f"{g} path{{stroke:#616161}}{g} polygon{{stroke:#616161;fill:#616161}}")
    return "\n".join(rules)


def _panels_html(frame):
    out = []
    for p in frame.grads:
        name = html.escape(p.leaf)
        if p.added is None:
            body = (f"<b>{name}.grad</b> = {html.escape(value_text(p.old))}"
                    + html.escape(t("from_earlier") if p.old is not None else t("nothing_yet")))
        else:
            body = f"<b>{name}.grad</b>: {html.escape(sum_text([p.old, p.added], p.new))}"
            if p.old is None:
                body += html.escape(t("store_g"))
        cls = "gradlab-panel gradlab-now" if p.just_now else "gradlab-panel"
        out.append(f'<div class="{cls}">{body}</div>')
    return '<div class="gradlab-panels">' + "".join(out) + "</div>"


def _details_html(rec, frame):
    by_id = {n.id: n for n in rec.nodes}
    rows = []
    if frame.node is not None:
        got = ", ".join(value_text(g) for g in frame.received if g is not None) or t("nothing")
        rows.append(html.escape(t("received", value=got)))
    for s in frame.sent:
        rows.append(html.escape(t("input_to", nr=s.edge.input_nr, title=by_id[s.edge.target].title,
                                  value=value_text(s.value))))
    for b in frame.buffers:
        text = sum_text(b.contributions, b.total) if len(b.contributions) > 1 else value_text(b.total)
        state = t("complete") if b.remaining == 0 else t("waits_for", n=b.remaining)
        rows.append(html.escape(t("buffer", title=by_id[b.node].title, text=text, state=state)))
    return '<div class="gradlab-details">' + " · ".join(rows) + "</div>" if rows else ""


def _table_html(rec, frame):
    """Fallback graph view without `dot`: the nodes in order with their state."""
    state = _frame_state(rec, frame)["nodes"]
    names = {"run": t("running_now"), "done": t("done"), "wait": t("collecting"), None: ""}
    rows = []
    for n in rec.nodes:
        kind = state.get(n.id)
        color = COLORS[kind + "_fill"] if kind else "white"
        label = html.escape(n.title + (f" ({n.tensor})" if n.tensor and not n.is_accumulate else "")
                            + (f" → {n.tensor}.grad" if n.is_accumulate and n.tensor else ""))
        rows.append(f'<tr style="background:{color}"><td>{n.id}</td><td>{label}</td><td>{names[kind]}</td></tr>')
    return (f'<table class="gradlab-table"><tr><th>#</th><th>{t("col_node")}</th><th>{t("col_state")}</th></tr>'
            + "".join(rows) + "</table>")


def _frame_html(rec, frame, svg, uid, n_frames):
    scope = f"gl{uid}f{frame.index}"
    graph = _table_html(rec, frame) if svg is None else svg
    style = f"<style>{BASE_CSS}\n{_frame_css(scope, rec, frame) if svg is not None else ''}</style>"
    step = t("step_start") if frame.index == 0 else t("step_of", i=frame.index, n=n_frames - 1)
    return (f'<div class="gradlab-frame {scope}" lang="{get_language()}">{style}<div class="gradlab-layout"><div class="gradlab-text">'
            f'<div class="gradlab-step">{step}</div>'
            f'<div class="gradlab-caption">{html.escape(frame.caption)}</div>'
            f"{_panels_html(frame)}{_details_html(rec, frame)}{legend_html()}</div>"
            f'<div class="gradlab-graph">{graph}</div></div></div>')


# --------------------------------------------------------------------------------------------------
# 3. The player
# --------------------------------------------------------------------------------------------------
class BackwardPlayer:
    """Frames of one backward plus their views: `.widget` (ipywidgets), `save_html`, `save_gif`."""

    def __init__(self, recording, functions_only=False, rankdir="TB", interval_ms=1500, lang=None):
        self.lang = recording.extra.get("lang") if lang is None else lang
        with using(self.lang):
            self.lang = get_language()
            self._init(recording, functions_only, rankdir, interval_ms)

    def _init(self, recording, functions_only, rankdir, interval_ms):
        self.recording = recording
        self.frames = recording.frames
        self.functions_only = functions_only
        self.rankdir = rankdir
        self.interval_ms = interval_ms
        self.dot_source = _graph_dot(recording, functions_only, rankdir)
        raw = _render_svg(self.dot_source)
        self.svg = _clean_svg(raw) if raw else None
        self._raw_svg = raw[raw.index("<svg"):] if raw else None      # keeps xmlns: usable as an <img>
        digest = hashlib.sha1((self.dot_source + "".join(f.caption for f in self.frames)).encode()).hexdigest()
        self._uid = digest[:8]
        self.frames_html = [_frame_html(recording, f, self.svg, self._uid, len(self.frames)) for f in self.frames]
        self._widget = None
        self.links = ()

    def __len__(self):
        return len(self.frames)

    def __repr__(self):
        return f"<gradlab backward player: {len(self.frames)} steps>"

    @property
    def widget(self):
        if self._widget is None:
            with using(self.lang):
                self._widget = self._build_widget()
        return self._widget

    def _build_widget(self):
        import ipywidgets as w
        last = len(self.frames) - 1
        play = w.Play(value=0, min=0, max=last, step=1, interval=self.interval_ms, description=t("play"),
                      show_repeat=False)
        slider = w.IntSlider(value=0, min=0, max=last, step=1, description=t("step"),
                             continuous_update=True, layout=w.Layout(width="320px"))
        prev = w.Button(description=t("prev"), layout=w.Layout(width="96px"), tooltip=t("prev_tip"))
        nxt = w.Button(description=t("next"), layout=w.Layout(width="96px"), tooltip=t("next_tip"))
        # prev/next need the kernel (Buttons have no client-side action); Play, the slider and the
        # step box (its ▲/▼ arrows step one frame) do not: they are linked in the browser.
        prev.on_click(lambda _: setattr(slider, "value", max(slider.min, slider.value - 1)))
        nxt.on_click(lambda _: setattr(slider, "value", min(slider.max, slider.value + 1)))
        stepper = w.BoundedIntText(value=0, min=0, max=last, step=1, layout=w.Layout(width="64px"),
                                   continuous_update=True,
                                   tooltip=t("stepper_tip"))
        stack = w.Stack([w.HTML(value=h) for h in self.frames_html], selected_index=0)
        self.links = (w.jslink((play, "value"), (slider, "value")),
                      w.jsdlink((slider, "value"), (stack, "selected_index")),
                      w.jslink((slider, "value"), (stepper, "value")))
        self.play, self.slider, self.prev_button, self.next_button, self.stack = play, slider, prev, nxt, stack
        self.stepper = stepper
        return w.VBox([w.HBox([play, prev, slider, nxt, stepper]), stack])

    def _repr_mimebundle_(self, include=None, exclude=None, **kwargs):
        bundle = self.widget._repr_mimebundle_(include=include, exclude=exclude)
        if isinstance(bundle, tuple):
            bundle = bundle[0]
        bundle = dict(bundle or {})
        bundle["text/plain"] = repr(self)
        # What a notebook shows when it cannot run the widget (opened untrusted: from git, Binder, a
        # teacher's file; nbviewer, GitHub): the graph as a picture and one line on how to play it.
        # A live or trusted JupyterLab prefers the widget-view output over this.
        bundle["text/html"] = self.static_html()
        return bundle

    def static_html(self):
        """The graph as an <img> (or the node table without `dot`) plus one line: run the cell to play."""
        from .render import svg_img_html
        with using(self.lang):
            n = len(self.frames) - 1
            if self._raw_svg is not None:
                picture = svg_img_html(self._raw_svg, nodes=len(self.recording.nodes), alt=t("alt", n=n))
            else:
                picture = _table_html(self.recording, self.frames[0])
            return (f'<div class="gradlab-player-static" lang="{self.lang}">{picture}'
                    f'<div style="font-size:13px;margin-top:4px">&#9654; {html.escape(t("run_to_play", n=n))}'
                    '</div></div>')

    # ---------------------------------------------------------------------------------------------
    def save_html(self, path):
        """One self-contained file: frames as inline HTML, a tiny player in plain JS, no URL at all."""
        frames = "\n".join(
            f'<div class="gl-slide" data-step="{i}"{" hidden" if i else ""}>{h}</div>'
            for i, h in enumerate(self.frames_html)
        )
        last = len(self.frames) - 1
        with using(self.lang):
            words = {"__LANG__": self.lang, "__TITLE__": t("page_title"), "__PLAY__": html.escape(t("play").lower()),
                     "__PAUSE__": html.escape(t("pause")), "__PREV__": html.escape(t("prev")),
                     "__NEXT__": html.escape(t("next")), "__STEPWORD__": html.escape(t("step")),
                     "__STEPLABEL__": t("step_slash", i="{i}", n="{n}").replace('"', "")}
        page = _PAGE
        for key, value in words.items():
            page = page.replace(key, value)
        page = page.replace("__FRAMES__", frames).replace("__LAST__", str(last)) \
                   .replace("__INTERVAL__", str(int(self.interval_ms)))
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(page)
        return path

    def save_gif(self, path, fps=1):
        """An animated GIF, one image per frame: the graph via `dot -Tpng` with that frame's colours,
        the caption and the .grad panels underneath."""
        from PIL import Image
        with using(self.lang):
            images = [self._frame_image(f) for f in self.frames]
        width = max(i.width for i in images)
        height = max(i.height for i in images)
        padded = []
        for img in images:
            canvas = Image.new("RGB", (width, height), "white")
            canvas.paste(img, (0, 0))
            padded.append(canvas)
        padded[0].save(path, save_all=True, append_images=padded[1:], duration=int(1000 / fps),
                       loop=0, optimize=False, disposal=1)
        return path

    def _frame_image(self, frame):
        import io
        from PIL import Image, ImageDraw
        png = _run_dot(_graph_dot(self.recording, self.functions_only, self.rankdir, frame=frame), "png")
        graph = Image.open(io.BytesIO(png)).convert("RGB") if png else None
        font = _font(15)
        small = _font(13)
        width = max(graph.width if graph else 0, 640)
        step = t("step_start") if frame.index == 0 else t("step_of", i=frame.index, n=len(self.frames) - 1)
        lines = [(step, small, "#757575")]
        lines += [(t, font, "#212121") for t in _wrap(frame.caption, font, width - 24)]
        for p in frame.grads:
            if p.added is None:
                text = f"{p.leaf}.grad = {value_text(p.old)}"
            else:
                text = f"{p.leaf}.grad: {sum_text([p.old, p.added], p.new)}"
            lines += [(t, small, "#e65100" if p.just_now else "#1565c0") for t in _wrap(text, small, width - 24)]
        if graph is None:
            lines += [(f"{n.id}: {n.title}", small, "#424242") for n in self.recording.nodes]
        text_height = sum(_line_height(f) for _, f, _ in lines) + 24
        img = Image.new("RGB", (width, (graph.height if graph else 0) + text_height), "white")
        draw = ImageDraw.Draw(img)
        y = 10
        for text, f, color in lines:
            draw.text((12, y), text, fill=color, font=f)
            y += _line_height(f)
        if graph is not None:
            img.paste(graph, ((width - graph.width) // 2, text_height))
        return img

    # Handy in a notebook without widgets.
    def _repr_html_(self):
        return self.frames_html[-1]


_CJK_FONTS = ("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc", "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
              "NotoSansCJK-Regular.ttc", "wqy-microhei.ttc", "AppleSDGothicNeo.ttc", "msyh.ttc", "malgun.ttf")


def _font(size):
    from PIL import ImageFont
    cjk = _CJK_FONTS if get_language() in ("ko", "zh") else ()     # the GIF's captions in Korean or Chinese
    for name in cjk + ("DejaVuSans.ttf", "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"):
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    try:
        return ImageFont.load_default(size=size)
    except TypeError:
        return ImageFont.load_default()


def _line_height(font):
    return int(getattr(font, "size", 12) * 1.45)


def _wrap(text, font, width):
    words, lines, line = text.split(" "), [], ""
    for word in words:
        trial = f"{line} {word}".strip()
        if line and font.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + ([line] if line else [])


_PAGE = """<!DOCTYPE html>
<html lang="__LANG__"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body{margin:16px;font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif}
.gl-controls{display:flex;align-items:center;gap:8px;margin-bottom:8px}
.gl-controls button{font-size:14px;padding:4px 10px;border:1px solid #bbb;border-radius:4px;background:#fafafa;cursor:pointer}
.gl-controls input{width:320px}
.gl-label{font-size:13px;color:#555}
</style></head>
<body>
<div class="gl-controls">
<button id="gl-play" type="button">&#9654; __PLAY__</button>
<button id="gl-prev" type="button">__PREV__</button>
<input id="gl-slider" type="range" min="0" max="__LAST__" value="0" step="1" aria-label="__STEPWORD__">
<button id="gl-next" type="button">__NEXT__</button>
<span class="gl-label" id="gl-label"></span>
</div>
__FRAMES__
<script>
(function () {
  var last = __LAST__, interval = __INTERVAL__, step = 0, timer = null;
  var slides = document.querySelectorAll(".gl-slide");
  var slider = document.getElementById("gl-slider"), play = document.getElementById("gl-play");
  var label = document.getElementById("gl-label");
  function show(i) {
    step = Math.max(0, Math.min(last, i));
    for (var k = 0; k < slides.length; k++) { slides[k].hidden = (k !== step); }
    slider.value = step;
    label.textContent = "__STEPLABEL__".replace("{i}", step).replace("{n}", last);
  }
  function stop() { if (timer) { clearInterval(timer); timer = null; } play.innerHTML = "&#9654; __PLAY__"; }
  function start() {
    if (step >= last) { show(0); }
    play.innerHTML = "&#10074;&#10074; __PAUSE__";
    timer = setInterval(function () { if (step >= last) { stop(); } else { show(step + 1); } }, interval);
  }
  play.onclick = function () { if (timer) { stop(); } else { start(); } };
  document.getElementById("gl-prev").onclick = function () { stop(); show(step - 1); };
  document.getElementById("gl-next").onclick = function () { stop(); show(step + 1); };
  slider.oninput = function () { stop(); show(parseInt(slider.value, 10)); };
  document.addEventListener("keydown", function (e) {
    if (e.target === slider) { return; }
    if (e.key === "ArrowRight") { stop(); show(step + 1); }
    if (e.key === "ArrowLeft") { stop(); show(step - 1); }
  });
  show(0);
})();
</script>
</body></html>
"""


_SPENT_GRAPH_HINT = (
    "\n\ngradlab: animate_backward(out) runs out.backward() itself, and backward already ran through this "
    "graph (an earlier out.backward() or animate_backward), which freed it. Do one of these: run the cells "
    "that build the graph again and call viz.animate_backward(out) in place of out.backward(); or call "
    "out.backward(retain_graph=True) the first time; or keep the player you already made and replay it.")


def animate_backward(out, gradient=None, retain_graph=False, names=None, functions_only=False,
                     rankdir="TB", max_nodes=MAX_NODES, inputs=None, interval_ms=1500, lang=None):
    """Run `out.backward(...)` for real and return a player that replays it step by step.

    lang: the player's language, 'en', 'ko' or 'zh' (captions, legend, buttons, graph labels); None uses
    the global setting, `viz.set_language(...)`, English by default.

    Checks happen before anything runs or any widget exists: a tensor with no graph, a non-scalar
    output without `gradient`, a graph already freed raise exactly what `backward()` raises; a graph
    with more than `max_nodes` drawn nodes raises a ValueError naming the options.
    """
    from ..autograd.node import SECOND_BACKWARD_ERROR
    from .i18n import resolve
    resolve(lang)                         # a bad lang= is refused before backward runs
    try:
        prepared = _prepare(out, gradient, inputs, names, functions_only, max_nodes)
    except RuntimeError as error:
        if str(error) != SECOND_BACKWARD_ERROR:
            raise
        # The tutorial's order (out.backward(), then the player) or a second player on the same graph:
        # say it in gradlab's words, under this one frame rather than the engine's internals.
        raise RuntimeError(SECOND_BACKWARD_ERROR + _SPENT_GRAPH_HINT) from None
    with using(lang) as lang:
        rec = _record(out, gradient, retain_graph, names, inputs, functions_only, max_nodes, _prepared=prepared)
        return BackwardPlayer(rec, functions_only=functions_only, rankdir=rankdir, interval_ms=interval_ms,
                              lang=lang)
