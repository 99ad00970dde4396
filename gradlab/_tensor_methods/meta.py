"""The meta device outside the op table: Tensor methods and torch.* functions written by hand (comparisons, argmax,
sort's indices, any, ...) compute with numpy directly, and numpy's own functions drop the MetaArray class of a
meta tensor's data (np.asarray). Once a meta tensor exists (never before: normal programs pay nothing), every public
Tensor method and torch.* function is wrapped: with a meta tensor among its arguments it first refuses a cpu tensor
beside it (PyTorch's message; a 0-d cpu tensor goes with anything, as a number), then tags each tensor it returns as
meta. Its values were computed on the meta tensors' zeros: only their shapes, dtypes and layouts are kept, which
are what PyTorch's meta kernels compute. Data-dependent functions fail in _device.MetaArray or in their own code.
"""
import functools
import types

import numpy as np

from .. import _device, random as _random
from .._tensor_core import Tensor

# methods that move data between devices or read values (their own meta rules), or only read metadata
_SKIP = {"to", "cpu", "cuda", "type", "type_as", "copy_", "__setitem__", "numpy", "item", "tolist", "__array__",
         "__bool__", "__float__", "__int__", "__index__", "__complex__", "backward", "register_hook", "__repr__",
         "__str__", "__format__", "__deepcopy__", "__reduce_ex__", "__setstate__", "__getstate__", "size", "stride",
         "dim", "numel", "nelement", "ndimension", "is_contiguous", "data_ptr", "element_size", "get_device",
         "requires_grad_", "retain_grad", "__len__", "__contains__", "new_tensor", "new_zeros", "new_ones",
         "new_empty", "new_full", "is_floating_point", "is_complex", "is_set_to", "__hash__", "__init__",
         "__new__", "__init_subclass__", "__getattr__", "__setattr__", "__delattr__", "__dir__"}


def _scan(args, kwargs, shape_only=False, name=None):
    """The meta tensors among the arguments (or in a list or tuple of them); PyTorch's error when a meta tensor
    meets a cpu one that is not 0-d. The device expected is the first such tensor's. (A function of _UNCHECKED
    may mix them: then a list of the meta tensors, _Cpu if the result is to stay on the cpu.)"""
    expected = None
    metas = []
    backward = _device.BACKWARD[0]
    mixed = None
    for a in ((*args[:1],) if shape_only else (*args, *kwargs.values())):
        items = a if type(a) in (list, tuple) else (a,)
        for t in items:
            if isinstance(t, Tensor) and (t._data.ndim or type(t._data) is _device.MetaArray):
                here = "meta" if type(t._data) is _device.MetaArray else "cpu"
                if here == "meta":
                    metas.append(t)
                if expected is None:
                    expected = here
                elif here != expected and not backward and not _index_tensor(t) and mixed is None:
                    rule = _UNCHECKED.get(name)
                    try:
                        mixed = rule(*args, **kwargs) if rule is not None else None
                    except Exception:                   # (arguments the function itself refuses)
                        mixed = None
                    if mixed is None:
                        raise RuntimeError(f"Tensor on device {here} is not on the expected device {expected}!")
    if mixed is not None:
        return _Cpu(metas) if mixed.device.type == "cpu" else metas
    return metas if metas and (expected == "meta" or backward) else ()


class _Cpu(list):
    """The meta tensors of a call that mixes them with cpu ones and whose result PyTorch leaves on the cpu."""


# PyTorch's kernels that check no devices: with meta and cpu tensors mixed, the call dispatches to the meta kernel,
# which makes the result on one argument's device (and on the cpu, computes nothing: its values are memory's).
# function -> the argument whose device the result takes (None: PyTorch refuses the mix, its usual message).
def _matrix_product(input, other=None, *rest, **kwargs):      # mm, matmul by a matrix
    return input if other is not None and other.dim() == 2 and input.dim() >= 1 else None


_UNCHECKED = {
    "linear": lambda input, weight, bias=None: input if weight.dim() == 2 and (bias is None or bias.dim() == 0) else None,
    "mm": _matrix_product, "matmul": _matrix_product, "__matmul__": _matrix_product,
    "bmm": lambda input, mat2, *rest, **kwargs: mat2,         # (bmm's meta function takes mat2's options)
    "conv1d": lambda input, *rest, **kwargs: input, "conv2d": lambda input, *rest, **kwargs: input,
    "conv3d": lambda input, *rest, **kwargs: input,
    "embedding": lambda input, weight, *rest, **kwargs: weight,
}


def _index_tensor(t):
    """A cpu tensor of integers: an index, which PyTorch's indexing ops take from any device."""
    return t._data.dtype.kind in "iu"


def _tag(result):
    if isinstance(result, Tensor):
        if type(result._data) is not _device.MetaArray:
            result._data = _device.tag(result._data)
    elif isinstance(result, (list, tuple)):
        for r in result:
            _tag(r)
    return result


# the public functions whose result's shape depends on the values: PyTorch has no meta kernel for them
_DATA_DEPENDENT = {"nonzero": "nonzero", "argwhere": "nonzero", "masked_select": "masked_select",
                   "unique": "_unique2", "unique_consecutive": "unique_consecutive", "equal": "equal",
                   "bincount": "bincount"}
# the methods that read only the other tensor's shape
_SHAPE_ONLY = {"expand_as", "view_as", "reshape_as"}
# and those computed on ones instead (PyTorch's meta kernel checks no values: zeros are no distribution)
_ON_ONES = {"multinomial"}
# and those that read a value (a Python bool)
_READ_VALUE = {"allclose", "is_nonzero"}


def _masks(key):
    """Whether an index holds a bool or uint8 tensor (a mask: PyTorch finds its True places with nonzero)."""
    return any(isinstance(k, Tensor) and k._data.dtype.kind in "bu" and k._data.dtype.itemsize == 1
               for k in (key if type(key) is tuple else (key,)))


# The wrapper's code is named _meta_wrapper, and it calls fn itself: _argparse looks through such a frame for the
# user's call (whose arguments it checks), as it does through its own wrappers. Each copy carries the file name
# of the function it wraps (what introspection of the public functions reads).
_WRAPPER = compile("""
def _meta_wrapper(*args, **kwargs):
    metas = _scan(args, kwargs, shape_only, name)
    if not metas or "device" in kwargs:        # (device=: the caller names the result's device)
        return fn(*args, **kwargs)
    saved = _enter(name, metas, args, kwargs)
    try:
        result = fn(*args, **kwargs)
        if name == "__iter__":
            result = list(result)
    finally:
        _leave(saved)
    return result if type(metas) is _Cpu else _finish(name, result)
""", "<gradlab meta>", "exec")
_WRAPPER_CODE = next(c for c in _WRAPPER.co_consts if isinstance(c, types.CodeType))


def _meta_aware(fn):
    """fn wrapped: with a meta tensor among its arguments, computed on the zeros and its results tagged."""
    space = {"_scan": _scan, "_Cpu": _Cpu, "_enter": _enter, "_leave": _leave, "_finish": _finish, "fn": fn,
             "name": fn.__name__, "shape_only": fn.__name__ in _SHAPE_ONLY, "__builtins__": __builtins__}
    code = getattr(fn, "__code__", None)
    wrapper = types.FunctionType(_WRAPPER_CODE.replace(co_filename=code.co_filename) if code else _WRAPPER_CODE,
                                 space)
    wrapper = functools.wraps(fn)(wrapper)
    wrapper._meta_wrapped = True
    return wrapper


def _enter(name, metas, args, kwargs):
    """PyTorch's errors for the data-dependent functions; else the meta arguments given plain views of their
    zeros (every path of fn then runs as on the CPU), to be put back by _leave."""
    if name in _DATA_DEPENDENT:
        raise NotImplementedError(_device._no_meta_kernel(_DATA_DEPENDENT[name]))
    if name in _READ_VALUE:
        raise RuntimeError(_device.META_ITEM)
    if name == "where" and len(args) + len(kwargs) == 1 or name == "__getitem__" and _masks(args[1]):
        raise NotImplementedError(_device._no_meta_kernel("nonzero"))    # (x[mask] and where(c): nonzero)
    saved = [(t, t._data, t._data.view(np.ndarray) if name not in _ON_ONES else np.ones_like(t._data.view(np.ndarray)))
             for t in metas]
    for t, _, plain in saved:
        t._data = plain
    # (PyTorch's meta kernels draw no random numbers: the generators are put back as they were)
    generators = [g for g in (_random.default_generator, kwargs.get("generator")) if isinstance(g, _random.Generator)]
    return saved, [(g, g.throwaway()) for g in generators]


def _leave(entered):
    saved, generators = entered
    # (an in-place method may have given an argument a new array: tagged too)
    for t, data, plain in saved:
        t._data = data if t._data is plain else _device.tag(t._data)
    for g, before in generators:
        g.__dict__.clear()
        g.__dict__.update(before.__dict__)


def _finish(name, result):
    if _device.BACKWARD[0]:
        return result
    return iter(_tag(result)) if name == "__iter__" else _tag(result)


def _wrappable(name, value):
    return (name not in _SKIP and (not name.startswith("_") or (name.startswith("__") and name.endswith("__")))
            and isinstance(value, (types.FunctionType, types.BuiltinFunctionType, functools.partial))
            and not getattr(value, "_meta_wrapped", False))


# functions whose identity PyTorch's own code tests (TransformerEncoderLayer: `activation is F.relu`): a wrapper
# would be another object than the one a model was built with. Their meta results come from the op table.
_KEEP_IDENTITY = {"relu", "gelu"}


def install(namespaces):
    """Wrap Tensor's public methods and the public functions of these module namespaces (dicts)."""
    for name, value in list(vars(Tensor).items()):
        if _wrappable(name, value):
            setattr(Tensor, name, _meta_aware(value))
    for space in namespaces:
        for name, value in list(space.items()):
            if _wrappable(name, value) and not name.endswith("_like") and name not in _KEEP_IDENTITY:
                space[name] = _meta_aware(value)
