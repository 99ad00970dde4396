"""Ops: normalization and embedding (rows of the op table; see registry.py).

batch_norm, layer_norm and group_norm are one op each, as in PyTorch (NativeBatchNormBackward0,
NativeLayerNormBackward0, NativeGroupNormBackward0), with the normalized tensor's three inputs
(input, weight, bias). nn.functional computes the statistics first, as torch's kernels do (in
float64 for float32 input where torch accumulates in double), and passes them as parameters
(`mean`, `invstd`): the forward is then the affine map torch's kernel applies, in the input's
precision, and a plain backward reads the same statistics.

With create_graph a gradient is, as in PyTorch, the output of a backward op of its own
(native_batch_norm_backward: NativeBatchNormBackwardBackward0; native_layer_norm_backward), whose
formulas are FunctionsManual.cpp's double backward op for op (batchnorm_double_backward, ...).

Also here: `embedding` (EmbeddingBackward0) and `unsafe_split` (UnsafeSplitBackward0: torch's RNN
cells split their gates with unsafe_chunk, whose pieces are not views and may be changed in place).
"""
import math
import os
import types

import numpy as np

from .. import _parallel
from .._tensor_core import Tensor
from . import dual  # noqa: F401
from .double_backward import masked, node_of, on_tensors, once, output_mask, placeholders
from .registry import OPS, op
from .shape import cat
from .vectorized.sleef_double import fma64


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
        if a.dtype == np.float64 and forward:
            # torch's float64 kernel (batch_norm_cpu_collect_stats_contiguous_impl): one running sum per channel,
            # element after element, batch then image position (cumsum adds in that order)
            terms = a if b is None else a * b
            size = a.size // (a.shape[0] * a.shape[1])
            if b is None or size % 2 == 0:
                return np.cumsum(np.moveaxis(terms, 1, 0).reshape(a.shape[1], -1), axis=1)[:, -1]
            # the variance's sum over an odd image size: the compiler unrolled the loop by two, and the
            # last element of each (n, c) row is added with a fused multiply-add (measured: 562 of 562)
            rows = [np.moveaxis(v, 1, 0).reshape(a.shape[1], a.shape[0], size) for v in (terms, a, b)]
            total = np.zeros(a.shape[1])
            for n in range(a.shape[0]):
                total = np.cumsum(np.concatenate([total[:, None], rows[0][:, n, :-1]], axis=1), axis=1)[:, -1]
                total = fma64(rows[1][:, n, -1], rows[2][:, n, -1], total)
            return total
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
    """a * b + c rounded once: float32 through float64 (see _fma32), float64 by fma64."""
    if a.dtype == np.float32:
        return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)
    if a.dtype == np.float64:
        return fma64(a, b, c)
    return a * b + c


_VEC = 8       # floats in one of torch's CPU vectors (its kernels' main loops, measured)


def _vec4_sums64(dy, xc):
    """(sum of dy, sum of xc * dy) per channel of float64 (N, C, S) arrays, as PyTorch's
    batch_norm_cpu_backward_contiguous_impl adds them up: for each (n, c) row, vec::reduce_all and
    vec::map2_reduce_all over vectors of 4 doubles (one running vector: lane j adds the row's elements
    j, j + 4, ...; a ragged tail adds into the first lanes; then lane 0 + lane 1 + lane 2 + lane 3, in that
    order; rows shorter than 4: their elements in order), then the rows of each channel in batch order.
    The products of xc * dy are rounded before each vector addition in the main loop, but fused into it
    (one fused multiply-add) in the tail: that is how the compiler built it (measured, 355 of 355 cases)."""
    n, c, size = dy.shape
    prods = xc * dy
    if size < 4:
        row_sum, row_dot = dy[..., 0], prods[..., 0]
        for i in range(1, size):
            row_sum, row_dot = row_sum + dy[..., i], row_dot + prods[..., i]
    else:
        full = size - size % 4
        # vector after vector, added in order: cumsum's running sum over the whole vectors
        lanes = np.cumsum(dy[..., :full].reshape(n, c, -1, 4), axis=2)[:, :, -1]
        dot_lanes = np.cumsum(prods[..., :full].reshape(n, c, -1, 4), axis=2)[:, :, -1]
        tail = size - full
        if tail:
            lanes[..., :tail] += dy[..., full:]
            dot_lanes[..., :tail] = fma64(xc[..., full:], dy[..., full:], dot_lanes[..., :tail])
        row_sum = ((lanes[..., 0] + lanes[..., 1]) + lanes[..., 2]) + lanes[..., 3]
        row_dot = ((dot_lanes[..., 0] + dot_lanes[..., 1]) + dot_lanes[..., 2]) + dot_lanes[..., 3]
    # accscalar_t sum = 0, then += each row's, batch after batch (cumsum: that order)
    zeros = np.zeros((1, c))
    return (np.cumsum(np.concatenate([zeros, row_sum]), axis=0)[-1],
            np.cumsum(np.concatenate([zeros, row_dot]), axis=0)[-1])


def _image_size_one(x):
    return x.ndim <= 2 or x.size == x.shape[0] * x.shape[1]


# axes: the dims reduced (all but 1); mean/invstd: (C,) float arrays, the batch's statistics in
# training, the running ones otherwise (invstd = 1 / sqrt(running_var + eps)).

@once
def _bn_grads(g, n):
    """(grad_input, grad_weight, grad_bias) of batch norm, computed once per backward."""
    if type(g) is np.ndarray:
        return _bn_grads_arrays(g, n)
    # create_graph: PyTorch's native_batch_norm_backward, an op (NativeBatchNormBackwardBackward0)
    return OPS["native_batch_norm_backward"](
        g, n.input, n.weight, Tensor._make(n.mean), Tensor._make(n.invstd), mean=n.mean, invstd=n.invstd,
        grad_invstd=n.grad_invstd, training=n.training, eps=n.eps, axes=n.axes, output_mask=output_mask(n))


def _bn_grads_arrays(g, n):
    x, axes, nd = n.input, n.axes, n.input.ndim
    dtype = x.dtype
    invstd_c = n.invstd if n.training else n.grad_invstd
    mean, invstd = _per_channel(n.mean, nd), _per_channel(invstd_c, nd)
    w = _per_channel(n.weight, nd) if n.weight is not None else dtype.type(1)
    count = x.size // max(x.shape[1], 1) if nd > 1 else x.size
    xc = x - mean
    if dtype == np.float64 and not _image_size_one(x):
        # torch's contiguous kernel, which float64 (N, C, ...) inputs take: its own sums and operation order
        return _bn_grads_contiguous64(g, x.shape, xc.reshape(x.shape[0], x.shape[1], -1), invstd_c, n)
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
        elif dtype == np.float64 and x.ndim == 2 and x.shape[1] >= _VEC // 2:
            # (the same in float64, over whole vectors of 4 doubles: measured on 150 random (N, C) cases)
            full = x.shape[1] - x.shape[1] % (_VEC // 2)
            fused = fma64(-xc[:, :full], k[:, :full], g[:, :full] - grad_mean[:, :full])
            grad_input[:, :full] = fused * invstd[:, :full] * (w[:, :full] if np.ndim(w) else w)
    else:
        grad_input = g * invstd * w
    grad_weight = (dotp * invstd_c).astype(dtype)
    return grad_input.astype(dtype, copy=False), grad_weight, grad_sum.astype(dtype)


def _bn_grads_contiguous64(g, shape, xc, invstd, n):
    """batch_norm_cpu_backward_contiguous_impl for float64: per channel, the sums (_vec4_sums64), then
    k = dotp * invstd * invstd / N and grad_mean = sum / N in that order, and each element's
    (dy - grad_mean - (x - mean) * k) * invstd * w, whose first part the compiler made one fused
    multiply-add (measured with the sums: 355 of 355 random (N, C, L) and (N, C, H, W) cases)."""
    dy = np.ascontiguousarray(g, dtype=np.float64).reshape(xc.shape)
    grad_sum, dotp = _vec4_sums64(dy, xc)
    count = xc.shape[0] * xc.shape[2]
    w = n.weight if n.weight is not None else np.ones(xc.shape[1])
    col = lambda v: v.reshape(1, -1, 1)     # noqa: E731  (a (C,) vector along dim 1)
    if n.training:
        k = dotp * invstd * invstd / count
        grad_mean = grad_sum / count
        fused = fma64(-xc, np.broadcast_to(col(k), xc.shape), dy - col(grad_mean))
        grad_input = fused * col(invstd) * col(w)
    else:
        grad_input = dy * col(invstd) * col(w)
    return grad_input.reshape(shape), dotp * invstd, grad_sum


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
    # steps one fused multiply-add in its float32 and float64 kernels
    dtype = input.dtype
    alpha = invstd.astype(dtype) if weight is None else invstd.astype(dtype) * weight
    nd = input.ndim
    if dtype == np.float32:
        beta = _fma32(-mean, alpha, bias if bias is not None else 0)
        return _fma32(input, _per_channel(alpha, nd), _per_channel(beta, nd))
    if dtype == np.float64 and input.size:
        beta = fma64(-mean.astype(dtype), alpha, bias if bias is not None else 0)
        return np.broadcast_to(fma64(input, _per_channel(alpha, nd), _per_channel(beta, nd)), input.shape)
    beta = -mean.astype(dtype) * alpha
    if bias is not None:
        beta = bias + beta
    return input * _per_channel(alpha, nd) + _per_channel(beta, nd)


def _sum_exclude_dim1(t, keepdim=True):
    """FunctionsManual's sum_exclude_dim1: t summed over every dim but 1, one dim at a time."""
    r = t.sum(0, keepdim)
    for dim in range(r.dim() - 1, 1 if keepdim else 0, -1):
        r = r.sum(dim, keepdim)
    return r


def _unsqueeze_dim1(src, target):
    """FunctionsManual's unsqueeze_dim1: a (C,) vector shaped to broadcast along dim 1 of target."""
    while src.dim() < target.dim() - 1:
        src = src.unsqueeze(1)
    return src.unsqueeze(0) if src.dim() == target.dim() - 1 else src


def _expand_as_dim1(src, target):
    while src.dim() < target.dim() - 1:
        src = src.unsqueeze(1)
    return src.expand_as(target)


@once
def _batchnorm_double_backward(grads, n):
    """PyTorch's batchnorm_double_backward (FunctionsManual.cpp) op for op: (gI, gG, ggO) from the gradients
    ggI, ggG, ggB of native_batch_norm_backward's three outputs (see double_backward.on_tensors)."""
    with on_tensors(grads) as (T, wrap):
        ggI, ggG, ggB = (T(gi) for gi in masked(grads, n.output_mask))
        input, gamma, gO, training = T(n.input), T(n.weight), T(n.grad_out), n.training
        dtype = dual.data(input).dtype
        affine = gamma is not None
        ggG_expanded = ggB_expanded = None
        if affine:
            gamma_expanded = _expand_as_dim1(gamma, input)
            if ggG is not None:
                ggG_expanded = _expand_as_dim1(ggG, input)
            if ggB is not None:
                ggB_expanded = _expand_as_dim1(ggB, input)
        else:
            gamma_expanded = T(np.ones((), dtype))
        M = input.shape[0] * math.prod(input.shape[2:])
        # (eval: the running statistics; gradlab keeps 1 / sqrt(running_var + eps), as its double rounding)
        mu = _unsqueeze_dim1(T(n.save_mean) if training else T(n.mean), input)
        input_sub_mu = input - mu
        sigma2_eps_neg_1_2 = _unsqueeze_dim1(T(n.save_invstd) if training else T(n.grad_invstd), input)
        sigma2_eps_neg_1 = sigma2_eps_neg_1_2.pow(2)
        sigma2_eps_neg_3_2 = sigma2_eps_neg_1_2.pow(3)
        input_mu_sigma2_neg_3_2 = input_sub_mu * sigma2_eps_neg_3_2
        gOinmu_sum = _sum_exclude_dim1(gO * input_sub_mu)
        gO_sum = _sum_exclude_dim1(gO)
        gI = None
        if ggI is not None and training:
            ggI_sum = _sum_exclude_dim1(ggI)
            ggIinmu_sum = _sum_exclude_dim1(ggI * input_sub_mu)
            all_sub = (dual.div_scalar(ggI_sum * gO_sum, M) - _sum_exclude_dim1(gO * ggI)
                       + dual.mul_scalar(sigma2_eps_neg_1 * gOinmu_sum * ggIinmu_sum, 3. / M))
            gI_0t = dual.div_scalar(input_mu_sigma2_neg_3_2 * all_sub, M)
            gI_1t = dual.div_scalar(ggIinmu_sum * sigma2_eps_neg_3_2, M) * (dual.div_scalar(gO_sum, M) - gO)
            gI_2t = dual.div_scalar(gOinmu_sum * sigma2_eps_neg_3_2, M) * (dual.div_scalar(ggI_sum, M) - ggI)
            gI = gamma_expanded * (gI_0t + gI_1t + gI_2t)
        if affine and ggG is not None:
            if training:
                t0 = gO * sigma2_eps_neg_1_2
                t1 = dual.div_scalar(sigma2_eps_neg_1_2 * gO_sum, -M)
                t2 = dual.div_scalar(input_mu_sigma2_neg_3_2 * _sum_exclude_dim1(gO * input_sub_mu), -M)
                gI_G_term = ggG_expanded * (t0 + t1 + t2)
            else:
                gI_G_term = ggG_expanded * sigma2_eps_neg_1_2 * gO
            gI = gI_G_term if gI is None else gI + gI_G_term

        def first_back_grad_input(gO, gamma):
            h0 = dual.div_scalar(gamma * sigma2_eps_neg_1_2, M)
            h1 = (dual.mul_scalar(gO, M) - _sum_exclude_dim1(gO)
                  - input_sub_mu * sigma2_eps_neg_1 * _sum_exclude_dim1(gO * input_sub_mu))
            return h0 * h1

        gG = None
        if affine and ggI is not None:
            if training:
                gG = ggI * first_back_grad_input(gO, T(np.ones((), dtype)))
                gG = _sum_exclude_dim1(gG, False)
            else:
                gG = _sum_exclude_dim1(ggI * gO * sigma2_eps_neg_1_2, False)
        ggO = None
        if ggI is not None:
            ggO = first_back_grad_input(ggI, gamma_expanded) if training else ggI * sigma2_eps_neg_1_2 * gamma_expanded
        if ggG_expanded is not None:
            ggO_G_term = ggG_expanded * input_sub_mu * sigma2_eps_neg_1_2
            ggO = ggO_G_term if ggO is None else ggO + ggO_G_term
        if ggB_expanded is not None:
            ggO = ggB_expanded if ggO is None else ggO + ggB_expanded
        return tuple(wrap(t) for t in (gI, gG, ggO))


def _bn_channel(v):
    return f"({v}).reshape([1, -1] + [1] * (input.dim() - 2))"


def _bn_mean(t):
    return f"({t}).mean(axes, keepdim=True)"


def _bn_input_grad_text(h):
    """batch norm's (training) input gradient for an incoming gradient h, before its weight."""
    return f"{_BNB_CI} * ({h} - {_bn_mean(h)} - {_BNB_X} * {_bn_mean(f'{h} * {_BNB_X}')})"


# (texts: (C,) vectors viewed along dim 1; X is the normalized input, ci the inverse deviation)
_BNB_W = f"(1 if weight is None else {_bn_channel('weight')})"
_BNB_CI = _bn_channel("save_invstd if training else grad_invstd")
_BNB_X = f"((input - {_bn_channel('save_mean if training else mean')}) * {_BNB_CI})"
_BNB_SHOWS = {
    "grad_out": f"({_BNB_W} * {_bn_input_grad_text('grads[0]')} if training else grads[0] * {_BNB_CI} * {_BNB_W})"
                f" + (0 if weight is None or grads[1] is None else {_bn_channel('grads[1]')} * {_BNB_X})"
                f" + (0 if weight is None or grads[2] is None else {_bn_channel('grads[2]')})",
    "input": f"({_BNB_W} * {_BNB_CI} * {_BNB_CI} * ({_BNB_X} * ({_bn_mean('grads[0]')} * {_bn_mean('grad_out')}"
             f" - {_bn_mean('grads[0] * grad_out')} + 3 * {_bn_mean(f'grad_out * {_BNB_X}')}"
             f" * {_bn_mean(f'grads[0] * {_BNB_X}')}) + {_bn_mean(f'grads[0] * {_BNB_X}')}"
             f" * ({_bn_mean('grad_out')} - grad_out) + {_bn_mean(f'grad_out * {_BNB_X}')}"
             f" * ({_bn_mean('grads[0]')} - grads[0])) if training else 0)"
             f" + (0 if weight is None or grads[1] is None else {_bn_channel('grads[1]')} * ({_bn_input_grad_text('grad_out')}"
             f" if training else {_BNB_CI} * grad_out))",
    "weight": f"(grads[0] * ({_bn_input_grad_text('grad_out')} if training else {_BNB_CI} * grad_out)).sum(axes)"}


@op("native_batch_norm_backward", "NativeBatchNormBackwardBackward0",
    ("grad_out", "input", "weight", "save_mean", "save_invstd"), num_outputs=3, promote=False, undefined_grads=True,
    saves=("grad_out", "input", "weight", "save_mean", "save_invstd"), shows=_BNB_SHOWS,
    grad_out=lambda g, n: _batchnorm_double_backward(g, n)[2],
    input=lambda g, n: _batchnorm_double_backward(g, n)[0],
    weight=lambda g, n: _batchnorm_double_backward(g, n)[1])
def native_batch_norm_backward(grad_out, input, weight, save_mean, save_invstd, mean, invstd, grad_invstd, training,
                               eps, axes, output_mask):
    """The gradients of native_batch_norm for its input, weight and bias (those output_mask asks for; the others
    are zeros PyTorch leaves undefined), as its kernel computes them."""
    stats = types.SimpleNamespace(input=input, weight=weight, mean=mean, invstd=invstd, grad_invstd=grad_invstd,
                                  training=training, axes=axes)
    grads = _bn_grads_arrays(grad_out, stats)
    return placeholders(grads, output_mask)


def _fma32(a, b, c):
    """float32 a * b + c rounded once (the product is exact in float64; the sum's double rounding is
    off only in rare ties)."""
    return (np.multiply(a, b, dtype=np.float64) + c).astype(np.float32)


# --- layer norm ------------------------------------------------------------------------------------
# axes: the normalized (trailing) dims; mean/rstd: arrays shaped like the input with those dims 1.

def _ln_backward_arrays(g, x, mean, rstd, weight, axes):
    """(grad_input, grad_weight, grad_bias) of layer norm on arrays, as torch's kernel computes them."""
    lead = tuple(range(x.ndim - len(axes)))
    xhat = (x - mean) * rstd
    gw = g if weight is None else g * weight
    count = max(int(np.prod([x.shape[a] for a in axes])), 1)
    acc = np.float64 if x.dtype == np.float32 else x.dtype
    a = (np.add.reduce(gw, axis=axes, keepdims=True, dtype=acc) / count).astype(x.dtype)
    b = (np.add.reduce(gw * xhat, axis=axes, keepdims=True, dtype=acc) / count).astype(x.dtype)
    grad_input = (gw - a - xhat * b) * rstd
    return grad_input, np.add.reduce(g * xhat, axis=lead), np.add.reduce(g, axis=lead)


@once
def _ln_grads(g, n):
    if type(g) is np.ndarray:
        return _ln_backward_arrays(g, n.input, n.mean, n.rstd, n.weight, n.axes)
    # create_graph: PyTorch's native_layer_norm_backward, an op (NativeLayerNormBackwardBackward0)
    return OPS["native_layer_norm_backward"](g, n.input, Tensor._make(n.mean), Tensor._make(n.rstd), n.weight,
                                             n.bias, axes=n.axes, output_mask=output_mask(n))


# (the weight's and bias's texts give them at the input's shape: the node sums them over the leading dims)
_LN_GW = f"grad * {_W}"
_LN_XHAT = "(input - mean) * rstd"
_LN_SHOWS = {
    "input": f"({_LN_GW} - ({_LN_GW}).mean(axes, keepdim=True) - {_LN_XHAT} * ({_LN_GW} * {_LN_XHAT})"
             ".mean(axes, keepdim=True)) * rstd",
    "weight": f"grad * {_LN_XHAT}",
    "bias": "grad"}


@op("native_layer_norm", "NativeLayerNormBackward0", ("input", "weight", "bias"), saves=("input", "weight", "bias"),
    variants=("function",),
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


@once
def _layer_norm_double_backward(grads, n):
    """PyTorch's layer_norm_double_backward (FunctionsManual.cpp) op for op: (gI, gG, ggO) from the gradients
    ggI, ggG, ggB of native_layer_norm_backward's three outputs. Run on Tensors (a plain backward: under
    no_grad, on the arrays as Tensors)."""
    with on_tensors(grads) as (T, wrap):
        ggI, ggG, ggB = (T(gi) for gi in masked(grads, n.output_mask))
        input_t, gO_t, gamma = T(n.input), T(n.grad_out), T(n.weight)
        save_mean_t, save_invstd_t = T(n.mean), T(n.rstd)
        shape = input_t.shape
        axis = len(shape) - len(n.axes)
        M, N = math.prod(shape[:axis]), math.prod(shape[axis:])
        input, gO = input_t.reshape(M, N), gO_t.reshape(M, N)
        save_mean, save_invstd = save_mean_t.reshape(M, 1), save_invstd_t.reshape(M, 1)
        affine = gamma is not None
        if affine:
            gamma_expanded = gamma.reshape(1, N)
            ggG_expanded = ggG.reshape(1, N) if ggG is not None else None
            ggB_expanded = ggB.reshape(1, N) if ggB is not None else None
        else:
            gamma_expanded = T(np.ones(1, dual.data(input).dtype))
            ggG_expanded = ggB_expanded = None
        ggI_expanded = ggI.reshape(M, N) if ggI is not None else None
        mu = save_mean
        input_sub_mu = input - mu
        sigma2_eps_neg_1_2 = save_invstd
        sigma2_eps_neg_1 = sigma2_eps_neg_1_2.pow(2)
        sigma2_eps_neg_3_2 = sigma2_eps_neg_1_2.pow(3)
        input_mu_sigma2_neg_3_2 = input_sub_mu * sigma2_eps_neg_3_2
        gI = None
        if ggI is not None:
            gxhat = gO * gamma_expanded
            gxhat_mu_sum = (gxhat * input_sub_mu).sum(1, True)
            gxhat_sum = gxhat.sum(1, True)
            ggI_sum = ggI_expanded.sum(1, True)
            ggI_mu_sum = (ggI_expanded * input_sub_mu).sum(1, True)
            all_sub = (dual.div_scalar(ggI_sum * gxhat_sum, N) - (ggI_expanded * gxhat).sum(1, True)
                       + dual.mul_scalar(sigma2_eps_neg_1 * gxhat_mu_sum * ggI_mu_sum, 3. / N))
            gI_0t = dual.div_scalar(input_mu_sigma2_neg_3_2 * all_sub, N)
            gI_1t = dual.div_scalar(ggI_mu_sum * sigma2_eps_neg_3_2, N) * (dual.div_scalar(gxhat_sum, N) - gxhat)
            gI_2t = dual.div_scalar(gxhat_mu_sum * sigma2_eps_neg_3_2, N) * (dual.div_scalar(ggI_sum, N)
                                                                            - ggI_expanded)
            gI = gI_0t + gI_1t + gI_2t
        if affine and ggG is not None:
            t0 = gO * ggG_expanded * sigma2_eps_neg_1_2
            t1 = dual.div_scalar(sigma2_eps_neg_1_2 * (gO * ggG_expanded).sum(1, True), -N)
            t2 = dual.div_scalar(input_mu_sigma2_neg_3_2 * (gO * ggG_expanded * input_sub_mu).sum(1, True), -N)
            gI_G_term = t0 + t1 + t2
            gI = gI_G_term if gI is None else gI + gI_G_term
        if gI is not None:
            gI = gI.reshape(shape)

        def first_bwd_fn_grad_input(gO_local, gamma_local):
            h0 = dual.div_scalar(gamma_local * sigma2_eps_neg_1_2, N)
            h1 = (dual.mul_scalar(gO_local, N) - gO_local.sum(1, True)
                  - input_sub_mu * sigma2_eps_neg_1 * (gO_local * input_sub_mu).sum(1, True))
            return h0 * h1

        gG = None
        if affine and ggI is not None:
            gG = first_bwd_fn_grad_input(ggI_expanded, T(np.ones((), dual.data(input).dtype)))
            gG = (gO * gG).sum(0).reshape(gamma.shape)
        ggO = None
        if ggI is not None:
            ggO = first_bwd_fn_grad_input(ggI_expanded, gamma_expanded)
        if ggG_expanded is not None:
            ggO_G_term = ggG_expanded * input_sub_mu * sigma2_eps_neg_1_2
            ggO = ggO_G_term if ggO is None else ggO + ggO_G_term
        if ggB_expanded is not None:
            ggO = ggB_expanded if ggO is None else ggO + ggB_expanded
        if ggO is not None:
            ggO = ggO.expand(M, N).reshape(shape)
        return tuple(wrap(t) for t in (gI, gG, ggO))


# (texts: what native_layer_norm_backward's three outputs' gradients (grads[0] for the input's, grads[1] the
# weight's, grads[2] the bias's) give each input, written with the layer norm's own gradient)
def _ln_mean(t):
    return f"({t}).mean(axes, keepdim=True)"


def _ln_input_grad_text(h):
    """layer norm's input gradient for an incoming gradient h (with its weight already applied)."""
    return f"rstd * ({h} - {_ln_mean(h)} - {_LNB_XHAT} * {_ln_mean(f'{h} * {_LNB_XHAT}')})"


_LNB_XHAT = "((input - mean) * rstd)"
_LNB_GX = "(grad_out * (1 if weight is None else weight))"
_LNB_SHOWS = {
    "grad_out": f"(1 if weight is None else weight) * {_ln_input_grad_text('grads[0]')}"
                f" + (0 if weight is None or grads[1] is None else grads[1] * {_LNB_XHAT})"
                f" + (0 if weight is None or grads[2] is None else grads[2])",
    "input": f"rstd * rstd * ({_LNB_XHAT} * ({_ln_mean('grads[0]')} * {_ln_mean(_LNB_GX)}"
             f" - {_ln_mean(f'grads[0] * {_LNB_GX}')} + 3 * {_ln_mean(f'{_LNB_GX} * {_LNB_XHAT}')}"
             f" * {_ln_mean(f'grads[0] * {_LNB_XHAT}')}) + {_ln_mean(f'grads[0] * {_LNB_XHAT}')}"
             f" * ({_ln_mean(_LNB_GX)} - {_LNB_GX}) + {_ln_mean(f'{_LNB_GX} * {_LNB_XHAT}')}"
             f" * ({_ln_mean('grads[0]')} - grads[0]))"
             f" + (0 if weight is None or grads[1] is None else {_ln_input_grad_text('grad_out * grads[1]')})",
    "weight": f"grad_out * {_ln_input_grad_text('grads[0]')}"}


@op("native_layer_norm_backward", "NativeLayerNormBackwardBackward0",
    ("grad_out", "input", "mean", "rstd", "weight", "bias"), num_outputs=3, promote=False, undefined_grads=True,
    saves=("grad_out", "input", "mean", "rstd", "weight"), shows=_LNB_SHOWS,
    grad_out=lambda g, n: _layer_norm_double_backward(g, n)[2],
    input=lambda g, n: _layer_norm_double_backward(g, n)[0],
    weight=lambda g, n: _layer_norm_double_backward(g, n)[1])
def native_layer_norm_backward(grad_out, input, mean, rstd, weight, bias, axes, output_mask):
    """The gradients of native_layer_norm for its input, weight and bias (those output_mask asks for; the others
    are zeros PyTorch leaves undefined), as its kernel computes them."""
    grads = _ln_backward_arrays(grad_out, input, mean, rstd, weight, axes)
    return placeholders(grads, output_mask)


# --- group norm ------------------------------------------------------------------------------------
# The input viewed as (N, G, rest): mean/rstd are (N, G, 1); the affine map is per channel. As PyTorch's, the op
# has three outputs, the normalized input, mean and rstd (N, G): F.group_norm returns the first, and the gradient's
# graph under create_graph reads the other two (infinitely_differentiable_native_group_norm_backward).

def _gn_grads(grads, n):
    dY, dmean, drstd = grads
    if type(dY) is np.ndarray and dmean is None and drstd is None:
        return _gn_grads_arrays(dY, n)
    return _infinitely_differentiable_native_group_norm_backward(grads, n)


@once
def _gn_grads_arrays(g, n):
    """The kernel's gradients (PyTorch's native_group_norm_backward, a plain backward)."""
    shape, groups = n.input_shape, n.groups
    nd = len(shape)
    axes = (0,) + tuple(range(2, nd))
    x = n.input.reshape(shape[0], groups, -1)
    xhat = ((x - n.mean) * n.rstd).reshape(shape)
    gw = g if n.weight is None else g * _per_channel(n.weight, nd)
    gw3 = gw.reshape(shape[0], groups, -1)
    xh3 = xhat.reshape(shape[0], groups, -1)
    grad_input = ((gw3 - gw3.mean(2, keepdims=True) - xh3 * (gw3 * xh3).mean(2, keepdims=True))
                  * n.rstd).reshape(shape).astype(x.dtype, copy=False)
    return grad_input, np.add.reduce(g * xhat, axis=axes), np.add.reduce(g, axis=axes)


@once
def _infinitely_differentiable_native_group_norm_backward(grads, n):
    """PyTorch's infinitely_differentiable_native_group_norm_backward (FunctionsManual.cpp) op for op, what it
    runs under create_graph, and for gradients of the mean and rstd outputs: (dX, dgamma, dbeta). Under
    create_graph its mean and rstd are the node's own outputs 1 and 2 (see double_backward.on_tensors)."""
    with on_tensors(grads) as (T, wrap):
        dY, dmean, drstd = (T(gi) for gi in grads)
        N, C = n.input_shape[:2]
        HxW = math.prod(n.input_shape[2:])
        G = n.groups
        D = C // G
        s = 1.0 / (D * HxW)
        gamma = T(n.weight)
        mask = output_mask(n)
        if any(isinstance(gi, Tensor) for gi in grads):      # (the node's outputs, as PyTorch's saved results)
            node = node_of(n)
            mean, rstd = (Tensor._make(a.reshape(N, G), node, i) for i, a in ((1, n.mean), (2, n.rstd)))
        else:
            mean, rstd = T(n.mean.reshape(N, G)), T(n.rstd.reshape(N, G))
        X = T(n.input)
        dX = dgamma = dbeta = None
        X_tensor = X.reshape(N, G, D, HxW)
        mean_tensor = mean.reshape(N, G, 1, 1)
        rstd_tensor = rstd.reshape(N, G, 1, 1)
        if dY is not None:
            dY_tensor = dY.reshape(N, G, D, HxW)
            ds = (dY_tensor * X_tensor).sum(3).unsqueeze_(-1)
            db = dY_tensor.sum(3).unsqueeze_(-1)
        if mask[0]:
            gamma_tensor = gamma.reshape(1, G, D, 1) if gamma is not None else None
            # (PyTorch also computes the variance here, which nothing reads)
            rstd_cube = rstd_tensor * rstd_tensor * rstd_tensor
            dvar = None
            if drstd is not None:
                dvar = dual.mul_scalar(rstd_cube, -0.5) * drstd.view(N, G, 1, 1)
            if dY is not None:
                a = rstd_tensor * gamma_tensor if gamma is not None else rstd_tensor
                b = ((ds * gamma_tensor).sum(2) if gamma is not None else ds.sum(2)).unsqueeze_(-2)
                c = ((db * gamma_tensor).sum(2) if gamma is not None else db.sum(2)).unsqueeze_(-2)
                b = dual.mul_scalar((c * mean_tensor - b) * rstd_cube, s)
                c = -b * mean_tensor - dual.mul_scalar(c * rstd_tensor, s)
                dX = a * dY_tensor + b * X_tensor + c
                if dmean is not None and drstd is not None:
                    dX = dX + _var_mean_backward(dvar, dmean.view(N, G, 1, 1), X_tensor, (2, 3))
                dX = dX.reshape(n.input_shape)
            elif dmean is not None and drstd is not None:
                dX = _var_mean_backward(dvar, dmean.view(N, G, 1, 1), X_tensor, (2, 3)).reshape(n.input_shape)
        if mask[1] and dY is not None:
            dgamma = ((ds - db * mean_tensor) * rstd_tensor).sum(0).reshape(gamma.shape)
        if mask[2] and dY is not None:
            dbeta = db.sum(0).reshape(C)
        return tuple(wrap(t) for t in (dX, dgamma, dbeta))


def _var_mean_backward(gvar, gmean, x, dims):
    """FunctionsManual's var_mean_backward (correction 0, keepdim): var_backward's 2 / dof * grad * (x - mean)
    plus mean_backward's grad expanded over the dims and divided by their size."""
    dof = math.prod(x.shape[d] for d in dims)
    gself = None
    if gvar is not None:
        gself = dual.mul_scalar(gvar, 2.0 / dof) * (x - x.mean(dims, keepdim=True))
    if gmean is not None:
        aux = dual.div_scalar(gmean.expand(x.shape), dof)
        gself = aux if gself is None else gself + aux
    return gself


# (the texts view the input as (N, groups, rest), where mean and rstd (N, groups, 1) broadcast)
_GN_GW = f"(grad.movedim(1, -1) * {_W}).movedim(-1, 1).reshape(input_shape[0], groups, -1)"
_GN_XHAT = "(input.reshape(input_shape[0], groups, -1) - mean) * rstd"
_GN_SHOWS = {
    "input": f"(({_GN_GW} - ({_GN_GW}).mean(2, keepdim=True) - {_GN_XHAT} * ({_GN_GW} * {_GN_XHAT})"
             ".mean(2, keepdim=True)) * rstd).reshape(input_shape)",
    "weight": f"(grad * ({_GN_XHAT}).reshape(input_shape)).transpose(0, 1).flatten(1).sum(1)",
    "bias": "grad.transpose(0, 1).flatten(1).sum(1)"}


@op("native_group_norm", "NativeGroupNormBackward0", ("input", "weight", "bias"), saves=("input", "weight"),
    variants=("function",), promote=False, shows=_GN_SHOWS, num_outputs=3, saves_outputs=(1, 2), undefined_grads=True,
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
    n = input.shape[0]
    return out.astype(input.dtype, copy=False), mean.reshape(n, groups), rstd.reshape(n, groups)


# --- embedding -------------------------------------------------------------------------------------

def _embedding_grad(g, n):
    return dual.call("embedding_dense_backward", g, indices=n.indices, num_weights=n.num_weights,
                     padding_idx=n.padding_idx, scale_grad_by_freq=n.scale_grad_by_freq)


# (its text: grad's rows added into zeros at the indices; the padding row gets none)
@op("embedding", "EmbeddingBackward0", ("weight",), weight=_embedding_grad, variants=("function",),
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
