"""Factory functions: tensor, ones, zeros, full, arange, linspace, eye, rand, randn, ...

Signatures and dtype rules follow PyTorch (torch-parity.md section 4.6-4.7): Python ints give
int64, Python floats float32, bools bool; random factories draw from the same streams as
PyTorch's CPU generator (`gradlab/random.py`).
"""
import math
import numbers
import operator
import os
import warnings

import numpy as np

from . import _device, _dtype
from . import random as _random
from ._size import Size
from .ops import elementwise as _elementwise
from .tensor import _FLOAT_ONLY, Tensor, _argument_type_name, _size_args


def _finish(data, requires_grad):
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind not in "fc":
            raise RuntimeError(_FLOAT_ONLY)
        t._requires_grad = True
    return t


def _np(dtype, default=np.float32):
    return _dtype.to_numpy_dtype(dtype) if dtype is not None else np.dtype(default)


# The signatures PyTorch lists when a factory with several of them gets an argument it refuses
_OUT = "Tensor out = None, "
_GEN = "torch.Generator generator, "
_MEMORY = "torch.memory_format memory_format = None, "
_LINSPACE = [f"{a} start, {b} end, int steps{{}}, *, {_OUT}" for a, b in
             (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number"))]
_SIGNATURES = {
    "rand": ["tuple of ints size, *, " + _GEN + _OUT, "tuple of ints size, *, " + _OUT],
    "eye": ["int n, *, " + _OUT, "int n, int m, *, " + _OUT],
    "arange": ["Number end, *, " + _OUT, "Number start, Number end, *, ",
               "Number start, Number end, Number step = 1, *, " + _OUT],
    "linspace": [s.format("") for s in _LINSPACE],
    "logspace": [s.format(", float base = 10.0") for s in _LINSPACE],
    "rand_like": ["Tensor input, *, " + _GEN + _MEMORY, "Tensor input, *, " + _MEMORY],
    "randint": [f"{low}int high, tuple of ints size, *, {gen}{_OUT}" for low in ("", "int low, ")
                for gen in (_GEN, "")],
    "randint_like": [f"Tensor input, {high}, *, {gen}{_MEMORY}" for high in ("int low, int high", "Tensor high",
                                                                             "int high") for gen in (_GEN, "")],
}
_SIGNATURES["randn"] = _SIGNATURES["rand"]
_SIGNATURES["randn_like"] = _SIGNATURES["rand_like"]
_OPTIONS = "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = " \
           "False, bool requires_grad = False)"


_NO_PINNED_MEMORY = ("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator is "
                     "available on this system.")


def _options(function, dtype, device, args=(), pin_memory=False, **given):
    """A factory's dtype (as a numpy dtype, or None) after PyTorch's checks of `dtype=` and `device=`.

    A factory with one signature names the wrong argument; one with several lists them all, with
    the types it got (`args` and the keyword arguments `given` that differ from their default)."""
    try:
        np_dtype = _dtype.check_dtype_argument(dtype, function)
        _device.check(device, function)
        if pin_memory:
            raise RuntimeError(_NO_PINNED_MEMORY)
        return np_dtype
    except TypeError:
        if function not in _SIGNATURES:
            raise
    raise _combination_error(function, args, {"dtype": dtype, "device": device, **given})


def _combination_error(function, args, given):
    got = [_argument_type_name(a) for a in args] + [f"{k}={_argument_type_name(v)}" for k, v in
                                                    reversed(given.items()) if v is not None and v is not False]
    return TypeError(f"{function}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:\n" + "".join(f" * ({s}{_OPTIONS}\n" for s in _SIGNATURES[function]))


# --- torch.tensor(data): PyTorch's three passes over Python data ----------------------------------
# 1. the shape, from the first element at each depth; 2. the dtype, promoting over every element
# (Python floats give the default float32, ints int64; numpy scalars and tensors bring their own);
# 3. each element stored with the checks of that dtype (an int beyond int64, 300 as a uint8, a
# multi-element tensor are errors, never silently wrapped values).

_SEQUENCES = (list, tuple, range, str, bytes, np.ndarray)      # what Python calls a sequence
_MAX_DIMS = 64
_warned_numpy_list = [False]            # PyTorch warns once per process about lists of arrays
_NUMPY_LIST_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider converting the list to a "
    "single numpy.ndarray with numpy.array() before converting to a tensor. (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/utils/tensor_new.cpp:252.)")
_INT64 = (-2 ** 63, 2 ** 63 - 1)


def _sizes(data):
    sizes = []
    seq = data
    while isinstance(seq, _SEQUENCES):
        n = len(seq)
        sizes.append(n)
        if len(sizes) > _MAX_DIMS:
            raise ValueError(f"too many dimensions '{type(seq).__name__}'")
        if n == 0:
            break
        seq = seq[0]
    return sizes


def _scalar_dtype(x):
    """PyTorch's dtype inference for one piece of Python data (a numpy dtype)."""
    if isinstance(x, np.generic):
        return _dtype.from_numpy_dtype(x.dtype).np
    if isinstance(x, bool):
        return np.dtype(np.bool_)
    if isinstance(x, int):
        return np.dtype(np.int64)
    if isinstance(x, float):
        return np.dtype(np.float32)
    if isinstance(x, complex):
        return np.dtype(np.complex64)
    if isinstance(x, Tensor):
        return x._data.dtype
    if isinstance(x, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    if isinstance(x, np.ndarray):
        return _dtype.from_numpy_dtype(x.dtype).np
    if isinstance(x, _SEQUENCES):
        if len(x) == 0:
            return np.dtype(np.float32)
        result = None
        for item in x:
            d = _scalar_dtype(item)
            result = d if result is None else _dtype._promote_np(result, d)
            if result == np.complex128:
                break
        return result
    raise RuntimeError(f"Could not infer dtype of {type(x).__name__}")


def _store(data, sizes, convert):
    """The elements in row-major order, each converted as soon as it is reached and each sequence
    checked against the shape when it is reached: the first problem in reading order is the error."""
    out = []
    ndim = len(sizes)
    stack = [(data, 0)]
    while stack:
        obj, dim = stack.pop()
        if dim == ndim:
            out.append(convert(obj))
            continue
        if not isinstance(obj, _SEQUENCES) or obj.__class__ is np.ndarray and obj.ndim == 0:
            try:                                   # any iterable, a tensor included, will do here
                obj = list(obj)
            except TypeError:
                raise TypeError("not a sequence") from None
        if len(obj) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})")
        if not _warned_numpy_list[0] and any(isinstance(v, np.ndarray) for v in obj):
            _warned_numpy_list[0] = True
            warnings.warn(_NUMPY_LIST_WARNING, UserWarning, stacklevel=4)
        if dim + 1 == ndim:
            out.extend(map(convert, obj))
        else:
            stack.extend((v, dim + 1) for v in reversed(obj))
    return out


def _as_float(v, real=True):
    """float(v) as PyTorch reads a Python element for a floating (or complex) dtype."""
    if isinstance(v, Tensor):            # float(v), with its checks and warning (Tensor.__float__)
        v = v._data.reshape(()).item() if v._data.dtype.kind == "c" and v._data.size == 1 else float(v)
    if isinstance(v, (numbers.Real, np.bool_)) or not real and isinstance(v, numbers.Number):
        return v
    if isinstance(v, np.ndarray):        # (PyTorch reads it with numpy's float(): numpy's message)
        if v.ndim:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return _as_float(v[()], real)
    raise TypeError(f"must be real number, not {_argument_type_name(v)}")


def _as_index(v):
    """operator.index(v) as PyTorch reads an element for an integer or bool dtype."""
    if isinstance(v, Tensor):
        if v._data.size != 1 or v._data.dtype.kind not in "biu":
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(v._data.reshape(()).item())
    if isinstance(v, (bool, np.bool_)) and not isinstance(v, bool):
        raise TypeError(f"'{_argument_type_name(v)}' object cannot be interpreted as an integer")
    try:
        return operator.index(v)
    except TypeError:
        if isinstance(v, np.ndarray):      # (numpy's own __index__ refused it: numpy's message, as in PyTorch)
            raise TypeError("only integer scalar arrays can be converted to a scalar index") from None
        raise TypeError(f"'{_argument_type_name(v)}' object cannot be interpreted as an integer") from None


def _overflow(target):
    return RuntimeError(f"value cannot be converted to type {target.name} without overflow")


def _converter(target):
    """The function PyTorch's store_scalar applies to each element for a dtype."""
    if target.kind == "f":
        return _as_float
    if target.kind == "c":
        return lambda v: _as_float(v, real=False)
    if target.kind == "b":
        def to_bool(v):
            if isinstance(v, (float, complex, np.bool_)):
                return v != 0
            return _as_index(v) != 0
        return to_bool
    info = np.iinfo(target)
    if target == np.uint64:                    # read as an unsigned 64-bit integer
        def to_uint64(v):
            if not isinstance(v, int) and not (isinstance(v, Tensor) and v._data.dtype.kind in "biu"):
                raise TypeError("an integer is required")
            i = _as_index(v)
            if i < 0:
                raise OverflowError("can't convert negative int to unsigned")
            if i > info.max:
                raise OverflowError("int too big to convert")
            return i
        return to_uint64

    def to_int(v):
        if isinstance(v, float):               # checked_convert<T>(double): truncation, no wrap
            if v != v or not info.min <= v <= info.max:
                raise _overflow(target)
            return int(v)
        i = _as_index(v)
        if not _INT64[0] <= i <= _INT64[1]:
            raise ValueError("Overflow when unpacking long long")
        # unsigned types take negative values modulo 2**bits (two's complement), down to -max
        if i > info.max or i < info.min and not (info.min == 0 and -i <= info.max):
            raise _overflow(target)
        return i % (info.max + 1) if i < 0 and info.min == 0 else i
    return to_int


_PLAIN = {bool, int, float, complex}
_PLAIN_DTYPE = ((complex, np.complex64), (float, np.float32), (int, np.int64), (bool, np.bool_))


def _plain_types(data):
    """The element types of regular nested lists/tuples of Python numbers, or None (slow path)."""
    if type(data) in _PLAIN:
        return {type(data)}
    if type(data) not in (list, tuple):
        return None
    types = set()
    stack = [data]
    while stack:
        seq = stack.pop()
        found = set(map(type, seq))
        if found & {list, tuple}:
            if not found <= {list, tuple}:
                return None
            stack.extend(seq)
        elif found <= _PLAIN:
            types |= found
        else:
            return None
    return types


def _fast(data, types, np_dtype):
    """numpy's conversion for Python numbers, when it provably gives what PyTorch's element-by-
    element store gives; None when a value needs the slow path (which then raises PyTorch's error)."""
    target = np.dtype(np_dtype if np_dtype is not None else
                      next((d for t, d in _PLAIN_DTYPE if t in types), np.float32))
    if target.kind in "fc":
        if complex in types and target.kind == "f":
            return None
        arr = np.array(data, dtype=np.complex128 if target.kind == "c" else np.float64)
        if target == np.float64:
            return arr
        if target == np.float32 and (not arr.size or np.abs(arr).max() <= 3.4e38):
            return arr.astype(target)
        with np.errstate(over="ignore"):      # (huge values become inf, as in PyTorch, silently)
            return arr.astype(np.float32).astype(target) if target == np.float16 else arr.astype(target)
    if complex in types or target == np.uint64 and float in types:
        return None
    if target.kind == "b":
        return np.array(data, dtype=np.bool_) if float in types else np.asarray(np.array(data, dtype=np.int64) != 0)
    arr = np.array(data, dtype=np.float64 if float in types else np.int64)
    if arr.size:
        info = np.iinfo(target)
        low, high = arr.min(), arr.max()
        if not (info.min <= low and high <= info.max) or (float in types and np.isnan(low)):
            return None                   # (uint8's wrap of -255..-1, overflow errors: the slow path)
    return arr.astype(target)


def _from_python(data, np_dtype):
    """torch.tensor(data) for Python data (numbers, nested lists/tuples, tensors, numpy scalars)."""
    if isinstance(data, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
    types = _plain_types(data)
    if types is not None:
        try:
            arr = _fast(data, types, np_dtype)
        except (ValueError, OverflowError, TypeError):
            arr = None                    # ragged rows, ints beyond int64: the slow path says how
        if arr is not None:
            return arr
    sizes = _sizes(data)
    target = np.dtype(_scalar_dtype(data) if np_dtype is None else np_dtype)
    convert = _converter(target)
    if not sizes:
        values = [convert(data)]
    elif 0 in sizes:                    # nothing to store: the rows are not even checked
        return np.zeros(sizes, target)
    else:
        values = _store(data, sizes, convert)
    if target.kind == "f":
        with np.errstate(over="ignore"):
            data = np.array(values, dtype=np.float64)
            # PyTorch rounds a double to half through float (c10::Half is built from a float)
            data = data.astype(np.float32).astype(target) if target == np.float16 else data.astype(target)
    else:
        data = np.array(values, dtype=np.complex128 if target.kind == "c" else target).astype(target)
    return data.reshape(sizes)


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (a number, nested lists, or a numpy array)."""
    np_dtype = _options("tensor", dtype, device, pin_memory=pin_memory)
    if isinstance(data, Tensor):
        warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                      "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                      UserWarning, stacklevel=2)
        arr = data._data.copy(order="C" if 0 in data._data.strides else "K")
    elif isinstance(data, np.ndarray):
        _check_numpy(data)
        # a copy laid out like the array (PyTorch's preserve_format); a broadcast array's is contiguous
        arr = data.copy(order="C" if 0 in data.strides else "K")
    else:
        arr = _from_python(data, np_dtype)
    if np_dtype is not None and arr.dtype != np_dtype:
        arr = arr.astype(np_dtype)
    return _finish(arr, requires_grad)


def legacy_data(args, device, np_dtype=None):
    """The array of `torch.Tensor(...)` / `torch.FloatTensor(...)`: sizes (uninitialised in PyTorch,
    zeros here), a tensor (aliased), or a sequence of data converted to the type's dtype (float32
    for torch.Tensor, np_dtype None)."""
    typed = np_dtype is not None
    np_dtype = np_dtype if typed else np.dtype(np.float32)
    if device is not None:
        d = _device.as_device(device, "new")
        if d.type != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {d.type} was passed")
    if not args:
        return np.zeros(0, np_dtype)
    if len(args) == 1 and not isinstance(args[0], (numbers.Integral, Size)):
        data = args[0]
        if isinstance(data, Tensor):
            if typed and data._data.dtype != np_dtype:
                options = ("device=cpu, layout=Strided, requires_grad=false (default), pinned_memory=false "
                           "(default), memory_format=(nullopt))")
                raise TypeError(f"expected TensorOptions(dtype={_OPTIONS_NAMES[np_dtype]}, {options} (got "
                                f"TensorOptions(dtype={_OPTIONS_NAMES.get(data._data.dtype)}, {options})")
            return data._data
        if isinstance(data, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        if not isinstance(data, _SEQUENCES):
            raise TypeError(f"new(): data must be a sequence (got {_argument_type_name(data)})")
        if isinstance(data, np.ndarray):
            _check_numpy(data)
            return data.astype(np_dtype)
        return _from_python(data, np_dtype)
    for i, a in enumerate(args[0] if isinstance(args[0], Size) else args):
        if not isinstance(a, numbers.Integral) and not isinstance(a, Tensor):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error \"type "
                            f"must be tuple of ints,but got {_argument_type_name(a)}\"")
    return np.zeros(_shape(args), np_dtype)


# c10's names of the dtypes in a TensorOptions message
_OPTIONS_NAMES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double", np.dtype(np.float16): "c10::Half",
                  np.dtype(np.int64): "long int", np.dtype(np.int32): "int", np.dtype(np.int16): "short int",
                  np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char", np.dtype(np.bool_): "bool"}


class tensortype(type):
    """The metaclass of torch.FloatTensor and friends: `isinstance(x, torch.FloatTensor)` asks for
    x's dtype, and `torch.FloatTensor([1, 2])` makes a float32 tensor (legacy constructors)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj._data.dtype == cls.dtype.np

    def __call__(cls, *args, device=None):
        return Tensor._make(legacy_data(args, device, cls.dtype.np))


def _legacy_types():
    return {d._legacy: tensortype(d._legacy, (), {"dtype": d, "__module__": "gradlab"})
            for d in _dtype.ALL if d.np.kind in "biuf" and d.np not in _dtype._SHELL}


def as_tensor(data, dtype=None, device=None):
    _options("as_tensor", dtype, device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or _np(dtype) == data.dtype):
        _check_numpy(data, shared=True)
        return Tensor._make(data)
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor sharing memory with a numpy array (changes show in both)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_argument_type_name(array)})")
    _check_numpy(array, shared=True)
    return Tensor._make(array)


_warned_not_writable = [False]           # PyTorch warns once per program


def _check_numpy(array, shared=False):
    """What PyTorch refuses in a numpy array: byte-swapped data, negative strides, other dtypes
    (and, for a tensor sharing its memory, a read-only array: a warning)."""
    if shared and not array.flags.writeable and not _warned_not_writable[0]:
        _warned_not_writable[0] = True
        warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                      "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                      "to protect its data or make it writable before converting it to a tensor. This type of warning "
                      "will be suppressed for the rest of this program. (Triggered internally at "
                      "/__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)", UserWarning, stacklevel=3)
    if array.dtype.byteorder not in "=|":
        raise ValueError("given numpy array has byte order different from the native byte order. Conversion "
                         "between byte orders is currently not supported.")
    if any(s < 0 for s in array.strides):
        raise ValueError("At least one stride in the given numpy array is negative, and tensors with negative "
                         "strides are not currently supported. (You can probably work around this by making a copy "
                         "of your array  with array.copy().) ")
    if array.dtype.type is np.ulonglong and np.ulonglong is not np.uint64:   # PyTorch knows numpy.uint64 only,
        raise TypeError("can't convert np.ndarray of type numpy.ulonglong. The only supported types are: "  # not
                        "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "  # its
                        "uint32, uint16, uint8, and bool.")                                                     # twin
    _dtype.from_numpy_dtype(array.dtype)


def _shape(size, factory=None):
    """Sizes as a tuple, with PyTorch's error for a negative one (zeros words it its own way)."""
    if factory and len(size) == 1 and isinstance(size[0], (bool, np.bool_)):
        raise TypeError(f"{factory}(): argument 'size' (position 1) must be tuple of ints, not bool")
    shape = _size_args(size)
    if any(s < 0 for s in shape):
        if factory == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(s for s in shape if s < 0)}: "
                           f"[{', '.join(map(str, shape))}]")
    return shape


def _filled(fill, size, dtype, requires_grad, default=np.float32, factory=None):
    shape = _shape(size, factory)
    d = _np(dtype, default)
    data = np.zeros(shape, d) if fill == 0 else np.ones(shape, d) if fill == 1 else np.full(shape, fill, dtype=d)
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
    return _filled(0, size, dtype, requires_grad, factory="empty")


def full(size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    np_dtype = _options("full", dtype, device, pin_memory=pin_memory)
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"full(): argument 'size' (position 1) must be tuple of ints, not {_argument_type_name(size)}")
    fill_value = _fill_number(fill_value, "full")
    if np_dtype is None:
        np_dtype = np.dtype(np.bool_ if isinstance(fill_value, (bool, np.bool_)) else np.int64
                            if isinstance(fill_value, numbers.Integral) else np.complex64
                            if isinstance(fill_value, complex) else np.float32)
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
    if target.kind in "bc":
        return value
    overflow = RuntimeError(f"value cannot be converted to type {_C_TYPES[target.name]} without overflow")
    if isinstance(value, complex):
        if value.imag != 0:
            raise overflow
        value = value.real
    if target.kind == "f":
        if math.isfinite(value) and abs(value) > np.finfo(target).max:
            raise overflow
        return value
    info = np.iinfo(target)
    if isinstance(value, float):
        if not (math.isfinite(value) and info.min <= value <= info.max):
            raise overflow
        return int(value)
    if value > info.max or value < info.min and not (info.min == 0 and -value <= info.max):
        raise overflow
    return value % (info.max + 1) if value < 0 and info.min == 0 else value


def _like(fill, input, dtype, requires_grad):
    """A new tensor shaped like input, laid out like it (PyTorch's preserve_format) unless it is an
    expanded view, which gets a contiguous result."""
    d = _np(dtype) if dtype is not None else input._data.dtype
    data = input._data
    if 0 in data.strides:
        return _finish(np.full(data.shape, fill, dtype=d), requires_grad)
    if 1 in data.shape and data.size > 1:     # (numpy's layout of size-1 dims is not PyTorch's)
        out = _elementwise.preserved_empty(data, d)
        out[...] = fill
        return _finish(out, requires_grad)
    return _finish(np.full_like(data, fill, dtype=d), requires_grad)


def ones_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("ones_like", dtype, device)
    return _like(1, input, dtype, requires_grad)


def zeros_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("zeros_like", dtype, device)
    return _like(0, input, dtype, requires_grad)


def empty_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("empty_like", dtype, device)
    return _like(0, input, dtype, requires_grad)


def full_like(input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    np_dtype = _options("full_like", dtype, device)
    fill_value = _fill_number(fill_value, "full_like")
    target = np_dtype if np_dtype is not None else input._data.dtype
    return _like(_checked_fill(fill_value, target), input, dtype, requires_grad)


# --- ranges: arange, linspace, logspace, bit for bit as PyTorch's CPU kernels compute them ------------
# The C++ compiler fuses PyTorch's `start + step * i` into one fused multiply-add (one rounding),
# which _fma64/_fma32 reproduce. arange's kernel is vectorized: blocks of 2 SIMD vectors (AVX2
# widths: 4 doubles, 8 floats, 16 halves) start from `base = start + step * i0` and go on with
# `base + k * step`; elements after the last whole block use the plain formula. linspace fills
# the first half from start and the second half back from end.

_SIMD_WIDTH = {np.dtype(np.float64): 4, np.dtype(np.float32): 8, np.dtype(np.float16): 16}
_GRAIN_SIZE = 32768                     # at::internal::GRAIN_SIZE: longer ranges split over threads
_THREADS = max(1, min(os.cpu_count() or 1, 64))


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


def _not_implemented(kernel, np_dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}\'')


def _chunks(n):
    """at::parallel_for's split of range(n) over the threads (one chunk below the grain size)."""
    threads = min(_THREADS, -(-n // _GRAIN_SIZE)) if n else 1
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
        np_dtype = np.dtype(np.int64 if all(isinstance(v, numbers.Integral) for v in values) else np.float32)
    if np_dtype.kind not in "iuf" or np_dtype in _dtype._SHELL:
        raise _not_implemented("arange_cpu", np_dtype)
    d_start, d_end, d_step = float(start), float(end), float(step)
    if not (d_step > 0 or d_step < 0):
        raise RuntimeError("step must be nonzero")
    if not (math.isfinite(d_start) and math.isfinite(d_end)):
        raise RuntimeError(f"unsupported range: {d_start:g} -> {d_end:g}")
    if not (d_step > 0 and d_end >= d_start or d_step < 0 and d_end <= d_start):
        raise RuntimeError("upper bound and lower bound inconsistent with step sign")
    if np_dtype.kind in "iu":              # integer dtypes compute with the bounds truncated to int64
        start, end, step = int(d_start), int(d_end), int(d_step)
    if np_dtype == np.int64:              # exact size in integers
        if step == 0:
            raise ValueError("step must be nonzero")
        span = (end - start + step - (1 if step > 0 else -1) + 2 ** 63) % 2 ** 64 - 2 ** 63   # (C int64 wraps)
        size = abs(span) // abs(step) * (1 if (span >= 0) == (step > 0) else -1)
    else:
        size = math.ceil((d_end - d_start) / d_step)
    if not 0 <= size <= 2 ** 63 - 1:
        raise RuntimeError("invalid size, possible overflow?")
    return _finish(_arange_values(start, step, size, np_dtype), requires_grad)


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
    if np_dtype is None:
        np_dtype = np.dtype(np.complex64 if isinstance(start, complex) or isinstance(end, complex) else np.float32)
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
    if target.kind == "b" or target in _dtype._SHELL:
        raise _not_implemented("logspace_cpu", target)
    if steps <= 1:
        return _finish(np.full(steps, math.pow(base, start), dtype=target), requires_grad)
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


def eye(n, m=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False):
    _options("eye", dtype, device, (n,) if m is None else (n, m), requires_grad=requires_grad)
    if n < 0:
        raise RuntimeError(f"n must be greater or equal to 0, got {n}")
    if m is not None and m < 0:
        raise RuntimeError(f"m must be greater or equal to 0, got {m}")
    return _finish(np.eye(n, n if m is None else m, dtype=_np(dtype)), requires_grad)


# --- random -------------------------------------------------------------------------------------------

def _gen(generator):
    return generator if generator is not None else _random.default_generator


def _uniform(gen, shape, np_dtype):
    """torch.rand's numbers for any floating or complex dtype (see Generator.uniform)."""
    if np_dtype.kind not in "fc":
        raise _not_implemented("check_uniform_bounds", np_dtype)
    return gen.uniform(shape, np_dtype)


def _normal(gen, shape, np_dtype):
    """torch.randn's numbers for any floating or complex dtype (see Generator.normal)."""
    if not math.prod(shape):                   # (no numbers to draw: no kernel, no dtype check)
        return np.empty(shape, np_dtype)
    if np_dtype.kind not in "fc":
        raise _not_implemented("normal_kernel_cpu", np_dtype)
    return gen.normal(shape, np_dtype)


def rand(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
         pin_memory=False):
    """Uniform numbers in [0, 1), the same stream as PyTorch's CPU generator."""
    _options("rand", dtype, device, size, requires_grad=requires_grad)
    return _finish(_uniform(_gen(generator), _shape(size, "rand"), _np(dtype)), requires_grad)


def randn(*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False,
          pin_memory=False):
    """Standard normal numbers, the same stream as PyTorch's CPU generator."""
    _options("randn", dtype, device, size, requires_grad=requires_grad)
    return _finish(_normal(_gen(generator), _shape(size, "randn"), _np(dtype)), requires_grad)


def randint(low=0, high=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
            requires_grad=False):
    args = [a for a in (low, high, size) if a is not None]
    np_dtype = _options("randint", dtype, device, args, requires_grad=requires_grad)
    if size is None:                    # randint(high, size)
        low, high, size = 0, low, high
    if high is None:
        raise TypeError("randint() missing required argument 'high'")
    _check_randint_arguments(args, low, high, size)
    target = np.dtype(np.int64) if np_dtype is None else np_dtype
    _check_random_bounds(low, high, target)
    data = _gen(generator).randint(low, high, _shape((tuple(size),)), np.int64)
    return _finish(data.astype(target), requires_grad)


def _integer(x):
    return isinstance(x, numbers.Integral) and not isinstance(x, (bool, np.bool_))


def _check_randint_arguments(args, low, high, size):
    """randint's argument types, refused in PyTorch's words."""
    if len(args) == 3 and not (_integer(low) and _integer(high) and isinstance(size, (tuple, list, Size))):
        raise _combination_error("randint", args, {})
    if not _integer(high):
        raise TypeError(f"randint(): argument 'high' (position {len(args) - 1}) must be int, not "
                        f"{_argument_type_name(high)}")
    if not isinstance(size, (tuple, list, Size)):
        raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not "
                        f"{_argument_type_name(size)}")
    for i, s in enumerate(size):
        if not _integer(s):
            raise TypeError(f"randint(): argument 'size' (position {len(args)}) must be tuple of ints, but found "
                            f"element of type {_argument_type_name(s)} at pos {i}")
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")


def _check_random_bounds(low, high, target):
    """PyTorch's check that random integers in [low, high) fit the dtype."""
    if target.kind == "c":
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    if target.kind == "f":
        digits = np.finfo(target).nmant + 1
        lowest, highest = -2 ** digits, 2 ** digits
    elif target.kind == "b":
        lowest, highest = 0, 1
    else:
        info = np.iinfo(target)
        lowest, highest = info.min, info.max
    name = _OPTIONS_NAMES.get(target, target.name)
    if target in (np.float32, np.float64):        # float and double only warn
        for what, value, line in (("from", low, 110), ("to - 1", high - 1, 111)):
            if not lowest <= value <= highest:
                warnings.warn(f"{what} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{name} can support discrete uniform distribution only within this range. This "
                              "warning will become an error in version 1.7 release, please fix the code in advance "
                              "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                              f"DistributionTemplates.h:{line}.)", UserWarning, stacklevel=3)
        return
    if low < lowest or low > highest:
        raise RuntimeError(f"from is out of bounds for {name}")
    if high - 1 < lowest or high - 1 > highest:
        raise RuntimeError(f"to - 1 is out of bounds for {name}")


def rand_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("rand_like", dtype, device, (input,), requires_grad=requires_grad)
    return _finish(_uniform(_random.default_generator, input._data.shape, _np(dtype, input._data.dtype)),
                   requires_grad)


def randn_like(input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None):
    _options("randn_like", dtype, device, (input,), requires_grad=requires_grad)
    return _finish(_normal(_random.default_generator, input._data.shape, _np(dtype, input._data.dtype)),
                   requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False,
                 memory_format=None):
    _options("randint_like", dtype, device, [a for a in (input, low, high) if a is not None],
             requires_grad=requires_grad)
    if high is None:
        low, high = 0, low
    target = _np(dtype, input._data.dtype)
    if low >= high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    _check_random_bounds(low, high, target)
    data = _random.default_generator.randint(low, high, input._data.shape, np.int64)
    return _finish(data.astype(target), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None,
           requires_grad=False):
    _options("normal", dtype, device)
    if isinstance(std, Tensor) and std._data.size and (std._data < 0).any():
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if isinstance(std, numbers.Real) and std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    if isinstance(mean, Tensor) or isinstance(std, Tensor):
        m = mean._data if isinstance(mean, Tensor) else mean
        s = std._data if isinstance(std, Tensor) else std
        shape = np.broadcast_shapes(np.shape(m), np.shape(s))
        like = mean if isinstance(mean, Tensor) else std
        z = _gen(generator).normal(shape, like._data.dtype)
        return _finish((z * s + m).astype(like._data.dtype), requires_grad)
    return _finish(_gen(generator).normal(tuple(size), _np(dtype), mean, std), requires_grad)


def manual_seed(seed):
    return _random.manual_seed(int(seed))


def seed():
    return _random.seed()


def initial_seed():
    return _random.initial_seed()


def get_rng_state():
    return Tensor._make(_random.get_rng_state())


def set_rng_state(new_state):
    _random.set_rng_state(_random.state_array(new_state))
