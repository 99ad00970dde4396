"""F.pad's non-constant modes on every dtype, against live PyTorch: the result or the exact error (its
reflect and replicate kernels refuse bool tensors, after their shape checks)."""
import itertools

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64"]
SHAPES = [((1, 3), [1, 1]), ((2, 3), [5, 5]), ((1, 2, 3), [1, 2]), ((1, 0, 3), [1, 1]), ((2, 3, 3), [1, 1, 0, 1]),
          ((1, 2, 3, 3), [1, 1, 1, 1]), ((2, 3, 3, 3), [1, 1, 1, 1, 1, 1]), ((1, 2, 3, 3, 3), [1, 0, 1, 1, 0, 1])]


def _outcome(T, dtype, shape, pad, mode):
    x = T.arange(int(T.tensor(shape).prod()) if shape else 1).reshape(shape).to(getattr(T, dtype))
    try:
        r = T.nn.functional.pad(x, pad, mode)
    except Exception as e:          # the error is the outcome being compared
        return type(e).__name__, str(e)
    return str(r.dtype), r.tolist()


@pytest.mark.parametrize("dtype,mode", list(itertools.product(DTYPES, ["reflect", "replicate", "circular"])))
def test_pad_modes_on_every_dtype(dtype, mode):
    for shape, pad in SHAPES:
        assert _outcome(gradlab, dtype, shape, pad, mode) == _outcome(torch, dtype, shape, pad, mode), (shape, pad)
