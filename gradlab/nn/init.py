"""gradlab.nn.init: torch's initialisers. Each fills a tensor in place (untracked, like torch's
`with torch.no_grad()`), drawing from the same random stream as torch, and returns the tensor."""
import math
import warnings

import numpy as np

from .. import linalg as _linalg, random as _random
from ..autograd import grad_mode as _grad_mode
from ..creation import sampling as _sampling
from ..creation.factories import empty_like as _empty_like
from ..ops.operands import where as _where
from ..random import calculate_gain  # noqa: F401  (torch.nn.init.calculate_gain)
from ..tensor import Tensor

_SCALAR_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _tensor(tensor, method):
    """torch calls tensor.<method>() first: the same AttributeError for a list or a number."""
    if not isinstance(tensor, Tensor):
        raise AttributeError(f"'{type(tensor).__name__}' object has no attribute '{method}'")


def _random_fill(tensor, kernel):
    """Random fills exist for floating tensors only (torch's error names its kernel)."""
    kind = tensor._data.dtype
    if kind.kind not in "fc":
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_SCALAR_NAMES.get(kind.name, kind.name)}\'')


def _zero_element(tensor):
    """kaiming_*: nothing to initialise in an empty tensor (torch warns)."""
    if 0 in tensor._data.shape:
        warnings.warn("Initializing zero-element tensors is a no-op", UserWarning, stacklevel=3)
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


def _shape_dtype(tensor):
    # half values are drawn as floats, then rounded (as torch's CPU kernels do)
    dtype = tensor._data.dtype
    return tensor._data.shape, (np.dtype(np.float32) if dtype == np.float16 else dtype)


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    _tensor(tensor, "uniform_")
    _random_fill(tensor, "check_uniform_bounds")
    return _fill(tensor, _random.init_uniform(*_shape_dtype(tensor), a, b, generator=generator))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    _tensor(tensor, "normal_")
    if std < 0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {std:g}")
    _random_fill(tensor, "normal_kernel_cpu")
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


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    _tensor(tensor, "shape")
    if _zero_element(tensor):
        return tensor
    mode = _mode(mode)
    _random_fill(tensor, "check_uniform_bounds")
    return _fill(tensor, _random.kaiming_uniform(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                 generator=generator))


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    _tensor(tensor, "shape")
    if _zero_element(tensor):
        return tensor
    mode = _mode(mode)
    _random_fill(tensor, "normal_kernel_cpu")
    return _fill(tensor, _random.kaiming_normal(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                generator=generator))


def xavier_uniform_(tensor, gain=1.0, generator=None):
    _tensor(tensor, "dim")
    _random_fill(tensor, "check_uniform_bounds")
    return _fill(tensor, _random.xavier_uniform(*_shape_dtype(tensor), gain=gain, generator=generator))


def xavier_normal_(tensor, gain=1.0, generator=None):
    _tensor(tensor, "dim")
    _random_fill(tensor, "normal_kernel_cpu")
    return _fill(tensor, _random.xavier_normal(*_shape_dtype(tensor), gain=gain, generator=generator))


def _calculate_fan_in_and_fan_out(tensor):
    return _random.fan_in_and_fan_out(tensor._data.shape)


def orthogonal_(tensor, gain=1, generator=None):
    """PyTorch's composition: normal draws, the QR of the (rows, cols) matrix (its transpose when wide),
    Q's columns times the signs of R's diagonal."""
    _tensor(tensor, "ndimension")
    if tensor._data.ndim < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    if tensor._data.size == 0:
        return tensor
    rows = tensor._data.shape[0]
    cols = tensor._data.size // rows
    with _grad_mode.no_grad():
        flattened = tensor.new_empty((rows, cols)).normal_(0, 1, generator=generator)
        if rows < cols:
            flattened.t_()
        q, r = _linalg.qr(flattened)
        q *= r.diag(0).sign()
        if rows < cols:
            q.t_()
        tensor.view_as(q).copy_(q)
        tensor.mul_(gain)
    return tensor


def sparse_(tensor, sparsity, std=0.01, generator=None):
    """Normal draws, then in each column ceil(sparsity * rows) rows (a randperm's first ones) set to 0."""
    _tensor(tensor, "ndimension")
    if tensor._data.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    rows, cols = tensor._data.shape
    num_zeros = math.ceil(sparsity * rows)
    with _grad_mode.no_grad():
        tensor.normal_(0, std, generator=generator)
        for col_idx in range(cols):
            # (torch draws the permutation from the default generator, whatever `generator` is)
            zero_indices = _sampling.randperm(rows)[:num_zeros]
            tensor[zero_indices, col_idx] = 0
    return tensor


def dirac_(tensor, groups=1):
    """The identity of a convolution: 1 at the centre of each (out, in) kernel where out == in, per group."""
    _tensor(tensor, "ndimension")
    dimensions = tensor._data.ndim
    if dimensions not in [3, 4, 5]:
        raise ValueError("Only tensors with 3, 4, or 5 dimensions are supported")
    sizes = tensor._data.shape
    if sizes[0] % groups != 0:
        raise ValueError("dim 0 must be divisible by groups")
    out_chans_per_grp = sizes[0] // groups
    min_dim = min(out_chans_per_grp, sizes[1])
    with _grad_mode.no_grad():
        tensor.zero_()
        for g in range(groups):
            for d in range(min_dim):
                tensor[(g * out_chans_per_grp + d, d) + tuple(s // 2 for s in sizes[2:])] = 1
    return tensor


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """PyTorch's sampler: normal draws redrawn where outside [a, b] when that interval holds more than 0.3 of
    the mass, else uniform candidates on [a, b] accepted against the density (rejection sampling)."""
    def norm_cdf(x):
        return (1.0 + math.erf(x / math.sqrt(2.0))) / 2.0

    if (mean < a - 2 * std) or (mean > b + 2 * std):
        warnings.warn("mean is more than 2 std from [a, b] in nn.init.trunc_normal_. "
                      "The distribution of values may be incorrect.")  # (torch's points into init.py too)
    with _grad_mode.no_grad():
        p = norm_cdf((b - mean) / std) - norm_cdf((a - mean) / std)
        if p > 0.3:
            lo = tensor.new_tensor(a).item()
            hi = tensor.new_tensor(b).item()
            result = tensor.normal_(mean, std, generator=generator)
            while True:
                mask = (result < lo) | (result > hi)
                if not mask.any():
                    break
                result = _where(mask, _empty_like(result).normal_(mean, std, generator=generator), result)
            if tensor is not result:
                tensor.copy_(result)
        else:
            mode = max(a, min(mean, b))
            log_peak = -0.5 * ((mode - mean) / std) ** 2
            candidates = _empty_like(tensor)
            accept_buf = _empty_like(tensor)
            tensor.uniform_(a, b, generator=generator)
            candidates.copy_(tensor)
            candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
            pending = accept_buf.uniform_(generator=generator).log_().gt(candidates)
            if pending.any():
                result = tensor
                while True:
                    candidates.uniform_(a, b, generator=generator)
                    result = _where(pending, candidates, result)
                    candidates.sub_(mean).div_(std).pow_(2).mul_(-0.5).sub_(log_peak)
                    pending = _where(pending, accept_buf.uniform_(generator=generator).log_().gt(candidates), pending)
                    if not pending.any():
                        break
                tensor.copy_(result)
        return tensor


def _make_deprecate(meth):
    """torch's old names without the underscore: the same function after a FutureWarning."""
    new_name = meth.__name__
    old_name = new_name[:-1]

    def deprecated_init(*args, **kwargs):
        warnings.warn(f"`nn.init.{old_name}` is now deprecated in favor of `nn.init.{new_name}`.", FutureWarning,
                      stacklevel=2)
        return meth(*args, **kwargs)

    deprecated_init.__doc__ = f"""
    {old_name}(...)

    .. warning::
        This method is now deprecated in favor of :func:`torch.nn.init.{new_name}`.

    See :func:`~torch.nn.init.{new_name}` for details."""
    deprecated_init.__name__ = old_name
    return deprecated_init


uniform = _make_deprecate(uniform_)
normal = _make_deprecate(normal_)
constant = _make_deprecate(constant_)
eye = _make_deprecate(eye_)
dirac = _make_deprecate(dirac_)
xavier_uniform = _make_deprecate(xavier_uniform_)
xavier_normal = _make_deprecate(xavier_normal_)
kaiming_uniform = _make_deprecate(kaiming_uniform_)
kaiming_normal = _make_deprecate(kaiming_normal_)
orthogonal = _make_deprecate(orthogonal_)
sparse = _make_deprecate(sparse_)
