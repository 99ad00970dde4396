"""AccumulateGrad takes a gradient that nothing else holds as the leaf's .grad without copying it
(PyTorch's use_count() == 1 case; engine._stolen). A taken gradient must never be shared: writing
into one leaf's .grad must change no other leaf's .grad, no gradient a hook kept, no tensor of the
graph and no value saved with retain_graph=True. Generated programs (leaves used several times,
shared gradients of add/sub, views, expands, matrix products with nn.Linear's transposed weight),
each checked against torch for the gradients' values and strides, then for independence."""
import random

import numpy as np
import pytest

import gradlab
from gradlab.autograd import engine

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# unary and binary steps on (3, 4) float32 tensors; each keeps the shape
UNARY = [
    lambda T, a: a * 2.0,
    lambda T, a: a + 1.0,
    lambda T, a: a.tanh(),
    lambda T, a: a.t().t(),
    lambda T, a: a.reshape(4, 3).reshape(3, 4),
    lambda T, a: a.sum(0, keepdim=True).expand(3, 4),
    lambda T, a: a[:, :1].expand(3, 4) * 1.0,
    lambda T, a: T.nn.functional.linear(a, a.t() @ a),
]
BINARY = [
    lambda T, a, b: a + b,
    lambda T, a, b: a - b,
    lambda T, a, b: a * b,
    lambda T, a, b: (a @ b.t()) @ b,
    lambda T, a, b: a.mm(b.t()).mm(b),
    lambda T, a, b: T.nn.functional.linear(a, b.t() @ b, b[0]),
]


def _program(seed):
    rng = random.Random(seed)
    steps = []
    for _ in range(rng.randint(1, 6)):
        if rng.random() < 0.5:
            steps.append(("u", rng.randrange(len(UNARY)), rng.randrange(4)))
        else:
            steps.append(("b", rng.randrange(len(BINARY)), rng.randrange(4), rng.randrange(4)))
    hooked = rng.randrange(-1, 3)         # a leaf whose gradient a hook keeps (-1: none)
    retain = rng.random() < 0.3
    return steps, hooked, retain


def _run(T, seed, values):
    steps, hooked, retain = _program(seed)
    leaves = [T.tensor(v, requires_grad=True) for v in values[:3]]
    kept = []
    if hooked >= 0:
        leaves[hooked].register_hook(lambda g: kept.append(g) or None)
    pool = list(leaves) + [T.tensor(values[3])]
    for step in steps:
        if step[0] == "u":
            pool.append(UNARY[step[1]](T, pool[-1 - step[2] % len(pool)]))
        else:
            pool.append(BINARY[step[1]](T, pool[-1 - step[2] % len(pool)], pool[-1 - step[3] % len(pool)]))
    out = leaves[0].sum() + sum(p.sum() for p in pool[4:])
    out.backward(retain_graph=retain)
    return leaves, kept, pool, out


@pytest.mark.parametrize("seed", range(150))
def test_a_taken_gradient_is_never_shared(seed):
    rng = np.random.default_rng(seed)
    values = [rng.standard_normal((3, 4)).astype(np.float32) for _ in range(4)]
    t_leaves, _, _, _ = _run(torch, seed, values)
    leaves, kept, pool, out = _run(gradlab, seed, values)
    for t_leaf, leaf in zip(t_leaves, leaves):
        if t_leaf.grad is None:
            assert leaf.grad is None
            continue
        np.testing.assert_allclose(leaf.grad.numpy(), t_leaf.grad.numpy(), rtol=1e-5, atol=1e-5)
        assert leaf.grad.stride() == t_leaf.grad.stride()
    watched = [leaf.grad for leaf in leaves if leaf.grad is not None] + kept + pool + [out]
    before = [np.array(w.detach().numpy(), copy=True) for w in watched]
    for leaf in leaves:
        if leaf.grad is None:
            continue
        mine = leaf.grad
        mine.fill_(np.nan)
        for w, b in zip(watched, before):
            if w is not mine:
                np.testing.assert_array_equal(w.detach().numpy(), b)
        mine.copy_(gradlab.tensor(before[[i for i, w in enumerate(watched) if w is mine][0]]))


def test_a_linear_weight_gradient_is_taken_without_a_copy(monkeypatch):
    """The 784-256 layer's weight gradient: (g.t() @ x) transposed twice, taken as it is."""
    copies = []
    fresh_copy = engine._fresh_copy
    monkeypatch.setattr(engine, "_fresh_copy", lambda t, d: copies.append(d.shape) or fresh_copy(t, d))
    x = gradlab.randn(64, 784)
    W = gradlab.randn(256, 784, requires_grad=True)
    b = gradlab.randn(256, requires_grad=True)
    gradlab.nn.functional.linear(x, W, b).relu().sum().backward()
    assert copies == [] and W.grad.stride() == (784, 1) and W.grad.is_contiguous()
    # a gradient someone else holds is copied: here a hook keeps it
    kept = []
    W2 = gradlab.randn(256, 784, requires_grad=True)
    W2.register_hook(lambda g: kept.append(g) or None)
    gradlab.nn.functional.linear(x, W2, b).sum().backward()
    assert copies == [(256, 784)]
    assert not np.shares_memory(kept[0].numpy(), W2.grad.numpy())
