"""add/sub/rsub with an alpha round once, as PyTorch's fused multiply-add kernel does: SGD's
`p.add_(grad, alpha=-lr)` then gives PyTorch's bits (two roundings differed in ~2% of float32 elements).
The optimizers' buffers too: addcmul_ and lerp_ (weight < 0.5) are fused in PyTorch's kernels."""
import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(11)
CALLS = [
    lambda T, a, b, k: T.add(a, b, alpha=k),
    lambda T, a, b, k: a.sub(b, alpha=k),
    lambda T, a, b, k: T.sub(b, a, alpha=k),
    lambda T, a, b, k: a.clone().add_(b, alpha=k),
    lambda T, a, b, k: a.clone().sub_(b, alpha=k),
    lambda T, a, b, k: T.add(a, b[:1], alpha=k),                  # broadcast
    lambda T, a, b, k: T.add(a[::2], b[::2], alpha=k),            # strided
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("call", range(len(CALLS)))
@pytest.mark.parametrize("n", [2, 9, 1000])
def test_alpha_rounds_once(dtype, call, n):
    a, b = RNG.standard_normal(n), RNG.standard_normal(n)
    alpha = float(RNG.choice([-0.0123, 0.3, -1e-3, 2.5]))
    out = []
    for T in (torch, gradlab):
        ta = T.tensor(a, dtype=getattr(T, dtype))
        tb = T.tensor(b, dtype=getattr(T, dtype))
        out.append(CALLS[call](T, ta, tb, alpha).float().numpy())
    np.testing.assert_array_equal(out[1], out[0])


@pytest.mark.parametrize("name, options", [
    ("SGD", {}), ("SGD", {"momentum": 0.9}), ("SGD", {"weight_decay": 0.01, "momentum": 0.5, "nesterov": True}),
    ("SGD", {"momentum": 0.9, "dampening": 0.1}), ("RMSprop", {"momentum": 0.9}), ("RMSprop", {"weight_decay": 0.1}),
    ("Adadelta", {"weight_decay": 0.1}), ("Adam", {}), ("Adam", {"weight_decay": 0.01}), ("AdamW", {}),
    ("Adagrad", {}), ("RMSprop", {"centered": True})])
def test_optimizer_steps_match_bit_for_bit(name, options):
    """Twenty steps on the same gradients: the same weights."""
    grads = RNG.standard_normal((20, 4, 3)).astype(np.float32)
    start = RNG.standard_normal((4, 3)).astype(np.float32)
    results = []
    for T in (torch, gradlab):
        w = T.tensor(start, requires_grad=True)
        opt = getattr(T.optim, name)([w], lr=0.037, **options)
        for g in grads:
            w.grad = T.tensor(g)
            opt.step()
        results.append(w.detach().numpy().copy())
    if name == "SGD":
        np.testing.assert_array_equal(results[1], results[0])
    else:
        # their float32 sqrt is MKL's (its last bit differs on some CPUs: OTHER_CPU_REASON); the steps around
        # it are PyTorch's roundings (fused addcmul_, lerp_, add_ with alpha), so the weights stay within
        # a few units in the last place of PyTorch's after twenty steps (centered RMSprop subtracts two close numbers)
        np.testing.assert_allclose(results[1], results[0], rtol=1e-5, atol=0)
