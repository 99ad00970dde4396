"""Tensor's shape methods and views (`view`, `reshape`, `transpose`, `expand`, `split`, `gather`, ...)."""
import numbers

import numpy as np

from .. import _argparse, _dtype
from .._size import Size
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..autograd.forward_grads import tangent_of
from ..autograd.node import set_history
from ..ops import OPS, indexing as _indexing
from ..ops.inplace import _keep_retained_grad, _kind_name, _refresh_views
from ..ops.operands import _type_name, broadcast_error
from ..ops.scatter import check_index_select_bounds
from ._common import _check_tensor_argument, _data_of, _dims, _warn_once



def _broadcast(a, b):
    """PyTorch's infer_size of two shapes (its message when they do not broadcast)."""
    try:
        return np.broadcast_shapes(tuple(a), tuple(b))
    except ValueError:
        raise broadcast_error(tuple(a), tuple(b)) from None

def _view_dtype(t, new):
    """t.view(dtype): the same bytes read as another dtype (PyTorch's view_dtype: the last dim's size scales by
    the ratio of the element sizes, the other strides stay the same in bytes). Not a view to autograd: no
    history, but the storage and the version counter are t's (as detach())."""
    old = t._data.dtype
    names = f"{_kind_name(old)} as {_kind_name(new)} (different element sizes)"
    if t.is_conj():
        raise RuntimeError("torch.Tensor.view is not supported for conjugate view tensors when converting to a "
                           "different dtype.")
    data = t._data
    if new.itemsize != old.itemsize:
        if data.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 to view {names}")
        strides = t.stride()
        if new.itemsize > old.itemsize:
            ratio = new.itemsize // old.itemsize
            if data.shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} to view {names}, but got "
                                   f"{data.shape[-1]}")
            if t.storage_offset() % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} to view {names}, but got "
                                   f"{t.storage_offset()}")
        if strides[-1] != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 to view {names}, but got {strides[-1]}")
        if new.itemsize > old.itemsize:
            for d, step in enumerate(strides[:-1]):
                if step % ratio:
                    raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} to view {names}, but got "
                                       f"{step}")
        # numpy's view changes the last dim the same way; it wants the last dim's bytes to be adjacent, which
        # they are (stride 1), unless numpy laid out a dim of size 0 or 1 otherwise: then a stand-in layout
        bytes_strides = tuple(s * old.itemsize for s in strides[:-1]) + (old.itemsize,)
        data = np.lib.stride_tricks.as_strided(data, data.shape, bytes_strides, writeable=data.flags.writeable)
    out = Tensor._make(data.view(new))
    out._version_counter = t._version_counter
    return out


class _ShapeMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- shape ----------------------------------------------------------------------------------
    def view(self, *shape, **keywords):
        if not shape and list(keywords) == ["dtype"] and isinstance(keywords["dtype"], (_dtype.dtype, type)):
            shape, keywords = (keywords["dtype"],), {}        # (view(dtype=torch.int16): PyTorch's other form)
        if keywords:
            shape = _sizes_keyword(shape, keywords, "size")
        if len(shape) == 1 and isinstance(shape[0], (_dtype.dtype, type)):
            return _view_dtype(self, _dtype.to_numpy_dtype(shape[0]))
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
        sizes = tuple(_argparse.int_list("unflatten", "sizes", 2, sizes, allow_int=False, sym=True))
        if not sizes:
            raise RuntimeError("unflatten: sizes must be non-empty")
        if self._data.ndim == 0:         # (the dim wrapped as a scalar's first: -1 is 0, 1 is out of range)
            raise RuntimeError(f"unflatten got an unexpected error:\nDimension specified as {_wrap_dim(dim, 0)} but "
                               "tensor has no dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        try:
            sizes = _infer_shape(sizes, self._data.shape[d])
        except RuntimeError as e:            # PyTorch rewords infer_size's errors (handle_unflatten_exception)
            if "is invalid for input of size" not in str(e):
                raise RuntimeError(f"unflatten got an unexpected error:\n{e}") from None
            raise RuntimeError(f"unflatten: Provided sizes [{', '.join(map(str, sizes))}] don't multiply up to the "
                               f"size of dim {d} ({self._data.shape[d]}) in the input tensor") from None
        return self.view(self._data.shape[:d] + sizes + self._data.shape[d + 1:])

    def squeeze(self, dim=None, *dims):
        if dims:                                # x.squeeze(0, 1): PyTorch's parser reads the dims as one list
            dim = (dim,) + dims
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

    swapdims = transpose          # (swapaxes is the row's alias; gradlab has no torch.swapdims yet)

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
                f"expand({_cpp_type_name(self)}{{[{', '.join(map(str, self._data.shape))}]}}, "
                f"size=[{', '.join(map(str, sizes))}]): "
                f"the number of sizes provided ({len(sizes)}) must be greater or equal to the number of dimensions in "
                f"the tensor ({self._data.ndim})")
        lead = len(sizes) - self._data.ndim
        if not self._data.ndim and any(n < 0 for n in sizes) and 0 not in sizes:
            raise RuntimeError("numel: integer multiplication overflow")     # (PyTorch's 0-d kernel: its check)
        shape = tuple(self._data.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(sizes))
        for i in range(len(shape) - 1, -1, -1):      # each dim from the last (ATen's order): kept, or stretched from 1
            if i < lead:
                if sizes[i] == -1:
                    raise RuntimeError(f"The expanded size of the tensor (-1) isn't allowed in a leading, "
                                       f"non-existing dimension {i}")
                continue
            old = self._data.shape[i - lead]
            if old != 1 and old != shape[i]:
                raise RuntimeError(
                    f"The expanded size of the tensor ({shape[i]}) must match the existing size ({old}) at "
                    f"non-singleton dimension {i}.  Target sizes: [{', '.join(map(str, sizes))}].  Tensor sizes: "
                    f"[{', '.join(map(str, self._data.shape))}]")
        if 0 not in shape and any(n < 0 for n in shape):     # (a negative leading size: c10's checked numel)
            raise RuntimeError("numel: integer multiplication overflow")
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

    def rot90(self, k=1, dims=(0, 1)):
        """PyTorch's checks (TensorTransformations.cpp, in its order), then one Rot90Backward0 node."""
        dims = tuple(dims)
        nd = self._data.ndim
        if len(dims) != 2:
            raise RuntimeError(f"expected total rotation dims == 2, but got dims = {len(dims)}")
        if nd < 2:
            raise RuntimeError(f"expected total dims >= 2, but got total dims = {nd}")
        wrapped = tuple(_wrap_dim(d, nd) for d in dims)      # (PyTorch 2.13 wraps them before comparing)
        if dims[0] == dims[1] or abs(dims[0] - dims[1]) == nd:
            raise RuntimeError(f"expected rotation dims to be different, but got dim0 = {dims[0]} and dim1 = {dims[1]}")
        return OPS["rot90"](self, k=k, dims=wrapped)

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
            if any(n < 0 for n in sizes):
                raise RuntimeError(f"split_with_sizes expects split_sizes have only non-negative entries, but got "
                                   f"split_sizes={sizes}")
            if sum(sizes) != size:
                raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's "
                                   f"size at dimension {dim}), but got split_sizes={sizes}")     # (the dim as given)
        sections = np.cumsum(sizes)[:-1].tolist()
        by_size = isinstance(split_size, int)
        return _multi_output_views(self, "Split" if by_size else "SplitWithSizes",
                                   OPS["split" if by_size else "split_with_sizes"](self, dim=d, sections=sections))

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

    def take_along_dim(self, indices, dim=None):
        """PyTorch's composition: gather along dim after broadcasting the other dims (GatherBackward0); without a
        dim, the flattened tensor at the flattened indices."""
        if dim is None:
            return self.view(-1).gather(0, indices.view(-1))
        if self._data.ndim != indices._data.ndim:
            raise RuntimeError(f"torch.take_along_dim(): input and indices should have the same number of dimensions, "
                               f"but got {self._data.ndim} dimensions for input, and {indices._data.ndim} dimensions "
                               "for indices")
        if indices._data.dtype != np.int64:
            raise RuntimeError("torch.take_along_dim(): dtype of indices should be Long but got "
                               f"{_dtype.from_numpy_dtype(indices._data.dtype)._legacy[:-len('Tensor')]}")
        if not self._data.ndim:           # (no scalar wrapping of the dim here)
            raise IndexError(f"Dimension specified as {_wrap_dim(dim, 0)} but tensor has no dimensions")
        d = _wrap_dim(dim, self._data.ndim)
        sizes = list(self._data.shape)
        sizes[d] = indices._data.shape[d]                 # indices take self's other sizes...
        indices = indices.broadcast_to(_broadcast(sizes, indices._data.shape))
        # PyTorch wraps the indices along dim first (indices.remainder(size): -1 is the last, size the first)
        n = self._data.shape[d]
        if n == 0 and indices._data.size:
            raise RuntimeError("ZeroDivisionError")
        indices = Tensor._make(np.remainder(indices._data, max(n, 1)))
        sizes = list(indices._data.shape)
        sizes[d] = self._data.shape[d]                    # ...and self takes theirs
        return self.broadcast_to(_broadcast(sizes, self._data.shape)).gather(d, indices)

    def gather(self, dim, index, *, sparse_grad=False):
        # (sparse_grad=True: PyTorch's gradient of self is a sparse tensor; gradlab has none, its dense one is the same)
        _check_tensor_argument("gather", index, "index", position=2)
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.size == 0:          # (PyTorch checks nothing more of an empty index)
            return OPS["gather"](self, dim=d, index=idx.astype(np.int64), self_sizes=self._data.shape)
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
        idx = index._data                 # (PyTorch's order: the index's shape, a 0-d self's count, the dtype)
        if idx.ndim > 1:
            raise IndexError("index_select(): Index is supposed to be a vector")
        if not self._data.ndim and idx.size != 1:
            raise RuntimeError(f"index_select(): Index to scalar can have only 1 value, got {idx.size} value(s)")
        if idx.dtype not in (np.int64, np.int32):
            raise RuntimeError("index_select(): Expected dtype int32 or int64 for index")
        check_index_select_bounds(self._data, d, idx)
        if self._data.ndim and not idx.ndim:
            idx = idx.reshape(1)           # (a 0-d index keeps the dim)
        return OPS["index_select"](self, dim=d, index=idx, self_sizes=self._data.shape)

    def repeat_interleave(self, repeats=None, dim=None, *, output_size=None):
        """PyTorch's compositions: an int repeats is unsqueeze, expand, clone, view (ViewBackward0);
        a tensor of repeats is index_select with the repeated positions (IndexSelectBackward0)."""
        if repeats is None:                  # torch.repeat_interleave(repeats): the positions repeated
            return _repeated_positions(self, output_size)
        src = self if dim is not None else self.flatten()
        if isinstance(repeats, Tensor) and repeats._data.ndim > 1:
            raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
        d = _wrap_dim(0 if dim is None else dim, self._data.ndim)
        if dim is not None and not self._data.ndim:
            # (a 0-d tensor along a dim: index_select refuses it; the int form's unsqueeze(dim + 1) is out of range)
            if isinstance(repeats, Tensor):
                raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
            if isinstance(repeats, numbers.Integral) and not isinstance(repeats, bool) and repeats >= 0:
                raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
        if isinstance(repeats, Tensor):
            r = repeats
            if r._data.ndim == 0 or (r._data.ndim == 1 and r._data.shape[0] == 1):
                r = Tensor._make(np.broadcast_to(r._data.reshape(1), (src._data.shape[d] if src._data.ndim else 1,)))
            elif r._data.ndim == 1:
                if r._data.shape[0] != src._data.shape[d]:
                    raise RuntimeError(f"repeats must have the same size as input along dim, but got repeats.size(0) = "
                                       f"{r._data.shape[0]} and input.size({d}) = {src._data.shape[d]}")
            else:
                raise RuntimeError("repeats must be 0-dim or 1-dim tensor")
            return src.index_select(d, _repeated_positions(r, output_size))
        if not isinstance(repeats, numbers.Integral) or isinstance(repeats, bool):
            raise TypeError("repeat_interleave")        # (_argparse words PyTorch's TypeError)
        if repeats < 0:
            raise RuntimeError("Repeats must be non-negative")
        shape = src._data.shape
        if output_size is not None and output_size != (shape[d] if shape else 1) * repeats:
            raise RuntimeError(f"repeat_interleave: Invalid output_size, expected {(shape[d] if shape else 1) * repeats} "
                               f"but got {output_size}")
        out = src.unsqueeze(d + 1)
        expanded = out._data.shape[:d + 1] + (repeats,) + out._data.shape[d + 2:]
        new_shape = shape[:d] + (shape[d] * repeats,) + shape[d + 1:]
        return out.expand(expanded).clone().view(new_shape)

    # --- views taken in place: the tensor itself takes the new shape (TBackward1, ...) -----------------
    def t_(self):
        _indexing._check_inplace_allowed(self)
        if self._data.ndim > 2:
            raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {self._data.ndim}D")
        return _view_in_place(self, "t_inplace")

    def transpose_(self, dim0, dim1):
        _indexing._check_inplace_allowed(self)
        nd = self._data.ndim
        return _view_in_place(self, "transpose_inplace", dim0=_wrap_dim(dim0, nd), dim1=_wrap_dim(dim1, nd))

    swapaxes_ = swapdims_ = transpose_

    def unsqueeze_(self, dim):
        _indexing._check_inplace_allowed(self)
        return _view_in_place(self, "unsqueeze_inplace", dim=_wrap_dim(dim, self._data.ndim + 1))

    def squeeze_(self, dim=None, *dims):
        if dims:
            dim = (dim,) + dims
        _indexing._check_inplace_allowed(self)
        nd = self._data.ndim
        if dim is None:
            return _view_in_place(self, "squeeze_all_inplace", dims=tuple(range(nd)), self_sizes=self._data.shape)
        if isinstance(dim, (tuple, list)):
            return _view_in_place(self, "squeeze_dims_inplace", dims=_dims(dim, nd), self_sizes=self._data.shape)
        return _view_in_place(self, "squeeze_dim_inplace", dims=(_wrap_dim(dim, nd),) if nd else (),
                              self_sizes=self._data.shape)

    def resize_(self, *sizes, memory_format=None):
        """The elements in memory order, cut or extended to the new size (new elements are 0 here;
        PyTorch leaves them uninitialized)."""
        if self.requires_grad:
            raise RuntimeError("cannot resize variables that require grad")
        sizes = _size_args(sizes)
        if any(n < 0 for n in sizes):
            raise RuntimeError("numel: integer multiplication overflow")
        same = sizes == self._data.shape
        if same and memory_format is None:      # PyTorch's resize returns at once: strides, values, version kept
            return self
        count = int(np.prod(sizes, dtype=np.int64))
        flat = self._data.ravel(order="K")
        if count <= flat.size:
            self._data = np.ascontiguousarray(flat[:count]).reshape(sizes)
        else:
            grown = np.zeros(count, self._data.dtype)
            grown[:flat.size] = flat
            self._data = grown.reshape(sizes)
        if not same:                            # (restrided only, to memory_format: no new size, no new version)
            self._version_counter[0] += 1
        return self

    # --- ravel, tile, movedim, broadcast_to: compositions of the views above (their grad_fn names) ---

    def ravel(self):
        return (self if self._data.flags.c_contiguous else self.contiguous()).view(-1)

    def tile(self, *dims):
        dims = _size_args(dims)
        if len(dims) < self._data.ndim:         # (PyTorch pads the reps with leading 1s)
            dims = (1,) * (self._data.ndim - len(dims)) + dims
        return self.repeat(dims)

    def broadcast_to(self, *size):
        return self.expand(*size)

    def movedim(self, source, destination):
        nd = self._data.ndim
        src = [source] if isinstance(source, numbers.Integral) else list(source)
        dst = [destination] if isinstance(destination, numbers.Integral) else list(destination)
        if len(src) != len(dst):
            raise RuntimeError(f"movedim: Invalid source or destination dims: source ({_list(src)} dims) should "
                               f"contain the same number of dims as destination ({_list(dst)} dims)")
        src = [_wrap_dim(d, nd) for d in src]
        dst = [_wrap_dim(d, nd) for d in dst]
        if nd == 0:                             # (PyTorch: an alias of a 0-d tensor)
            return OPS["alias"](self)._view_of(self)
        for name, ds in (("source", src), ("destination", dst)):
            if len(set(ds)) != len(ds):
                raise RuntimeError(f"movedim: repeated dim in `{name}` ({_list(ds)})")
        order = [-1] * nd
        for s, d in zip(src, dst):
            order[d] = s
        rest = iter(d for d in range(nd) if d not in src)
        order = [o if o != -1 else next(rest) for o in order]
        return self.permute(order)

    moveaxis = movedim


def _multi_output_views(base, name, outputs):
    """The views unbind and split return. PyTorch refuses to change one of them in place while it
    requires grad ("Output 1 of Unbind is a view and is being modified inplace..."): each remembers
    which output of which function it is."""
    views = tuple(t._view_of(base) for t in outputs)
    if grad_mode._state["enabled"] and base.requires_grad:
        for i, view in enumerate(views):
            view._multi_output = (name, i)
    elif grad_mode._state["enabled"]:
        for view in views:      # (no history to name: if the base comes to require grad, the message has none)
            view.__dict__["_no_grad_view"] = "multi"
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


def _list(ds):
    return f"[{', '.join(map(str, ds))}]"


def _view_in_place(t, key, **params):
    """t.t_(), t.unsqueeze_(0), ...: t itself becomes the view (same memory, new shape); in a graph its
    grad_fn is the view's node, whose input is t's old history (PyTorch's in-place view ops)."""
    if grad_mode._state["enabled"] and t.requires_grad:
        stand = Tensor._make(t._data, t.grad_fn, t._output_nr)
        stand._requires_grad = t._requires_grad
        stand._accumulator = t._accumulator
        result = OPS[key](stand, **params)
        t._data = result._data
        set_history(result.grad_fn, t)
        _keep_retained_grad(t)
        if t._base is None:
            _refresh_views(t)
    else:
        t._data = OPS[key].forward(t._data, **params)
    t._version_counter[0] += 1
    tangent = tangent_of(t)
    if tangent is not None:             # (inside forward_ad.dual_level: the tangent takes the same shape)
        _view_in_place(tangent, key, **params)
    return t


def _kind_of(t):
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]


def _repeated_positions(repeats, output_size):
    """torch.repeat_interleave(repeats): i repeated repeats[i] times (an int64 tensor, no graph)."""
    r = repeats._data
    if r.ndim != 1:
        raise RuntimeError("repeat_interleave only accept 1D vector as repeat")
    if r.dtype not in (np.int64, np.int32):
        raise NotImplementedError(f"\"repeat_interleave_cpu\" not implemented for '{_kind_of(repeats)}'")
    if (r < 0).any():
        raise RuntimeError("repeats can not be negative")
    if not r.size:                           # (nothing to repeat: PyTorch reads no output_size)
        return Tensor._make(np.zeros(0, r.dtype))
    if output_size is not None and output_size < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {output_size}: [{output_size}]")
    if output_size is not None and output_size != int(r.sum()):
        raise RuntimeError("allocated size does not match required size")
    return Tensor._make(np.repeat(np.arange(r.shape[0], dtype=r.dtype), r))


def _cpp_type_name(t):
    """The tensor's type as PyTorch's C++ prints it (DeprecatedTypeProperties::toString): the legacy
    torch.XTensor name where C++ has one (the eight float and integer types), else CPU<Scalar>Type."""
    name = t.type()
    if name[len("torch."):] in ("FloatTensor", "DoubleTensor", "HalfTensor", "LongTensor", "IntTensor", "ShortTensor",
                                "CharTensor", "ByteTensor"):
        return name
    return "CPU" + name[len("torch."):-len("Tensor")] + "Type"
