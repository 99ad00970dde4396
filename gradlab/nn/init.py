"""gradlab.nn.init: torch's initialisers. Each fills a tensor in place (untracked, like torch's
`with torch.no_grad()`), drawing from the same random stream as torch, and returns the tensor."""
import math

import numpy as np

from .. import random as _random
from ..random import calculate_gain  # noqa: F401  (torch.nn.init.calculate_gain)
from ..tensor import Tensor
from .. import _warnings

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
