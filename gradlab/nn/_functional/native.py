"""PyTorch's native_* functions: the ATen ops behind nn's normalizations and dropout, which also return
what their backward saves (the statistics, the dropout mask), and norm_except_dim (weight_norm's norm)."""
import numpy as np

from ... import _dtype, random as _random
from ...ops.registry import OPS
from ...tensor import Tensor
from .. import functional as F
from ..._functions.shape import channel_shuffle as _channel_shuffle
from .normalization import _batch_norm, _group_norm, _layer_norm_stats

__all__ = ["native_layer_norm", "native_batch_norm", "native_group_norm", "native_dropout", "norm_except_dim",
           "native_channel_shuffle"]


def native_layer_norm(input, normalized_shape, weight, bias, eps):
    """(layer_norm's result, the mean, 1 / std), the statistics shaped like the input with the normalized
    dims 1 (NativeLayerNormBackward0 on the result only)."""
    out = F.layer_norm(input, normalized_shape, weight, bias, eps)
    mean, rstd, _ = _layer_norm_stats(input._data, tuple(normalized_shape), eps)
    return out, Tensor._make(mean), Tensor._make(rstd)


def native_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps):
    """(batch_norm's result, the batch's mean, 1 / std): empty statistics in evaluation."""
    return _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """(group_norm's result, each (sample, group)'s mean, 1 / std), the statistics shaped (N, group); PyTorch's
    node is the grad_fn of all three."""
    if group <= 0:          # (before the shapes: the C function's first check)
        raise RuntimeError(f"Expected num groups to be greater than 0, got {group}")
    return _group_norm(input, group, weight, bias, eps)


def native_dropout(input, p, train):
    """(input * mask / (1 - p), mask): the mask a bernoulli(1 - p) draw from the default generator, as
    F.dropout's; out of training (train False) the input itself and a mask of ones (NativeDropoutBackward0)."""
    if input._data.size == 0:       # (PyTorch: the input itself, and an empty "mask" of its dtype)
        return input, Tensor._make(np.empty(input._data.shape, input._data.dtype))
    if (train is None or train) and input._data.dtype.kind not in "fc":
        raise RuntimeError(f"result type Float can't be cast to the desired output type "
                           f"{_dtype.from_numpy_dtype(input._data.dtype)._legacy[:-6]}")
    if train is None or train:
        if not 0 <= 1 - p <= 1:
            raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={1 - p}")
        u = _random.default_generator._unit_f64(input._data.size)
        keep = (u < (1.0 - p)).reshape(input._data.shape)
        scale = 0.0 if p == 1 else 1.0 / (1.0 - p)
    else:       # (PyTorch's input.clone(), under NativeDropoutBackward0; the mask in the input's layout)
        keep = np.ones_like(input._data, bool)
        scale = 1.0
        return OPS["native_dropout_scaled"](input, mask=keep, scale=scale, grad_scale=1.0), Tensor._make(keep)
    # (PyTorch's backward scales by 1 / (1 - p) only for train=True: train=None drops out but its gradient is
    # the mask alone)
    return OPS["native_dropout_scaled"](input, mask=keep, scale=scale, grad_scale=scale if train else 1.0), Tensor._make(keep)


def norm_except_dim(v, pow=2, dim=0):
    """The p-norm over every dim but `dim`, kept as 1s (ATen's composition: a view, norm, a view)."""
    if dim != -1 and v.dim() == 0:      # (v.size(dim) comes first)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if v._data.dtype.kind not in "fc":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got "
                           f"{_dtype.from_numpy_dtype(v._data.dtype)._legacy[:-6]} instead.")
    if dim == -1:
        return OPS["norm_p_all"](v, p=float(pow))
    nd = v.dim()
    if dim == 0:
        shape = [1] * nd
        shape[0] = v.size(0)
        return OPS["norm_p"](v.contiguous().view(v.size(0), -1), p=float(pow), dim=(1,), keepdim=False).view(shape)
    if dim == nd - 1:
        shape = [1] * nd
        shape[nd - 1] = v.size(nd - 1)
        return OPS["norm_p"](v.contiguous().view(-1, v.size(nd - 1)), p=float(pow), dim=(0,), keepdim=False).view(shape)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


def native_channel_shuffle(input, groups):
    """channel_shuffle's values (and checks) under PyTorch's NotImplemented node: no derivative."""
    _channel_shuffle(input, groups)         # (its checks, in PyTorch's order)
    return OPS["channel_shuffle_no_derivative"](input, groups=int(groups))
