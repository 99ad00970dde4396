"""Filled factories: ones, zeros, empty, full, eye and their *_like forms."""
import math
import numbers

import numpy as np

from .. import _dtype
from .._size import Size
from ..ops import elementwise as _elementwise
from ..ops import registry as _registry
from .._tensor_core import Tensor
from .._tensor_data import _argument_type_name
from .options import _finish, _like_device, _np, _options, _shape


def _positive_zero(fill):
    """Whether fill is 0 and not -0.0 (torch.full(size, -0.0) holds negative zeros, printed `-0.`)."""
    return fill == 0 and math.copysign(1.0, fill.real) > 0 and math.copysign(1.0, getattr(fill, "imag", 0.0)) > 0


def _filled(fill, size, dtype, requires_grad, default=None, factory=None):
    shape = _shape(size, factory)
    d = _np(dtype, default)
    data = np.zeros(shape, d) if _positive_zero(fill) else np.ones(shape, d) if fill == 1 else \
        np.full(shape, fill, dtype=d)
    return _finish(data, requires_grad)


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    _options("ones", dtype, device, pin_memory=pin_memory)
    return _filled(1, size, dtype, requires_grad, factory="ones")


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False):
    _options("zeros", dtype, device, pin_memory=pin_memory)
    return _filled(0, size, dtype, requires_grad, factory="zeros")


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None,
          pin_memory=False):
    # PyTorch leaves memory uninitialised; zeros keep notebooks reproducible
    _options("empty", dtype, device, pin_memory=pin_memory)
    out = _filled(0, size, dtype, requires_grad, factory="empty")
    _dtype.check_format_rank(memory_format, out._data.ndim)
    return out


# full's dtype for a complex fill: complex128 under a float64 default, else complex64 (PyTorch's full takes
# cfloat under a float16 default, where torch.tensor(1j) is complex32)
_FULL_COMPLEX = {"float64": np.dtype(np.complex128)}


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    np_dtype = _options("full", dtype, device, pin_memory=pin_memory)
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {_argument_type_name(size)}")
    fill_value = _fill_number(fill_value, "full")
    if np_dtype is None:
        np_dtype = np.dtype(np.bool_ if isinstance(fill_value, (bool, np.bool_)) else np.int64
                            if isinstance(fill_value, numbers.Integral) else _FULL_COMPLEX.get(_dtype.default_np().name, np.dtype(np.complex64))
                            if isinstance(fill_value, complex) else _dtype.default_np())
    return _filled(_checked_fill(fill_value, np_dtype), (tuple(size),), np_dtype, requires_grad, factory="full")


# c10's type names in "value cannot be converted to type ... without overflow"
_C_TYPES = {"uint8": "uint8_t", "int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
            "uint16": "uint16_t", "uint32": "uint32_t", "uint64": "uint64_t", "float16": "c10::Half",
            "float32": "float", "float64": "double"}


def _fill_number(value, function):
    """A fill value as a Python number: numbers, numpy scalars and 0-d tensors only."""
    if isinstance(value, Tensor) and value._data.ndim == 0:
        return value._data.item()
    if not isinstance(value, (numbers.Number, np.generic)):
        raise TypeError(f"{function}(): argument 'fill_value' (position 2) must be Number, not "
                        f"{_argument_type_name(value)}")
    return value.item() if isinstance(value, np.generic) else value


def _checked_fill(value, target):
    """PyTorch's checked conversion of a fill value to the dtype (c10::checked_convert)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value >= 2 ** 64:
            raise OverflowError("int too big to convert")
        if value < -2 ** 63:
            raise OverflowError("can't convert negative int to unsigned")
    if target.kind in "bcV":          # (V: complex32)
        return value
    overflow = RuntimeError(f"value cannot be converted to type {_C_TYPES[target.name]} without overflow")
    if isinstance(value, complex):
        if value.imag != 0:
            raise overflow
        value = value.real
    if target.kind == "f":
        if math.isfinite(value) and abs(value) > np.finfo(target).max:
            raise overflow
        return _dtype.half_scalar(value) if target == np.float16 and isinstance(value, float) else value
    info = np.iinfo(target)
    if isinstance(value, float):
        if not (math.isfinite(value) and info.min <= value <= info.max):
            raise overflow
        return int(value)
    if value > info.max or value < info.min and not (info.min == 0 and -value <= info.max):
        raise overflow
    return value % (info.max + 1) if value < 0 and info.min == 0 else value


def _like(fill, input, dtype, requires_grad, memory_format=None):
    """A new tensor shaped like input, laid out like it (PyTorch's empty_like with preserve_format: input's
    strides when it is dense, as an empty tensor always is, else dense ones in its order), or in the
    memory_format asked for."""
    d = _np(dtype, input._data.dtype)
    data = input._data
    if memory_format is _dtype.contiguous_format or memory_format is _dtype.channels_last:
        shape = data.shape
        if memory_format is _dtype.contiguous_format:
            strides = _elementwise.contiguous_strides(shape)
        elif len(shape) != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        else:
            strides = _registry.channels_last_strides(shape)       # NCHW stored as NHWC
        itemsize = np.dtype(d).itemsize
        out = np.lib.stride_tricks.as_strided(np.empty(data.size, d), shape, [s * itemsize for s in strides])
    elif data.flags.c_contiguous and 1 not in data.shape and data.size:
        return _finish(np.full(data.shape, fill, dtype=d), requires_grad)     # (the common case)
    else:
        out = _elementwise.preserved_empty(data, d)
    out[...] = fill
    return _finish(out, requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("ones_like", dtype, device)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    return _like(1, input, dtype, requires_grad, memory_format)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("zeros_like", dtype, device)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    return _like(0, input, dtype, requires_grad, memory_format)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("empty_like", dtype, device)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    return _like(0, input, dtype, requires_grad, memory_format)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    np_dtype = _options("full_like", dtype, device)
    _like_device(input, device)
    _dtype.check_format_rank(memory_format, input._data.ndim)
    fill_value = _fill_number(fill_value, "full_like")
    target = np_dtype if np_dtype is not None else _np(None, input._data.dtype)
    return _like(_checked_fill(fill_value, target), input, dtype, requires_grad, memory_format)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    _options("eye", dtype, device, (n,) if m is None else (n, m), requires_grad=requires_grad)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _finish(np.eye(n, n if m is None else m, dtype=_np(dtype)), requires_grad)
