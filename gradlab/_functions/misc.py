"""torch functions that are a tensor method or a fact about a tensor: is_signed, get_device, typename,
put, index_put_, nonzero_static, resize_as_, set_flush_denormal (_tensor_methods/misc.py and the others)."""
import numpy as np

from .._tensor_core import Tensor
from ..ops.operands import _type_name
from ._common import method_form

__all__ = ["is_signed", "get_device", "typename", "put", "index_put_", "nonzero_static", "resize_as_",
           "set_flush_denormal"]

is_signed, get_device, put, index_put_, resize_as_ = (method_form(name) for name in (
    "is_signed", "get_device", "put", "index_put_", "resize_as_"))


def nonzero_static(input, *, size, fill_value=-1, out=None):
    result = input.nonzero_static(size=size, fill_value=fill_value)
    if out is not None:
        out.resize_(result.shape).copy_(result)
        return out
    return result


_LEGACY = {"float32": "FloatTensor", "float64": "DoubleTensor", "float16": "HalfTensor", "int64": "LongTensor",
           "int32": "IntTensor", "int16": "ShortTensor", "int8": "CharTensor", "uint8": "ByteTensor",
           "bool": "BoolTensor", "complex64": "ComplexFloatTensor", "complex128": "ComplexDoubleTensor"}


def typename(obj):
    """torch.typename: a tensor's legacy type name (torch.FloatTensor), else the object's qualified class name."""
    if isinstance(obj, Tensor):
        return "torch." + _LEGACY.get(np.dtype(obj._data.dtype).name, "Tensor")
    module = getattr(obj, "__module__", "") or type(obj).__module__
    qualname = ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__ or ""
        qualname = type(obj).__qualname__
    module = module.replace("gradlab", "torch") if module.startswith("gradlab") else module
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def set_flush_denormal(mode):
    """Whether the CPU flushes denormal numbers: PyTorch sets the x86 FTZ/DAZ flags and returns True; numpy
    has no such switch, so gradlab keeps denormals either way (and still answers True, as x86 PyTorch does)."""
    if not isinstance(mode, bool):
        raise RuntimeError(f"flush_denormal expects a bool, but got {_type_name(mode)}")
    return True
