"""Python data as a tensor's array (the storage a `Tensor` holds): PyTorch's dtype inference over
numbers, nested lists and numpy arrays, and its checks of each element.

It sits in the tensor core, below the ops, because more than the factories read data: `x + [1, 2]`
makes its operand a tensor as `torch.tensor([1, 2])` does (ops/operands.py), and `torch.tensor`,
`x.new_tensor`, `torch.FloatTensor([...])` (gradlab/creation/) all start here."""
import numbers
import operator

import numpy as np

from . import _dtype
from ._ctype import tp_name
from ._tensor_core import Tensor
from . import _warnings


def _type_name(x):
    """A type as PyTorch's argument errors name it: `list`, `numpy.ndarray`, `torch.dtype`."""
    return tp_name(type(x))


def _argument_type_name(x):
    """A type as PyTorch's argument parser names it (torch.dtype, torch.device, int, Tensor)."""
    return "Tensor" if isinstance(x, Tensor) else _type_name(x)


# --- torch.tensor(data): PyTorch's three passes over Python data ----------------------------------
# 1. the shape, from the first element at each depth; 2. the dtype, promoting over every element
# (Python floats give the default float32, ints int64; numpy scalars and tensors bring their own);
# 3. each element stored with the checks of that dtype (an int beyond int64, 300 as a uint8, a
# multi-element tensor are errors, never silently wrapped values).

_SEQUENCES = (list, tuple, range, str, bytes, np.ndarray)      # what Python calls a sequence
_MAX_DIMS = 64
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
        return _dtype.default_np()
    if isinstance(x, complex):
        return _dtype.default_complex_np()
    if isinstance(x, Tensor):
        return x._data.dtype
    if isinstance(x, (str, bytes)):
        raise TypeError(f"new(): invalid data type '{type(x).__name__}'")
    if isinstance(x, np.ndarray):
        return _dtype.from_numpy_dtype(x.dtype).np
    if isinstance(x, _SEQUENCES):
        if len(x) == 0:
            return _dtype.default_np()
        result = None
        for item in x:
            d = _scalar_dtype(item)
            result = d if result is None else _dtype._promote_np(result, d)
            if result == np.complex128:
                break
        return result
    raise RuntimeError(f"Could not infer dtype of {tp_name(type(x))}")


def _store(data, sizes, convert):
    """The elements in row-major order, each converted as soon as it is reached and each sequence
    checked against the shape when it is reached: the first problem in reading order is the error.
    A numpy array met inside a sequence gets PyTorch's TORCH_WARN_ONCE when the store reaches it (not
    before: an error in an element before it comes first), and so does each row of it (as in PyTorch)."""
    out = []
    ndim = len(sizes)
    stack = [(data, 0)]
    while stack:
        obj, dim = stack.pop()
        if dim == ndim:
            out.append(convert(obj))
            continue
        is_array = obj.__class__ is np.ndarray
        if dim and is_array:
            _warnings.warn_once(_NUMPY_LIST_WARNING)
        if not isinstance(obj, _SEQUENCES) or is_array and obj.ndim == 0:
            try:                                   # any iterable, a tensor included, will do here
                obj = list(obj)
            except TypeError:
                raise TypeError("not a sequence") from None
        if len(obj) != sizes[dim]:
            raise ValueError(f"expected sequence of length {sizes[dim]} at dim {dim} (got {len(obj)})")
        if dim + 1 == ndim:
            if not is_array and any(v.__class__ is np.ndarray for v in obj):
                for v in obj:              # (arrays as elements: 0-d ones, each warned when reached)
                    if v.__class__ is np.ndarray:
                        _warnings.warn_once(_NUMPY_LIST_WARNING)
                    out.append(convert(v))
            else:
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
    if isinstance(v, np.complexfloating):  # (numpy's float(): the real part, with numpy's ComplexWarning)
        with _warnings.numpy_warnings_at_user_line():
            return float(v)
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
_PLAIN_DTYPE = ((complex, None), (float, None), (int, np.int64), (bool, np.bool_))    # None: the default


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
    if np_dtype is None:
        np_dtype = next((d for t, d in _PLAIN_DTYPE if t in types), _dtype.default_np())
        if np_dtype is None:
            np_dtype = _dtype.default_complex_np() if complex in types else _dtype.default_np()
    target = np.dtype(np_dtype)
    if target.kind == "V":          # complex32 (a complex number under set_default_dtype(torch.float16)): its halves
        return _dtype.c64_to_c32(np.array(data, dtype=np.complex128))
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


def array_from_data(data, np_dtype=None):
    """The array torch.tensor(data, dtype) holds: a copy of a tensor's or a numpy array's values (laid out
    like them; a broadcast one's contiguous), or Python data read with PyTorch's inference and checks."""
    if isinstance(data, Tensor):
        arr = data._data.copy(order="C" if 0 in data._data.strides else "K")
    elif isinstance(data, np.ndarray):
        _check_numpy(data)
        arr = data.copy(order="C" if 0 in data.strides else "K")
    else:
        arr = _from_python(data, np_dtype)
    if np_dtype is not None and arr.dtype != np_dtype:
        arr = _dtype.cast(arr, np_dtype)
    return arr


def as_tensor_data(data):
    """An operand given as data (`x + [1, 2]`, `torch.where(c, [1, 2], 0)`): a tensor as torch.tensor(data)
    makes it."""
    return data if isinstance(data, Tensor) else Tensor._make(array_from_data(data))


_warned_not_writable = [False]           # PyTorch warns once per program


def _check_numpy(array, shared=False):
    """What PyTorch refuses in a numpy array: byte-swapped data, negative strides, other dtypes
    (and, for a tensor sharing its memory, a read-only array: a warning)."""
    if shared and not array.flags.writeable and not _warned_not_writable[0]:
        _warned_not_writable[0] = True
        _warnings.warn("The given NumPy array is not writable, and PyTorch does not support non-writable tensors. This "
                       "means writing to this tensor will result in undefined behavior. You may want to copy the array "
                       "to protect its data or make it writable before converting it to a tensor. This type of warning "
                       "will be suppressed for the rest of this program. (Triggered internally at "
                       "/__w/pytorch/pytorch/torch/csrc/utils/tensor_numpy.cpp:213.)", UserWarning)
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
