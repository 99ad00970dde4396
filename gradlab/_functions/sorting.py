"""gradlab.<fn> functions: sorting, selection and counting (see gradlab/_functions/__init__.py).

Most are the Tensor methods of _tensor_methods/sorting.py; `searchsorted` and `bucketize` exist only
as functions, as in PyTorch."""
import numpy as np

from .. import _dtype
from .._tensor_core import Tensor
from ..creation import tensor
from ._common import method_forms

# (sort, topk, kthvalue, median, nanmedian, mode, cumprod, cummax, cummin are made from the op table:
# _functions/variants.py)
_METHODS = ("argsort", "msort", "unique", "unique_consecutive", "bincount", "count_nonzero", "diff", "histc", "histogram")

globals().update(method_forms(*_METHODS))

__all__ = list(_METHODS) + ["searchsorted", "bucketize"]


def _as_values(input, like):
    """searchsorted's `input`: a Tensor, or a Python number (a 0-d tensor of the boundaries' kind)."""
    if isinstance(input, Tensor):
        return input
    return tensor(input, dtype=like.dtype) if isinstance(input, bool) else tensor(input)


def searchsorted(sorted_sequence, input, *, out_int32=False, right=False, side=None, sorter=None):
    """Indices at which `input` would be inserted into the innermost dim of `sorted_sequence` to keep
    it sorted (the first such place, or the last with right=True / side='right')."""
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    values = _as_values(input, sorted_sequence)
    seq = sorted_sequence._data
    v = values._data
    if sorter is not None:                   # (PyTorch's checks of the sorter, before the shapes')
        order = sorter._data
        if order.shape != seq.shape:
            raise RuntimeError("torch.searchsorted(): boundary and sorter must have the same size, but got boundary "
                               f"tensor [{', '.join(map(str, seq.shape))}]and got sorter tensor "
                               f"[{', '.join(map(str, order.shape))}]")
        if order.dtype != np.int64:
            raise RuntimeError("torch.searchsorted(): sorter must be a tensor of long dtype but got dtype "
                               f"{_dtype.from_numpy_dtype(order.dtype)._legacy[:-len('Tensor')]}")
        if order.size and (order.min() < 0 or order.max() >= seq.shape[-1]):
            raise RuntimeError("torch.searchsorted(): sorter index out of range")
        seq = np.take_along_axis(seq, order, axis=-1)
    if seq.ndim != 1 and not v.ndim:
        raise RuntimeError("torch.searchsorted(): input value can be a scalar only when boundaries tensor dimension is "
                           f"1, but we got boundaries tensor dim({seq.ndim}) and input value's dim(0) numel(1)")
    if not seq.ndim:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should have positive dimension, but got 0 dimension")
    if seq.ndim > 1 and (v.ndim != seq.ndim or v.shape[:-1] != seq.shape[:-1]):
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 dimensions "
                           "of boundaries tensor and input value tensor must match, but we got boundaries tensor "
                           f"[{', '.join(map(str, seq.shape))}] and input value tensor "
                           f"[{', '.join(map(str, v.shape))}]")
    common = _dtype.result_np_dtype([(1, seq.dtype), (1, v.dtype)], [])
    if v.size and common.kind in "bc":       # (compared in the common dtype: no bool or complex kernel)
        raise NotImplementedError('"searchsorted_out_cpu" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(common)._legacy[:-len('Tensor')]}'")
    how = "right" if right else "left"
    if not seq.size:                  # (no boundaries, or no rows: every value goes first)
        out = np.zeros(v.shape, np.int64)
    elif seq.ndim <= 1:
        out = np.searchsorted(seq.reshape(-1), v, side=how)
    else:
        flat_seq = seq.reshape(-1, seq.shape[-1])
        flat_v = v.reshape(flat_seq.shape[0], -1)
        out = np.stack([np.searchsorted(s, x, side=how) for s, x in zip(flat_seq, flat_v)]).reshape(v.shape)
    return Tensor._make(np.asarray(out, np.int32 if out_int32 else np.int64))


def bucketize(input, boundaries, *, out_int32=False, right=False):
    """The bucket of each value among 1-d `boundaries`: searchsorted with the roles swapped."""
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)
