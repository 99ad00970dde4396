"""The Tensor class itself: its storage (a numpy array) and the bookkeeping autograd reads.

This module sits below autograd and the ops, so that they can import `Tensor` at the top, as
PyTorch's C++ core defines `TensorBase` below its Python layer. Everything that needs a higher
layer (operators, math, backward, hooks, printing) is written in `gradlab/tensor.py` and attached
to this same class there, as PyTorch's `torch/_tensor.py` adds its Python methods to `TensorBase`.

What every tensor carries (its slots):

* `_data`: the numpy array (views share it with their base);
* `_requires_grad`: set on leaves the user asked gradients for;
* `grad_fn`, `_output_nr`: the node that made it and which of that node's outputs it is;
* `_version_counter`: a one-item list, shared by views and `detach()`, bumped by in-place changes
  (made when first asked for: until then the slot `_vc` is None and the version is 0. Most tensors
  are never changed, viewed or saved, and one object less per op is less for the garbage collector);
* `_grad`, `_retains_grad`, `_hooks`, `_accumulator`: what backward fills or calls;
* `_base`, `_views`: the tensor owning the storage, and the views that must follow its history.
"""
import numpy as np

from . import _dtype
from . import _device
from ._size import Size

_tuple_new = tuple.__new__     # Size of a numpy shape, without Size()'s checks of its items
_new = object.__new__

_FLOAT_ONLY = "Only Tensors of floating point and complex dtype can require gradients"   # (a leaf's requires_grad)


class WrappedDim(int):
    """A negative dim made non-negative, remembering what the user wrote: PyTorch's nodes keep the dim as given
    (`x.sum(-1).grad_fn._saved_dim` is (18446744073709551615,), -1 read as an unsigned 64-bit number)."""
    # (an int subclass cannot have __slots__: `given` lives in its __dict__)


class GivenDims(tuple):
    """The dims a reduction reduces over (numpy's axes), remembering what PyTorch's node keeps instead (`given`):
    the dims of a 0-d tensor as written (nothing to reduce: `torch.tensor(2.).sum(-1).grad_fn._saved_dim` is
    (18446744073709551615,)), and every dim as written, None or () (`x.sum(None).grad_fn._saved_dim` is None)."""
    # (`given` lives in the instance's __dict__: a tuple subclass cannot have non-empty __slots__)

    @classmethod
    def of(cls, dims, given):
        made = cls(dims)
        made.given = given
        return made


def _wrap_dim(dim, ndim):
    """A dim in range(-ndim, ndim) (a 0-d tensor takes -1 and 0) as a non-negative index, or PyTorch's error."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    if dim < 0:
        wrapped = WrappedDim(dim + n)
        wrapped.given = int(dim)
        return wrapped
    return dim


def c_size(t, dim):
    """C++'s `t.size(dim)` inside PyTorch's kernels: unlike Python's t.size(dim), a 0-d tensor has no dim 0
    ("Dimension specified as 1 but tensor has no dimensions": c10's maybe_wrap_dim without wrap_scalar)."""
    shape = t._data.shape
    if not shape:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return shape[_wrap_dim(dim, len(shape))]


def empty_layout(data):
    """An empty array as PyTorch lays it out: numpy gives a new empty array zero strides, PyTorch contiguous ones,
    a size 0 counting as 1 (torch.zeros(0, 3).stride() is (3, 1)), which its views then carry (.t(): (1, 3))."""
    if any(data.strides):
        return data
    strides, step = [], data.itemsize
    for n in reversed(data.shape):
        strides.append(step)
        step *= max(n, 1)
    return np.lib.stride_tricks.as_strided(data, data.shape, tuple(reversed(strides)), subok=True)  # (meta stays meta)


class Tensor:
    __slots__ = ("_data", "_requires_grad", "_grad_fn", "_output_nr", "_vc", "_grad",
                 "_retains_grad", "_hooks", "_base", "_accumulator", "_views", "__weakref__",
                 "__dict__",           # (a user's own attributes, `t.note = 1`, as on PyTorch's tensors)
                 "_multi_output",      # (set only on outputs of unbind/split: read with getattr and a default)
                 "_zerotensor")        # (True only on ZeroTensor gradients, see ZeroArray. _make sets it
                                       # False, so that the getattr(t, "_zerotensor", False) of every
                                       # mul and in-place op finds it instead of failing (6x slower);
                                       # other tensors may lack it: read it with getattr and a default)

    def __new__(cls, *args, **kwargs):
        return _new(cls)

    @classmethod
    def _make(cls, data, grad_fn=None, output_nr=0):
        """Wrap a numpy array without copying (the hot path of every op). The one place that sets
        a tensor's slots: written out here rather than calling _init, which would cost every op a call."""
        t = _new(cls)
        t._data = data if data.size or not data.ndim else empty_layout(data)
        t._requires_grad = False
        t._grad_fn = grad_fn
        t._output_nr = output_nr
        t._vc = None
        t._grad = None
        t._retains_grad = False
        t._hooks = None
        t._base = None
        t._accumulator = None
        t._views = None
        t._zerotensor = False
        return t

    def _init(self, data):
        """`Tensor(...)` and `Parameter(...)`, whose object Python has already made: the slots as
        _make sets them."""
        made = _plain_make(Tensor, data)
        for name in _STATE:
            setattr(self, name, getattr(made, name))

    # --- plain accessors ------------------------------------------------------------------------
    @property
    def shape(self):
        return _tuple_new(Size, self._data.shape)     # (a numpy shape needs none of Size()'s checks)

    @property
    def ndim(self):
        return self._data.ndim

    def dim(self):
        return self._data.ndim

    ndimension = dim

    def numel(self):
        return int(self._data.size)

    nelement = numel

    @property
    def dtype(self):
        return _dtype.from_numpy_dtype(self._data.dtype)

    @property
    def device(self):
        return _device.META if type(self._data) is _device.MetaArray else _device.CPU

    @property
    def is_cuda(self):
        return False

    def is_floating_point(self):
        return self._data.dtype.kind == "f"

    def is_complex(self):
        return self._data.dtype.kind in "cV"          # (V: complex32's structured arrays)

    def element_size(self):
        return self._data.itemsize

    @property
    def output_nr(self):
        return self._output_nr

    @property
    def _version_counter(self):
        """The one-item list holding this tensor's version (made on first use, see the module docstring)."""
        counter = self._vc
        if counter is None:
            counter = self._vc = [0]
        return counter

    @_version_counter.setter
    def _version_counter(self, counter):
        self._vc = counter

    @property
    def _version(self):
        counter = self._vc
        if counter is None:
            return 0
        if type(counter) is InferenceVersionCounter:
            raise RuntimeError("Inference tensors do not track version counter.")
        return counter[0]

    def _bump_version(self):
        self._version_counter[0] += 1

    @property
    def is_leaf(self):
        return self.grad_fn is None


INFERENCE_INPLACE = ("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a clone to "
                     "get a normal tensor before doing inplace update.See https://github.com/pytorch/rfcs/pull/17 for "
                     "more details.")


class InferenceVersionCounter(list):
    """The version counter of a tensor made under inference_mode. PyTorch's inference tensors have none:
    reading `_version` raises, and so does a change in place outside inference_mode (every in-place
    write bumps the counter; the in-place ops check first, this is the last guard)."""
    __slots__ = ()
    inference_mode = False      # whether inference_mode is on now (kept by _tensor_methods/attributes.py)

    def __setitem__(self, index, value):
        if not InferenceVersionCounter.inference_mode:
            raise RuntimeError(INFERENCE_INPLACE)
        list.__setitem__(self, index, value)


_plain_make = Tensor.__dict__["_make"].__func__       # (inference_mode swaps Tensor._make: tensor.py)
_STATE = tuple(name for name in Tensor.__slots__ if name not in ("__weakref__", "__dict__", "_multi_output",
                                                                 "_zerotensor"))
# `grad_fn` reads the slot (at the speed of a slot: the member's own C getter), and only autograd writes it:
# PyTorch's grad_fn is read-only to users (tensor.py gives every read-only property PyTorch's message)
Tensor.grad_fn = property(Tensor.__dict__["_grad_fn"].__get__, doc="The node that made this tensor (None: a leaf).")


class ZeroArray(np.ndarray):
    """The zeros of one of PyTorch's ZeroTensors (at::_efficientzerotensor: zeros without storage), as a plain
    backward passes them between nodes: sgn's gradient of a real input (and so abs's second derivative).
    A product with it stays a ZeroArray, as PyTorch's mul of a ZeroTensor; anything else it takes part in
    (a sum into another gradient) is an ordinary array. A leaf's .grad made of one is a ZeroTensor
    (`_zerotensor`): tolist() and numpy() refuse it, and so does any in-place write."""

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        plain = [x.view(np.ndarray) if isinstance(x, ZeroArray) else x for x in inputs]
        if "out" in kwargs:
            kwargs["out"] = tuple(x.view(np.ndarray) if isinstance(x, ZeroArray) else x for x in kwargs["out"])
        result = getattr(ufunc, method)(*plain, **kwargs)
        if ufunc is np.multiply and method == "__call__" and "out" not in kwargs and isinstance(result, np.ndarray):
            return result.view(ZeroArray)
        return result


def zero_tensor_of(array):
    """A ZeroTensor holding these zeros (an ordinary array inside: only the flag tells)."""
    t = Tensor._make(np.array(array, copy=True).view(np.ndarray))
    t._zerotensor = True
    return t


def is_zero_tensor(t):
    return getattr(t, "_zerotensor", False)
