"""nll_loss and cross_entropy's reduced values bit for bit against torch. torch's kernels add the picked
losses (and the picked class weights) in a cascade of 8 partial sums, flushing level j into level j+1 at
every 16**(j+1)-th sample: numpy's pairwise sum differs in the last bit for about half of all batches, and
`loss.item()` shows it. Generated cases: batch sizes across the cascade's levels, class counts, float32 and
float64, class weights, ignored targets, 1-d, 2-d, 3-d and 4-d inputs, label smoothing."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([rng.integers(1, 20), rng.integers(20, 300), rng.integers(250, 1100)]))
    c = int(rng.integers(1, 9))
    dtype = str(rng.choice(["float32", "float64"]))
    rank = int(rng.choice([1, 2, 2, 2, 3, 4])) if n < 300 else 2
    spatial = tuple(int(s) for s in rng.integers(1, 5, max(rank - 2, 0)))
    x = (rng.standard_normal((n, c) + spatial) * rng.choice([1, 10])).astype(dtype)
    target = rng.integers(0, c, (n,) + spatial)
    ignore_index = -100
    if rng.random() < 0.4:
        ignore_index = int(rng.choice([int(rng.integers(0, c)), -1, -100]))
        target[rng.random(target.shape) < 0.3] = ignore_index
    weight = rng.uniform(0.1, 3, c).astype(dtype) if rng.random() < 0.4 else None
    reduction = str(rng.choice(["mean", "sum"]))
    smoothing = float(rng.choice([0.0, 0.0, 0.1, 0.3]))
    return x, target, ignore_index, weight, reduction, smoothing, rank


def _run(T, case, loss):
    x, target, ignore_index, weight, reduction, smoothing, rank = case
    xx = T.tensor(x, requires_grad=True)
    inp, tgt = (xx[0], T.tensor(target[0])) if rank == 1 else (xx, T.tensor(target))
    w = None if weight is None else T.tensor(weight)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if loss == "nll_loss":
            out = T.nn.functional.nll_loss(inp, tgt, weight=w, ignore_index=ignore_index, reduction=reduction)
        else:
            out = T.nn.functional.cross_entropy(inp, tgt, weight=w, ignore_index=ignore_index,
                                                reduction=reduction, label_smoothing=smoothing)
        out.backward()
    return out.detach().numpy().tobytes(), xx.grad.numpy().tobytes()


@pytest.mark.parametrize("loss", ["nll_loss", "cross_entropy"])
@pytest.mark.parametrize("seed", range(150))
def test_reduced_loss_bits(seed, loss):
    case = _case(seed)
    expected_value, expected_grad = _run(torch, case, loss)
    got_value, got_grad = _run(gradlab, case, loss)
    assert got_value == expected_value, (case[4:], np.frombuffer(got_value, case[0].dtype),
                                         np.frombuffer(expected_value, case[0].dtype))
    assert got_grad == expected_grad
