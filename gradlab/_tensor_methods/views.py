"""Tensor's views given by strides (`as_strided`, `unfold`), the splits that are compositions of slices
(`tensor_split`, `hsplit`, ...), the `*_scatter` ops that write a view of a copy, and small queries
(`is_same_size`, `is_conj`, `resolve_conj`, ...)."""
import math
import numbers

import numpy as np

from .. import _dtype
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..ops import OPS, indexing as _indexing
from ..creation.legacy import legacy_data
from ..creation.factories import _checked_fill, _fill_number
from ..creation.strided import empty_strided
from ..ops.scatter import clone_preserve_strides
from ..ops.shape import positions as _storage_positions, storage_of
from ._common import _check_tensor_argument, _warn_once
from .shape import _multi_output_views, _size_args, _view_in_place


def _list(values):
    return f"[{', '.join(map(str, values))}]"


def _geometry(t):
    """(sizes, element strides, storage offset) of t's array in its storage (gradlab's stand-in storage)."""
    storage, offset = storage_of(t._data)
    return storage, t._data.shape, tuple(t.stride()), offset


def _check_strided(t, size, stride, storage_offset, storage):
    """PyTorch's setStrided checks, in its order (as_strided_tensorimpl)."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(s < 0 for s in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {_list(stride)}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={_list(size)} and strides={_list(stride)}")
    if storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    item = t._data.itemsize
    if 0 not in size:
        needed = (storage_offset + 1 + sum((n - 1) * s for n, s in zip(size, stride))) * item
        if needed > storage.size * item:
            raise RuntimeError(f"setStorage: sizes {_list(size)}, strides {_list(stride)}, storage offset "
                               f"{storage_offset}, and itemsize {item} requiring a storage size of {needed} are out "
                               f"of bounds for storage of size {storage.size * item}")


def _strided_params(t, size, stride, storage_offset):
    size, stride = tuple(_size_args((size,))), tuple(_size_args((stride,)))
    storage, sizes, strides, offset = _geometry(t)
    storage_offset = offset if storage_offset is None else int(storage_offset)
    _check_strided(t, size, stride, storage_offset, storage)
    # where self's elements and the view's lie in the storage: what the gradient reads (ops/shape.py)
    self_positions = _storage_positions(sizes, strides, offset)
    view_positions = _storage_positions(size, stride, storage_offset)
    storage_size = int(max(self_positions.max(initial=-1), view_positions.max(initial=-1))) + 1
    counts = np.bincount(self_positions.reshape(-1), minlength=storage_size)[self_positions]
    return dict(size=size, stride=stride, storage_offset=storage_offset, self_positions=self_positions,
                view_positions=view_positions, storage_size=storage_size, self_geometry=(strides, offset),
                counts=counts.astype(t._data.dtype if t._data.dtype.kind in "fc" else np.float32))


def _positions_of_view(t, view):
    """Which elements of t (C-order indices, shaped like the view) a view function picks: the view taken of
    t's element indices laid out as the *_scatter ops' copy of t is (clone_preserve_strides)."""
    index = clone_preserve_strides(t._data, np.int64)
    index[...] = np.arange(t._data.size, dtype=np.int64).reshape(t._data.shape)
    return np.array(view(Tensor._make(index))._data, copy=True)


def _check_scatter_src(src, slice_shape):
    if src._data.shape != tuple(slice_shape):
        raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                           f"{_list(src._data.shape)}, slice size = {_list(slice_shape)}")


def _split_at(t, bounds, d):
    """t's slices between consecutive bounds along d (each a SliceBackward0 view), Python's clamping."""
    size = t._data.shape[d]
    out = []
    for start, stop in zip(bounds[:-1], bounds[1:]):
        begin = min(max(start + size if start < 0 else start, 0), size)
        end = size if stop is None else min(max(stop + size if stop < 0 else stop, 0), size)
        end = max(end, begin)
        out.append(OPS["slice"](t, dim=d, start=begin, stop=end, step=1, self_sizes=t._data.shape)._view_of(t))
    return tuple(out)


class _ViewMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- views given by sizes and strides ---------------------------------------------------------------
    def as_strided(self, size, stride, storage_offset=None):
        """A view of self's storage (not of self: offsets count from the storage's start) with these sizes and
        element strides; storage_offset defaults to self's. One AsStridedBackward0 node."""
        params = _strided_params(self, size, stride, storage_offset)
        return _keep_strides(OPS["as_strided_view"](self, **params)._view_of(self), params)

    def as_strided_(self, size, stride, storage_offset=None):
        """self itself becomes the as_strided view (AsStridedBackward1)."""
        _indexing._check_inplace_allowed(self)
        params = _strided_params(self, size, stride, storage_offset)
        return _keep_strides(_view_in_place(self, "as_strided_inplace", **params), params)

    def unfold(self, dimension, size, step):
        """The windows of `size` elements, `step` apart, along `dimension`, as a new last dim: a view."""
        nd = self._data.ndim
        d = _wrap_dim(dimension, nd)
        max_size = self._data.shape[d] if nd else 1
        if size > max_size:
            raise RuntimeError(f"maximum size for tensor at dimension {d} is {max_size} but size is {size}")
        if size < 0:
            raise RuntimeError(f"size is {size} but must be >= 0")
        if step <= 0:
            raise RuntimeError(f"step is {step} but must be > 0")
        return OPS["unfold"](self, dimension=d, size=size, step=step, self_sizes=self._data.shape)._view_of(self)

    # --- splits: compositions of slices -----------------------------------------------------------------
    def tensor_split(self, indices_or_sections, dim=0):
        """PyTorch's composition: `sections` pieces as even as can be (the first ones one longer), or the
        pieces between the given indices; each a slice (SliceBackward0)."""
        if self._data.ndim == 0:
            raise RuntimeError("tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims")
        if isinstance(indices_or_sections, Tensor):
            t = indices_or_sections
            if t._data.dtype != np.int64:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                                   f"{_dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len('Tensor')]}")
            if t._data.ndim > 1:
                raise RuntimeError("tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                                   f"one-dimensional tensor, but got a tensor with {t._data.ndim} dims")
            indices_or_sections = int(t._data) if t._data.ndim == 0 else [int(i) for i in t._data]
        d = _wrap_dim(dim, self._data.ndim)
        if isinstance(indices_or_sections, numbers.Integral):
            sections = int(indices_or_sections)
            if sections <= 0:
                raise RuntimeError(f"number of sections must be larger than 0, got {sections}")
            size = self._data.shape[d]
            small, extra = divmod(size, sections)
            bounds = [0]
            for i in range(sections):
                bounds.append(bounds[-1] + small + (1 if i < extra else 0))
            return _split_at(self, bounds, d)
        return _split_at(self, [0, *(int(i) for i in indices_or_sections), None], d)

    def _split_along(self, name, need, d, indices_or_sections):
        """hsplit, vsplit, dsplit: tensor_split along d, an int needing to divide the dim evenly."""
        nd = self._data.ndim
        if nd < need:
            raise RuntimeError(f"torch.{name} requires a tensor with at least {need} dimension, but got a tensor "
                               f"with {nd} dimensions!")
        if isinstance(indices_or_sections, numbers.Integral):
            n = self._data.shape[d]
            if indices_or_sections == 0 or n % indices_or_sections:
                raise RuntimeError(f"torch.{name} attempted to split along dimension {d}, but the size of the "
                                   f"dimension {n} is not divisible by the split_size {indices_or_sections}!")
        return self.tensor_split(indices_or_sections, d)

    def hsplit(self, *indices_or_sections):
        indices_or_sections = _one_or_list(indices_or_sections)
        if self._data.ndim == 0:
            raise RuntimeError("torch.hsplit requires a tensor with at least 1 dimension, but got a tensor with 0 "
                               "dimensions!")
        return self._split_along("hsplit", 1, 1 if self._data.ndim > 1 else 0, indices_or_sections)

    def vsplit(self, *indices_or_sections):
        indices_or_sections = _one_or_list(indices_or_sections)
        return self._split_along("vsplit", 2, 0, indices_or_sections)

    def dsplit(self, *indices_or_sections):
        indices_or_sections = _one_or_list(indices_or_sections)
        return self._split_along("dsplit", 3, 2, indices_or_sections)

    def split_with_sizes(self, split_sizes, dim=0):
        return self.split(list(split_sizes), dim)

    def unsafe_split(self, split_size, dim=0):
        """split's pieces as tensors of their own (not views: changing one in place is allowed), one
        UnsafeSplitBackward0 node."""
        return _unsafe(self, self.split(split_size, dim), "unsafe_split", dim)

    def unsafe_split_with_sizes(self, split_sizes, dim=0):
        return _unsafe(self, self.split(list(split_sizes), dim), "unsafe_split_with_sizes", dim)

    def unsafe_chunk(self, chunks, dim=0):
        return _unsafe(self, self.chunk(chunks, dim), "unsafe_split", dim)

    def fliplr(self):
        if self._data.ndim < 2:
            raise RuntimeError("Input must be >= 2-d.")
        return self.flip(1)

    def flipud(self):
        if self._data.ndim < 1:
            raise RuntimeError("Input must be >= 1-d.")
        return self.flip(0)

    def adjoint(self):
        """The conjugate transpose of the last two dims (a transpose view; conjugated for complex)."""
        if self._data.ndim == 0:
            _warn_once("adjoint() is deprecated on 0-D tensors. Consider using x.conj(). (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:4390.)")
            return self.conj()
        if self._data.ndim == 1:
            raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got 1-D "
                               "tensor.")
        return self.transpose(-2, -1).conj()

    def narrow_copy(self, dim, start, length):
        """narrow's values as a new tensor (NarrowCopyBackward0); a negative length is out of range here."""
        if self._data.ndim == 0:
            raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
        if dim >= self._data.ndim:      # (narrow_copy's own check, before any wrapping)
            raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, but got false.  "
                               "(Could this error message be improved?  If so, please report an enhancement request "
                               "to PyTorch.)")
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d]
        if not -size <= start <= size:
            raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
        begin = start + size if start < 0 else start
        if begin + length > size or length < 0:
            raise RuntimeError(f"start ({begin}) + length ({length}) exceeds dimension size ({size}).")
        return OPS["narrow_copy"](self, dim=d, start=start, length=length, self_sizes=self._data.shape)

    # --- src written into a view of a copy ------------------------------------------------------------------
    def select_scatter(self, src, dim, index):
        _check_tensor_argument("select_scatter", src, "src", position=2)
        view = self.detach().select(dim, index)
        _check_scatter_src(src, view._data.shape)
        return _scatter_into(self, src, "select_scatter", lambda t: t.select(dim, index))

    def slice_scatter(self, src, dim=0, start=None, end=None, step=1):
        _check_tensor_argument("slice_scatter", src, "src", position=2)
        if self._data.ndim == 0:
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
        d = _wrap_dim(dim, self._data.ndim)
        if step <= 0:
            raise RuntimeError("slice step must be positive")
        key = (slice(None),) * d + (slice(start, end, step),)
        _check_scatter_src(src, self._data[key].shape)
        return _scatter_into(self, src, "slice_scatter", lambda t: Tensor._make(t._data[key]))

    def diagonal_scatter(self, src, offset=0, dim1=0, dim2=1):
        _check_tensor_argument("diagonal_scatter", src, "src", position=2)
        view = self.detach().diagonal(offset, dim1, dim2)
        _check_scatter_src(src, view._data.shape)
        return _scatter_into(self, src, "diagonal_scatter", lambda t: t.diagonal(offset, dim1, dim2))

    def as_strided_scatter(self, src, size, stride, storage_offset=None):
        """self's copy (laid out like self) with src written into its as_strided view."""
        _check_tensor_argument("as_strided_scatter", src, "src", position=2)
        copy = Tensor._make(clone_preserve_strides(self._data))
        params = _strided_params(copy, size, stride, storage_offset)
        _check_scatter_src(src, params["size"])
        return _scatter_into(self, src, "as_strided_scatter_view",
                             lambda t: t.as_strided(params["size"], params["stride"], params["storage_offset"]))

    def fill_diagonal_(self, fill_value, wrap=False):
        """PyTorch's kernel: the main diagonal (every dim equal), as an as_strided view of self whose stride is
        the sum of self's strides, filled in place (so self's grad_fn is CopySlices). A tall matrix with wrap
        goes on every (cols + 1) elements down to the end."""
        nd = self._data.ndim
        if nd < 2:
            raise RuntimeError("dimensions must larger than 1")
        shape = self._data.shape
        if nd > 2 and len(set(shape)) != 1:
            raise RuntimeError("all dimensions of input must be of equal length")
        if not isinstance(fill_value, Tensor):
            _checked_fill(_fill_number(fill_value, "fill_"), self._data.dtype)
        size = min(shape)
        stride = sum(self.stride())
        offset = self.storage_offset()
        self.as_strided((size,), (stride,), offset).fill_(fill_value)
        if wrap and nd == 2 and shape[0] > shape[1] + 1:      # (a tall matrix: again every cols + 1 elements)
            step = shape[1] + 1
            rest = (self._data.size + step - 1) // step - size
            self.as_strided((rest,), (stride,), offset + self.stride(0) * step).fill_(fill_value)
        return self

    # --- sizes ----------------------------------------------------------------------------------------
    def sum_to_size(self, *size):
        """PyTorch's sum_to: the dims broadcasting added summed away, the stretched ones summed keeping a 1
        (SumBackward1, then a view when dims went away); self itself when the size is already its own."""
        size = tuple(_size_args(size))
        shape = self._data.shape
        lead = len(shape) - len(size)
        if lead < 0 or any(n != 1 and n != shape[lead + i] for i, n in enumerate(size)):
            raise RuntimeError(f"size {{{_list(size)}}} is not expandable to size {{{_list(shape)}}}.")
        if not size and shape:
            return self.sum()               # (sum_to's shortcut for an empty size: SumBackward0)
        dims = list(range(lead)) + [lead + i for i, n in enumerate(size) if n == 1 and shape[lead + i] != 1]
        if not dims:
            return self
        out = self.sum(dims, keepdim=True)
        return out.view(size) if lead else out

    def new(self, *args, **kwargs):
        """The legacy constructor in self's dtype: x.new(2, 3) (sizes), x.new([1, 2]) (data), x.new(t) (t itself,
        of the same dtype only), x.new() (empty)."""
        return Tensor._make(legacy_data(args, kwargs, self._data.dtype))

    def new_empty_strided(self, size, stride, *, dtype=None, layout=None, device=None, requires_grad=False,
                          pin_memory=False):
        return empty_strided(size, stride, dtype=self.dtype if dtype is None else dtype, device=device,
                             requires_grad=requires_grad, pin_memory=pin_memory)

    def resize_as_(self, the_template, *, memory_format=None):
        _check_tensor_argument("resize_as_", the_template, "the_template", position=1)
        return self.resize_(the_template.shape, memory_format=memory_format)

    def is_same_size(self, other):
        _check_tensor_argument("is_same_size", other, "other", position=1)
        return self._data.shape == other._data.shape

    def is_conj(self):
        """Whether self came from conj() of a complex tensor: PyTorch's conjugate bit (gradlab computes the
        conjugate at once, and keeps the bit only on conj()'s own result, not on views of it)."""
        return self.__dict__.get("_conj_bit", False)

    def is_neg(self):
        """PyTorch's negative bit: set on the imaginary parts of a conj() (`c.conj().imag`), which PyTorch reads
        negated without computing them (gradlab computes them, and keeps the bit only on that view)."""
        return self.__dict__.get("_neg_bit", False)

    def resolve_conj(self):
        """A copy without the conjugate bit (CloneBackward0), or self when it has none."""
        return self.clone() if self.is_conj() else self

    def resolve_neg(self):
        """A copy without the negative bit, or self when it has none."""
        return self.clone() if self.is_neg() else self


def _one_or_list(args):
    """x.hsplit(2), x.hsplit([1, 2]) or x.hsplit(1, 2) (PyTorch's parser takes the indices as varargs too)."""
    return args[0] if len(args) == 1 else list(args)


def _keep_strides(t, params):
    """An empty view remembers the strides it was given (numpy gives an empty array zero strides)."""
    if t._data.size == 0:
        t._empty_strides = (t._data.shape, params["stride"])
    return t


def _scatter_into(self, src, key, view):
    positions = _positions_of_view(self, view)
    if src._data.dtype != self._data.dtype and src._data.dtype.kind == "c" and self._data.dtype.kind != "c":
        src = src.real                  # (a copy_ into a real tensor keeps the real part)
    # (the view taken of a contiguous tensor like self: its strides and offset are where src's gradient lies in
    # a contiguous grad, read as a view of it)
    taken = view(Tensor._make(np.zeros(self._data.shape, np.int8)))
    geometry = (taken.stride(), taken.storage_offset())
    return OPS[key](self, src, positions=positions, self_sizes=self._data.shape, view_geometry=geometry)


def _unsafe(t, pieces, key, dim):
    """The pieces of split/chunk (views) as tensors of their own, one UnsafeSplit node over them when t needs
    a gradient (their values are the views' memory copied: PyTorch's unsafe_split shares it, but nothing may
    rely on that)."""
    d = _wrap_dim(dim, t._data.ndim)
    if not (grad_mode._state["enabled"] and t.requires_grad):
        return tuple(Tensor._make(p._data) for p in pieces)
    sizes = [p._data.shape[d] for p in pieces]
    sections = np.cumsum(sizes)[:-1].tolist()
    return OPS["unsafe_split" if key == "unsafe_split" else "unsafe_split_with_sizes"](t, dim=d, sections=sections)
