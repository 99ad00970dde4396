"""arange, linspace and logspace, bit for bit as PyTorch's CPU kernels compute them."""
import math
import numbers

import numpy as np

from .. import _dtype, _parallel
from .. import random as _random
from .._tensor_core import Tensor
from .._tensor_data import _argument_type_name
from .options import _combination_error, _finish, _not_implemented, _options


# The C++ compiler fuses PyTorch's `start + step * i` into one fused multiply-add (one rounding),
# which _fma64/_fma32 reproduce. arange's kernel is vectorized: blocks of 2 SIMD vectors (AVX2
# widths: 4 doubles, 8 floats, 16 halves) start from `base = start + step * i0` and go on with
# `base + k * step`; elements after the last whole block use the plain formula. linspace fills
# the first half from start and the second half back from end.

_SIMD_WIDTH = {np.dtype(np.float64): 4, np.dtype(np.float32): 8, np.dtype(np.float16): 16}
_GRAIN_SIZE = 32768                     # at::internal::GRAIN_SIZE: longer ranges split over threads


def _range_number(value, name, position, function, args):
    """An arange/linspace bound as a Python number (0-d tensors and numpy scalars included)."""
    if isinstance(value, Tensor) and value._data.ndim == 0:
        return value._data.item()
    if isinstance(value, (numbers.Number, np.generic)) and not isinstance(value, (str, bytes)):
        return value.item() if isinstance(value, np.generic) else value
    if len(args) == 2 or function == "linspace":
        raise _combination_error(function, args, {})
    raise TypeError(f"{function}(): argument '{name}' (position {position}) must be Number, not "
                    f"{_argument_type_name(value)}")


_NO_END = object()          # arange(5): end not given (an explicit None is refused, as by PyTorch)


def _chunks(n):
    """at::parallel_for's split of range(n) over the threads (one chunk below the grain size)."""
    threads = min(_parallel.get_num_threads(), -(-n // _GRAIN_SIZE)) if n else 1
    size = -(-n // threads) if n else 0
    return [(b, min(b + size, n)) for b in range(0, n, size)] if n else []


def _arange_values(start, step, n, target):
    """PyTorch's arange kernel: acc type double (float for float16), int64 for integer dtypes."""
    if target.kind in "iu":
        return (np.int64(start) + np.int64(step) * np.arange(n, dtype=np.int64)).astype(target)
    acc32 = target == np.float16
    fma = (lambda a, b, c: _random._fma32(a, b, c).astype(np.float64)) if acc32 else _random._fma64
    start, step = (float(np.float32(start)), float(np.float32(step))) if acc32 else (float(start), float(step))
    width = _SIMD_WIDTH[target]
    out = np.empty(n, target)
    for lo, hi in _chunks(n):
        i = np.arange(lo, hi, dtype=np.float64)
        vector_end = lo + (hi - lo) // (2 * width) * (2 * width)
        plain = fma(i, step, start).astype(target)
        if vector_end > lo:
            k = (i[:vector_end - lo] - lo) % width
            base = fma(i[:vector_end - lo] - k, step, start).astype(target).astype(np.float64)
            plain[:vector_end - lo] = fma(k, step, base).astype(target)
        out[lo:hi] = plain
    return out


def arange(start=0, end=_NO_END, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    if start is None or end is None or step is None:     # refused: the wrapper raises PyTorch's TypeError
        raise TypeError("arange(): None is not a Number")
    end = None if end is _NO_END else end
    args = [start] + [end] * (end is not None) + [step] * (step != 1)
    np_dtype = _options("arange", dtype, device, args, requires_grad=requires_grad)
    names = ("end",) if end is None else ("start", "end", "step")
    values = [_range_number(v, n, i + 1, "arange", args) for i, (v, n) in enumerate(zip(args, names))]
    if end is None:
        values = [0] + values
    if len(values) == 2:
        values.append(1)
    start, end, step = values
    if np_dtype is None:
        np_dtype = (np.dtype(np.int64) if all(isinstance(v, numbers.Integral) for v in values) else
                    _dtype.default_np())
    if np_dtype.kind not in "iuf" or np_dtype in _dtype._SHELL:
        raise _not_implemented("arange_cpu", np_dtype)
    if any(isinstance(v, complex) for v in (start, end, step)):     # (a complex bound is read as a double)
        if any(isinstance(v, complex) and v.imag for v in (start, end, step)):
            raise RuntimeError("value cannot be converted to type double without overflow")
        start, end, step = (v.real if isinstance(v, complex) else v for v in (start, end, step))
    d_start, d_end, d_step = float(start), float(end), float(step)
    if not (d_step > 0 or d_step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(d_start) and math.isfinite(d_end)):
        raise RuntimeError(f"unsupported range: {d_start:g} -> {d_end:g}")
    if not (d_step > 0 and d_end >= d_start or d_step < 0 and d_end <= d_start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if np_dtype.kind in "iu":              # integer dtypes compute with the bounds truncated to int64 (an int
        start, end, step = (int(v) if isinstance(v, numbers.Integral) else int(float(v))    # exactly: 2**60 + 3)
                            for v in (start, end, step))
    if np_dtype == np.int64:              # exact size in integers
        if step == 0:
            raise ValueError("step must be nonzero")
        span = (end - start + step - (1 if step > 0 else -1) + 2 ** 63) % 2 ** 64 - 2 ** 63   # (C int64 wraps)
        size = abs(span) // abs(step) * (1 if (span >= 0) == (step > 0) else -1)
    else:
        size = math.ceil((d_end - d_start) / d_step)
    if not 0 <= size <= 2 ** 63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    try:
        values = _arange_values(start, step, size, np_dtype)
    except MemoryError:                  # (PyTorch's allocator's words, not numpy's)
        raise RuntimeError("[enforce fail at alloc_cpu.cpp:127] err == 0. DefaultCPUAllocator: can't allocate memory: "
                           f"you tried to allocate {size * np_dtype.itemsize} bytes. Error code 12 (Cannot allocate "
                           "memory)") from None
    return _finish(values, requires_grad)


def _linspace_arguments(function, start, end, steps, dtype, device, requires_grad):
    np_dtype = _options(function, dtype, device, (start, end, steps), requires_grad=requires_grad)
    for name, value in (("start", start), ("end", end)):
        if isinstance(value, Tensor) and value._data.ndim != 0:
            raise RuntimeError(f"{function} only supports 0-dimensional start and end tensors, but got {name} with "
                               f"{value._data.ndim} dimension(s).")
    if steps is None:
        raise _combination_error(function, (start, end), {})
    if not isinstance(steps, numbers.Integral) or isinstance(steps, (bool, np.bool_)):
        raise _combination_error(function, (start, end, steps), {})
    start, end = (_range_number(v, n, i + 1, function, (start, end, steps))
                  for i, (n, v) in enumerate((("start", start), ("end", end))))
    if steps < 0:
        raise RuntimeError("number of steps must be non-negative")
    if (isinstance(start, complex) or isinstance(end, complex)) and np_dtype is not None and np_dtype.kind != "c":
        inferred = "c10::complex<double>" if _dtype.default_complex_np() == np.complex128 else "c10::complex<float>"
        raise RuntimeError(f"torch.{function}(): inferred dtype {inferred} can't be safely cast to passed dtype "
                           f"{_dtype.from_numpy_dtype(np_dtype)._legacy[:-len('Tensor')]}")
    if np_dtype is None:
        np_dtype = (_dtype.default_complex_np() if isinstance(start, complex) or isinstance(end, complex) else
                    _dtype.default_np())
    return start, end, int(steps), np_dtype


_C_INT_NAMES = {"int8": "int8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t", "uint8": "uint8_t"}


def _integer_bound(value, target):
    """A bound of linspace converted to an integer dtype as PyTorch's Scalar.to<T>() does: a float is
    truncated, a negative int wraps into an unsigned dtype (down to -max), anything else out of
    range is an overflow error."""
    info = np.iinfo(target)
    if isinstance(value, float):
        ok = value == value and info.min <= value <= info.max
        value = int(value) if ok else None
    else:
        value = int(value)
        ok = info.min <= value <= info.max or (target.kind == "u" and -info.max <= value < 0)
    if not ok:
        raise RuntimeError(f"value cannot be converted to type {_C_INT_NAMES.get(target.name, target.name)} "
                           "without overflow")
    return value % (info.max + 1) if value < 0 and target.kind == "u" else value


def linspace(start, end, steps=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    start, end, steps, target = _linspace_arguments("linspace", start, end, steps, dtype, device, requires_grad)
    if target.kind == "b" and steps <= 1:      # (PyTorch fills one step with start, dispatching no kernel)
        return _finish(np.full(steps, bool(start), dtype=target), requires_grad)
    if target.kind == "b" or target in _dtype._SHELL:
        raise _not_implemented("linspace_cpu", target)
    if target.kind in "iu" and steps:          # the bounds in the integer dtype first (-1 is 255 in uint8)
        start = _integer_bound(start, target)
        end = _integer_bound(end, target) if steps > 1 else end      # (one step: a fill with start)
    if steps <= 1:
        return _finish(np.full(steps, start if steps else 0, dtype=target), requires_grad)
    i = np.arange(steps, dtype=np.float64)
    back = steps - 1 - i                       # the second half counts back from end
    first = i < steps // 2
    if target.kind in "iu":                    # integer bounds, step in double
        s, e = float(start), float(end)
        step = (e - s) / (steps - 1)
        data = np.where(first, _random._fma64(i, step, s), _random._fma64(back, -step, e))
    elif target == np.float64:
        s, e = float(start), float(end)
        step = (e - s) / (steps - 1)
        data = np.where(first, _random._fma64(i, step, s), _random._fma64(back, -step, e))
    elif target == np.float32:
        s, e = np.float32(start), np.float32(end)
        step = (e - s) / np.float32(steps - 1)
        data = np.where(first, _random._fma32(i, step, s), _random._fma32(back, -step, e))
    else:                                      # float16 and complex: every operation rounds to the dtype
        if target == np.float16:               # (a double becomes a half through float)
            s, e = np.float16(np.float32(start)), np.float16(np.float32(end))
        else:
            s, e = target.type(start), target.type(end)
        step = (e - s) / target.type(steps - 1)
        data = np.where(first, s + step * i.astype(target), e - step * back.astype(target))
    if target.kind == "f" and not (math.isfinite(start) and math.isfinite(end)):
        # a NaN bound propagates (positive); inf - inf makes the processor's default NaN (negative)
        nan = math.nan if math.isnan(start) or math.isnan(end) else -math.nan
        data = np.where(np.isnan(data), nan, data)
    return _finish(data.astype(target), requires_grad)


def _pow(base, x):
    try:
        return math.pow(base, x) if not isinstance(x, complex) else complex(base) ** x
    except OverflowError:
        return math.inf
    except ValueError:
        return math.nan


def logspace(start, end, steps=None, base=10.0, *, out=None, dtype=None, layout=None, device=None,
             requires_grad=False):
    start, end, steps, target = _linspace_arguments("logspace", start, end, steps, dtype, device, requires_grad)
    if target.kind == "b" and steps <= 1:      # (one step is a fill, with no kernel: base ** start)
        return _finish(np.full(steps, bool(math.pow(base, start)), dtype=target), requires_grad)
    if target.kind == "b" or target in _dtype._SHELL:
        raise _not_implemented("logspace_cpu", target)
    if steps <= 1:
        return _finish(np.full(steps, _pow(base, start), dtype=target), requires_grad)
    i = np.arange(steps, dtype=np.float64)
    back = steps - 1 - i
    if target.kind in "iu":                    # integer dtypes raise a float32 base
        s, e, base = int(start), int(end), float(np.float32(base))
    elif target.kind == "f":
        s, e = target.type(start), target.type(end)
    else:
        s, e = complex(start), complex(end)
    step = complex(e - s) / (steps - 1) if target.kind == "c" else float(e - s) / (steps - 1)
    if target.kind == "c":
        exponent = np.where(i < steps // 2, s + step * i, e - step * back)
    else:        # (RangeFactories.cpp is compiled without fused multiply-adds)
        exponent = np.where(i < steps // 2, float(s) + step * i, float(e) - step * back)
    # (std::pow, which math.pow calls too; numpy's power rounds differently)
    data = np.array([_pow(base, x) for x in exponent.tolist()], dtype=exponent.dtype)
    return _finish(data.astype(target), requires_grad)
