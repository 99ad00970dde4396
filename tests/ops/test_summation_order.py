"""gradlab adds float sums in PyTorch's order (gradlab/ops/summation.py): bit for bit the same sums as
torch's CPU kernel, for full sums, sums over the last dims and over the first dims, in every float dtype."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from gradlab.ops.summation import GRAIN, torch_sum

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DTYPES = [np.float32, np.float64, np.float16]


def _same_bits(ours, theirs):
    return np.array_equal(np.atleast_1d(ours).view(np.uint8), np.atleast_1d(theirs).view(np.uint8))


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 6000), dtype=st.sampled_from(DTYPES), scale=st.sampled_from([1e-3, 1.0, 1e4]),
       seed=st.integers(0, 2**31))
def test_full_sum(n, dtype, scale, seed):
    a = (np.random.default_rng(seed).standard_normal(n) * scale).astype(dtype)
    assert _same_bits(torch_sum(a), torch.from_numpy(a).sum().numpy())


@settings(max_examples=200, deadline=None)
@given(rows=st.integers(1, 300), cols=st.integers(1, 200), dim=st.sampled_from([0, 1]),
       dtype=st.sampled_from(DTYPES), seed=st.integers(0, 2**31))
def test_sum_over_one_dim(rows, cols, dim, dtype, seed):
    a = np.random.default_rng(seed).standard_normal((rows, cols)).astype(dtype)
    ours = torch_sum(a, (dim,))
    if ours is None:          # (a layout this file leaves to numpy: nothing to compare)
        return
    assert _same_bits(ours, torch.from_numpy(a).sum(dim).numpy())


@settings(max_examples=100, deadline=None)
@given(shape=st.lists(st.integers(1, 12), min_size=3, max_size=4), lead=st.booleans(), k=st.integers(1, 2),
       seed=st.integers(0, 2**31))
def test_sum_over_leading_or_trailing_dims(shape, lead, k, seed):
    a = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    dims = tuple(range(k)) if lead else tuple(range(len(shape) - k, len(shape)))
    ours = torch_sum(a, dims)
    if ours is None:
        return
    assert _same_bits(ours, torch.from_numpy(a).sum(dims).numpy())


@settings(max_examples=150, deadline=None)
@given(rows=st.integers(60, 1100), cols=st.integers(1, 48), dtype=st.sampled_from(DTYPES),
       zeros=st.sampled_from(["none", "some -0", "all -0"]), seed=st.integers(0, 2**31))
def test_column_sums_of_a_batch(rows, cols, dtype, zeros, seed):
    """A bias's gradient: a batch of 60 to 1100 rows summed down (multi_row_sum's usual case and
    row_sum's written-out path), columns in vectors and single columns, signed zeros included."""
    assume(rows * cols <= GRAIN)         # (larger sums PyTorch splits over threads: left to numpy)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((rows, cols)).astype(dtype)
    if zeros == "all -0":
        a[:] = -0.0
    elif zeros == "some -0":
        a[rng.random((rows, cols)) < 0.5] = -0.0
        a[:, rng.random(cols) < 0.3] = -0.0
    ours = torch_sum(a, (0,))
    assert ours is not None
    assert _same_bits(ours, torch.from_numpy(a).sum(0).numpy())


def test_what_it_leaves_to_numpy():
    assert torch_sum(np.ones((2, GRAIN), np.float32), (1,)) is None           # PyTorch splits it over threads
    assert torch_sum(np.ones((4, 4), np.float32).T, (0,)) is None             # not contiguous
    assert torch_sum(np.ones((4, 8), np.float32)[:, ::2]) is None             # not one block of memory
    assert torch_sum(np.ones(5, np.int64)) is None                            # integers add exactly anyway
