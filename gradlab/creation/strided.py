"""Factories given a memory layout or a memory buffer, and the odd ones out: empty_strided, empty_permuted,
scalar_tensor, asarray, frombuffer and the deprecated torch.range."""
import itertools
import math
import numbers
import operator

import numpy as np

from .. import _dtype
from .._tensor_core import Tensor
from .._tensor_data import _argument_type_name, _check_numpy, array_from_data
from .data import tensor
from .factories import _checked_fill
from .options import _finish, _not_implemented, _np, _options, _shape
from .. import _warnings



def strided_zeros(shape, strides, np_dtype):
    """Zeros laid out with these element strides (PyTorch's empty_strided: memory for the largest offset)."""
    if any(n == 0 for n in shape):
        extent = 0
    else:
        extent = 1 + sum((n - 1) * s for n, s in zip(shape, strides))
    memory = np.zeros(max(extent, 1), np_dtype)
    item = memory.itemsize
    return np.lib.stride_tricks.as_strided(memory, shape, tuple(s * item for s in strides))


def empty_strided(size, stride, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """An (uninitialized in PyTorch, zeros here) tensor with these sizes and strides."""
    np_dtype = _options("empty_strided", dtype, device, pin_memory=pin_memory)
    shape = _shape((size,))
    stride = tuple(int(s) for s in stride)
    if len(stride) != len(shape):
        raise RuntimeError(f"dimensionality of sizes ({len(shape)}) must match dimensionality of strides "
                           f"({len(stride)})")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes=[{', '.join(map(str, shape))}] and "
                           f"strides=[{', '.join(map(str, stride))}]")
    return _finish(strided_zeros(shape, stride, _np(dtype) if np_dtype is None else np_dtype), requires_grad)


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """A tensor whose dims lie in memory in the order physical_layout gives (outermost first)."""
    np_dtype = _options("empty_permuted", dtype, device, pin_memory=pin_memory)
    shape = _shape((size,))
    order = tuple(int(d) for d in physical_layout)
    if len(order) != len(shape):
        raise RuntimeError(f"Number of dimensions in size does not match the length of the physical_layout; i.e. "
                           f"len(size) = {len(shape)} is not equal to len(physical_layout) = {len(order)}")
    seen = set()
    for i, d in enumerate(order):
        if not 0 <= d < len(shape):
            raise RuntimeError(f"Dimension out of range (expected to be between 0 and {len(shape) - 1}, but got {d} "
                               f"at index {i}).  NB: negative dims not currently supported; file an issue if you "
                               "want it.")
        if d in seen:
            raise RuntimeError("Duplicate dim not allowed")
        seen.add(d)
    strides, step = [0] * len(shape), 1      # (the last dim of physical_layout is the innermost; a 0 counts as 1)
    for d in reversed(order):
        strides[d] = step
        step *= max(shape[d], 1)
    return _finish(strided_zeros(shape, strides, _np(dtype) if np_dtype is None else np_dtype), requires_grad)


def scalar_tensor(s, *, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    """A 0-d tensor of s in the default dtype (not s's type: scalar_tensor(3) is 3.)."""
    np_dtype = _options("scalar_tensor", dtype, device, pin_memory=pin_memory)
    if isinstance(s, Tensor):
        s = s._data.item()
    target = _np(dtype) if np_dtype is None else np_dtype
    value = _checked_fill(s.item() if isinstance(s, np.generic) else s, target)     # (PyTorch's checked_convert)
    if isinstance(value, complex) and target.kind == "b":
        value = value != 0
    return _finish(np.asarray(value).astype(target), requires_grad)


_ASARRAY_REQUIRES_GRAD = ("torch.asarray: unspecified requires_grad now defaults to obj.requires_grad instead of False. "
                          "Pass requires_grad=False explicitly to get the old behavior and silence this warning. "
                          "(Triggered internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1737.)")


def asarray(obj, *, dtype=None, device=None, copy=None, requires_grad=None):
    """obj as a tensor, sharing its memory where it can (a tensor, a numpy array), copying where asked or where
    the dtype changes; a sequence is read as torch.tensor reads it."""
    np_dtype = _options("asarray", dtype, device)
    if isinstance(obj, Tensor):
        wrong_dtype = np_dtype is not None and np_dtype != obj._data.dtype
        if copy is False and wrong_dtype:
            raise ValueError(f"can't alias tensor with dtype '{obj.dtype._legacy[:-len('Tensor')]}' into dtype "
                             f"'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-len('Tensor')]}'.")
        if requires_grad is None and obj.requires_grad:
            _warnings.warn_once(_ASARRAY_REQUIRES_GRAD)
        if wrong_dtype:
            result = obj.to(_dtype.from_numpy_dtype(np_dtype), copy=True)
        elif copy:
            result = obj.clone()
        else:
            result = obj
        if requires_grad is not None and result.grad_fn is None:
            result.requires_grad_(requires_grad)
        return result
    if isinstance(obj, np.ndarray):
        if copy is False and np_dtype is not None and np_dtype != obj.dtype:
            raise ValueError("can't alias tensor with dtype "
                             f"'{_dtype.from_numpy_dtype(obj.dtype)._legacy[:-len('Tensor')]}' into dtype "
                             f"'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-len('Tensor')]}'.")
        if copy or (np_dtype is not None and np_dtype != obj.dtype):
            return _finish(array_from_data(obj, np_dtype), bool(requires_grad))
        _check_numpy(obj, shared=True)
        return _finish(obj, bool(requires_grad))
    if copy is False:
        raise ValueError("can't alias arbitrary sequence into a tensor.")
    return _finish(array_from_data(obj, np_dtype), bool(requires_grad))


_warned_not_writable = [False]


def frombuffer(buffer, *, dtype, count=-1, offset=0, requires_grad=False):
    """A 1-d tensor sharing the memory of an object with Python's buffer protocol (bytes, bytearray, array)."""
    np_dtype = _options("frombuffer", dtype, None)
    try:
        view = memoryview(buffer)
    except TypeError:
        raise ValueError("object does not implement Python buffer protocol.") from None
    length = view.nbytes
    item = np_dtype.itemsize
    if length <= 0 or count == 0:
        raise ValueError(f"both buffer length ({length}) and count ({count}) must not be 0")
    if not 0 <= offset < length:
        raise ValueError(f"offset ({offset} bytes) must be non-negative and no greater than buffer length "
                         f"({length} bytes) minus 1")
    if count < 0 and (length - offset) % item:
        raise ValueError(f"buffer length ({length - offset} bytes) after offset ({offset} bytes) must be a multiple "
                         f"of element size ({item})")
    if count < 0:
        count = (length - offset) // item
    if offset + count * item > length:
        raise ValueError(f"requested buffer length ({count} * {item} bytes) after offset ({offset} bytes) must not "
                         f"be greater than actual buffer length ({length} bytes)")
    if view.readonly and not _warned_not_writable[0]:
        _warned_not_writable[0] = True
        _warnings.warn("The given buffer is not writable, and PyTorch does not support non-writable tensors. This "
                       "means you can write to the underlying (supposedly non-writable) buffer using the tensor. You "
                       "may want to copy the buffer to protect its data or make it writable before converting it to a "
                       "tensor. This type of warning will be suppressed for the rest of this program. (Triggered "
                       "internally at /__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:1556.)", UserWarning)
    data = np.frombuffer(view.cast("B"), np_dtype, count, offset)
    return _finish(data, requires_grad)


_RANGE_WARNING = ("torch.range is deprecated and will be removed in a future release because its behavior is "
                  "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                  "[start, end).")


def _c_number(v):
    """A double as C++'s ostream prints it (6 significant digits, no trailing zeros)."""
    return f"{v:g}"


def range(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """torch.range (deprecated): start, start + step, ... up to and including end; the default dtype unless
    dtype says otherwise, values computed as start + i * step in double (int64 for integer dtypes)."""
    _warnings.warn(_RANGE_WARNING, UserWarning)
    np_dtype = _options("range", dtype, device, pin_memory=pin_memory)
    target = _np(dtype) if np_dtype is None else np_dtype
    if target.kind in "bc":        # (range_cpu has no bool or complex kernel: refused before any other check)
        raise _not_implemented("range_cpu", target)
    values = [v._data.item() if isinstance(v, Tensor) else v.item() if isinstance(v, np.generic) else v
              for v in (start, end, step)]
    if target.kind in "iub":
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        start, end, step = (int(v) for v in values)
    else:
        start, end, step = (float(v) for v in values)
    if step == 0:
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(start) and math.isfinite(end)):
        raise RuntimeError(f"unsupported range: {_c_number(start)} -> {_c_number(end)}")
    if not ((step > 0 and end >= start) or (step < 0 and end <= start)):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    n = int((end - start) / step + 1) if target.kind not in "iub" else (end - start) // step + 1
    if target.kind in "iub":
        data = (np.int64(start) + np.int64(step) * np.arange(n, dtype=np.int64)).astype(target)
    else:
        data = (start + np.arange(n, dtype=np.float64) * step).astype(target)
    return _finish(data, requires_grad)


def unravel_index(indices, shape):
    """torch.unravel_index, as PyTorch writes it (torch/functional.py): the flat indices floor-divided by each
    dim's stride, modulo its size, as the last dim of one int64 tensor; then unbind(-1), so the coordinates are
    views of it."""
    if indices.is_complex() or indices.is_floating_point() or indices.dtype == _dtype.bool_:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    if not isinstance(shape, (numbers.Integral, list, tuple, str)):
        raise TypeError(f"expected 'shape' to be int or sequence of ints, but got {type(shape)}")
    if isinstance(shape, numbers.Integral):
        shape = (int(shape),)
    for n in shape:
        if not isinstance(n, numbers.Integral):
            raise TypeError(f"expected 'shape' sequence to only contain ints, but got {type(n)}")
    shape = tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"'shape' cannot have negative values, but got {shape}")
    coefs = list(reversed(list(itertools.accumulate(reversed(shape[1:] + (1,)), func=operator.mul))))
    return (indices.unsqueeze(-1).floor_divide(tensor(coefs, dtype=_dtype.int64))
            % tensor(shape, dtype=_dtype.int64)).unbind(-1)
