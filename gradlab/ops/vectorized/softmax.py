"""ATen's softmax and log_softmax kernels (SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h) and their
gradients, float32 and float64: one C++ template for both, on Vectorized<float> or Vectorized<double>.
Over the last dimension each row runs on whole vectors (SLEEF's exp and log), its sums lane by lane,
the lanes added at the end (float32: folded in halves; float64: one after the other, ATen has no
shuffle for double). Over another dimension the tensor is seen as (outer, dim, inner): whole vectors of
positions use SLEEF's exp, the rest the scalar loop with glibc's, and which is which depends on how
the positions are shared among the threads.
"""
import numpy as np

from ... import _parallel
from .core import _F32, _F64, _fma, _kernel, _lanes, _quiet, _rounded_sum
from .sleef import _K_ONE, _expf, _expf_nd, _logf
from .sleef_double import fma64, glibc_exp, sleef_expd, sleef_logd
from .glibc import glibc_expf


class _Kind:
    """What the kernels use for one dtype: lanes per vector, SLEEF's exp and log, the scalar exp
    (glibc's), the fma, the size of a number in bytes, whether the lanes fold in halves, and whether
    the compiler fused softmax's gradient sum on the caller's thread (softmax_backward_lastdim)."""
    def __init__(self, lanes, exp, log, scalar_exp, fma, itemsize, halves, fused_leftover):
        self.lanes, self.exp, self.log, self.scalar_exp = lanes, exp, log, scalar_exp
        self.fma, self.itemsize, self.halves, self.fused_leftover = fma, itemsize, halves, fused_leftover


def _sleef_expd(v, nonpositive=False):
    return sleef_expd(v)


def _log_of_sums(d):
    """SLEEF's logf of softmax's sums: each is at least 1 (exp(0) of the maximum) and at most the dim's
    size, or nan, so the fix-up of zero, subnormal, negative and infinite inputs is left out."""
    return _logf(d, special=False)


def _kind(*arrays):
    """The kernels' _Kind for these arrays (all of one dtype), or None where PyTorch's kernels are not
    reproduced here (another dtype, a CPU capability without SLEEF)."""
    lanes = _lanes()
    dtype = arrays[0].dtype
    if lanes is None or any(a.dtype != dtype for a in arrays[1:]):
        return None
    if dtype == _F32:
        return _Kind(lanes, _expf_nd, _log_of_sums, glibc_expf, _fma, 4, True, True)
    if dtype == _F64:                   # Vectorized<double>: half as many lanes
        return _Kind(lanes // 2, _sleef_expd, sleef_logd, glibc_exp, fma64, 8, False, False)
    return None


# --- ATen's reductions over Vectorized<float> (functional_base.h) ------------------------------------

def _fold_lanes(acc, halves=True):
    """vec_reduce_all: the vector folded in halves (lanes i and i + W/2 added, and so on): lane 0.
    Not halves (its generic version, which double uses): lane 0 + lane 1 + lane 2 ..."""
    if not halves:
        return np.add.accumulate(acc, axis=1)[:, -1]
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


def row_sums(v, lanes, halves=True):
    """reduce_all / map_reduce_all with +: each row of the matrix v (already mapped) summed as
    PyTorch's vector loop sums it (halves: how the lanes are added at the end, _fold_lanes)."""
    rows, n = v.shape
    if n < lanes:                                   # one partial vector: its lanes added one by one
        return np.add.accumulate(v, axis=1)[:, -1]
    full = n - n % lanes
    acc = np.add.reduce(v[:, :full].reshape(rows, full // lanes, lanes), axis=1)   # vector by vector
    if n > full:
        acc[:, :n - full] += v[:, full:]           # the leftover numbers join the first lanes
    return _fold_lanes(acc, halves)


# --- softmax and log_softmax over the last dimension ------------------------------------------------

def _rows(x):
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def softmax_lastdim(x):
    """softmax over the last dim, as ATen's _vec_softmax_lastdim; None if not reproduced here."""
    lanes = _lanes()
    if x.dtype == _F32 and lanes is not None and x.ndim and x.shape[-1]:
        # (float32: no fused multiply-add to check, so without the _kernel bookkeeping)
        r = _rows(x)
        with np.errstate(all="ignore"):
            e = r - np.maximum.reduce(r, axis=1, keepdims=True)
            e = _expf(e, nonpositive=True)
            inverse = _K_ONE / row_sums(e, lanes)
            e *= inverse[:, None]
        return e.reshape(x.shape)
    return _softmax_lastdim(x)


@_kernel
def _softmax_lastdim(x):
    k = _kind(x)
    if k is None or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    e = k.exp(r - np.maximum.reduce(r, axis=1, keepdims=True), nonpositive=True)
    inverse = x.dtype.type(1) / row_sums(e, k.lanes, k.halves)
    return (e * inverse[:, None]).reshape(x.shape)


def log_softmax_lastdim(x):
    """log_softmax over the last dim: x - max - log(sum(exp(x - max))), each step rounded."""
    lanes = _lanes()
    if x.dtype == _F32 and lanes is not None and x.ndim and x.shape[-1]:
        return _log_softmax_rows(x, lanes)
    return _log_softmax_lastdim(x)


@_quiet
def _log_softmax_rows(x, lanes):
    """log_softmax_lastdim's float32 steps, numpy's warnings off."""
    r = _rows(x)
    shifted = r - np.maximum.reduce(r, axis=1, keepdims=True)
    shifted -= _log_of_sums(row_sums(_expf(shifted, nonpositive=True), lanes))[:, None]
    return shifted.reshape(x.shape)


@_kernel
def _log_softmax_lastdim(x):
    k = _kind(x)
    if k is None or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    shifted = r - np.maximum.reduce(r, axis=1, keepdims=True)
    log_sum = k.log(row_sums(k.exp(shifted, nonpositive=True), k.lanes, k.halves))
    return (shifted - log_sum[:, None]).reshape(x.shape)


@_kernel
def softmax_backward_lastdim(grad, output, threads=None):
    """(grad - sum(grad * output)) * output over the last dim, as ATen's kernel. Its loop body is
    compiled twice, for the threads (OpenMP) and for the caller's own thread (one row, or one
    thread), and only the second copy fuses the leftover numbers' multiply-add into the sum
    (measured: torch.set_num_threads(1) changes these bits). float64: never fused (measured)."""
    k = _kind(grad, output)
    if k is None or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    lanes = k.lanes
    g, y = _rows(grad), _rows(output)
    threads = _parallel.get_num_threads() if threads is None else threads
    rows, n = g.shape
    products = g * y
    if n < lanes or n % lanes == 0 or (rows > 1 and threads > 1) or not k.fused_leftover:
        total = row_sums(products, lanes, k.halves)
    else:
        full = n - n % lanes
        acc = np.add.reduce(products[:, :full].reshape(rows, full // lanes, lanes), axis=1)
        acc[:, :n - full] = k.fma(g[:, full:], y[:, full:], acc[:, :n - full])
        total = _fold_lanes(acc, k.halves)
    return ((g - total[:, None]) * y).reshape(grad.shape)


def log_softmax_backward_lastdim(grad, output):
    """grad - exp(output) * sum(grad) over the last dim; the compiler fuses the last multiply and
    subtract into one fma (measured)."""
    lanes = _lanes()
    if grad.dtype == _F32 and output.dtype == _F32 and lanes is not None and grad.ndim and grad.shape[-1]:
        return _log_softmax_backward_rows(grad, output, lanes)
    return _log_softmax_backward_lastdim(grad, output)


@_quiet
def _log_softmax_backward_rows(grad, output, lanes):
    """log_softmax_backward_lastdim's float32 steps, numpy's warnings off."""
    g, y = _rows(grad), _rows(output)
    total = row_sums(g, lanes).astype(_F64)[:, None]
    np.negative(total, out=total)
    p = _expf(y).astype(_F64)
    p *= total                                  # -exp(y) * sum: exact in float64
    out = _rounded_sum(p, g)                    # fma(-exp(y), sum, grad)
    return out.reshape(grad.shape)


@_kernel
def _log_softmax_backward_lastdim(grad, output):
    k = _kind(grad, output)
    if k is None or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    g, y = _rows(grad), _rows(output)
    total = row_sums(g, k.lanes, k.halves)
    e = k.exp(y)
    return k.fma(-e, total[:, None], g).reshape(grad.shape)


# --- softmax and log_softmax over another dimension than the last -----------------------------------------
# The tensor is seen as (outer, dim, inner): each of the outer * inner positions is one softmax over
# `dim` numbers inner apart. Whole vectors of positions run the SLEEF kernels; the others PyTorch's
# scalar loop, with glibc's expf. Sums over `dim` are one running sum, position by position.

def _as_3d(x, dim):
    """(outer, dim, inner) view of a contiguous copy of x."""
    shape = x.shape
    dim = dim % x.ndim
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    return np.ascontiguousarray(x).reshape(outer, shape[dim], inner)


def _running_sum(v):
    """Sum over axis 1, one number after the other (axis 1 of an (outer, dim, inner) array)."""
    return np.add.accumulate(v, axis=1)[:, -1:, :]


def _exp_by_position(k, vector, v, nonpositive=False):
    """exp(v): SLEEF's where vector (broadcast to v's shape), glibc's elsewhere, each computed only
    on its own numbers."""
    vector = np.broadcast_to(vector, v.shape)
    if vector.all():
        return k.exp(v, nonpositive=nonpositive)
    if not vector.any():
        return k.scalar_exp(v)
    out = np.empty(v.shape, v.dtype)
    out[vector] = k.exp(v[vector], nonpositive=nonpositive)
    scalar = ~vector
    out[scalar] = k.scalar_exp(v[scalar])
    return out


def _softmax_vector_positions(outer, inner, lanes, threads):
    """Which positions (outer * inner, in memory order) _vec_softmax computes with whole vectors: each
    thread walks its share of the positions, a vector at a time while one fits in both its share and
    the current row of `inner`; the rest of a row (or of its share) goes to the scalar loop."""
    n = outer * inner
    p = np.arange(n)
    vector = np.zeros(n, bool)
    threads = threads if n > 1 else 1
    share = -(-n // threads)
    for begin in range(0, n, share):
        end = min(begin + share, n)
        q = p[begin:end]
        row_start = np.maximum(begin, q - q % inner)
        block = row_start + (q - row_start) // lanes * lanes
        vector[begin:end] = block + lanes <= np.minimum(end, q - q % inner + inner)
    return vector


@_kernel
def softmax_inner(x, dim, threads=None):
    """softmax over a dim that is not the last, as ATen's _vec_softmax: exp(x - max) / sum.
    Which numbers take the vector path depends on how the positions are shared among the threads."""
    k = _kind(x)
    threads = _parallel.get_num_threads() if threads is None else threads
    if k is None or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    outer, _, inner = x3.shape
    vector = _softmax_vector_positions(outer, inner, k.lanes, threads).reshape(outer, 1, inner)
    shifted = x3 - np.maximum.reduce(x3, axis=1, keepdims=True)
    e = _exp_by_position(k, vector, shifted, nonpositive=True)
    return (e / _running_sum(e)).reshape(x.shape)


def _logsoftmax_vector_positions(inner, dim_size, lanes, itemsize):
    """Which inner positions serial_vec_logsoftmax_range computes with whole vectors: inner is cut in
    chunks (128 KiB of a chunk's columns), each chunk's whole vectors first, its leftover scalar."""
    chunk = max(128 * 1024 // dim_size // itemsize, lanes) // lanes * lanes
    chunk = min(chunk, inner)
    q = np.arange(inner)
    start = q - q % chunk
    size = np.minimum(chunk, inner - start)
    return (q - start) < size - size % lanes


@_kernel
def log_softmax_inner(x, dim):
    """log_softmax over a dim that is not the last: x - max - log(sum(exp(x - max)))."""
    k = _kind(x)
    if k is None or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    vector = _logsoftmax_vector_positions(x3.shape[2], x3.shape[1], k.lanes, k.itemsize)[None, None, :]
    shifted = x3 - np.fmax.reduce(x3, axis=1, keepdims=True)     # (its max skips nans: blendv on >)
    e = _exp_by_position(k, vector, shifted, nonpositive=True)
    return (shifted - k.log(_running_sum(e))).reshape(x.shape)


@_kernel
def softmax_backward_inner(grad, output, dim):
    """softmax's gradient over a dim that is not the last: output * (grad - sum(grad * output)), the
    sum one fused multiply-add per number (the compiler fuses both the vector and the scalar loop)."""
    k = _kind(grad, output)
    if k is None or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    total = np.zeros((g.shape[0], 1, g.shape[2]), grad.dtype)
    for d in range(g.shape[1]):
        total = k.fma(g[:, d:d + 1], y[:, d:d + 1], total)
    return (y * (g - total)).reshape(grad.shape)


@_kernel
def log_softmax_backward_inner(grad, output, dim):
    """log_softmax's gradient over a dim that is not the last: grad - exp(output) * sum(grad), fused."""
    k = _kind(grad, output)
    if k is None or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    vector = _logsoftmax_vector_positions(g.shape[2], g.shape[1], k.lanes, k.itemsize)[None, None, :]
    total = _running_sum(g)
    e = _exp_by_position(k, vector, y)
    return k.fma(-e, total, g).reshape(grad.shape)
