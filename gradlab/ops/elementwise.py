"""Elementwise ops: arithmetic, powers, and the unary math functions.

Each block is the forward (numpy) and one gradient formula per input (operators and ops/dual.py
functions, so it runs on arrays and on Tensors), with the grad_fn name PyTorch gives the node.
Inputs are named as in PyTorch: `self`, `other`.
"""
import ctypes
import ctypes.util
import functools
import math

import numpy as np

from . import dual
from .registry import op

# --- arithmetic ---------------------------------------------------------------------------------

def _scaled(other, alpha):
    """other * alpha in the forward of add/sub; an int alpha wraps into an integer dtype, as PyTorch's
    integer scalars do (numpy 2 raises OverflowError for uint8 * -1)."""
    if alpha.__class__ is int and np.result_type(other).kind in "iu":
        alpha = np.asarray(alpha).astype(np.result_type(other))
    return np.multiply(other, alpha)


_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _alpha(n):
    """The `alpha` of add/sub/rsub (a parameter only when the caller passed one)."""
    return getattr(n, "alpha", 1)



@op("add", "AddBackward0", ("self", "other"),
    self=lambda g, n: g,
    other=lambda g, n: g if _alpha(n) == 1 else g * _alpha(n))
def add(self, other, alpha=1):
    return np.add(self, other) if alpha == 1 else np.add(self, _scaled(other, alpha))


@op("sub", "SubBackward0", ("self", "other"),
    self=lambda g, n: g,
    other=lambda g, n: -g if _alpha(n) == 1 else g * -_alpha(n))
def sub(self, other, alpha=1):
    return np.subtract(self, other) if alpha == 1 else np.subtract(self, _scaled(other, alpha))


@op("rsub_tensor", "RsubBackward0", ("self", "other"),
    self=lambda g, n: -g if _alpha(n) == 1 else g * -_alpha(n),
    other=lambda g, n: g)
def rsub_tensor(self, other, alpha=1):
    """`other - self` for a Tensor `other` (x.__rsub__(y), torch.rsub(x, y))."""
    return np.subtract(other, self if alpha == 1 else _scaled(self, alpha))


@op("rsub", "RsubBackward1", ("self",),
    self=lambda g, n: -g if _alpha(n) == 1 else g * -_alpha(n))
def rsub(self, other, alpha=1):
    """`other - self` for a Python scalar `other` (what `2 - x` calls)."""
    return np.subtract(other, self if alpha == 1 else _scaled(self, alpha))


@op("mul", "MulBackward0", ("self", "other"), saves={"self": ("other",), "other": ("self",)},
    self=lambda g, n: g * n.other,
    other=lambda g, n: g * n.self)
def mul(self, other):
    if (other.__class__ is float or other.__class__ is int) and self.dtype == _F16:
        return _in_float32(np.multiply, self, other)
    return np.multiply(self, other)


def _in_float32(ufunc, x, number):
    """float16 times (or over) a Python number, as PyTorch computes it: in float32, with the number in
    float32 (numpy would round the number to float16 first: 0.1, 2049)."""
    return ufunc(x.astype(_F32), np.float32(number)).astype(_F16)


@op("div", "DivBackward0", ("self", "other"), saves={"self": ("other",), "other": ("self", "other")}, float_result=True,
    self=lambda g, n: g / n.other,
    other=lambda g, n: -g * (n.self / n.other / n.other))     # (torch's div_tensor_other_backward: its rounding)
def div(self, other):
    if (other.__class__ is float or other.__class__ is int) and self.dtype == _F16:
        return _in_float32(np.true_divide, self, other)
    return np.true_divide(self, other)


@op("div_rounding", "DivBackward2", ("self", "other"), saves={"self": ("other",), "other": ("self", "other")},
    # (saves: what PyTorch's DivBackward2 keeps, so it is spent after a backward)
    self=lambda g, n: g / n.other if n.rounding_mode is None else g * 0,
    other=lambda g, n: -g * n.self / (n.other * n.other) if n.rounding_mode is None else g * 0)
def div_rounding(self, other, rounding_mode):
    """x.div(y, rounding_mode="trunc" or "floor"): piecewise constant, so its gradients are zero.
    An explicit rounding_mode=None is true division, recorded under this name too (as PyTorch does)."""
    if rounding_mode is None:
        return div.forward(self, other)
    if rounding_mode == "trunc":
        return trunc_divide_arrays(self, other)
    return floor_divide_arrays(self, other)


@op("neg", "NegBackward0",
    self=lambda g, n: -g)
def neg(self):
    if self.dtype.kind == "b":
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    return np.negative(self)


@op("reciprocal", "ReciprocalBackward0", saves=("result",), float_result=True,
    self=lambda g, n: -g * (n.result * n.result))        # (PyTorch's order: it rounds the same in float16)
def reciprocal(self):
    return np.reciprocal(self)


# --- powers -------------------------------------------------------------------------------------

def _power_rounded(base, exponent, dtype):
    """np.power in float64, rounded to float32 (see dual.rounded). A number (base or exponent) is
    first rounded to the tensor's dtype, as PyTorch does."""
    if dtype == _F32 or dtype == _F16:
        if not isinstance(base, np.ndarray):
            base = dtype.type(base)
        if not isinstance(exponent, np.ndarray):
            exponent = dtype.type(exponent)
        out = np.power(base, exponent, dtype=_F64).astype(_F32)
        return out if dtype == _F32 else out.astype(_F16)
    return np.power(base, exponent)


def _float_power(x, e):
    """x ** e for a float array x and a number e, as PyTorch computes it: its common exponents by
    multiplication or square root, the others correctly rounded (numpy's float32 power is not)."""
    if x.dtype == _F16:      # PyTorch computes float16 powers in float32 (of a float16 exponent)
        return _float_power(x.astype(_F32), float(np.float16(e))).astype(_F16)
    if e == 2:
        return x * x
    if e == 3:
        return x * x * x
    if e == 0.5:
        return np.sqrt(x)
    if e == -0.5:
        return dual.rsqrt(x)
    if e == -1:
        return 1 / x
    if e == -2:
        return 1 / (x * x)
    return _power_rounded(x, e, x.dtype)


def _int_power(base, exponent):
    """base ** exponent on integers, as PyTorch: a negative exponent gives 1 / base**-exponent
    truncated to an integer (1 for base 1, +-1 for base -1, else 0), where numpy raises."""
    negative = exponent < 0
    if not np.any(negative):
        return np.power(base, exponent)
    out = np.power(base, np.where(negative, 0, exponent))
    inverse = np.where(base == 1, 1, np.where(base == -1, 1 - 2 * (exponent % 2 != 0), 0))
    return np.where(negative, inverse, out).astype(out.dtype, copy=False)


def power(base, exponent):
    """`base ** exponent` on numpy arrays (either may be a number), with PyTorch's rules."""
    dtype = np.result_type(base, exponent)
    if dtype.kind in "iu":
        return _int_power(base, exponent)
    if dtype.kind == "b":
        if isinstance(exponent, np.ndarray):
            raise NotImplementedError('"pow" not implemented for \'Bool\'')
        return base if exponent else np.ones_like(base)          # bool_tensor ** True
    if not isinstance(exponent, np.ndarray):
        return _float_power(base, exponent)
    return _power_rounded(base, exponent, dtype)


def _pow_scalar_grad(g, n):
    # PyTorch: zero for exponent 0, else grad * (exponent * self ** (exponent - 1)); an exponent False
    # is not 0 to its test (x ** False: 0 * x ** -1, nan at 0)
    if n.exponent == 0 and n.exponent.__class__ is not bool:
        return g * 0
    e = n.exponent
    return g * dual.scale(_pow_of(n.self, e - 1), e)


def _pow_of(x, e):
    """x ** e as the forward computes it (on arrays numpy's own float32 power is not correctly rounded)."""
    return x ** e if isinstance(x, dual.Tensor) or isinstance(e, dual.Tensor) else power(x, e)


@op("pow_scalar", "PowBackward0", ("self",), saves=("self",),
    self=_pow_scalar_grad)
def pow_scalar(self, exponent):
    return power(self, exponent)


_BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                     "invert a mask, use the `~` or `logical_not()` operator instead.")


def _pow_self_grad(g, n):
    # zero where the exponent is 0 (not 0 * inf = nan at self == 0), as PyTorch
    if dual.data(n.exponent).dtype.kind == "b":      # (PyTorch's formula computes exponent - 1)
        raise RuntimeError(_BOOL_SUBTRACTION)
    return dual.where(n.exponent == 0, 0.0, g * (n.exponent * _pow_of(n.self, n.exponent - 1)))


def _log_of(x, like):
    """log(x), computed in the result's dtype (an integer base of a float power)."""
    if dual.data(x).dtype != dual.data(like).dtype:
        x = dual.to_dtype(x, dual.data(like).dtype)
    return dual.log(x)


def _pow_exponent_grad(g, n):
    # d(a**b)/db = a**b * log(a); PyTorch takes it as 0 where a == 0 and b >= 0 (0 ** b is flat there)
    return g * dual.where((n.self == 0) & (n.exponent >= 0), 0.0, n.result * _log_of(n.self, n.result))


@op("pow", "PowBackward1", ("self", "exponent"), saves=("self", "exponent", "result"),
    self=_pow_self_grad,
    exponent=_pow_exponent_grad)
def pow(self, exponent):
    return power(self, exponent)


def _rpow_grad(g, n):
    # base ** x * log(base); for base 0, 0 where x >= 0 (as PyTorch), and log(negative) is nan
    base = n.base
    if base.__class__ is bool:         # (PyTorch's backward cannot read a bool Scalar)
        raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/c10/core/Scalar.cpp":42, please '
                           'report a bug to PyTorch. unknown ivalue tag 4')
    if base == 0:
        return g * dual.where(n.exponent >= 0, 0.0, n.result * -math.inf)
    return g * dual.scale(n.result, math.log(base) if base > 0 else math.nan)


@op("rpow", "PowBackward2", ("exponent",), saves=("exponent", "result"),
    exponent=_rpow_grad)
def rpow(exponent, base):
    """`base ** exponent` for a Python scalar base (what `2 ** x` calls)."""
    return power(base, exponent)


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

@op("exp", "ExpBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * n.result)
def exp(self):
    return _exp(self)


@op("expm1", "Expm1Backward0", saves=("result",), float_result=True,
    self=lambda g, n: g * (n.result + 1))
def expm1(self):
    return _expm1(self)


@op("log", "LogBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / n.self)
def log(self):
    return _log(self)


@op("log2", "Log2Backward0", saves=("self",), float_result=True,
    self=lambda g, n: g / dual.scale(n.self, math.log(2.0)))
def log2(self):
    return _log2(self)


@op("log10", "Log10Backward0", saves=("self",), float_result=True,
    self=lambda g, n: g / dual.scale(n.self, 2.3025850929940456))     # (torch's constant: 1 ulp below log(10))
def log10(self):
    return _log10(self)


@op("log1p", "Log1PBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (n.self + 1))
def log1p(self):
    return _log1p(self)


@op("sqrt", "SqrtBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g / (2 * n.result))
def sqrt(self):
    return np.sqrt(self)


@op("rsqrt", "RsqrtBackward0", saves=("result",), float_result=True,
    self=lambda g, n: -0.5 * g * n.result ** 3)
def rsqrt(self):
    return _rsqrt_blocks(self)


@op("sin", "SinBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.cos(n.self))
def sin(self):
    return _sin(self)


@op("cos", "CosBackward0", saves=("self",), float_result=True,
    self=lambda g, n: -g * dual.sin(n.self))
def cos(self):
    return _cos(self)


@op("tan", "TanBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * (1 + n.result * n.result))
def tan(self):
    return _tan(self)


@op("asin", "AsinBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.rsqrt(-n.self * n.self + 1))          # (torch's formula, op for op)
def asin(self):
    return _asin(self)


@op("acos", "AcosBackward0", saves=("self",), float_result=True,
    self=lambda g, n: -g * dual.rsqrt(-n.self * n.self + 1))
def acos(self):
    return _acos(self)


@op("atan", "AtanBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (1 + n.self * n.self))
def atan(self):
    return _atan(self)


@op("sinh", "SinhBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.cosh(n.self))
def sinh(self):
    return _sinh_blocks(self)


@op("cosh", "CoshBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.sinh(n.self))
def cosh(self):
    return _cosh_blocks(self)


@op("tanh", "TanhBackward0", saves=("result",), float_result=True,
    self=lambda g, n: dual.call("tanh_backward", g, n.result))
def tanh(self):
    return _tanh(self)


def _one_minus_square(y):
    """1 - y * y rounded once, as PyTorch's kernel computes it (a fused multiply-add): float32 and
    float16 through float64 (which holds the product exactly), float64 with the product split in
    two exact halves (Dekker's), so that only the last step rounds."""
    if y.ndim == 0:                            # (numpy gives scalars for 0-d: no out=)
        return _one_minus_square(y.reshape(1)).reshape(())
    if y.dtype == _F32 or y.dtype == _F16:
        t = np.square(y, dtype=_F64)
        np.subtract(1, t, out=t)
        return t.astype(_F32)
    if y.dtype != _F64:
        return 1 - y * y
    # (in place where it can: ~5x numpy's plain 1 - y * y, where that is one op)
    hi = np.multiply(y, 134217729.0)           # 2**27 + 1: splits y into hi + lo of 26 bits each
    hi -= np.subtract(hi, y)
    lo = np.subtract(y, hi)
    p = np.square(y)
    e = np.square(hi)
    e -= p
    hi *= lo
    hi *= 2
    e += hi
    np.square(lo, out=lo)
    e += lo                                    # y * y == p + e exactly
    s = np.subtract(1, p)
    b = np.subtract(s, 1)
    t = np.subtract(s, b)
    np.subtract(1, t, out=t)
    np.negative(p, out=p)
    p -= b
    t += p                                     # 1 - (y * y rounded) == s + t exactly
    t -= e
    s += t
    return s


@op("tanh_backward", "TanhBackwardBackward0", ("grad_output", "output"), saves=("grad_output", "output"),
    grad_output=lambda g, n: dual.call("tanh_backward", g, n.output),
    output=lambda g, n: g * (-2 * n.output * n.grad_output))
def tanh_backward(grad_output, output):
    """tanh's gradient, grad_output * (1 - output**2): an op of its own (as in PyTorch), so that a
    graph of the gradient records TanhBackwardBackward0. float16 is computed in float32."""
    if output.dtype == _F16:
        return (grad_output.astype(_F32) * _one_minus_square(output)).astype(_F16)
    out = _one_minus_square(output)
    if out.shape == np.shape(grad_output) and out.dtype == grad_output.dtype:
        out *= grad_output
        return out
    return grad_output * out


@op("sigmoid", "SigmoidBackward0", saves=("result",), float_result=True,
    self=lambda g, n: dual.call("sigmoid_backward", g, n.result))
def sigmoid(self):
    return dual.sigmoid(self)


@op("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
    saves={"grad_output": ("output",), "output": ("grad_output", "output")},
    grad_output=lambda g, n: dual.call("sigmoid_backward", g, n.output),
    output=lambda g, n: g * n.grad_output * (-2 * n.output + 1))
def sigmoid_backward(grad_output, output):
    """sigmoid's gradient, grad_output * (1 - output) * output: an op of its own (as in PyTorch), so
    that a graph of the gradient records SigmoidBackwardBackward0. (float16 rounds at each step, as
    PyTorch's half kernel does.)"""
    return grad_output * (1 - output) * output


def keep_max(a, b):
    """max(a, b) with a kept where they tie, as PyTorch's std::max(a, b) (relu(-0.) is -0.); NaN
    propagates. numpy's maximum keeps its second operand on ties (float32/float64; float16 is
    compared in float32, where that holds)."""
    if getattr(a, "dtype", None) == _F16:
        return np.maximum(_as_float32(b), a.astype(_F32)).astype(_F16)
    return np.maximum(b, a)


def keep_min(a, b):
    """min(a, b) with a kept where they tie (see keep_max)."""
    if getattr(a, "dtype", None) == _F16:
        return np.minimum(_as_float32(b), a.astype(_F32)).astype(_F16)
    return np.minimum(b, a)


def _as_float32(x):
    return x.astype(_F32) if isinstance(x, np.ndarray) else x


@op("relu", "ReluBackward0", saves=("result",),
    self=lambda g, n: dual.threshold_backward(g, n.result, 0))
def relu(self):
    if self.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    return keep_max(self, 0).astype(self.dtype, copy=False)


@op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"), saves={"grad_output": ("self",)},
    grad_output=lambda g, n: dual.threshold_backward(g, n.self, n.threshold),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def threshold_backward(grad_output, self, threshold):
    """relu's gradient, grad_output where self > threshold: an op of its own (as in PyTorch), so that
    a graph of the gradient still depends on self (its derivative there is zero)."""
    return dual.zero_where(self <= threshold, grad_output)


@op("abs", "AbsBackward0", saves=("self",),
    self=lambda g, n: g * dual.sign(n.self))
def abs(self):
    _no_bool_kernel("abs_cpu", self)
    return np.abs(self)


def _zeros_like_grad(g, n):
    """PyTorch's zeros_like(grad) for piecewise-constant ops: not g * 0 (inf * 0 is nan), and untracked."""
    return dual.like(g, np.zeros_like(dual.data(g)))


@op("sign", "SignBackward0",
    self=_zeros_like_grad)
def sign(self):
    if self.dtype.kind == "b":
        return self.copy()
    return (self > 0).astype(self.dtype) - (self < 0).astype(self.dtype)     # PyTorch's: sign(nan) is 0


@op("round", "RoundBackward0", self=_zeros_like_grad)
def round(self):
    _no_bool_kernel("round_vml_cpu", self)
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


@op("floor", "FloorBackward0", self=_zeros_like_grad)
def floor(self):
    _no_bool_kernel("floor_vml_cpu", self)
    return np.floor(self)


@op("ceil", "CeilBackward0", self=_zeros_like_grad)
def ceil(self):
    _no_bool_kernel("ceil_vml_cpu", self)
    return np.ceil(self)


@op("trunc", "TruncBackward0", self=_zeros_like_grad)
def trunc(self):
    _no_bool_kernel("trunc_vml_cpu", self)
    return np.trunc(self)


# --- division with rounding ---------------------------------------------------------------------
# On numpy arrays already cast to the result dtype (the other may be a number). Integer division by
# zero is PyTorch's RuntimeError (numpy gives 0 and a warning); a float remainder takes the sign of
# fmod's result where it is zero (-2 % 0.5 is -0.), as PyTorch's formula does.

def _bool_error(name, a, b):
    if np.result_type(a, b).kind == "b":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Bool'")


def _check_divisor(out, b):
    if out.dtype.kind in "iu" and out.size and np.any(np.equal(b, 0)):
        raise RuntimeError("ZeroDivisionError")


def floor_divide_arrays(a, b):
    _bool_error("div_floor", a, b)
    out = np.asarray(np.floor_divide(a, b))
    _check_divisor(out, b)
    return out


def trunc_divide_arrays(a, b):
    _bool_error("div_trunc", a, b)
    out = np.asarray(np.floor_divide(a, b))
    _check_divisor(out, b)
    if out.dtype.kind in "iu":        # floor rounds down; trunc rounds toward zero
        return out + ((np.remainder(a, b) != 0) & ((np.less(a, 0)) != (np.less(b, 0)))).astype(out.dtype)
    return np.asarray(np.trunc(np.true_divide(a, b)))


def remainder_arrays(a, b):
    _bool_error("remainder", a, b)
    if np.result_type(a, b).kind in "iu":
        out = np.asarray(np.remainder(a, b))
        _check_divisor(out, b)
        return out
    mod = np.fmod(a, b)               # PyTorch: fmod, moved into the divisor's sign
    return np.asarray(np.where((mod != 0) & ((mod < 0) != np.less(b, 0)), mod + b, mod)).astype(mod.dtype, copy=False)


@op("remainder", "RemainderBackward0", ("self",), self=lambda g, n: g)
def remainder(self, other):
    return remainder_arrays(self, other)


@op("remainder_tensor", "RemainderBackward1", ("self", "other"), saves={"other": ("self", "other")},
    self=lambda g, n: g,
    other=lambda g, n: -g * dual.floor_divide(n.self, n.other))
def remainder_tensor(self, other):
    """x % y for two tensors: x - floor(x / y) * y, so d/dy is -floor(x / y) (PyTorch's formula)."""
    return remainder_arrays(self, other)


def fmod_arrays(a, b):
    """C's fmod: the remainder takes the dividend's sign (remainder() takes the divisor's)."""
    _bool_error("fmod", a, b)
    out = np.asarray(np.fmod(a, b))
    _check_divisor(out, b)
    return out


@op("fmod", "FmodBackward0", ("self",), self=lambda g, n: g)
def fmod(self, other):
    return fmod_arrays(self, other)


@op("fmod_tensor", "FmodBackward1", ("self", "other"), saves={"other": ("self", "other")},
    self=lambda g, n: g,
    other=lambda g, n: -g * dual.trunc_divide(n.self, n.other))
def fmod_tensor(self, other):
    """fmod(x, y) for two tensors: x - trunc(x / y) * y, so d/dy is -trunc(x / y) (PyTorch's formula)."""
    return fmod_arrays(self, other)


@op("erf", "ErfBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.scale(dual.exp(-(n.self * n.self)), 2 / math.sqrt(math.pi)) * g)
def erf(self):
    return dual.erf(self)


# --- clamping and choosing ----------------------------------------------------------------------

def _inside(n):
    """1 where clamp let the value through (the boundary counts as inside, as in PyTorch)."""
    mask = n.self == n.self
    if n.min is not None:
        mask = mask & (n.self >= n.min)
    if n.max is not None:
        mask = mask & (n.self <= n.max)
    return mask


@op("clamp", "ClampBackward1", saves=("self",),
    self=lambda g, n: dual.where_or_zero(_inside(n), g))
def clamp(self, min=None, max=None):
    out = self if min is None else keep_max(self, min)       # (PyTorch's min(max(x, lo), hi))
    out = out if max is None else keep_min(out, max)
    return self.copy() if out is self else np.asarray(out).astype(self.dtype, copy=False)


@op("clamp_min", "ClampMinBackward0", saves=("self",),
    self=lambda g, n: dual.where_or_zero(n.self >= n.min, g))
def clamp_min(self, min):
    return keep_max(self, min).astype(self.dtype, copy=False)


@op("clamp_max", "ClampMaxBackward0", saves=("self",),
    self=lambda g, n: dual.where_or_zero(n.self <= n.max, g))
def clamp_max(self, max):
    return keep_min(self, max).astype(self.dtype, copy=False)


# clamp with tensor bounds: the bounds get gradients too (where they won)
@op("clamp_tensor", "ClampBackward0", ("self", "min", "max"), saves=("self", "min", "max"),
    self=lambda g, n: dual.where_or_zero((n.self >= n.min) & (n.self <= n.max), g),
    min=lambda g, n: dual.where_or_zero((n.self < n.min) & (n.min <= n.max), g),
    max=lambda g, n: dual.where_or_zero((n.self > n.max) | (n.min > n.max), g))
def clamp_tensor(self, min, max):
    return keep_min(keep_max(self, min), max)


@op("clamp_min_tensor", "ClampMinBackward1", ("self", "min"), saves=("self", "min"),
    self=lambda g, n: dual.where_or_zero(n.self >= n.min, g),
    min=lambda g, n: dual.where_or_zero(n.self < n.min, g))
def clamp_min_tensor(self, min):
    return keep_max(self, min)


@op("clamp_max_tensor", "ClampMaxBackward1", ("self", "max"), saves=("self", "max"),
    self=lambda g, n: dual.where_or_zero(n.self <= n.max, g),
    max=lambda g, n: dual.where_or_zero(n.self > n.max, g))
def clamp_max_tensor(self, max):
    return keep_min(self, max)


@op("lerp", "LerpBackward0", ("self", "end"),
    self=lambda g, n: g * (1 - n.weight),
    end=lambda g, n: g * n.weight)
def lerp(self, end, weight):
    return _lerp(self, end, weight)


@op("lerp_tensor", "LerpBackward1", ("self", "end", "weight"), saves=("self", "end", "weight"),
    self=lambda g, n: g * (1 - n.weight),
    end=lambda g, n: g * n.weight,
    weight=lambda g, n: g * (n.end - n.self))
def lerp_tensor(self, end, weight):
    return _lerp(self, end, weight)


def _lerp(self, end, weight):
    """PyTorch's formula: from `self` for |weight| < 0.5, else back from `end` (exact at weight 1);
    float16 computed in float32 and rounded once."""
    dtype = np.result_type(self, end, weight) if isinstance(weight, np.ndarray) else np.result_type(self, end)
    if dtype == _F16:
        self, end = self.astype(np.float32), end.astype(np.float32)
    if dtype == _F16 or dtype == _F32:
        weight = weight.astype(np.float32) if isinstance(weight, np.ndarray) else np.float32(weight)
    diff, rest = end - self, 1 - weight
    if dtype == _F32:
        # PyTorch's float32 kernel multiplies and adds in one rounding (a fused multiply-add):
        # float64 holds the float32 product exactly
        self, end, diff, weight, rest = (np.asarray(v, dtype=np.float64) for v in (self, end, diff, weight, rest))
    if not isinstance(weight, np.ndarray) or not weight.ndim:
        out = self + weight * diff if -0.5 < weight < 0.5 else end - diff * rest
    else:
        out = np.where(np.abs(weight) < 0.5, self + weight * diff, end - diff * rest)
    return np.asarray(out).astype(dtype, copy=False)


def _share(g, mine, theirs, lost):
    """max/min's gradient for input `mine`, as PyTorch's: where(tie, g / 2, g), then 0 where it lost
    (written as zeros, not multiplied: inf * 0 is nan; a nan input never loses)."""
    tie, lost = mine == theirs, lost(mine, theirs)
    if isinstance(g, dual.Tensor):         # (with create_graph: the same ops, recorded)
        return dual.where(tie, g / 2, g).masked_fill(lost, 0)
    return dual.zero_where(lost, dual.where(tie, g / 2, g))


def _pick_grad(mine, theirs):
    """Gradient share of maximum's input `mine`: 1 where it won, 0.5 on ties, 0 where it lost."""
    return lambda g, n: _share(g, getattr(n, mine), getattr(n, theirs), lambda a, b: a < b)


@op("maximum", "MaximumBackward0", ("self", "other"), saves=("self", "other"),
    self=_pick_grad("self", "other"),
    other=_pick_grad("other", "self"))
def maximum(self, other):
    return keep_max(self, other)


def _pick_grad_min(mine, theirs):
    return lambda g, n: _share(g, getattr(n, mine), getattr(n, theirs), lambda a, b: a > b)


@op("minimum", "MinimumBackward0", ("self", "other"), saves=("self", "other"),
    self=_pick_grad_min("self", "other"),
    other=_pick_grad_min("other", "self"))
def minimum(self, other):
    return keep_min(self, other)


@op("where", "WhereBackward0", ("self", "other"),
    self=lambda g, n: dual.where_or_zero(dual.like(g, n.condition), g),      # (condition: a numpy bool array)
    other=lambda g, n: dual.where_or_zero(dual.like(g, ~n.condition), g))
def where(self, other, condition):
    return np.where(condition, self, other)


def _fill_grad(g, n):
    """zero where the fill wrote (PyTorch's grad.masked_fill(mask, 0): not g * ~mask, inf * 0 is nan)"""
    return dual.zero_where(dual.like(g, n.mask), g)


@op("masked_fill", "MaskedFillBackward0", ("self",),
    self=_fill_grad)
def masked_fill(self, mask, value):
    return np.where(mask, np.asarray(value, dtype=self.dtype), self)


@op("masked_fill_tensor", "MaskedFillBackward1", ("self", "value"), promote=False,
    self=_fill_grad,
    value=lambda g, n: dual.where_or_zero(dual.like(g, n.mask), g))     # (summed to the 0-d value by the node)
def masked_fill_tensor(self, value, mask):
    return np.where(mask, value.astype(self.dtype), self)


@op("index_fill", "IndexFillBackward0", ("self",),
    self=_fill_grad)
def index_fill(self, mask, value):
    return np.where(mask, np.asarray(value, dtype=self.dtype), self)


# --- nn activations -----------------------------------------------------------------------------

def _activation_in_float32(forward):
    """PyTorch computes float16 activations in float32 and rounds the result once."""
    @functools.wraps(forward)
    def float16_in_float32(self, *args, **params):
        if self.dtype == _F16:
            return forward(self.astype(_F32), *args, **params).astype(_F16)
        return forward(self, *args, **params)
    return float16_in_float32


@op("leaky_relu", "LeakyReluBackward0", saves=("self",),
    self=lambda g, n: dual.call("leaky_relu_backward", g, n.self, negative_slope=n.negative_slope))
@_activation_in_float32
def leaky_relu(self, negative_slope=0.01):
    return np.where(self > 0, self, self * np.asarray(negative_slope, self.dtype))


@op("leaky_relu_backward", "LeakyReluBackwardBackward0", ("grad_output", "self"), saves=("self",),
    grad_output=lambda g, n: dual.call("leaky_relu_backward", g, n.self, negative_slope=n.negative_slope),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def leaky_relu_backward(grad_output, self, negative_slope):
    """leaky_relu's gradient: an op of its own (as in PyTorch), so that with create_graph the
    gradient still depends on self, as relu's threshold_backward. (Not mask * slope: 0.2 would round.)"""
    return dual.where(self > 0, grad_output, grad_output * negative_slope)


@op("gelu", "GeluBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.call("gelu_backward", g, n.self, approximate="none"))
@_activation_in_float32
def gelu(self):
    # PyTorch's formula, in the tensor's dtype: its 1 + erf(...) loses the far left tail (gelu(-5.5) is
    # -1.6391e-07 in float32, where the exact value is -1.0444e-07)
    return self * 0.5 * (1 + dual.erf(self * math.sqrt(0.5)))


_SQRT1_2, _2_SQRTPI = 0.7071067811865476, 1.1283791670955126        # C's M_SQRT1_2, M_2_SQRTPI
_GELU_PDF = _2_SQRTPI * _SQRT1_2 * 0.5                              # 1 / sqrt(2 pi), as torch rounds it
_GELU_TANH_BETA = 1.4142135623730951 * _2_SQRTPI * 0.5              # sqrt(2 / pi)
_GELU_TANH_KAPPA = 0.044715


@op("gelu_backward", "GeluBackwardBackward0", ("grad_output", "self"),
    saves={"grad_output": ("self",), "self": ("grad_output", "self")},
    grad_output=lambda g, n: dual.call("gelu_backward", g, n.self, approximate=n.approximate),
    self=lambda g, n: _gelu_double_backward(g, n.grad_output, n.self, n.approximate))
def gelu_backward(grad_output, self, approximate):
    """gelu's gradient (both approximations): an op of its own (as in PyTorch), so that a graph of the
    gradient records GeluBackwardBackward0. PyTorch's kernel, step by step in the dtype (float16 in
    float32, rounded once)."""
    kernel = _gelu_backward_tanh if approximate == "tanh" else _gelu_backward_none
    with np.errstate(over="ignore", invalid="ignore"):
        return dual.fused(kernel, grad_output, self)


def _gelu_backward_none(dy, x):
    t = x.dtype.type
    cdf = t(0.5) * (1 + dual.erf(x * t(_SQRT1_2)))
    pdf = t(_GELU_PDF) * _exp(x * x * t(-0.5))
    return dy * (cdf + x * pdf)


def _gelu_backward_tanh(dy, x):
    t = x.dtype.type
    beta, kappa = t(_GELU_TANH_BETA), t(_GELU_TANH_KAPPA)
    x_sq = x * x
    inner = beta * _fma(kappa, x_sq * x, x)
    tanh_inner = _tanh(inner)
    left = t(0.5) * x
    left_derivative = t(0.5) * (1 + tanh_inner)
    tanh_derivative = _one_minus_square(tanh_inner)
    inner_derivative = beta * _fma(t(3) * kappa, x_sq, t(1))
    return dy * _fma(left * tanh_derivative, inner_derivative, left_derivative)


def _fma(a, b, c):
    """a * b + c rounded once, as the compiled kernel's fused multiply-add: float32 through float64
    (which holds the product exactly); float64 as two steps (numpy has no fma)."""
    if getattr(c, "dtype", getattr(a, "dtype", None)) == _F32 or getattr(a, "dtype", None) == _F32:
        return (np.multiply(a, b, dtype=_F64) + c).astype(_F32)
    return a * b + c


def _gelu_double_backward(ggI, gO, x, approximate):
    """PyTorch's gelu_double_backward: gelu''(x) * ggI * gO, in ops of the table (differentiable)."""
    if approximate == "tanh":
        beta, kappa = _GELU_TANH_BETA, _GELU_TANH_KAPPA
        inner = dual.scale(x + dual.scale(x * x * x, kappa), beta)
        tanh_inner = dual.tanh(inner)
        sech_inner = 1 / dual.cosh(inner)
        f = dual.scale(x, 0.5)
        g = 1 - tanh_inner * tanh_inner
        h = dual.scale(1 + dual.scale(x, 3 * kappa) * x, beta)
        f_prime_gh = dual.scale(g, 0.5) * h
        g_prime = (2 * sech_inner) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime = dual.scale(dual.scale(x, 6 * kappa), beta)
        h_prime_fg = f * g * h_prime
        return ggI * gO * (2 * f_prime_gh + g_prime_fh + h_prime_fg)
    x_sq = x * x
    pdf = dual.scale(dual.exp(dual.scale(x_sq, -0.5)), _GELU_PDF)
    return ggI * gO * (2 * pdf - x_sq * pdf)


@op("softplus", "SoftplusBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.call("softplus_backward", g, n.self, beta=n.beta, threshold=n.threshold))
@_activation_in_float32
def softplus(self, beta=1.0, threshold=20.0):
    z = self * beta
    return np.where(z > threshold, self, _log1p(_exp(z)) / beta).astype(self.dtype, copy=False)


@op("softplus_backward", "SoftplusBackwardBackward0", ("grad_output", "self"),
    saves={"grad_output": ("self",), "self": ("grad_output", "self")},
    grad_output=lambda g, n: dual.call("softplus_backward", g, n.self, beta=n.beta, threshold=n.threshold),
    self=lambda g, n: _softplus_double_backward(g * n.grad_output, n.self, n.beta, n.threshold))
def softplus_backward(grad_output, self, beta, threshold):
    """softplus's gradient: grad_output where self * beta > threshold (the forward is linear there),
    else grad_output * z / (z + 1) with z = exp(self * beta). An op of its own, as in PyTorch."""
    def kernel(a, b):
        t = b.dtype.type
        x = b * t(beta)
        z = _exp(x)
        return np.where(x > t(threshold), a, a * z / (z + 1))
    with np.errstate(over="ignore", invalid="ignore"):
        return dual.fused(kernel, grad_output, self)


def _softplus_double_backward(grad, x, beta, threshold):
    """PyTorch's softplus_double_backward: sigmoid_backward(grad, sigmoid(x * beta)) below the threshold."""
    x = dual.scale(x, beta)
    below = dual.like(grad, (dual.data(x) < threshold).astype(dual.data(grad).dtype))
    return dual.scale(dual.call("sigmoid_backward", grad, dual.sigmoid(x)) * below, beta)


def _silu_backward(g, x):
    # PyTorch's formula (its infinitely_differentiable_silu_backward with create_graph)
    s = dual.sigmoid(x)
    return g * s * (1 + x * (1 - s))


@op("silu", "SiluBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.fused(_silu_backward, g, n.self))     # (plain backward: one float16 rounding)
@_activation_in_float32
def silu(self):
    return (self / (1 + _exp(-self))).astype(self.dtype, copy=False)


@op("elu", "EluBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.call("elu_backward", g, n.self, alpha=n.alpha, is_result=False))
@_activation_in_float32
def elu(self, alpha=1.0):
    return np.where(self <= 0, _expm1(self) * alpha, self).astype(self.dtype, copy=False)     # (-0. stays -0.)


@op("elu_backward", "EluBackwardBackward0", ("grad_output", "self_or_result"),
    saves={"grad_output": ("self_or_result",), "self_or_result": ("grad_output", "self_or_result")},
    grad_output=lambda g, n: dual.call("elu_backward", g, n.self_or_result, alpha=n.alpha, is_result=n.is_result),
    self_or_result=lambda g, n: _elu_double_backward(g, n.grad_output, n.self_or_result, n.alpha, n.is_result))
def elu_backward(grad_output, self_or_result, alpha, is_result):
    """elu's gradient from its input (elu) or its result (elu_, is_result): an op of its own, as in
    PyTorch. Its kernel: grad_output where self_or_result > 0 (nan too), else grad_output * alpha *
    exp(self), or grad_output * (result + alpha); float16 in float32, rounded once."""
    def kernel(a, b):
        t = b.dtype.type
        negative = a * (b + t(alpha)) if is_result else a * t(alpha) * _exp(b)
        return np.where(b <= 0, negative, a)
    with np.errstate(over="ignore", invalid="ignore"):
        return dual.fused(kernel, grad_output, self_or_result)


def _elu_double_backward(grad, grad_output, self_or_result, alpha, is_result):
    """PyTorch's elu_double_backward: nonzero only where self_or_result < 0."""
    negative = dual.like(grad, (dual.data(self_or_result) < 0).astype(dual.data(grad).dtype))
    scaled = grad * grad_output
    if not is_result:
        scaled = dual.call("elu_backward", scaled, self_or_result, alpha=alpha, is_result=False)
    return scaled * negative


# --- dtype conversion ---------------------------------------------------------------------------

@op("to_dtype", "ToCopyBackward0", promote=False,
    self=lambda g, n: dual.to_dtype(g, n.source_dtype))
def to_dtype(self, dtype, source_dtype):
    if 1 in self.shape and self.size > 1:     # (numpy's layout of size-1 dims is not PyTorch's)
        out = preserved_empty(self, dtype)
        np.copyto(out, self, casting="unsafe")
        return out
    return self.astype(dtype)


@op("clone", "CloneBackward0", promote=False,
    self=lambda g, n: g)
def clone(self, strides=None):
    """A copy of self laid out as PyTorch lays out its copy: `strides` (in elements) when given
    (contiguous(), memory_format=...), else self's own strides when self is dense without overlap,
    else dense strides in the order of self's (PyTorch's preserve_format)."""
    if strides is None:
        if self.flags.c_contiguous and 1 not in self.shape:
            return np.array(self, copy=True)        # the common case: numpy keeps the C strides
        out = preserved_empty(self)
    else:
        out = np.lib.stride_tricks.as_strided(np.empty(self.size, self.dtype), self.shape,
                                              [s * self.itemsize for s in strides])
    np.copyto(out, self)
    return out


def preserved_empty(a, dtype=None):
    """An uninitialised array shaped like `a`, laid out as PyTorch lays out a new tensor made from it
    with preserve_format (clone, zeros_like, .to(dtype)): see preserved_strides."""
    dtype = a.dtype if dtype is None else np.dtype(dtype)
    strides = preserved_strides(a.shape, [s // a.itemsize for s in a.strides])
    return np.lib.stride_tricks.as_strided(np.empty(a.size, dtype), a.shape, [s * dtype.itemsize for s in strides])


def contiguous_strides(shape):
    """PyTorch's C-order strides (a dim of size 0 or 1 counts as 1)."""
    strides, step = [], 1
    for size in reversed(shape):
        strides.append(step)
        step *= max(size, 1)
    return strides[::-1]


def preserved_strides(shape, strides):
    """The strides of PyTorch's copy with preserve_format: the same strides when the tensor is dense
    and does not overlap itself, else dense strides in the order of the tensor's own (its
    infer_dense_strides: an expanded dim, of stride 0, keeps its place)."""
    if 0 in shape:
        return list(strides)                       # (no elements: dense by definition)
    order = sorted((i for i in range(len(shape)) if shape[i] >= 2), key=lambda i: strides[i])
    step = 1
    for i in order:
        if strides[i] != step:
            break
        step *= shape[i]
    else:
        return list(strides)                       # dense and non-overlapping
    perm = list(range(len(shape)))[::-1]           # perm[0] is the innermost dim
    for k in range(1, len(perm)):                  # insertion sort, stable, stride-0 dims stay put
        d1 = k
        for d0 in range(k - 1, -1, -1):
            a, b = perm[d0], perm[d1]
            if strides[a] == 0 or strides[b] == 0:
                continue
            if strides[a] < strides[b]:
                break
            if strides[a] > strides[b] or shape[a] > shape[b]:
                perm[d0], perm[d1] = b, a
                d1 = d0
    out, step = [0] * len(shape), 1
    for i in perm:
        out[i] = step
        step *= max(shape[i], 1)
    return out


@op("copy_backwards", "CopyBackwards", promote=False,
    self=lambda g, n: g)
def copy_backwards(self):
    return np.array(self, copy=True)
