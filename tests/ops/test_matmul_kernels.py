"""The products nn.Linear's forward computes with the swapped gemm, (W @ x.T).T instead of x @ W.T
(gradlab/ops/linalg.py, `_swap_wins`; benchmarks/matmul_kernels.py measures why): the same bits as
the direct product, PyTorch's values on exact inputs, and PyTorch's layouts (result strides,
is_contiguous, the gradients' strides)."""
import numpy as np
import pytest

import gradlab
from gradlab.ops.linalg import _swap_wins

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# (n, k, m): inside the rule, on its edges and just outside it
SHAPES = [(64, 784, 256), (4, 256, 512), (8, 256, 256), (16, 300, 128), (32, 257, 200), (64, 256, 128),
          (65, 784, 256), (3, 784, 1024), (8, 256, 128), (64, 255, 256), (16, 784, 127)]
SWAPPED = {(64, 784, 256), (4, 256, 512), (8, 256, 256), (16, 300, 128), (32, 257, 200), (64, 256, 128)}


def _arrays(n, k, m, seed, exact=False):
    rng = np.random.default_rng(seed)
    if exact:       # small integers: every sum is exact, in any order, so torch's bits are known
        draw = lambda *s: rng.integers(-3, 4, s).astype(np.float32)  # noqa: E731
    else:
        draw = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    return draw(n, k), draw(m, k), draw(m), draw(n, m)


@pytest.mark.parametrize("n,k,m", SHAPES)
def test_rule_covers_the_measured_wins(n, k, m):
    x, w, _, _ = _arrays(n, k, m, 0)
    assert _swap_wins(x, w.T) == ((n, k, m) in SWAPPED)
    assert not _swap_wins(x, np.ascontiguousarray(w.T))            # a row-major right operand: direct
    assert not _swap_wins(x.astype(np.float64), w.T.astype(np.float64))


@pytest.mark.parametrize("n,k,m", SHAPES)
def test_same_bits_as_the_direct_product(n, k, m):
    """gradlab's values are what it computed before the swap: numpy's x @ W.T (+ bias, added after)."""
    x, w, b, _ = _arrays(n, k, m, 1)
    direct = x @ w.T
    with_bias = direct + b
    X, Wt, B = gradlab.tensor(x), gradlab.tensor(w), gradlab.tensor(b)
    assert np.array_equal((w @ x.T).T, direct)
    for got, want in ((gradlab.nn.functional.linear(X, Wt, B), with_bias),
                      (gradlab.nn.functional.linear(X, Wt), direct),
                      (X @ Wt.t(), direct), (X.mm(Wt.t()), direct), (gradlab.addmm(B, X, Wt.t()), with_bias),
                      (gradlab.addmm(B, X, Wt.t(), beta=0.5, alpha=2), (direct * 2) + b * np.float32(0.5))):
        assert np.array_equal(got.numpy(), want)
        assert got.stride() == (m, 1) and got.is_contiguous()


def _step(lib, x, w, b, g, layer):
    X = lib.tensor(x, requires_grad=True)
    W = lib.tensor(w, requires_grad=True)
    B = lib.tensor(b, requires_grad=True)
    out = layer(lib, X, W, B)
    out.backward(lib.tensor(g))
    return out, X, W, B


LAYERS = {
    "linear": lambda lib, X, W, B: lib.nn.functional.linear(X, W, B),
    "linear_no_bias": lambda lib, X, W, B: lib.nn.functional.linear(X, W),
    "matmul": lambda lib, X, W, B: X @ W.t(),
    "addmm": lambda lib, X, W, B: lib.addmm(B, X, W.t()),
    "addmm_scaled": lambda lib, X, W, B: lib.addmm(B, X, W.t(), beta=2, alpha=-1),
    "linear_3d": lambda lib, X, W, B: lib.nn.functional.linear(X.unsqueeze(0), W, B),    # (folded into addmm)
}


@pytest.mark.parametrize("layer", sorted(LAYERS))
@pytest.mark.parametrize("n,k,m", [(64, 784, 256), (16, 300, 128), (65, 784, 256)])
def test_torchs_values_and_layouts(layer, n, k, m):
    x, w, b, g = _arrays(n, k, m, 2, exact=True)
    if layer == "linear_3d":
        g = g[None]
    results = [_step(lib, x, w, b, g, LAYERS[layer]) for lib in (torch, gradlab)]
    (t_out, *t_leaves), (g_out, *g_leaves) = results
    assert g_out.stride() == t_out.stride() and g_out.is_contiguous() == t_out.is_contiguous()
    assert np.array_equal(g_out.detach().numpy(), t_out.detach().numpy())
    for t, gl in zip(t_leaves, g_leaves):
        assert (t.grad is None) == (gl.grad is None)
        if t.grad is not None:
            assert gl.grad.stride() == t.grad.stride()
            assert np.array_equal(gl.grad.numpy(), t.grad.numpy())
