"""The backward engine: iterative, dependency-counted, observable.

1. Discover the graph below the roots with an explicit stack (no recursion, so a 100,000-op chain
   works) and count, for every node, how many gradient contributions it will receive.
2. Keep one gradient buffer per node. A node runs when its count reaches zero; among ready nodes
   the newest runs first (a heap on creation order, as PyTorch does).
3. Each node turns the gradient of its outputs into one gradient per input slot; the engine adds
   those into the buffers of `next_functions`. AccumulateGrad nodes add into `leaf.grad`.
4. Saved tensors are freed after a node runs unless `retain_graph=True`.
The engine reports what it does through `events`; it never imports any drawing code.
"""
import heapq

import numpy as np

from . import events, grad_mode
from .node import AccumulateGrad, accumulator_of

Tensor = None                   # bound by gradlab/tensor.py (imports run the other way)


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
            g = Tensor._make(np.ones(t._data.shape, t._data.dtype))
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
        grads.append(g)
    roots = []
    for i, (t, g) in enumerate(zip(tensors, grads)):
        if t.grad_fn is not None:
            node, nr = t.grad_fn, t._output_nr
        elif t.requires_grad:
            node, nr = accumulator_of(t), 0
        else:
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


def _accumulate_into(tensor, grad, create_graph):
    """Add `grad` into `tensor.grad` the way PyTorch does: a fresh tensor the first time, in place after."""
    if grad._data.dtype != tensor._data.dtype:
        grad = grad.to(tensor.dtype)
    old = tensor._grad
    if old is None:
        if create_graph and grad.requires_grad:
            tensor._grad = _copy_backwards(grad)
        else:
            data = np.empty_like(tensor._data)      # the leaf's own memory layout, as PyTorch does
            np.copyto(data, grad._data, casting="unsafe")
            tensor._grad = Tensor._make(data)
    elif create_graph and (grad.requires_grad or old.requires_grad):
        tensor._grad = old + grad
    else:
        np.add(old._data, grad._data, out=old._data, casting="unsafe")
        old._version_counter[0] += 1


def _copy_backwards(grad):
    from ..ops.registry import OPS
    return OPS["copy_backwards"](grad)


def _snapshot(t):
    return None if t is None else np.array(t._data, copy=True)


def run_backward(tensors, grad_tensors, retain_graph=None, create_graph=False, inputs=None,
                 accumulate=True, allow_unused=False):
    """Run backward from `tensors`.

    With accumulate=True (Tensor.backward) gradients land in leaves' `.grad` (only the leaves in
    `inputs` if given). With accumulate=False (autograd.grad) nothing is written: the gradients
    of `inputs` are returned as a list.
    """
    if retain_graph is None:
        retain_graph = create_graph
    roots = _root_edges(tensors, grad_tensors)
    if inputs is None:
        dependencies = _count_dependencies([n for n, _, _ in roots])
    else:
        dependencies, order = _discover([n for n, _, _ in roots])

    # Where to stop and what to capture when specific inputs are asked for.
    capture = {}                     # (node, output_nr) -> index into inputs
    if inputs is not None:
        for i, t in enumerate(inputs):
            if t.grad_fn is not None:
                capture[(t.grad_fn, t._output_nr)] = i
            elif t.requires_grad:
                acc = t._accumulator() if t._accumulator is not None else None
                if acc is not None:
                    capture[(acc, 0)] = i
            else:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
        needed = _needed_nodes(order, {n for n, _ in capture})
    else:
        needed = None
    captured = [None] * (len(inputs) if inputs is not None else 0)

    observing = events.active()
    buffers = {}
    owned = set()                    # buffers holding an array only the engine refers to (safe to add into)
    for node, nr, g in roots:
        slots = buffers.setdefault(node, [None] * _num_outputs(node))
        slots[nr] = g if slots[nr] is None else slots[nr] + g
    if observing:
        events.emit(events.BackwardStarted(tuple(n for n, _, _ in roots), tuple(_snapshot(g) for _, _, g in roots)))

    ready = []
    for node in buffers:
        if dependencies.get(node, 0) == 0:
            heapq.heappush(ready, (-node._sequence_nr, node))

    previous_mode = grad_mode._state["enabled"]
    grad_mode._state["enabled"] = bool(create_graph)
    try:
        while ready:
            _, node = heapq.heappop(ready)
            grads = buffers.pop(node)
            if needed is not None and node not in needed:
                continue
            if observing:
                events.emit(events.NodeStarted(node, tuple(_snapshot(g) for g in grads)))
            if node._tensor_hooks or node._retained or isinstance(node, AccumulateGrad):
                grads = _run_output_hooks(node, grads, create_graph)

            if inputs is not None:
                for nr, g in enumerate(grads):
                    i = capture.get((node, nr))
                    if i is not None:
                        captured[i] = g
                        if accumulate and g is not None and not isinstance(node, AccumulateGrad):
                            # backward(inputs=[non_leaf]) fills that tensor's .grad, as PyTorch does
                            _accumulate_into(inputs[i], g, create_graph)
            if isinstance(node, AccumulateGrad):
                if accumulate and (inputs is None or (node, 0) in capture) and grads[0] is not None:
                    leaf = node.variable
                    old = _snapshot(leaf._grad) if observing else None
                    _accumulate_into(leaf, grads[0], create_graph)
                    if observing:
                        events.emit(events.GradAccumulated(leaf, old, _snapshot(grads[0]), _snapshot(leaf._grad)))
                if observing:
                    events.emit(events.NodeFinished(node, ()))
                continue
            if needed is not None and not any(c in needed for c, _ in node.next_functions if c is not None):
                if observing:        # only captured, nothing below is asked for
                    events.emit(events.NodeFinished(node, ()))
                continue

            if node._pre_hooks:
                for hook in tuple(node._pre_hooks.values()):
                    replaced = hook(tuple(grads))
                    if replaced is not None:
                        grads = list(replaced)
            if node._freed:
                node._check_not_freed()
            grad_inputs = node.apply(grads)
            if node._post_hooks:
                for hook in tuple(node._post_hooks.values()):
                    replaced = hook(tuple(grad_inputs), tuple(grads))
                    if replaced is not None:
                        grad_inputs = tuple(replaced)
            if not retain_graph and node._saved is not None:
                node._release()

            for i, ((child, nr), g) in enumerate(zip(node.next_functions, grad_inputs)):
                if child is None:
                    continue
                remaining = dependencies[child] = dependencies[child] - 1
                if g is not None and (needed is None or child in needed):
                    slots = buffers.get(child)
                    if slots is None:
                        slots = buffers[child] = [None] * _num_outputs(child)
                    slots[nr] = g if slots[nr] is None else _add(slots[nr], g, owned, (child, nr), create_graph)
                    if observing:
                        events.emit(events.GradientSent(node, i, child, nr, _snapshot(g), _snapshot(slots[nr]), remaining))
                if remaining == 0 and child in buffers:
                    heapq.heappush(ready, (-child._sequence_nr, child))
            if observing:
                events.emit(events.NodeFinished(node, tuple(_snapshot(g) for g in grad_inputs)))
    finally:
        grad_mode._state["enabled"] = previous_mode
        if observing:
            events.emit(events.BackwardFinished())

    if inputs is not None and not accumulate:
        for i, g in enumerate(captured):
            if g is None and not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior."
                )
        return captured
    return None


def _add(total, g, owned, key, create_graph):
    """A node's running gradient sum. The first sum makes a new array the engine owns; later
    contributions are added into it in place (unless a graph of the gradient is being built)."""
    if create_graph or total.requires_grad or g.requires_grad:
        return total + g
    if key in owned and total._data.shape == np.broadcast_shapes(total._data.shape, g._data.shape):
        np.add(total._data, g._data, out=total._data, casting="unsafe")
        return total
    owned.add(key)
    return Tensor._make(np.add(total._data, g._data))


def _num_outputs(node):
    return node._num_outputs


def _run_output_hooks(node, grads, create_graph):
    """Tensor hooks and retain_grad for the tensors this node produced (or for the leaf)."""
    if isinstance(node, AccumulateGrad):
        leaf = node.variable
        if leaf._hooks and grads[0] is not None:
            grads = [_apply_tensor_hooks(leaf._hooks, grads[0])]
        return grads
    if node._tensor_hooks:
        grads = list(grads)
        for nr, hooks in node._tensor_hooks.items():
            if grads[nr] is not None:
                grads[nr] = _apply_tensor_hooks(hooks, grads[nr])
    if node._retained:
        for nr, ref in node._retained.items():
            t = ref()
            if t is not None and grads[nr] is not None and t.grad_fn is node:
                _accumulate_into(t, grads[nr], create_graph)
    return grads


def _apply_tensor_hooks(hooks, grad):
    for hook in tuple(hooks.values()):
        result = hook(grad)
        if result is not None:
            grad = result
    return grad

