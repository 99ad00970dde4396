"""Tensor's conversions: to Python and numpy (`item`, `tolist`, `numpy`, `float(t)`, `len`, ...),
to dtypes and devices (`to`, `type`, `float()`, `cuda`), the `new_*` factories, `clone`, `contiguous`."""
import numbers

import numpy as np

from .. import _device, _dtype
from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..ops import OPS, elementwise as _elementwise, registry as _registry
from ..ops.operands import _type_name
from ..creation.data import tensor
from ..creation.factories import empty, full, ones, zeros
from ..creation.options import _options, _shape
from ._common import _argument_type_name, counted_result
from .. import _warnings

_FACTORIES = {"zeros": zeros, "ones": ones, "empty": empty}     # x.new_zeros(...), ...


def _shared_array(data):
    """The array numpy() shares: the tensor's own, except that an empty one has zero strides (numpy gives
    PyTorch's empty arrays those)."""
    if not data.size and any(data.strides):
        return np.lib.stride_tricks.as_strided(data, data.shape, (0,) * data.ndim)
    return data


def _values(data):
    """The array whose values Python reads: complex32's structured array as complex64 (its exact values)."""
    return _dtype.c32_to_c64(data) if data.dtype.kind == "V" else data


def _check_bits(t):
    """numpy() refuses a tensor whose conjugate or negative bit is set (its memory holds the other numbers)."""
    if t.is_conj():
        raise RuntimeError("Can't call numpy() on Tensor that has conjugate bit set. Use tensor.resolve_conj().numpy() "
                           "instead.")
    if t.is_neg():
        raise RuntimeError("Can't call numpy() on Tensor that has negative bit set. Use tensor.resolve_neg().numpy() "
                           "instead.")


class _ConversionMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- conversion to Python and numpy ---------------------------------------------------------
    def item(self):
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to Scalar")
        if type(self._data) is _device.MetaArray:
            raise RuntimeError(_device.META_ITEM)
        return _values(self._data).reshape(()).item()

    def tolist(self):
        if getattr(self, "_zerotensor", False):      # (a ZeroTensor has no storage to read)
            raise RuntimeError("tolist() shouldn't be called on a tensor with unallocated storage")
        if type(self._data) is _device.MetaArray:
            raise NotImplementedError(_device.META_NO_DATA)
        return _values(self._data).tolist()

    def numpy(self, *, force=False):
        if type(self._data) is _device.MetaArray:
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first.")
        if getattr(self, "_zerotensor", False) and not force:
            raise RuntimeError(" Cannot convert a ZeroTensor to numpy. Set force=True if you need the zero array.")
        if self._data.dtype.kind == "V":
            raise TypeError("Got unsupported ScalarType ComplexHalf")
        if not force:
            if self.requires_grad and grad_mode._state["enabled"]:    # (PyTorch asks only with grad on)
                raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() "
                                   "instead.")
            _check_bits(self)
        return _shared_array(self._data)

    def __array__(self, dtype=None):
        if type(self._data) is _device.MetaArray:
            raise TypeError("can't convert meta device type tensor to numpy. Use Tensor.cpu() to copy the tensor to "
                            "host memory first.")
        # no `copy` parameter, as PyTorch's: numpy 2 then warns (DeprecationWarning) when it passes one
        if self.requires_grad and grad_mode._state["enabled"]:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        if self._data.dtype.kind == "V":
            raise TypeError("Got unsupported ScalarType ComplexHalf")
        _check_bits(self)
        if dtype is None:
            return _shared_array(self._data)
        with _warnings.numpy_warnings_at_user_line():       # (numpy's ComplexWarning for complex to real)
            return self._data.astype(dtype, copy=False)

    def _scalar(self, kind):
        # PyTorch warns first (before any error), once per process (TORCH_WARN_ONCE), and only with grad mode on
        if self.requires_grad and grad_mode._state["enabled"]:
            _warnings.warn_once(_SCALAR_WARNING)
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if type(self._data) is _device.MetaArray:
            raise RuntimeError(_device.META_ITEM)
        return kind(_real_item(_values(self._data), None if kind is complex else "double"))

    def __float__(self):
        return self._scalar(float)

    def __int__(self):      # unlike float(), PyTorch's int() does not warn about requires_grad
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        if type(self._data) is _device.MetaArray:
            raise RuntimeError(_device.META_ITEM)
        return int(_real_item(_values(self._data), "int64_t"))

    def __index__(self):
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self._data.reshape(()).item())

    def __complex__(self):
        return self._scalar(complex)

    def __bool__(self):
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with " + ("no values" if self._data.size == 0 else
                                                                 "more than one value") + " is ambiguous")
        if type(self._data) is _device.MetaArray:
            raise RuntimeError(_device.META_ITEM)
        return bool(_values(self._data).reshape(()).item())

    def __len__(self):
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __reversed__(self):
        """reversed(t): t flipped along dimension 0 (a 0-d tensor is itself), as torch/_tensor.py writes it."""
        return self if self._data.ndim == 0 else self.flip(0)

    def __contains__(self, element):
        if not isinstance(element, (Tensor, numbers.Number)):    # PyTorch refuses lists, None, arrays
            raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a "
                               f"{type(element)}.")
        return bool((self._data == (element._data if isinstance(element, Tensor) else element)).any())

    # --- dtype and device conversion ------------------------------------------------------------
    def to(self, *args, **kwargs):
        """`x.to(dtype)`, `x.to(device)`, `x.to(device, dtype)`, `x.to(other)`: self when nothing changes
        (unless copy=True), else a copy that records ToCopyBackward0. Devices other than the CPU fail
        as in PyTorch's CPU-only build."""
        if not kwargs and len(args) == 1 and isinstance(args[0], _dtype.dtype):      # the common x.to(dtype)
            device, dtype, copy = None, args[0], False
        else:
            device, dtype, copy = _to_arguments(args, kwargs)
            _dtype.check_format_rank(kwargs.get("memory_format"), self._data.ndim)
        meta = type(self._data) is _device.MetaArray
        if device is not None:
            device = _device.as_device(device)
            if device.type == "meta":
                if not meta:            # to the meta device: a copy with shape, dtype and layout, no values
                    return self._to_meta(dtype)
            else:
                _device.require_cpu(device)
                if meta:
                    raise NotImplementedError(_device.META_NO_DATA)
            copy = copy or device.index is not None     # cpu:0 is not a tensor's device (cpu): a copy
        if dtype is not None:
            target = _dtype.to_numpy_dtype(dtype)
            if target != self._data.dtype:
                return OPS["to_dtype"](self, dtype=target, source_dtype=self._data.dtype)
        if copy:
            return OPS["to_dtype"](self, dtype=self._data.dtype, source_dtype=self._data.dtype)
        return self

    def _to_meta(self, dtype):
        """self.to('meta'): PyTorch's _to_copy onto the meta device (ToCopyBackward0), computed on the CPU and
        tagged meta (the registry makes every result of an op on meta tensors meta)."""
        src = self if dtype is None else self.to(dtype)
        out = OPS["to_dtype"](src, dtype=src._data.dtype, source_dtype=self._data.dtype) if src is self else src
        out._data = _device.meta_array(out._data)
        return out

    def float(self, *args, memory_format=None):
        return self._to_named("float", args, _dtype.float32)

    def double(self, *args, memory_format=None):
        return self._to_named("double", args, _dtype.float64)

    def half(self, *args, memory_format=None):
        return self._to_named("half", args, _dtype.float16)

    def long(self, *args, memory_format=None):
        return self._to_named("long", args, _dtype.int64)

    def int(self, *args, memory_format=None):
        return self._to_named("int", args, _dtype.int32)

    def short(self, *args, memory_format=None):
        return self._to_named("short", args, _dtype.int16)

    def char(self, *args, memory_format=None):
        return self._to_named("char", args, _dtype.int8)

    def byte(self, *args, memory_format=None):
        return self._to_named("byte", args, _dtype.uint8)

    def bool(self, *args, memory_format=None):
        return self._to_named("bool", args, _dtype.bool_)

    def cpu(self, *args, memory_format=None):
        if not args and type(self._data) is _device.MetaArray:
            raise NotImplementedError(_device.META_NO_DATA)
        return self._to_named("cpu", args, None)

    def _to_named(self, name, args, dtype):
        if args:
            raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} was given")
        return self if dtype is None else self.to(dtype)

    def cuda(self, device=None, non_blocking=False, memory_format=None):
        """PyTorch's CPU-only build has no CUDA: fails the way it fails there."""
        if device is not None:
            d = _device.as_device(device, "cuda", " (position 1)")
            if d.type != "cuda":
                raise RuntimeError("Invalid device, must be cuda device")
        raise AssertionError("Torch not compiled with CUDA enabled")

    def type_as(self, other):
        if not isinstance(other, Tensor):
            raise TypeError(f"type_as(): argument 'other' (position 1) must be Tensor, not {_type_name(other)}")
        if type(self._data) is _device.MetaArray and type(other._data) is not _device.MetaArray:
            raise NotImplementedError(_device.META_NO_DATA)    # (type_as is .type(other.type()): a CPU type)
        return self.to(other.dtype)

    def get_device(self):
        return -1                       # PyTorch's answer for a CPU tensor

    # x.new_zeros(2, 3): a factory whose dtype (and device) default to x's
    def new_tensor(self, *data, dtype=None, device=None, requires_grad=False, **kwargs):
        # PyTorch's own words for a wrong number of arguments (data= may also be a keyword)
        if "data" in kwargs and not data:
            data = (kwargs.pop("data"),)
        if "data" in kwargs and len(data) == 1:
            raise TypeError("new_tensor() got multiple values for argument 'data'")
        if kwargs:
            raise TypeError(f"new_tensor() got an unexpected keyword argument '{next(iter(kwargs))}'")
        if not data:
            raise TypeError('new_tensor() missing 1 required positional arguments: "data"')
        if len(data) > 1:
            raise TypeError(f"new_tensor() takes 1 positional argument but {len(data)} were given")
        data, = data
        _options("new_tensor", dtype, device)
        if isinstance(data, Tensor):
            _warnings.warn("To copy construct from a tensor, it is recommended to use sourceTensor.detach().clone() or "
                           "sourceTensor.detach().clone().requires_grad_(True), rather than "
                           "tensor.new_tensor(sourceTensor).", UserWarning)
            data = _values(data._data)          # (copied by tensor(), as the numpy array it is)
        if device is None and type(self._data) is _device.MetaArray:
            device = _device.META
        return tensor(data, dtype=self.dtype if dtype is None else dtype, device=device, requires_grad=requires_grad)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("zeros", size, dtype, device, requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("ones", size, dtype, device, requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self._new("empty", size, dtype, device, requires_grad)

    def new_full(self, size, fill_value, *, dtype=None, device=None, requires_grad=False):
        _options("new_full", dtype, device)
        return full(size, fill_value, dtype=self.dtype if dtype is None else dtype, device=device,
                    requires_grad=requires_grad)

    def _new(self, factory, size, dtype, device, requires_grad):
        _options("new_" + factory, dtype, device)
        if factory == "zeros":          # new_zeros words a negative size as empty() does, not as zeros()
            try:
                _shape(size)
            except TypeError:           # (a bad size: zeros() below gives PyTorch's TypeError)
                pass
        if device is None and type(self._data) is _device.MetaArray:
            device = _device.META            # (x.new_*'s device defaults to x's)
        return counted_result(self, _FACTORIES[factory](*size, dtype=self.dtype if dtype is None else dtype,
                                                        device=device, requires_grad=requires_grad))

    @property
    def is_cpu(self):
        return type(self._data) is not _device.MetaArray

    @property
    def is_meta(self):
        return type(self._data) is _device.MetaArray

    @property
    def layout(self):
        return _dtype.strided

    # the other devices and layouts a tensor here never has (PyTorch's properties, all False)
    is_ipu = is_maia = is_mkldnn = is_mps = is_mtia = is_nested = is_quantized = is_sparse = \
        is_sparse_csr = is_vulkan = is_xla = is_xpu = property(lambda self: False)

    def clone(self, *args, memory_format=None):
        """A copy with history (CloneBackward0), laid out like self unless memory_format says otherwise."""
        if args:
            raise TypeError(f"clone() takes 0 positional arguments but {len(args)} {_was_were(args)} given")
        if memory_format is None or memory_format is _dtype.preserve_format:
            return OPS["clone"](self)
        return OPS["clone"](self, strides=_format_strides(self, memory_format, "clone"))

    def contiguous(self, *args, memory_format=_dtype.contiguous_format):
        """self when already laid out in C order (PyTorch returns the same tensor), else a C-ordered copy."""
        if args:
            raise TypeError(f"contiguous() takes 0 positional arguments but {len(args)} {_was_were(args)} given")
        if memory_format is _dtype.contiguous_format:
            if self._data.flags.c_contiguous:
                return self
        elif memory_format is _dtype.preserve_format:
            raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
        strides = _format_strides(self, memory_format, "contiguous")
        if self.stride() == tuple(strides):
            return self
        return OPS["clone"](self, strides=strides)


_SCALAR_WARNING = ("Converting a tensor with requires_grad=True to a scalar may lead to unexpected behavior.\n"
                   "Consider using tensor.detach() first. (Triggered internally at "
                   "/__w/pytorch/pytorch/torch/csrc/autograd/generated/python_variable_methods.cpp:822.)")


def _real_item(data, c_type):
    """The one element as a Python number; a complex one only if real (PyTorch's float()/int())."""
    value = data.reshape(()).item()
    if isinstance(value, complex) and c_type is not None:
        if value.imag != 0 or c_type == "int64_t" and not -2.0 ** 63 <= value.real < 2.0 ** 63:   # (NaN too)
            raise RuntimeError(f"value cannot be converted to type {c_type} without overflow")
        value = value.real
    return value


# Tensor.to's three signatures, as PyTorch's argument parser tries them: (parameter, accepts)
_TO_SIGNATURES = (
    ((("device", "device"), ("dtype", "dtype"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, bool copy = False, *, "
     "torch.memory_format memory_format = None)"),
    ((("dtype", "dtype!"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = "
     "None)"),
    ((("tensor", "tensor"), ("non_blocking", "bool"), ("copy", "bool")),
     " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)"),
)


_PYTHON_TYPES = {float: _dtype.float64, int: _dtype.int64, bool: _dtype.bool_, complex: _dtype.complex128}


def _accepts(kind, value):
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "tensor":          # a Python number stands for a 0-d tensor of double (or its own type)
        return isinstance(value, (Tensor, numbers.Number, np.bool_))
    if value is None:
        return kind != "dtype!"
    if kind == "device":
        return isinstance(value, (_device.device, str)) or \
            isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    return isinstance(value, _dtype.dtype) or isinstance(value, type) and value in _PYTHON_TYPES     # dtype


def _to_arguments(args, kwargs):
    """(device, dtype, copy) of a call to Tensor.to, or PyTorch's TypeError for a call it refuses."""
    if len(args) > 4:
        raise TypeError(f"to() takes from 0 to 4 positional arguments but {len(args)} were given")
    options = dict(kwargs)
    memory_format = options.pop("memory_format", None)
    for params, _ in _TO_SIGNATURES:
        if len(args) > len(params):
            continue
        bound = dict(zip((name for name, _ in params), args))
        kinds = dict(params)
        if any(name in bound or name not in kinds for name in options):
            continue
        bound.update(options)
        if params[0][1] == "dtype!" and "dtype" not in bound or params[0][0] == "tensor" and "tensor" not in bound:
            continue
        if all(_accepts(kinds[name], value) for name, value in bound.items()) and \
                (memory_format is None or isinstance(memory_format, _dtype.memory_format)):
            other = bound.get("tensor")
            if other is not None:
                if isinstance(other, Tensor):
                    return other.device, other.dtype, bool(bound.get("copy"))
                dtype = _dtype.bool_ if isinstance(other, (bool, np.bool_)) else \
                    _dtype.complex128 if isinstance(other, complex) else _dtype.float64
                return None, dtype, bool(bound.get("copy"))
            dtype = bound.get("dtype")
            return bound.get("device"), _PYTHON_TYPES.get(dtype, dtype), bool(bound.get("copy"))
    got = [_argument_type_name(a) for a in args]
    named = [f"{k}={_argument_type_name(v)}" for k, v in reversed(kwargs.items())]
    described = ", ".join(got + named) if got else "".join(n + ", " for n in named)
    raise TypeError(f"to() received an invalid combination of arguments - got ({described}), but expected one "
                    "of:\n" + "\n".join(line for _, line in _TO_SIGNATURES) + "\n")


def _was_were(args):
    return "was" if len(args) == 1 else "were"


def _format_strides(t, memory_format, function):
    """The strides (in elements) of a copy of t in a memory format (contiguous or channels_last)."""
    if not isinstance(memory_format, _dtype.memory_format):
        raise TypeError(f"{function}(): argument 'memory_format' must be torch.memory_format, not "
                        f"{_type_name(memory_format)}")
    shape = t._data.shape
    if memory_format is _dtype.channels_last:
        if len(shape) != 4:
            raise RuntimeError("required rank 4 tensor to use channels_last format")
        return _registry.channels_last_strides(shape)       # NCHW stored as NHWC
    return _elementwise.contiguous_strides(shape)
