"""Parameter: a leaf Tensor that a Module registers as one of its learnable weights.

It is a Tensor in every way (`isinstance(p, Tensor)` is True, ops on it give plain Tensors);
the subclass only tells `Module.__setattr__` to record it in `_parameters`, and prints
`Parameter containing:` above the tensor, as PyTorch does.
"""
import numpy as np

from ..tensor import _FLOAT_ONLY, Tensor, _init, _type_name


class Parameter(Tensor):
    def __init__(self, data=None, requires_grad=True):
        if data is None:
            array = np.empty((0,), dtype=np.float32)
        elif isinstance(data, Tensor):
            array = data._data          # shares storage with `data`, like torch
        else:                           # torch calls data.detach(): its AttributeError for a list
            raise AttributeError(f"'{_type_name(data)}' object has no attribute 'detach'")
        if requires_grad and array.dtype.kind not in "fc":
            raise RuntimeError(_FLOAT_ONLY)
        _init(self, array)
        self._requires_grad = bool(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __str__ = __repr__

    def __reduce_ex__(self, proto):
        return (Parameter, (Tensor._make(self._data.copy()), self._requires_grad))
