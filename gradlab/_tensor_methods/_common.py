"""Helpers that several of Tensor's method files use: operand and argument checks, PyTorch's warn-once
set, and `gradlab.matmul`, `maximum` and `minimum`."""

import numpy as np

from .. import _dtype
from .._warnings import WARN_ALWAYS as _WARN_ALWAYS, WARNED as _WARNED  # noqa: F401  (shared with the ops layer)
from .._warnings import warn_once as _warn_once  # noqa: F401  (the Tensor methods' name for it)
from .._tensor_core import InferenceVersionCounter, GivenDims, Tensor, _wrap_dim
from .._tensor_data import _argument_type_name  # noqa: F401
from ..ops import registry as _registry
from ..ops.linalg import matmul  # noqa: F401  (gradlab.matmul: PyTorch's dispatch, in the ops layer)
from ..ops.operands import _binary, _check_int_scalar, _check_tensor_argument, _described, _type_name, broadcast_error  # noqa: F401
from .. import _warnings


class _NoRounding:
    """x.div(y)'s default, shown as None: an explicit rounding_mode=None is PyTorch's other overload."""
    def __repr__(self):
        return "None"


_NO_ROUNDING = _NoRounding()


def _data_of(x):
    return x._data if isinstance(x, Tensor) else np.asarray(x)




def set_warn_always(b):
    """torch.set_warn_always: warnings PyTorch gives once per process show every time."""
    _WARN_ALWAYS[0] = bool(b)


def is_warn_always_enabled():
    return _WARN_ALWAYS[0]


def _check_complex_clamp(t, low, high):
    """clamp's refusals of complex operands, before its kernel: a complex self has no clamp; tensor bounds
    that make the result complex name the kernel they would have run (maximum for min alone, minimum for
    max alone, clamp for both); a complex number bound of a floating self cannot become its double."""
    given = [b for b in (low, high) if b is not None]
    if t._data.dtype.kind in "cV":
        raise NotImplementedError("clamp is not supported for complex types")
    if any(isinstance(b, Tensor) for b in given):
        kinds = [t._data.dtype] + [b._data.dtype if isinstance(b, Tensor) else np.asarray(b).dtype for b in given]
        common = _dtype.result_np_dtype([(1, k) for k in kinds], [])
        if common.kind == "c":
            kernel = "clamp" if len(given) == 2 else "maximum" if low is not None else "minimum"
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for '
                                      f"'{_dtype.from_numpy_dtype(common)._legacy[:-len('Tensor')]}'")
    elif t._data.dtype.kind == "f" and any(isinstance(b, (complex, np.complexfloating)) for b in given):
        raise RuntimeError("value cannot be converted to type double without overflow")


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
    bounds = []
    for bound, extreme in ((low, lo), (high, hi)):
        if bound is None:
            bound = Tensor._make(np.asarray(extreme, like))
            bound._undefined_operand = True     # (PyTorch's undefined tensor: no operand of its TensorIterator)
        bounds.append(bound)
    return tuple(bounds)


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
    if ndim:
        return dims
    return GivenDims.of((), tuple(int(d) for d in dim) if isinstance(dim, (list, tuple)) else (int(dim),))


def _every_dim(dim, ndim):
    """Every dim, for dim=None or an empty list: reduced over all of them, kept by the node as written."""
    return GivenDims.of(range(ndim), None if dim is None else ())


def _all_dims(dim):
    """Whether a reduction's dim means every dim: None, or an empty list or tuple (PyTorch's make_dim_mask:
    `x.sum([])` and `x.std(dim=())` reduce everything)."""
    return dim is None or (isinstance(dim, (tuple, list)) and not dim)


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
    scalars (uint8 - 3 computes uint8 + 253), where numpy 2 raises OverflowError. A float meets a half
    as a float first (see _dtype.half_scalar)."""
    if scalar.__class__ is int and a._data.dtype.kind in "iu":
        return np.asarray(scalar).astype(a._data.dtype)[()]
    if scalar.__class__ is float and a._data.dtype == np.float16:
        return _dtype.half_scalar(scalar)
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
    if cat == 3 and a._data.dtype.kind == "f" and a.requires_grad:
        # (1j - x, (1 + 1j) ** x: a recorded cast keeps x's graph; PyTorch's node has no ToCopyBackward0
        # before it, but the gradient is the same)
        return a.to(_dtype.from_numpy_dtype(np.dtype(np.complex128 if a._data.dtype == np.float64 else np.complex64)))
    if cat > _dtype.category(a._data.dtype):
        lifted = a._data.astype(_dtype.result_np_dtype([(a._data.ndim, a._data.dtype)], [cat]))  # (float64 * 1j: complex128)
        if lifted.ndim and (not lifted.flags.c_contiguous or _registry.sorts_size_one(lifted, (a._data,), True)):
            lifted = _registry.torch_layout(None, lifted, (a._data,))     # (numpy's cast forgets an expanded
            #                                                             layout, and size-1 dims' strides)
        return Tensor._make(lifted)
    return a


def _check_fill_value(value):
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError("index_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")


def _c_type(t):
    return {"float32": "float", "float64": "double", "int64": "long int", "int32": "int", "float16": "c10::Half",
            "bool": "bool", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
            "void32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}.get(t._data.dtype.name,
                                                                                        t._data.dtype.name)


def maximum(a, b):
    _check_tensor_argument("maximum", a, "input")
    _check_tensor_argument("maximum", b, "other", position=2)
    _registry.OPS["maximum"].check(a, b)        # (complex operands refused before the shapes are checked)
    return _binary("maximum", a, b)


def minimum(a, b):
    _check_tensor_argument("minimum", a, "input")
    _check_tensor_argument("minimum", b, "other", position=2)
    _registry.OPS["minimum"].check(a, b)        # (complex operands refused before the shapes are checked)
    return _binary("minimum", a, b)


def _resized_warning(old, new):
    """PyTorch's warning for an out= tensor of another shape (at::native::resize_output)."""
    _warnings.warn(f"An output with one or more elements was resized since it had shape [{', '.join(map(str, old))}], "
                   f"which does not match the required output shape [{', '.join(map(str, new))}]. This behavior is "
                   "deprecated, and in a future PyTorch release outputs will not be resized unless they have zero "
                   "elements. You can explicitly reuse an out tensor t by resizing it, inplace, to zero elements with "
                   "t.resize_(0). (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Resize.cpp:30.)",
                   UserWarning)


def counted_result(t, result):
    """result of a method of t that PyTorch writes through a counted op (any, all, logical_not, new_zeros, ...), as
    _inference_result gives it: at version 1 when t is an inference tensor, outside inference_mode."""
    if _registry.INFERENCE_RESULTS[0] is not None and not InferenceVersionCounter.inference_mode and t.is_inference():
        result._vc = [1]
    return result


_COMPLEX32_LINALG = {"linalg.inv": "linalg.inv: Low precision dtypes not supported. Got ComplexHalf",
                     "logdet": "logdet: Low precision dtypes not supported. Got ComplexHalf",
                     "linalg.slogdet": "linalg.slogdet: Low precision dtypes not supported. Got ComplexHalf",
                     "linalg.det": '"lu_cpu"', "linalg.qr": '"geqrf_cpu"', "linalg.svd": '"linalg_svd_cpu"',
                     "linalg.matrix_exp": '"bmm"'}


def refuse_complex32_linalg(t, name):
    """complex32 in a linear algebra function: PyTorch's refusal, a low-precision check or a missing kernel."""
    if t._data.dtype.kind == "V":
        text = _COMPLEX32_LINALG.get(name, f'"{name}_cpu"')
        if text.startswith('"'):
            raise NotImplementedError(f"{text} not implemented for 'ComplexHalf'")
        raise RuntimeError(text)
