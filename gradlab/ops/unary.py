"""Unary math ops: exp, log, sqrt, trigonometric and hyperbolic functions, erf, abs, sign and
rounding (PyTorch's UnaryOps.cpp), computed as PyTorch's CPU kernels round them.

Each block is the forward (numpy) and one gradient formula per input, with PyTorch's node name.
"""
import ctypes
import math

import numpy as np

from ._libm import c_math_library

from .._tensor_core import Tensor, ZeroArray, zero_tensor_of
from . import arithmetic, dual, special_math, vectorized
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
        c_fn = getattr(c_math_library(), name)
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
    # PyTorch's kernel (logit_backward) counts a nan x as inside (its gradient nan); under create_graph its
    # formula is infinitely_differentiable_logit_backward, a where() that counts nan as outside (0 with eps)
    with np.errstate(invalid="ignore"):
        inside = (x >= lo) & (x <= hi) if isinstance(g, Tensor) else ~((x < lo) | (x > hi))
    return dual.where(dual.like(g, inside), g / (n.self * dual.number_minus(1, n.self)),
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
        if ratio.dtype == _F32:     # (the log rounded from float64: PyTorch's bits on 93% of numbers, numpy's on 84%)
            return np.log(ratio.astype(_F64)).astype(_F32)
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
    if self.dtype == np.complex64:
        # PyTorch's hypot (SLEEF's hypotf, glibc's) is correctly rounded: |z| in double, rounded once (numpy's
        # float32 hypot is not: |6-1j| would be 6.0827622, not 6.0827627)
        return np.abs(self.astype(np.complex128)).astype(np.float32)
    if self.dtype == np.complex128:
        # (libm's hypot, as PyTorch's std::abs; numpy's complex abs is its own, a last bit off a third of the time)
        return np.hypot(self.real, self.imag)
    return np.abs(self)


@shows("where(self == 0, 0, (grad - result * result * grad.conj()) / (2 * self.abs())) if self.is_complex() "
       "else zeros_like(grad)")
def _sgn_grad(g, n):
    """PyTorch's sgn_backward: for a complex input (grad - sgn**2 * conj(grad)) / (2 |x|), 0 where x is 0;
    for a real one an efficient ZeroTensor (zeros without storage), so that abs's second derivative
    leaves a ZeroTensor in x.grad."""
    if dual.data(n.self).dtype.kind == "c":
        size = dual.call("abs", n.self)
        # (PyTorch's ((gx - sgn * sgn * gx.conj()) / (2. * abs)).masked_fill_(abs == 0., 0.))
        out = (g - n.result * n.result * dual.conj(g)) / dual.mul_scalar(size, 2.0)
        return dual.zero_where(size == 0, out) if isinstance(out, Tensor) else dual.where(n.self == 0, 0.0, out)
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
    if self.dtype.kind in "cV":
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
    refuse_complex("\"round_vml_cpu\" not implemented for '{dtype}'" if decimals == 0 else
                   "\"round_cpu\" not implemented for '{dtype}'", NotImplementedError, self)
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


@op("trunc", "TruncBackward0", variants=("function", "method", "inplace"), aliases=("fix",), self=_zeros_like_grad)
def trunc(self):
    _no_bool_kernel("trunc_vml_cpu", self)
    refuse_complex("trunc is not supported for complex inputs", NotImplementedError, self)
    return np.trunc(self)


@op("erf", "ErfBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=lambda self: _refuse_complex_kernel("erf_vml_cpu")(self),      # (defined below)
    shows={"self": "2 / sqrt(pi) * exp(-self * self) * grad"},
    self=lambda g, n: dual.mul_scalar(dual.exp(-dual.pow_scalar(n.self, 2)), 2 / math.sqrt(math.pi)) * g)
def erf(self):
    return dual.erf(self)


# --- inverse hyperbolic functions, special functions, angles (PyTorch's other unary math) ------------

def _refuse_complex_kernel(kernel):
    """A `check` refusing complex input as PyTorch's dispatch does: '"<kernel>" not implemented for ...'."""
    def check(self, *rest):
        if isinstance(self, Tensor) and self._data.dtype.kind == "c":
            raise NotImplementedError(f'"{kernel}" not implemented for '
                                      f"'{'ComplexDouble' if self._data.dtype == np.complex128 else 'ComplexFloat'}'")
    return check


def _refuse_complex_angle(name):
    def check(self):
        if isinstance(self, Tensor) and self._data.dtype.kind == "c":
            raise RuntimeError(f"{name} is not supported for complex tensors.")
    return check


def _float32_each(c_name, vectorized=None, libm_double=True):
    """PyTorch's acosh, asinh: the C library's function (std::acosh) on each number, float and double alike;
    atanh: another kernel on whole blocks of 32 float32 numbers (rounded float64 agrees with it), the C
    library's atanhf on the rest, and numpy's float64 atanh (it agrees with PyTorch's double kernel,
    glibc's does not). float16 goes through float32; complex numbers through numpy's function."""
    numpy_fn = {"acoshf": np.arccosh, "asinhf": np.arcsinh, "atanhf": np.arctanh}[c_name]
    scalar = _c_float32(c_name, dual.rounded(numpy_fn))
    float32 = scalar if vectorized is None else _blocks(vectorized, scalar)
    float64 = special_math.libm(c_name[:-1]) if libm_double else None

    def fn(x):
        if x.dtype == _F32:
            return float32(x)
        if x.dtype == _F16:
            return float32(x.astype(_F32)).astype(_F16)
        if x.dtype == _F64 and float64 is not None:
            return float64(x)
        return numpy_fn(x)
    return fn


_acosh = _float32_each("acoshf")
_asinh = _float32_each("asinhf")
_atanh = _float32_each("atanhf", vectorized=dual.rounded(np.arctanh), libm_double=False)


def _one_minus(x):
    """1 - x as PyTorch's C++ writes it in a formula (`1 - self.pow(2)`: a tensor of ones, then sub_):
    SubBackward0 in a graph of the gradient."""
    if isinstance(x, Tensor):
        return Tensor._make(np.ones(x._data.shape, x._data.dtype)) - x
    return 1 - x


# x * c for a Python number c as a formula in PyTorch's C++ writes it (mul.Scalar: MulBackward1 in a graph of
# the gradient; the row is ops/arithmetic.py's mul_scalar), in x's dtype (float16 through float32)
_times_number = dual.mul_scalar


def _acosh_grad(g, x):
    """derivatives.yaml's acosh: grad * (self * self - 1).rsqrt() for a real x (sub.Scalar: SubBackward1), and
    for a complex x, where sqrt(x * y) is not sqrt(x) * sqrt(y), grad * ((self + 1).rsqrt() * (self - 1).rsqrt()).conj()."""
    if dual.data(x).dtype.kind == "c":
        return g * dual.conj(dual.rsqrt(dual.add_scalar(x, 1)) * dual.rsqrt(dual.sub_scalar(x, 1)))
    return g * dual.rsqrt(dual.sub_scalar(x * x, 1))


@op("acosh", "AcoshBackward0", variants=("function", "method", "inplace"), aliases=("arccosh",), saves=("self",),
    float_result=True,
    shows={"self": "grad * (self * self - 1).rsqrt()"},
    self=lambda g, n: _acosh_grad(g, n.self))
def acosh(self):
    with np.errstate(invalid="ignore"):
        return _acosh(self)


@op("asinh", "AsinhBackward0", variants=("function", "method", "inplace"), aliases=("arcsinh",), saves=("self",),
    float_result=True,
    shows={"self": "grad * (self.pow(2) + 1).rsqrt().conj()"},
    self=lambda g, n: g * dual.conj(dual.rsqrt(dual.add_scalar(n.self ** 2, 1))))
def asinh(self):
    return _asinh(self)


@op("atanh", "AtanhBackward0", variants=("function", "method", "inplace"), aliases=("arctanh",), saves=("self",),
    float_result=True,
    shows={"self": "grad / (1 - self.pow(2)).conj()"},
    self=lambda g, n: g / dual.conj(_one_minus(n.self ** 2)))
def atanh(self):
    with np.errstate(invalid="ignore", divide="ignore"):
        return _atanh(self)


@op("erfc", "ErfcBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_refuse_complex_kernel("erfc_vml_cpu"),
    shows={"self": "-2 / sqrt(pi) * exp(-self.pow(2)) * grad"},
    self=lambda g, n: _times_number(dual.exp(-(n.self ** 2)), -2 / math.sqrt(math.pi)) * g)
def erfc(self):
    return special_math.erfc(self)


@op("erfinv", "ErfinvBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_refuse_complex_kernel("erfinv_vml_cpu"),
    shows={"self": "0.5 * sqrt(pi) * exp(self.erfinv().pow(2)) * grad"},
    self=lambda g, n: _times_number(dual.exp(dual.call("erfinv", n.self) ** 2), 0.5 * math.sqrt(math.pi)) * g)
def erfinv(self):
    return special_math.erfinv(self)


@op("lgamma", "LgammaBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_refuse_complex_kernel("lgamma_vml_cpu"),
    shows={"self": "grad * digamma(self)"},
    self=lambda g, n: g * dual.call("digamma", n.self))
def lgamma(self):
    return special_math.lgamma(self)


@op("digamma", "DigammaBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_refuse_complex_kernel("digamma"),
    shows={"self": "grad * polygamma(1, self)"},
    self=lambda g, n: g * dual.call("polygamma", n.self, n=1))
def digamma(self):
    return special_math.digamma(self)


def _polygamma_grad(g, n):
    return g * dual.call("polygamma", n.self, n=n.n + 1)


@op("polygamma", "PolygammaBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    shows={"self": "grad * polygamma(n + 1, self)"}, self=_polygamma_grad)
def polygamma(self, n):
    """torch.polygamma(n, input) and x.polygamma(n) (their forms written by hand: n comes first in the
    function, and is checked)."""
    return special_math.polygamma(self, n)


@op("polygamma_inplace", "PolygammaBackward1", saves=("self",), float_result=True,
    shows={"self": "grad * polygamma(n + 1, self)"}, self=_polygamma_grad)
def polygamma_inplace(self, n):
    """x.polygamma_(n): PyTorch's in-place form is a native function of its own (self first), hence
    PolygammaBackward1."""
    return special_math.polygamma(self, n)


def _check_mvlgamma(self, p=None):
    if isinstance(self, Tensor) and self._data.dtype.kind == "b":
        raise RuntimeError("The input tensor may not be a boolean tensor.")


@shows("grad * (self.unsqueeze(-1) + arange(-p / 2 + 0.5, 0.5, 0.5)).digamma().sum(-1)")
def _mvlgamma_grad(g, n):
    """PyTorch's mvlgamma_backward: grad * sum over i < p of digamma(self - i / 2)."""
    steps = np.arange(-n.p / 2 + 0.5, 0.5, 0.5).astype(dual.data(n.self).dtype)
    args = dual.like(g, steps) + dual.unsqueeze(n.self, -1)       # (PyTorch's args.add(self.unsqueeze(-1)))
    return g * dual.sum_dims(dual.call("digamma", args), -1)


@op("mvlgamma", "MvlgammaBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_check_mvlgamma, self=_mvlgamma_grad)
def mvlgamma(self, p):
    """The multivariate log-gamma: sum over i < p of lgamma(x - i / 2), plus p (p - 1) / 4 * log(pi),
    as PyTorch computes it (an arange of p halves added to x, lgamma, a sum over the last dim)."""
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if self.dtype.kind == "c":       # (its first step is an arange in x's dtype)
        raise NotImplementedError('"arange_cpu" not implemented for '
                                  f"'{'ComplexDouble' if self.dtype == np.complex128 else 'ComplexFloat'}'")
    steps = np.arange(-p / 2 + 0.5, 0.5, 0.5).astype(self.dtype)
    terms = special_math.lgamma(self[..., None] + steps)
    total = terms[..., 0].copy()
    for i in range(1, terms.shape[-1]):                  # (the sum of a few numbers: in order)
        total += terms[..., i]
    return (total + self.dtype.type(p * (p - 1) * math.log(math.pi) * 0.25)).astype(self.dtype, copy=False)


@shows("where(self.abs() > finfo(self.dtype).eps, self.i0() - result / self, 0.5) * grad")
def _i1_grad(g, n):
    """PyTorch's i1_backward: I1'(x) = I0(x) - I1(x) / x, 0.5 near 0 (where x is tiny, eps the dtype's)."""
    x = dual.data(n.self)
    eps = np.finfo(x.dtype).eps
    not_tiny = np.abs(x) > eps
    safe = dual.where(dual.like(g, not_tiny), n.self, float(eps))
    gradx = dual.call("i0", safe) - n.result * dual.call("reciprocal", safe)
    return g * dual.where(dual.like(g, not_tiny), gradx, 0.5)


@op("i0", "I0Backward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    check=_refuse_complex_kernel("i0_vml_cpu"),
    shows={"self": "grad * special.i1(self)"},
    self=lambda g, n: g * dual.call("special_i1", n.self))
def i0(self):
    return special_math.i0(self)


@op("special_i1", "SpecialI1Backward0", saves=("self", "result"), float_result=True,
    check=_refuse_complex_kernel("i1_cpu"), self=_i1_grad)
def special_i1(self):
    """The modified Bessel function I1: i0's derivative (torch.special.i1)."""
    return special_math.i1(self)


def _exp2_rounded(x):
    return np.exp2(x.astype(_F64)).astype(_F32)


def _exp2_float(x):
    """2**x. float32: SLEEF's exp2f in ATen's vector loop, the C library's (rounded float64 agrees with it)
    for the numbers left to its scalar loop; float16 through float32; float64 numpy's."""
    if x.dtype == _F32:
        if type(x) is np.ndarray:
            exact = vectorized.elementwise(x, special_math.sleef_exp2f, _exp2_rounded)
            if exact is not None:
                return exact
        return _exp2_rounded(x)
    if x.dtype == _F16:
        return _exp2_rounded(x).astype(_F16)
    return np.exp2(x)


@op("exp2", "Exp2Backward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    shows={"self": "grad * result.conj() * log(2)"},
    self=lambda g, n: _times_number(g * dual.conj(n.result), math.log(2.0)))
def exp2(self):
    with np.errstate(over="ignore"):
        return _exp2_float(self)


@shows("where(self * self * pi == 0, 0, grad * ((pi * self * cos(pi * self) - sin(pi * self)) / (self * self * pi)).conj())")
def _sinc_grad(g, n):
    """PyTorch's sinc_backward: (x cos(x) - sin(x)) / x^2 at x = pi self, times pi; 0 at 0."""
    self_pi = _times_number(n.self, math.pi)
    self_squared_pi = _times_number(n.self * n.self, math.pi)
    out = g * dual.conj((self_pi * dual.cos(self_pi) - dual.sin(self_pi)) / self_squared_pi)
    return dual.where(self_squared_pi == 0.0, 0.0, out)


@op("sinc", "SincBackward0", variants=("function", "method", "inplace"), saves=("self",), float_result=True,
    self=_sinc_grad)
def sinc(self):
    return special_math.sinc(self)


_PI_180 = 0.017453292519943295769236907684886127134428718885417       # (PyTorch's M_PI_180, M_180_PI)
_180_PI = 57.295779513082320876798154814105170332405472466564


def _times(x, c):
    """x * c as PyTorch's mul by a number: c in x's dtype (float16: both in float32, rounded once)."""
    if x.dtype == _F16:
        return (x.astype(_F32) * _F32.type(c)).astype(_F16)
    return x * x.dtype.type(c)


@op("deg2rad", "Deg2RadBackward0", variants=("function", "method", "inplace"), float_result=True,
    check=_refuse_complex_angle("deg2rad"),
    shows={"self": "grad * (pi / 180)"},
    self=lambda g, n: _times_number(g, _PI_180))
def deg2rad(self):
    return _times(self, _PI_180)


@op("rad2deg", "Rad2DegBackward0", variants=("function", "method", "inplace"), float_result=True,
    check=_refuse_complex_angle("rad2deg"),
    shows={"self": "grad * (180 / pi)"},
    self=lambda g, n: _times_number(g, _180_PI))
def rad2deg(self):
    return _times(self, _180_PI)


@op("conj_physical_inplace", "ConjPhysicalBackward1", shows={"self": "grad.conj()"},
    self=lambda g, n: dual.conj(g))
def conj_physical_inplace(self):
    """x.conj_physical_(): PyTorch's in-place entry of its own (ConjPhysicalBackward1), a copy for real x."""
    return np.conjugate(self)


# --- frexp, ldexp, nextafter: a float's exponent bits ----------------------------------------------

@op("frexp", "FrexpBackward0", variants=("function", "method"), saves=(), float_result=True,
    shows={"self": "grad / exp2(exponent)"},
    self=lambda g, n: g / dual.like(g, np.exp2(n.exponent.astype(np.float32))))
def frexp(self, exponent):
    """The mantissa of x = mantissa * 2**exponent (the exponent, computed by the method, is a parameter:
    it has no gradient, and PyTorch saves it)."""
    return np.frexp(self)[0]


@shows("grad * pow(2, other)")
def _ldexp_self_grad(g, n):
    """PyTorch's grad * pow(2, other): for an integer exponent an integer power (0 for a negative one, as
    integers have no fractions), else pow(2.0, other) (PowBackward2 in a graph of the gradient)."""
    if n.exponent_dtype is not None and np.dtype(n.exponent_dtype).kind in "iu":
        powers = arithmetic._int_power(np.int64(2), dual.data(n.other).astype(np.int64))
        return g * dual.like(g, powers.astype(dual.data(g).dtype))
    return g * dual.call("rpow", n.other, base=2.0)


@op("ldexp", "LdexpBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("other",), "other": ("result",)}, float_result=True,
    shows={"other": "grad * result.conj() * log(2)"},
    self=_ldexp_self_grad,
    # (a complex result's gradient for a real exponent is refused by PyTorch's engine: _real_input)
    other=lambda g, n: arithmetic._real_input(_times_number(g * dual.conj(n.result), math.log(2.0)), n, 1))
def ldexp(self, other, exponent_dtype=None):
    """x * 2**other: exact (C's ldexp) for an integer exponent; for a float one 2**other in the exponent's
    own dtype (`exponent_dtype`, given by the method: the row's inputs arrive promoted), then the product;
    for a complex x, exp(other * log(2)) in x's dtype."""
    kind = np.dtype(exponent_dtype).kind if exponent_dtype is not None else "f"
    with np.errstate(over="ignore", invalid="ignore"):
        if self.dtype.kind == "c":
            return self * np.exp(other.astype(self.dtype) * self.dtype.type(math.log(2.0)))
        if kind in "iub":
            return np.ldexp(self, np.clip(other, -2**31, 2**31 - 1).astype(np.int32))
        exponent = other.astype(exponent_dtype or other.dtype)
        # (PyTorch's pow(2.0, exponent): the C library's pow for float64, float32 as rounded float64 gives it)
        factor = special_math.libm_pow(2.0, exponent) if exponent.dtype == _F64 else _exp2_float(exponent)
        return self * factor.astype(self.dtype)


def _nextafter_grad(g, n):
    """PyTorch's: the gradient passes where self differs from other, 0 where they are equal."""
    return dual.where(dual.like(g, dual.data(n.self) == dual.data(n.other)), 0.0, g)


@op("nextafter", "NextafterBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("self", "other")}, float_result=True,
    shows={"self": "where(self == other, 0, grad)", "other": "zeros_like(grad)"},
    self=_nextafter_grad, other=_zeros_like_grad)
def nextafter(self, other):
    """The next float after x towards other; other itself where they are equal (C's rule: nextafter(-0., 0.)
    is +0.)."""
    return np.where(self == other, other, np.nextafter(self, other)).astype(self.dtype, copy=False)
