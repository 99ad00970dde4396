"""The backward engine: iterative, dependency-counted, observable.

1. Discover the graph below the roots with an explicit stack (no recursion, so a 100,000-op chain
   works) and count, for every node, how many gradient contributions it will receive.
2. Keep one gradient buffer per node. A node runs when its count reaches zero; among ready nodes
   the newest runs first (a heap on creation order, as PyTorch does).
3. Each node turns the gradient of its outputs into one gradient per input slot; the engine adds
   those into the buffers of `next_functions`. AccumulateGrad nodes add into `leaf.grad`.
4. Saved tensors are freed after a node runs unless `retain_graph=True`.
One backward call's state is a GraphTask, and one loop (GraphTask._loop) runs every backward:
plain, autograd.grad / inputs= (capture and pruning), create_graph, and observed. Gradients flow as
numpy arrays, or as Tensors when create_graph=True asks for a graph of the gradients: the engine
passes that mode to each node (`node.apply(grads, as_arrays)`). It reports what it does through
`events` to whoever observes (the player records these); it never imports any drawing code.
"""
import heapq
import sys

import numpy as np

from .. import _device, _dtype
from .._dtype import contiguous_format
from .._tensor_core import Tensor, ZeroArray, is_zero_tensor, zero_tensor_of
from . import events, grad_mode
from .node import AccumulateGrad, accumulator_of


def _shape_text(shape):
    return f"torch.Size([{', '.join(map(str, shape))}])"


def _root_edges(tensors, grad_tensors):
    """Turn (output tensor, gradient) pairs into (node, output_nr, gradient) triples, with torch's checks
    in torch's order: the gradients first (shapes, implicit ones for scalars), then the graph."""
    grads = []
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        if g is None:
            if t.requires_grad and t._data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if t.requires_grad and t._data.dtype.kind != "f":
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {t.dtype}")
            shape, dtype = t._data.shape, t._data.dtype
            # (np.array(1).reshape is several times quicker than np.ones for the usual 0-d loss)
            g = Tensor._make(np.array(1, dtype).reshape(shape) if t._data.size == 1 else np.ones(shape, dtype))
        else:
            if not isinstance(g, Tensor):
                g = Tensor._make(np.asarray(g, dtype=t._data.dtype))
            if g._data.shape != t._data.shape:
                raise RuntimeError(
                    f"Mismatch in shape: grad_output[{i}] has a shape of {_shape_text(g._data.shape)} "
                    f"and output[{i}] has a shape of {_shape_text(t._data.shape)}."
                )
            if g._data.dtype != t._data.dtype:
                g = g.to(t.dtype)
            if t._data.dtype.kind not in "fcV" and (t.grad_fn is not None or t._requires_grad):
                # (an integer tensor that requires grad, left by fill_ and the like: PyTorch's engine asserts)
                raise RuntimeError('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                                   '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug '
                                   'to PyTorch. ')
        grads.append(g)
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if t._grad_fn is not None:                  # (the slot behind the grad_fn property: no call)
            node, nr = t._grad_fn, t._output_nr
        elif t.requires_grad and accumulator_of(t) is not None:
            node, nr = accumulator_of(t), 0
        else:           # (a view made under no_grad of a tensor that requires grad has no edge either: PyTorch's words)
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append((node, nr, g))
    return roots


def _discover(root_nodes):
    """Count incoming edges for every node reachable from the roots, and return them in an order
    where each node comes after every node that sends it a gradient (a topological order)."""
    dependencies = {}
    seen = set()
    order = []                      # post-order: children before parents
    stack = [(n, False) for n in root_nodes]
    while stack:
        node, children_done = stack.pop()
        if children_done:
            order.append(node)
            continue
        if node in seen:
            continue
        seen.add(node)
        stack.append((node, True))
        for child, _ in node.next_functions:
            if child is not None:
                dependencies[child] = dependencies.get(child, 0) + 1
                if child not in seen:
                    stack.append((child, False))
    order.reverse()                 # parents before children
    return dependencies, order


def _count_dependencies(root_nodes):
    """Just the incoming-edge counts of _discover (what a plain backward needs), in one quick pass."""
    dependencies = {}
    seen = set(root_nodes)
    stack = list(seen)
    while stack:
        for child, _ in stack.pop().next_functions:
            if child is not None:
                dependencies[child] = dependencies.get(child, 0) + 1
                if child not in seen:
                    seen.add(child)
                    stack.append(child)
    return dependencies


def _needed_nodes(order, targets):
    """Nodes that lead to one of the target nodes (autograd.grad and backward(inputs=...) prune the rest)."""
    needed = set(targets)
    for node in reversed(order):     # children before parents
        if node not in needed and any(c in needed for c, _ in node.next_functions if c is not None):
            needed.add(node)
    return needed


def _accumulate_into(tensor, grad, create_graph, held=None):
    """Add `grad` into `tensor.grad` the way PyTorch does: a fresh tensor the first time, in place after.
    `grad` is a Tensor when create_graph is set, a numpy array otherwise. `held`: the caller's list
    holding `grad` (the backward loop's buffer), which lets the gradient itself become .grad when
    nothing else holds it (see _stolen, whose reference counts expect this one frame)."""
    old = tensor._grad
    if held is not None and old is None and not create_graph:
        data = _stolen(tensor._data, held)
        if data is not None:
            tensor._grad = Tensor._make(data)
            return _meta_grad(tensor)
    if create_graph:
        if grad._data.dtype != tensor._data.dtype and "_grad_dtype" not in tensor.__dict__:
            grad = grad.to(tensor.dtype)
        if old is None:
            tensor._grad = grad._copy_backwards() if grad.requires_grad else Tensor._make(_fresh_copy(tensor, grad._data))
            _copied_version(tensor)
        elif grad.requires_grad or old.requires_grad or is_zero_tensor(old):   # (grad mode on: out of place)
            tensor._grad = old + grad
        else:
            _add_in_place(old, grad._data)
        return _meta_grad(tensor)
    if old is None:
        tensor._grad = Tensor._make(_fresh_copy(tensor, grad))
        if type(grad) is ZeroArray:           # PyTorch keeps the ZeroTensor itself as .grad
            tensor._grad._zerotensor = True
        else:
            _copied_version(tensor)
    else:
        if is_zero_tensor(old):
            raise RuntimeError(ZERO_TENSOR_IMMUTABLE)
        if "_grad_dtype" in tensor.__dict__:     # (grad_dtype None: a .grad of another dtype, added into in place)
            _check_in_place_dtype(old, grad)
        _add_in_place(old, grad)
    return _meta_grad(tensor)


# (PyTorch asserts after the cast, in validate_outputs)
_NOT_DIFFERENTIABLE = ('isDifferentiableType(grad.scalar_type()) INTERNAL ASSERT FAILED at '
                       '"/__w/pytorch/pytorch/torch/csrc/autograd/engine.cpp":998, please report a bug to PyTorch. ')


def _to_grad_dtype(leaf, grads):
    """A leaf with grad_dtype set gets its gradient in that dtype (None: as it comes), before its hooks
    and .grad see it: PyTorch's validate_outputs casts to the leaf's grad_dtype as it casts to a tensor's
    dtype otherwise."""
    want, g = leaf.__dict__["_grad_dtype"], grads[0]
    if want is None or g is None:
        return grads
    if isinstance(g, Tensor):                                    # (create_graph: a recorded cast)
        g = g if g.dtype is want else g.to(want)
    elif g.dtype != want.np:
        # (complex to real: the real part, with PyTorch's once-a-process warning, as its copy does)
        g = _dtype.cast(g, want.np) if type(g) is np.ndarray else g.astype(want.np)
    if not (want.is_floating_point or want.is_complex):
        raise RuntimeError(_NOT_DIFFERENTIABLE)
    return [g]


def _check_in_place_dtype(old, data):
    """PyTorch's `.grad += grad` refuses a complex gradient into a real .grad."""
    if data.dtype.kind == "c" and old._data.dtype.kind != "c":
        result = _dtype.promote_types(old.dtype, _dtype.from_numpy_dtype(data.dtype))
        raise RuntimeError(f"result type {result._legacy[:-len('Tensor')]} can't be cast to the desired output type "
                           f"{old.dtype._legacy[:-len('Tensor')]}")


def _copied_version(tensor):
    """A gradient PyTorch copies rather than keeps is copied into new memory laid out as the leaf
    (clone_obey_contract: new_empty_strided(...).copy_(grad)), and that copy_ counts: the new .grad is at
    version 1. (A leaf that overlaps itself or has gaps gets a plain contiguous clone, at version 0.)"""
    if _dense(tensor._data):
        tensor._grad._version_counter = [1]


def _dense(leaf):
    """Whether the leaf's elements fill their memory once each (PyTorch's is_non_overlapping_and_dense)."""
    expected = leaf.itemsize
    for stride, size in sorted((abs(st), n) for st, n in zip(leaf.strides, leaf.shape) if n != 1):
        if stride != expected:
            return False
        expected *= size
    return True


def _meta_grad(tensor):
    """A meta leaf's .grad is meta (its numbers were computed on zeros)."""
    if _device.META_MADE[0] and _device.is_meta(tensor._data):
        tensor._grad._data = _device.tag(tensor._grad._data)


def _retain_into(tensor, grad, create_graph):
    """retain_grad's hook, as PyTorch's (VariableHooks::retain_grad): the first gradient cloned contiguous
    (recorded as CloneBackward0 under create_graph), later ones added out of place, `.grad + grad`: a new
    tensor each backward, laid out as the sum is. (A leaf's .grad instead takes the leaf's layout:
    _accumulate_into.)"""
    if type(grad) is ZeroArray or (create_graph and grad._zerotensor):
        return _accumulate_into(tensor, grad, create_graph)
    old = tensor._grad
    if old is None:
        if create_graph:
            tensor._grad = grad.clone(memory_format=contiguous_format) if grad.requires_grad else Tensor._make(
                np.array(grad._data, order="C"))
        else:
            tensor._grad = Tensor._make(np.array(grad, order="C"))
        return
    tensor._grad = old + (grad if create_graph else Tensor._make(np.asarray(grad)))


ZERO_TENSOR_IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() "
                         "if you want a mutable tensor.")


# Where reference counts say who holds an array (CPython before 3.14: later versions may skip
# counting the references of the interpreter's stack)
_COUNTS_REFERENCES = sys.implementation.name == "cpython" and sys.version_info < (3, 14)
_refcount = sys.getrefcount


def _stolen(leaf, held):
    """The gradient held[0] itself as the leaf's .grad, when PyTorch's AccumulateGrad would take it
    without a copy: no one else holds it (PyTorch: use_count() == 1) and it is laid out like the leaf
    (both row-major, one dtype). A view that covers all of its base, as a transposed product
    transposed back (nn.Linear's weight gradient), gives its base. None: make a copy (_fresh_copy).
    The counts: held[0] is referenced by the list, the caller's `grad`, this frame's `data` and
    getrefcount's argument; a whole-base view's base by that view, `base` and the argument."""
    if not _COUNTS_REFERENCES:
        return None
    data = held[0]
    if (type(data) is not np.ndarray or data.dtype != leaf.dtype or data.shape != leaf.shape
            or not data.flags.c_contiguous or not data.flags.writeable or not leaf.flags.c_contiguous
            or _refcount(data) != 4):
        return None
    base = data.base
    if base is None:
        return data
    if (type(base) is np.ndarray and base.base is None and base.size == data.size and base.dtype == data.dtype
            and base.shape == data.shape and base.flags.c_contiguous and base.flags.writeable
            and _refcount(base) == 3):
        return base         # (the same memory: a row-major view as large as its row-major base starts where it does)
    return None


def _fresh_copy(tensor, data):
    """A copy of `data` in the leaf's own memory layout and dtype, as PyTorch does."""
    leaf = tensor._data
    # (a sum of 0-d gradients can be a numpy scalar, whose copy() is no array)
    if type(data) is np.ndarray and data.dtype == leaf.dtype and data.flags.c_contiguous and leaf.flags.c_contiguous \
            and data.strides == leaf.strides:
        return data.copy()                  # the common case, without np.copyto's Python wrapper
    # (the leaf's dtype, unless its grad_dtype is set: then the gradient's, which the engine cast to it)
    copy = np.empty_like(leaf, dtype=data.dtype if "_grad_dtype" in tensor.__dict__ else None)
    if copy.strides != leaf.strides and leaf.size and min(leaf.strides, default=0) >= 0 and _dense(leaf):
        # PyTorch's new_empty_strided(leaf.sizes(), leaf.strides()): the leaf's strides exactly, a size-1
        # dim's too (numpy's empty_like gives those its own)
        scale = copy.itemsize / leaf.itemsize
        copy = np.lib.stride_tricks.as_strided(np.empty(leaf.size, copy.dtype), leaf.shape,
                                               tuple(int(st * scale) for st in leaf.strides))
    np.copyto(copy, data, casting="unsafe")
    return copy


def _add_in_place(old, data):
    if old._data.dtype.kind == "V":    # (complex32: added as complex64, rounded back)
        old._data[...] = _dtype.c64_to_c32(_dtype.c32_to_c64(old._data) + _dtype.as_c64(data))
        old._version_counter[0] += 1
        return
    np.add(old._data, data, out=old._data, casting="unsafe")
    old._version_counter[0] += 1


def _snapshot(g):
    """A copy of a gradient (array or Tensor) for an event: later in-place sums must not change it."""
    if g is None:
        return None
    return np.array(g._data if isinstance(g, Tensor) else g, copy=True)


def _as_tensor(g):
    if type(g) is ZeroArray:
        return zero_tensor_of(g)
    return g if g is None or isinstance(g, Tensor) else Tensor._make(g)


def _as_value(g, as_arrays):
    """What the engine passes around: numpy arrays for a plain backward, Tensors with create_graph."""
    if g is None or not as_arrays:
        return g
    return g._data if isinstance(g, Tensor) else np.asarray(g)


def run_backward(tensors, grad_tensors, retain_graph=None, create_graph=False, inputs=None,
                 accumulate=True, allow_unused=False):
    """Run backward from `tensors`.

    With accumulate=True (Tensor.backward) gradients land in leaves' `.grad` (only the leaves in
    `inputs` if given). With accumulate=False (autograd.grad) nothing is written: the gradients
    of `inputs` are returned as a list.
    """
    if retain_graph is None:
        retain_graph = create_graph
    task = GraphTask(_root_edges(tensors, grad_tensors), inputs, retain_graph, create_graph, accumulate)
    _device.BACKWARD[0] += 1
    try:
        task.run()
    finally:
        _device.BACKWARD[0] -= 1
    if inputs is not None and not accumulate:
        grads = task.captured_gradients(allow_unused)
        if _device.META_MADE[0]:         # (a meta input's gradient, computed on its zeros, is meta too)
            for g, t in zip(grads, inputs):
                if g is not None and _device.is_meta(t._data):
                    g._data = _device.tag(g._data)
        return grads
    return None


class GraphTask:
    """The state of one backward call (PyTorch's engine has the same object, by the same name).

    Without create_graph, gradients travel between nodes as plain numpy arrays: nothing records a
    graph of them, so they need no Tensors (hooks and autograd.grad still see Tensors). With
    create_graph they are Tensors, and the formulas' own operations record a new graph.
    """

    def __init__(self, roots, inputs, retain_graph, create_graph, accumulate):
        self.inputs = inputs
        self.retain_graph = retain_graph
        self.create_graph = bool(create_graph)
        self.as_arrays = not create_graph
        self.accumulate = accumulate
        root_nodes = [n for n, _, _ in roots]
        if inputs is None:
            self.dependencies = _count_dependencies(root_nodes)   # node -> contributions still to come
            self.capture = self.needed = None
        else:
            self.dependencies, order = _discover(root_nodes)
            self.capture = _capture_points(inputs, accumulate)     # (node, output_nr) -> input indices
            self.capture_nodes = {n for n, _ in self.capture}
            self.needed = _needed_nodes(order, self.capture_nodes)   # the rest is pruned
        self.captured = [None] * (len(inputs) if inputs is not None else 0)
        self.observing = events.active()
        self.buffers = {}            # node -> one gradient (or None) per output of the node
        self.owned = set()           # (node, output_nr) whose buffer is an array only the engine holds
        for node, nr, g in roots:
            self.receive(node, nr, _as_value(g, self.as_arrays))
        # PyTorch's backward() holds the root gradients (made by _make_grads, or the caller's) until the
        # engine is done: one that reaches a leaf unchanged is copied into .grad, never taken (see _stolen)
        self.root_grads = [g for _, _, g in roots]
        if self.observing:
            events.emit(events.BackwardStarted(tuple(root_nodes), tuple(_snapshot(g) for _, _, g in roots)))
        self.ready = []              # heap of (-creation order, node): the newest ready node runs first
        for node in self.buffers:
            if self.dependencies.get(node, 0) == 0:
                heapq.heappush(self.ready, (-node._sequence_nr, node))

    def receive(self, node, nr, g):
        """Add gradient g into the buffer of node's output nr; return the buffer's new total."""
        slots = self.buffers.get(node)
        if slots is None:
            slots = self.buffers[node] = [None] * node._num_outputs
        slots[nr] = g if slots[nr] is None else _add(slots[nr], g, self.owned, (node, nr), self.create_graph)
        return slots[nr]

    def run(self):
        state = grad_mode._state
        previous = state["enabled"], state["grad"]
        state["enabled"] = state["grad"] = self.create_graph     # (hooks see is_grad_enabled() as PyTorch's do)
        try:
            self._loop()
        finally:
            state["enabled"], state["grad"] = previous
            if self.observing:
                events.emit(events.BackwardFinished())

    def _loop(self):
        """The one backward loop: `loss.backward()`, autograd.grad, create_graph and the player's
        recording all run it. Its optional steps (events for an observer; capturing the gradients
        of `inputs=` and pruning the nodes that lead to none of them) are each a test of a local
        flag when unused, and otherwise a call out of the loop. (Everything the loop reads is bound
        to locals first: it runs once per node of the graph.)"""
        pop, push = heapq.heappop, heapq.heappush
        ready, buffers, dependencies, owned = self.ready, self.buffers, self.dependencies, self.owned
        as_arrays, create_graph, retain_graph = self.as_arrays, self.create_graph, self.retain_graph
        observing, needed = self.observing, self.needed
        selective = needed is not None          # inputs= given: capture their gradients, prune the rest
        watched = selective or observing
        while ready:
            node = pop(ready)[1]
            grads = buffers.pop(node)
            if watched:
                if selective and node not in needed:
                    continue                    # leads to none of the inputs asked for
                if observing:
                    events.emit(events.NodeStarted(node, tuple(_snapshot(g) for g in grads)))

            if type(node) is AccumulateGrad:    # a leaf: its gradient goes into leaf.grad
                if "_grad_dtype" in node.variable.__dict__:      # (leaf.grad_dtype was set)
                    grads = _to_grad_dtype(node.variable, grads)
                if node.variable._hooks:
                    grads = _run_output_hooks(node, grads, create_graph)
                if watched:
                    self._reach_leaf(node, grads[0])
                elif grads[0] is not None and node.variable._requires_grad:
                    # (a leaf set to requires_grad=False since the forward gets nothing, as in PyTorch)
                    _accumulate_into(node.variable, grads[0], create_graph, grads)
                    if node._post_accumulate_hooks:
                        _run_post_accumulate_hooks(node)
                continue

            hooked = node._hooked               # (one test for the four kinds of hooks below)
            if hooked and (node._tensor_hooks or node._retained):
                grads = _run_output_hooks(node, grads, create_graph)
            if selective and self._captured_only(node, grads):
                continue
            if node._freed:
                node._check_not_freed()
            if selective and _unneeded_edges(node, needed):
                grad_inputs = _apply_needed_only(node, grads, as_arrays, needed)
            elif hooked and (node._pre_hooks or node._post_hooks):
                grad_inputs = _apply_with_node_hooks(node, grads, as_arrays)
            else:
                grad_inputs = node.apply(grads, as_arrays)
            if not retain_graph and node._saved is not None:
                node._release()

            input_nr = -1                       # (the slot, for GradientSent: cheaper than enumerate)
            for (child, nr), g in zip(node.next_functions, grad_inputs):
                input_nr += 1
                if child is None:
                    continue
                remaining = dependencies[child] = dependencies[child] - 1
                if g is not None and (not selective or child in needed):    # (nothing goes to a pruned node)
                    slots = buffers.get(child)  # (GraphTask.receive, inlined)
                    if slots is None:
                        slots = buffers[child] = [None] * child._num_outputs
                    slots[nr] = g if slots[nr] is None else _add(slots[nr], g, owned, (child, nr), create_graph)
                    if observing:
                        events.emit(events.GradientSent(node, input_nr, child, nr, _snapshot(g),
                                                        _snapshot(slots[nr]), remaining))
                if remaining == 0:
                    if child in buffers:
                        push(ready, (-child._sequence_nr, child))
                    elif not selective or child in needed:
                        self._pass_over(child)          # every gradient sent to it was None (rare)
            if observing:
                events.emit(events.NodeFinished(node, tuple(_snapshot(g) for g in grad_inputs)))
            # (let go of the gradients sent: a leaf's gradient that only its buffer holds becomes its
            # .grad without a copy, see _stolen)
            grad_inputs = g = None

    def _pass_over(self, node):
        """A node all of whose incoming gradients were None (a custom Function's backward returned None,
        the 0-norm's undefined gradient): PyTorch runs it on undefined gradients, which yields undefined
        ones. It has nothing to compute, but the nodes below it must stop waiting for it, or a gradient
        arriving there by another path would never be delivered. (Explicit stack: no recursion.)"""
        stack = [node]
        while stack:
            node = stack.pop()
            if not self.retain_graph and node._saved is not None:
                node._release()                 # spent, as after PyTorch's call
            for child, _ in node.next_functions:
                if child is None:
                    continue
                remaining = self.dependencies[child] = self.dependencies[child] - 1
                if remaining == 0:
                    if child in self.buffers:
                        heapq.heappush(self.ready, (-child._sequence_nr, child))
                    elif self.needed is None or child in self.needed:
                        stack.append(child)

    def _reach_leaf(self, node, grad):
        """A leaf's step when inputs= selects or someone observes: capture the gradient, add it into
        .grad (with inputs=, only for the inputs asked for), report both."""
        if self.capture is not None:
            self._capture(node, (grad,))
        leaf = node.variable
        if self.accumulate and grad is not None and leaf._requires_grad and (
                self.capture is None or (node, 0) in self.capture):
            old = _snapshot(leaf._grad) if self.observing else None
            _accumulate_into(leaf, grad, self.create_graph)
            if self.observing:
                events.emit(events.GradAccumulated(leaf, old, _snapshot(grad), _snapshot(leaf._grad)))
            if node._post_accumulate_hooks:
                _run_post_accumulate_hooks(node)
        if self.observing:
            events.emit(events.NodeFinished(node, ()))

    def _captured_only(self, node, grads):
        """Capture what inputs= asks for at this node; True when nothing below it is asked for, so
        that the node need not run (backward(inputs=[y]) still runs y's own node, as PyTorch does,
        and the node is then spent; autograd.grad only reads the gradient arriving at it)."""
        self._capture(node, grads)
        if (any(c in self.needed for c, _ in node.next_functions if c is not None)
                or (self.accumulate and node in self.capture_nodes)):
            return False
        if self.observing:
            events.emit(events.NodeFinished(node, ()))
        return True

    def _capture(self, node, grads):
        """Keep the gradients autograd.grad / backward(inputs=...) asked for."""
        for nr, g in enumerate(grads):
            for i in self.capture.get((node, nr), ()):
                self.captured[i] = g

    def captured_gradients(self, allow_unused):
        """What autograd.grad returns: one Tensor (or None) per input."""
        for i, g in enumerate(self.captured):
            if g is None and not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        return [_as_tensor(g) for g in self.captured]


def _capture_points(inputs, accumulate):
    """Where autograd.grad / backward(inputs=...) read gradients: (node, output_nr) -> the indices of
    the inputs it is the gradient of (`grad(y, [x, x])` asks twice for the same one)."""
    capture = {}
    for i, t in enumerate(inputs):
        if not isinstance(t, Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
        if accumulate:      # backward(inputs=...) retains the grad of each input, as PyTorch does
            t.retain_grad()     # (a non-leaf's .grad is then filled; a leaf's always is)
        if t.grad_fn is not None:
            key = (t.grad_fn, t._output_nr)
        elif t.requires_grad:
            acc = t._accumulator() if t._accumulator is not None else None
            if acc is None:
                continue        # a leaf the graph never reached: its gradient stays None
            key = (acc, 0)
        else:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
        capture[key] = capture.get(key, ()) + (i,)
    return capture


def _apply_with_node_hooks(node, grads, as_arrays):
    """node.apply with its pre-hooks (may replace the incoming gradients) and hooks (may replace the
    outgoing ones). Hooks always see Tensors."""
    grads = [_as_tensor(g) for g in grads]
    if node._pre_hooks:
        for hook in tuple(node._pre_hooks.values()):
            replaced = hook(tuple(grads))
            if replaced is not None:
                grads = _checked_hook_results(hook, grads, replaced)
    grad_inputs = node.apply(grads)
    if node._post_hooks:
        for hook in tuple(node._post_hooks.values()):
            replaced = hook(tuple(grad_inputs), tuple(grads))
            if replaced is not None:
                grad_inputs = _checked_hook_results(hook, grad_inputs, replaced)
    return [_as_value(g, as_arrays) for g in grad_inputs]


def _unneeded_edges(node, needed):
    """Whether an op-table node has an input edge that leads to none of the inputs asked for
    (autograd.grad, backward(inputs=)): PyTorch's task_should_compute_output is then false for it."""
    if getattr(node, "_op", None) is None:          # (a custom Function's backward runs whole, as in PyTorch)
        return False
    for child, _ in node.next_functions:
        if child is not None and child not in needed:
            return True
    return False


def _apply_needed_only(node, grads, as_arrays, needed):
    """node.apply with the formulas of unneeded inputs not run, as PyTorch's generated backward runs a
    formula only if should_compute_output: a derivative that is not implemented (zeta's for x) raises
    only when its input's gradient is wanted. The op table runs one formula per edge that is not None,
    so those edges are hidden for the call; the engine then sends nothing along them."""
    edges = node.next_functions
    node.next_functions = tuple(e if e[0] is None or e[0] in needed else (None, 0) for e in edges)
    try:
        if node._hooked and (node._pre_hooks or node._post_hooks):
            return _apply_with_node_hooks(node, grads, as_arrays)
        return node.apply(grads, as_arrays)
    finally:
        node.next_functions = edges


def _hook_name(hook):
    return getattr(hook, "__name__", "<unknown>")


def _checked_hook_result(hook, value, result):
    """A hook may replace a gradient, but not change its type, dtype or shape (PyTorch's checks and
    messages): a gradient must always match the tensor it is the gradient of."""
    if result is None or value is None:
        return result
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")
    was, got = value.dtype, result.dtype
    if was != got:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the type of value "
                           f"(was torch.{was._legacy} got torch.{got._legacy})")
    if result._data.shape != value._data.shape:
        raise RuntimeError(f"hook '{_hook_name(hook)}' has changed the size of value")
    return result


def _checked_hook_results(hook, values, results):
    results = list(results)
    if len(results) != len(values):
        raise RuntimeError(f"hook '{_hook_name(hook)}' has returned an incorrect number of values "
                           f"(got {len(results)}, but expected {len(values)})")
    return [_checked_hook_result(hook, v, r) for v, r in zip(values, results)]


def _add(total, g, owned, key, create_graph):
    """A node's running gradient sum. The first sum makes a new array the engine owns; later
    contributions are added into it in place (unless a graph of the gradient is being built: then an add is
    recorded, AddBackward0, a ZeroTensor's too). Without one, an efficient zero tensor (ZeroArray) adds nothing, as
    in PyTorch's InputBuffer: the other keeps its -0.0s."""
    node = key[0]
    if type(node) is AccumulateGrad and "_grad_dtype" in node.variable.__dict__:
        # (PyTorch casts each gradient sent to a leaf with grad_dtype set before the sum: float16's rounding)
        total, g = _to_grad_dtype(node.variable, [total])[0], _to_grad_dtype(node.variable, [g])[0]
    if create_graph:
        return total + g
    if type(g) is ZeroArray:
        return total
    if type(total) is ZeroArray:
        owned.discard(key)          # (g is not the engine's own array: a later sum makes a new one)
        return g
    if total.dtype.kind == "V":          # (complex32 gradients: summed as ComplexHalf's add, rounded)
        return _dtype.c64_to_c32(_dtype.c32_to_c64(total) + _dtype.c32_to_c64(g))
    if key in owned and (total.shape == g.shape or total.shape == np.broadcast_shapes(total.shape, g.shape)):
        np.add(total, g, out=total, casting="unsafe")
        return total
    owned.add(key)
    return np.asarray(np.add(total, g))   # (numpy gives a scalar for 0-d sums: later adds need an array)


def _run_output_hooks(node, grads, create_graph):
    """Tensor hooks and retain_grad for the tensors this node produced (or for the leaf)."""
    if type(node) is AccumulateGrad:
        leaf = node.variable
        if leaf._hooks and grads[0] is not None:
            grads = [_apply_tensor_hooks(leaf._hooks, grads[0], create_graph)]
        return grads
    if node._tensor_hooks:
        grads = list(grads)
        for nr, hooks in node._tensor_hooks.items():
            if grads[nr] is not None:
                grads[nr] = _apply_tensor_hooks(hooks, grads[nr], create_graph)
    if node._retained:
        for nr, ref in node._retained.items():
            t = ref()
            if t is not None and grads[nr] is not None and t.grad_fn is node:
                _retain_into(t, grads[nr], create_graph)
    return grads


def _run_post_accumulate_hooks(node):
    """Tensor.register_post_accumulate_grad_hook: each hook gets the leaf, whose .grad is complete (an
    optimizer step inside backward uses it); a hook returns nothing."""
    leaf = node.variable
    for hook in tuple(node._post_accumulate_hooks.values()):
        result = hook(leaf)
        if isinstance(result, Tensor):
            raise RuntimeError("Tensor post accumulate grad hooks should return None.")
        if result is not None:
            raise TypeError(f"expected Variable, but hook returned '{type(result).__name__}'")


def _apply_tensor_hooks(hooks, grad, create_graph):
    """Run Tensor.register_hook hooks; they see (and may return) Tensors."""
    grad = _as_tensor(grad)
    for hook in tuple(hooks.values()):
        result = hook(grad)
        if result is not None:
            grad = _checked_hook_result(hook, grad, result)
    return _as_value(grad, not create_graph)
