"""torch.Tensor(...) and torch.FloatTensor(...)-style legacy constructors: sizes, an aliased tensor,
or data converted to the type's dtype (tensor.py's Tensor(...) calls legacy_data)."""
import numbers

import numpy as np

from .. import _device, _dtype
from .._argparse.parser import _invalid_combination
from .._size import Size
from .._tensor_core import Tensor
from .._tensor_data import _SEQUENCES, _argument_type_name, _check_numpy, _from_python
from .options import _OPTIONS_NAMES, _shape


# the signatures of PyTorch's legacy constructor (its "new()"), as its argument errors list them
_SIGNATURES = ["(*, torch.device device = None)", "(torch.Storage storage)", "(Tensor other)",
               "(tuple of ints size, *, torch.device device = None)", "(object data, *, torch.device device = None)"]


def legacy_arguments(args, kwargs):
    """The `device` of a legacy constructor's call, after PyTorch's check of its arguments: any
    keyword but device, or several arguments that are not sizes, match none of its signatures."""
    several = len(args) > 1 and not isinstance(args[0], (numbers.Integral, Tensor))
    named = [k for k in ("size", "data", "other") if k in kwargs]
    if set(kwargs) - {"device", *named[:1]} or several or named and args:
        raise TypeError(_invalid_combination("new", _SIGNATURES, args, kwargs))
    if named == ["size"]:
        return kwargs.get("device"), tuple(kwargs["size"])
    return kwargs.get("device"), (kwargs[named[0]],) if named else args


def legacy_data(args, kwargs, np_dtype=None):
    """The array of `torch.Tensor(...)` / `torch.FloatTensor(...)` (positional `args`, keyword
    `kwargs`): sizes (uninitialised in PyTorch, zeros here), a tensor (aliased), or a sequence of
    data converted to the type's dtype (the default dtype for torch.Tensor, np_dtype None)."""
    device, args = legacy_arguments(args, kwargs)
    typed = np_dtype is not None
    np_dtype = np_dtype if typed else _dtype.default_np()
    if device is not None:
        d = _device.as_device(device, "new")
        if d.type != "cpu":
            raise RuntimeError(f"legacy constructor expects device type: cpu but device type: {d.type} was passed")
    if not args:
        return np.zeros(0, np_dtype)
    if len(args) == 1 and not isinstance(args[0], (numbers.Integral, Size)):
        data = args[0]
        if isinstance(data, Tensor):
            if typed and data._data.dtype != np_dtype:
                options = ("device=cpu, layout=Strided, requires_grad=false (default), pinned_memory=false "
                           "(default), memory_format=(nullopt))")
                raise TypeError(f"expected TensorOptions(dtype={_OPTIONS_NAMES[np_dtype]}, {options} (got "
                                f"TensorOptions(dtype={_OPTIONS_NAMES.get(data._data.dtype)}, {options})")
            return data._data
        if isinstance(data, (str, bytes)):
            raise TypeError(f"new(): invalid data type '{type(data).__name__}'")
        if not isinstance(data, _SEQUENCES):
            raise TypeError(f"new(): data must be a sequence (got {_argument_type_name(data)})")
        if isinstance(data, np.ndarray):
            _check_numpy(data)
            return data.astype(np_dtype)
        return _from_python(data, np_dtype)
    for i, a in enumerate(args[0] if isinstance(args[0], Size) else args):
        if not isinstance(a, numbers.Integral) and not isinstance(a, Tensor):
            raise TypeError(f"new(): argument 'size' failed to unpack the object at pos {i + 1} with error \"type "
                            f"must be tuple of ints,but got {_argument_type_name(a)}\"")
    return np.zeros(_shape(args), np_dtype)


class tensortype(type):
    """The metaclass of torch.FloatTensor and friends: `isinstance(x, torch.FloatTensor)` asks for
    x's dtype, and `torch.FloatTensor([1, 2])` makes a float32 tensor (legacy constructors)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj._data.dtype == cls.dtype.np

    def __call__(cls, *args, **kwargs):
        return Tensor._make(legacy_data(args, kwargs, cls.dtype.np))


tensortype.__module__ = "gradlab"       # type(torch.FloatTensor) prints <class 'torch.tensortype'>


def _legacy_types():
    return {d._legacy: tensortype(d._legacy, (), {"dtype": d, "is_cuda": False, "__module__": "gradlab"})
            for d in _dtype.ALL if d.np.kind in "biuf" and d.np not in _dtype._SHELL}
