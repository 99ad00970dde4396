"""What every factory checks first: `dtype=`, `device=`, `pin_memory=`, sizes, and the
"invalid combination of arguments" message of a factory with several signatures.

The factory modules beside this one (data, legacy, factories, ranges, sampling) import these
checks from here and nothing from each other; data.py and legacy.py both read Python data with
gradlab/_tensor_data.py (`torch.FloatTensor([1, 2])` converts like `torch.tensor([1, 2],
dtype=torch.float32)`).
"""
import numpy as np

from .. import _device, _dtype
from .._tensor_core import _FLOAT_ONLY, Tensor
from .._tensor_data import _argument_type_name
from .._tensor_methods.shape import _size_args


def _finish(data, requires_grad):
    """A new leaf tensor around `data`; only floating and complex ones may require grad. On the meta device
    (the `device=` that _options checked last) its zeros, shaped, typed and laid out as data."""
    if _device.PENDING[0] == "meta":
        _device.PENDING[0] = None
        data = _device.meta_array(data)
    elif type(data) is _device.MetaArray:     # (computed from a meta tensor for another device: its values)
        data = data.view(np.ndarray)
    if _PENDING_C32[0]:
        _PENDING_C32[0] = False
        if data.dtype.kind == "c":
            data = _dtype.c64_to_c32(data)
    t = Tensor._make(data)
    if requires_grad:
        if data.dtype.kind not in "fcV":
            raise RuntimeError(_FLOAT_ONLY)
        t._requires_grad = True
    return t


def _np(dtype, default=None):
    """A factory's numpy dtype: `dtype`, else `default`, else the default dtype (set_default_dtype)."""
    if dtype is not None:
        return _c32_as_c64(_dtype.to_numpy_dtype(dtype))
    return _c32_as_c64(np.dtype(default)) if default is not None else _dtype.default_np()


# complex32: a factory fills a complex64 array, which _finish rounds to complex32 (numpy's ones or full of a
# structured dtype would fill both parts). The flag says so from _options (which clears it first) to _finish.
_PENDING_C32 = [False]


def _c32_as_c64(np_dtype):
    if np_dtype.kind == "V":
        _PENDING_C32[0] = True
        return np.dtype(np.complex64)
    return np_dtype


# The factories with no ComplexHalf kernel: (exception, message)
_NO_C32 = {"arange": '"arange_cpu" not implemented', "linspace": '"linspace_cpu" not implemented',
           "logspace": '"logspace_cpu" not implemented', "eye": '"eye" not implemented',
           "range": '"range_cpu" not implemented', "randperm": '"randperm" not implemented'}
_C32_BOUNDS = "check_random_bounds handles only integral, floating-point and boolean types"


# The signatures PyTorch lists when a factory with several of them gets an argument it refuses
_OUT = "Tensor out = None, "
_GEN = "torch.Generator generator, "
_MEMORY = "torch.memory_format memory_format = None, "
_LINSPACE = [f"{a} start, {b} end, int steps{{}}, *, {_OUT}" for a, b in
             (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"), ("Number", "Number"))]
_SIGNATURES = {
    "rand": ["tuple of ints size, *, " + _GEN + _OUT, "tuple of ints size, *, " + _OUT],
    "eye": ["int n, *, " + _OUT, "int n, int m, *, " + _OUT],
    "arange": ["Number end, *, " + _OUT, "Number start, Number end, *, ",
               "Number start, Number end, Number step = 1, *, " + _OUT],
    "linspace": [s.format("") for s in _LINSPACE],
    "logspace": [s.format(", float base = 10.0") for s in _LINSPACE],
    "rand_like": ["Tensor input, *, " + _GEN + _MEMORY, "Tensor input, *, " + _MEMORY],
    "randint": [f"{low}int high, tuple of ints size, *, {gen}{_OUT}" for low in ("", "int low, ")
                for gen in (_GEN, "")],
    "randint_like": [f"Tensor input, {high}, *, {gen}{_MEMORY}" for high in ("int low, int high", "Tensor high",
                                                                             "int high") for gen in (_GEN, "")],
}
_SIGNATURES["randn"] = _SIGNATURES["rand"]
_SIGNATURES["randn_like"] = _SIGNATURES["rand_like"]
_OPTIONS = "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = " \
           "False, bool requires_grad = False)"


_NO_PINNED_MEMORY = ("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory allocator is "
                     "available on this system.")


def _options(function, dtype, device, args=(), pin_memory=False, **given):
    """A factory's dtype (as a numpy dtype, or None) after PyTorch's checks of `dtype=` and `device=`.

    A factory with one signature names the wrong argument; one with several lists them all, with
    the types it got (`args` and the keyword arguments `given` that differ from their default)."""
    try:
        np_dtype = _dtype.check_dtype_argument(dtype, function)
        _PENDING_C32[0] = False
        if np_dtype is not None and np_dtype.kind == "V":
            if function in _NO_C32:
                raise NotImplementedError(_NO_C32[function] + " for 'ComplexHalf'")
            if function.startswith("randint"):
                raise RuntimeError(_C32_BOUNDS)
            np_dtype = _c32_as_c64(np_dtype)
        _device.PENDING[0] = None
        _device.PENDING[0] = _device.check(device, function)
        if pin_memory:
            raise RuntimeError(_NO_PINNED_MEMORY)
        return np_dtype
    except TypeError:
        if function not in _SIGNATURES:
            raise
    raise _combination_error(function, args, {"dtype": dtype, "device": device, **given})


def _like_device(input, device):
    """A *_like factory's device: device=None is input's (a meta tensor's copies are meta)."""
    if device is None and _device.is_meta(input._data):
        _device.PENDING[0] = "meta"


def _combination_error(function, args, given):
    got = [_argument_type_name(a) for a in args] + [f"{k}={_argument_type_name(v)}" for k, v in
                                                    reversed(given.items()) if v is not None and v is not False]
    return TypeError(f"{function}() received an invalid combination of arguments - got ({', '.join(got)}), but "
                     "expected one of:\n" + "".join(f" * ({s}{_OPTIONS}\n" for s in _SIGNATURES[function]))



# c10's names of the dtypes in a TensorOptions message
_OPTIONS_NAMES = {np.dtype(np.float32): "float", np.dtype(np.float64): "double", np.dtype(np.float16): "c10::Half",
                  np.dtype(np.int64): "long int", np.dtype(np.int32): "int", np.dtype(np.int16): "short int",
                  np.dtype(np.int8): "signed char", np.dtype(np.uint8): "unsigned char", np.dtype(np.bool_): "bool"}



def _shape(size, factory=None):
    """Sizes as a tuple, with PyTorch's error for a negative one (zeros words it its own way)."""
    if factory and len(size) == 1 and isinstance(size[0], (bool, np.bool_)):
        raise TypeError(f"{factory}(): argument 'size' (position 1) must be tuple of ints, not bool")
    shape = _size_args(size)
    if any(s < 0 for s in shape):
        if factory == "zeros":
            raise RuntimeError("zeros: Dimension size must be non-negative.")
        raise RuntimeError(f"Trying to create tensor with negative dimension {next(s for s in shape if s < 0)}: "
                           f"[{', '.join(map(str, shape))}]")
    return shape


def _not_implemented(kernel, np_dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_dtype.from_numpy_dtype(np_dtype)._legacy[:-6]}\'')
