"""Elementwise ops: arithmetic, powers, and the unary math functions.

Each block is the forward (numpy) and one gradient formula per input (operators and ops/dual.py
functions, so it runs on arrays and on Tensors), with the grad_fn name PyTorch gives the node.
Inputs are named as in PyTorch: `self`, `other`.
"""
import math

import numpy as np

from . import dual
from .registry import op

# --- arithmetic ---------------------------------------------------------------------------------

def _alpha(n):
    """The `alpha` of add/sub/rsub (a parameter only when the caller passed one)."""
    return getattr(n, "alpha", 1)



@op("add", "AddBackward0", ("self", "other"),
    self=lambda g, n: g,
    other=lambda g, n: g if _alpha(n) == 1 else g * _alpha(n))
def add(self, other, alpha=1):
    return np.add(self, other) if alpha == 1 else np.add(self, np.multiply(other, alpha))


@op("sub", "SubBackward0", ("self", "other"),
    self=lambda g, n: g,
    other=lambda g, n: -g if _alpha(n) == 1 else g * -_alpha(n))
def sub(self, other, alpha=1):
    return np.subtract(self, other) if alpha == 1 else np.subtract(self, np.multiply(other, alpha))


@op("rsub", "RsubBackward1", ("self",),
    self=lambda g, n: -g if _alpha(n) == 1 else g * -_alpha(n))
def rsub(self, other, alpha=1):
    """`other - self` for a Python scalar `other` (what `2 - x` calls)."""
    return np.subtract(other, self if alpha == 1 else np.multiply(self, alpha))


@op("mul", "MulBackward0", ("self", "other"), saves={"self": ("other",), "other": ("self",)},
    self=lambda g, n: g * n.other,
    other=lambda g, n: g * n.self)
def mul(self, other):
    return np.multiply(self, other)


@op("div", "DivBackward0", ("self", "other"), saves={"self": ("other",), "other": ("self", "other")}, float_result=True,
    self=lambda g, n: g / n.other,
    other=lambda g, n: -g * n.self / (n.other * n.other))
def div(self, other):
    return np.true_divide(self, other)


@op("neg", "NegBackward0",
    self=lambda g, n: -g)
def neg(self):
    return np.negative(self)


@op("reciprocal", "ReciprocalBackward0", saves=("result",), float_result=True,
    self=lambda g, n: -g * n.result * n.result)
def reciprocal(self):
    return np.reciprocal(self)


# --- powers -------------------------------------------------------------------------------------

def _pow_scalar_grad(g, n):
    if n.exponent == 0:
        return g * 0
    return g * n.exponent * n.self ** (n.exponent - 1)


@op("pow_scalar", "PowBackward0", ("self",), saves=("self",),
    self=_pow_scalar_grad)
def pow_scalar(self, exponent):
    return np.power(self, exponent)


def _pow_tensor_exponent_grad(g, n):
    # d(a**b)/db = a**b * log(a); PyTorch takes it as 0 where a == 0 and b >= 0
    grad = g * n.result * dual.log(n.self)
    return dual.where((n.self == 0) & (n.exponent >= 0), 0.0, grad)


@op("pow", "PowBackward1", ("self", "exponent"), saves=("self", "exponent", "result"),
    self=lambda g, n: g * n.exponent * n.self ** (n.exponent - 1),
    exponent=_pow_tensor_exponent_grad)
def pow(self, exponent):
    return np.power(self, exponent)


@op("rpow", "PowBackward2", ("exponent",), saves=("result",),
    exponent=lambda g, n: g * n.result * math.log(n.base) if n.base > 0 else g * n.result * float("nan"))
def rpow(exponent, base):
    """`base ** exponent` for a Python scalar base (what `2 ** x` calls)."""
    return np.power(base, exponent)


# --- unary math ---------------------------------------------------------------------------------

@op("exp", "ExpBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * n.result)
def exp(self):
    return np.exp(self)


@op("expm1", "Expm1Backward0", saves=("result",), float_result=True,
    self=lambda g, n: g * (n.result + 1))
def expm1(self):
    return np.expm1(self)


@op("log", "LogBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / n.self)
def log(self):
    return np.log(self)


@op("log2", "Log2Backward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (n.self * math.log(2.0)))
def log2(self):
    return np.log2(self)


@op("log10", "Log10Backward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (n.self * math.log(10.0)))
def log10(self):
    return np.log10(self)


@op("log1p", "Log1PBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (n.self + 1))
def log1p(self):
    return np.log1p(self)


@op("sqrt", "SqrtBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g / (2 * n.result))
def sqrt(self):
    return np.sqrt(self)


@op("rsqrt", "RsqrtBackward0", saves=("result",), float_result=True,
    self=lambda g, n: -0.5 * g * n.result ** 3)
def rsqrt(self):
    return 1 / np.sqrt(self)


@op("sin", "SinBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.cos(n.self))
def sin(self):
    return np.sin(self)


@op("cos", "CosBackward0", saves=("self",), float_result=True,
    self=lambda g, n: -g * dual.sin(n.self))
def cos(self):
    return np.cos(self)


@op("tan", "TanBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * (1 + n.result * n.result))
def tan(self):
    return np.tan(self)


@op("asin", "AsinBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.rsqrt(1 - n.self * n.self))
def asin(self):
    return np.arcsin(self)


@op("acos", "AcosBackward0", saves=("self",), float_result=True,
    self=lambda g, n: -g * dual.rsqrt(1 - n.self * n.self))
def acos(self):
    return np.arccos(self)


@op("atan", "AtanBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g / (1 + n.self * n.self))
def atan(self):
    return np.arctan(self)


@op("sinh", "SinhBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.cosh(n.self))
def sinh(self):
    return np.sinh(self)


@op("cosh", "CoshBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.sinh(n.self))
def cosh(self):
    return np.cosh(self)


@op("tanh", "TanhBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * (1 - n.result * n.result))
def tanh(self):
    return np.tanh(self)


@op("sigmoid", "SigmoidBackward0", saves=("result",), float_result=True,
    self=lambda g, n: g * n.result * (1 - n.result))
def sigmoid(self):
    # written to avoid overflow warnings for large |x|
    out = np.exp(-np.abs(self))
    return np.where(self >= 0, 1 / (1 + out), out / (1 + out)).astype(out.dtype, copy=False)


@op("relu", "ReluBackward0", saves=("result",),
    self=lambda g, n: dual.threshold_backward(g, n.result, 0))
def relu(self):
    return np.maximum(self, 0).astype(self.dtype, copy=False)


@op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"), saves={"grad_output": ("self",)},
    grad_output=lambda g, n: dual.threshold_backward(g, n.self, n.threshold),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def threshold_backward(grad_output, self, threshold):
    """relu's gradient, grad_output where self > threshold: an op of its own (as in PyTorch), so that
    a graph of the gradient still depends on self (its derivative there is zero)."""
    return np.where(self > threshold, grad_output, 0).astype(grad_output.dtype, copy=False)


@op("abs", "AbsBackward0", saves=("self",),
    self=lambda g, n: g * dual.sign(n.self))
def abs(self):
    return np.abs(self)


@op("sign", "SignBackward0",
    self=lambda g, n: g * 0)
def sign(self):
    return np.sign(self)


@op("round", "RoundBackward0", self=lambda g, n: g * 0)
def round(self):
    return np.round(self)


@op("floor", "FloorBackward0", self=lambda g, n: g * 0)
def floor(self):
    return np.floor(self)


@op("ceil", "CeilBackward0", self=lambda g, n: g * 0)
def ceil(self):
    return np.ceil(self)


@op("trunc", "TruncBackward0", self=lambda g, n: g * 0)
def trunc(self):
    return np.trunc(self)


@op("remainder", "RemainderBackward0", ("self",), self=lambda g, n: g)
def remainder(self, other):
    return np.remainder(self, other)


@op("remainder_tensor", "RemainderBackward1", ("self", "other"), saves={"other": ("self", "other")},
    self=lambda g, n: g,
    other=lambda g, n: -g * dual.floor_divide(n.self, n.other))
def remainder_tensor(self, other):
    """x % y for two tensors: x - floor(x / y) * y, so d/dy is -floor(x / y) (PyTorch's formula)."""
    return np.remainder(self, other)


@op("erf", "ErfBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * (2 / math.sqrt(math.pi)) * dual.exp(-(n.self * n.self)))
def erf(self):
    from math import erf as _erf
    return np.vectorize(_erf, otypes=[self.dtype])(self) if self.size else self.copy()


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
    self=lambda g, n: g * _inside(n))
def clamp(self, min=None, max=None):
    return np.clip(self, min, max).astype(self.dtype, copy=False)


@op("clamp_min", "ClampMinBackward0", saves=("self",),
    self=lambda g, n: g * (n.self >= n.min))
def clamp_min(self, min):
    return np.maximum(self, min).astype(self.dtype, copy=False)


def _pick_grad(mine, theirs):
    """Gradient share of max/min's input `mine`: 1 where it won, 0.5 on ties, 0 where it lost."""
    return lambda g, n: g * ((getattr(n, mine) > getattr(n, theirs)) + (getattr(n, mine) == getattr(n, theirs)) * 0.5)


@op("maximum", "MaximumBackward0", ("self", "other"), saves=("self", "other"),
    self=_pick_grad("self", "other"),
    other=_pick_grad("other", "self"))
def maximum(self, other):
    return np.maximum(self, other)


def _pick_grad_min(mine, theirs):
    return lambda g, n: g * ((getattr(n, mine) < getattr(n, theirs)) + (getattr(n, mine) == getattr(n, theirs)) * 0.5)


@op("minimum", "MinimumBackward0", ("self", "other"), saves=("self", "other"),
    self=_pick_grad_min("self", "other"),
    other=_pick_grad_min("other", "self"))
def minimum(self, other):
    return np.minimum(self, other)


@op("where", "WhereBackward0", ("self", "other"),
    self=lambda g, n: g * dual.like(g, n.condition),      # (condition: a numpy bool array)
    other=lambda g, n: g * dual.like(g, ~n.condition))
def where(self, other, condition):
    return np.where(condition, self, other)


@op("masked_fill", "MaskedFillBackward0", ("self",),
    self=lambda g, n: g * ~n.mask)
def masked_fill(self, mask, value):
    return np.where(mask, np.asarray(value, dtype=self.dtype), self)


# --- nn activations -----------------------------------------------------------------------------

@op("leaky_relu", "LeakyReluBackward0", saves=("self",),
    self=lambda g, n: dual.where(n.self > 0, g, g * n.negative_slope))   # not mask * slope: 0.2 would round
def leaky_relu(self, negative_slope=0.01):
    return np.where(self > 0, self, self * np.asarray(negative_slope, self.dtype))


def _gelu_grad(g, n):
    x = n.self
    cdf = 0.5 * (1 + dual.erf(x * (1 / math.sqrt(2))))
    pdf = dual.exp(-0.5 * x * x) * (1 / math.sqrt(2 * math.pi))
    return g * (cdf + x * pdf)


@op("gelu", "GeluBackward0", saves=("self",), float_result=True, self=_gelu_grad)
def gelu(self):
    from math import erf as _erf
    cdf = 0.5 * (1 + np.vectorize(_erf, otypes=[np.float64])(self / math.sqrt(2))) if self.size else self
    return (self * cdf).astype(self.dtype, copy=False)


@op("softplus", "SoftplusBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.sigmoid(n.self * n.beta))
def softplus(self, beta=1.0, threshold=20.0):
    z = self * beta
    return np.where(z > threshold, self, np.logaddexp(0, z) / beta).astype(self.dtype, copy=False)


@op("silu", "SiluBackward0", saves=("self",), float_result=True,
    self=lambda g, n: g * dual.sigmoid(n.self) * (1 + n.self * (1 - dual.sigmoid(n.self))))
def silu(self):
    return (self / (1 + np.exp(-self))).astype(self.dtype, copy=False)


@op("elu", "EluBackward0", saves=("self",), float_result=True,
    self=lambda g, n: dual.where(n.self > 0, g, g * n.alpha * dual.exp(n.self)))
def elu(self, alpha=1.0):
    return np.where(self > 0, self, alpha * np.expm1(np.minimum(self, 0))).astype(self.dtype, copy=False)


# --- dtype conversion ---------------------------------------------------------------------------

@op("to_dtype", "ToCopyBackward0", promote=False,
    self=lambda g, n: dual.to_dtype(g, n.source_dtype))
def to_dtype(self, dtype, source_dtype):
    return self.astype(dtype)


@op("clone", "CloneBackward0", promote=False,
    self=lambda g, n: g)
def clone(self):
    return np.array(self, copy=True)


@op("copy_backwards", "CopyBackwards", promote=False,
    self=lambda g, n: g)
def copy_backwards(self):
    return np.array(self, copy=True)
