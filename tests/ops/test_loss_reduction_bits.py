"""The reduced losses of nn.functional bit for bit against torch: torch reduces a loss with its own sum and
mean kernels (apply_loss_reduction), whose order of addition numpy's pairwise sum does not share; a training
loop's `loss.item()` shows the last bits. Generated cases: sizes from 1 to thousands, float32 and float64,
'mean' and 'sum', each loss's own arguments. (kl_div is left out: its float32 log is MKL's VML, whose last
bits gradlab does not reproduce.)"""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

LOSSES = {
    "mse_loss": lambda F, x, y, p, t, red: F.mse_loss(x, y, reduction=red),
    "l1_loss": lambda F, x, y, p, t, red: F.l1_loss(x, y, reduction=red),
    "smooth_l1_loss": lambda F, x, y, p, t, red: F.smooth_l1_loss(x, y, reduction=red, beta=0.7),
    "huber_loss": lambda F, x, y, p, t, red: F.huber_loss(x, y, reduction=red, delta=1.3),
    "cross_entropy_probabilities": lambda F, x, y, p, t, red: F.cross_entropy(x, F.softmax(y, 1), reduction=red),
    "gaussian_nll_loss": lambda F, x, y, p, t, red: F.gaussian_nll_loss(x, y, p, reduction=red),
    "margin_ranking_loss": lambda F, x, y, p, t, red: F.margin_ranking_loss(x[:, 0], y[:, 0], t[:, 0] * 2 - 1,
                                                                            reduction=red),
    "hinge_embedding_loss": lambda F, x, y, p, t, red: F.hinge_embedding_loss(x, t * 2 - 1, reduction=red),
}


def _case(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.choice([rng.integers(1, 10), rng.integers(10, 100), rng.integers(100, 3000)]))
    c = int(rng.integers(1, 6))
    dtype = str(rng.choice(["float32", "float64"]))
    x = (rng.standard_normal((n, c)) * 3).astype(dtype)
    y = (rng.standard_normal((n, c)) * 3).astype(dtype)
    p = rng.uniform(0.01, 0.99, (n, c)).astype(dtype)
    t = rng.integers(0, 2, (n, c)).astype(dtype)
    return x, y, p, t, str(rng.choice(["mean", "sum"]))


@pytest.mark.parametrize("name", sorted(LOSSES))
@pytest.mark.parametrize("seed", range(25))
def test_reduced_loss_bits(name, seed):
    x, y, p, t, reduction = _case(seed)

    def run(T):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return LOSSES[name](T.nn.functional, *(T.tensor(a) for a in (x, y, p, t)), reduction).numpy()
    expected, got = run(torch), run(gradlab)
    assert got.dtype == expected.dtype
    assert got.tobytes() == expected.tobytes(), (got, expected)
