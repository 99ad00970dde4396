"""nll_loss's gradient bit for bit against torch: torch's kernel writes weight[target] * grad with
grad = -(grad_output / total_weight) ('mean') or -grad_output, each step rounded; (-1 / total_weight)
* grad_output differs in the last bit for some batch sizes. Generated cases: batch and class counts,
float32/float64, reductions, class weights, ignored targets, 1-d inputs, upstream scales."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _case(seed):
    rng = np.random.default_rng(seed)
    n, c = int(rng.integers(1, 12)), int(rng.integers(1, 9))
    dtype = str(rng.choice(["float32", "float64"]))
    x = rng.standard_normal((n, c)).astype(dtype)
    target = rng.integers(0, c, n)
    ignore_index = -100
    if rng.random() < 0.5:      # some targets ignored: a class, -1, or the default -100
        ignore_index = int(rng.choice([int(rng.integers(0, c)), -1, -100]))
        target[rng.random(n) < 0.3] = ignore_index
    # (weights in quarters: their total is exact in any order. torch adds the weights of the targets
    # in its own order, which gradlab's forward does not model yet: a separate issue)
    weight = (rng.integers(1, 13, c) / 4).astype(dtype) if rng.random() < 0.3 else None
    reduction = str(rng.choice(["mean", "sum", "none"]))
    scale = float(rng.choice([1.0, rng.standard_normal() * 10, 3.0, -0.0, 1e-30]))
    one_d = rng.random() < 0.15
    return x, target, ignore_index, weight, reduction, scale, one_d


def _grad(T, case):
    x, target, ignore_index, weight, reduction, scale, one_d = case
    xx = T.tensor(x, requires_grad=True)
    inp, tgt = (xx[0], T.tensor(target[0])) if one_d else (xx, T.tensor(target))
    w = None if weight is None else T.tensor(weight)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        loss = T.nn.functional.nll_loss(inp, tgt, weight=w, ignore_index=ignore_index, reduction=reduction)
        (loss * scale).sum().backward()
    return xx.grad.numpy().copy(), [str(w.message) for w in caught]


@pytest.mark.parametrize("seed", range(300))
def test_nll_loss_grad_bits(seed):
    case = _case(seed)
    expected, expected_warnings = _grad(torch, case)
    got, got_warnings = _grad(gradlab, case)
    assert got.dtype == expected.dtype
    assert got.tobytes() == expected.tobytes(), (case, got, expected)
    assert got_warnings == expected_warnings
