"""torch.autograd.Variable: the pre-0.4 wrapper, today a name for Tensor.

`Variable(t, requires_grad=True)` returns a Tensor (t detached: the same data, a new leaf), and
`isinstance(x, Variable)` asks whether x is a Tensor, as in PyTorch.
"""
import operator

import numpy as np

from .. import _dtype
from .._tensor_core import Tensor
from .. import _warnings

__all__ = ["VariableMeta", "Variable"]


def _integer(value):
    """A flag parsed the way CPython's "b" format parses it (PyTorch reads these so)."""
    if isinstance(value, float):
        raise TypeError("'float' object cannot be interpreted as an integer")
    return bool(operator.index(value))


class VariableMeta(type):
    def __instancecheck__(cls, other):
        return isinstance(other, Tensor)

    def __call__(cls, data=None, requires_grad=False, volatile=False, _grad_fn=None, name=None, **unknown):
        if unknown:
            raise TypeError(f"'{next(iter(unknown))}' is an invalid keyword argument for this function")
        requires_grad, volatile = _integer(requires_grad), _integer(volatile)
        if _grad_fn is not None:
            raise TypeError(f"_grad_fn has to be a Function object or None, but got {type(_grad_fn).__name__}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"argument 5 must be str or None, not {type(name).__name__}")
        if volatile:
            _warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                           UserWarning)
            if requires_grad:
                raise ValueError("Variable can't be volatile and require_grad at the same time!")
        if data is None:
            t = Tensor._make(np.zeros(0, _dtype.default_np()))
        elif isinstance(data, Tensor):
            t = data.detach()
        else:
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        if requires_grad and t._data.dtype.kind not in "fcV":
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        return t.requires_grad_(requires_grad)


class Variable(metaclass=VariableMeta):
    pass


Variable.__module__ = "gradlab.autograd.variable"
