"""Helpers that several of Tensor's method files use: operand and argument checks, PyTorch's warn-once
set, and `gradlab.matmul`, `maximum` and `minimum`."""
import warnings

import numpy as np

from .. import _device, _dtype
from .._size import Size
from .._tensor_core import Tensor, _wrap_dim
from ..ops import OPS, registry as _registry
from ..ops.operands import _binary, _check_int_scalar, _described, _type_name, broadcast_error


class _NoRounding:
    """x.div(y)'s default, shown as None: an explicit rounding_mode=None is PyTorch's other overload."""
    def __repr__(self):
        return "None"


_NO_ROUNDING = _NoRounding()


def _argument_type_name(x):
    """A type as PyTorch's argument parser names it (torch.dtype, torch.device, int, Tensor)."""
    if isinstance(x, _dtype.dtype):
        return "torch.dtype"
    if isinstance(x, _device.device):
        return "torch.device"
    if isinstance(x, _dtype.memory_format):
        return "torch.memory_format"
    if isinstance(x, Size):
        return "torch.Size"
    return "Tensor" if isinstance(x, Tensor) else _type_name(x)


def _data_of(x):
    return x._data if isinstance(x, Tensor) else np.asarray(x)


_WARNED = set()
_WARN_ALWAYS = [False]


def set_warn_always(b):
    """torch.set_warn_always: warnings PyTorch gives once per process show every time."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


def _warn_once(message):
    """PyTorch's TORCH_WARN_ONCE: a deprecation warning shows once per process (unless
    set_warn_always(True))."""
    if message not in _WARNED or _WARN_ALWAYS[0]:
        _WARNED.add(message)
        warnings.warn(message, UserWarning, stacklevel=3)


def _check_tensor_argument(name, other, arg="other", position=1):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(other)}")


def _clamp_bounds(t, low, high):
    """clamp's tensor bounds, a missing one standing in as the most extreme value of the result's
    dtype (so that it changes nothing, not even the result dtype)."""
    given = low if low is not None else high
    like = _dtype.result_np_dtype([(t._data.ndim, t._data.dtype), (given._data.ndim, given._data.dtype)], [])
    if like == np.bool_:
        lo, hi = False, True
    elif like.kind in "iu":
        lo, hi = np.iinfo(like).min, np.iinfo(like).max
    else:
        lo, hi = -np.inf, np.inf
    return (low if low is not None else Tensor._make(np.asarray(lo, like)),
            high if high is not None else Tensor._make(np.asarray(hi, like)))


def _dims(dim, ndim):
    """Dims to reduce over, wrapped. A 0-d tensor takes dim 0 or -1, as PyTorch allows, and has
    nothing to reduce: sum(0) of a 0-d tensor is the tensor's value."""
    if isinstance(dim, (list, tuple)):
        dims = tuple(sorted(_wrap_dim(d, ndim) for d in dim))
        for a, b in zip(dims, dims[1:]):
            if a == b:
                raise RuntimeError(f"dim {a} appears multiple times in the list of dims")
    else:
        dims = (_wrap_dim(dim, ndim),)
    return dims if ndim else ()


_OPERANDS = (Tensor, bool, int, float, complex, np.generic)   # what PyTorch's operators compute with


_TENSOR_ONLY = ("matmul", "maximum", "minimum")


_ARGUMENT_ERROR = ("add", "sub", "mul", "div") + _TENSOR_ONLY     # the rest report "invalid combination"


def _check_operand(name, other, arg="other"):
    """`t.mul([1, 2])`: a named operation refuses what its operator refuses, with PyTorch's TypeError."""
    if isinstance(other, Tensor) or (name not in _TENSOR_ONLY and isinstance(other, _OPERANDS)):
        return
    if name in _ARGUMENT_ERROR:
        raise TypeError(f"{name}(): argument '{arg}' (position 1) must be Tensor, not {_type_name(other)}")
    why = f"      didn't match because some of the arguments have invalid types: (!{_described(other)}!)"
    if name == "subtract":
        lines = [" * (Tensor other, *, Number alpha = 1)", " * (Number other, Number alpha = 1)"]
    elif name == "divide":
        lines = [" * (Tensor other)", why, " * (Tensor other, *, str rounding_mode)", " * (Number other)", why,
                 " * (Number other, *, str rounding_mode)"]
    else:
        lines = [f" * (Tensor {arg})", why, f" * (Number {arg})", why]
    raise TypeError(f"{name}() received an invalid combination of arguments - got ({_type_name(other)}), but "
                    "expected one of:\n" + "\n".join(lines) + "\n")


_C_TYPES = {"int8": "int8_t", "uint8": "uint8_t", "int16": "int16_t", "int32": "int", "int64": "int64_t",
            "float16": "c10::Half"}


def _check_exponent(exponent, dtype):
    """`int8_tensor ** 300`: PyTorch converts the exponent to the tensor's type and refuses to overflow."""
    _check_int_scalar(exponent)
    if exponent.__class__ is int and dtype.kind in "iu":
        if exponent >= 2**63:                      # a Python int is first read as an int64
            dtype = np.dtype(np.int64)
        elif np.iinfo(dtype).min <= exponent <= np.iinfo(dtype).max:
            return
    elif exponent.__class__ in (int, float) and dtype == np.float16:
        if not abs(exponent) > 65504 or np.isinf(exponent):     # (inf and nan convert)
            return
    else:
        return
    raise RuntimeError(f"value cannot be converted to type {_C_TYPES[dtype.name]} without overflow")


def _wrapped(scalar, a):
    """A Python int as a number of `a`'s integer dtype, wrapped around as PyTorch does with integer
    scalars (uint8 - 3 computes uint8 + 253), where numpy 2 raises OverflowError."""
    if scalar.__class__ is int and a._data.dtype.kind in "iu":
        return np.asarray(scalar).astype(a._data.dtype)[()]
    return scalar


def _check_sub(a, b):
    """PyTorch refuses to subtract booleans: a Python bool counts as a bool tensor, np.bool_ as a float."""
    _check_int_scalar(b)
    a_bool = a._data.dtype.kind == "b"
    b_bool = b.__class__ is bool or (isinstance(b, Tensor) and b._data.dtype.kind == "b")
    if a_bool and b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                           "Use the `^` or `logical_xor()` operator instead.")
    if a_bool or b_bool:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. "
                           "If you are trying to invert a mask, use the `~` or `logical_not()` operator instead.")


def _lifted(a, scalar):
    """`2.5 - int_tensor`: a scalar of a higher kind (float over int) makes the op compute in the
    default dtype of that kind, as PyTorch's scalar promotion does."""
    cat = 0 if isinstance(scalar, bool) else 1 if isinstance(scalar, int) else 2 if isinstance(scalar, float) else 3
    if cat > _dtype.category(a._data.dtype):
        lifted = a._data.astype(_dtype._DEFAULT_FOR_CATEGORY[cat])
        if lifted.ndim and not lifted.flags.c_contiguous:     # (numpy's cast forgets an expanded layout)
            lifted = _registry.torch_layout(None, lifted, (a._data,))
        return Tensor._make(lifted)
    return a


def _check_fill_value(value):
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")


def _c_type(t):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "float16": "c10::Half",
            "bool": "bool", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}.get(t._data.dtype.name,
                                                                                        t._data.dtype.name)


def matmul(a, b):
    """PyTorch's matmul dispatch, so that the grad_fn names match (see torch-parity.md section 2.2)."""
    _check_tensor_argument("matmul", a, "input")
    _check_tensor_argument("matmul", b, "other", position=2)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return a.dot(b)
    if da == 2 and db == 1:
        return a.mv(b)
    if da == 1 and db == 2:
        if a._data.shape[0] != b._data.shape[0]:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{a._data.shape[0]} and "
                               f"{b._data.shape[0]}x{b._data.shape[1]})")
        return OPS["squeeze_matmul"](a.unsqueeze(0).mm(b), dim=0, self_sizes=(1, b._data.shape[1]))
    if da == 2 and db == 2:
        return a.mm(b)
    if (da == 3 and db == 3 and (a._data.shape[0] == 1) != (b._data.shape[0] == 1)
            and (a._data.shape[0] == 1 or a._data.shape[2] == b._data.shape[1])):   # (else bmm's error, as PyTorch)
        # a batch of one against a real batch: PyTorch squeezes it to a matrix, then folds
        return matmul(a.squeeze(0), b) if a._data.shape[0] == 1 else matmul(a, b.squeeze(0))
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    # general batched case: broadcast the batch dims, then one bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    try:
        batch = np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2])
    except ValueError:
        raise broadcast_error(a2._data.shape[:-2], b2._data.shape[:-2]) from None
    n, k = a2._data.shape[-2:]
    k2, m = b2._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{int(np.prod(batch))}, {k}] "
                           f"but got: [{int(np.prod(batch))}, {k2}].")
    a3 = a2.expand(batch + (n, k)).reshape(-1, n, k)
    b3 = b2.expand(batch + (k, m)).reshape(-1, k, m)
    out = a3.bmm(b3)
    shape = batch + ((n,) if da > 1 else ()) + ((m,) if db > 1 else ())
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


def _should_fold(a, b):
    """PyTorch folds the batch dims of the larger operand into matrix rows (one mm or mv instead of
    bmm) when the other operand is a vector or matrix; the grad_fn chain shows which it chose."""
    big, small = (a, b) if a._data.ndim >= b._data.ndim else (b, a)
    if not (big._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    try:
        np.reshape(big._data, (-1, big._data.shape[-1]), copy=False)
        return True
    except ValueError:
        return False


def _folded_matmul(a, b):
    transpose = b._data.ndim > a._data.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a._data.ndim == 2 else a) if transpose else b
    k = t1._data.shape[-1]
    if k != t2._data.shape[0]:
        rows = int(np.prod(t1._data.shape[:-1]))
        if t2._data.ndim == 2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and "
                               f"{t2._data.shape[0]}x{t2._data.shape[1]})")
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({t2._data.shape[0]})")
    shape = t1._data.shape[:-1]
    folded = t1.reshape(-1, k)
    if t2._data.ndim == 2:
        out = folded.mm(t2)
        out = OPS["unsafe_view"](out, shape=shape + (t2._data.shape[1],), self_sizes=out._data.shape)
        return out.mT.contiguous() if transpose else out
    out = folded.mv(t2)
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


def maximum(a, b):
    _check_tensor_argument("maximum", a, "input")
    _check_tensor_argument("maximum", b, "other", position=2)
    return _binary("maximum", a, b)


def minimum(a, b):
    _check_tensor_argument("minimum", a, "input")
    _check_tensor_argument("minimum", b, "other", position=2)
    return _binary("minimum", a, b)
