"""Run the real `out.backward()` while listening to the engine, and keep what happened as plain data.

1. `prepare`: walk the graph with viz's own walk (graph.walk, functions only) and put its nodes in an
   order backward can run them (graph.backward_order); refuse what cannot be animated before anything
   runs: not a Tensor, a graph already freed, too many nodes to draw.
2. `record`: run `out.backward(...)` inside `events.observe` (the engine's public events, nothing else)
   and turn the events into `Frame`s: step 0 is the start, then one frame per node the engine ran.
Node ids "n0", "n1", ... follow that order, never `id()`: the same graph gives the same ids every run.
"""
import math
from dataclasses import dataclass, field, replace
from typing import Any, Optional, Tuple

import numpy as np

from ...autograd import events
from ...autograd.node import SECOND_BACKWARD_ERROR
from ...tensor import Tensor
from ..formulas import steps as formula_steps
from ..graph import Edge, backward_order, walk
from ..i18n import get_language, t, using
from ..jacobian import vjp_data
from .captions import node_caption, paths_text, rule_text, start_caption

MAX_NODES = 300
VJP_MAX = 6              # the start frame shows vᵀ·J when y and each input have at most this many elements


@dataclass(frozen=True)
class NodeInfo:
    """One grad_fn node of the graph. `id` is its place in the backward order from out.grad_fn."""
    id: str                      # "n0", "n1", ... (deterministic: never id())
    name: str                    # exactly grad_fn.name(), e.g. "torch::autograd::AccumulateGrad"
    title: str                   # short name for people: "AccumulateGrad", "MulBackward0"
    tensor: Optional[str]        # name of the tensor it produced (or, for AccumulateGrad, of the leaf)
    is_accumulate: bool
    inputs: Tuple[str, ...] = ()  # its input slot names, one per next_functions entry


@dataclass(frozen=True)
class SentGradient:
    """A gradient sent along one edge during one step, and the receiver's buffer right after.
    `edge.dst` is the node sending (edges point the way data flowed forward), `edge.src` receives."""
    edge: Edge
    value: Any                   # numpy array
    buffer_total: Any            # numpy array: what the receiver holds so far for that output
    remaining: int               # contributions the receiver still awaits before it can run


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
    caption: str                 # the step in words, its chain-rule line (`rule`) at the end
    formulas: Tuple[Any, ...] = ()   # formulas.FormulaStep per input slot: the rule with this step's numbers
    rule: str = ""               # the end of the caption that states those formulas

    @property
    def edge_values(self):
        """{edge id: value} of the gradients sent at this step: handy in a notebook."""
        return {s.edge.id: s.value for s in self.sent}


@dataclass
class Recording:
    """The graph (nodes, edges) plus the frames of one backward."""
    nodes: Tuple[NodeInfo, ...]
    edges: Tuple[Edge, ...]      # 'next' edges between node ids, "e0", "e1", ... in backward order
    frames: list
    root_name: Optional[str]
    leaves: Tuple[Tuple[str, str], ...]        # (AccumulateGrad node id, leaf name)
    root_grad: Any = None        # numpy array: the gradient backward started with
    gradient_given: bool = False  # gradient= was passed (the start caption says so)
    lang: str = "en"             # the language the captions were written in
    edge_values: dict = field(default_factory=dict)    # edge id -> the gradient it carried
    sent_at: dict = field(default_factory=dict)        # edge id -> the step that sent it
    vjp: Any = None              # jacobian.VJPData for the start frame (a small gradient= was passed), or None


@dataclass
class Plan:
    """What `prepare` found: the walked graph, the ids of the nodes backward will run, the names."""
    graph: Any
    order: list
    names: dict


# --- checks that must happen before anything runs -------------------------------------------------
def _one_name_each(names):
    """names (e.g. locals()) -> {name: tensor}, one name per tensor: the first public one in the mapping."""
    chosen, seen = {}, set()
    for key, value in (names or {}).items():
        if isinstance(value, Tensor) and not str(key).startswith("_") and id(value) not in seen:
            seen.add(id(value))
            chosen[str(key)] = value
    return chosen


def _too_large(count, max_nodes, functions_only):
    hint = ("" if functions_only else
            "pass functions_only=True to draw only the grad_fn nodes, or ")
    return ValueError(
        f"This graph has {count} nodes to draw, more than max_nodes={max_nodes} can animate readably. "
        f"Options: {hint}animate a subgraph by passing inputs=[...] (only the part of the graph that "
        f"leads to those tensors) or a smaller output (e.g. one term of the loss), "
        f"or raise max_nodes if you really want all of it."
    )


def prepare(out, inputs=None, names=None, functions_only=False, max_nodes=None):
    """Walk the graph behind `out` and check it can be animated; nothing runs. Errors backward itself
    reports before it starts (no graph, a non-scalar output without gradient=) come from backward."""
    if not isinstance(out, Tensor):
        raise TypeError(f"animate_backward() expects the Tensor to run backward from, but got {type(out).__name__}")
    names = _one_name_each(names)
    graph = walk(out, names=names, functions_only=True, max_nodes=math.inf)
    targets = None
    if inputs is not None:
        targets = [graph.id_of(t.grad_fn) if t.grad_fn is not None else _accumulator_id(graph, t) for t in inputs]
    order = backward_order(graph, targets)
    by_id = {n.id: n for n in graph.functions}
    if any(by_id[i].freed for i in order):
        raise RuntimeError(SECOND_BACKWARD_ERROR)
    count = len(order) if functions_only else len(order) + 1 + sum(by_id[i].kind == "accumulate" for i in order)
    if max_nodes is not None and count > max_nodes:
        raise _too_large(count, max_nodes, functions_only)
    return Plan(graph, order, names)


def _accumulator_id(graph, leaf):
    for n in graph.functions:
        if n.kind == "accumulate" and n.node_ref() is not None and n.node_ref().variable is leaf:
            return n.id
    return None


# --- recording ------------------------------------------------------------------------------------
def record(out, gradient=None, retain_graph=False, names=None, inputs=None, functions_only=False,
           max_nodes=None, plan=None):
    """Run `out.backward(gradient, retain_graph=..., inputs=...)` for real and return its `Recording`
    (captions in the active language, see i18n.using)."""
    plan = plan or prepare(out, inputs, names, functions_only, max_nodes)
    by_id = {n.id: n for n in plan.graph.functions}
    ids = {gid: f"n{i}" for i, gid in enumerate(plan.order)}
    live = {gid: by_id[gid].node_ref() for gid in plan.order}      # the Node objects, kept alive meanwhile
    player_id = {fn: ids[gid] for gid, fn in live.items()}

    infos, leaves, leaf_of, start_grad, leaf_tensors = [], [], {}, {}, []
    for gid in plan.order:
        node, fn = by_id[gid], live[gid]
        accumulate = node.kind == "accumulate"
        tensor = node.variable_name if accumulate else node.output_name
        infos.append(NodeInfo(ids[gid], fn.name(), node.name, tensor, accumulate, tuple(node.inputs)))
        if accumulate:
            leaves.append((ids[gid], tensor or t("leaf_n", i=len(leaves))))
            leaf_of[id(fn.variable)] = ids[gid]
            leaf_tensors.append(fn.variable)
            grad = fn.variable.grad     # .grad before this backward: the panels start from it
            start_grad[ids[gid]] = None if grad is None else np.array(grad.detach().numpy(), copy=True)

    edges, edge_of = [], {}
    into = {}                    # graph id of a node -> its 'next' edges in input-slot order
    for e in plan.graph.edges:
        if e.kind == "next":
            into.setdefault(e.dst, []).append(e)
    for gid in plan.order:
        for e in into.get(gid, ()):
            if e.src in ids:
                edge = Edge(ids[e.src], ids[gid], e.label, "next", e.input_nr, e.output_nr, f"e{len(edges)}")
                edges.append(edge)
                edge_of[(ids[gid], e.input_nr)] = edge

    vjp = start_vjp(out, gradient, inputs, leaf_tensors, [name for _, name in leaves], plan.names)
    log = []
    rules = {}                   # node -> its FormulaSteps, taken as it starts (its saved values still there)

    def listen(event):
        log.append(event)
        if isinstance(event, events.NodeStarted) and event.node in player_id:
            rules[event.node] = formula_steps(event.node, event.grad_outputs)
    with events.observe(listen):
        out.backward(gradient, retain_graph=retain_graph, inputs=inputs)

    root_name = next((k for k, v in plan.names.items() if v is out), None)
    rec = Recording(tuple(infos), tuple(edges), [], root_name, tuple(leaves), gradient_given=gradient is not None,
                    lang=get_language(), vjp=vjp)
    _Frames(rec, player_id, edge_of, leaf_of, start_grad, rules).run(log)
    for f in rec.frames:
        for s in f.sent:
            rec.edge_values[s.edge.id] = s.value
            rec.sent_at[s.edge.id] = f.index
    return rec


def start_vjp(out, gradient, inputs, leaves, leaf_names, names=None):
    """The data of the vᵀ·J panel the start frame shows (viz/jacobian.py), before backward frees the graph:
    only for a gradient= passed and small tensors (J at most VJP_MAX x VJP_MAX per input, three inputs).
    None otherwise, and whenever it cannot be built: the real backward then says what is wrong."""
    targets = list(inputs) if inputs is not None else leaves
    if gradient is None or not targets or len(targets) > 3:
        return None
    try:
        return vjp_data(out, targets, gradient, names=names, max_elements=VJP_MAX,
                        input_names=None if inputs is not None else leaf_names)
    except Exception:
        return None


class _Frames:
    """Turns the engine's events into frames: one per node run, each closed when the next node starts."""

    def __init__(self, rec, player_id, edge_of, leaf_of, start_grad, rules=None):
        self.rec, self.player_id, self.edge_of, self.leaf_of = rec, player_id, edge_of, leaf_of
        self.rules = rules or {}
        self.infos = {n.id: n for n in rec.nodes}
        self.start_grad = start_grad
        self.grads_now = dict(start_grad)
        self.added = {}              # AccumulateGrad node id -> array added by this backward
        self.contributions = {}      # (node id, output_nr) -> arrays received so far
        self.finished = []
        self.current = None          # the step being collected: node id, received, sent, ...

    def run(self, log):
        for event in log:
            if isinstance(event, (events.NodeStarted, events.NodeFinished, events.BackwardFinished)) \
                    and self.current is not None:
                self.close()
            if isinstance(event, events.BackwardStarted):
                self.start(event)
            elif isinstance(event, events.NodeStarted) and event.node in self.player_id:
                self.current = {"node": self.player_id[event.node], "received": event.grad_outputs, "sent": [],
                                "just": None, "accumulated": None, "formulas": self.rules.get(event.node, ())}
            elif isinstance(event, events.GradientSent) and self.current is not None:
                edge = self.edge_of.get((self.current["node"], event.input_nr))
                if edge is not None:
                    self.contributions.setdefault((edge.src, edge.output_nr), []).append(event.grad)
                    self.current["sent"].append(SentGradient(edge, event.grad, event.buffer_total, event.remaining))
            elif isinstance(event, events.GradAccumulated) and self.current is not None:
                node = self.leaf_of.get(id(event.variable))
                if node is not None:
                    self.added[node] = event.added if node not in self.added else self.added[node] + event.added
                    self.grads_now[node] = event.new
                    self.current["just"] = node
                    self.current["accumulated"] = event

    def panels(self, just):
        return tuple(GradPanel(leaf, node, self.start_grad[node], self.added.get(node), self.grads_now[node],
                               node == just)
                     for node, leaf in self.rec.leaves)

    def waiting(self):
        done = set(self.finished)
        return tuple(sorted({k[0] for k in self.contributions} - done, key=lambda i: int(i[1:])))

    def start(self, event):
        root = self.player_id.get(event.roots[0])
        if root is not None:
            self.contributions[(root, 0)] = [event.root_grads[0]]
        self.rec.root_grad = event.root_grads[0]
        frame = Frame(0, None, (), (), (), self.panels(None), (), self.waiting(), "")
        self.rec.frames.append(replace(frame, caption=start_caption(self.rec, event.root_grads[0])))

    def close(self):
        """Turn one node's events into its frame (a node captured for inputs= may not finish)."""
        current, self.current = self.current, None
        self.finished.append(current["node"])
        sent = tuple(current["sent"])
        touched = []
        for s in sent:
            key = (s.edge.src, s.edge.output_nr)
            if key not in touched:
                touched.append(key)
        buffers = []
        for key in touched:
            last = [s for s in sent if (s.edge.src, s.edge.output_nr) == key][-1]
            buffers.append(Buffer(key[0], key[1], tuple(self.contributions[key]), last.buffer_total, last.remaining))
        frame = Frame(len(self.rec.frames), self.infos[current["node"]], tuple(current["received"]), sent,
                      tuple(buffers), self.panels(current["just"]), tuple(self.finished), self.waiting(), "",
                      formulas=self._sent_formulas(current["formulas"], sent))
        rule = rule_text(frame.formulas)
        if frame.node.is_accumulate:      # a leaf: the whole chain, every path's product of local factors
            rule = paths_text(self.rec, self.rec.frames + [frame], frame.node.id)
        caption = node_caption(self.rec, frame, current["accumulated"])
        self.rec.frames.append(replace(frame, caption=caption + rule, rule=rule))

    def _sent_formulas(self, formulas, sent):
        """The formulas of the slots that sent a gradient this step (inputs= can leave some out)."""
        slots = {self.infos[s.edge.dst].inputs[s.edge.input_nr] for s in sent
                 if s.edge.input_nr is not None and s.edge.input_nr < len(self.infos[s.edge.dst].inputs)}
        return tuple(f for f in formulas if f.slot in slots)


def record_backward(out, gradient=None, retain_graph=False, names=None, inputs=None, lang=None):
    """Run `out.backward(gradient, retain_graph=...)` for real and return its steps as `Frame`s
    (captions in `lang`: 'en', 'ko' or 'zh'; None: the global setting, see viz.set_language)."""
    with using(lang):
        return record(out, gradient, retain_graph, names, inputs).frames
