"""Unary math ops: exp, log, sqrt, trigonometric and hyperbolic functions, erf, abs, sign and
rounding (PyTorch's UnaryOps.cpp), computed as PyTorch's CPU kernels round them.

Each block is the forward (numpy) and one gradient formula per input, with PyTorch's node name.
"""
import ctypes
import ctypes.util
import math

import numpy as np

from .._tensor_core import Tensor, ZeroArray, zero_tensor_of
from . import dual, vectorized
from .formula_text import shows
from .registry import op, refuse_complex

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


# --- unary math ---------------------------------------------------------------------------------

def _blocks(vectorized, scalar):
    """PyTorch's CPU kernels run a vectorized loop over whole blocks of 32 numbers and a scalar loop
    over the last n % 32, and for a few ops the two round differently: a tensor of fewer than 32
    numbers is all scalar loop. `vectorized` and `scalar` compute the two on numpy arrays."""
    def fn(x):
        flat = x.reshape(-1)
        start = flat.size - flat.size % 32
        if start == 0:
            return scalar(x)
        out = np.asarray(vectorized(flat))
        if start < flat.size:
            out[start:] = scalar(flat[start:])
        return out.reshape(x.shape)
    return fn


def _c_float32(name, rounded):
    """The C library's float32 function `name` on each number of a float32 array (what PyTorch's
    scalar loop calls for sinh and cosh: not correctly rounded, and numpy has no binding to it);
    `rounded` (float64, rounded) where no C math library is found or for other dtypes."""
    try:
        c_fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
        c_fn.restype, c_fn.argtypes = ctypes.c_float, [ctypes.c_float]
        each = np.frompyfunc(c_fn, 1, 1)
    except (OSError, AttributeError, TypeError):
        return rounded

    def fn(x):
        if x.dtype == _F32:
            return np.asarray(each(x)).astype(_F32)
        if x.dtype == _F16:                 # PyTorch computes float16 math in float32
            return np.asarray(each(x.astype(_F32))).astype(_F16)
        return rounded(x)
    return fn


def _no_bool_kernel(kernel, x):
    """PyTorch has no kernel of these ops for bool tensors."""
    if x.dtype.kind == "b":
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'Bool'")


# numpy's float32 kernels are up to an ulp off, PyTorch's nearly correctly rounded: these compute in
# float64 and round (dual.rounded), which agrees with PyTorch on 91-99.99% of random float32 inputs
# against 55-94% for numpy's float32 (exp 61% -> 99%, tanh 71% -> 99%, log10 55% -> 99.99%)
(_exp, _expm1, _log, _log2, _log10, _log1p, _sin, _cos, _tan, _asin, _acos, _atan, _sinh, _cosh, _tanh) = (
    dual.rounded(f) for f in (np.exp, np.expm1, np.log, np.log2, np.log10, np.log1p, np.sin, np.cos, np.tan,
                              np.arcsin, np.arccos, np.arctan, np.sinh, np.cosh, np.tanh))

# sinh, cosh: the C library in the scalar loop, a kernel that agrees with rounded float64 otherwise
_sinh_blocks = _blocks(_sinh, _c_float32("sinhf", _sinh))
_cosh_blocks = _blocks(_cosh, _c_float32("coshf", _cosh))
# float16 rsqrt: float32 math in the vectorized loop, float16 steps (sqrt, then 1 / it) in the scalar one
_rsqrt_blocks = _blocks(dual.rsqrt, lambda x: 1 / np.sqrt(x))


@op("exp", "ExpBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    self=lambda g, n: g * dual.conj(n.result))
def exp(self):
    if self.dtype is _F32:                  # (_exp's common case, without the call)
        return np.exp(self, dtype=_F64).astype(_F32)
    return _exp(self)


@op("expm1", "Expm1Backward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    self=lambda g, n: g * dual.add_scalar(dual.conj(n.result), 1))
def expm1(self):
    if type(self) is np.ndarray and self.dtype == _F32:     # not MKL's: SLEEF's expm1f on every number
        exact = vectorized.expm1(self)
        if exact is not None:
            return exact
    return _expm1(self)


@op("log", "LogBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g / dual.conj(n.self))
def log(self):
    if self.dtype is _F32:                  # (_log's common case, without the call)
        return np.log(self, dtype=_F64).astype(_F32)
    return _log(self)


@op("log2", "Log2Backward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    shows={"self": "grad / (self.conj() * log(2))"},
    self=lambda g, n: g / dual.mul_scalar(dual.conj(n.self), math.log(2.0)))
def log2(self):
    return _log2(self)


@op("log10", "Log10Backward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    shows={"self": "grad / (self.conj() * log(10))"},
    self=lambda g, n: g / dual.mul_scalar(dual.conj(n.self), 2.3025850929940456))     # (torch's constant: 1 ulp below log(10))
def log10(self):
    return _log10(self)


@op("log1p", "Log1PBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g / dual.conj(dual.add_scalar(n.self, 1)))
def log1p(self):
    if type(self) is np.ndarray and self.dtype == _F32:     # not MKL's: SLEEF's log1pf on every number
        exact = vectorized.log1p(self)
        if exact is not None:
            return exact
    return _log1p(self)


@op("sqrt", "SqrtBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    self=lambda g, n: g / dual.mul_scalar(dual.conj(n.result), 2))
def sqrt(self):
    return np.sqrt(self)


@op("rsqrt", "RsqrtBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    self=lambda g, n: -0.5 * g * dual.conj(n.result ** 3))
def rsqrt(self):
    return _rsqrt_blocks(self)


@shows("where((self >= (eps or 0)) & (self <= 1 - (eps or 0)), grad / (self * (1 - self)), "
       "float('nan') if eps is None else 0.0)")
def _logit_grad(g, n):
    """PyTorch's logit_backward: lo, hi = 0, 1 (outside: nan) or eps, 1 - eps (outside: 0)."""
    lo, hi = (0.0, 1.0) if n.eps is None else (n.eps, 1.0 - n.eps)
    x = dual.data(n.self)
    return dual.where(dual.like(g, (x >= lo) & (x <= hi)), g / (n.self * dual.number_minus(1, n.self)),
                      math.nan if n.eps is None else 0.0)


def _no_complex_logit(self):
    if self._data.dtype.kind == "c":
        raise NotImplementedError('"logit_cpu" not implemented for '
                                  f"'{'ComplexDouble' if self._data.dtype == np.complex128 else 'ComplexFloat'}'")


@op("logit", "LogitBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_no_complex_logit, self=_logit_grad)
def logit(self, eps=None):
    """log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given (in the input's dtype, each step
    rounded: half's log is taken in float)."""
    x = self
    if eps is not None:
        lo = x.dtype.type(eps)
        hi = x.dtype.type(1) - lo
        x = np.where(x < lo, lo, np.where(x > hi, hi, x))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = x / (x.dtype.type(1) - x)
        return np.log(ratio.astype(_F32) if ratio.dtype == _F16 else ratio).astype(self.dtype, copy=False)


@op("sin", "SinBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g * dual.conj(dual.cos(n.self)))
def sin(self):
    if self.dtype is _F32:                  # (_sin's common case, without the call)
        return np.sin(self, dtype=_F64).astype(_F32)
    return _sin(self)


@op("cos", "CosBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g * -dual.conj(dual.sin(n.self)))
def cos(self):
    if self.dtype is _F32:                  # (_cos's common case, without the call)
        return np.cos(self, dtype=_F64).astype(_F32)
    return _cos(self)


@op("tan", "TanBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    self=lambda g, n: g * dual.conj(dual.add_scalar(dual.pow_scalar(n.result, 2), 1)))
def tan(self):
    if self.dtype is _F32:                  # (_tan's common case, without the call)
        return np.tan(self, dtype=_F64).astype(_F32)
    return _tan(self)


@op("asin", "AsinBackward0", variants=("function", "method", "inplace"), aliases=("arcsin",),
    saves=("self",), float_result=True,
    self=lambda g, n: g * dual.conj(dual.rsqrt(dual.add_scalar(-n.self * n.self, 1))))      # (torch's formula, op for op)
def asin(self):
    return _asin(self)


@op("acos", "AcosBackward0", variants=("function", "method", "inplace"), aliases=("arccos",),
    saves=("self",), float_result=True,
    self=lambda g, n: g * -dual.conj(dual.rsqrt(dual.add_scalar(-n.self * n.self, 1))))
def acos(self):
    return _acos(self)


@op("atan", "AtanBackward0", variants=("function", "method", "inplace"), aliases=("arctan",),
    saves=("self",), float_result=True,
    self=lambda g, n: g / dual.conj(dual.add_scalar(n.self * n.self, 1)))
def atan(self):
    return _atan(self)


@op("sinh", "SinhBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g * dual.conj(dual.cosh(n.self)))
def sinh(self):
    return _sinh_blocks(self)


@op("cosh", "CoshBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=lambda g, n: g * dual.conj(dual.sinh(n.self)))
def cosh(self):
    return _cosh_blocks(self)


@op("abs", "AbsBackward0", variants=("function", "method", "inplace"), aliases=("absolute",), saves=("self",),
    cast_result=False,                                      # (a complex number's abs is real)
    shows={"self": "grad * sgn(self)"},
    self=lambda g, n: g * dual.call("sgn", n.self))         # (PyTorch's formula: grad * self.sgn())
def abs(self):
    _no_bool_kernel("abs_cpu", self)
    return np.abs(self)


@shows("where(self == 0, 0, (grad - result * result * grad.conj()) / (2 * self.abs())) if self.is_complex() "
       "else zeros_like(grad)")
def _sgn_grad(g, n):
    """PyTorch's sgn_backward: for a complex input (grad - sgn**2 * conj(grad)) / (2 |x|), 0 where x is 0;
    for a real one an efficient ZeroTensor (zeros without storage), so that abs's second derivative
    leaves a ZeroTensor in x.grad."""
    if dual.data(n.self).dtype.kind == "c":
        size = dual.call("abs", n.self)
        return dual.where(n.self == 0, 0.0, (g - n.result * n.result * dual.conj(g)) / (2 * size))
    zeros = np.zeros_like(dual.data(g))
    return zero_tensor_of(zeros) if isinstance(g, Tensor) else zeros.view(ZeroArray)


@op("sgn", "SgnBackward0", variants=("function", "method", "inplace"), saves=("self", "result"),   # (as PyTorch: spent after a backward)
    self=_sgn_grad)
def sgn(self):
    """x / |x| (0 at 0), for real numbers their sign: the node abs's gradient records."""
    if self.dtype.kind == "c":
        with np.errstate(all="ignore"):
            return np.where(self == 0, 0, self / np.abs(self)).astype(self.dtype)
    return sign.forward(self)


@shows("zeros_like(grad)")
def _zeros_like_grad(g, n):
    """PyTorch's zeros_like(grad) for piecewise-constant ops: not g * 0 (inf * 0 is nan), and untracked."""
    return dual.like(g, np.zeros_like(dual.data(g)))


@op("sign", "SignBackward0", variants=("function", "method", "inplace"),
    self=_zeros_like_grad)
def sign(self):
    if self.dtype.kind == "c":
        raise NotImplementedError("Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                                  "torch.sgn instead.")
    if self.dtype.kind == "b":
        return self.copy()
    return (self > 0).astype(self.dtype) - (self < 0).astype(self.dtype)     # PyTorch's: sign(nan) is 0


@op("round", "RoundBackward0", variants=("function", "method", "inplace"), self=_zeros_like_grad)
def round(self):
    _no_bool_kernel("round_vml_cpu", self)
    refuse_complex("\"round_vml_cpu\" not implemented for '{dtype}'", NotImplementedError, self)
    return np.round(self)


@op("round_decimals", "RoundBackward1", self=_zeros_like_grad)
def round_decimals(self, decimals):
    """x.round(decimals=d): torch's kernel, scaling by 10**|d| in the tensor's dtype (half in float)."""
    if decimals == 0:
        return np.round(self)
    x = self.astype(np.float32) if self.dtype == np.float16 else self
    ten = x.dtype.type(10.0 ** (decimals if decimals > 0 else -decimals))    # (abs is the op, here)
    out = np.rint(x * ten) / ten if decimals > 0 else np.rint(x / ten) * ten
    return out.astype(self.dtype, copy=False)


@op("floor", "FloorBackward0", variants=("function", "method", "inplace"), self=_zeros_like_grad)
def floor(self):
    _no_bool_kernel("floor_vml_cpu", self)
    refuse_complex("floor is not supported for complex inputs", NotImplementedError, self)
    return np.floor(self)


@op("ceil", "CeilBackward0", variants=("function", "method", "inplace"), self=_zeros_like_grad)
def ceil(self):
    _no_bool_kernel("ceil_vml_cpu", self)
    refuse_complex("ceil is not supported for complex inputs", NotImplementedError, self)
    return np.ceil(self)


@op("trunc", "TruncBackward0", variants=("function", "method", "inplace"), self=_zeros_like_grad)
def trunc(self):
    _no_bool_kernel("trunc_vml_cpu", self)
    refuse_complex("trunc is not supported for complex inputs", NotImplementedError, self)
    return np.trunc(self)


@op("erf", "ErfBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    shows={"self": "2 / sqrt(pi) * exp(-self * self) * grad"},
    self=lambda g, n: dual.mul_scalar(dual.exp(-dual.pow_scalar(n.self, 2)), 2 / math.sqrt(math.pi)) * g)
def erf(self):
    return dual.erf(self)
