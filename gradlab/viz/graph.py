"""Walk a gradlab graph into plain data: the first of walk -> data -> DOT -> render.

Nothing here draws or imports Graphviz, so tests (and the animation) can check what a drawing will
show by looking at dataclasses. What the walk finds, starting from the root tensors:

* every Function node (a tensor's `grad_fn`, found through `next_functions`), and for each leaf
  its `AccumulateGrad` node (whose `.variable` is the leaf);
* the tensors between them: leaves, roots, and the intermediate tensors that are still alive
  (each node keeps weak references to the tensors it produced, `node._outputs`);
* how they connect (edges point the way data flowed in the forward pass, like torchviz):
  ``Function -> tensor`` it produced ('grad_fn'; for a leaf, its AccumulateGrad -> the leaf),
  ``tensor -> Function`` that used it ('data'), ``Function -> Function`` when the tensor between
  them is gone ('next'), and ``tensor -> Function`` that saved it ('saved', only with show_saved).

Ids ("n0", "n1", ...) follow breadth-first order from the roots, never `id()`, so the same graph
gives the same ids on every run and machine. The walk is iterative (a queue, no recursion), visits
each node once (graphs from create_graph=True share nodes), and stops at `max_nodes`.
"""
from __future__ import annotations

import re
import weakref
from collections import deque
from dataclasses import dataclass, field

import numpy as np

from ..autograd.node import AccumulateGrad, Node
from ..display.printing import format_tensor
from ..ops.formula_text import formula_texts
from ..tensor import Tensor

SMALL_TENSOR = 24          # tensors with at most this many elements are shown in full


@dataclass
class TensorNode:
    """A tensor in the drawing. `tensor_ref` is a weak reference: call it to get the tensor (or None)."""
    id: str
    kind: str                    # 'leaf', 'intermediate', 'output' (a root), 'grad' (some leaf's .grad)
    name: str | None             # from names= (e.g. locals()), several joined by ', '
    shape: tuple
    dtype: str                   # 'float32', 'float64', ...
    values_text: str             # small tensors in full (PyTorch's layout), large ones summarized
    grad_text: str | None        # the same for .grad, None when it has none
    requires_grad: bool
    tensor_ref: object = field(repr=False, compare=False, default=None)


@dataclass
class FunctionNode:
    """A Function (backward) node. `node_ref` is a weak reference to the gradlab Node."""
    id: str
    name: str                    # grad_fn.name() without PyTorch's namespace ('AccumulateGrad', 'CopySlices')
    is_grad_fn_of: str | None    # id of the (alive, drawn) tensor whose grad_fn this is
    saved: list = field(default_factory=list)   # (slot, shape, version_saved, version_now, stale)
    kind: str = "function"       # 'function' or 'accumulate' (AccumulateGrad)
    variable: str | None = None  # AccumulateGrad only: id of its leaf tensor node (if drawn)
    variable_name: str | None = None  # AccumulateGrad only: the leaf's name, for functions_only views
    constants: list = field(default_factory=list)  # (slot, text) for Python-number inputs: ('other', '3')
    saved_ids: list = field(default_factory=list)  # parallel to saved: id of the drawn tensor saved, or None
    freed: bool = False          # saved tensors were freed by a backward without retain_graph
    inputs: list = field(default_factory=list)     # its input slot names, one per next_functions entry
    output_name: str | None = None  # the name of the tensor it produced (its first output), if named
    formulas: list = field(default_factory=list)   # (slot, gradient formula text) with walk(formulas=True)
    node_ref: object = field(repr=False, compare=False, default=None)


@dataclass
class Edge:
    """Points the way data flowed forward; backward sends gradients the other way, from dst to src."""
    src: str
    dst: str
    label: str | None            # input slot ('self', 'other') when the destination has several inputs
    kind: str                    # 'data', 'grad_fn', 'next', 'saved'
    # 'data'/'next' edges: which input slot of dst (next_functions index) and which output of the
    # Function behind src the slot reads; the backward player needs both, drawings only the label
    input_nr: int | None = field(default=None, compare=False)
    output_nr: int | None = field(default=None, compare=False)
    id: str | None = field(default=None, compare=False)     # "e0", "e1", ... in the order of Graph.edges


@dataclass
class Graph:
    nodes: list                  # TensorNode and FunctionNode, in id order
    edges: list
    roots: list                  # ids of the root nodes
    notes: list                  # sentences for the reader (e.g. "graph truncated ...")
    truncated: bool = False

    @property
    def tensors(self):
        return [n for n in self.nodes if isinstance(n, TensorNode)]

    @property
    def functions(self):
        return [n for n in self.nodes if isinstance(n, FunctionNode)]

    def node(self, node_id):
        """The node with this id."""
        for n in self.nodes:
            if n.id == node_id:
                return n
        raise KeyError(node_id)

    def id_of(self, obj):
        """The id of the node drawing a gradlab Tensor or Node object (None when not drawn)."""
        for n in self.nodes:
            ref = n.tensor_ref if isinstance(n, TensorNode) else n.node_ref
            if ref is not None and ref() is obj:
                return n.id
        return None

    def summary(self):
        """The one-line text/plain of a drawing: no addresses, stable."""
        t, f = len(self.tensors), len(self.functions)
        more = ", truncated" if self.truncated else ""
        return (f"<gradlab graph: {len(self.nodes)} nodes ({t} tensor{'s' * (t != 1)}, "
                f"{f} function{'s' * (f != 1)}), {len(self.edges)} edge{'s' * (len(self.edges) != 1)}{more}>")


# --- text of values --------------------------------------------------------------------------------
def values_text(array):
    """PyTorch's printed layout without `tensor(` and the suffixes; a summary for big tensors."""
    array = np.asarray(array)
    if array.size == 0:
        return "[]"
    if array.size <= SMALL_TENSOR:
        text = format_tensor(array, prefix="", default_float=np.dtype(array.dtype).name)
        return text[:-1]            # drop the closing ")"; no suffix: the dtype counts as default
    if array.dtype.kind in "fc":
        a = array.real.astype(np.float64)
        if not np.isfinite(a).all():
            a = a[np.isfinite(a)]
        if a.size == 0:
            return f"{array.size} values, none finite"
        return f"min {_num(a.min())}  max {_num(a.max())}\nmean {_num(a.mean())}"
    if array.dtype.kind == "b":
        return f"{int(array.sum())} of {array.size} True"
    return f"min {int(array.min())}  max {int(array.max())}"


def _num(v):
    return f"{float(v):.4f}"


def _dtype_name(array):
    name = np.dtype(array.dtype).name
    return "bool" if name == "bool" else name


# --- names ----------------------------------------------------------------------------------------
_IPYTHON_HISTORY = re.compile(r"^(_+|_\d+|_i+\d*|_oh|_ih|_dh)$")


def _names_by_object(names, tensor_cls):
    """id(tensor) -> 'a, b' from a mapping like locals(). Short names first, private ones only as fallback."""
    if not names:
        return {}
    found = {}
    try:
        items = list(names.items())
    except Exception:       # not a mapping: ignore rather than fail a drawing
        return {}
    for key, value in items:
        if isinstance(value, tensor_cls) and isinstance(key, str) and not _IPYTHON_HISTORY.match(key):
            found.setdefault(id(value), []).append(key)
    chosen = {}
    for obj_id, keys in found.items():
        public = [k for k in keys if not k.startswith("_")] or keys
        public.sort(key=lambda k: (len(k), k))
        chosen[obj_id] = ", ".join(public[:3]) + (", ..." if len(public) > 3 else "")
    return chosen


# --- the walk -------------------------------------------------------------------------------------
def _alive_output(fn, output_nr):
    """The tensor fn produced at output_nr, if it is alive and still has fn as its grad_fn."""
    for ref in fn._outputs:
        t = ref()
        if t is not None and t.grad_fn is fn and t._output_nr == output_nr:
            return t
    return None


def _number_text(value):
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return repr(value) if abs(value) >= 1e-4 or value == 0 else f"{value:.4e}"
    return str(value)


class _Walk:
    def __init__(self, names, show_saved, functions_only, max_nodes, max_depth, show_formulas=False):
        self.show_formulas = show_formulas
        self.Tensor, self.AccumulateGrad = Tensor, AccumulateGrad
        self.names = _names_by_object(names, Tensor)
        self.show_saved, self.functions_only = show_saved, functions_only
        self.max_nodes, self.max_depth = max_nodes, max_depth
        self.nodes, self.edges, self.notes = [], [], []
        self.ids = {}            # id(object) -> node id; objects are kept alive in self.keep meanwhile
        self.keep = []
        self.fn_outputs = {}     # node id of a function -> ids of the tensors it produced (drawn)
        self.queue = deque()     # (function object, depth)
        self.truncated = False

    def full(self):
        if len(self.nodes) >= self.max_nodes:
            self.truncated = True
            return True
        return False

    # nodes
    def tensor(self, t, kind):
        key = id(t)
        if key in self.ids:
            return self.ids[key]
        if self.functions_only or self.full():
            return None
        node_id = f"n{len(self.nodes)}"
        grad = t._grad      # read the slot: the .grad property warns for non-leaves
        self.nodes.append(TensorNode(
            id=node_id, kind=kind, name=self.names.get(key), shape=tuple(int(d) for d in t._data.shape),
            dtype=_dtype_name(t._data), values_text=values_text(t._data),
            grad_text=values_text(grad._data) if grad is not None else None,
            requires_grad=bool(t.requires_grad), tensor_ref=weakref.ref(t)))
        self.ids[key] = node_id
        self.keep.append(t)
        return node_id

    def function(self, fn, depth):
        key = id(fn)
        if key in self.ids:
            return self.ids[key]
        if self.full():
            return None
        node_id = f"n{len(self.nodes)}"
        accumulate = isinstance(fn, self.AccumulateGrad)
        # (PyTorch's name() qualifies a few nodes, torch::autograd::CopySlices: drawings use the short name)
        node = FunctionNode(id=node_id, name="AccumulateGrad" if accumulate else fn.name().rsplit("::", 1)[-1],
                            is_grad_fn_of=None,
                            kind="accumulate" if accumulate else "function", node_ref=weakref.ref(fn))
        if accumulate:
            node.variable_name = self.names.get(id(fn.variable))
        else:
            node.inputs = slot_names(fn)
            first = fn._outputs[0]() if fn._outputs else None
            node.output_name = self.names.get(id(first)) if first is not None else None
            node.constants = self._constants(fn, node.inputs)
            if self.show_saved:
                node.saved = self._saved(fn)
            op = getattr(fn, "_op", None)
            if self.show_formulas and op is not None:
                texts = formula_texts(op)        # (a constant input gets no gradient: no line for it)
                node.formulas = [(slot, texts[slot]) for slot, (nxt, _) in zip(node.inputs, fn.next_functions)
                                 if nxt is not None and texts.get(slot) is not None]
            node.freed = bool(getattr(fn, "_freed", False))
        self.nodes.append(node)
        self.ids[key] = node_id
        self.keep.append(fn)
        self.queue.append((fn, depth))
        return node_id

    def _constants(self, fn, slots):
        out = []
        for slot, (nxt, _) in zip(slots, fn.next_functions):
            value = fn.__dict__.get(slot) if nxt is None else None
            if isinstance(value, (int, float, bool)):
                out.append((slot, _number_text(value)))
        return out

    def _saved(self, fn):
        out = []
        for slot, s in fn.saved_tensors_info:
            data = s.array if s.is_output else s.tensor._data
            now = s.counter[0]
            out.append((slot, tuple(int(d) for d in data.shape), s.version, now, now != s.version))
        return out

    def _saved_tensor(self, fn, s):
        if s.is_output:
            return _alive_output(fn, s.output_nr)
        return s.tensor

    def _saved_id(self, fn, s):
        t = self._saved_tensor(fn, s)
        if t is not None:
            return self.ids.get(id(t))
        if s.is_output:     # the output was changed in place since: it still shares the version counter
            for n in self.nodes:
                other = n.tensor_ref() if isinstance(n, TensorNode) else None
                if other is not None and other._version_counter is s.counter:
                    return n.id
        return None

    # the walk itself
    def run(self, roots):
        root_ids = []
        for r in roots:
            if isinstance(r, self.Tensor):
                rid = self.root_tensor(r)
            else:
                rid = self.function(r, 0)
                if rid is not None:
                    for nr in range(max(1, getattr(r, "_num_outputs", 1))):
                        t = _alive_output(r, nr)
                        if t is not None:
                            tid = self.tensor(t, "output")
                            if tid is not None:
                                self.link_output(r, rid, tid, t)
            if rid is not None and rid not in root_ids:
                root_ids.append(rid)
        while self.queue:
            fn, depth = self.queue.popleft()
            if self.max_depth is None or depth < self.max_depth:
                self.expand(fn, depth)
        self.finish()
        return Graph(self.nodes, self.edges, root_ids, self.notes, self.truncated)

    def root_tensor(self, t):
        fn = t.grad_fn
        if fn is None:
            tid = self.tensor(t, "leaf")
            if t.requires_grad and tid is not None:
                acc_ref = t._accumulator
                acc = acc_ref() if acc_ref is not None else None
                if acc is not None:
                    self.attach_accumulator(acc, tid, 0)
            return tid
        if self.functions_only:
            return self.function(fn, 0)
        tid = self.tensor(t, "output")
        fid = self.function(fn, 0)
        if tid is not None and fid is not None:
            self.link_output(fn, fid, tid, t)
        return tid

    def link_output(self, fn, fid, tid, t):
        fnode = self.nodes[int(fid[1:])]
        outs = self.fn_outputs.setdefault(fid, [])
        if tid in outs:
            return
        outs.append(tid)
        if fnode.is_grad_fn_of is None:
            fnode.is_grad_fn_of = tid
        multi = getattr(fn, "_num_outputs", 1) > 1
        self.edges.append(Edge(fid, tid, f"output {t._output_nr}" if multi else None, "grad_fn"))

    def attach_accumulator(self, acc, leaf_id, depth):
        aid = self.function(acc, depth)
        if aid is not None and leaf_id is not None:
            anode = self.nodes[int(aid[1:])]
            if anode.variable is None:
                anode.variable = leaf_id
                self.edges.append(Edge(aid, leaf_id, None, "grad_fn"))
        return aid

    def expand(self, fn, depth):
        fid = self.ids[id(fn)]
        slots = self.nodes[int(fid[1:])].inputs
        several = len(fn.next_functions) > 1
        linked = set()
        for input_nr, (slot, (nxt, nr)) in enumerate(zip(slots, fn.next_functions)):
            if nxt is None:
                continue
            label = slot if several else None
            src = self.source_of(nxt, nr, depth + 1)
            if src is None:
                continue
            kind = "next" if self.nodes[int(src[1:])].__class__ is FunctionNode else "data"
            self.edges.append(Edge(src, fid, label, kind, input_nr, nr))
            linked.add(src)
        if self.show_saved and not self.functions_only:
            for slot, s in fn.saved_tensors_info:
                t = self._saved_tensor(fn, s)
                tid = self.ids.get(id(t)) if t is not None else None
                if tid is not None and tid not in linked:
                    self.edges.append(Edge(tid, fid, f"saved {slot}", "saved"))

    def source_of(self, nxt, nr, depth):
        """The node an input slot's edge starts from: the input tensor if drawn, else its Function."""
        if isinstance(nxt, self.AccumulateGrad):
            leaf = nxt.variable
            if self.functions_only:
                return self.function(nxt, depth)
            known = id(leaf) in self.ids
            lid = self.tensor(leaf, "leaf")
            if lid is not None and not known:
                self.attach_accumulator(nxt, lid, depth)
            return lid if lid is not None else self.ids.get(id(nxt))
        fid = self.function(nxt, depth)
        if fid is None or self.functions_only:
            return fid
        t = _alive_output(nxt, nr)
        if t is None:
            return fid
        tid = self.tensor(t, "intermediate")
        if tid is None:
            return fid
        self.link_output(nxt, fid, tid, t)
        return tid

    def finish(self):
        # which drawn tensor each saved slot holds (known only now that the whole walk is done)
        if self.show_saved:
            for n in self.nodes:
                fn = n.node_ref() if isinstance(n, FunctionNode) else None
                if fn is not None and n.saved:
                    n.saved_ids = [self._saved_id(fn, s) for _, s in fn.saved_tensors_info]
        # a tensor that is some drawn leaf's .grad (create_graph=True) is a gradient, whatever else it is
        grads = set()
        for n in self.nodes:
            if isinstance(n, TensorNode):
                t = n.tensor_ref()
                if t is not None and t._grad is not None:
                    grads.add(id(t._grad))
        for n in self.nodes:
            if isinstance(n, TensorNode) and n.kind != "leaf" and id(n.tensor_ref()) in grads:
                n.kind = "grad"
        if self.truncated:
            self.notes.append(f"Large graph: showing the {len(self.nodes)} nodes nearest the output "
                              f"(max_nodes={self.max_nodes}); pass a larger max_nodes= to see more.")
        for i, edge in enumerate(self.edges):
            edge.id = f"e{i}"
        self.keep = None


def slot_names(fn):
    """The names of a node's inputs, one per next_functions entry, as its op row declares them
    (`self`, `other`); `input i` where it declares none. (Drawings and the node cards show them.)"""
    op = getattr(type(fn), "_op", None) or fn.__dict__.get("_op")
    n = len(fn.next_functions)
    names = list(getattr(op, "inputs", ()) or ())[:n]
    return names + [f"input {i}" for i in range(len(names), n)]


def walk(roots, names=None, show_saved=False, functions_only=False, max_nodes=400, max_depth=None, formulas=False):
    """Walk the graph behind `roots` (a Tensor, a Node, or a list of them) into a `Graph`.

    names: a mapping such as locals(); tensors found in it are labelled with their variable names.
    show_saved: list each Function's saved tensors (with versions; stale ones are marked) and link them.
    functions_only: only Function nodes, like torchviz.
    max_nodes: stop (with a note in graph.notes) once this many nodes are found.
    max_depth: expand Functions at most this many steps from the roots (None: no limit).
    formulas: list each Function's gradient formula per input slot (`grad_self = grad * other`).
    """
    if not isinstance(roots, (list, tuple)):
        roots = [roots]
    for r in roots:
        if not isinstance(r, (Tensor, Node)):
            raise TypeError("draw() expects a Tensor, a grad_fn node, or a list of them, "
                            f"but got {type(r).__name__}")
    w = _Walk(names, show_saved, functions_only, max_nodes, max_depth, formulas)
    graph = w.run(list(roots))
    if not graph.nodes:
        graph.notes.append("Nothing to draw.")
    for r in roots:
        if hasattr(r, "_data") and not r.requires_grad:
            graph.notes.append("A tensor that does not require grad has no graph: only its value is shown.")
            break
    return graph


def backward_order(graph, targets=None):
    """The ids of a `walk(..., functions_only=True)` graph's nodes, each after every node that sends it a
    gradient: an order backward can run them in (depth first from the roots, inputs in slot order, the way
    PyTorch's engine discovers a graph). targets: ids (the nodes of backward(inputs=...)); only the nodes
    that lead to one of them are kept, as backward prunes the rest. Iterative: a stack, no recursion."""
    children = {n.id: [] for n in graph.functions}
    for e in graph.edges:
        if e.kind == "next":             # src is an input's node: it receives a gradient from dst
            children[e.dst].append(e.src)
    order, seen = [], set()              # post-order (children first), reversed at the end
    stack = [(r, False) for r in graph.roots if r in children]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        stack.extend((c, False) for c in children[node] if c not in seen)
    order.reverse()
    if targets is None:
        return order
    needed = set(targets)
    for node in reversed(order):         # children before parents
        if node not in needed and any(c in needed for c in children[node]):
            needed.add(node)
    return [n for n in order if n in needed]
