"""gradlab.nn.init: torch's initialisers. Each fills a tensor in place (untracked, like torch's
`with torch.no_grad()`), drawing from the same random stream as torch, and returns the tensor."""
import math

import numpy as np

from .. import random as _random
from ..random import calculate_gain  # noqa: F401  (torch.nn.init.calculate_gain)


def _fill(tensor, array):
    tensor._data[...] = array
    tensor._version_counter[0] += 1
    return tensor


def _shape_dtype(tensor):
    return tensor._data.shape, tensor._data.dtype


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _fill(tensor, _random.init_uniform(*_shape_dtype(tensor), a, b, generator=generator))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _fill(tensor, _random.init_normal(*_shape_dtype(tensor), mean, std, generator=generator))


def constant_(tensor, val):
    return _fill(tensor, val)


def zeros_(tensor):
    return _fill(tensor, 0)


def ones_(tensor):
    return _fill(tensor, 1)


def eye_(tensor):
    if tensor._data.ndim != 2:
        raise ValueError("Only tensors with 2 dimensions are supported")
    return _fill(tensor, np.eye(*tensor._data.shape))


def kaiming_uniform_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    return _fill(tensor, _random.kaiming_uniform(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                 generator=generator))


def kaiming_normal_(tensor, a=0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    return _fill(tensor, _random.kaiming_normal(*_shape_dtype(tensor), a=a, mode=mode, nonlinearity=nonlinearity,
                                                generator=generator))


def xavier_uniform_(tensor, gain=1.0, generator=None):
    return _fill(tensor, _random.xavier_uniform(*_shape_dtype(tensor), gain=gain, generator=generator))


def xavier_normal_(tensor, gain=1.0, generator=None):
    return _fill(tensor, _random.xavier_normal(*_shape_dtype(tensor), gain=gain, generator=generator))


def _calculate_fan_in_and_fan_out(tensor):
    return _random.fan_in_and_fan_out(tensor._data.shape)
