"""Tensor's odds and ends: complex casts (cfloat, cdouble), memory questions a CPU tensor answers
(is_pinned, pin_memory, share_memory_, is_shared, storage, untyped_storage, const_data_ptr, dim_order,
is_set_to, set_), the Python callbacks (apply_, map_, map2_), the deprecated resize and resize_as,
nonzero_static, to_dense, grad_dtype, and the names PyTorch removed (volatile, reinforce).

A numpy array stands in for PyTorch's storage: the array that owns a tensor's memory (its base, or
itself). The storage objects below are thin views of it with the few methods a student calls.
"""
import enum
import functools
import operator
import sys
import weakref

import numpy as np

from .._ctype import CType

from .. import _argparse, _dtype
from .. import _device as _device_module
from .._device import device as _device
from .._warnings import warn_once
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..autograd.function import Function
from ..ops.operands import _type_name
from .attributes import _CPP_TYPE_NAMES, _NONLEAF_GRAD_WARNING
from .. import _warnings

_SHARED = {}        # id of an owner array -> a weak reference to it: memory share_memory_() was called on


def _owner(data):
    """The numpy array that owns `data`'s memory (PyTorch's storage)."""
    owner = data
    while True:
        base = owner.base
        if isinstance(base, np.ndarray):
            owner = base
        elif isinstance(getattr(base, "base", None), np.ndarray):
            owner = base.base
        else:
            return owner


class UntypedStorage(metaclass=CType, c_name="torch.storage.UntypedStorage"):
    """torch.UntypedStorage of a CPU tensor: its owner array's bytes."""

    def __init__(self, owner):
        self._owner = owner
        self._bytes = owner.reshape(-1).view(np.uint8) if owner.flags.c_contiguous else np.frombuffer(
            owner.tobytes(), np.uint8)

    device = property(lambda self: _device_cpu())

    def size(self):
        return int(self._bytes.size)

    nbytes = size

    def __len__(self):
        return self.size()

    def data_ptr(self):
        return self._owner.__array_interface__["data"][0]

    def __getitem__(self, i):
        return int(self._bytes[_storage_index(i, self._bytes.size)])

    def tolist(self):
        return [int(b) for b in self._bytes]

    def element_size(self):
        return 1

    def __repr__(self):
        body = " " + "\n ".join(str(b) for b in self.tolist()) + "\n"
        return f"{body}[torch.storage.UntypedStorage(device=cpu) of size {self.size()}]"

    __str__ = __repr__


class TypedStorage(metaclass=CType, c_name="torch.storage.TypedStorage"):
    """torch.TypedStorage (deprecated in PyTorch): the owner array's elements in the tensor's dtype."""

    def __init__(self, owner, dtype):
        warn_once("TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the only "
                  "storage class. This should only matter to you if you are using storages directly.  To access "
                  "UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()")
        self._owner = owner
        self._values = owner.reshape(-1) if owner.flags.c_contiguous else owner.ravel(order="K")
        self.dtype = dtype

    device = property(lambda self: _device_cpu())

    def size(self):
        return int(self._values.size)

    def __len__(self):
        return self.size()

    def nbytes(self):
        return int(self._values.nbytes)

    def element_size(self):
        return int(self._values.itemsize)

    def data_ptr(self):
        return self._owner.__array_interface__["data"][0]

    def untyped(self):
        return UntypedStorage(self._owner)

    def __getitem__(self, i):
        return self._values[_storage_index(i, self._values.size)].item()

    def tolist(self):
        return self._values.tolist()

    def __repr__(self):
        body = " " + "\n ".join(str(v) for v in self.tolist()) + "\n"
        return f"{body}[torch.storage.TypedStorage(dtype={self.dtype}, device=cpu) of size {self.size()}]"

    __str__ = __repr__


def _device_warning(name, line):
    _warnings.warn(f"The argument 'device' of Tensor.{name}() is deprecated. Please do not pass this argument. "
                   f"(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/Memory.cpp:{line}.)",
                   DeprecationWarning)


_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_NO_CUDA_LIBRARY = "Cannot initialize CUDA without ATen_cuda library. " + _device_module.NO_CUDA_LIBRARY


def _no_device_index(device):
    """A device given by its index is the current accelerator's: PyTorch's parser fails before any warning."""
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError(_NO_ACCELERATOR)


def _storage_index(i, n):
    if isinstance(i, int) and not -n <= i < n:
        raise IndexError(f"index {i} out of range for storage of size {n}")
    return i


def _device_cpu():
    return _device("cpu")


def dlpack_array(a):
    """a, or a writable view of the same memory: numpy refuses to export a read-only array (an expanded tensor's
    broadcast), which PyTorch exports as any other."""
    if a.flags.writeable:
        return a
    owner = a
    while not owner.flags.writeable and isinstance(owner.base, np.ndarray):
        owner = owner.base
    if not owner.flags.writeable:
        return a
    offset = a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]
    try:
        return np.ndarray(a.shape, a.dtype, buffer=owner, offset=offset, strides=a.strides)
    except (TypeError, ValueError):
        return a


class Resize(Function):
    """torch.autograd._functions.Resize: what the deprecated Tensor.resize and resize_as run (ResizeBackward)."""

    @staticmethod
    def forward(ctx, tensor, sizes):
        ctx.sizes = sizes
        # (PyTorch's Python: the sizes multiplied as given, whatever they are: its errors are Python's own)
        ctx.numel = functools.reduce(operator.mul, sizes, 1)
        if tensor.numel() != ctx.numel:
            raise RuntimeError(
                f"requested resize to {'x'.join(map(str, sizes))} ({ctx.numel} elements in total), but the given "
                f"tensor has a size of {'x'.join(map(str, tensor.size()))} ({tensor.numel()} elements). autograd's "
                "resize can only change the shape of a given tensor, while preserving the number of elements. ")
        ctx.input_sizes = tensor.size()
        return tensor.contiguous().clone().view(*sizes) if tensor.is_contiguous() else tensor.contiguous().view(*sizes)

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output.contiguous().view(ctx.input_sizes), None


def _python_number(value, dtype):
    """A callback's result as PyTorch's apply_ stores it: a Python number of the tensor's kind."""
    kind = np.dtype(dtype).kind
    if kind == "b":
        return bool(value)
    if kind in "iu":
        if not isinstance(value, (int, float, bool, np.number)):
            raise TypeError(f"'{_type_name(value)}' object cannot be interpreted as an integer")
        return int(value)
    if kind == "c":
        return complex(value)
    if not isinstance(value, (int, float, bool, np.number)):
        raise TypeError(f"must be real number, not {_type_name(value)}")
    return float(value)


class _MiscMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- complex casts ---------------------------------------------------------------------------
    def chalf(self, memory_format=None):
        return self.to(_dtype.complex32)

    def cfloat(self, memory_format=None):
        return self.to(_dtype.complex64)

    def cdouble(self, memory_format=None):
        return self.to(_dtype.complex128)

    # --- memory ----------------------------------------------------------------------------------
    def is_pinned(self, device=None):
        if device is not None:
            _no_device_index(device)
            _device_warning("is_pinned", 31)
        return False                            # (no accelerator: no page-locked memory)

    def pin_memory(self, device=None):
        if device is not None:
            _no_device_index(device)
            _device_warning("pin_memory", 46)
            _device_warning("is_pinned", 31)
            kind = (device.type if isinstance(device, _device) else str(device)).partition(":")[0]
            if kind == "cuda":
                raise RuntimeError(_NO_CUDA_LIBRARY)
            if kind in ("cpu", "meta"):
                raise RuntimeError(f"{kind.upper()} device type not an accelerator.")
        raise RuntimeError(_NO_ACCELERATOR)

    def share_memory_(self):
        """Marks the memory shared (PyTorch moves it to shared memory for other processes; gradlab has one)."""
        owner = _owner(self._data)
        _SHARED[id(owner)] = weakref.ref(owner, lambda _, key=id(owner): _SHARED.pop(key, None))
        return self

    def is_shared(self):
        owner = _owner(self._data)
        ref = _SHARED.get(id(owner))
        return ref is not None and ref() is owner

    def untyped_storage(self):
        return UntypedStorage(_owner(self._data))

    def storage(self):
        return TypedStorage(_owner(self._data), self.dtype)

    def const_data_ptr(self):
        return self.data_ptr()

    def record_stream(self, s=None, **kwargs):
        raise RuntimeError("unknown parameter type")        # (the argument parser refuses any stream first)

    def is_set_to(self, tensor):
        """Whether both view the same memory with the same geometry."""
        if not isinstance(tensor, Tensor):
            raise TypeError(f"is_set_to(): argument 'tensor' (position 1) must be Tensor, not {_type_name(tensor)}")
        if self.is_conj() or tensor.is_conj() or self.is_neg() or tensor.is_neg():
            return False      # (PyTorch's conjugate fallback hands the kernel resolved copies: never the same memory)
        a, b = self._data, tensor._data
        return (_owner(a) is _owner(b) and self.data_ptr() == tensor.data_ptr() and a.shape == b.shape
                and self.stride() == tensor.stride())

    def set_(self, *args, **kwargs):
        """Makes self a view of source's memory (no argument: an empty tensor)."""
        error = _argparse.check(_SET_SIGNATURES, args, kwargs)        # (PyTorch's parser, its combined message)
        if error is not None:
            raise error
        return self._set(*args, **kwargs)

    def _set(self, source=None, storage_offset=0, size=None, stride=None):
        if self.requires_grad and grad_mode.is_grad_enabled() and self.is_leaf:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        if source is None:
            data = np.empty(0, self._data.dtype)
        elif isinstance(source, Tensor):
            if source._data.dtype != self._data.dtype:
                raise RuntimeError(f"Could not set tensor of type {_CPP_TYPE_NAMES[source._data.dtype.name]} to a "
                                   f"tensor of type {_CPP_TYPE_NAMES[self._data.dtype.name]}")
            data = source._data
            if size is not None:
                flat = _owner(source._data).reshape(-1)
                stride = tuple(stride) if stride is not None else tuple(
                    int(np.prod(size[i + 1:], dtype=np.int64)) for i in range(len(size)))
                data = np.lib.stride_tricks.as_strided(flat[storage_offset:], tuple(size),
                                                       tuple(s * flat.itemsize for s in stride))
        else:                                  # (a storage: the parser accepts it; gradlab's storages are copies)
            raise TypeError(f"set_(): argument 'source' must be Tensor, not {_type_name(source)}")
        self._data = data
        self._bump_version()
        return self

    def dim_order(self, *, ambiguity_check=False):
        """The dims from outermost to innermost in memory (torch/_tensor.py's algorithm: an insertion sort by
        stride, back to front)."""
        if not isinstance(ambiguity_check, bool):
            if not isinstance(ambiguity_check, list) or not all(
                    isinstance(m, _dtype.memory_format) for m in ambiguity_check):
                raise TypeError("The ambiguity_check argument must be a bool or a list of memory formats.")
        shape, strides = self.shape, self.stride()
        formats = ambiguity_check if isinstance(ambiguity_check, list) else []
        check = ambiguity_check if isinstance(ambiguity_check, bool) else True
        multiple = any(a == b for a, b in zip(strides, strides[1:])) or any(n == 1 for n in shape)
        if check and multiple and sum(bool(self.is_contiguous(memory_format=m)) for m in formats) != 1:
            raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact one of the given "
                               "memory formats.")
        return tuple(_logical_to_physical(self, bool(ambiguity_check)))

    # --- Python callbacks ------------------------------------------------------------------------
    def apply_(self, *args, **kwargs):
        # (a C method taking one argument: CPython's own messages, which name the C class TensorBase)
        if kwargs:
            raise TypeError("TensorBase.apply_() takes no keyword arguments")
        if len(args) != 1:
            # (CPython names the C class in a plain call, the Python class where its compiler packs 30 or more
            # arguments into one tuple)
            owner = "Tensor" if len(args) >= 30 else "TensorBase"
            raise TypeError(f"{owner}.apply_() takes exactly one argument ({len(args)} given)")
        callable, = args
        if self.requires_grad:
            raise RuntimeError("Can't call apply_() on Variable that requires grad. Use var.detach().apply_() "
                               "instead.")
        flat = self._data.reshape(-1) if self._data.flags.c_contiguous else None
        values = [_python_number(callable(v), self._data.dtype) for v in self._data.ravel().tolist()]
        new = np.asarray(values, self._data.dtype).reshape(self._data.shape) if values else self._data
        if flat is not None:
            flat[...] = new.reshape(-1)
        else:
            self._data[...] = new
        return self

    apply_._signatures = ()       # (checked above, not by the argument parser)

    def map_(self, tensor, callable):
        return _map(self, "map_", (tensor,), callable)

    def map2_(self, x, y, callable):
        return _map(self, "map2_", (x, y), callable)

    # --- deprecated and removed ------------------------------------------------------------------
    def resize(self, *sizes):
        _warnings.warn("non-inplace resize is deprecated", UserWarning)
        return Resize.apply(self, sizes)

    def resize_as(self, tensor):
        _warnings.warn("non-inplace resize_as is deprecated", UserWarning)
        return Resize.apply(self, tensor.size())

    @property
    def volatile(self):
        _warnings.warn("volatile was removed (Variable.volatile is always False)", UserWarning)
        return False

    def reinforce(self, reward):
        def trim(s):
            return "\n".join(line.strip() for line in s.split("\n"))
        raise RuntimeError(trim(r"""reinforce() was removed.
            Use torch.distributions instead.
            See https://pytorch.org/docs/main/distributions.html

            Instead of:

            probs = policy_network(state)
            action = probs.multinomial()
            next_state, reward = env.step(action)
            action.reinforce(reward)
            action.backward()

            Use:

            probs = policy_network(state)
            # NOTE: categorical is equivalent to what used to be called multinomial
            m = torch.distributions.Categorical(probs)
            action = m.sample()
            next_state, reward = env.step(action)
            loss = -m.log_prob(action) * reward
            loss.backward()
        """))

    # --- the rest --------------------------------------------------------------------------------
    def to_dense(self, dtype=None, *, masked_grad=None):
        """A strided tensor is already dense: itself (or a cast to dtype)."""
        return self if dtype is None or dtype == self.dtype else self.to(dtype)

    def nonzero_static(self, *, size, fill_value=-1):
        """nonzero's indices cut or padded with fill_value to exactly `size` rows."""
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"nonzero_static(): argument 'size' must be int, not {_type_name(size)}")
        if size < 0:
            raise RuntimeError("nonzero_static: 'size' must be an non-negative integer")
        found = np.stack(np.nonzero(self._data), axis=1).astype(np.int64) if self._data.ndim else \
            np.zeros((int(self._data != 0), 0), np.int64)
        out = np.full((size, self._data.ndim), fill_value, np.int64)
        n = min(size, found.shape[0])
        out[:n] = found[:n]
        return Tensor._make(out)

    @property
    def name(self):
        return None             # (named tensors' per-dim names are not supported; the tensor's own name is None)

    @property
    def grad_dtype(self):
        if not self.is_leaf:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        # (set: the dtype the engine casts this leaf's gradient to, None for any; see engine._to_grad_dtype)
        return vars(self)["_grad_dtype"] if "_grad_dtype" in vars(self) else self.dtype

    @grad_dtype.setter
    def grad_dtype(self, value):
        if not self.is_leaf:
            if self._grad is None and not self._retains_grad:    # (PyTorch's C++ setter reads .grad first)
                _warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning)
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, _dtype.dtype):
            raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got {_type_name(value)}")
        if value is not None and self._grad is not None and self._grad.dtype is not value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{value._legacy[:-len('Tensor')]}' because there is already a gradient "
                f"with dtype '{_CPP_TYPE_NAMES[self._grad._data.dtype.name]}'. Please clear the gradient (.grad = "
                "None) before changing grad_dtype, or ensure the new grad_dtype matches the existing gradient's "
                "dtype.")
        vars(self)["_grad_dtype"] = value



# Tensor.set_'s overloads (written by hand in PyTorch's python_variable_methods.cpp, so not in _signatures)
_SET_SIGNATURES = ("set_()", "set_(Storage source)",
                   "set_(Storage source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)",
                   "set_(Tensor source)",
                   "set_(Tensor source, SymInt storage_offset, SymIntArrayRef size, SymIntArrayRef stride=None)")


def _logical_to_physical(t, ambiguity_check):
    """torch._prims_common.compute_elementwise_output_logical_to_physical_perm for one tensor."""
    ndim = t.dim()
    if ndim == 0:
        return []
    if ndim == 1:
        return [0]
    contiguous, last = t.is_contiguous(), ndim == 4 and t.is_contiguous(memory_format=_dtype.channels_last)
    if contiguous and not last:
        return list(range(ndim))
    if last and not contiguous:
        return [0, *range(2, ndim), 1]
    shape, strides = t.shape, t.stride()

    def ge(a, b):
        return b == 0 or (a != 0 and (a >= b or a % b == 0))

    def should_swap(a, b):
        sa, sb = strides[a], strides[b]
        if sa == 0 or sb == 0:
            return 0
        if sa == sb:
            return 0 if ge(shape[b], shape[a]) else 1
        if ge(sb, sa):
            return -1
        if ge(sa, sb):
            return 1
        return 0

    perm = list(reversed(range(ndim)))
    for i in range(1, ndim):
        dim1 = i
        for dim0 in reversed(range(i)):
            comparison = should_swap(perm[dim0], perm[dim1])
            if comparison > 0:
                perm[dim0], perm[dim1] = perm[dim1], perm[dim0]
                dim1 = dim0
            elif comparison < 0:
                break
    if ambiguity_check and any(should_swap(perm[i], perm[i + 1]) != -1 for i in range(ndim - 1)):
        raise RuntimeError("The tensor does not have unique dim order.")
    return list(reversed(perm))


def _map(t, name, others, callable):
    """map_ and map2_: callable(t's value, the others' values) for each element, the others broadcast to t."""
    if t.requires_grad:
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use var.detach().{name}() instead.")
    arrays = []
    for o, slot in zip(others, ("other",) if name == "map_" else ("x", "y")):
        if not isinstance(o, Tensor):
            raise TypeError(f"{name}(): argument 'tensor' must be Tensor, not {_type_name(o)}")
        if o._data.dtype != t._data.dtype:
            legacy = _dtype.from_numpy_dtype
            kind = "" if name == "map_" else "argument "
            raise TypeError(f"{name}: expected torch.{legacy(t._data.dtype)._legacy} for {kind}'{slot}' (got "
                            f"torch.{legacy(o._data.dtype)._legacy})")
        arrays.append(o.detach().expand(t._data.shape)._data)        # (expand's errors, as PyTorch's)
    values = [_python_number(callable(*vs), t._data.dtype)
              for vs in zip(t._data.ravel().tolist(), *(a.ravel().tolist() for a in arrays))]
    if values:
        t._data[...] = np.asarray(values, t._data.dtype).reshape(t._data.shape)
    return t



class DLDeviceType(enum.IntEnum):
    """DLPack's device kinds (torch.utils.dlpack.DLDeviceType); a gradlab tensor is always on the CPU."""
    kDLCPU = 1


class _MoreMiscMethods:
    """Copied onto `Tensor` by gradlab/tensor.py: DLPack's protocol and hash_tensor, stft and istft."""

    # (torch/_tensor.py's Tensor.stft and Tensor.istft call torch.stft and torch.istft: gradlab's are in
    # gradlab/functional.py, a layer above this one, so they are looked up when called)
    def stft(self, n_fft, hop_length=None, win_length=None, window=None, center=True, pad_mode="reflect",
             normalized=False, onesided=None, return_complex=None, align_to_window=None):
        return sys.modules["gradlab.functional"].stft(self, n_fft, hop_length, win_length, window, center, pad_mode,
                                                      normalized, onesided, return_complex, align_to_window)

    def istft(self, n_fft, hop_length=None, win_length=None, window=None, center=True, normalized=False,
              onesided=None, length=None, return_complex=False):
        return sys.modules["gradlab"].istft(self, n_fft, hop_length, win_length, window, center, normalized,
                                            onesided, length, return_complex)

    def __dlpack__(self, stream=None, *, max_version=None, dl_device=None, copy=None):
        if self.requires_grad:
            raise BufferError("Can't export tensors that require gradient, use tensor.detach()")
        return dlpack_array(self._data).__dlpack__()

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)

    def hash_tensor(self, dim=None, *, keepdim=False, mode=0):
        """The xor of every element's 64 bits (floats as float64, integers as int64), over dim (all by default):
        a uint64 tensor."""
        if mode != 0:
            raise RuntimeError(f"Unknown hash_tensor mode: {mode}")
        data = self._data
        if data.dtype.kind == "V":
            raise NotImplementedError("\"xor_sum_cpu\" not implemented for 'ComplexHalf'")
        if data.size == 0 and (dim is None or dim == () or dim == []):
            raise RuntimeError("hash_tensor: Expected reduction dim to be specified for input.numel() == 0. Specify "
                               "the reduction dim with the 'dim' argument.")
        wide = data.astype(np.float64 if data.dtype.kind == "f" else np.int64).view(np.uint64) if data.ndim else \
            np.asarray(data.astype(np.float64 if data.dtype.kind == "f" else np.int64)).reshape(1).view(np.uint64)[0]
        if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
            axes = tuple(range(data.ndim))
        else:
            axes = tuple(_wrap_dim(d, data.ndim) for d in (dim if isinstance(dim, (tuple, list)) else (dim,)))
            for a in axes:
                if data.ndim and data.shape[a] == 0:
                    raise IndexError(f"hash_tensor: Expected reduction dim {a} to have non-zero size.")
        out = np.bitwise_xor.reduce(np.asarray(wide), axis=axes, keepdims=keepdim) if data.ndim else np.asarray(wide)
        return Tensor._make(np.asarray(out, np.uint64))
