"""ATen's elementwise kernels (cpu_kernel_vec): a dense tensor walked in memory order, blocks of two
vectors through the vector function (SLEEF), the numbers left at the end of each thread's slice
through the scalar function (glibc). sigmoid, silu, gelu (ATen's own and the tanh form), softplus,
mish, elu, logsigmoid, log1p, expm1 and their gradients.
"""
import functools

import numpy as np

from ... import _parallel
from .core import _F32, _F64, _I32, _bits, _fma, _from_bits, _k64, _kernel, _lanes, _poly, _quiet
from .sleef import _expf_nd, _log1pf_nd, sleef_expm1f, sleef_log1pf, sleef_tanhf
from .glibc import glibc_erff, glibc_expf, glibc_expm1f, glibc_log1pf, glibc_tanhf


# --- elementwise kernels (ATen's cpu_kernel_vec) --------------------------------------------------------
# TensorIterator walks a dense tensor in memory order. Above 32768 numbers the walk is shared among
# the threads in equal slices; each slice runs the vector function on blocks of two vectors and the
# scalar function on the numbers left at its end.

_GRAIN = 32768


def _memory_order(x):
    """x's numbers in memory order (a view) and how to put results back in x's shape; None where x
    is not dense (its numbers do not fill one block of memory), where PyTorch walks it otherwise."""
    if x.flags.c_contiguous:
        return x.reshape(-1), lambda flat: flat.reshape(x.shape)
    if x.ndim < 2 or 0 in x.strides:
        return None
    order = np.argsort([-abs(s) for s in x.strides], kind="stable")
    perm = x.transpose(order)
    if not perm.flags.c_contiguous:
        return None
    inverse = np.argsort(order)
    return perm.reshape(-1), lambda flat: flat.reshape(perm.shape).transpose(inverse)


@functools.lru_cache(maxsize=64)
def _vector_mask(n, lanes, threads):
    """Which of n numbers (memory order) cpu_kernel_vec computes with the vector function (kept for
    the next call of the same size: read-only)."""
    block = 2 * lanes
    if n <= _GRAIN or threads <= 1:
        slices = [(0, n)]
    else:
        share = -(-n // min(threads, -(-n // _GRAIN)))
        slices = [(b, min(b + share, n)) for b in range(0, n, share)]
    mask = np.zeros(n, bool)
    for begin, end in slices:
        mask[begin:begin + (end - begin) // block * block] = True
    mask.flags.writeable = False
    return mask


def by_loop(mask, vector_fn, scalar_fn, *arrays):
    """vector_fn where mask (the vector loop's numbers), scalar_fn elsewhere, each computed only on the
    numbers it serves (arrays: of mask's shape, broadcast views allowed)."""
    if mask.all():
        return vector_fn(*arrays)
    if not mask.any():
        return scalar_fn(*arrays)
    out = np.empty(mask.shape, _F32)
    out[mask] = vector_fn(*(a[mask] for a in arrays))
    rest = ~mask
    out[rest] = scalar_fn(*(a[rest] for a in arrays))
    return out


def elementwise(x, vector_fn, scalar_fn, threads=None):
    """y = f(x) for a float32 array as cpu_kernel_vec computes it, or None where not reproduced."""
    if x.dtype != _F32:
        return None
    mask = loop_mask(x, threads=threads)
    return None if mask is None else by_loop(mask, vector_fn, scalar_fn, x)


def _sigmoid_vector(v):
    e = _expf_nd(_K_ZERO - v)
    e += _K_ONE
    return np.divide(_K_ONE, e, out=e)


def _silu_vector(v):
    e = _expf_nd(-v)
    e += _K_ONE
    return np.divide(v, e, out=e)


_K_ZERO, _K_ONE = np.array(0, _F32), np.array(1, _F32)


@_quiet
def sigmoid(x):
    """sigmoid of a dense float32 array: vectors 1 / (1 + exp(0 - x)) with SLEEF's expf, leftovers
    1 / (1 + expf(-x)) with glibc's."""
    return elementwise(x, _sigmoid_vector, lambda v: _F32(1) / (_F32(1) + glibc_expf(-v)))


@_quiet
def silu(x):
    """silu = x / (1 + exp(-x)) of a dense float32 array (vectors: SLEEF's expf; leftovers: glibc's)."""
    return elementwise(x, _silu_vector, lambda v: v / (_F32(1) + glibc_expf(-v)))


def _silu_grad(dy, x, exp):
    s = _F32(1) / (_F32(1) + exp(-x))
    return dy * s * _fma(x, _F32(1) - s, _F32(1))          # (1 + x (1 - s): fused by the compiler)


@_kernel
def silu_backward(grad, x, threads=None):
    """silu's gradient dy * s * (1 + x (1 - s)), s = sigmoid(x), for float32 arrays."""
    if x.dtype != _F32 or grad.dtype != _F32:
        return None
    mask = loop_mask(x, grad, threads)
    if mask is None:
        return None
    return by_loop(mask, lambda g, v: _silu_grad(g, v, _expf_nd), lambda g, v: _silu_grad(g, v, glibc_expf),
                   np.broadcast_to(grad, x.shape), x)


# --- ATen's own gelu kernel (GeluKernel: what runs where oneDNN does not) ---------------------------------

def _aten_vec_erf(v):
    """Vectorized<float>::erf: Abramowitz and Stegun 7.1.26, 1 - (a1 t + ... + a5 t^5) exp(-x^2),
    t = 1 / (1 + p |x|), by fma steps, with SLEEF's expf."""
    sign = _bits(v) & _I32(-2 ** 31)
    t = _F32(1) / _fma(_F32(0.3275911), np.abs(v), _F32(1))
    r, _ = _poly(t.astype(_F64), _K_ERF_POLY)
    e = _expf_nd(-(v * v))
    return _from_bits(_bits(_fma(-e * t, r, _F32(1))) ^ sign)


_K_ERF_POLY = [_k64(_F32(c)) for c in (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)]
_SQRT1_2F = _F32(0.7071067811865476)
_GELU_BETAF = _F32(1.1283791670955126 * 0.7071067811865476 * 0.5)       # M_2_SQRTPI * M_SQRT1_2 * 0.5


def _all_scalar(x):
    """Whether TensorIterator runs its scalar loop on every number of a non-dense x (its innermost
    dimension is not contiguous)."""
    dims = [abs(s) for n, s in zip(x.shape, x.strides) if n > 1]
    return bool(dims) and min(dims) != x.itemsize


@_kernel
def gelu_aten(x, threads=None):
    """gelu (exact form) of a float32 array as ATen's GeluKernel: x/2 (1 + erf(x/sqrt2)), vectors with
    Vectorized erf, the leftovers with glibc's erff."""
    def vector(v):
        return v * _F32(0.5) * (_F32(1) + _aten_vec_erf(v * _SQRT1_2F))

    def scalar(v):
        return v * _F32(0.5) * (_F32(1) + glibc_erff(v * _SQRT1_2F))
    if _lanes() is None or x.dtype != _F32:
        return None
    if _memory_order(x) is None:
        return scalar(x) if _all_scalar(x) else None
    return elementwise(x, vector, scalar, threads)


@_kernel
def gelu_backward_aten(grad, x, threads=None):
    """gelu's gradient dy (cdf + x pdf) as ATen's GeluBackwardKernel; the vector loop fuses
    cdf + x pdf into one fma, the scalar loop does not (measured)."""
    def part(v, erf, exp):
        cdf = _F32(0.5) * (_F32(1) + erf(v * _SQRT1_2F))
        return cdf, _GELU_BETAF * exp(v * v * _F32(-0.5))
    if x.dtype != _F32 or grad.dtype != _F32:
        return None
    mask = loop_mask(x, grad, threads)
    if mask is None:
        return None
    def vector(g, v):
        cdf, pdf = part(v, _aten_vec_erf, _expf_nd)
        return g * _fma(v, pdf, cdf)

    def scalar(g, v):
        cdf, pdf = part(v, glibc_erff, glibc_expf)
        return g * (cdf + v * pdf)
    return by_loop(mask, vector, scalar, np.broadcast_to(grad, x.shape), x)


def loop_mask(x, grad=None, threads=None, rows=False):
    """Which numbers of x (in x's shape) PyTorch's elementwise loop computes with the vector function
    (x alone, or with a gradient of x's layout or expanded from one number); None where gradlab does
    not reproduce the walk. With rows, also a non-dense x whose last dim is contiguous (a slice of
    rows or columns) on one thread: the loop runs along each row, its leftovers at the row's end."""
    lanes = _lanes()
    if lanes is None or (grad is not None and grad.shape != x.shape):
        return None
    walk = _memory_order(x)
    if walk is None:                    # x's innermost numbers are not adjacent: the scalar loop throughout
        if _all_scalar(x):
            return np.zeros(x.shape, bool)
        if rows and grad is None and x.size <= _GRAIN and x.strides[-1] == x.itemsize and 0 not in x.strides:
            inner = x.shape[-1]
            return np.broadcast_to(np.arange(inner) < inner // (2 * lanes) * (2 * lanes), x.shape)
        return None
    if grad is not None and not (grad.strides == x.strides or (grad.size and not any(grad.strides))):
        # another layout: TensorIterator walks the gradient's order, where x's numbers are not
        # adjacent: the scalar loop throughout (partly expanded gradients are not reproduced)
        return np.zeros(x.shape, bool) if _memory_order(grad) is not None and not _adjacent_in(x, grad) else None
    flat, back = walk
    return back(_vector_mask(flat.size, lanes, _parallel.get_num_threads() if threads is None else threads))


def _adjacent_in(x, other):
    """Whether x's numbers are adjacent along other's fastest dimension (of more than one number)."""
    dims = [(abs(s), d) for d, (n, s) in enumerate(zip(other.shape, other.strides)) if n > 1]
    return bool(dims) and abs(x.strides[min(dims)[1]]) == x.itemsize


@_kernel
def tanh_in_loop(v, mask):
    """tanh as the vector loop (SLEEF's tanhf) and the scalar loop (glibc's tanhf) compute it."""
    return by_loop(mask, sleef_tanhf, glibc_tanhf, v)


_GELU_TANH_BETAF = _F32(1.4142135623730951 * 1.1283791670955126 * 0.5)     # M_SQRT2 * M_2_SQRTPI * 0.5


@_kernel
def gelu_tanh(x):
    """gelu's tanh approximation x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) as ATen's GeluKernel
    (the compiler fuses x + 0.044715 x^3)."""
    if x.dtype != _F32:
        return None
    mask = loop_mask(x)
    if mask is None:
        return None
    inner = _GELU_TANH_BETAF * _fma(_F32(0.044715), x * x * x, x)
    return _F32(0.5) * x * (_F32(1) + tanh_in_loop(inner, mask))


@_quiet
def softplus(x, beta, threshold):
    """softplus = log1p(exp(beta x)) / beta (x itself where beta x > threshold), as ATen's kernel."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    z = x * _F32(beta)
    out = by_loop(mask, lambda v: _log1pf_nd(_expf_nd(v)) / _F32(beta),
                  lambda v: glibc_log1pf(glibc_expf(v)) / _F32(beta), z)
    return np.where(z > _F32(threshold), x, out)


@_quiet
def softplus_exp(x, beta, grad=None):
    """exp(beta x) as softplus's gradient kernel computes it (vector: SLEEF, scalar: glibc)."""
    mask = loop_mask(x, grad) if x.dtype == _F32 else None
    if mask is None:
        return None
    return by_loop(mask, _expf_nd, glibc_expf, x * _F32(beta))


@_kernel
def mish(x):
    """mish = x tanh(log1p(exp(x))), as ATen's kernel."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    return by_loop(mask, lambda v: v * sleef_tanhf(_log1pf_nd(_expf_nd(v))),
                   lambda v: v * glibc_tanhf(glibc_log1pf(glibc_expf(v))), x)


@_kernel
def mish_backward(grad, x):
    """mish's gradient dy (t + x sigmoid(x) (1 - t^2)), t = tanh(softplus(x)), both steps fused."""
    mask = loop_mask(x, grad) if x.dtype == _F32 and grad.dtype == _F32 else None
    if mask is None:
        return None

    def part(exp, log1p, tanh):
        def grad_of(g, v):
            sigmoid = _F32(1) / (_F32(1) + exp(-v))
            t = tanh(log1p(exp(v)))
            return g * _fma(v * sigmoid, _fma(-t, t, _F32(1)), t)
        return grad_of
    return by_loop(mask, part(_expf_nd, sleef_log1pf, sleef_tanhf), part(glibc_expf, glibc_log1pf, glibc_tanhf),
                   np.broadcast_to(grad, x.shape), x)


@_kernel
def elu(x, alpha):
    """elu = x where x > 0, else expm1(x) * alpha (vector: SLEEF's expm1f, scalar: glibc's)."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    return np.where(x <= 0, by_loop(mask, sleef_expm1f, glibc_expm1f, x) * _F32(alpha), x)


@_quiet
def log_sigmoid(x):
    """logsigmoid = min(x, 0) - log1p(exp(-|x|)): ATen's kernel runs whole and partial vectors
    (SLEEF's expf and log1pf) on every number."""
    if _lanes() is None or x.dtype != _F32:
        return None
    return np.minimum(x, _F32(0)) - _log1pf_nd(_expf_nd(-np.abs(x), nonpositive=True))


@_quiet
def log_sigmoid_backward(grad, x):
    """(max_deriv - sign * b / (1 + b)) * grad with the forward's buffer b = exp(-|x|) (SLEEF's)."""
    if _lanes() is None or x.dtype != _F32 or getattr(grad, "dtype", None) != _F32:
        return None
    b = _expf_nd(-np.abs(x), nonpositive=True)
    negative = x < 0
    return (np.where(negative, _F32(1), _F32(0)) - np.where(negative, _F32(1), _F32(-1)) * (b / (_F32(1) + b))) * grad


# --- torch.log1p / torch.expm1: PyTorch's vml wrappers (no MKL for these two) run vec::map, whole and
# partial vectors, so SLEEF's function computes every number, whatever the layout.

def log1p(x):
    return sleef_log1pf(x) if _lanes() is not None and x.dtype == _F32 else None


def expm1(x):
    return sleef_expm1f(x) if _lanes() is not None and x.dtype == _F32 else None


def complex_neg(x):
    """-x of a complex x as ATen's neg kernel computes it: its vector loop (blocks of two 256-bit vectors:
    8 complex64 or 4 complex128 numbers) computes 0 - x, so a zero part comes out +0 (-(7+0j) is -7+0j),
    while its scalar loop (the numbers left over, or every number of a non-dense x) negates each part
    (-7-0j)."""
    negated = np.negative(x)
    if not x.size:
        return negated
    lanes = 32 // x.itemsize
    walk = _memory_order(x)
    if walk is None:
        if x.strides[-1] != x.itemsize or x.size > _GRAIN:
            return negated            # innermost numbers not adjacent: the scalar loop throughout
        inner = x.shape[-1]           # rows: the loop runs along each row, its leftovers at its end
        mask = np.broadcast_to(np.arange(inner) < inner // (2 * lanes) * (2 * lanes), x.shape)
    else:
        flat, back = walk
        mask = back(_vector_mask(flat.size, lanes, _parallel.get_num_threads()))
    if mask.any():
        negated = np.where(mask, np.subtract(x.dtype.type(0), x), negated)
    return negated
