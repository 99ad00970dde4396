"""Activation ops: tanh, sigmoid, relu, leaky_relu, gelu, softplus, silu, elu, and their
*_backward ops (PyTorch's Activation.cpp): each gradient is an op of its own, as in PyTorch, so
that a graph of the gradient records its *BackwardBackward0 node.

Each block is the forward (numpy) and one gradient formula per input, with PyTorch's node name.
"""
import functools
import math

import numpy as np

from .._dtype import scalar_in
from . import dual, vectorized
from .compare import keep_max
from .registry import OPS, no_complex_autograd, op, refuse_bool, refuse_complex
from .unary import _exp, _expm1, _log1p, _tanh
from .. import _parallel
from .vectorized.core import _lanes
from .vectorized.elementwise import _all_scalar, _memory_order, _vector_mask

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
_ONE = np.array(1.0)                   # (a 0-d array: np.subtract takes it 0.2 us quicker than a number)
_ndarray = np.ndarray
_ZEROS = {_F32: np.zeros((), _F32), _F64: np.zeros((), _F64)}   # (0-d: np.maximum takes them quicker than a 0)


@op("tanh", "TanhBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    shows={"self": "grad * (1 - result * result).conj()"},
    self=lambda g, n: dual.call("tanh_backward", g, n.result))
def tanh(self):
    if self.dtype is _F32:                  # (_tanh's common case, without the call)
        return np.tanh(self, dtype=_F64).astype(_F32)
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
    shows={"grad_output": "grad * (1 - output * output)", "output": "grad.conj() * (-2 * output.conj() * grad_output).conj()"},
    grad_output=lambda g, n: dual.call("tanh_backward", g, dual.conj(n.output)),     # (conj: complex values)
    output=lambda g, n: dual.conj(g) * dual.conj(dual.mul_scalar(dual.conj(n.output), -2) * n.grad_output))
def tanh_backward(grad_output, output):
    """tanh's gradient, grad_output * (1 - output**2): an op of its own (as in PyTorch), so that a
    graph of the gradient records TanhBackwardBackward0. float16 is computed in float32; complex values
    take the conjugate, grad_output * conj(1 - output**2), as PyTorch's complex kernel."""
    if output.__class__ is _ndarray is grad_output.__class__ and output.dtype is _F32 is grad_output.dtype \
            and output.shape == grad_output.shape:
        # (the common case, what _one_minus_square and the multiply below compute, in five numpy
        # calls with no check between them: every chain of tanh runs this once per tanh)
        out = output.astype(_F64)
        np.multiply(out, out, out=out)         # exact: a float32 squared fits in a float64
        np.subtract(_ONE, out, out=out)        # rounded once (to float64)...
        out = out.astype(_F32)                 # ... and once to float32, as before
        np.multiply(out, grad_output, out=out)
        return out
    if output.dtype.kind == "c":
        return grad_output * np.conjugate(1 - output * output)
    if output.dtype == _F16:
        return (grad_output.astype(_F32) * _one_minus_square(output)).astype(_F16)
    out = _one_minus_square(output)
    if out.shape == (grad_output.shape if type(grad_output) is np.ndarray else np.shape(grad_output)) \
            and out.dtype == grad_output.dtype:
        out *= grad_output
        return out
    return grad_output * out


@op("sigmoid", "SigmoidBackward0", variants=("function", "method", "inplace"), saves=("result",), float_result=True,
    shows={"self": "grad * (result * (1 - result)).conj()"},
    self=lambda g, n: dual.call("sigmoid_backward", g, n.result))
def sigmoid(self):
    if type(self) is np.ndarray and self.dtype == _F32:     # PyTorch's vectorized kernel, bit for bit
        exact = vectorized.sigmoid(self)
        if exact is not None:
            return exact
    return dual.sigmoid(self)


@op("sigmoid_backward", "SigmoidBackwardBackward0", ("grad_output", "output"),
    saves={"grad_output": ("output",), "output": ("grad_output", "output")},
    shows={"grad_output": "grad * output * (1 - output)", "output": "grad.conj() * grad_output * (-2 * output.conj() + 1)"},
    grad_output=lambda g, n: dual.call("sigmoid_backward", g, dual.conj(n.output)),     # (conj: complex values)
    output=lambda g, n: dual.conj(g) * n.grad_output * dual.add_scalar(dual.mul_scalar(dual.conj(n.output), -2), 1))
def sigmoid_backward(grad_output, output):
    """sigmoid's gradient, grad_output * (1 - output) * output: an op of its own (as in PyTorch), so
    that a graph of the gradient records SigmoidBackwardBackward0. (float16 rounds at each step, as
    PyTorch's half kernel does; complex values take the conjugate, as PyTorch's complex kernel.)"""
    if output.dtype.kind == "c":
        return grad_output * np.conjugate((1 - output) * output)
    return grad_output * (1 - output) * output


@op("relu", "ReluBackward0", variants=("function", "method", "inplace"), saves=("result",),
    shows={"self": "where(result > 0, grad, 0)"},
    check=refuse_bool("Boolean inputs not supported for relu"),
    self=lambda g, n: dual.threshold_backward(g, n.result, 0))
def relu(self):
    dtype = self.dtype
    if dtype is _F32 or dtype is _F64:      # (the common case, as keep_max computes it, without the checks)
        return np.maximum(_ZEROS[dtype], self)
    refuse_complex("clamp is not supported for complex types", NotImplementedError, self)     # (relu is a clamp)
    return keep_max(self, 0).astype(self.dtype, copy=False)


@op("threshold_backward", "ThresholdBackwardBackward0", ("grad_output", "self"), saves={"grad_output": ("self",)},
    shows={"grad_output": "where(self > threshold, grad, 0)", "self": "zeros_like(grad)"},
    grad_output=lambda g, n: dual.threshold_backward(g, n.self, n.threshold),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def threshold_backward(grad_output, self, threshold):
    """relu's gradient, grad_output where self > threshold: an op of its own (as in PyTorch), so that
    a graph of the gradient still depends on self (its derivative there is zero)."""
    return dual.zero_where(self <= threshold, grad_output)


# --- nn activations -----------------------------------------------------------------------------

def _activation_in_float32(forward):
    """PyTorch computes float16 activations in float32 and rounds the result once."""
    @functools.wraps(forward)
    def float16_in_float32(self, *args, **params):
        if self.dtype == _F16:
            _HALF_INPUT[0] = True       # (PyTorch's half kernels are ATen's, never oneDNN's: see gelu)
            try:
                return forward(self.astype(_F32), *args, **params).astype(_F16)
            finally:
                _HALF_INPUT[0] = False
        return forward(self, *args, **params)
    return float16_in_float32


_HALF_INPUT = [False]


@op("leaky_relu", "LeakyReluBackward0", saves=("self",),
    shows={"self": "where(self > 0, grad, grad * negative_slope)"},
    self=lambda g, n: dual.call("leaky_relu_backward", g, n.self, negative_slope=n.negative_slope))
@_activation_in_float32
def leaky_relu(self, negative_slope=0.01):
    return np.where(self > 0, self, self * np.asarray(negative_slope, self.dtype))


@op("leaky_relu_backward", "LeakyReluBackwardBackward0", ("grad_output", "self"), saves=("self",),
    shows={"grad_output": "where(self > 0, grad, grad * negative_slope)", "self": "zeros_like(grad)"},
    grad_output=lambda g, n: dual.call("leaky_relu_backward", g, n.self, negative_slope=n.negative_slope),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def leaky_relu_backward(grad_output, self, negative_slope):
    """leaky_relu's gradient: an op of its own (as in PyTorch), so that with create_graph the
    gradient still depends on self, as relu's threshold_backward. (Not mask * slope: 0.2 would round.)"""
    return dual.where(self > 0, grad_output, grad_output * negative_slope)


@op("gelu", "GeluBackward0", saves=("self",), float_result=True,
    shows={"self": "grad * (0.5 * (1 + erf(self / sqrt(2))) + self * exp(-self * self / 2) / sqrt(2 * pi))"},
    self=lambda g, n: dual.call("gelu_backward", g, n.self, approximate="none"))
@_activation_in_float32
def gelu(self):
    # PyTorch's formula, in the tensor's dtype: its 1 + erf(...) loses the far left tail (gelu(-5.5) is
    # -1.6391e-07 in float32, where the exact value is -1.0444e-07)
    path = _gelu_path(self)         # PyTorch's kernels, bit for bit (ops/vectorized/)
    exact = (vectorized.gelu_onednn(self) if path == "onednn" and vectorized.onednn_avx512()
             else vectorized.gelu_aten(self) if path == "aten" else None)
    if exact is not None:
        return exact
    return self * 0.5 * (1 + dual.erf(self * math.sqrt(0.5)))


def _gelu_path(x):
    """Which kernel PyTorch's float32 gelu runs: oneDNN's (use_mkldnn: a contiguous tensor of more
    than one number) or ATen's own GeluKernel; None for other dtypes."""
    if type(x) is not np.ndarray or x.dtype != _F32 or _HALF_INPUT[0]:
        return None
    return "onednn" if x.size > 1 and x.flags.c_contiguous else "aten"


_SQRT1_2, _2_SQRTPI = 0.7071067811865476, 1.1283791670955126        # C's M_SQRT1_2, M_2_SQRTPI
_GELU_PDF = _2_SQRTPI * _SQRT1_2 * 0.5                              # 1 / sqrt(2 pi), as torch rounds it
_GELU_TANH_BETA = 1.4142135623730951 * _2_SQRTPI * 0.5              # sqrt(2 / pi)
_GELU_TANH_KAPPA = 0.044715


_GELU_TEXT = "grad * (0.5 * (1 + erf(self / sqrt(2))) + self * exp(-self * self / 2) / sqrt(2 * pi))"
_GELU_TANH_TEXT = "grad * (0.5 * (1 + tanh(sqrt(2 / pi) * (self + 0.044715 * self ** 3))) + 0.5 * self * (1 - tanh(sqrt(2 / pi) * (self + 0.044715 * self ** 3)) ** 2) * sqrt(2 / pi) * (1 + 3 * 0.044715 * self ** 2))"


@op("gelu_backward", "GeluBackwardBackward0", ("grad_output", "self"),
    saves={"grad_output": ("self",), "self": ("grad_output", "self")},
    shows={"grad_output": "%s if approximate == 'none' else %s" % (_GELU_TEXT, _GELU_TANH_TEXT),
           "self": "grad * grad_output * exp(-self * self / 2) / sqrt(2 * pi) * (2 - self * self)"},
    grad_output=lambda g, n: dual.call("gelu_backward", g, n.self, approximate=n.approximate),
    self=lambda g, n: _gelu_double_backward(g, n.grad_output, n.self, n.approximate))
def gelu_backward(grad_output, self, approximate):
    """gelu's gradient (both approximations): an op of its own (as in PyTorch), so that a graph of the
    gradient records GeluBackwardBackward0. PyTorch's kernel, step by step in the dtype (float16 in
    float32, rounded once)."""
    kernel = _gelu_backward_tanh if approximate == "tanh" else _gelu_backward_none
    path = _gelu_path(self) if approximate != "tanh" and type(grad_output) is np.ndarray else None
    exact = (vectorized.gelu_backward_onednn(grad_output, self) if path == "onednn" and vectorized.onednn_avx512()
             and grad_output.dtype == _F32 else vectorized.gelu_backward_aten(grad_output, self) if path == "aten"
             else None)
    if exact is not None:
        return exact
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
    mask = (vectorized.loop_mask(x, dy) if x.dtype == _F32 and type(x) is np.ndarray and type(dy) is np.ndarray
            else None)
    tanh_inner = _tanh(inner) if mask is None else vectorized.tanh_in_loop(inner, mask)   # PyTorch's tanh
    left = t(0.5) * x
    left_derivative = t(0.5) * (1 + tanh_inner)
    tanh_derivative = _one_minus_square(tanh_inner)
    inner_derivative = beta * _fma(t(3) * kappa, x_sq, t(1))
    if mask is not None:        # (float32 kernel, measured: its last sum is not fused)
        return dy * (left_derivative + left * tanh_derivative * inner_derivative)
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
        inner = dual.mul_scalar(x + dual.mul_scalar(x * x * x, kappa), beta)
        tanh_inner = dual.tanh(inner)
        sech_inner = dual.number_over(1, dual.cosh(inner))
        f = dual.mul_scalar(x, 0.5)
        g = dual.number_minus(1, tanh_inner * tanh_inner)
        h = dual.mul_scalar(dual.add_scalar(dual.mul_scalar(x, 3 * kappa) * x, 1), beta)
        f_prime_gh = dual.mul_scalar(g, 0.5) * h
        g_prime = dual.mul_scalar(sech_inner, 2) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime = dual.mul_scalar(dual.mul_scalar(x, 6 * kappa), beta)
        h_prime_fg = f * g * h_prime
        return ggI * gO * (dual.mul_scalar(f_prime_gh, 2) + g_prime_fh + h_prime_fg)
    x_sq = x * x
    pdf = dual.mul_scalar(dual.exp(dual.mul_scalar(x_sq, -0.5)), _GELU_PDF)
    return ggI * gO * (dual.mul_scalar(pdf, 2) - x_sq * pdf)


@op("softplus", "SoftplusBackward0", saves=("self",), float_result=True,
    shows={"self": "where(self * beta > threshold, grad, grad * sigmoid(self * beta))"},
    self=lambda g, n: dual.call("softplus_backward", g, n.self, beta=n.beta, threshold=n.threshold))
@_activation_in_float32
def softplus(self, beta=1.0, threshold=20.0):
    if self.dtype == _F32 and not _HALF_INPUT[0] and type(self) is np.ndarray:   # PyTorch's kernel, bit for bit
        exact = vectorized.softplus(self, beta, threshold)
        if exact is not None:
            return exact
    z = self * beta
    return np.where(z > threshold, self, _log1p(_exp(z)) / beta).astype(self.dtype, copy=False)


@op("softplus_backward", "SoftplusBackwardBackward0", ("grad_output", "self"),
    saves={"grad_output": ("self",), "self": ("grad_output", "self")},
    shows={"grad_output": "where(self * beta > threshold, grad, grad * sigmoid(self * beta))",
           "self": "where(self * beta < threshold, grad * grad_output * beta * sigmoid(self * beta) * (1 - sigmoid(self * beta)), 0)"},
    grad_output=lambda g, n: dual.call("softplus_backward", g, n.self, beta=n.beta, threshold=n.threshold),
    self=lambda g, n: _softplus_double_backward(g * n.grad_output, n.self, n.beta, n.threshold))
def softplus_backward(grad_output, self, beta, threshold):
    """softplus's gradient: grad_output where self * beta > threshold (the forward is linear there),
    else grad_output * z / (z + 1) with z = exp(self * beta). An op of its own, as in PyTorch."""
    def kernel(a, b):
        t = b.dtype.type
        x = b * t(beta)
        exact = (vectorized.softplus_exp(b, beta, a) if b.dtype == _F32 and type(a) is np.ndarray
                 and type(b) is np.ndarray else None)          # (PyTorch's exp in its loops, bit for bit)
        z = _exp(x) if exact is None else exact
        return np.where(x > t(threshold), a, a * z / (z + 1))
    with np.errstate(over="ignore", invalid="ignore"):
        return dual.fused(kernel, grad_output, self)


def _softplus_double_backward(grad, x, beta, threshold):
    """PyTorch's softplus_double_backward: sigmoid_backward(grad, sigmoid(x * beta)) below the threshold."""
    x = dual.mul_scalar(x, beta)
    below = dual.like(grad, (dual.data(x) < threshold).astype(dual.data(grad).dtype))
    return dual.mul_scalar(dual.call("sigmoid_backward", grad, dual.sigmoid(x)) * below, beta)


def _silu_backward(g, x):
    # PyTorch's formula (its infinitely_differentiable_silu_backward with create_graph)
    if type(g) is np.ndarray and type(x) is np.ndarray and x.dtype == _F32:   # its kernel, bit for bit
        exact = vectorized.silu_backward(g, x)
        if exact is not None:
            return exact
    s = dual.sigmoid(x)
    return g * s * dual.add_scalar(x * dual.number_minus(1, s), 1)


@op("silu", "SiluBackward0", saves=("self",), float_result=True,
    check=no_complex_autograd("silu", kernel_refuses=False),
    shows={"self": "grad * sigmoid(self) * (1 + self * (1 - sigmoid(self)))"},
    self=lambda g, n: dual.fused(_silu_backward, g, n.self))     # (plain backward: one float16 rounding)
@_activation_in_float32
def silu(self):
    if self.dtype == _F32 and not _HALF_INPUT[0]:           # PyTorch's vectorized kernel, bit for bit
        exact = vectorized.silu(self)
        if exact is not None:
            return exact
    return (self / (1 + _exp(-self))).astype(self.dtype, copy=False)


# elu(x, alpha, scale, input_scale): scale * x where x > 0, else alpha * scale * (exp(x * input_scale) - 1).
# selu is elu with torch's two constants as alpha and scale (EluBackward0), celu is elu with input_scale =
# 1 / alpha (its own node, CeluBackward0).
@op("elu", "EluBackward0", saves=("self",), float_result=True,
    shows={"self": "where(self > 0, grad * scale, grad * input_scale * alpha * scale * exp(self * input_scale))"},
    self=lambda g, n: dual.call("elu_backward", g, n.self, alpha=n.alpha, scale=n.scale,
                                input_scale=n.input_scale, is_result=False))
@_activation_in_float32
def elu(self, alpha=1.0, scale=1, input_scale=1):
    t = self.dtype.type
    negcoef = t(alpha) * t(scale)               # (PyTorch's kernel: the product in the dtype)
    if self.dtype == _F32 and not _HALF_INPUT[0] and type(self) is np.ndarray:   # PyTorch's kernel, bit for bit
        exact = vectorized.elu(self * t(input_scale) if input_scale != 1 else self, negcoef)
        if exact is not None:
            return exact if scale == 1 == input_scale else np.where(self <= 0, exact, self * t(scale))
    x = self * t(input_scale) if input_scale != 1 else self
    positive = self * t(scale) if scale != 1 else self
    return np.where(self <= 0, _expm1(x) * negcoef, positive).astype(self.dtype, copy=False)     # (-0. stays -0.)


@op("elu_backward", "EluBackwardBackward0", ("grad_output", "self_or_result"),
    saves={"grad_output": ("self_or_result",), "self_or_result": ("grad_output", "self_or_result")},
    shows={"grad_output": "where(self_or_result > 0, grad * scale, grad * input_scale * (self_or_result + alpha * scale)"
                          " if is_result else grad * input_scale * alpha * scale * exp(self_or_result * input_scale))",
           "self_or_result": "where(self_or_result < 0, grad * grad_output * input_scale if is_result "
                             "else grad * grad_output * input_scale ** 2 * alpha * scale"
                             " * exp(self_or_result * input_scale), 0)"},
    grad_output=lambda g, n: dual.call("elu_backward", g, n.self_or_result, alpha=n.alpha, scale=n.scale,
                                       input_scale=n.input_scale, is_result=n.is_result),
    self_or_result=lambda g, n: _elu_double_backward(g, n.grad_output, n.self_or_result, n.alpha, n.is_result,
                                                     n.scale, n.input_scale))
def elu_backward(grad_output, self_or_result, alpha, is_result, scale=1, input_scale=1):
    """elu's gradient from its input (elu) or its result (elu_, is_result): an op of its own, as in
    PyTorch. Its kernel: grad_output * scale where self_or_result > 0 (nan too), else grad_output *
    input_scale * alpha * scale * exp(self * input_scale), or grad_output * input_scale * (result +
    alpha * scale); float16 in float32, rounded once."""
    def kernel(a, b):
        t = b.dtype.type
        negcoef = t(alpha) * t(scale)
        exact = (vectorized.softplus_exp(b, input_scale, a) if not is_result and b.dtype == _F32
                 and type(a) is np.ndarray and type(b) is np.ndarray else None)   # (PyTorch's exp in its loops)
        a_in = a * t(input_scale) if input_scale != 1 else a
        negative = a_in * (b + negcoef) if is_result else \
            a_in * negcoef * (_exp(b * t(input_scale) if input_scale != 1 else b) if exact is None else exact)
        return np.where(b <= 0, negative, a * t(scale) if scale != 1 else a)
    with np.errstate(over="ignore", invalid="ignore"):
        return dual.fused(kernel, grad_output, self_or_result)


def _elu_double_backward(grad, grad_output, self_or_result, alpha, is_result, scale=1, input_scale=1):
    """PyTorch's elu_double_backward: nonzero only where self_or_result < 0."""
    negative = dual.like(grad, (dual.data(self_or_result) < 0).astype(dual.data(grad).dtype))
    scaled = dual.mul_scalar(grad * grad_output, input_scale)     # (PyTorch's `* input_scale`: MulBackward1)
    if not is_result:
        scaled = dual.call("elu_backward", scaled, self_or_result, alpha=alpha, scale=scale, input_scale=input_scale,
                           is_result=False)
    return scaled * negative


# celu(x, alpha) = elu(x, alpha, input_scale=1 / alpha), under its own node. PyTorch's backward formula
# divides in float (1.0 / alpha.toFloat()), its forward in double: each is copied.
def _celu_input_scale(alpha):
    return 1.0 / float(np.float32(alpha))


@op("celu", "CeluBackward0", variants=("function",), saves=("self",), float_result=True,
    shows={"self": "where(self > 0, grad, grad * exp(self / alpha))"},
    self=lambda g, n: dual.call("elu_backward", g, n.self, alpha=n.alpha, scale=1.0,
                                input_scale=_celu_input_scale(n.alpha), is_result=False))
def celu(self, alpha=1.0):
    return OPS_FORWARD["elu"](self, alpha, 1.0, 1.0 / alpha)


# --- shrinks and threshold ------------------------------------------------------------------------------
@op("hardshrink", "HardshrinkBackward0", variants=("function", "method"), saves=("self",),
    shows={"self": "where((self >= -lambd) & (self <= lambd), 0, grad)"},
    self=lambda g, n: dual.call("hardshrink_backward", g, n.self, lambd=n.lambd))
def hardshrink(self, lambd=0.5):
    t = self.dtype.type
    return np.where((self >= t(-lambd)) & (self <= t(lambd)), t(0), self).astype(self.dtype, copy=False)


@op("hardshrink_backward", "HardshrinkBackwardBackward0", ("grad_out", "self"), saves=("self",),
    shows={"grad_out": "where((self >= -lambd) & (self <= lambd), 0, grad)", "self": "zeros_like(grad)"},
    grad_out=lambda g, n: dual.call("hardshrink_backward", g, n.self, lambd=n.lambd),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def hardshrink_backward(grad_out, self, lambd):
    """hardshrink's gradient, an op of its own (as in PyTorch): 0 inside [-lambd, lambd], grad elsewhere."""
    t = self.dtype.type
    return _zero_inside(grad_out, (self >= t(-lambd)) & (self <= t(lambd)))


def _zero_inside(grad, mask):
    """grad with 0 where mask holds, laid out as grad (TensorIterator follows its first operand, the
    gradient, where self is laid out otherwise)."""
    if type(grad) is not np.ndarray or grad.shape != mask.shape:
        return dual.zero_where(mask, grad)
    out = np.array(grad, copy=True, order="K")
    np.copyto(out, out.dtype.type(0), where=mask)
    return out


@op("softshrink", "SoftshrinkBackward0", saves=("self",),
    shows={"self": "where((self >= -lambd) & (self <= lambd), 0, grad)"},
    self=lambda g, n: dual.call("softshrink_backward", g, n.self, lambd=n.lambd))
def softshrink(self, lambd=0.5):
    x = self.astype(_F32) if self.dtype == _F16 else self       # (half computes in float)
    t = x.dtype.type
    low, high = t(-lambd), t(lambd)
    # between the bounds: the vector loop's bit masks give +0, the scalar loop's a * 0 keeps the sign
    between = x * t(0)
    vector = _vector_numbers(self)
    if vector is None or vector.all():
        between = np.abs(between)
    elif vector.any():
        between = np.where(vector, np.abs(between), between)
    return np.where(x > high, x - high, np.where(x < low, x + high, between)).astype(self.dtype, copy=False)


def _vector_numbers(x):
    """Which numbers of x softshrink's kernel computes with its vector function, None where not
    reproduced. Measured: one vector at a time (16 floats, 8 doubles, 32 halves with AVX-512), the
    leftovers by the scalar function."""
    lanes = _lanes()
    if lanes is None or type(x) is not np.ndarray:
        return None
    lanes = {8: lanes // 4, 2: lanes}.get(x.dtype.itemsize, lanes // 2)       # (_vector_mask counts two vectors)
    walk = _memory_order(x)
    if walk is None:
        return np.zeros(x.shape, bool) if _all_scalar(x) else None
    flat, back = walk
    return back(_vector_mask(flat.size, lanes, _parallel.get_num_threads()))


@op("softshrink_backward", "SoftshrinkBackwardBackward0", ("grad_output", "self"), saves=("self",),
    shows={"grad_output": "where((self >= -lambd) & (self <= lambd), 0, grad)", "self": "zeros_like(grad)"},
    grad_output=lambda g, n: dual.call("softshrink_backward", g, n.self, lambd=n.lambd),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def softshrink_backward(grad_output, self, lambd):
    t = self.dtype.type
    return _zero_inside(grad_output, (self >= t(-lambd)) & (self <= t(lambd)))


def _in_dtype(value, dtype):
    """A Scalar argument as PyTorch's kernel reads it in the tensor's dtype (truncated for integers)."""
    if dtype.kind in "iu" and not isinstance(value, bool):
        return dtype.type(int(value))
    return scalar_in(value, dtype)


@op("threshold", "ThresholdBackward0", variants=("function",), saves=("self",),
    shows={"self": "where(self > threshold, grad, 0)"},
    self=lambda g, n: dual.threshold_backward(g, n.self, n.threshold))
def threshold(self, threshold, value):
    """value where self <= threshold, else self (nan stays nan)."""
    return np.where(self <= _in_dtype(threshold, self.dtype), _in_dtype(value, self.dtype), self).astype(
        self.dtype, copy=False)


# --- rrelu: leaky_relu with a random slope per negative number in training ------------------------------
def _rrelu_grad(g, n):
    return dual.call("rrelu_with_noise_backward", g, n.self, noise=n.noise, lower=n.lower, upper=n.upper,
                     training=n.training)


@op("rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0", ("grad_output", "self"), saves=("self",),
    shows={"grad_output": "grad * noise if training and upper - lower > 1e-6 else where(self > 0, grad, grad * (lower + upper) / 2)",
           "self": "zeros_like(grad)"},
    grad_output=lambda g, n: _rrelu_grad(g, n),
    self=lambda g, n: dual.like(g, np.zeros_like(dual.data(g))))
def rrelu_with_noise_backward(grad_output, self, noise, lower, upper, training):
    """rrelu's gradient, an op of its own (as in PyTorch): grad_output * noise in training (where the
    bounds differ), else leaky_relu's gradient with the mean slope."""
    if training and upper - lower > 1e-6:
        return (grad_output * noise.astype(grad_output.dtype, copy=False)).astype(grad_output.dtype, copy=False)
    return OPS_FORWARD["leaky_relu_backward"](grad_output, self, (lower + upper) / 2)


@op("rrelu_with_noise", "RreluWithNoiseBackward0", saves=("self",), self=_rrelu_grad,
    shows={"self": "grad * noise if training and upper - lower > 1e-6 else where(self > 0, grad, grad * (lower + upper) / 2)"})
def rrelu_with_noise(self, noise, lower, upper, training):
    """self * noise in training (noise holds each negative number's slope, 1 elsewhere), else
    leaky_relu with the slope (lower + upper) / 2."""
    if training:
        return (self * noise.astype(self.dtype, copy=False)).astype(self.dtype, copy=False)
    return OPS_FORWARD["leaky_relu"](self, (lower + upper) / 2)


# --- glu: the first half of dim times sigmoid of the second ---------------------------------------------
def _join(a, b, dim):
    if isinstance(a, np.ndarray) and isinstance(b, np.ndarray):
        return np.concatenate([a, b], axis=dim)
    half = dual.data(a).shape[dim]
    return OPS["cat"](a, b, dim=dim, offsets=(0, half), sizes=(half, half))


@op("glu", "GluBackward0", saves=("self",),
    shows={"self": "cat([grad * sigmoid(self.chunk(2, dim)[1]), grad * self.chunk(2, dim)[0] * sigmoid(self.chunk(2, dim)[1]) * (1 - sigmoid(self.chunk(2, dim)[1]))], dim)"},
    self=lambda g, n: dual.call("glu_backward", g, n.self, dim=n.dim))
def glu(self, dim):
    a, b = np.split(self, 2, axis=dim)
    if self.dtype == _F16:
        a, b = a.astype(_F32), b.astype(_F32)
    return (a * (a.dtype.type(1) / (a.dtype.type(1) + _exp(-b)))).astype(self.dtype, copy=False)


def _narrow_halves(x, dim):
    """x.narrow(dim, 0, half), x.narrow(dim, half, half) (SliceBackward0 on Tensors, as PyTorch's formulas)."""
    if isinstance(x, np.ndarray):
        return np.split(x, 2, axis=dim)
    half = x.shape[dim] // 2
    return x.narrow(dim, 0, half), x.narrow(dim, half, half)


def _glu_grad_output(gg, n):
    """PyTorch's glu_double_backward_grad_output: tmp = grad * glu_backward(ones, self); tmp's two halves added."""
    x = dual.data(n.self)
    dim = n.dim % x.ndim
    sizes = list(x.shape)
    sizes[dim] //= 2
    ones = dual.like(gg, np.ones(sizes, x.dtype))
    first, second = _narrow_halves(gg * dual.call("glu_backward", ones, n.self, dim=n.dim), dim)
    return first + second


def _glu_grad_self(gg, n):
    """PyTorch's glu_double_backward, op for op."""
    dim = n.dim % dual.data(n.self).ndim
    first_half, second_half = _narrow_halves(n.self, dim)
    sig_second_half = dual.sigmoid(second_half)
    one_sub_sig_second_half = dual.number_minus(1, sig_second_half)
    sig_one_sub_sig = sig_second_half * one_sub_sig_second_half
    ggI_first_half, ggI_second_half = _narrow_halves(gg, dim)
    ggI_second_half_times_first_half = ggI_second_half * first_half
    go = n.grad_output
    gI_first_half = ggI_second_half * go * sig_one_sub_sig
    second_order_sh = sig_one_sub_sig * one_sub_sig_second_half - sig_second_half * sig_one_sub_sig
    gI_second_half = ggI_second_half_times_first_half * go * second_order_sh + ggI_first_half * go * sig_one_sub_sig
    return _join(gI_first_half, gI_second_half, dim)


@op("glu_backward", "GluBackwardBackward0", ("grad_output", "self"), saves=("grad_output", "self"),
    shows={"grad_output": "grad.chunk(2, dim)[0] * sigmoid(self.chunk(2, dim)[1]) + grad.chunk(2, dim)[1] * self.chunk(2, dim)[0] * sigmoid(self.chunk(2, dim)[1]) * (1 - sigmoid(self.chunk(2, dim)[1]))",
           "self": "cat([grad.chunk(2, dim)[1] * grad_output * sigmoid(self.chunk(2, dim)[1]) * (1 - sigmoid(self.chunk(2, dim)[1])), (grad.chunk(2, dim)[0] + grad.chunk(2, dim)[1] * self.chunk(2, dim)[0] * (1 - 2 * sigmoid(self.chunk(2, dim)[1]))) * grad_output * sigmoid(self.chunk(2, dim)[1]) * (1 - sigmoid(self.chunk(2, dim)[1]))], dim)"},
    grad_output=_glu_grad_output, self=_glu_grad_self)
def glu_backward(grad_output, self, dim):
    """glu's gradient, an op of its own (as in PyTorch): grad * sigmoid(b) for the first half,
    (1 - sigmoid(b)) * sigmoid(b) * a * grad for the second, in PyTorch's order (its sigmoid kernel)."""
    a, b = np.split(self, 2, axis=dim)
    s = OPS_FORWARD["sigmoid"](b)
    if self.dtype == _F16:          # (the second half's kernel computes in float, rounded once)
        s32 = s.astype(_F32)
        second = ((1 - s32) * s32 * a.astype(_F32) * grad_output.astype(_F32)).astype(_F16)
    else:
        t = self.dtype.type
        second = (t(1) - s) * s * a * grad_output
    return np.concatenate([s * grad_output, second], axis=dim).astype(self.dtype, copy=False)


class _Forwards:
    """The forward of another op of the table, by key (looked up when called: the table fills as files load)."""
    def __getitem__(self, key):
        return OPS[key].forward


OPS_FORWARD = _Forwards()
