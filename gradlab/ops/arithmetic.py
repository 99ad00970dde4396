"""Arithmetic ops: add, sub, rsub, mul, div, neg, reciprocal, powers, remainder, fmod, lerp
(PyTorch's BinaryOps.cpp, Pow.cpp, Lerp.cpp), with their dtype rules.

Each block is the forward (numpy) and one gradient formula per input (operators and ops/dual.py
functions, so it runs on arrays and on Tensors), with the grad_fn name PyTorch gives the node.
Inputs are named as in PyTorch: `self`, `other`.
"""
import cmath
import math

import numpy as np

from .._dtype import from_numpy_dtype, half_scalar
from . import dual, vectorized
from .operands import broadcast_error
from .registry import op, refuse_bool, refuse_complex

# --- arithmetic ---------------------------------------------------------------------------------

def _scaled(other, alpha):
    """other * alpha in the forward of add/sub; an int alpha wraps into an integer dtype, as PyTorch's
    integer scalars do (numpy 2 raises OverflowError for uint8 * -1)."""
    if alpha.__class__ is int and np.result_type(other).kind in "iu":
        alpha = np.asarray(alpha).astype(np.result_type(other))
    return np.multiply(other, alpha)


_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def plus_scaled(a, b, alpha):
    """a + alpha * b for add/sub with an alpha: PyTorch's kernel is one fused multiply-add (one rounding,
    with alpha in the tensor's dtype), so `p.add_(grad, alpha=-lr)`, SGD's step, rounds as it does. numpy
    has no fma: float32 is computed exactly in float64 (a product of two float32s fits), float64 in
    numpy's long double; other dtypes as before (float16's vector kernel rounds alpha to float16 first)."""
    dtype = np.result_type(a, b)
    if dtype == _F32:
        return np.add(np.asarray(a, _F64), np.float64(np.float32(alpha)) * np.asarray(b, _F64)).astype(_F32)
    if dtype == _F64:
        long = np.longdouble
        return np.add(np.asarray(a, long), long(alpha) * np.asarray(b, long)).astype(_F64)
    if dtype == _F16:
        return _half_plus_scaled(a, b, alpha)
    return np.add(a, _scaled(b, alpha))


def _half_plus_scaled(a, b, alpha):
    """a + alpha * b in float16 as PyTorch's add kernel computes it, with alpha rounded to float16: its vector
    loop converts to float32 for one fused multiply-add, then rounds to float16; the numbers left at the end
    of each thread's slice go through the scalar loop, in c10::Half arithmetic (the product rounded to
    float16, then the sum: numpy's float16 operations). Where gradlab does not reproduce the walk (a
    layout other than one dense block shared by both operands), the vector loop's value throughout."""
    half = np.float16(half_scalar(alpha))
    long = np.longdouble          # (exact: products of two float16s and their sums with a third fit)
    fused = np.add(np.asarray(a, long), long(half) * np.asarray(b, long)).astype(_F32).astype(_F16)
    shape = fused.shape
    full = [x for x in (a, b) if isinstance(x, np.ndarray) and x.shape == shape]
    if not full or any(np.ndim(x) and x.shape != shape for x in (a, b)):
        return fused
    if any(x.strides != full[0].strides for x in full):
        # two layouts: TensorIterator walks rows when every operand's last dim is contiguous
        if not all(x.ndim and x.strides[-1] == x.itemsize for x in full):
            return fused
        full.sort(key=lambda x: x.flags.c_contiguous)          # (a non-dense one gives the row walk)
    mask = vectorized.loop_mask(full[0].astype(_F16, copy=False), rows=True)
    if mask is None or mask.all():
        return fused
    return np.where(mask, fused, np.add(a, np.multiply(b, half), dtype=_F16)).astype(_F16, copy=False)


def complex_plus_scaled(a, b, alpha):
    """a + alpha * b for complex results: PyTorch's complex add kernel always multiplies, alpha = 1 too, as a
    complex product ((re, im) * (1, 0)), so an infinite part of b brings a nan (-inf+0j becomes -inf+nanj); sub
    is the same kernel with -alpha."""
    dtype = np.result_type(a, b)
    with np.errstate(invalid="ignore"):
        return np.add(a, np.multiply(np.asarray(b, dtype), np.asarray(complex(alpha), dtype)))


def _any_complex(a, b):
    """Whether a or b (arrays, numpy numbers or Python numbers) is complex, so that their result is:
    np.result_type(a, b).kind == "c" at a third of its cost (a fifth of a small add's)."""
    dtype = getattr(a, "dtype", None)
    if isinstance(a, complex) if dtype is None else dtype.kind == "c":
        return True
    dtype = getattr(b, "dtype", None)
    return isinstance(b, complex) if dtype is None else dtype.kind == "c"


def _alpha(n):
    """The `alpha` of add/sub/rsub (a parameter only when the caller passed one), conjugated as in
    PyTorch's formulas (`grad * alpha.conj()`: a complex alpha)."""
    alpha = getattr(n, "alpha", 1)
    return alpha.conjugate() if alpha.__class__ is complex else alpha



@op("add", "AddBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    shows={"other": "grad * alpha.conj()"},
    self=lambda g, n: g,
    other=lambda g, n: g if _alpha(n) == 1 else dual.mul_scalar(g, _alpha(n)))     # (maybe_multiply: MulBackward1)
def add(self, other, alpha=1):
    if _any_complex(self, other):
        return complex_plus_scaled(self, other, alpha)
    return np.add(self, other) if alpha == 1 else plus_scaled(self, other, alpha)


@op("sub", "SubBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    shows={"other": "-grad * alpha.conj()"},
    self=lambda g, n: g,
    other=lambda g, n: -g if _alpha(n) == 1 else dual.mul_scalar(-g, _alpha(n)))    # (maybe_multiply(-grad, alpha))
def sub(self, other, alpha=1):
    if _any_complex(self, other):
        return complex_plus_scaled(self, other, -alpha)
    if alpha == 1:
        return np.subtract(self, other)
    if np.result_type(self, other) in (_F16, _F32, _F64):    # (PyTorch's sub is its add kernel with -alpha)
        return plus_scaled(self, other, -alpha)
    return np.subtract(self, _scaled(other, alpha))


@op("rsub_tensor", "RsubBackward0", ("self", "other"), shows={"self": "-grad * alpha.conj()"},
    self=lambda g, n: -g if _alpha(n) == 1 else dual.mul_scalar(-g, _alpha(n)),
    other=lambda g, n: g)
def rsub_tensor(self, other, alpha=1):
    """`other - self` for a Tensor `other` (x.__rsub__(y), torch.rsub(x, y))."""
    if _any_complex(self, other):     # (other - alpha * self, a complex product: sub's kernel)
        return complex_plus_scaled(other, self, -alpha)
    if alpha != 1 and np.result_type(self, other) in (_F16, _F32, _F64):
        return plus_scaled(other, self, -alpha)
    return np.subtract(other, self if alpha == 1 else _scaled(self, alpha))


@op("rsub", "RsubBackward1", ("self",), variants=("function",), shows={"self": "-grad * alpha.conj()"},
    self=lambda g, n: -g if _alpha(n) == 1 else dual.mul_scalar(-g, _alpha(n)))
def rsub(self, other, alpha=1):
    """`other - self` for a Python scalar `other` (what `2 - x` calls)."""
    if _any_complex(self, other):     # (other - alpha * self, a complex product: sub's kernel)
        return complex_plus_scaled(other, self, -alpha)
    if alpha != 1 and np.result_type(self, other) in (_F16, _F32, _F64):
        return plus_scaled(other, self, -alpha)
    return np.subtract(other, self if alpha == 1 else _scaled(self, alpha))


@op("mul", "MulBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("other",), "other": ("self",)},
    self=lambda g, n: g * dual.conj(n.other),        # (conj: PyTorch's complex convention; real: itself)
    other=lambda g, n: g * dual.conj(n.self))
def mul(self, other):
    if (other.__class__ is float or other.__class__ is int) and self.dtype == _F16:
        return _in_float32(np.multiply, self, other)
    return np.multiply(self, other)


# C++'s `tensor * number` (at::mul(Tensor, Scalar)), what derivatives.yaml's formulas write (`2 * result`): recorded
# by a gradient's own graph under create_graph. (Python's `x * 2` wraps the 2 in a tensor: MulBackward0.)
@op("mul_scalar", "MulBackward1", ("self",), shows={"self": "grad * other.conj()"},
    self=lambda g, n: dual.mul_scalar(g, dual.conj(n.other)))
def mul_scalar(self, other):
    return mul.forward(self, other)


# C++'s `tensor - number` (at::sub(Tensor, Scalar)): SubBackward1, as mul_scalar
@op("sub_scalar", "SubBackward1", ("self",), self=lambda g, n: g)
def sub_scalar(self, other):
    return sub.forward(self, other)


def _in_float32(ufunc, x, number):
    """float16 times (or over) a Python number, as PyTorch computes it: in float32, with the number in
    float32 (numpy would round the number to float16 first: 0.1, 2049)."""
    return ufunc(x.astype(_F32), np.float32(number)).astype(_F16)


@op("div", "DivBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("other",), "other": ("self", "other")}, float_result=True,
    self=lambda g, n: g / dual.conj(n.other),
    other=lambda g, n: -g * dual.conj(n.self / n.other / n.other))     # (torch's div_tensor_other_backward: its rounding)
def div(self, other):
    if (other.__class__ is float or other.__class__ is int) and self.dtype == _F16:
        return _in_float32(np.true_divide, self, other)
    return np.true_divide(self, other)


@op("div_rounding", "DivBackward2", ("self", "other"), saves={"self": ("other",), "other": ("self", "other")},
    shows={"self": "zeros_like(grad) if rounding_mode else grad / other.conj()",
           "other": "zeros_like(grad) if rounding_mode else -grad * (self / (other * other)).conj()"},
    # (saves: what PyTorch's DivBackward2 keeps, so it is spent after a backward)
    self=lambda g, n: g / dual.conj(n.other) if n.rounding_mode is None else g * 0,
    other=lambda g, n: -g * dual.conj(n.self / (n.other * n.other)) if n.rounding_mode is None else g * 0)
def div_rounding(self, other, rounding_mode):
    """x.div(y, rounding_mode="trunc" or "floor"): piecewise constant, so its gradients are zero.
    An explicit rounding_mode=None is true division, recorded under this name too (as PyTorch does)."""
    if rounding_mode is None:
        return div.forward(self, other)
    divide = trunc_divide_arrays if rounding_mode == "trunc" else floor_divide_arrays
    if (other.__class__ is float or other.__class__ is int) and self.dtype == _F16:
        return _in_float32(divide, self, other)      # (as true division: the number at float precision)
    return divide(self, other)


@op("neg", "NegBackward0", variants=("function", "method", "inplace"), aliases=("negative",),
    check=refuse_bool("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
                      "mask, use the `~` or `logical_not()` operator instead."),
    self=lambda g, n: -g)
def neg(self):
    if self.dtype.kind == "c":
        return vectorized.complex_neg(self)     # (ATen's vector loop gives a zero part +0)
    return np.negative(self)


@op("reciprocal", "ReciprocalBackward0", variants=("function", "method", "inplace"),
    saves=("result",), float_result=True,
    self=lambda g, n: -g * dual.conj(n.result * n.result))     # (PyTorch's order: it rounds the same in float16)
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
        out = _plus_zero_roots(np.power(base, exponent, dtype=_F64), base, exponent).astype(_F32)
        return out if dtype == _F32 else out.astype(_F16)
    if dtype.kind == "c":     # PyTorch's complex pow is C's cpow, exp(exponent * log(base)) (0 ** 0 is nan there)
        with np.errstate(all="ignore"):
            return np.exp(np.multiply(exponent, np.log(np.asarray(base, dtype)), dtype=dtype, order="C"))  # (apply lays it out)
    return _plus_zero_roots(np.power(base, exponent), base, exponent) if dtype.kind == "f" else np.power(base, exponent)


def _plus_zero_roots(out, base, exponent):
    """numpy computes an exponent 0.5 (-0.5) of an array as sqrt (1 / sqrt), whose value at -0. is -0. (-inf);
    PyTorch's kernel calls C's pow, which gives +0. (+inf). (A number exponent 0.5 is PyTorch's sqrt too: see
    _float_power.)"""
    if isinstance(exponent, (np.ndarray, np.generic)) and out.ndim:
        roots = (np.abs(exponent) == 0.5) & (base == 0)
        if roots.any():
            out = np.where(roots, np.where(exponent > 0, out.dtype.type(0), out.dtype.type(np.inf)), out)
    return out


def _float_power(x, e):
    """x ** e for a float array x and a number e, as PyTorch computes it: its common exponents by
    multiplication or square root, the others correctly rounded (numpy's float32 power is not)."""
    if e == 0 and x.dtype.kind == "c":       # (PyTorch fills ones: cpow would give nan at 0)
        return np.ones_like(x)
    if e == 1 and x.dtype.kind == "c":       # (and copies: cpow would round)
        return x.copy()
    if x.dtype == _F16:      # PyTorch computes float16 powers in float32 (of a float16 exponent)
        return _float_power(x.astype(_F32), float(np.float16(half_scalar(e)))).astype(_F16)
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
    if not isinstance(exponent, (np.ndarray, np.generic)):      # (a numpy scalar: a 0-d tensor's, in a formula)
        return _float_power(base, exponent)
    return _power_rounded(base, exponent, dtype)


def _pow_scalar_grad(g, n):
    # PyTorch: zero for exponent 0, else grad * (exponent * self ** (exponent - 1)); an exponent False
    # is not 0 to its test (x ** False: 0 * x ** -1, nan at 0)
    if n.exponent == 0 and n.exponent.__class__ is not bool:
        return dual.like(g, np.zeros_like(dual.data(g)))     # (zeros_like: +0, not g * 0's -0 or nan)
    e = n.exponent
    return g * dual.conj(dual.mul_scalar(_pow_of(n.self, e - 1), e))


def _pow_of(x, e):
    """x ** e as the forward computes it (on arrays numpy's own float32 power is not correctly rounded)."""
    return x ** e if isinstance(x, dual.Tensor) or isinstance(e, dual.Tensor) else power(x, e)


@op("pow_scalar", "PowBackward0", ("self",), saves=("self",),
    shows={"self": "grad * (exponent * self ** (exponent - 1)).conj()"},
    self=_pow_scalar_grad)
def pow_scalar(self, exponent):
    return power(self, exponent)


BOOL_SUBTRACTION = ("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                     "invert a mask, use the `~` or `logical_not()` operator instead.")


def sub_check(self, other, *rest):
    """PyTorch's sub_check, as a row's `check`: no bool tensor on either side (torch.dist subtracts first)."""
    bools = [isinstance(a, dual.Tensor) and a._data.dtype.kind == "b" for a in (self, other)]
    if all(bools):
        raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                           "`logical_xor()` operator instead.")
    if any(bools):
        raise RuntimeError(BOOL_SUBTRACTION)


def _pow_self_grad(g, n):
    # zero where the exponent is 0 (not 0 * inf = nan at self == 0), as PyTorch
    if dual.data(n.exponent).dtype.kind == "b":      # (PyTorch's formula computes exponent - 1)
        raise RuntimeError(BOOL_SUBTRACTION)
    return dual.where(n.exponent == 0, 0.0, g * dual.conj(n.exponent * _pow_of(n.self, dual.sub_scalar(n.exponent, 1))))


def _log_of(x, like):
    """log(x), computed in the result's dtype (an integer base of a float power)."""
    if dual.data(x).dtype != dual.data(like).dtype:
        x = dual.to_dtype(x, dual.data(like).dtype)
    return dual.log(x)


def _pow_exponent_grad(g, n):
    # d(a**b)/db = a**b * log(a); PyTorch takes it as 0 where a == 0 and b >= 0 (0 ** b is flat there); a
    # complex b counts as >= 0 when it is real and >= 0
    e = dual.data(n.exponent)
    flat = (e.real >= 0) & (e.imag == 0) if e.dtype.kind == "c" else e >= 0
    return g * dual.where((dual.data(n.self) == 0) & flat, 0.0, dual.conj(n.result * _log_of(n.self, n.result)))


@op("pow", "PowBackward1", ("self", "exponent"), variants=("function", "method", "inplace"),
    saves=("self", "exponent", "result"),
    shows={"self": "grad * (exponent * self ** (exponent - 1)).conj()", "exponent": "grad * (result * log(self)).conj()"},
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
    if base.__class__ is complex:      # a complex base: its principal log
        return g * dual.conj(n.result * cmath.log(base))
    return g * dual.conj(dual.mul_scalar(n.result, math.log(base) if base > 0 else math.nan))


@op("rpow", "PowBackward2", ("exponent",), saves=("exponent", "result"),
    shows={"exponent": "grad * (result * log(base)).conj()"},
    exponent=_rpow_grad)
def rpow(exponent, base):
    """`base ** exponent` for a Python scalar base (what `2 ** x` calls)."""
    return power(base, exponent)


# --- division with rounding ---------------------------------------------------------------------
# On numpy arrays already cast to the result dtype (the other may be a number). Integer division by
# zero is PyTorch's RuntimeError (numpy gives 0 and a warning); a float remainder takes the sign of
# fmod's result where it is zero (-2 % 0.5 is -0.), as PyTorch's formula does.

def _bool_error(name, a, b):
    """The kernels of floor/trunc division, remainder and fmod have no bool and no complex loops."""
    dtype = np.result_type(a, b)
    if dtype.kind == "b":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Bool'")
    if dtype.kind == "c":
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for "
                                  f"'{'ComplexDouble' if dtype == np.complex128 else 'ComplexFloat'}'")


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


# --- shifts -------------------------------------------------------------------------------------
# No gradients (integer dtypes only). PyTorch's kernels (BinaryOpsKernel.cpp) define what C leaves
# undefined: a shift by a negative amount or by the dtype's width or more gives 0 to the left, and the
# sign (0 or -1) to the right.

def _shift_error(name, dtype):
    if dtype.kind not in "iu":       # (PyTorch has no kernel for bool, floats, complex)
        raise NotImplementedError(f'"{name}_cpu" not implemented for '
                                  f"'{from_numpy_dtype(dtype)._legacy[:-len('Tensor')]}'")


def lshift_arrays(a, b):
    """a << b on arrays (or numbers) already in the result dtype."""
    dtype = np.result_type(a, b)
    _shift_error("lshift", dtype)
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    beyond = (b < 0) | (b >= dtype.itemsize * 8)
    return np.asarray(np.where(beyond, dtype.type(0), np.left_shift(a, np.where(beyond, dtype.type(0), b))))


def rshift_arrays(a, b):
    """a >> b on arrays (or numbers) already in the result dtype."""
    dtype = np.result_type(a, b)
    _shift_error("rshift", dtype)
    a, b = np.asarray(a, dtype), np.asarray(b, dtype)
    width = dtype.itemsize * 8
    beyond = (b < 0) | (b >= width)
    return np.asarray(np.right_shift(a, np.where(beyond, dtype.type(width - 1), b)) if dtype.kind == "i" else
                      np.where(beyond, dtype.type(0), np.right_shift(a, np.where(beyond, dtype.type(0), b))))


@op("remainder", "RemainderBackward0", ("self",), variants=("function", "method", "inplace"), self=lambda g, n: g)
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


@op("fmod", "FmodBackward0", ("self",), variants=("function", "method", "inplace"), self=lambda g, n: g)
def fmod(self, other):
    return fmod_arrays(self, other)


@op("fmod_tensor", "FmodBackward1", ("self", "other"), saves={"other": ("self", "other")},
    self=lambda g, n: g,
    other=lambda g, n: -g * dual.trunc_divide(n.self, n.other))
def fmod_tensor(self, other):
    """fmod(x, y) for two tensors: x - trunc(x / y) * y, so d/dy is -trunc(x / y) (PyTorch's formula)."""
    return fmod_arrays(self, other)


# --- interpolation ------------------------------------------------------------------------------

@op("lerp", "LerpBackward0", ("self", "end"), variants=("function", "method", "inplace"),
    self=lambda g, n: dual.mul_scalar(g, dual.conj(1 - n.weight)),      # (a Scalar weight: MulBackward1)
    end=lambda g, n: dual.mul_scalar(g, dual.conj(n.weight)))
def lerp(self, end, weight):
    return _lerp(self, end, weight)


@op("lerp_tensor", "LerpBackward1", ("self", "end", "weight"), saves=("self", "end", "weight"),
    self=lambda g, n: g * dual.conj(dual.number_minus(1, n.weight)),
    end=lambda g, n: g * dual.conj(n.weight),
    weight=lambda g, n: g * dual.conj(n.end - n.self))
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


# --- atan2, hypot, frac -------------------------------------------------------------------------

def _recip(x):
    if isinstance(x, dual.Tensor):
        return x.reciprocal()
    with np.errstate(divide="ignore"):
        return np.reciprocal(x)


def _rounded_binary(ufunc, a, b):
    """ufunc in float64 rounded once to float32/float16, as PyTorch's (nearly correctly rounded) kernels."""
    dtype = np.result_type(a, b)
    if dtype == _F32 or dtype == _F16:
        out = ufunc(np.asarray(a, _F64), np.asarray(b, _F64)).astype(_F32)
        return out if dtype == _F32 else out.astype(_F16)
    return ufunc(a, b)


def _atan2_recip(n):
    """1 / (self * self + other * other), 0 where both are 0 (PyTorch's gradients there are 0 and -0)."""
    squares = n.self * n.self + n.other * n.other
    if isinstance(squares, dual.Tensor):        # (PyTorch's recip.masked_fill_: MaskedFillBackward0)
        return _recip(squares).masked_fill(squares == 0, 0.0)
    return dual.where(squares == 0, 0.0, _recip(squares))


# torch's atan2_backward: (grad * other * recip, grad * -self * recip)
@op("atan2", "Atan2Backward0", ("self", "other"), variants=("function", "method", "inplace"), aliases=("arctan2",),
    saves=("self", "other"), float_result=True,
    shows={"self": "grad * other / (self * self + other * other)",
           "other": "grad * -self / (self * self + other * other)"},
    self=lambda g, n: g * n.other * dual.shared(n, g, 1, lambda: _atan2_recip(n)),
    other=lambda g, n: g * -n.self * dual.shared(n, g, 1, lambda: _atan2_recip(n)))
def atan2(self, other):
    refuse_complex('"atan2_cpu" not implemented for \'{dtype}\'', NotImplementedError, self, other)
    return np.asarray(_rounded_binary(np.arctan2, self, other))


@op("hypot", "HypotBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("self", "result"), "other": ("other", "result")},     # (each side's formula reads its own)
    self=lambda g, n: g * n.self / n.result,
    other=lambda g, n: g * n.other / n.result)
def hypot(self, other):
    refuse_complex('"hypot_cpu" not implemented for \'{dtype}\'', NotImplementedError, self, other)
    if np.result_type(self, other).kind not in "fc":
        raise NotImplementedError(f"\"hypot_cpu\" not implemented for '{_KERNEL_NAMES[np.result_type(self, other).name]}'")
    return np.asarray(_rounded_binary(np.hypot, self, other))


_KERNEL_NAMES = {"bool": "Bool", "uint8": "Byte", "int8": "Char", "int16": "Short", "int32": "Int", "int64": "Long",
                 "float16": "Half", "float32": "Float", "float64": "Double",
                 "void32": "ComplexHalf"}          # (numpy's name for complex32's structured arrays)


@op("frac", "FracBackward0", variants=("function", "method", "inplace"),
    self=lambda g, n: g)
def frac(self):
    refuse_complex("\"frac_cpu\" not implemented for '{dtype}'", NotImplementedError, self)
    if self.dtype.kind not in "fc":
        raise NotImplementedError(f"\"frac_cpu\" not implemented for '{_KERNEL_NAMES[self.dtype.name]}'")
    return self - np.trunc(self)


# --- addcmul, addcdiv: self + value * tensor1 (* or /) tensor2 --------------------------------------

def _addc_check(name):
    """PyTorch's refusals before its kernel: integer division (addcdiv), and no bool kernel."""
    def check(self, tensor1, tensor2):
        shape = self._data.shape
        for t in (tensor1, tensor2):               # (TensorIterator's shape, operand by operand)
            try:
                shape = np.broadcast_shapes(shape, t._data.shape)
            except ValueError:
                raise broadcast_error(shape, t._data.shape) from None
        kinds = {t._data.dtype.kind for t in (self, tensor1, tensor2)}
        if name == "addcdiv" and tensor1._data.dtype.kind in "biu" and tensor2._data.dtype.kind in "biu":
            raise RuntimeError(
                "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform a "
                "true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as (input + "
                "value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as (input + value * "
                "tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the latter implementation: "
                "(input + value * tensor1 / tensor2), for all dtypes.")
        if kinds == {"b"}:
            raise NotImplementedError(f"\"{name}_cpu_out\" not implemented for 'Bool'")
    return check


def addcmul_arrays(self, tensor1, tensor2, value):
    """PyTorch's addcmul on arrays (one rounding: fmadd(value * t1, t2, self)), for the optimizers' buffers."""
    return _addc(self, tensor1, tensor2, value, np.multiply)


def _addc(self, tensor1, tensor2, value, combine):
    """PyTorch's kernel: value in the result dtype (an integer's truncated), (value * t1) combined with t2,
    then added to self; half computed in float and rounded once."""
    dtype = np.result_type(self, tensor1, tensor2)
    if isinstance(value, complex) and dtype.kind != "c":
        raise RuntimeError(f"value cannot be converted to type {'double' if dtype == _F64 else 'float'} "
                           "without overflow")
    work = _F32 if dtype == _F16 else dtype
    v = np.int64(int(value)).astype(work) if dtype.kind in "iu" else work.type(value)    # (integers wrap around)
    with np.errstate(all="ignore"):
        scaled = v * np.asarray(tensor1, work)
        if combine is np.multiply and work.kind == "f":       # fmadd(value * t1, t2, self): one rounding
            out = _fused_multiply_add(scaled, np.asarray(tensor2, work), np.asarray(self, work))
        else:
            out = np.add(np.asarray(self, work), combine(scaled, np.asarray(tensor2, work)))
    return out.astype(dtype, copy=False)


def _halves(x):
    """Dekker's split of float64 values into two 26-bit halves (x == hi + lo; their products are exact)."""
    t = 134217729.0 * x                        # 2**27 + 1
    hi = t - (t - x)
    return hi, x - hi


def _fused_multiply_add(a, b, c):
    """a * b + c rounded once, as the CPU's fma: float32 through float64 (the product is exact there);
    float64 with the product's rounding error kept (Dekker's two-product) and added back."""
    if a.dtype == _F32:
        return (a.astype(_F64) * b + c).astype(_F32)
    p = a * b
    ah, al = _halves(a)
    bh, bl = _halves(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bp = s - p
    return s + (((p - (s - bp)) + (c - bp)) + err)


@op("addcmul", "AddcmulBackward0", ("self", "tensor1", "tensor2"), variants=("function", "method", "inplace"),
    saves={"tensor1": ("tensor2",), "tensor2": ("tensor1",)}, check=_addc_check("addcmul"),
    shows={"tensor1": "grad * (tensor2 * value).conj()", "tensor2": "grad * (tensor1 * value).conj()"},
    self=lambda g, n: g,
    tensor1=lambda g, n: g * dual.conj(dual.mul_scalar(n.tensor2, n.value)),       # (a half tensor times value: in float)
    tensor2=lambda g, n: g * dual.conj(dual.mul_scalar(n.tensor1, n.value)))
def addcmul(self, tensor1, tensor2, value=1):
    return _addc(self, tensor1, tensor2, value, np.multiply)


@op("addcdiv", "AddcdivBackward0", ("self", "tensor1", "tensor2"), variants=("function", "method", "inplace"),
    saves={"tensor1": ("tensor2",), "tensor2": ("tensor1", "tensor2")}, check=_addc_check("addcdiv"),
    saved_params=("value",),        # (PyTorch's node is spent after a backward even when only self wants a gradient)
    shows={"tensor1": "grad * (value / tensor2).conj()",
           "tensor2": "-grad * (value * tensor1 / (tensor2 * tensor2)).conj()"},
    self=lambda g, n: g,
    tensor1=lambda g, n: g * dual.conj(dual.number_over(n.value, n.tensor2)),    # (value in t2's dtype here, but t1 * value in float below:
    #                                                     as PyTorch's half results show)
    tensor2=lambda g, n: -g * dual.conj(dual.mul_scalar(n.tensor1, n.value) / (n.tensor2 * n.tensor2)))
def addcdiv(self, tensor1, tensor2, value=1):
    return _addc(self, tensor1, tensor2, value, np.divide)


# --- more binary functions: copysign, xlogy, logaddexp(2), ldexp, nextafter, gcd, lcm, igamma(c) ------
# (PyTorch's BinaryOps.cpp, BinaryOpsKernel.cpp and Math.h; their gradients as derivatives.yaml writes them)

def _kernel_name(dtype):
    """A numpy dtype as PyTorch's dispatch macros name it in "not implemented for 'Float'"."""
    return from_numpy_dtype(np.dtype(dtype))._legacy[:-len("Tensor")]


def refuse_kinds(kernel, kinds, *arrays):
    """PyTorch's NotImplementedError of a kernel with no loop for the result dtype's kind ("b", "iu", "c")."""
    dtype = np.result_type(*arrays)
    if dtype.kind in kinds:
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{_kernel_name(dtype)}'")
    return dtype


def _in_float(fn, dtype, *args):
    """fn computed in float64 and rounded once to dtype (float32, float16); float64 as it is: PyTorch's
    half kernels compute in float32, and its float32 ones are (nearly) correctly rounded."""
    if dtype in (_F32, _F16):
        out = np.asarray(fn(*(np.asarray(a, _F64) for a in args))).astype(_F32)
        return out if dtype == _F32 else out.astype(_F16)
    return np.asarray(fn(*args))


def _zeros_grad(g, n):
    """zeros_like(other): written, not g * 0 (inf * 0 is nan)"""
    return dual.like(g, np.zeros_like(dual.data(g)))


def _copysign_grad(g, n):
    # torch's copysign_tensor_self_backward: grad * (result / self), 0 where self is 0
    ratio = n.result / n.self if isinstance(n.self, dual.Tensor) else _quiet_divide(n.result, n.self)
    return g * dual.zero_where(dual.data(n.self) == 0, ratio)


def _quiet_divide(a, b):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.true_divide(a, b)


@op("copysign", "CopysignBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": ("self", "result")}, float_result=True,
    shows={"self": "grad * where(self == 0, 0, result / self)", "other": "zeros_like(grad)"},
    self=_copysign_grad,
    other=_zeros_grad)
def copysign(self, other):
    refuse_kinds("copysign", "c", self, other)
    return np.copysign(self, other)


@op("copysign_scalar", "CopysignBackward1", ("self",), saves=("self", "result"), float_result=True,
    shows={"self": "grad * where(self == 0, 0, result / self)"},
    self=_copysign_grad)
def copysign_scalar(self, other):
    refuse_kinds("copysign", "c", self)
    return np.copysign(self, np.asarray(other, self.dtype))


def xlogy_arrays(x, y):
    """PyTorch's kernel: nan where y is nan, 0 where x is 0, else x * log(y) (log in float64 rounded to the
    dtype first, as glibc's logf is correctly rounded; float16: c10's log(Half) is a Half, the product is
    computed in float32)."""
    dtype = refuse_kinds("xlogy", "c", x, y)
    work = _F32 if dtype == _F16 else dtype
    x, y = np.asarray(x, work), np.asarray(y, work)
    with np.errstate(divide="ignore", invalid="ignore"):
        log = np.log(y.astype(_F64)).astype(work) if work == _F32 else np.log(y)
        if dtype == _F16:
            log = log.astype(_F16).astype(_F32)
        out = np.where(np.isnan(y), work.type(np.nan), np.where(x == 0, work.type(0), x * log))
    return out.astype(dtype, copy=False)


def _xlogy_self_grad(g, n):
    # torch: xlogy(grad, other), 0 where self == 0 and other <= 0
    mask = (dual.data(n.self) == 0) & (dual.data(n.other) <= 0)
    return dual.zero_where(mask, dual.call("xlogy", g, n.other))


@op("xlogy", "XlogyBackward0", ("self", "other"), variants=("function", "method", "inplace"), saves={"self": ("self", "other"), "other": ("self", "other")},
    float_result=True,
    shows={"self": "where((self == 0) & (other <= 0), 0, xlogy(grad, other))", "other": "grad * self / other"},
    self=_xlogy_self_grad,
    other=lambda g, n: g * n.self / n.other if isinstance(g, dual.Tensor) else _quiet_divide(
        g * np.asarray(n.self, g.dtype), n.other))     # (grad * self in grad's dtype, as PyTorch's promotion)
def xlogy(self, other):
    return xlogy_arrays(self, other)


@op("xlogy_scalar_other", "XlogyBackward2", ("self",), saves=("self",), float_result=True,
    shows={"self": "where((self == 0) & (other <= 0) | (self == 0) & (other != other), 0, xlogy(grad, other))"},
    self=lambda g, n: dual.zero_where((dual.data(n.self) == 0) & (not n.other > 0),      # (a nan other too)
                                      dual.call("xlogy_scalar_other", g, other=n.other)))
def xlogy_scalar_other(self, other):
    return xlogy_arrays(self, np.asarray(other, self.dtype))


@op("xlogy_scalar_self", "XlogyBackward1", ("other",), saves=("other",), float_result=True,
    shows={"other": "grad * self_value / other"},
    other=lambda g, n: (g * n.self_value / n.other if isinstance(g, dual.Tensor)
                        else _quiet_divide(g * np.asarray(n.self_value, g.dtype), n.other)))
def xlogy_scalar_self(other, self_value):
    """xlogy(x, other) for a Python number x."""
    return xlogy_arrays(np.asarray(self_value, other.dtype), other)


_REAL_TO_COMPLEX = ("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to be true, "
                    "but got false.  (Could this error message be improved?  If so, please report an enhancement "
                    "request to PyTorch.)")


def _real_input(grad, n, slot):
    """PyTorch's engine refuses a complex gradient for a real input, where the formula does not take its real part
    itself (logaddexp's and ldexp's do not: mul's handle_r_to_c does)."""
    meta = n._input_meta[slot]
    if meta is not None and np.dtype(meta[1]).kind != "c" and dual.data(grad).dtype.kind == "c":
        raise RuntimeError(_REAL_TO_COMPLEX)
    return grad


def _difference(a, b):
    """a - b in a formula, with sub's refusal of a bool tensor (logaddexp of a bool input, in its backward)."""
    if dual.data(a).dtype.kind == "b" or dual.data(b).dtype.kind == "b":
        raise RuntimeError(BOOL_SUBTRACTION)
    return a - b


def _logaddexp_arrays(a, b):
    """PyTorch's kernel: a where a and b are the same infinity, else max + log1p(exp(-|a - b|))."""
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.maximum(a, b)
        return np.where(np.isinf(a) & (a == b), a, m + np.log1p(np.exp(-np.abs(a - b))))


def _complex_logaddexp(a, b):
    """The complex kernel: the one with the larger real part plus log1p(exp(the other minus it))."""
    a, b = np.broadcast_arrays(np.asarray(a), np.asarray(b))
    big = np.where(a.real >= b.real, a, b)
    small = np.where(a.real >= b.real, b, a)
    with np.errstate(all="ignore"):
        return big + np.log1p(np.exp(small - big))


@op("logaddexp", "LogaddexpBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other"),
    shows={"self": "grad / (1 + exp(other - self)).conj()", "other": "grad / (1 + exp(self - other)).conj()"},
    self=lambda g, n: _real_input(g / dual.conj(dual.add_scalar(dual.exp(_difference(n.other, n.self)), 1)), n, 0),
    other=lambda g, n: _real_input(g / dual.conj(dual.add_scalar(dual.exp(_difference(n.self, n.other)), 1)), n, 1))
def logaddexp(self, other):
    dtype = refuse_kinds("logaddexp", "biu", self, other)
    if dtype.kind == "c":
        return _complex_logaddexp(self, other).astype(dtype, copy=False)
    return _in_float(_logaddexp_arrays, dtype, self, other)


def _logaddexp2_arrays(a, b):
    with np.errstate(invalid="ignore", over="ignore"):
        m = np.maximum(a, b)
        return np.where(np.isinf(a) & (a == b), a, m + np.log1p(np.exp2(-np.abs(a - b))) / math.log(2))


def _pow2(x):
    """pow(2, x) in a formula: in x's dtype (an integer x gives integers: 2 ** -1 is 0, as PyTorch's)."""
    if isinstance(x, dual.Tensor):
        return 2 ** x
    return power(np.asarray(2, x.dtype if x.dtype.kind != "b" else np.int64), x)


@op("logaddexp2", "Logaddexp2Backward0", ("self", "other"), variants=("function", "method"),
    saves=("self", "other"),
    shows={"self": "grad / (1 + pow(2, other - self))", "other": "grad / (1 + pow(2, self - other))"},
    self=lambda g, n: g / dual.add_scalar(_pow2(_difference(n.other, n.self)), 1),
    other=lambda g, n: g / dual.add_scalar(_pow2(_difference(n.self, n.other)), 1))
def logaddexp2(self, other):
    dtype = refuse_kinds("logaddexp2", "biuc", self, other)
    return _in_float(_logaddexp2_arrays, dtype, self, other)


# gcd, lcm: integers only, so never a gradient (no rows: Tensor.gcd computes them with _no_grad_binary)
def gcd_arrays(a, b):
    refuse_kinds("gcd", "bfc", a, b)
    return np.gcd(a, b)


def lcm_arrays(a, b):
    refuse_kinds("lcm", "bfc", a, b)
    # PyTorch's: abs(a / gcd * b) in C++'s arithmetic: a type narrower than int is promoted to int (the abs
    # taken there, then wrapped into the dtype), int and long wrap before the abs (numpy's lcm: abs first)
    g = np.gcd(a, b)
    dtype = g.dtype
    work = np.dtype(np.int32) if dtype.itemsize < 4 else dtype
    a, b, g = (np.asarray(v).astype(work) for v in (a, b, g))
    with np.errstate(over="ignore"):
        out = np.abs(a // np.where(g == 0, 1, g).astype(work) * b)
    return np.where(g == 0, 0, out).astype(dtype)


# --- the regularized incomplete gamma functions (Cephes' igam/igamc, as PyTorch's Math.h) -----------------

def lgamma_arrays(x):
    """log|Gamma(x)| of each number (inf at the poles 0, -1, -2, ...)."""
    flat = np.asarray(x, _F64).reshape(-1)
    out = np.empty_like(flat)
    for i, v in enumerate(flat.tolist()):
        try:
            out[i] = math.lgamma(v)
        except ValueError:
            out[i] = math.inf
    return out.reshape(np.shape(x))


def _igam_series(a, x):
    """P(a, x) by its power series: x^a e^-x / Gamma(a + 1) * sum x^n / ((a + 1) ... (a + n))."""
    r, c, total = a.copy(), np.ones_like(a), np.ones_like(a)
    for _ in range(2000):
        r = r + 1
        c = c * x / r
        total = total + c
        if np.all(np.abs(c) <= 1e-17 * np.abs(total)):
            break
    return total * np.exp(a * np.log(x) - x - lgamma_arrays(a + 1))


def _igamc_fraction(a, x):
    """Q(a, x) by its continued fraction (modified Lentz)."""
    tiny = 1e-300
    b = x + 1 - a
    c = np.full_like(a, 1 / tiny)
    d = 1 / np.where(b == 0, tiny, b)
    h = d.copy()
    for i in range(1, 2000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = 1 / np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        step = d * c
        h = h * step
        if np.all(np.abs(step - 1) <= 1e-16):
            break
    return np.exp(a * np.log(x) - x - lgamma_arrays(a)) * h


def igamma_arrays(a, x, upper=False):
    """P(a, x) (or Q(a, x) = 1 - P with upper) in float64, with the special cases of PyTorch's calc_igamma, in its
    order (a nan passes the tests it fails: igamma(inf, nan) is 0)."""
    a, x = np.broadcast_arrays(np.asarray(a, _F64), np.asarray(x, _F64))
    with np.errstate(invalid="ignore"):
        cases = [(x < 0) | (a < 0), a == 0, x == 0, np.isinf(a), np.isinf(x)]
    p = [np.nan, np.where(x > 0, 1.0, np.nan), 0.0, np.where(np.isinf(x), np.nan, 0.0), 1.0]
    special = np.select(cases, [1 - v if upper else v for v in p], default=np.nan)
    rest = ~np.logical_or.reduce(cases) & ~np.isnan(a) & ~np.isnan(x)
    out = np.where(rest, np.nan, special)
    if rest.any():
        ar, xr = a[rest], x[rest]
        series = (xr < 1) | (xr < ar)
        value = np.empty_like(ar)
        with np.errstate(all="ignore"):
            if series.any():
                p_series = _igam_series(ar[series], xr[series])
                value[series] = 1 - p_series if upper else p_series
            if (~series).any():
                q = _igamc_fraction(ar[~series], xr[~series])
                value[~series] = q if upper else 1 - q
        out[rest] = value
    return out


def _igamma_input_grad(name):
    def formula(g, n):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return formula


def _igamma_other_grad(g, n, sign):
    # torch: grad * exp((self - 1) * log(other) - other - lgamma(self)) (lgamma of self, a constant here)
    if dual.data(n.self).dtype == np.bool_:
        raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to "
                           "invert a mask, use the `~` or `logical_not()` operator instead.")
    lg = dual.like(g, np.asarray(n.lgamma_self, dual.data(n.other).dtype))
    return (g if sign > 0 else -g) * dual.exp((n.self - 1) * dual.log(n.other) - n.other - lg)


@op("igamma", "IgammaBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": (), "other": ("self", "other")},
    shows={"self": "not implemented", "other": "grad * exp((self - 1) * log(other) - other - lgamma_self)"},
    self=_igamma_input_grad("igamma"),
    other=lambda g, n: _igamma_other_grad(g, n, 1))
def igamma(self, other, lgamma_self=None):
    """P(self, other); `lgamma_self` (log Gamma of self, computed by Tensor.igamma) is kept for the gradient."""
    dtype = refuse_kinds("igamma", "biuc", self, other)
    return igamma_arrays(self, other).astype(dtype)


@op("igammac", "IgammacBackward0", ("self", "other"), variants=("function", "method", "inplace"),
    saves={"self": (), "other": ("self", "other")},
    shows={"self": "not implemented", "other": "-grad * exp((self - 1) * log(other) - other - lgamma_self)"},
    self=_igamma_input_grad("igammac"),
    other=lambda g, n: _igamma_other_grad(g, n, -1))
def igammac(self, other, lgamma_self=None):
    dtype = refuse_kinds("igammac", "biuc", self, other)
    return igamma_arrays(self, other, upper=True).astype(dtype)
