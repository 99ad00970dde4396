"""torch.tensor(data), as_tensor and from_numpy. How Python data and numpy arrays become a tensor's
array (PyTorch's dtype inference, element checks and refusals) is read in `gradlab/_tensor_data.py`,
below the ops, which also turn data into tensors (`x + [1, 2]`)."""

import numpy as np

from .._tensor_core import Tensor
from .._tensor_data import _argument_type_name, _check_numpy, array_from_data
from .options import _finish, _np, _options
from .. import _warnings


def tensor(data, *, dtype=None, device=None, requires_grad=False, pin_memory=False):
    """A new leaf tensor holding a copy of `data` (a number, nested lists, or a numpy array)."""
    np_dtype = _options("tensor", dtype, device, pin_memory=pin_memory)
    if isinstance(data, Tensor):
        _warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                       "sourceTensor.detach().clone().requires_grad_(True), rather than torch.tensor(sourceTensor).",
                       UserWarning)
    return _numpy_strides(_finish(array_from_data(data, np_dtype), requires_grad), data)


def _numpy_strides(t, data):
    """An empty numpy array's strides (in elements) stay the tensor's, as in PyTorch, which copies them:
    numpy gives a new empty array zero strides (torch.tensor(np.zeros((0, 3))).stride() is (0, 0))."""
    if isinstance(data, np.ndarray) and data.size == 0 and data.ndim:
        t._empty_strides = (t._data.shape, tuple(s // data.itemsize for s in data.strides))
    return t


def as_tensor(data, dtype=None, device=None):
    _options("as_tensor", dtype, device)
    if isinstance(data, Tensor):
        return data if dtype is None else data.to(dtype)
    if isinstance(data, np.ndarray) and (dtype is None or _np(dtype) == data.dtype):
        _check_numpy(data, shared=True)
        return _numpy_strides(Tensor._make(data), data)
    return tensor(data, dtype=dtype)


def from_numpy(array):
    """A tensor sharing memory with a numpy array (changes show in both)."""
    if not isinstance(array, np.ndarray):
        raise TypeError(f"expected np.ndarray (got {_argument_type_name(array)})")
    _check_numpy(array, shared=True)
    return _numpy_strides(Tensor._make(array), array)
