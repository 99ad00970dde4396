"""Ops: normalization and embedding (rows of the op table; see registry.py).

batch_norm, layer_norm and group_norm are one op each, as in PyTorch (NativeBatchNormBackward0,
NativeLayerNormBackward0, NativeGroupNormBackward0), with the normalized tensor's three inputs
(input, weight, bias). nn.functional computes the statistics first, as torch's kernels do (in
float64 for float32 input where torch accumulates in double), and passes them as parameters
(`mean`, `invstd`): the forward is then the affine map torch's kernel applies, in the input's
precision, and a plain backward reads the same statistics.

With create_graph the formulas recompute the statistics from the saved input with Tensor ops, so
a gradient of the gradient differentiates through them (torch's double-backward formulas give the
same values; its node names, NativeBatchNormBackwardBackward0 ..., are not reproduced).

Also here: `embedding` (EmbeddingBackward0) and `unsafe_split` (UnsafeSplitBackward0: torch's RNN
cells split their gates with unsafe_chunk, whose pieces are not views and may be changed in place).
"""
import os

import numpy as np

from .. import _parallel
from .._tensor_core import Tensor
from . import dual  # noqa: F401
from .registry import op
from .shape import cat


def _channel_shape(ndim):
    """(1, -1, 1, 1): a (C,) array reshaped to broadcast along dim 1 of an ndim-d tensor."""
    shape = [1] * ndim
    shape[1] = -1
    return tuple(shape)


def _per_channel(a, ndim):
    return a.reshape(_channel_shape(ndim))


# --- batch norm ---------------------------------------------------------------------------------------
def channel_sums(a, axes, b=None, forward=False):
    """Per-channel sums of `a` (or of a * b) over (N, C, ...) as torch's batch-norm kernels add them
    up, in float64 for float32 (one value per channel, returned as float64).

    (N, C) inputs (torch's "channels last" path, image size 1): each thread adds its block of rows in
    the input's precision (a product with one fused multiply-add), then the blocks are added in
    double. Larger images: added in double."""
    acc = np.float64 if a.dtype == np.float32 else a.dtype
    if a.ndim > 2 and a.size != a.shape[0] * a.shape[1]:
        return np.add.reduce(a if b is None else a * b, axis=axes, dtype=acc)
    rows = a.reshape(a.shape[0], -1)
    n, threads = rows.shape[0], _parallel.get_num_threads()   # (torch's threads, one block each)
    # (torch's forward statistics, as measured on 2.13: no more rows than threads make one block)
    chunk = n if forward and n <= threads else -(-n // threads)
    total = np.zeros(rows.shape[1], acc)
    if b is None:
        for start in range(0, n, chunk):
            total += np.add.reduce(rows[start:start + chunk], axis=0).astype(acc)
        return total
    # every thread's running sum at once, (blocks, C): one fused multiply-add per row of a block
    blocks = -(-n // chunk)
    pad = np.zeros((blocks * chunk - n, rows.shape[1]), rows.dtype)
    x = np.concatenate([rows, pad]).reshape(blocks, chunk, -1)
    y = np.concatenate([b.reshape(rows.shape), pad]).reshape(blocks, chunk, -1)
    partial = np.zeros((blocks, rows.shape[1]), rows.dtype)
    for i in range(chunk):
        partial = _fma(x[:, i], y[:, i], partial)
    for p in partial:
        total += p.astype(acc)
    return total


def _fma(a, b, c):
    """a * b + c rounded once: float32 through float64 (see _fma32); float64 as two roundings."""
    if a.dtype == np.float32:
        return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)
    return a * b + c


_VEC = 8       # floats in one of torch's CPU vectors (its kernels' main loops, measured)


def _image_size_one(x):
    return x.ndim <= 2 or x.size == x.shape[0] * x.shape[1]


# axes: the dims reduced (all but 1); mean/invstd: (C,) float arrays, the batch's statistics in
# training, the running ones otherwise (invstd = 1 / sqrt(running_var + eps)).

def _bn_grads(g, n):
    """(grad_input, grad_weight, grad_bias) of batch norm, computed once per backward."""
    cache = getattr(n, "_grads", None) if type(g) is np.ndarray else None
    if cache is not None and cache[0] is g:
        return cache[1]
    if type(g) is np.ndarray:
        grads = _bn_grads_arrays(g, n)
        n._grads = (g, grads)
        return grads
    return _bn_grads_tensors(g, n)


def _bn_grads_arrays(g, n):
    x, axes, nd = n.input, n.axes, n.input.ndim
    dtype = x.dtype
    invstd_c = n.invstd if n.training else n.grad_invstd
    mean, invstd = _per_channel(n.mean, nd), _per_channel(invstd_c, nd)
    w = _per_channel(n.weight, nd) if n.weight is not None else dtype.type(1)
    count = x.size // max(x.shape[1], 1) if nd > 1 else x.size
    xc = x - mean
    grad_sum = channel_sums(g, axes)
    dotp = channel_sums(xc, axes, g)
    if _image_size_one(x):     # torch's channels-last kernel: sums rounded to float, then float math
        grad_sum, dotp = grad_sum.astype(dtype), dotp.astype(dtype)
        k = _per_channel(dotp * invstd_c * invstd_c / dtype.type(count), nd)
        grad_mean = _per_channel(grad_sum / dtype.type(count), nd)
    else:                      # the contiguous kernel: k and the mean gradient from the double sums
        k = _per_channel((dotp * invstd_c.astype(dotp.dtype) ** 2 / count).astype(dtype), nd)
        grad_mean = _per_channel((grad_sum / count).astype(dtype), nd)
    if n.training:
        grad_input = (g - grad_mean - xc * k) * invstd * w
        if dtype == np.float32 and x.ndim == 2 and x.shape[1] >= _VEC:
            # torch's channels-last kernel: over whole 8-float vectors of channels the compiler fuses
            # dy - grad_mean - (x - mean) * k into one multiply-add (the remaining channels: as above)
            full = x.shape[1] - x.shape[1] % _VEC
            fused = _fma32(-xc[:, :full], k[:, :full], g[:, :full] - grad_mean[:, :full])
            grad_input[:, :full] = fused * invstd[:, :full] * (w[:, :full] if np.ndim(w) else w)
    else:
        grad_input = g * invstd * w
    grad_weight = (dotp * invstd_c).astype(dtype)
    return grad_input.astype(dtype, copy=False), grad_weight, grad_sum.astype(dtype)


def _bn_grads_tensors(g, n):
    x, axes, nd = n.input, n.axes, n.input.dim()
    if n.training:
        mean = x.mean(axes, keepdim=True)
        xc = x - mean
        invstd = ((xc * xc).mean(axes, keepdim=True) + n.eps).rsqrt()
    else:
        xc = x - Tensor._make(_per_channel(n.mean, nd))
        invstd = Tensor._make(_per_channel(n.grad_invstd, nd))
    xhat = xc * invstd
    w = n.weight.reshape(_channel_shape(nd)) if n.weight is not None else 1.0
    gw = g * w
    if n.training:
        grad_input = (gw - gw.mean(axes, keepdim=True) - xhat * (gw * xhat).mean(axes, keepdim=True)) * invstd
    else:
        grad_input = gw * invstd
    return grad_input, (g * xhat).sum(axes), g.sum(axes)


# The texts: per-channel vectors (mean, invstd, weight: shape (C,)) broadcast against the input with its channel
# dim moved last; in training xhat = (x - mean) * invstd and
# grad_input = (grad * w - mean(grad * w) - xhat * mean(grad * w * xhat)) * invstd (means over all but the channel).
_W = "(1 if weight is None else weight)"
_BN_GW = f"grad.movedim(1, -1) * {_W}"
_BN_XHAT = "(input.movedim(1, -1) - mean) * invstd"
_BN_SHOWS = {
    "input": f"(({_BN_GW} - ({_BN_GW}).flatten(0, -2).mean(0) - {_BN_XHAT} * ({_BN_GW} * {_BN_XHAT}).flatten(0, -2)"
             f".mean(0)) * invstd).movedim(-1, 1) if training else (grad.movedim(1, -1) * {_W} * grad_invstd).movedim(-1, 1)",
    "weight": "(grad.movedim(1, -1) * (input.movedim(1, -1) - mean)).flatten(0, -2).sum(0)"
              " * (invstd if training else grad_invstd)",
    "bias": "grad.sum(axes)"}


@op("native_batch_norm", "NativeBatchNormBackward0", ("input", "weight", "bias"), saves=("input", "weight"), variants=("function",),
    promote=False, shows=_BN_SHOWS,
    input=lambda g, n: _bn_grads(g, n)[0],
    weight=lambda g, n: _bn_grads(g, n)[1],
    bias=lambda g, n: _bn_grads(g, n)[2])
def native_batch_norm(input, weight, bias, mean, invstd, training, eps, axes, grad_invstd=None):
    # torch's batch_norm_cpu_collect_linear_and_constant_terms: y = x * alpha + beta, per channel, both
    # steps one fused multiply-add in its float32 kernel
    dtype = input.dtype
    alpha = invstd.astype(dtype) if weight is None else invstd.astype(dtype) * weight
    nd = input.ndim
    if dtype == np.float32:
        beta = _fma32(-mean, alpha, bias if bias is not None else 0)
        return _fma32(input, _per_channel(alpha, nd), _per_channel(beta, nd))
    beta = -mean.astype(dtype) * alpha
    if bias is not None:
        beta = bias + beta
    return input * _per_channel(alpha, nd) + _per_channel(beta, nd)


def _fma32(a, b, c):
    """float32 a * b + c rounded once (the product is exact in float64; the sum's double rounding is
    off only in rare ties)."""
    return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)


# --- layer norm ------------------------------------------------------------------------------------
# axes: the normalized (trailing) dims; mean/rstd: arrays shaped like the input with those dims 1.

def _ln_grads(g, n):
    cache = getattr(n, "_grads", None) if type(g) is np.ndarray else None
    if cache is not None and cache[0] is g:
        return cache[1]
    if type(g) is np.ndarray:
        x, axes = n.input, n.axes
        lead = tuple(range(x.ndim - len(axes)))
        xhat = (x - n.mean) * n.rstd
        gw = g if n.weight is None else g * n.weight
        count = max(int(np.prod([x.shape[a] for a in axes])), 1)
        acc = np.float64 if x.dtype == np.float32 else x.dtype
        a = (np.add.reduce(gw, axis=axes, keepdims=True, dtype=acc) / count).astype(x.dtype)
        b = (np.add.reduce(gw * xhat, axis=axes, keepdims=True, dtype=acc) / count).astype(x.dtype)
        grad_input = (gw - a - xhat * b) * n.rstd
        grads = (grad_input, np.add.reduce(g * xhat, axis=lead), np.add.reduce(g, axis=lead))
        n._grads = (g, grads)
        return grads
    x, axes = n.input, n.axes
    lead = tuple(range(x.dim() - len(axes)))
    mean = x.mean(axes, keepdim=True)
    xc = x - mean
    rstd = ((xc * xc).mean(axes, keepdim=True) + n.eps).rsqrt()
    xhat = xc * rstd
    gw = g if n.weight is None else g * n.weight
    grad_input = (gw - gw.mean(axes, keepdim=True) - xhat * (gw * xhat).mean(axes, keepdim=True)) * rstd
    return grad_input, (g * xhat).sum(lead) if lead else g * xhat, g.sum(lead) if lead else g


# (the weight's and bias's texts give them at the input's shape: the node sums them over the leading dims)
_LN_GW = f"grad * {_W}"
_LN_XHAT = "(input - mean) * rstd"
_LN_SHOWS = {
    "input": f"({_LN_GW} - ({_LN_GW}).mean(axes, keepdim=True) - {_LN_XHAT} * ({_LN_GW} * {_LN_XHAT})"
             ".mean(axes, keepdim=True)) * rstd",
    "weight": f"grad * {_LN_XHAT}",
    "bias": "grad"}


@op("native_layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"), saves=("input", "weight"), variants=("function",),
    promote=False, shows=_LN_SHOWS,
    input=lambda g, n: _ln_grads(g, n)[0],
    weight=lambda g, n: _ln_grads(g, n)[1],
    bias=lambda g, n: _ln_grads(g, n)[2])
def native_layer_norm(input, weight, bias, mean, rstd, eps, axes):
    # torch's LayerNormKernelImplInternal: (x - mean) * rstd, then * gamma + beta in one fused
    # multiply-add (float32)
    out = (input - mean) * rstd
    if weight is not None and input.dtype == np.float32:
        return _fma32(out, weight, bias if bias is not None else 0)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


# --- group norm ------------------------------------------------------------------------------------
# The input viewed as (N, G, rest): mean/rstd are (N, G, 1); the affine map is per channel.

def _gn_grads(g, n):
    cache = getattr(n, "_grads", None) if type(g) is np.ndarray else None
    if cache is not None and cache[0] is g:
        return cache[1]
    shape, groups = n.input_shape, n.groups
    nd = len(shape)
    axes = (0,) + tuple(range(2, nd))
    if type(g) is np.ndarray:
        x = n.input.reshape(shape[0], groups, -1)
        xhat = ((x - n.mean) * n.rstd).reshape(shape)
        gw = g if n.weight is None else g * _per_channel(n.weight, nd)
        gw3 = gw.reshape(shape[0], groups, -1)
        xh3 = xhat.reshape(shape[0], groups, -1)
        grad_input = ((gw3 - gw3.mean(2, keepdims=True) - xh3 * (gw3 * xh3).mean(2, keepdims=True))
                      * n.rstd).reshape(shape).astype(x.dtype, copy=False)
        grads = (grad_input, np.add.reduce(g * xhat, axis=axes), np.add.reduce(g, axis=axes))
        n._grads = (g, grads)
        return grads
    x = n.input.reshape(shape[0], groups, -1)
    xc = x - x.mean(2, keepdim=True)
    rstd = ((xc * xc).mean(2, keepdim=True) + n.eps).rsqrt()
    xh3 = xc * rstd
    xhat = xh3.reshape(shape)
    gw = g if n.weight is None else g * n.weight.reshape(_channel_shape(nd))
    gw3 = gw.reshape(shape[0], groups, -1)
    grad_input = ((gw3 - gw3.mean(2, keepdim=True) - xh3 * (gw3 * xh3).mean(2, keepdim=True)) * rstd).reshape(shape)
    return grad_input, (g * xhat).sum(axes), g.sum(axes)


# (the texts view the input as (N, groups, rest), where mean and rstd (N, groups, 1) broadcast)
_GN_GW = f"(grad.movedim(1, -1) * {_W}).movedim(-1, 1).reshape(input_shape[0], groups, -1)"
_GN_XHAT = "(input.reshape(input_shape[0], groups, -1) - mean) * rstd"
_GN_SHOWS = {
    "input": f"(({_GN_GW} - ({_GN_GW}).mean(2, keepdim=True) - {_GN_XHAT} * ({_GN_GW} * {_GN_XHAT})"
             ".mean(2, keepdim=True)) * rstd).reshape(input_shape)",
    "weight": f"(grad * ({_GN_XHAT}).reshape(input_shape)).transpose(0, 1).flatten(1).sum(1)",
    "bias": "grad.transpose(0, 1).flatten(1).sum(1)"}


@op("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"), saves=("input", "weight"), variants=("function",),
    promote=False, shows=_GN_SHOWS,
    input=lambda g, n: _gn_grads(g, n)[0],
    weight=lambda g, n: _gn_grads(g, n)[1],
    bias=lambda g, n: _gn_grads(g, n)[2])
def native_group_norm(input, weight, bias, mean, rstd, eps, groups, input_shape):
    nd = input.ndim
    x = input.reshape(input.shape[0], groups, -1)
    out = ((x - mean) * rstd).reshape(input.shape)
    if weight is not None:
        out = out * _per_channel(weight, nd)
    if bias is not None:
        out = out + _per_channel(bias, nd)
    return out.astype(input.dtype, copy=False)


# --- embedding -------------------------------------------------------------------------------------

def _embedding_grad(g, n):
    return dual.call("embedding_dense_backward", g, indices=n.indices, num_weights=n.num_weights,
                     padding_idx=n.padding_idx, scale_grad_by_freq=n.scale_grad_by_freq)


# (its text: grad's rows added into zeros at the indices; the padding row gets none)
@op("embedding", "EmbeddingBackward0", ("weight",), weight=_embedding_grad,
    shows={"weight": "grad.new_zeros(num_weights, grad.shape[-1]).index_add(0, indices.flatten(), grad.reshape(-1, "
                     "grad.shape[-1]) / (bincount(indices.flatten(), minlength=num_weights)[indices.flatten()]"
                     ".unsqueeze(-1) if scale_grad_by_freq else 1)) * (arange(num_weights) != padding_idx).unsqueeze(-1)"})
def embedding(weight, indices, num_weights, padding_idx=-1, scale_grad_by_freq=False, zero_padding=False):
    out = weight[indices]
    if zero_padding and padding_idx >= 0:     # (the gradient of embedding_dense_backward: padding rows get none)
        out[indices == padding_idx] = 0
    return out


# its gradient: the incoming gradient gathered at the indices (torch's embedding_dense_double_backward)
@op("embedding_dense_backward", "EmbeddingDenseBackwardBackward0", ("grad_output",),
    shows={"grad_output": "grad[indices] * (indices != padding_idx).unsqueeze(-1)"},
    grad_output=lambda g, n: dual.call("embedding", g, indices=n.indices, num_weights=n.num_weights,
                                       padding_idx=n.padding_idx, zero_padding=True))
def embedding_dense_backward(grad_output, indices, num_weights, padding_idx=-1, scale_grad_by_freq=False):
    dim = grad_output.shape[-1]
    flat = indices.reshape(-1)
    rows = grad_output.reshape(-1, dim)
    if scale_grad_by_freq:
        counts = np.bincount(flat, minlength=num_weights)
        rows = rows / counts[flat][:, None].astype(rows.dtype)
    if padding_idx >= 0:
        keep = flat != padding_idx
        flat, rows = flat[keep], rows[keep]
    out = np.zeros((num_weights, dim), grad_output.dtype)
    np.add.at(out, flat, rows)
    return out


# --- unsafe_split ----------------------------------------------------------------------------------

def _join(grads, n):
    if type(grads[0]) is np.ndarray:
        return np.concatenate(grads, axis=n.dim)
    return cat(list(grads), n.dim)


@op("unsafe_split", "UnsafeSplitBackward0", variants=("function", "method"), promote=False, num_outputs=-1, shows={"self": "cat(grads, dim)"},
    self=_join)
def unsafe_split(self, dim, sections):
    return tuple(np.split(self, sections, axis=dim))     # (PyTorch's pieces share self's memory, not as views)
