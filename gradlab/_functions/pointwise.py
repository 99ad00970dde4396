"""gradlab.<fn> functions: pointwise (see gradlab/_functions/__init__.py)."""
import numpy as np

from .. import _dtype

from .._tensor_core import Tensor
from ..creation import tensor
from .._tensor_methods.pointwise import float_power as _float_power, rsub  # noqa: F401
from ._common import method_forms
from .._tensor_methods.binary import _xlogy_scalar_self
from ..ops import OPS
from ..ops.operands import _kind, broadcast_error

_BITWISE = ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift")

# (atan2, hypot, frac, nan_to_num, nansum, aminmax are made from the op table: _functions/variants.py)
__all__ = ["nan_to_num_", "logical_and", "logical_or", "logical_xor", "isclose",
           "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not", "bitwise_left_shift", "bitwise_right_shift",
           # torch.<op>_(x): x.<op>_() (torch.sin_, torch.relu_, ...)
           "abs_", "acos_", "asin_", "atan_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "cos_", "cosh_",
           "detach_", "erf_", "exp_", "expm1_", "fill_", "floor_", "frac_", "log10_", "log1p_", "log2_", "log_",
           "neg_", "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinh_", "sqrt_", "tan_",
           "tanh_", "trunc_", "zero_"]
globals().update(method_forms(*[n for n in __all__ if n not in _BITWISE]))

# reductions asked for with the pointwise ones (issue 17): function forms of Tensor methods
__all__ += ["nanmean", "var_mean", "std_mean", "float_power", "floor_divide", "rsub"]
globals().update(method_forms("nanmean"))

# functions issue 14's dtidx fuzz families called (heaviside has no derivative: NotImplemented, as in PyTorch)
__all__ += ["heaviside"]
globals().update(method_forms("heaviside"))

# PyTorch's other unary math (ops/unary.py): in-place function forms, and the functions of methods that are no
# row (frexp, ldexp, nextafter are made from their rows)
__all__ += ["acosh_", "asinh_", "atanh_", "arccos_", "arcsin_", "arctan_", "arccosh_", "arcsinh_", "arctanh_",
            "clip_", "deg2rad_", "rad2deg_", "erfc_", "exp2_", "fix_", "i0_", "sinc_", "logit_", "negative_", "square_",
            "ldexp_", "is_nonzero", "isneginf", "isposinf", "isreal", "positive", "polygamma", "conj_physical_"]
globals().update(method_forms("acosh_", "asinh_", "atanh_", "arccos_", "arcsin_", "arctan_", "arccosh_", "arcsinh_",
                              "arctanh_", "clip_", "deg2rad_", "rad2deg_", "erfc_", "exp2_", "fix_", "i0_", "sinc_",
                              "logit_", "negative_", "square_", "ldexp_", "is_nonzero", "isneginf", "isposinf",
                              "isreal", "positive", "conj_physical_"))


def polygamma(n, input):
    """torch.polygamma(n, input): input.polygamma(n) (the order first, as in PyTorch)."""
    if not isinstance(input, Tensor):
        input = tensor(input)
    return input.polygamma(n)


def var_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    """torch.var_mean(input, dim, unbiased, keepdim, *, correction): (var, mean), one VarMeanBackward0."""
    return input._var_mean("var_mean", dim, unbiased, keepdim, correction=correction)


def float_power(input, exponent):
    """torch.float_power(input, exponent), or (self=number, exponent=tensor): computed in float64/complex128."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        input = tensor(input)                  # (PyTorch's parser refuses two numbers first)
    return _float_power(input, exponent)


def floor_divide(input, other):
    """torch.floor_divide(input, other); a number input is PyTorch's wrapped number, as in `2 // t`."""
    if not isinstance(input, Tensor) and isinstance(other, Tensor):
        result = other.__rfloordiv__(input)
        if result is not NotImplemented:
            return result
    if not isinstance(input, Tensor):
        input = tensor(input)
    return input.floor_divide(other)


def std_mean(input, dim=None, unbiased=None, keepdim=False, *, correction=None):
    return input._var_mean("std_mean", dim, unbiased, keepdim, correction=correction)


def _bitwise(name):
    """torch.bitwise_and(input, other), and PyTorch's overload with a number on the left given by keyword,
    torch.bitwise_and(self=3, other=t): the number is a 0-d tensor there, as in PyTorch."""
    def function(input=None, other=None, **kwargs):
        if "self" in kwargs:
            input = kwargs.pop("self")
        if not isinstance(input, Tensor):
            input = tensor(input)
        return getattr(Tensor, name)(input, other, **kwargs)
    function.__name__ = function.__qualname__ = name
    return function


for _name in _BITWISE:
    globals()[_name] = _bitwise(_name)
del _name


# binary functions of PyTorch's BinaryOps.cpp and the comparisons' other names (_tensor_methods/binary.py)
# (fmax, fmin, copysign, logaddexp(2), igamma(c) are made from the op table's variants)
__all__ += ["gcd", "gcd_", "lcm", "lcm_", "xlogy", "xlogy_", "greater_equal", "less_equal", "not_equal"]
globals().update(method_forms("gcd", "gcd_", "lcm", "lcm_", "xlogy_", "greater_equal", "less_equal",
                              "not_equal"))


def xlogy(input=None, other=None, **kwargs):
    """torch.xlogy(input, other): either may be a Python number (PyTorch's Scalar_Self overload, XlogyBackward1,
    also given as self=)."""
    if "self" in kwargs:
        input = kwargs.pop("self")
    if not isinstance(input, Tensor):
        if isinstance(other, Tensor):
            return _xlogy_scalar_self(input, other)
        input = tensor(input)
    return input.xlogy(other, **kwargs)


# complex numbers from two real tensors (ops/complex.py)
__all__ += ["complex", "polar"]


def _check_complex_parts(name, a, b, names):
    """torch.complex / torch.polar's checks: tensors, both Half, Float or Double, of one dtype, broadcastable."""
    for i, (t, arg) in enumerate(zip((a, b), names)):
        if not isinstance(t, Tensor):
            raise TypeError(f"{name}(): argument '{arg}' (position {i + 1}) must be Tensor, not {type(t).__name__}")
    kinds = [t._data.dtype for t in (a, b)]
    if any(k.name not in ("float16", "float32", "float64") for k in kinds):
        raise RuntimeError(f"Expected both inputs to be Half, Float or Double tensors but got {_kind(a)} and "
                           f"{_kind(b)}")
    if kinds[0] != kinds[1]:
        raise RuntimeError(f"Expected object of scalar type {_kind(a)} but got scalar type {_kind(b)} for second "
                           "argument")
    if a._data.shape != b._data.shape:
        try:
            np.broadcast_shapes(a._data.shape, b._data.shape)
        except ValueError:
            raise broadcast_error(a._data.shape, b._data.shape) from None
    if kinds[0] == np.float16:
        if name == "polar":
            raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")


def complex(real, imag, *, out=None):
    """torch.complex(real, imag): real + 1j * imag (ComplexBackward0); of half tensors a complex32 tensor."""
    _check_complex_parts("complex", real, imag, ("real", "imag"))
    result = OPS["complex"](real, imag)
    if real._data.dtype == np.float16:     # (computed in complex64: its halves exactly; kept as complex32)
        result._data = _dtype.c64_to_c32(result._data)
    return _out(result, out)


def polar(abs, angle, *, out=None):
    """torch.polar(abs, angle): abs * (cos(angle) + 1j * sin(angle)) (PolarBackward0)."""
    _check_complex_parts("polar", abs, angle, ("abs", "angle"))
    return _out(OPS["polar"](abs, angle), out)


def _out(result, out):
    if out is None:
        return result
    out.copy_(result)
    return out
