"""The smallest autograd on numpy that runs the benchmark workloads: a floor for any Python engine.

This is not gradlab. It is a reference point, like the hand-written numpy: the same workloads run
through the least a Python autograd must do (one object per tensor, one closure per recorded op,
a dependency-counted backward), and nothing else. It has no dtype promotion, no version counters,
no hooks, no retain_graph, no freeing of saved values, no grad_fn names or next_functions, no
checks and no error messages. Whatever gradlab costs above this engine is the price of behaving
like PyTorch; whatever this engine costs above hand-written numpy is the price of Python itself.

It supports exactly the calls that `workloads.py` makes, in float32.
"""
import heapq
import itertools
from contextlib import contextmanager
from types import SimpleNamespace

import numpy as np

_order = itertools.count()      # creation order: the newest ready node runs first, as in gradlab
_grad_enabled = [True]


class Tensor:
    __slots__ = ("data", "grad", "requires_grad", "parents", "backward_fn", "order")

    def __init__(self, data, parents=(), backward_fn=None, requires_grad=False):
        self.data = data
        self.grad = None
        self.requires_grad = requires_grad
        self.parents = parents          # the tensors this one was computed from
        self.backward_fn = backward_fn  # gradient of the output -> one gradient per parent
        self.order = next(_order)

    # --- recording an op: keep the parents and a closure over what the gradient needs ----------
    def _result(self, data, parents, backward_fn):
        if _grad_enabled[0]:
            for p in parents:
                if p.requires_grad:
                    return Tensor(data, parents, backward_fn, True)
        return Tensor(data)

    def __add__(self, other):
        if isinstance(other, Tensor):
            return self._result(self.data + other.data, (self, other), lambda g: (g, _sum_to(g, other.data.shape)))
        return self._result(self.data + np.float32(other), (self,), lambda g: (g,))

    def __mul__(self, other):
        a = self.data
        if isinstance(other, Tensor):
            b = other.data
            return self._result(a * b, (self, other), lambda g: (g * b, g * a))
        other = np.float32(other)
        return self._result(a * other, (self,), lambda g: (g * other,))

    __rmul__ = __mul__

    def __isub__(self, other):          # only used under no_grad, for the SGD update
        self.data -= other.data
        return self

    def tanh(self):
        r = np.tanh(self.data)
        return self._result(r, (self,), lambda g: (g * (1 - r * r),))

    def sin(self):
        a = self.data
        return self._result(np.sin(a), (self,), lambda g: (g * np.cos(a),))

    def relu(self):
        a = self.data
        return self._result(np.maximum(a, 0), (self,), lambda g: (g * (a > 0),))

    def sum(self):
        shape = self.data.shape
        return self._result(np.asarray(self.data.sum()), (self,), lambda g: (np.broadcast_to(g, shape),))

    def mean(self):
        shape, n = self.data.shape, self.data.size
        return self._result(np.asarray(self.data.mean()), (self,),
                            lambda g: (np.broadcast_to(g / np.float32(n), shape),))

    def detach(self):
        return Tensor(self.data)

    def numpy(self):
        return self.data

    # --- backward: count dependencies, then run nodes newest-first --------------------------------
    def backward(self):
        dependencies = {}
        seen, stack = {self}, [self]
        while stack:
            for p in stack.pop().parents:
                dependencies[p] = dependencies.get(p, 0) + 1
                if p not in seen:
                    seen.add(p)
                    stack.append(p)
        grads = {self: np.ones_like(self.data)}
        ready = [(-self.order, self)]
        while ready:
            t = heapq.heappop(ready)[1]
            g = grads.pop(t)
            if t.backward_fn is None:                     # a leaf: accumulate into .grad
                if t.requires_grad:
                    t.grad = Tensor(np.array(g)) if t.grad is None else Tensor(t.grad.data + g)
                continue
            for p, gp in zip(t.parents, t.backward_fn(g)):
                if gp is not None and p.requires_grad:
                    grads[p] = gp if p not in grads else grads[p] + gp
                dependencies[p] -= 1
                if dependencies[p] == 0 and p in grads:
                    heapq.heappush(ready, (-p.order, p))


def _sum_to(g, shape):
    """Sum a broadcast gradient back to `shape` (only the bias of a linear layer needs it here)."""
    return g if g.shape == shape else g.sum(axis=0)


def tensor(data, requires_grad=False):
    return Tensor(np.array(data), requires_grad=requires_grad)


def ones(*shape, requires_grad=False):
    return Tensor(np.ones(shape, np.float32), requires_grad=requires_grad)


def arange(n):
    return Tensor(np.arange(n))


@contextmanager
def no_grad():
    _grad_enabled[0] = False
    try:
        yield
    finally:
        _grad_enabled[0] = True


# --- the three functions of nn.functional the MLP uses ------------------------------------------------

def _linear(x, weight, bias):
    """x @ weight.T + bias, weight in nn.Linear's (out, in) layout. The forward runs the swapped gemm,
    (W @ x.T).T, on the shapes where gradlab does (gradlab/ops/linalg.py, `_swap_wins`: the same bits,
    faster there, benchmarks/matmul_kernels.py), so that this engine stays a floor for gradlab."""
    a, w = x.data, weight.data
    (n, k), m = a.shape, w.shape[0]
    if k >= 256 and m >= 128 and 4 <= n <= 64 and n * m >= 2048:
        out = np.add((w @ a.T).T, bias.data, out=np.empty((n, m), a.dtype))
    else:
        out = a @ w.T + bias.data
    return x._result(out, (x, weight, bias),
                     lambda g: (g @ w if x.requires_grad else None, g.T @ a, g.sum(axis=0)))


def _log_softmax(x, dim):
    shifted = x.data - x.data.max(axis=dim, keepdims=True)
    r = shifted - np.log(np.exp(shifted).sum(axis=dim, keepdims=True))
    return x._result(r, (x,), lambda g: (g - np.exp(r) * g.sum(axis=dim, keepdims=True),))


def _nll_loss(logp, target):
    rows, cols = np.arange(logp.data.shape[0]), target.data
    n = np.float32(len(cols))

    def backward_fn(g):
        grad = np.zeros_like(logp.data)
        grad[rows, cols] = -g / n
        return (grad,)
    return logp._result(np.asarray(-logp.data[rows, cols].sum() / n), (logp,), backward_fn)


functional = SimpleNamespace(linear=_linear, log_softmax=_log_softmax, nll_loss=_nll_loss)
