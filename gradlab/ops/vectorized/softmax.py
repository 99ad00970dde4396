"""ATen's softmax and log_softmax kernels (SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h) and their
gradients, float32. Over the last dimension each row runs on whole vectors (SLEEF's expf and logf),
its sums lane by lane, the lanes folded in halves at the end. Over another dimension the tensor is
seen as (outer, dim, inner): whole vectors of positions use SLEEF's expf, the rest the scalar loop with
glibc's, and which is which depends on how the positions are shared among the threads.
"""
import numpy as np

from ... import _parallel
from .core import _F32, _F64, _fma, _kernel, _lanes, _rounded_sum
from .sleef import _K_ONE, _expf, _expf_nd, _logf
from .glibc import glibc_expf


# --- ATen's reductions over Vectorized<float> (functional_base.h) ------------------------------------

def _fold_lanes(acc):
    """vec_reduce_all: the vector folded in halves (lanes i and i + W/2 added, and so on): lane 0."""
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


def row_sums(v, lanes):
    """reduce_all / map_reduce_all with +: each row of the float32 matrix v (already mapped) summed as
    PyTorch's vector loop sums it."""
    rows, n = v.shape
    if n < lanes:                                   # one partial vector: its lanes added one by one
        return np.add.accumulate(v, axis=1)[:, -1]
    full = n - n % lanes
    acc = np.add.reduce(v[:, :full].reshape(rows, full // lanes, lanes), axis=1)   # vector by vector
    if n > full:
        acc[:, :n - full] += v[:, full:]           # the leftover numbers join the first lanes
    return _fold_lanes(acc)


# --- softmax and log_softmax over the last dimension ------------------------------------------------

def _rows(x):
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


def softmax_lastdim(x):
    """softmax over the last dim (float32), as ATen's _vec_softmax_lastdim; None if not reproduced here."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    with np.errstate(all="ignore"):
        e = r - np.maximum.reduce(r, axis=1, keepdims=True)
        e = _expf(e, nonpositive=True)
        inverse = _K_ONE / row_sums(e, lanes)
        e *= inverse[:, None]
    return e.reshape(x.shape)


def log_softmax_lastdim(x):
    """log_softmax over the last dim (float32): x - max - log(sum(exp(x - max))), each step rounded."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    with np.errstate(all="ignore"):
        shifted = r - np.maximum.reduce(r, axis=1, keepdims=True)
        # each sum is at least 1 (exp(0) of the maximum) and at most the row's length, or nan
        log_sum = _logf(row_sums(_expf(shifted, nonpositive=True), lanes), special=False)
        shifted -= log_sum[:, None]
    return shifted.reshape(x.shape)


@_kernel
def softmax_backward_lastdim(grad, output, threads=None):
    """(grad - sum(grad * output)) * output over the last dim, as ATen's kernel. Its loop body is
    compiled twice, for the threads (OpenMP) and for the caller's own thread (one row, or one
    thread), and only the second copy fuses the leftover numbers' multiply-add into the sum
    (measured: torch.set_num_threads(1) changes these bits)."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    g, y = _rows(grad), _rows(output)
    threads = _parallel.get_num_threads() if threads is None else threads
    rows, n = g.shape
    products = g * y
    if n < lanes or n % lanes == 0 or (rows > 1 and threads > 1):
        total = row_sums(products, lanes)
    else:
        full = n - n % lanes
        acc = np.add.reduce(products[:, :full].reshape(rows, full // lanes, lanes), axis=1)
        acc[:, :n - full] = _fma(g[:, full:], y[:, full:], acc[:, :n - full])
        total = _fold_lanes(acc)
    return ((g - total[:, None]) * y).reshape(grad.shape)


def log_softmax_backward_lastdim(grad, output):
    """grad - exp(output) * sum(grad) over the last dim; the compiler fuses the last multiply and
    subtract into one fma (measured)."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    g, y = _rows(grad), _rows(output)
    with np.errstate(all="ignore"):
        total = row_sums(g, lanes).astype(_F64)[:, None]
        np.negative(total, out=total)
        p = _expf(y).astype(_F64)
        p *= total                                  # -exp(y) * sum: exact in float64
        out = _rounded_sum(p, g)                    # fma(-exp(y), sum, grad)
    return out.reshape(grad.shape)


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


def _exp_by_position(vector, v, nonpositive=False):
    """exp(v): SLEEF's expf where vector (broadcast to v's shape), glibc's elsewhere, each computed
    only on its own numbers."""
    vector = np.broadcast_to(vector, v.shape)
    if vector.all():
        return _expf_nd(v, nonpositive=nonpositive)
    if not vector.any():
        return glibc_expf(v)
    out = np.empty(v.shape, _F32)
    out[vector] = _expf_nd(v[vector], nonpositive=nonpositive)
    scalar = ~vector
    out[scalar] = glibc_expf(v[scalar])
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
    """softmax over a dim that is not the last (float32), as ATen's _vec_softmax: exp(x - max) / sum.
    Which numbers take the vector path depends on how the positions are shared among the threads."""
    lanes = _lanes()
    threads = _parallel.get_num_threads() if threads is None else threads
    if lanes is None or x.dtype != _F32 or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    outer, _, inner = x3.shape
    vector = _softmax_vector_positions(outer, inner, lanes, threads).reshape(outer, 1, inner)
    shifted = x3 - np.maximum.reduce(x3, axis=1, keepdims=True)
    e = _exp_by_position(vector, shifted, nonpositive=True)
    return (e / _running_sum(e)).reshape(x.shape)


def _logsoftmax_vector_positions(inner, dim_size, lanes):
    """Which inner positions serial_vec_logsoftmax_range computes with whole vectors: inner is cut in
    chunks (128 KiB of a chunk's columns), each chunk's whole vectors first, its leftover scalar."""
    chunk = max(128 * 1024 // dim_size // 4, lanes) // lanes * lanes
    chunk = min(chunk, inner)
    q = np.arange(inner)
    start = q - q % chunk
    size = np.minimum(chunk, inner - start)
    return (q - start) < size - size % lanes


@_kernel
def log_softmax_inner(x, dim):
    """log_softmax over a dim that is not the last (float32): x - max - log(sum(exp(x - max)))."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    vector = _logsoftmax_vector_positions(x3.shape[2], x3.shape[1], lanes)[None, None, :]
    shifted = x3 - np.fmax.reduce(x3, axis=1, keepdims=True)     # (its max skips nans: blendv on >)
    e = _exp_by_position(vector, shifted, nonpositive=True)
    # (each sum is at least 1, exp(0) of the maximum, and at most dim_size, or nan)
    return (shifted - _logf(_running_sum(e), special=False)).reshape(x.shape)


@_kernel
def softmax_backward_inner(grad, output, dim):
    """softmax's gradient over a dim that is not the last: output * (grad - sum(grad * output)), the
    sum one fused multiply-add per number (the compiler fuses both the vector and the scalar loop)."""
    if _lanes() is None or grad.dtype != _F32 or output.dtype != _F32 or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    total = np.zeros((g.shape[0], 1, g.shape[2]), _F32)
    for d in range(g.shape[1]):
        total = _fma(g[:, d:d + 1], y[:, d:d + 1], total)
    return (y * (g - total)).reshape(grad.shape)


@_kernel
def log_softmax_backward_inner(grad, output, dim):
    """log_softmax's gradient over a dim that is not the last: grad - exp(output) * sum(grad), fused."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    vector = _logsoftmax_vector_positions(g.shape[2], g.shape[1], lanes)[None, None, :]
    total = _running_sum(g)
    e = _exp_by_position(vector, y)
    return _fma(-e, total, g).reshape(grad.shape)
