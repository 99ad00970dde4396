"""gradlab.nn.init: torch's initialisers. Each fills a tensor in place (untracked, like torch's
`with torch.no_grad()`), drawing from the same random stream as torch, and returns the tensor."""
import math

import numpy as np

from .. import _warnings, creation, linalg as _linalg, random as _random
from ..autograd.grad_mode import no_grad
from ..random import calculate_gain  # noqa: F401  (torch.nn.init.calculate_gain)
from ..tensor import Tensor

_SCALAR_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _tensor(tensor, method):
    """torch calls tensor.<method>() first: the same AttributeError for a list or a number."""
    if not isinstance(tensor, Tensor):
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '{method}'")


def _random_fill(tensor, kernel):
    """Random fills exist for floating tensors only (torch's error names its kernel; its normal kernel is not
    reached for an empty tensor)."""
    kind = tensor._data.dtype
    if kind.kind not in "fc" and not (kernel == "normal_kernel_cpu" and tensor._data.size == 0):
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_SCALAR_NAMES.get(kind.name, kind.name)}\'')


def _zero_element(tensor):
    """kaiming_*: nothing to initialise in an empty tensor (torch warns)."""
    if 0 in tensor._data.shape:
        _warnings.warn("Initializing zero-element tensors is a no-op", UserWarning)
        return True
    return False


def _mode(mode):
    mode = mode.lower()
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of ['fan_in', 'fan_out']")
    return mode


def _fill(tensor, array):
    tensor._data[...] = array
    tensor._version_counter[0] += 1
    return tensor


def _meta_fill(tensor):
    tensor._version_counter[0] += 1
    return tensor


def _shape_dtype(tensor):
    # half values are drawn as floats, then rounded (as torch's CPU kernels do)
    dtype = tensor._data.dtype
    return tensor._data.shape, (np.dtype(np.float32) if dtype == np.float16 else dtype)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    _tensor(tensor, "uniform_")
    _random_fill(tensor, "check_uniform_bounds")
    if tensor.is_meta:                  # (no numbers to draw: the generator does not advance, as in PyTorch)
        return _meta_fill(tensor)
    return _fill(tensor, _random.init_uniform(*_shape_dtype(tensor), a, b, generator=generator))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    _tensor(tensor, "normal_")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    _random_fill(tensor, "normal_kernel_cpu")
    if not tensor._data.size:           # (nothing to draw: PyTorch's kernel returns at once, whatever the dtype)
        return _fill(tensor, 0)
    if tensor.is_meta:
        return _meta_fill(tensor)
    return _fill(tensor, _random.init_normal(*_shape_dtype(tensor), mean, std, generator=generator))


def constant_(tensor, val):
    _tensor(tensor, "fill_")
    return _fill(tensor, val)


def zeros_(tensor):
    _tensor(tensor, "zero_")
    return _fill(tensor, 0)


def ones_(tensor):
    _tensor(tensor, "fill_")
    return _fill(tensor, 1)


def eye_(tensor):
    _tensor(tensor, "ndimension")
    if tensor._data.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor._data.shape))


def dirac_(tensor, groups=1):
    """The identity of a convolution: a 1 at the centre of each of the first min(out/groups, in) filters' own
    channel, in each group (torch's loops of indexed writes: one version per write)."""
    dims = tensor.ndimension()
    if dims not in (3, 4, 5):
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor.size()
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    if tensor.is_meta:
        return tensor
    per_group = sizes[0] // groups
    centre = tuple(n // 2 for n in sizes[2:])
    with no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min(per_group, sizes[1])):
                tensor[(g * per_group + d, d) + centre] = 1
    return tensor


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """Normal(mean, std) draws restricted to [a, b], by PyTorch's two samplers (so the same draws from a seed):
    when [a, b] holds more than 30% of the mass, normal draws redrawn where they fall outside; otherwise uniform
    draws on [a, b] accepted with probability pdf(x) / pdf(mode), redrawn until all are accepted."""
    if tensor.is_meta:
        return tensor

    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if mean < a - 2 * std or mean > b + 2 * std:
        _warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. The distribution of values may "
                       "be incorrect.")
    with no_grad():
        if norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std) > 0.3:
            low, high = tensor.new_tensor(a).item(), tensor.new_tensor(b).item()   # (the bounds in its dtype)
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                outside = (result < low) | (result > high)
                if not outside.any():
                    break
                result = tensor.new_empty(tensor.shape).normal_(mean, std, generator=generator).where(outside, result)
            if result is not tensor:
                tensor.copy_(result)
            return tensor
        mode = max(a, min(mean, b))
        log_peak = -0.5 * ((mode - mean) / std) ** 2
        candidates, accept = tensor.new_empty(tensor.shape), tensor.new_empty(tensor.shape)
        tensor.uniform_(a, b, generator=generator)
        candidates.copy_(tensor)
        candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)      # log pdf(x) / pdf(mode)
        pending = accept.uniform_(generator=generator).log_().gt(candidates)
        if pending.any():
            result = tensor
            while True:
                candidates.uniform_(a, b, generator=generator)
                result = candidates.where(pending, result)
                candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                pending = accept.uniform_(generator=generator).log_().gt(candidates).where(pending, pending)
                if not pending.any():
                    break
            tensor.copy_(result)
    return tensor


def orthogonal_(tensor, gain=1, generator=None):
    """A (semi-)orthogonal matrix from the QR factorisation of normal draws, the signs of R's diagonal moved
    into Q (so that Q is uniformly distributed), times gain; tensors of more dims are flattened after dim 0."""
    if tensor.ndimension() < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor.numel() == 0 or tensor.is_meta:
        return tensor
    rows = tensor.size(0)
    cols = tensor.numel() // rows
    flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
    if rows < cols:
        flattened.t_()
    q, r = _linalg.qr(flattened)
    q *= r.diag(0).sign()
    if rows < cols:
        q.t_()
    with no_grad():
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal(0, std) draws, then ceil(sparsity * rows) entries of each column set to zero, chosen by a
    random permutation per column (drawn from the default generator, as PyTorch's are)."""
    if tensor.ndimension() != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    if tensor.is_meta:
        return tensor
    rows, cols = tensor.shape
    zeros = math.ceil(sparsity * rows)
    with no_grad():
        tensor.normal_(0, std, generator=generator)
        for col in range(cols):
            tensor[creation.randperm(rows)[:zeros], col] = 0
    return tensor


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    _tensor(tensor, "shape")
    if _zero_element(tensor):
        return tensor
    mode = _mode(mode)
    _calculate_fan_in_and_fan_out(tensor)          # (PyTorch's errors in its order: the fans, the gain, the dtype)
    calculate_gain(nonlinearity, a)
    _random_fill(tensor, "check_uniform_bounds")
    if tensor.is_meta:
        return _meta_fill(tensor)
    return _fill(tensor, _random.kaiming_uniform(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                 generator=generator))


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    _tensor(tensor, "shape")
    if _zero_element(tensor):
        return tensor
    mode = _mode(mode)
    _calculate_fan_in_and_fan_out(tensor)          # (PyTorch's errors in its order: the fans, the gain, the dtype)
    calculate_gain(nonlinearity, a)
    _random_fill(tensor, "normal_kernel_cpu")
    if tensor.is_meta:
        return _meta_fill(tensor)
    return _fill(tensor, _random.kaiming_normal(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                generator=generator))


def xavier_uniform_(tensor, gain=1.0, generator=None):
    _tensor(tensor, "dim")
    _calculate_fan_in_and_fan_out(tensor)          # (before the dtype's error, as PyTorch)
    _random_fill(tensor, "check_uniform_bounds")
    if tensor.is_meta:
        return _meta_fill(tensor)
    return _fill(tensor, _random.xavier_uniform(*_shape_dtype(tensor), gain=gain, generator=generator))


def xavier_normal_(tensor, gain=1.0, generator=None):
    _tensor(tensor, "dim")
    _calculate_fan_in_and_fan_out(tensor)          # (before the dtype's error, as PyTorch)
    _random_fill(tensor, "normal_kernel_cpu")
    if not tensor._data.size:
        return _fill(tensor, 0)
    if tensor.is_meta:
        return _meta_fill(tensor)
    return _fill(tensor, _random.xavier_normal(*_shape_dtype(tensor), gain=gain, generator=generator))


def _calculate_fan_in_and_fan_out(tensor):
    return _random.fan_in_and_fan_out(tensor._data.shape)


def _deprecated(init):
    """The names before the trailing underscore (uniform, normal, ...), kept by PyTorch with a FutureWarning."""
    old, new = init.__name__[:-1], init.__name__

    def deprecated_init(*args, **kwargs):
        _warnings.warn(f"`nn.init.{old}` is now deprecated in favor of `nn.init.{new}`.", FutureWarning)
        return init(*args, **kwargs)

    deprecated_init.__name__ = deprecated_init.__qualname__ = old
    return deprecated_init


uniform, normal, constant, eye, dirac = map(_deprecated, (uniform_, normal_, constant_, eye_, dirac_))
xavier_uniform, xavier_normal = map(_deprecated, (xavier_uniform_, xavier_normal_))
kaiming_uniform, kaiming_normal = map(_deprecated, (kaiming_uniform_, kaiming_normal_))
orthogonal, sparse = map(_deprecated, (orthogonal_, sparse_))
