"""Tensor's shape methods and views (`view`, `reshape`, `transpose`, `expand`, `split`, `gather`, ...)."""
import numbers

import numpy as np

from .. import _dtype
from .._size import Size
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..ops import OPS
from ..ops.operands import _type_name
from ._common import _check_tensor_argument, _data_of, _dims, _warn_once


class _ShapeMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- shape ----------------------------------------------------------------------------------
    def view(self, *shape, **keywords):
        if keywords:
            shape = _sizes_keyword(shape, keywords, "size")
        if len(shape) == 1 and isinstance(shape[0], (_dtype.dtype, type)):
            raise NotImplementedError("gradlab does not support view(dtype)")
        shape = _infer_shape(_size_args(shape), self._data.size)
        try:
            np.reshape(self._data, shape, copy=False)
        except ValueError:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                               "dimension spans across two contiguous subspaces). Use .reshape(...) instead.") from None
        return OPS["view"](self, shape=shape, self_sizes=self._data.shape)._view_of(self)

    def view_as(self, other):
        _check_tensor_argument("view_as", other)
        return self.view(other.shape)

    def reshape(self, *shape, **keywords):
        if keywords:
            shape = _sizes_keyword(shape, keywords, "shape")
        shape = _infer_shape(_size_args(shape), self._data.size)
        try:
            np.reshape(self._data, shape, copy=False)
        except ValueError:   # needs a copy: PyTorch clones, then views (UnsafeViewBackward0)
            return OPS["unsafe_view"](self.clone(), shape=shape, self_sizes=self._data.shape)
        # a view: ViewBackward0 of a contiguous tensor, PyTorch's _reshape_alias of any other
        key = "view" if self._data.flags.c_contiguous else "reshape_alias"
        return OPS[key](self, shape=shape, self_sizes=self._data.shape)._view_of(self)

    def reshape_as(self, other):
        _check_tensor_argument("reshape_as", other)
        return self.reshape(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        nd = self._data.ndim
        if nd == 0:
            _wrap_dim(start_dim, 0), _wrap_dim(end_dim, 0)
            return self.reshape(1)
        s, e = _wrap_dim(start_dim, nd), _wrap_dim(end_dim, nd)
        if s > e:
            raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
        if s == e:
            return self
        shape = self._data.shape
        return self.reshape(shape[:s] + (int(np.prod(shape[s:e + 1])),) + shape[e + 1:])

    def unflatten(self, dim, sizes):
        if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):      # (PyTorch's argument parser)
            raise TypeError(f"unflatten(): argument 'dim' (position 1) must be int, not {_type_name(dim)}")
        if not isinstance(sizes, (tuple, list)):
            raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, not {_type_name(sizes)}")
        for i, s in enumerate(sizes):
            if not isinstance(s, numbers.Integral) or isinstance(s, bool):
                if i == 0:
                    raise TypeError(f"unflatten(): argument 'sizes' (position 2) must be tuple of ints, but found "
                                    f"element of type {_type_name(s)} at pos 0")
                raise TypeError(f"unflatten(): argument 'sizes' failed to unpack the object at pos 2 with error "
                                f"\"type must be tuple of ints,but got {_type_name(s)}\"")
        sizes = tuple(int(s) for s in sizes)
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if self._data.ndim == 0:
            raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {dim} but tensor has no "
                               "dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        try:
            sizes = _infer_shape(sizes, self._data.shape[d])
        except RuntimeError as e:            # PyTorch rewords infer_size's errors (handle_unflatten_exception)
            if "is invalid for input of size" not in str(e):
                raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
            raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't multiply up to the "
                               f"size of dim {d} ({self._data.shape[d]}) in the input tensor") from None
        return self.view(self._data.shape[:d] + sizes + self._data.shape[d + 1:])

    def squeeze(self, dim=None):
        if dim is None:
            return OPS["squeeze"](self, self_sizes=self._data.shape)._view_of(self)
        if isinstance(dim, (tuple, list)):      # several dims: SqueezeBackward2
            return OPS["squeeze_dims"](self, dim=_dims(dim, self._data.ndim),
                                       self_sizes=self._data.shape)._view_of(self)
        return OPS["squeeze_dim"](self, dim=_wrap_dim(dim, self._data.ndim),
                                  self_sizes=self._data.shape)._view_of(self)

    def unsqueeze(self, dim):
        return OPS["unsqueeze"](self, dim=_wrap_dim(dim, self._data.ndim + 1))._view_of(self)

    def transpose(self, dim0, dim1):
        nd = self._data.ndim
        return OPS["transpose"](self, dim0=_wrap_dim(dim0, nd), dim1=_wrap_dim(dim1, nd))._view_of(self)

    swapaxes = swapdims = transpose

    def t(self):
        if self._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return OPS["t"](self)._view_of(self)

    @property
    def T(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4321.)")
        elif self._data.ndim != 2:
            _warn_once("The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and "
                       "it will throw an error in a future release. Consider `x.mT` to transpose batches of matrices or "
                       "`x.permute(*torch.arange(x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4314.)")
        return self.permute(tuple(range(self._data.ndim - 1, -1, -1)))

    @property
    def mT(self):
        if self._data.ndim == 0:
            _warn_once("Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases. "
                       "(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4373.)")
            return self
        if self._data.ndim == 1:
            raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
        return self.transpose(-2, -1)

    def permute(self, *dims, **keywords):
        if keywords:
            dims = _sizes_keyword(dims, keywords, "dims")
        dims = _size_args(dims)
        if len(dims) != self._data.ndim:
            raise RuntimeError("permute(sparse_coo): number of dimensions in the tensor input does not match the length "
                               "of the desired ordering of dimensions i.e. input.dim() = "
                               f"{self._data.ndim} is not equal to len(dims) = {len(dims)}")
        dims = tuple(_wrap_dim(d, self._data.ndim) for d in dims)
        if len(set(dims)) != len(dims):
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        return OPS["permute"](self, dims=dims)._view_of(self)

    def expand(self, *sizes, implicit=False, **keywords):
        if keywords:
            sizes = _sizes_keyword(sizes, keywords, "size")
        sizes = _size_args(sizes)
        if len(sizes) < self._data.ndim:
            raise RuntimeError(
                f"expand({self.type()}{{[{', '.join(map(str, self._data.shape))}]}}, size=[{', '.join(map(str, sizes))}]): "
                f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions in "
                f"the tensor ({self._data.ndim})")
        lead = len(sizes) - self._data.ndim
        for i in range(lead):
            if sizes[i] == -1:
                raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                                   f"dimension {i}")
        shape = tuple(self._data.shape[i - lead] if s == -1 else s for i, s in enumerate(sizes))
        for i in range(len(shape) - 1, lead - 1, -1):        # each old dim: kept, or stretched from 1
            old = self._data.shape[i - lead]
            if old != 1 and old != shape[i]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[i]}) must match the existing size ({old}) at "
                    f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}].  Tensor sizes: "
                    f"[{', '.join(map(str, self._data.shape))}]")
        return OPS["expand"](self, shape=shape)._view_of(self)

    def expand_as(self, other):
        _check_tensor_argument("expand_as", other)
        return self.expand(other.shape)

    def repeat(self, *repeats, **keywords):
        if keywords:
            repeats = _sizes_keyword(repeats, keywords, "repeats")
        repeats = _size_args(repeats)
        if len(repeats) < self._data.ndim:
            raise RuntimeError("Number of dimensions of repeat dims can not be smaller than number of dimensions of "
                               "tensor")
        padded = (1,) * (len(repeats) - self._data.ndim) + self._data.shape
        sizes = [s * r for s, r in zip(padded, repeats)]
        negative = [s for s in sizes if s < 0]
        if negative:
            raise RuntimeError(f"Trying to create tensor with negative dimension {negative[0]}: "
                               f"[{', '.join(map(str, sizes))}]")
        return OPS["repeat"](self, repeats=repeats, self_sizes=self._data.shape)

    def flip(self, *dims, **keywords):
        if keywords:
            dims = _sizes_keyword(dims, keywords, "dims")
        first = dims[0] if len(dims) == 1 and isinstance(dims[0], (list, tuple)) else dims
        if first and isinstance(first[0], bool):     # (PyTorch looks at the first only)
            raise TypeError("flip")                # (a bool is no dim: _argparse words PyTorch's TypeError)
        dims = _dims(list(_size_args(dims)), self._data.ndim)
        return OPS["flip"](self, dims=dims)

    def roll(self, shifts, dims=None):
        shifts = (shifts,) if isinstance(shifts, int) else tuple(shifts)
        dims = (dims,) if isinstance(dims, int) else tuple(dims) if dims is not None else None
        if not shifts:
            raise RuntimeError("`shifts` required")
        if len(shifts) != len(dims or ()) and not (dims is None and len(shifts) == 1):
            raise RuntimeError(f"shifts and dimensions must align. shifts: {len(shifts)}, dims:{len(dims or ())}")
        if dims is None:                # the flattened tensor rolls (one RollBackward0 node, as in PyTorch)
            return OPS["roll"](self, shifts=shifts, dims=None)
        if not self._data.size:         # (PyTorch returns an empty tensor's copy before reading dims)
            return OPS["roll"](self, shifts=shifts[:1], dims=None)
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {dims[0]} but tensor has no dimensions")
        dims = tuple(_wrap_dim(d, self._data.ndim) for d in dims)
        return OPS["roll"](self, shifts=shifts, dims=dims)

    def narrow(self, dim, start, length):
        if isinstance(start, Tensor):       # (PyTorch's other overload, checked before anything else)
            if start._data.ndim or start._data.dtype.kind not in "iu":
                raise RuntimeError("start must be an 0-dim integral Tensor.")
            start = int(start._data)
        if self._data.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if length < 0:
            raise RuntimeError("narrow(): length must be non-negative.")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        start = start + self._data.shape[d] if start < 0 else start
        if start + length > self._data.shape[d]:
            raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({self._data.shape[d]}).")
        return OPS["slice"](self, dim=d, start=start, stop=start + length, step=1,
                            self_sizes=self._data.shape)._view_of(self)

    def select(self, dim, index, _real_dim=None):
        if self._data.ndim == 0:
            raise IndexError("select() cannot be applied to a 0-dim tensor.")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= index < size:
            if _real_dim is not None:       # x[1, 5]: indexing names the dim of x
                raise IndexError(f"index {index} is out of bounds for dimension {_real_dim} with size {size}")
            raise IndexError(f"select(): index {index} out of range for tensor of size "
                             f"[{', '.join(map(str, self._data.shape))}] at dimension {d}")
        return OPS["select"](self, dim=d, index=index, self_sizes=self._data.shape)._view_of(self)

    def unbind(self, dim=0):
        if self._data.ndim == 0:
            raise IndexError(f"Dimension specified as {_wrap_dim(dim, 0)} but tensor has no dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        return _multi_output_views(self, "Unbind", OPS["unbind"](self, dim=d))

    def split(self, split_size, dim=0):
        if isinstance(split_size, bool):          # (PyTorch's parser marks every argument then)
            got = f"Tensor, bool, {_type_name(dim)}"
            bad = f"(Tensor, !bool!, !{_type_name(dim)}!)"
            raise TypeError(f"split() received an invalid combination of arguments - got ({got}), but expected one "
                            f"of:\n * (Tensor input, int split_size, int dim = 0)\n      didn't match because some of "
                            f"the arguments have invalid types: {bad}\n * (Tensor input, tuple of ints split_size, int "
                            f"dim = 0)\n      didn't match because some of the arguments have invalid types: {bad}\n")
        if isinstance(split_size, (list, tuple)) and split_size and isinstance(split_size[0], bool):
            raise TypeError("split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, but found "
                            "element of type bool at pos 0")
        if isinstance(split_size, (list, tuple)) and all(isinstance(n, numbers.Integral) for n in split_size):
            split_size = [int(n) for n in split_size]     # (a later bool counts as an int)
        if not isinstance(split_size, (numbers.Integral, list, tuple)):
            raise TypeError(f"split_with_sizes(): argument 'split_sizes' (position 2) must be tuple of ints, not "
                            f"{_type_name(split_size)}")
        if self._data.ndim == 0:
            raise RuntimeError("split expects at least a 1-dimensional tensor")
        if isinstance(split_size, int) and split_size < 0:
            raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if isinstance(split_size, int):
            if split_size == 0 and size != 0:
                raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
            if split_size == 0:               # an empty dim splits into one empty piece
                return tuple(t._view_of(self) for t in OPS["split"](self, dim=d, sections=[]))
            if split_size < 0:
                raise RuntimeError(f"split expects split_size be non-negative, but got split_size={split_size}")
            sizes = [split_size] * (size // split_size) + ([size % split_size] if size % split_size else [])
        else:
            sizes = list(split_size)
            if sum(sizes) != size:
                raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                                   f"size at dimension {d}), but got split_sizes={sizes}")
        sections = np.cumsum(sizes)[:-1].tolist()
        return _multi_output_views(self, "Split" if isinstance(split_size, int) else "SplitWithSizes",
                                   OPS["split"](self, dim=d, sections=sections))

    def chunk(self, chunks, dim=0):
        if self._data.ndim == 0:
            raise RuntimeError("chunk expects at least a 1-dimensional tensor")
        if chunks <= 0:
            raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
        size = self._data.shape[_wrap_dim(dim, self._data.ndim)]
        if size == 0:                         # an empty dim: `chunks` empty pieces, as in PyTorch
            d = _wrap_dim(dim, self._data.ndim)
            return tuple(t._view_of(self) for t in OPS["split"](self, dim=d, sections=[0] * (chunks - 1)))
        return self.split(max(-(-size // chunks), 1), dim)

    def gather(self, dim, index):
        _check_tensor_argument("gather", index, "index", position=2)
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("gather(): Expected dtype int32/int64 for index")
        if max(idx.ndim, 1) != max(self._data.ndim, 1):     # (a 0-d tensor counts as 1-d here)
            raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
        for i, (n_index, n_self) in enumerate(zip(idx.shape, self._data.shape)):
            if i != d and n_index > n_self:
                raise RuntimeError(f"Size does not match at dimension {i} expected index {list(idx.shape)} to be no "
                                   f"larger than self {list(self._data.shape)} apart from dimension {d}")
        size = self._data.shape[d] if self._data.ndim else 1
        bad = (idx < 0) | (idx >= size)                  # (gather takes no negative index)
        if bad.any():
            raise RuntimeError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
        return OPS["gather"](self, dim=_wrap_dim(dim, self._data.ndim), index=_data_of(index),
                             self_sizes=self._data.shape)

    def index_select(self, dim, index):
        _check_tensor_argument("index_select", index, "index", position=2)
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        if idx.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        size = self._data.shape[d] if self._data.ndim else 1
        if not self._data.ndim and idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        if size == 0 and idx.size:          # (PyTorch's 1-d kernel words it as any index out of range)
            if self._data.ndim == 1:
                raise IndexError("index out of range in self")
            raise RuntimeError("index_select(): self indexing axis dim should be positive")
        bad = (idx < 0) | (idx >= size)
        if bad.any():      # (PyTorch's kernels word it differently: its dim-1 and empty-input kernel, the others)
            if d == 1 or self._data.size == 0:
                raise RuntimeError(f"INDICES element is out of DATA bounds, id={idx[bad].flat[0]} axis_dim={size}")
            raise IndexError("index out of range in self")
        if self._data.ndim and not idx.ndim:
            idx = idx.reshape(1)           # (a 0-d index keeps the dim)
        return OPS["index_select"](self, dim=d, index=idx, self_sizes=self._data.shape)


def _multi_output_views(base, name, outputs):
    """The views unbind and split return. PyTorch refuses to change one of them in place while it
    requires grad ("Output 1 of Unbind is a view and is being modified inplace..."): each remembers
    which output of which function it is."""
    views = tuple(t._view_of(base) for t in outputs)
    if grad_mode._state["enabled"] and base.requires_grad:
        for i, view in enumerate(views):
            view._multi_output = (name, i)
    return views


def _size_args(args):
    """Accept sizes as varargs `(2, 3)`, a tuple/list/Size `((2, 3),)`, or `()`."""
    if len(args) == 1 and isinstance(args[0], (tuple, list, Size)):
        args = args[0]
    if all(type(a) is int for a in args):      # the common case, checked cheaply
        return tuple(args)
    out = []
    for a in args:
        if isinstance(a, Tensor):
            a = a.item()
        if not isinstance(a, numbers.Integral):
            raise TypeError(f"empty(): argument 'size' must be tuple of ints, but found element of type "
                            f"{type(a).__name__} at pos {len(out)}")
        out.append(int(a))
    return tuple(out)


def _sizes_keyword(args, keywords, name):
    """t.reshape(shape=(2, 3)): the sizes by PyTorch's keyword, then a tuple or list only. A wrong call
    raises a bare TypeError, which gradlab's argument parser (_argparse) rewords as PyTorch's."""
    if args or set(keywords) != {name} or not isinstance(keywords[name], (tuple, list, Size)):
        raise TypeError(name)
    return (keywords[name],)


def _infer_shape(shape, numel):
    """The -1 in a view/reshape shape filled in; PyTorch's infer_size (its checks, in its order)."""
    if -1 not in shape and all(s >= 0 for s in shape):      # the common case
        n = 1
        for s in shape:
            n *= s
        if n == numel:
            return shape
    text = f"[{', '.join(map(str, shape))}]"
    infer, known = None, 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s >= 0:
            known *= s
        else:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {text}")
    if numel == known or (infer is not None and known > 0 and numel % known == 0):
        if infer is None:
            return shape
        if known == 0:
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {text} because the unspecified "
                               "dimension size -1 can be any value and is ambiguous")
        return shape[:infer] + (numel // known,) + shape[infer + 1:]
    raise RuntimeError(f"shape '{text}' is invalid for input of size {numel}")
