"""nn.functional: normalization (imported by gradlab/nn/functional.py).

batch_norm, layer_norm and group_norm check their arguments as torch does (its messages, its order),
compute the statistics as torch's CPU kernels do (float32 input: sums in float64, the results rounded
to float32), update the running statistics in place, then run one op of the table
(ops/normalization.py). embedding and normalize are here too.
"""
import math

import numpy as np

from ... import _argparse, _signatures
from ..._argparse import type_name as _arg_type_name
from ..._argparse.wrappers import _vetter
from ...autograd import grad_mode
from ...ops.normalization import channel_sums
from ...ops.registry import OPS
from ...tensor import Tensor, _type_name
from . import conv as _conv       # (pad and avg_pool2d, for local_response_norm)

__all__ = ["batch_norm", "layer_norm", "group_norm", "embedding", "normalize"]

_SCALAR_NAMES = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
                 "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool",
                 "void32": "ComplexHalf", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}


def _name(t):
    return _SCALAR_NAMES.get(t._data.dtype.name, t._data.dtype.name)


def _dims(shape):
    return "[" + ", ".join(map(str, shape)) + "]"


def _tensor(fn, value, arg, position):
    if value is not None and not isinstance(value, Tensor):
        raise TypeError(f"{fn}(): argument '{arg}' (position {position}) must be Tensor, not {_type_name(value)}")


def _int_list(fn, value, arg, position):
    """A SymInt[] argument of torch's C++ functions (normalized_shape): a tuple/list/Size of ints."""
    return tuple(_argparse.int_list(fn, arg, position, value, allow_int=False, sym=True))


def _verify_batch_size(size):
    prod = size[0]
    for s in size[2:]:
        prod *= s
    if prod == 1:
        raise ValueError(f"Expected more than 1 value per channel when training, got input size {size}")


def _mixed_dtype(input, *params):
    """torch's CPU kernels: the parameters share the input's dtype (its two messages)."""
    dtype = input._data.dtype
    others = [p for p in params if p is not None]
    if any(p._data.dtype != dtype for p in others):     # (torch's check_mixed_data_type)
        if any(p._data.dtype != np.float32 for p in others):
            raise RuntimeError("mixed dtype (CPU): expect parameter to have scalar type of Float")
        raise RuntimeError("mixed dtype (CPU): all inputs must share same datatype.")


# --- batch_norm ------------------------------------------------------------------------------------
def batch_norm(input, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-5):
    """torch.nn.functional.batch_norm: NativeBatchNormBackward0; the running statistics are updated in
    place in training (unbiased variance), read otherwise."""
    if not isinstance(input, Tensor):
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'size'")
    if training:
        _verify_batch_size(input.size())
    return _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps, empty_copy=True)[0]


def _batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps, empty_copy=False):
    """batch_norm's result with the statistics torch.native_batch_norm returns: the batch's mean and
    1 / std in training, empty tensors in evaluation."""
    if training and eps <= 0.0:
        raise ValueError(f"batch_norm eps must be positive during training, but got {eps}")
    if eps < 0.0:
        raise ValueError(f"batch_norm eps must be non-negative, but got {eps}")
    for i, (name, t) in enumerate((("weight", weight), ("bias", bias), ("running_mean", running_mean),
                                   ("running_var", running_var))):
        _tensor("batch_norm", t, name, i + 2)
    x = input._data
    channels = x.shape[1] if x.ndim > 1 else 0
    # torch's _batch_norm_impl_index: each running buffer (or its absence in eval), then weight, bias
    for name, t in (("running_mean", running_mean), ("running_var", running_var), ("weight", weight),
                    ("bias", bias)):
        if t is not None:
            if t._data.size != channels:
                raise RuntimeError(f"{name} should contain {channels} elements not {t._data.size}")
        elif not training and name.startswith("running"):
            raise RuntimeError(f"{name} must be defined in evaluation mode")
    if empty_copy and x.size == 0:
        # torch's _batch_norm_impl_index for an empty input: no statistics, a copy (not a view, to keep a
        # graph) times weight[0] plus bias[0]
        out = input.clone()
        if weight is not None:
            out = out * weight[0]
        if bias is not None:
            out = out + bias[0]
        return out, None, None
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"batch_norm" not implemented for \'{_name(input)}\'')
    _mixed_dtype(input, weight, bias, running_mean, running_var)
    axes = (0,) + tuple(range(2, x.ndim))
    dtype = x.dtype
    if training:
        n = x.size // max(channels, 1)
        shape = [1] * x.ndim
        shape[1] = -1
        mean = (channel_sums(x, axes, forward=True) / n).astype(dtype) if n else np.zeros(channels, dtype)
        d = x - mean.reshape(shape)
        var_sum = channel_sums(d, axes, d, forward=True).astype(dtype)
        with np.errstate(divide="ignore", invalid="ignore"):
            var = var_sum / dtype.type(n)
            invstd = (1 / np.sqrt(var.astype(np.float64) + eps)).astype(dtype)
            if running_mean is not None or running_var is not None:
                _update_running(running_mean, running_var, mean, var_sum, n, momentum)
    else:
        mean = running_mean._data.astype(dtype, copy=False)
        rv = running_var._data
        invstd = (1 / np.sqrt(rv + rv.dtype.type(eps))).astype(dtype)
        # (its backward computes 1 / sqrt(var + eps) in double)
        grad_invstd = (1 / np.sqrt(rv.astype(np.float64) + eps)).astype(dtype)
        empty = Tensor._make(np.zeros(0, dtype))
        return (OPS["native_batch_norm"](input, weight, bias, mean=mean, invstd=invstd, training=False, eps=eps,
                                         axes=axes, grad_invstd=grad_invstd), empty, Tensor._make(np.zeros(0, dtype)))
    return (OPS["native_batch_norm"](input, weight, bias, mean=mean, invstd=invstd, training=True, eps=eps, axes=axes),
            Tensor._make(mean), Tensor._make(invstd))


def _update_running(running_mean, running_var, mean, var_sum, n, momentum):
    """torch's batch_norm_cpu_update_stats_template: mean in the buffer's precision, the unbiased
    variance through double."""
    with grad_mode.no_grad():
        if running_mean is not None:
            rm = running_mean._data
            m = rm.dtype.type(momentum)
            rm[...] = m * mean + (rm.dtype.type(1) - m) * rm
            running_mean._version_counter[0] += 1
        if running_var is not None:
            rv = running_var._data
            m = rv.dtype.type(momentum)
            unbiased = (var_sum / var_sum.dtype.type(n - 1)).astype(np.float64)
            # (momentum * unbiased in double; (1 - momentum) * running_var in the buffer's precision)
            rv[...] = float(m) * unbiased + ((rv.dtype.type(1) - m) * rv).astype(np.float64)
            running_var._version_counter[0] += 1


# --- layer_norm ------------------------------------------------------------------------------------
def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.layer_norm over the trailing `normalized_shape` dims (NativeLayerNormBackward0)."""
    _tensor("layer_norm", input, "input", 1)
    normalized_shape = _int_list("layer_norm", normalized_shape, "normalized_shape", 2)
    _tensor("layer_norm", weight, "weight", 3)
    _tensor("layer_norm", bias, "bias", 4)
    x = input._data
    k = len(normalized_shape)
    # torch's layer_norm_cpu: the mixed-dtype check, then _check_layer_norm_inputs, then the kernel's dtypes
    _mixed_dtype(input, weight, bias)
    if k < 1:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {_dims(normalized_shape)}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and t._data.shape != normalized_shape:
            raise RuntimeError(f"Expected {name} to be of same shape as normalized_shape, but got {name} of shape "
                               f"{_dims(t._data.shape)} and normalized_shape = {_dims(normalized_shape)}")
    if x.ndim < k or x.shape[x.ndim - k:] != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={_dims(normalized_shape)}, expected input with shape "
                           f"[*, {', '.join(map(str, normalized_shape))}], but got input of size{_dims(x.shape)}")
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"LayerNormKernelImpl" not implemented for \'{_name(input)}\'')
    mean, rstd, axes = _layer_norm_stats(x, normalized_shape, eps)
    return OPS["native_layer_norm"](input, weight, bias, mean=mean, rstd=rstd, eps=eps, axes=axes)


def _layer_norm_stats(x, normalized_shape, eps):
    """The mean and 1 / std over the trailing normalized dims (kept as 1s), as torch's kernel computes them,
    and those dims (torch.native_layer_norm returns the two statistics)."""
    k = len(normalized_shape)
    axes = tuple(range(x.ndim - k, x.ndim))
    dtype = x.dtype
    count = math.prod(normalized_shape)
    kept = x.shape[:x.ndim - k] + (1,) * k
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if dtype == np.float32 and count and x.size:
            mean, var = _row_moments(x.reshape(-1, count))
            mean, var = mean.reshape(kept), var.reshape(kept)
        else:
            x64 = x.astype(np.float64) if dtype != np.float64 else x
            mean64 = np.add.reduce(x64, axis=axes, keepdims=True) / count
            var = (np.add.reduce((x64 - mean64) ** 2, axis=axes, keepdims=True) / count).astype(dtype)
            mean = mean64.astype(dtype)
        rstd = (1 / np.sqrt(np.maximum(var, 0) + dtype.type(eps))).astype(dtype)
    return mean, rstd, axes


_F32 = np.float32
_VEC = 8        # floats in one of torch's CPU vectors (measured)


def _fma(a, b, c):
    """float32 a * b + c rounded once (the product is exact in float64)."""
    return (np.multiply(a, b, dtype=np.float64) + c).astype(_F32)


def _merge(m1, m2, m1_add, m2_add, count, count_add):
    """torch's AddMomentsVec: two Welford partial results (mean, sum of squares) combined."""
    total = count + count_add
    c = _F32(0) if total == 0 else _F32(count_add) / _F32(total)
    delta = m1_add - m1
    m1 = _fma(c, delta, m1)
    m2 = _fma(delta * delta * c, _F32(count), m2 + m2_add)
    return m1, m2, total


def _row_moments(x):
    """Mean and (biased) variance of each row of a float32 (M, N) array as torch's RowwiseMoments
    computes them (moments_utils.h): Welford over 8-float vectors in chunks of 16, the chunks merged
    in a cascade, the leftover elements one by one, then the 8 lanes merged; fused multiply-adds
    where its compiled kernel has them (measured). All rows at once."""
    rows, n_all = x.shape
    n = n_all // _VEC
    chunks = -(-n // 16)
    depth = 1 if chunks <= 2 else (chunks - 1).bit_length()
    zero = np.zeros((rows, _VEC), _F32)
    stack = [[zero, zero, 0] for _ in range(depth)]
    for i in range(chunks):
        size = min(16, n - i * 16)
        m1 = m2 = zero
        for j in range(size):
            v = x[:, (i * 16 + j) * _VEC:(i * 16 + j + 1) * _VEC]
            delta = v - m1
            m1 = _fma(delta, _F32(1) / _F32(j + 1), m1)
            m2 = _fma(delta, v - m1, m2)
        stack[0][0], stack[0][1], stack[0][2] = _merge(stack[0][0], stack[0][1], m1, m2, stack[0][2], size)
        mask, j = i + 1, 1
        while j < depth and (mask & 1) == 0:
            low, high = stack[j - 1], stack[j]
            high[0], high[1], high[2] = _merge(high[0], high[1], low[0], low[1], high[2], low[2])
            stack[j - 1] = [zero, zero, 0]
            mask >>= 1
            j += 1
    for i in range(1, depth):
        low, high = stack[0], stack[i]
        low[0], low[1], low[2] = _merge(low[0], low[1], high[0], high[1], low[2], high[2])
    count, m1, m2 = 0, np.zeros(rows, _F32), np.zeros(rows, _F32)
    for i in range(n * _VEC, n_all):        # the leftover elements (no fused multiply-add here)
        delta = x[:, i] - m1
        count += 1
        m1 = m1 + delta / _F32(count)
        m2 = m2 + delta * (x[:, i] - m1)
    for lane in range(_VEC):
        total = count + n
        c = _F32(0) if total == 0 else _F32(n) / _F32(total)
        delta = stack[0][0][:, lane] - m1
        m1 = _fma(c, delta, m1)
        m2 = m2 + _fma(delta * delta * c, _F32(count), stack[0][1][:, lane])
        count = total
    return m1, m2 / _F32(n_all)


# --- group_norm ------------------------------------------------------------------------------------
def group_norm(input, num_groups, weight=None, bias=None, eps=1e-5):
    """torch.nn.functional.group_norm: channels split into num_groups, each normalized over its
    channels and positions (NativeGroupNormBackward0)."""
    if not isinstance(input, Tensor):
        raise AttributeError(f"'{type(input).__name__}' object has no attribute 'dim'")
    x = input._data
    if x.ndim < 2:
        raise RuntimeError(f"Expected at least 2 dimensions for input tensor but received {x.ndim}")
    _verify_batch_size([x.shape[0] * x.shape[1] // num_groups, num_groups] + list(x.shape[2:]))
    return _group_norm(input, num_groups, weight, bias, eps)[0]


def _group_norm(input, num_groups, weight, bias, eps):
    """torch.group_norm, the C function (F.group_norm's checks above are Python's)."""
    x = input._data
    _tensor("group_norm", weight, "weight", 3)
    _tensor("group_norm", bias, "bias", 4)
    channels = x.shape[1]
    if num_groups <= 0:                     # (checked first: the channels are divided by it next)
        raise RuntimeError(f"Expected num groups to be greater than 0, got {num_groups}")
    if channels % num_groups:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {_dims(x.shape)} and num_groups={num_groups}")
    for name, t in (("weight", weight), ("bias", bias)):
        if t is not None and (t._data.ndim != 1 or t._data.size != channels):
            # (PyTorch's bias message shows the weight's shape, [0] without one: its check prints weight.sizes())
            shown = t._data.shape if name == "weight" else weight._data.shape if weight is not None else (0,)
            raise RuntimeError(f"Expected {name} to be a vector of size equal to the number of channels in input, "
                               f"but got {name} of shape {_dims(shown)} and input of shape {_dims(x.shape)}")
    _mixed_dtype(input, weight, bias)
    if x.dtype.kind != "f":
        raise NotImplementedError(f'"GroupNormKernelImpl" not implemented for \'{_name(input)}\'')
    mean, rstd = _group_norm_stats(x, num_groups, eps)
    # (PyTorch's native_group_norm: the result, each (sample, group)'s mean and 1 / std, one node for all three)
    return OPS["native_group_norm"](input, weight, bias, mean=mean, rstd=rstd, eps=eps,
                                    groups=num_groups, input_shape=x.shape)


def _group_norm_stats(x, num_groups, eps):
    """Each (sample, group)'s mean and 1 / std, shaped (N, groups, 1) (torch.native_group_norm returns them)."""
    dtype = x.dtype
    x3 = x.reshape(x.shape[0], num_groups, -1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        mean64 = x3.mean(2, keepdims=True)
        var = ((x3 - mean64) ** 2).mean(2, keepdims=True)
        rstd = (1 / np.sqrt(var.astype(dtype) + dtype.type(eps))).astype(dtype)
    return mean64.astype(dtype), rstd


# --- embedding -------------------------------------------------------------------------------------
_vet_renorm = _vetter(_signatures.CALLED["embedding_renorm_"])
_vet_instance_norm = _vetter(_signatures.TORCH["instance_norm"])
_vet_embedding = _vetter(_signatures.TORCH["embedding"])


def embedding(input, weight, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False,
              sparse=False):
    """Rows of `weight` picked by the integer `input` (EmbeddingBackward0). The padding row gets no
    gradient; with max_norm, the picked rows are first rescaled in place (torch's embedding_renorm_)."""
    if padding_idx is not None:
        rows = weight.size(0)
        if padding_idx > 0:
            if padding_idx >= rows:
                raise AssertionError("Padding_idx must be within num_embeddings")
        elif padding_idx < 0:
            if padding_idx < -rows:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx = rows + padding_idx
    else:
        padding_idx = -1
    if max_norm is not None:           # (torch's embedding_renorm_(weight, input, ...) parses its arguments first)
        input.contiguous()
        _vet_renorm((weight, input, max_norm, norm_type), {})
    _vet_embedding((weight, input, padding_idx, scale_grad_by_freq, sparse), {})   # (then torch.embedding's)
    _tensor("embedding", weight, "weight", 1)
    if not isinstance(input, Tensor):
        raise TypeError(f"embedding(): argument 'indices' (position 2) must be Tensor, not {_type_name(input)}")
    if weight._data.ndim != 2:         # (ATen checks the weight first)
        raise RuntimeError("'weight' must be 2-D")
    if input._data.dtype not in (np.int64, np.int32):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                           f"Long, Int; but got torch.{_name(input)}Tensor instead (while checking arguments for "
                           "embedding)")
    indices = input._data.astype(np.int64)
    rows = weight._data.shape[0]
    if max_norm is not None:
        # (embedding_renorm_ runs first: it selects each distinct index in sorted order, a negative one wrapping)
        for i in np.unique(indices):
            if not -rows <= i < rows:
                raise IndexError(f"select(): index {i} out of range for tensor of size "
                                 f"[{', '.join(map(str, weight._data.shape))}] at dimension 0")
        _renorm(weight, indices, max_norm, norm_type)
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError("index out of range in self")
    return OPS["embedding"](weight, indices=indices, num_weights=rows, padding_idx=padding_idx,
                            scale_grad_by_freq=bool(scale_grad_by_freq))


def _renorm(weight, indices, max_norm, norm_type):
    """torch.embedding_renorm_ under no_grad: each picked row whose norm exceeds max_norm is scaled
    by max_norm / (norm + 1e-7)."""
    w = weight._data
    for i in np.unique(indices):
        row = w[i]
        norm = np.sum(np.abs(row.astype(np.float64)) ** norm_type) ** (1.0 / norm_type)
        if norm > max_norm:
            scale = max_norm / (norm + 1e-7)
            row *= w.dtype.type(scale)
    weight._version_counter[0] += 1


# --- normalize -------------------------------------------------------------------------------------
def normalize(input, p=2.0, dim=1, eps=1e-12, out=None):
    """input / max(||input||_p along dim, eps), as torch writes it (DivBackward0)."""
    denom = input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    if out is None:
        return input / denom
    return out.copy_(input / denom)


# --- rms_norm, instance_norm, local_response_norm: PyTorch's compositions (their nodes) --------------------
def rms_norm(input, normalized_shape, weight=None, eps=None):
    """input / sqrt(mean(input^2) + eps) over the trailing dims, times weight: ATen's composite
    (MulBackward0 of input and RsqrtBackward0). eps None is the dtype's machine epsilon (float's for half)."""
    _tensor("rms_norm", input, "input", 1)
    normalized_shape = _int_list("rms_norm", normalized_shape, "normalized_shape", 2)
    _tensor("rms_norm", weight, "weight", 3)
    x = input._data
    k = len(normalized_shape)
    if x.ndim < k:
        raise ValueError(f"Input tensor must have at least {k} dimensions, but got {x.ndim}")
    if k < 1:
        raise RuntimeError("Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one "
                           f"element, but got normalized_shape = {_dims(normalized_shape)}")
    if weight is not None and weight._data.shape != normalized_shape:
        raise RuntimeError(f"Expected weight to be of same shape as normalized_shape, but got weight of shape "
                           f"{_dims(weight._data.shape)} and normalized_shape = {_dims(normalized_shape)}")
    if x.ndim < k or x.shape[x.ndim - k:] != normalized_shape:
        raise RuntimeError(f"Given normalized_shape={_dims(normalized_shape)}, expected input with shape "
                           f"[*{', '.join(map(str, normalized_shape))}], but got input of size{_dims(x.shape)}")
    if x.dtype.kind != "f":
        raise RuntimeError(f"rms_norm only supports floating point dtypes (got {_name(input)})")   # (see tests)
    upcast = input.float() if x.dtype == np.float16 else input        # (half: in float, ToCopyBackward0)
    if eps is None:
        eps = float(np.finfo(np.float64 if x.dtype == np.float64 else np.float32).eps)
    dims = tuple(range(x.ndim - k, x.ndim))
    rsqrt = upcast.pow(2).mean(dims, keepdim=True).add_(eps).rsqrt()
    result = upcast.mul(rsqrt)
    if x.dtype == np.float16:
        result = result.type_as(input)
    return result if weight is None else result.mul(weight)


def _verify_spatial_size(size):
    prods = 1
    for s in size[2:]:
        prods *= s
    if prods == 1:
        raise ValueError(f"Expected more than 1 spatial element when training, got input size {size}")


def instance_norm(input, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True,
                  momentum=0.1, eps=1e-5):
    """Each (sample, channel) normalized over its positions: torch's composite, a batch_norm of the input
    viewed as (1, N * C, ...) with the parameters and running statistics repeated N times; the running
    statistics are then the mean over the samples, written back in place."""
    if use_input_stats:
        _verify_spatial_size(input.size())
    # (then torch.instance_norm's parser: nn.InstanceNorm1d(1, 'a')'s eps refused)
    _vet_instance_norm((input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps, True), {})
    return _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps)


def _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps):
    if not use_input_stats and (running_mean is None or running_var is None):
        raise RuntimeError("Expected running_mean and running_var to be defined when use_input_stats is false")
    shape = input._data.shape
    b, c = shape[0], shape[1]
    repeat = (lambda t: None if t is None else t.repeat(b))
    running_mean_, running_var_ = repeat(running_mean), repeat(running_var)
    reshaped = input.contiguous().view((1, b * c) + shape[2:])
    out = batch_norm(reshaped, running_mean_, running_var_, repeat(weight), repeat(bias), use_input_stats,
                     momentum, eps)
    with grad_mode.no_grad():       # (only statistics of this input change them: in eval they stay untouched)
        if running_mean is not None and use_input_stats:
            running_mean.copy_(running_mean_.view(b, c).mean(0, False))
        if running_var is not None and use_input_stats:
            running_var.copy_(running_var_.view(b, c).mean(0, False))
    return out.view(shape)


def local_response_norm(input, size, alpha=1e-4, beta=0.75, k=1.0):
    """input / (k + alpha * mean of input^2 over `size` neighbouring channels) ** beta: torch's Python,
    line by line (pad, then an average pool along the channels)."""
    dim = input.dim()
    if dim < 3:
        raise ValueError(f"Expected 3D or higher dimensionality                          input (got {dim} dimensions)")
    if input.numel() == 0:
        return input
    div = input.mul(input)
    if dim == 3:
        div = div.unsqueeze(1)
        div = _conv.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = _conv.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
    else:
        # (torch pools a 5-d view with avg_pool3d (size, 1, 1); gradlab has no avg_pool3d: the same numbers
        # by avg_pool2d (size, 1) over the positions flattened into one dim)
        sizes = input.size()
        div = div.view(sizes[0], 1, sizes[1], -1)
        div = _conv.pad(div, (0, 0, size // 2, (size - 1) // 2))
        div = _conv.avg_pool2d(div, (size, 1), stride=1).squeeze(1)
        div = div.view(sizes)
    div = div.mul(alpha).add(k).pow(beta)
    return input / div




# torch.<fn> forms: PyTorch's C functions' argument orders
def torch_instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
                        cudnn_enabled):
    return _instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps)


def torch_batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, cudnn_enabled):
    return batch_norm(input, running_mean, running_var, weight, bias, training, momentum, eps)


def torch_layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-5, cudnn_enable=True):
    return layer_norm(input, normalized_shape, weight, bias, eps)


def torch_group_norm(input, num_groups, weight=None, bias=None, eps=1e-5, cudnn_enabled=True):
    input.size(1)       # (torch reads the channels first: its IndexError for a 1-d input)
    return _group_norm(input, num_groups, weight, bias, eps)[0]


__all__ += ["rms_norm", "instance_norm", "local_response_norm"]
