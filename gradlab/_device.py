"""torch.device, and what PyTorch's CPU-only build answers about other devices.

gradlab computes with numpy on the CPU, so it behaves like a PyTorch built without CUDA: every
device string PyTorch knows parses (`torch.device('cuda:1')` is a valid description), but asking
for a tensor on any device but the CPU fails with PyTorch's own error
(`AssertionError: Torch not compiled with CUDA enabled`), so a notebook written for a GPU fails
loudly here instead of silently running somewhere else.
"""
import numbers

import numpy as np

from . import _argparse
from ._ctype import CType

# the device types PyTorch parses, in the order its error message lists them
_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia", "xla",
          "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_TYPE_IDS = {"cpu": 0, "cuda": 1, "mkldnn": 2, "opengl": 3, "opencl": 4, "ideep": 5, "hip": 6, "fpga": 7, "maia": 8,
             "xla": 9, "vulkan": 10, "xpu": 12, "mps": 13, "meta": 14, "hpu": 15, "ve": 16, "lazy": 17, "ipu": 18,
             "mtia": 19, "privateuseone": 20}
# the rest of PyTorch's message when a CUDA part is asked of a CPU build (two messages start differently)
NO_CUDA_LIBRARY = (
    "PyTorch splits its backend into two shared libraries: a CPU library and a CUDA library; this error has "
    "occurred because you are trying to use some CUDA functionality, but the CUDA library has not been loaded by "
    "the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any "
    "symbols from the CUDA library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; "
    "many dynamic linkers will delete dynamic library dependencies if you don't depend on any of their symbols.  "
    "You can check if this has occurred by using ldd on your binary to see if there is a dependency on *_cuda.so "
    "library.")
_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_MISSING = object()


def _signature_error(got):
    return TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     " * (torch.device device)\n"
                     f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
                     " * (str type, int index = -1)\n")


def _index(i):
    """PyTorch keeps a device index in 8 bits (c10::DeviceIndex); -1 means "no index"."""
    if i < 0:
        raise RuntimeError("Device index must not be negative")
    if i >= 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    i = (i + 128) % 256 - 128
    return None if i == -1 else i


def _parse(text):
    """'cuda:1' -> ('cuda', 1), with the checks and messages of c10::Device's parser."""
    if not text:
        raise RuntimeError("Device string must not be empty")
    name, sep, digits = text.partition(":")
    valid = name and all(c.isascii() and (c.isalpha() or c == "_") for c in name) and (
        not sep or (digits.isascii() and digits.isdigit() and (digits == "0" or digits[0] != "0")))
    if not valid:
        raise RuntimeError(f"Invalid device string: '{text}'")
    if name not in _TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TYPES)} device type at start of device string: {name}")
    if not sep:
        return name, None
    if int(digits) >= 2 ** 31:             # (std::stoi fails)
        raise RuntimeError(f"Could not parse device index '{digits}' in device string '{text}'")
    return name, _index(int(digits))


class device(metaclass=CType, c_name="torch.device"):
    """Where a tensor lives: `device(type='cpu')`. Immutable and hashable, like PyTorch's."""
    __slots__ = ("_type", "_index")

    def __init__(self, type=_MISSING, index=_MISSING):
        if index is not _MISSING:                      # the (str type, int index) signature
            if not isinstance(type, str):
                raise TypeError(f"device(): argument 'type' (position 1) must be str, not {_name(type)}")
            if index is not None and not isinstance(index, int) or isinstance(index, bool):
                raise TypeError(f"device(): argument 'index' (position 2) must be int, not {_name(index)}")
            t, i = _parse(type)
            if ":" in type:
                raise RuntimeError(f"type (string) must not include an index because index was passed "
                                   f"explicitly: {type}")
            if index is not None:
                i = _index(index)
        elif isinstance(type, device):
            t, i = type._type, type._index
        elif isinstance(type, str):
            t, i = _parse(type)
        elif isinstance(type, int) and not isinstance(type, bool):
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            raise RuntimeError(_NO_ACCELERATOR)
        elif type is _MISSING:
            raise TypeError("device() received an invalid combination of arguments - got (), but expected one of:\n"
                            " * (torch.device device)\n * (str type, int index = -1)\n")
        else:
            raise _signature_error(_name(type))
        object.__setattr__(self, "_type", t)
        object.__setattr__(self, "_index", i)

    @property
    def type(self):
        return self._type

    @property
    def index(self):
        return self._index

    def __setattr__(self, name, value):
        if name in ("type", "index"):
            raise AttributeError(f"attribute '{name}' of 'torch.device' objects is not writable")
        raise AttributeError(f"'torch.device' object has no attribute '{name}'")

    def __repr__(self):
        if self._index is None:
            return f"device(type='{self._type}')"
        return f"device(type='{self._type}', index={self._index & 0xFFFF})"

    def __str__(self):
        return self._type if self._index is None else f"{self._type}:{self._index}"

    def __eq__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return self._type == other._type and self._index == other._index

    def __ne__(self, other):
        if not isinstance(other, device):
            return NotImplemented
        return not self == other

    def __hash__(self):
        index = -1 if self._index is None else self._index
        return (_TYPE_IDS[self._type] << 16) | (index & 0xFF)

    def _compare(self, other):
        if not isinstance(other, device):    # (Python's own message then: "'<' not supported between ...")
            return NotImplemented
        raise TypeError("comparison not implemented")

    __lt__ = __le__ = __gt__ = __ge__ = _compare

    def __reduce__(self):
        return (device, (self._type,) if self._index is None else (self._type, self._index))

    def __enter__(self):                # `with torch.device('cuda'):` makes it the factories' default
        _default.append(self)
        return self

    def __exit__(self, *exc):
        _default.pop()


device.__module__ = "gradlab"     # type(d) prints <class 'gradlab.device'> (torch: <class 'torch.device'>)


def _name(x):
    return _argparse.type_name(x)        # PyTorch's name of the value's type ("Tensor", "torch.device")


CPU = device("cpu")
META = device("meta")


def as_device(d, function=None, position=""):
    """A factory's or .to()'s `device` argument as a device (str, int or device); `function`
    names the factory in PyTorch's TypeError for anything else."""
    if isinstance(d, device):
        return d
    if isinstance(d, str):
        return device(d)
    if isinstance(d, numbers.Integral) and not isinstance(d, bool):      # an accelerator's index
        if d < 0:
            raise RuntimeError("Device index must not be negative")
        raise RuntimeError(_NO_ACCELERATOR)
    raise TypeError(f"{function}(): argument 'device'{position} must be torch.device, not {_name(d)}")


# --- the meta device ----------------------------------------------------------------------------
class MetaArray(np.ndarray):
    """A meta tensor's data: PyTorch's meta tensors have a shape, a dtype and strides but no values. gradlab
    keeps zeros of that shape, dtype and layout, and ops compute on them (their results' shapes, dtypes and
    layouts are then right) but every read of a value fails as PyTorch's does. The op table computes on plain
    views and tags its results (ops/registry.py); code outside it meets this class, whose numpy functions
    give meta results and refuse the data-dependent ones."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        # (devices are checked on the tensors, before: here a backward formula may meet its plain arrays)
        if "out" in kwargs:
            kwargs["out"] = tuple(_plain(o) for o in kwargs["out"])
        return _meta_result(getattr(ufunc, method)(*map(_plain, inputs), **kwargs))

    def __array_function__(self, func, types, args, kwargs):
        if func.__name__ in _DATA_DEPENDENT:
            raise NotImplementedError(_no_meta_kernel(_DATA_DEPENDENT[func.__name__]))
        return _meta_result(func(*_plain_all(args), **_plain_all(kwargs)))

    # a value read from a meta tensor: there is none (a backward formula reading its saved zeros gets them: its
    # results are only shapes too)
    def item(self, *args):
        if BACKWARD[0]:
            return np.ndarray.item(self, *args)
        raise RuntimeError(META_ITEM)

    def tolist(self):
        if BACKWARD[0]:
            return np.ndarray.tolist(self)
        raise NotImplementedError(META_NO_DATA)

    def __bool__(self):
        if BACKWARD[0]:
            return np.ndarray.__bool__(self)
        raise RuntimeError(META_ITEM)

    def __float__(self):
        if BACKWARD[0]:
            return np.ndarray.__float__(self)
        raise RuntimeError(META_ITEM)

    def __int__(self):
        if BACKWARD[0]:
            return np.ndarray.__int__(self)
        raise RuntimeError(META_ITEM)

    def __index__(self):
        if BACKWARD[0]:
            return np.ndarray.__index__(self)
        raise RuntimeError(META_ITEM)


def _plain(a):
    return a.view(np.ndarray) if type(a) is MetaArray else a


def _plain_all(x):
    if type(x) in (list, tuple):
        return type(x)(_plain_all(a) for a in x)
    if type(x) is dict:
        return {k: _plain_all(v) for k, v in x.items()}
    return _plain(x)


def _meta_result(r):
    if type(r) is np.ndarray:
        return r.view(MetaArray)
    if isinstance(r, np.generic):
        return np.asarray(r).view(MetaArray)
    if type(r) in (list, tuple):
        return type(r)(_meta_result(a) for a in r)
    return r


def _no_meta_kernel(op):
    if op == "nonzero":
        return ("The register_meta function for torch.nonzero() raises unimplemented by default, as a correct "
                "data-independent implementation does not exist. This implementation returns a fake value, assuming "
                "all elements of the tensor are non-zero. To enable this registration, please set "
                "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")
    return (f"aten::{op}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta kernel "
            "registered. You may have run into this message while using an operator with PT2 compilation APIs "
            "(torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a fake "
            "impl. Please see the following for next steps:  "
            "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")


# numpy's functions whose result's shape depends on the values (PyTorch has no meta kernel for them: the aten op
# named), met outside the op table
_DATA_DEPENDENT = {"nonzero": "nonzero", "flatnonzero": "nonzero", "argwhere": "nonzero", "unique": "_unique2",
                   "array_equal": "equal", "bincount": "bincount", "extract": "masked_select",
                   "compress": "masked_select"}


# whether a meta tensor was ever made: until then the op table pays nothing for the meta checks
META_MADE = [False]
# the device type a factory's _options checked last ("meta" or None), for its _finish to read
PENDING = [None]


# how many backward passes run now: their formulas mix a meta graph's saved arrays with plain ones freely (the
# devices were checked when the graph was made), and only the leaves' gradients are tagged meta (the engine)
BACKWARD = [0]

# what runs when the first meta tensor is made (gradlab/__init__.py adds the wrapping of the public API)
ON_FIRST_META = []


def meta_array(data):
    """A meta tensor's data shaped, typed and laid out as the array `data` (zeros: no values exist);
    a result computed on meta data is tagged with `tag`, keeping its layout."""
    if not META_MADE[0]:
        META_MADE[0] = True
        for hook in ON_FIRST_META:
            hook()
    if type(data) is MetaArray:
        return data
    out = np.zeros_like(data)          # (numpy's order 'K': the layout of data, as PyTorch's empty_like)
    return out.view(MetaArray)


def tag(out):
    """An op's result computed on meta data (an array, or a tuple of them) as meta data."""
    if type(out) is tuple:
        return tuple(tag(o) for o in out)
    return out if type(out) is MetaArray else np.asarray(out).view(MetaArray)


def is_meta(array):
    return type(array) is MetaArray


META_NO_DATA = "Cannot copy out of meta tensor; no data!"
META_ITEM = "Tensor.item() cannot be called on meta tensors"


def require_cpu(d):
    """Tensors live on the CPU only: anything else fails as in PyTorch's CPU-only build."""
    if d._type == "cpu":
        return
    if d._type == "cuda":
        raise AssertionError("Torch not compiled with CUDA enabled")
    if d._type == "xpu":
        raise AssertionError("Torch not compiled with XPU enabled")
    raise RuntimeError(f"PyTorch is not linked with support for {d._type} devices")


# the factories' default device: None (the CPU), set_default_device's, or that of a `with` block
_default = [None]


def set_default_device(d):
    _default[-1] = None if d is None else d if isinstance(d, device) else device(d)


def get_default_device():
    d = _default[-1]
    if d is None:
        return CPU
    if d._type != "meta":
        require_cpu(d)
    return d


def check(d, function):
    """The `device=` argument of a factory: None (the default device), the CPU or the meta device
    ("meta" is returned), checked the way PyTorch checks it."""
    if d is None:
        d = _default[-1]
        if d is None:
            return
    if d is CPU or type(d) is str and d == "cpu":
        return
    d = as_device(d, function)
    if d._type == "meta":
        return "meta"
    require_cpu(d)
