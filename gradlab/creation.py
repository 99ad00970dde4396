"""Factory functions: tensor, ones, zeros, full, arange, linspace, eye, rand, randn, ...

Signatures and dtype rules follow PyTorch (torch-parity.md section 4.6-4.7): Python ints give
int64, Python floats float32, bools bool; random factories draw from the same streams as
PyTorch's CPU generator (`gradlab/random.py`).
"""
import numbers
import warnings

import numpy as np

from . import _dtype
from . import random as _random
from .tensor import _FLOAT_ONLY, Tensor, _size_args


def _finish(data, requires_grad):
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind not in "fc":
            raise RuntimeError(_FLOAT_ONLY)
        t._requires_grad = True
    return t


def _np(dtype, default=np.float32):
    return _dtype.to_numpy_dtype(dtype) if dtype is not None else np.dtype(default)


def _ragged_message(data):
    """PyTorch's message for a nested list whose rows differ in length."""
    def walk(x, dim):
        if not isinstance(x, (list, tuple)):
            return None
        lengths = [len(v) if isinstance(v, (list, tuple)) else None for v in x]
        first = lengths[0] if lengths else None
        for v, n in zip(x, lengths):
            if n != first:
                if first is None or n is None:
                    return f"expected sequence of length {first} at dim {dim + 1} (got {n})" if n is not None else \
                        "too many dimensions 'list'"
                return f"expected sequence of length {first} at dim {dim + 1} (got {n})"
        for v in x:
            m = walk(v, dim + 1)
            if m:
                return m
        return None
    return walk(data, 0)


def _infer_array(data):
    """numpy array with PyTorch's dtype inference for Python data."""
    if isinstance(data, np.ndarray):
        return data.copy()
    if isinstance(data, np.generic):
        return np.array(data)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=3)
        return data._data.copy()
    plain = _unwrap(data)
    try:
        arr = np.array(plain)
    except ValueError:
        raise ValueError(_ragged_message(plain) or "could not convert data to a tensor") from None
    if arr.dtype == object:
        msg = _ragged_message(plain)
        if msg:
            raise ValueError(msg)
        bad = _first_bad(plain)
        raise TypeError(f"new(): invalid data type '{type(bad).__name__}'")
    kind = arr.dtype.kind
    if kind == "f" and not _has_numpy_floats(plain):
        arr = arr.astype(np.float32)
    elif kind in "iu" and arr.dtype != np.int64 and not _has_numpy_ints(plain):
        arr = arr.astype(np.int64)
    elif kind == "c":
        arr = arr.astype(np.complex64)
    elif kind in "US":
        raise TypeError(f"new(): invalid data type '{'str'}'")
    return arr


def _unwrap(x):
    if isinstance(x, Tensor):
        return x._data
    if isinstance(x, (list, tuple)):
        return [_unwrap(v) for v in x]
    return x


def _has_numpy_floats(x):
    if isinstance(x, (np.floating, np.ndarray)):
        return getattr(x, "dtype", None) == np.float64
    if isinstance(x, list) and x:
        return _has_numpy_floats(x[0])
    return False


def _has_numpy_ints(x):
    """numpy integer scalars in a list keep their dtype: torch.tensor([np.int32(3)]) is int32."""
    if isinstance(x, (np.integer, np.ndarray)):
        return True
    if isinstance(x, list) and x:
        return _has_numpy_ints(x[0])
    return False


def _first_bad(x):
    if isinstance(x, list):
        for v in x:
            b = _first_bad(v)
            if b is not None:
                return b
        return None
    return None if isinstance(x, (numbers.Number, np.generic, np.ndarray)) else x


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (a number, nested lists, or a numpy array)."""
    if dtype is not None and not isinstance(data, (Tensor, np.ndarray, np.generic)):
        # convert Python numbers straight to the requested dtype: going through float32 first
        # would round 1e-4 before it became a float64
        try:
            arr = np.array(_unwrap(data), dtype=_np(dtype))
        except (ValueError, TypeError):
            arr = _infer_array(data).astype(_np(dtype))
    else:
        arr = _infer_array(data)
        if dtype is not None:
            arr = arr.astype(_np(dtype))
    # (np.ascontiguousarray would turn a 0-d array into a 1-d one)
    return _finish(arr if arr.flags.c_contiguous else arr.copy(order="C"), requires_grad)


def as_tensor(data, dtype=None, device=None):
    if isinstance(data, Tensor) and (dtype is None or data.dtype is dtype):
        return data
    if isinstance(data, np.ndarray) and (dtype is None or _np(dtype) == data.dtype):
        return Tensor._make(data)
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor sharing memory with a numpy array (changes show in both)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {type(array).__name__})")
    _dtype.from_numpy_dtype(array.dtype)
    return Tensor._make(array)


def _shape(size, factory=None):
    """Sizes as a tuple, with PyTorch's error for a negative one (zeros words it its own way)."""
    shape = _size_args(size)
    if any(s < 0 for s in shape):
        if factory == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {min(shape)}: [{', '.join(map(str, shape))}]")
    return shape


def _filled(fill, size, dtype, requires_grad, default=np.float32, factory=None):
    shape = _shape(size, factory)
    d = _np(dtype, default)
    data = np.zeros(shape, d) if fill == 0 else np.ones(shape, d) if fill == 1 else np.full(shape, fill, dtype=d)
    return _finish(data, requires_grad)


def ones(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _filled(1, size, dtype, requires_grad)


def zeros(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    return _filled(0, size, dtype, requires_grad, factory="zeros")


def empty(*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    # PyTorch leaves memory uninitialised; zeros keep notebooks reproducible
    return _filled(0, size, dtype, requires_grad)


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if dtype is None:
        default = np.bool_ if isinstance(fill_value, bool) else np.int64 if isinstance(fill_value, numbers.Integral) \
            else np.complex64 if isinstance(fill_value, complex) else np.float32
    else:
        default = np.float32
    if isinstance(fill_value, Tensor):
        fill_value = fill_value.item()
    if not isinstance(fill_value, (numbers.Number, np.generic)):
        raise TypeError(f"full(): argument 'fill_value' (position 2) must be Number, not {type(fill_value).__name__}")
    return _filled(fill_value, (size,) if isinstance(size, numbers.Integral) else (tuple(size),), dtype,
                   requires_grad, default)


def _like(fill, input, dtype, requires_grad):
    d = _np(dtype) if dtype is not None else input._data.dtype
    return _finish(np.full(input._data.shape, fill, dtype=d), requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(1, input, dtype, requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(0, input, dtype, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(0, input, dtype, requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _like(fill_value, input, dtype, requires_grad)


def arange(start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if vals[2] == 0:
        raise RuntimeError("step must be nonzero")
    if (vals[1] - vals[0]) * vals[2] < 0:
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    all_int = all(isinstance(v, numbers.Integral) for v in vals)
    default = np.int64 if all_int else np.float32
    target = _np(dtype, default)
    if all_int:
        data = np.arange(vals[0], vals[1], vals[2], dtype=np.int64).astype(target)
    else:
        # PyTorch computes start + i * step in double, then casts
        n = int(np.ceil((vals[1] - vals[0]) / vals[2]))
        data = (vals[0] + np.arange(n, dtype=np.float64) * vals[2]).astype(target)
    return _finish(data, requires_grad)


def linspace(start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    target = _np(dtype)
    start, end = float(start), float(end)
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if steps == 0:
        return _finish(np.zeros(0, target), requires_grad)
    if steps == 1:
        data = np.array([start], dtype=target)
    else:
        # PyTorch fills the first half from start and the second half from end (symmetric rounding)
        step = (end - start) / (steps - 1)
        i = np.arange(steps, dtype=np.float64)
        half = steps // 2
        data = np.where(i < half, start + step * i, end - step * (steps - 1 - i))
        if target.kind == "f" and target.itemsize == 4:
            step32 = np.float32(np.float32(end) - np.float32(start)) / np.float32(steps - 1)
            i32 = np.arange(steps, dtype=np.float32)
            data = np.where(i32 < half, np.float32(start) + step32 * i32,
                            np.float32(end) - step32 * np.float32(steps - 1 - i32))
        data = data.astype(target)
    return _finish(data, requires_grad)


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _finish(np.eye(n, n if m is None else m, dtype=_np(dtype)), requires_grad)


# --- random -------------------------------------------------------------------------------------------

def _gen(generator):
    return generator if generator is not None else _random.default_generator


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """Uniform numbers in [0, 1), the same stream as PyTorch's CPU generator."""
    return _finish(_gen(generator).uniform(_shape(size), _np(dtype)), requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Standard normal numbers, the same stream as PyTorch's CPU generator."""
    return _finish(_gen(generator).normal(_shape(size), _np(dtype)), requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    if size is None:                    # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    data = _gen(generator).randint(low, high, _shape((tuple(size),)), np.int64)
    return _finish(data.astype(_np(dtype, np.int64)), requires_grad)


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _finish(_random.default_generator.uniform(input._data.shape, _np(dtype, input._data.dtype)), requires_grad)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    return _finish(_random.default_generator.normal(input._data.shape, _np(dtype, input._data.dtype)), requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
    if high is None:
        low, high = 0, low
    data = _random.default_generator.randint(low, high, input._data.shape, np.int64)
    return _finish(data.astype(_np(dtype, input._data.dtype)), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        like = mean if isinstance(mean, Tensor) else std
        z = _gen(generator).normal(shape, like._data.dtype)
        return _finish((z * s + m).astype(like._data.dtype), requires_grad)
    return _finish(_gen(generator).normal(tuple(size), _np(dtype), mean, std), requires_grad)


def manual_seed(seed):
    return _random.manual_seed(seed)


def seed():
    return _random.seed()


def initial_seed():
    return _random.initial_seed()


def get_rng_state():
    return Tensor._make(_random.get_rng_state())


def set_rng_state(new_state):
    _random.set_rng_state(new_state._data if isinstance(new_state, Tensor) else np.asarray(new_state))
