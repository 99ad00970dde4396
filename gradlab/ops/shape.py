"""Shape ops: views, reshapes, transposes, expand, cat/stack/split, and indexing.

Views (`view`, `transpose`, `select`, ...) share storage with their input, as in PyTorch: the
Tensor layer gives their results the input's version counter. Their gradients only move
numbers around, so every formula is another shape op.
"""
import inspect
import math
import numbers

import numpy as np

from .. import _dtype
from .._size import tp_name
from .._tensor_core import Tensor, _wrap_dim
from . import dual
from .arithmetic import _real_input
from .formula_text import shows
from .registry import CONTIGUOUS_RESULT, OPS, _byte_strides, contiguous_strides, joined_layout, op, torch_layout


@op("view", "ViewBackward0", variants=("method",), promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def view(self, shape, self_sizes):
    return self.reshape(shape)


@op("reshape_alias", "ReshapeAliasBackward0", promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def reshape_alias(self, shape, self_sizes):
    """reshape of a non-contiguous tensor that can still be viewed: PyTorch's _reshape_alias."""
    return self.reshape(shape)


@op("alias", "AliasBackward0", promote=False,
    self=lambda g, n: g)
def alias(self):
    """`y[...]`, `y[:, :]`: a new tensor viewing all of y."""
    return self.view()


@op("unsafe_view", "UnsafeViewBackward0", promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def unsafe_view(self, shape, self_sizes):
    return self.reshape(shape)


@op("transpose", "TransposeBackward0", variants=("function", "method", "inplace"), aliases=("swapaxes",),
    promote=False,
    self=lambda g, n: dual.transpose(g, n.dim0, n.dim1))
def transpose(self, dim0, dim1):
    return np.swapaxes(self, dim0, dim1) if self.ndim else self.view()    # (0-d: dims 0 and -1, nothing to swap)


@op("t", "TBackward0", variants=("function", "method", "inplace"), promote=False,
    self=lambda g, n: dual.t(g))
def t(self):
    return self.T


@op("permute", "PermuteBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.permute(argsort(tensor(dims)).tolist())"},     # (the inverse permutation)
    self=lambda g, n: dual.permute(g, np.argsort(n.dims).tolist()))
def permute(self, dims):
    return np.transpose(self, dims)


@op("squeeze", "SqueezeBackward0", variants=("function", "method", "inplace"), promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def squeeze(self, self_sizes):
    return np.squeeze(self)


@op("squeeze_dim", "SqueezeBackward1", promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def squeeze_dim(self, dim, self_sizes):
    if self.ndim == 0:                 # (squeeze(0) of a 0-d tensor: the tensor itself)
        return self
    return np.squeeze(self, axis=dim) if self.shape[dim] == 1 else self


@op("squeeze_dims", "SqueezeBackward2", promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def squeeze_dims(self, dim, self_sizes):
    """squeeze((0, 2)): the listed dims of size 1 go (the others stay)."""
    return np.squeeze(self, axis=tuple(d for d in dim if self.shape[d] == 1))


@op("squeeze_matmul", "SqueezeBackward4", promote=False,
    self=lambda g, n: g.reshape(n.self_sizes))
def squeeze_matmul(self, dim, self_sizes):
    return np.squeeze(self, axis=dim)


@op("unsqueeze", "UnsqueezeBackward0", variants=("function", "method", "inplace"), promote=False,
    self=lambda g, n: dual.squeeze(g, n.dim))
def unsqueeze(self, dim):
    out = np.expand_dims(self, dim)
    # PyTorch's stride of the new dim (inferUnsqueezeGeometry): the size times the stride of the dim it goes
    # before, 1 at the end (numpy picks its own for a size-1 dim: x.t()[None] of a column would differ)
    d = dim % out.ndim
    strides = list(self.strides)
    strides.insert(d, self.shape[d] * self.strides[d] if d < self.ndim else self.itemsize)
    if tuple(strides) != out.strides:
        out = np.lib.stride_tricks.as_strided(self, out.shape, strides)
    return out


@op("expand", "ExpandBackward0", variants=("method",), promote=False, shows={"self": "grad"},
    # sum_to_shape sums the expanded dims back; PyTorch's formula, at::sum_to(grad, self.sizes()), also sums a
    # 0-d gradient of a 0-d input (SumBackward0 in a gradient's graph)
    self=lambda g, n: g.sum() if isinstance(g, Tensor) and not g._data.ndim else g)
def expand(self, shape):
    out = np.broadcast_to(self, shape)
    lead = len(shape) - self.ndim
    if 1 in self.shape or 1 in shape[:lead]:
        # numpy gives every size-1 dim stride 0; PyTorch's expand (inferExpandGeometry) keeps the
        # stride of a dim that stays 1, and gives a new leading dim of size 1 the stride after it
        strides = [0] * len(shape)
        for i in range(len(shape) - 1, -1, -1):
            d = i - lead
            if d >= 0:
                stride = self.strides[d] if self.shape[d] == shape[i] else 0
            else:
                stride = shape[i + 1] * strides[i + 1] if shape[i] == 1 and i + 1 < len(shape) else 0
            strides[i] = stride
        if tuple(strides) != out.strides:
            out = np.lib.stride_tricks.as_strided(self, shape, strides, writeable=False)
    if self.flags.writeable and not any(st == 0 and n > 1 for st, n in zip(out.strides, out.shape)):
        # nothing repeated (`x.expand(2, -1)` of a 2-row x, or a new leading 1): a view like any other, which
        # PyTorch lets in-place ops write (numpy's broadcast views are read-only)
        out = np.lib.stride_tricks.as_strided(self, out.shape, out.strides)
    return out


@op("repeat", "RepeatBackward0", variants=("method",), promote=False,
    # each element of grad added back to the position of self it was copied from (the positions of self,
    # repeated as self was)
    shows={"self": "grad.new_zeros(self_sizes).flatten().index_add(0, tensor(range(zeros(self_sizes).numel()))"
                   ".reshape(self_sizes).repeat(repeats).flatten(), grad.flatten()).reshape(self_sizes)"},
    self=lambda g, n: _repeat_grad(g, n))
def repeat(self, repeats, self_sizes):
    lead = len(repeats) - self.ndim
    out = np.tile(self.reshape((1,) * lead + self.shape), repeats)
    return out if out.size else np.empty(out.shape, out.dtype)     # (numpy's empty tile may be a view of self)


def _repeat_grad(g, n):
    """PyTorch's repeat_backward: each new leading dim summed away (sum(0)), then one reshape that splits every
    repeated dim into (repeat, size) and one sum over the repeats (the steps a gradient's graph records)."""
    if 0 in n.repeats:
        return dual.like(g, np.zeros(n.self_sizes, dual.data(g).dtype))
    lead = len(n.repeats) - len(n.self_sizes)
    for _ in range(lead):
        g = dual.sum_dims(g, (0,))
    grad_size, sum_dims = [], []
    for d, size in enumerate(n.self_sizes):
        if n.repeats[d + lead] != 1:
            grad_size.append(n.repeats[d + lead])
            sum_dims.append(len(grad_size) - 1)
        grad_size.append(size)
    if sum_dims:
        g = dual.sum_dims(g.reshape(tuple(grad_size)), tuple(sum_dims))
    return g


@op("flip", "FlipBackward0", variants=("function", "method"), promote=False,
    self=lambda g, n: dual.flip(g, n.dims))
def flip(self, dims):
    return np.flip(self, dims).copy()


@op("roll", "RollBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.roll(tuple(-s for s in shifts), dims)"},
    self=lambda g, n: dual.roll(g, tuple(-s for s in n.shifts), n.dims))
def roll(self, shifts, dims):
    return np.roll(self, shifts, dims)


@op("rot90", "Rot90Backward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.rot90(-k, dims)"},
    self=lambda g, n: dual.call("rot90", g, k=-n.k, dims=n.dims))
def rot90(self, k, dims):
    """PyTorch's rot90 (TensorTransformations.cpp): a flip, then (k odd) the two dims swapped as a view of it,
    so a quarter turn's result has the flip's layout transposed; k = 0 is a contiguous copy."""
    k %= 4
    d0, d1 = dims
    if not self.size and k:         # (numpy gives an empty array zero strides: PyTorch's are the flip's, swapped)
        strides = list(_byte_strides(self))     # (flip's empty_like keeps an empty self's strides)
        shape = list(self.shape)
        if k % 2:
            strides[d0], strides[d1] = strides[d1], strides[d0]
            shape[d0], shape[d1] = shape[d1], shape[d0]
        return np.lib.stride_tricks.as_strided(np.empty(1, self.dtype), shape, strides)
    if k == 0:
        return np.array(self, order="C", copy=True)
    flipped = torch_layout(None, np.flip(self, dims if k == 2 else (d1 if k == 1 else d0)).copy(), (self,))
    return flipped if k == 2 else np.swapaxes(flipped, d0, d1)


# --- indexing -----------------------------------------------------------------------------------

def _zeros_for(g, n):
    """Zeros of the input's shape in g's dtype, untracked (the `self` of a scatter into zeros)."""
    return dual.like(g, np.zeros(n.self_sizes, g.dtype if isinstance(g, np.ndarray) else g._data.dtype))


def _scatter_into_zeros(g, n, key):
    """The gradient of reading `x[key]`: g placed at `key` in zeros of x's shape (repeats add up)."""
    return dual.call("index_put_add", _zeros_for(g, n), g, key=key)


# (variants: torch.as_strided, Tensor.as_strided, as_strided_ are written by hand, _tensor_methods/views.py, over the
# as_strided_view row below; this row is how a view reads its base after an in-place change)
@op("as_strided", "AsStridedBackward0", variants=("function", "method", "inplace"), promote=False, saved_params=(),
    shows={"self": "grad.new_zeros(self_sizes).flatten().index_add(0, positions.flatten(), grad.flatten())"
                   ".reshape(self_sizes)"},
    self=lambda g, n: dual.call("as_strided_scatter", g, positions=n.positions, self_sizes=n.self_sizes))
def as_strided(self, positions, self_sizes):
    """The elements of self at `positions` (indices into self in C order, shaped like the result):
    how a view reads its base once the base's history changed (ops/inplace.py, _refresh_views)."""
    return self.reshape(-1)[positions]


@op("as_strided_scatter", "AsStridedScatterBackward0", variants=("function", "method"), promote=False, saved_params=(),
    shows={"self": "grad.take(positions)"},
    self=lambda g, n: dual.call("as_strided", g, positions=n.positions, self_sizes=n.self_sizes))
def as_strided_scatter(self, positions, self_sizes):
    """as_strided's gradient: self's values added into zeros of shape self_sizes at `positions`."""
    out = np.zeros(math.prod(self_sizes), self.dtype)
    flat = positions.reshape(-1)
    if np.unique(flat).size == flat.size:   # no element read twice: copied, as PyTorch's (a -0. stays -0.)
        out[flat] = self.reshape(-1)
    else:
        np.add.at(out, flat, self.reshape(-1))
    return out.reshape(self_sizes)


@op("select", "SelectBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.new_zeros(self_sizes).index_copy(dim, tensor([index % self_sizes[dim]]), "
                   "grad.unsqueeze(dim))"},
    self=lambda g, n: dual.call("select_backward", g, dim=n.dim, index=n.index, input_sizes=n.self_sizes))
def select(self, dim, index, self_sizes):
    return self[(slice(None),) * dim + (index, Ellipsis)]     # (the Ellipsis keeps a 0-d result a view)


@op("view_as_real", "ViewAsRealBackward0", variants=("function",), promote=False, cast_result=False,
    shows={"self": "view_as_complex(grad.contiguous())"},
    # (PyTorch's formula makes grad contiguous first: the gradient is laid out in C order, whatever grad's layout)
    self=lambda g, n: dual.call("view_as_complex", g.contiguous() if isinstance(g, dual.Tensor)
                                else np.ascontiguousarray(g)))
def view_as_real(self):
    """A complex tensor's memory read as floats, a last dim of 2 (real, imaginary): a view, strides in
    floats (the complex strides doubled). `x.real` and `x.imag` select from it, as in PyTorch."""
    part = self["real"] if self.dtype.kind == "V" else self.real    # (numpy: a view of the real parts, strides in bytes)
    strides = part.strides
    if self.size == 0 and not any(strides):    # numpy's empty arrays have zero strides; PyTorch's are laid out
        steps, step = [], 2 * part.itemsize    # contiguously, a size 0 counting as 1
        for n in reversed(self.shape):
            steps.append(step)
            step *= max(n, 1)
        strides = tuple(reversed(steps))
    return np.lib.stride_tricks.as_strided(part, self.shape + (2,), strides + (part.itemsize,),
                                           writeable=self.flags.writeable)


@op("view_as_complex", "ViewAsComplexBackward0", variants=("function",), promote=False, cast_result=False,
    shows={"self": "view_as_real(grad)"},
    self=lambda g, n: dual.call("view_as_real", g))
def view_as_complex(self):
    """Pairs of floats (a last dim of 2) as complex numbers: a view where the pairs are adjacent in memory
    (torch.view_as_complex checks that they are), else a copy (a gradient of view_as_real)."""
    dtype = _dtype.C32 if self.dtype == np.float16 else np.result_type(self.dtype, np.complex64)  # (half: complex32)
    if self.strides[-1] == self.itemsize and all(s % (2 * self.itemsize) == 0 for s in self.strides[:-1]):
        return self.view(dtype)[..., 0]
    out = np.empty(self.shape[:-1], dtype)
    if dtype is _dtype.C32:
        out["real"], out["imag"] = self[..., 0], self[..., 1]
    else:
        out.real, out.imag = self[..., 0], self[..., 1]      # (not a + 1j * b, which turns a -0. real part into 0.)
    return out


# The gradients of select and slice are ops of their own, as PyTorch's select_backward and
# slice_backward (a graph of the gradient records SelectBackwardBackward0): g written into zeros,
# not added (0 + -0. would lose the sign of a -0. gradient)
@op("select_backward", "SelectBackwardBackward0", ("grad_output",), promote=False,
    shows={"grad_output": "grad.select(dim, index)"},
    grad_output=lambda g, n: dual.call("select", g, dim=n.dim, index=n.index, self_sizes=n.input_sizes))
def select_backward(grad_output, dim, index, input_sizes):
    out = np.zeros(input_sizes, grad_output.dtype)
    out[(slice(None),) * dim + (index,)] = grad_output
    return out


@op("slice", "SliceBackward0", promote=False,
    shows={"self": "grad.new_zeros(self_sizes).index_copy(dim, tensor(range(start, stop, step)), grad)"},
    self=lambda g, n: dual.call("slice_backward", g, dim=n.dim, start=n.start, stop=n.stop, step=n.step,
                                input_sizes=n.self_sizes))
def slice_(self, dim, start, stop, step, self_sizes):
    out = self[(slice(None),) * dim + (slice(start, stop, step),)]
    if not out.size:      # (numpy starts an empty slice at self's start; PyTorch at the slice's)
        begin = slice(start, stop, step).indices(self.shape[dim])[0]
        strides = list(self.strides)
        strides[dim] *= step
        out = moved(out, self.__array_interface__["data"][0] + begin * self.strides[dim], tuple(strides), self)
    return out


def moved(empty, address, strides, base):
    """An empty array starting at another address with these strides (it reads nothing), keeping base alive."""
    interface = dict(empty.__array_interface__, data=(address, not empty.flags.writeable), strides=strides)
    return np.asarray(_Interface(interface, base))


@op("slice_backward", "SliceBackwardBackward0", ("grad_output",), promote=False,
    shows={"grad_output": "grad.index_select(dim, tensor(range(start, stop, step)))"},
    grad_output=lambda g, n: dual.call("slice", g, dim=n.dim, start=n.start, stop=n.stop, step=n.step,
                                       self_sizes=n.input_sizes))
def slice_backward(grad_output, dim, start, stop, step, input_sizes):
    out = np.zeros(input_sizes, grad_output.dtype)
    out[(slice(None),) * dim + (slice(start, stop, step),)] = grad_output
    return out


@op("index", "IndexBackward0", promote=False,
    # (PyTorch's grad.new_zeros(self_sizes).index_put_(key, grad, accumulate=True), which gradlab has not: grad
    # added at the positions of self that `key` reads)
    shows={"self": "grad.new_zeros(self_sizes).flatten().index_add(0, tensor(range(zeros(self_sizes).numel()))"
                   ".reshape(self_sizes)[key].flatten(), grad.flatten()).reshape(self_sizes)"},
    self=lambda g, n: _scatter_into_zeros(g, n, n.key))
def index(self, key, self_sizes):
    return _index_layout(self, key, self[key])


def _c_order(out):
    """out C-contiguous with C order's strides for its size-1 dims too (numpy's fancy indexing may give such a
    dim another stride and still call the array C-contiguous; PyTorch's contiguous result has these)."""
    out = np.ascontiguousarray(out)
    if out.size and out.ndim > 1 and 1 in out.shape:
        strides, step = [], out.itemsize
        for n in reversed(out.shape):
            strides.append(step)
            step *= n
        strides = tuple(reversed(strides))
        if strides != out.strides:
            out = np.lib.stride_tricks.as_strided(out, out.shape, strides)
    return out


def _index_layout(src, key, out):
    """`out` (= src[key], key made of full slices and index arrays) laid out in memory as PyTorch's
    index kernel lays it out, so that is_contiguous() and stride() agree: its TensorIterator orders
    the result's dims by the strides of its inputs (src, then the index arrays), fastest first."""
    if out.ndim < 2:
        return out
    arrays = [i for i, k in enumerate(key) if isinstance(k, np.ndarray)]
    if len(arrays) == 1 and key[arrays[0]].ndim == 1 and key[arrays[0]].dtype != np.bool_ and list(src.strides) == [
            st * src.itemsize for st in contiguous_strides(src.shape)]:
        return _c_order(out)                 # (the common case: x[idx] of a contiguous x is contiguous)
    index = [a for k in key if isinstance(k, np.ndarray) for a in (np.nonzero(k) if k.dtype == np.bool_ else (k,))]
    bshape = np.broadcast_shapes(*(a.shape for a in index))
    broadcast = [np.broadcast_to(a, bshape) for a in index]
    rest, dim = [], 0                 # (src dim, is it before the indexed ones) of the other result dims
    for i, k in enumerate(key):
        n = k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else 1
        if not isinstance(k, np.ndarray):
            rest.append((dim, i < arrays[0]))
        dim += n
    rest += [(d, False) for d in range(dim, src.ndim)]
    adjacent = arrays[-1] - arrays[0] + 1 == len(arrays)     # (then the indexed dims stay in place, else go first)
    before = sum(1 for _, b in rest if b) if adjacent else 0
    shape = out.shape
    # the strides of each operand along each result dim (0: broadcast): src restrided (0 along the indexed dims), then
    # each index viewed as [1] * before + its shape + [1] * after (reshape_indexer), broadcast to the result
    src_strides = [src.strides[d] for d, _ in rest]
    src_strides = src_strides[:before] + [0] * len(bshape) + src_strides[before:]
    columns = [src_strides]
    view_shape = (1,) * before + tuple(bshape) + (1,) * (len(rest) - before)
    for a in broadcast:
        viewed = _view_strides(a.shape, [st // a.itemsize for st in a.strides], view_shape)
        columns.append([0 if n == 1 and shape[j] != 1 else st for j, (n, st) in enumerate(zip(view_shape, viewed))])
    strides = [tuple(c[j] for c in columns) for j in range(len(shape))]

    def should_swap(d0, d1):
        for op in range(len(strides[0])):
            s0, s1 = strides[d0][op], strides[d1][op]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:
                return 1
        return 0
    perm = list(range(out.ndim - 1, -1, -1))           # fastest dim first, as PyTorch sorts them
    for i in range(1, out.ndim):
        d1 = i
        for d0 in range(i - 1, -1, -1):
            c = should_swap(perm[d0], perm[d1])
            if c > 0:
                perm[d0], perm[d1] = perm[d1], perm[d0]
                d1 = d0
            elif c < 0:
                break
    slow_to_fast = perm[::-1]
    if slow_to_fast == sorted(slow_to_fast):
        return _c_order(out)
    if not out.size:
        # (TensorIterator's compatible_stride: each dim's stride the product of the faster dims' sizes, a 0 among
        # them included, which numpy's empty arrays do not keep: an empty array with those strides)
        strides, step = [0] * out.ndim, out.itemsize
        for d in perm:
            strides[d] = step
            step *= shape[d]
        return np.lib.stride_tricks.as_strided(np.empty(0, out.dtype), shape, strides, writeable=True)
    laid = np.empty([shape[d] for d in slow_to_fast], out.dtype).transpose(np.argsort(slow_to_fast))
    laid[...] = out
    return laid


def _view_strides(oldshape, oldstride, newshape):
    """The strides of a view of this shape (PyTorch's computeStride), or contiguous ones where it must copy."""
    if 0 in oldshape or not oldshape:
        return contiguous_strides(newshape)
    newstride = [0] * len(newshape)
    view_d, chunk_base, tensor_numel, view_numel = len(newshape) - 1, oldstride[-1], 1, 1
    for tensor_d in range(len(oldshape) - 1, -1, -1):
        tensor_numel *= oldshape[tensor_d]
        if tensor_d == 0 or (oldshape[tensor_d - 1] != 1 and oldstride[tensor_d - 1] != tensor_numel * chunk_base):
            while view_d >= 0 and (view_numel < tensor_numel or newshape[view_d] == 1):
                newstride[view_d] = view_numel * chunk_base
                view_numel *= newshape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return contiguous_strides(newshape)        # (a copy)
            if tensor_d > 0:
                chunk_base, tensor_numel, view_numel = oldstride[tensor_d - 1], 1, 1
    if view_d != -1:
        return contiguous_strides(newshape)
    return newstride


@op("index_put_add", "IndexPutImplBackward0", ("self", "values"), promote=False,
    shows={"values": "grad[key]"},
    self=lambda g, n: g,
    values=lambda g, n: g[n.key])
def index_put_add(self, values, key):
    """A copy of self with `values` added at `key` (repeated indices add up): x[idx]'s gradient, as
    PyTorch's index_backward (zeros._index_put_impl_(indices, grad, accumulate=True))."""
    out = np.array(self, copy=True)
    np.add.at(out, key, values)
    return out


# g with zeros at the positions of self that `key` names (PyTorch's grad.index_put(key, 0))
_ZEROS_AT_KEY = ("grad.flatten().index_fill(0, tensor(range(grad.numel())).reshape(grad.shape)[key].flatten(), 0)"
                 ".reshape(grad.shape)")


@shows(_ZEROS_AT_KEY)
def _copy_slices_self_grad(g, n):
    return dual.call("index_fill_zero", g, key=n.key)


@op("copy_slices", "CopySlices", ("self", "value"), promote=False, saved_params=("key",),
    shows={"value": "grad[key]"},
    self=_copy_slices_self_grad,
    value=lambda g, n: _real_input(g[n.key], n, 1))
def copy_slices(self, value, key):
    """`self[key] = value` recorded in the graph (PyTorch's CopySlices)."""
    out = np.array(self, copy=True)
    out[key] = value
    return out


@op("index_put_values", "IndexPutBackward0", ("self", "values"), promote=False,
    shows={"values": "grad[key]"},
    self=_copy_slices_self_grad,
    values=lambda g, n: _real_input(g[n.key], n, 1))
def index_put(self, values, key):
    """`self[index tensors] = values` recorded in the graph (PyTorch's index_put_)."""
    out = np.array(self, copy=True)
    out[key] = values
    return out


@op("index_fill_zero", "IndexPutBackward0", promote=False, shows={"self": _ZEROS_AT_KEY},
    self=lambda g, n: _copy_slices_self_grad(g, n))
def index_fill_zero(self, key):
    out = np.array(self, copy=True)
    out[key] = 0
    return out


@op("gather", "GatherBackward0", variants=("function", "method"), promote=False, saves=("self",),
    shows={"self": "grad.new_zeros(self_sizes).scatter_add(dim, index, grad)"},
    self=lambda g, n: _gather_grad(g, n))
def gather(self, dim, index, self_sizes):
    if index.size == 0:                       # (an empty index: an empty result of its shape, whatever its dims)
        return np.zeros(index.shape, self.dtype)
    if self.ndim == 0 or index.ndim == 0:     # (0-d tensors count as 1-d; the result is shaped like the index)
        return self.reshape(-1)[index]
    # out[i][j] = self[i][index[i][j]] (dim 1): shaped like the index, which may be smaller than self in
    # the other dims (np.take_along_axis would broadcast it to self's shape instead)
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return self[tuple(key)]


def _gather_grad(g, n):
    if n.index.size == 0:
        return _zeros_for(g, n)
    if not n.self_sizes:               # 0-d input: every gathered element was that one value
        return dual.sum_dims(g, tuple(range(n.index.ndim))).reshape(())
    # PyTorch's gather_backward: zeros.scatter_add(dim, index, grad)
    return dual.call("scatter_add", _zeros_for(g, n), g, dim=n.dim, index=n.index)


@op("scatter_add", "ScatterAddBackward0", ("self", "src"), variants=("function", "method", "inplace"), promote=False,
    shows={"src": "grad.gather(dim, index)"},
    self=lambda g, n: g,
    src=lambda g, n: dual.call("gather", g, dim=n.dim, index=n.index, self_sizes=dual.data(g).shape))
def scatter_add(self, src, dim, index):
    """A copy of self with src[i][j] added at self[i][index[i][j]] (dim 1): gather's gradient."""
    out = np.array(self, copy=True)
    if index.ndim == 0:                # (0-d index into a 1-d tensor)
        np.add.at(out, (index,), src)
        return out
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    np.add.at(out, tuple(key), src)
    return out


@op("index_select", "IndexSelectBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.new_zeros(self_sizes).index_add(dim, index, grad)"},
    self=lambda g, n: dual.call("index_add", _zeros_for(g, n), g, dim=n.dim, index=n.index) if n.self_sizes else g)
def index_select(self, dim, index, self_sizes):
    if self.ndim == 0:                 # (0-d input: its one value, 0-d as in PyTorch, whatever the index's shape)
        return self.copy()
    return np.take(self, index, axis=dim)


@op("index_add", "IndexAddBackward0", ("self", "source"), variants=("function", "method", "inplace"), promote=False,
    shows={"source": "grad.index_select(dim, index)"},
    self=lambda g, n: g,
    source=lambda g, n: dual.call("index_select", g, dim=n.dim, index=n.index, self_sizes=dual.data(g).shape))
def index_add(self, source, dim, index):
    """A copy of self with source's slices added at `index` along dim: index_select's gradient
    (PyTorch's index_select_backward: zeros.index_add(dim, index, grad))."""
    out = np.array(self, copy=True)
    np.add.at(out, (slice(None),) * dim + (index,), source)
    return out


# --- joining and splitting ----------------------------------------------------------------------

def _cat_formula(i):
    def formula(g, n):
        start = n.offsets[i]
        return g[(slice(None),) * n.dim + (slice(start, start + n.sizes[i]),)]
    formula.shows = f"grad.narrow(dim, offsets[{i}], sizes[{i}])"
    return formula


def _stack_formula(i):
    def formula(g, n):
        return g[(slice(None),) * n.dim + (i,)]
    formula.shows = f"grad.select(dim, {i})"
    return formula


_MAX_CAT = 64   # slots are declared up front; cat of more tensors uses a chain of cats


def _declare_cat():
    names = tuple(f"tensors{i}" for i in range(_MAX_CAT))

    @op("cat", "CatBackward0", names, variants=("function",),
        promote=True, **{nm: _cat_formula(i) for i, nm in enumerate(names)})
    def cat(*arrays, dim, offsets, sizes):
        return joined_layout(np.concatenate(arrays, axis=dim), arrays)

    @op("stack", "StackBackward0", names, variants=("function",), promote=True,
        **{nm: _stack_formula(i) for i, nm in enumerate(names)})
    def stack(*arrays, dim):
        """PyTorch's stack is a cat: along `dim` viewed with the new dim split off, or, for a new last dim,
        of the inputs unsqueezed there (so the inputs' memory format decides the result's)."""
        if dim < arrays[0].ndim:
            joined = joined_layout(np.concatenate(arrays, axis=dim), arrays)
            return joined.reshape(arrays[0].shape[:dim] + (len(arrays),) + arrays[0].shape[dim:])
        parts = [np.lib.stride_tricks.as_strided(a, a.shape + (1,), a.strides + (a.itemsize,)) for a in arrays]
        return joined_layout(np.concatenate(parts, axis=dim), parts)


_declare_cat()


def _block_diag_formula(i):
    def formula(g, n):
        # (PyTorch's block_diag_backward reads the blocks at offsets that skip 1-d empty inputs, grad_rows and
        # grad_cols, so the inputs after one get the gradient of the block above theirs; and it gives a real
        # input the real part of a complex gradient)
        r, c = n.grad_rows[i], n.grad_cols[i]
        h, w = n.heights[i], n.widths[i]
        part = g[r:r + h, c:c + w]
        if n.complex_grad[i]:       # (the real part: a view for a 2-d input, a contiguous copy for 0-d and 1-d)
            part = part.real
            if len(n.sizes[i]) < 2:
                part = part.contiguous() if isinstance(part, Tensor) else np.ascontiguousarray(part)
        return part.reshape(n.sizes[i])
    formula.shows = (f"grad[grad_rows[{i}]:grad_rows[{i}] + heights[{i}], grad_cols[{i}]:grad_cols[{i}] + "
                     f"widths[{i}]].reshape(sizes[{i}])")
    return formula


def _declare_block_diag():
    names = tuple(f"tensors{i}" for i in range(_MAX_CAT))

    @op("block_diag", "BlockDiagBackward0", names, variants=("function",), promote=True,
        **{nm: _block_diag_formula(i) for i, nm in enumerate(names)})
    def block_diag(*arrays, rows, cols, heights, widths, sizes, grad_rows, grad_cols, complex_grad):
        """The inputs (each seen as 2-d: a 1-d one as a row, a 0-d one as 1 x 1) along the diagonal of zeros."""
        out = np.zeros((sum(heights), sum(widths)), arrays[0].dtype if arrays else np.float32)
        for a, r, c, h, w in zip(arrays, rows, cols, heights, widths):
            out[r:r + h, c:c + w] = a.reshape(h, w)
        return out


_declare_block_diag()


@op("split", "SplitBackward0", variants=("function", "method"), promote=False, num_outputs=-1,
    shows={"self": "cat(grads, dim)"},
    self=lambda g, n: _join_grads(g, n))
def split(self, dim, sections):
    return tuple(np.split(self, sections, axis=dim))


@op("split_with_sizes", "SplitWithSizesBackward0", variants=("function", "method"), promote=False, num_outputs=-1,
    shows={"self": "cat(grads, dim)"},
    self=lambda g, n: _join_grads(g, n))
def split_with_sizes(self, dim, sections):
    """x.split([1, 3]): split's forward and gradient under PyTorch's other node (SplitWithSizesBackward0)."""
    return tuple(np.split(self, sections, axis=dim))


@op("unbind", "UnbindBackward0", variants=("function", "method"), promote=False, num_outputs=-1,
    shows={"self": "stack(grads, dim)"},
    self=lambda g, n: _stack_grads(g, n))
def unbind(self, dim):
    # (m[i, ...], a view: iterating a 1-d array would give numpy scalars, copies that in-place changes miss)
    m = np.moveaxis(self, dim, 0)
    return tuple(m[i, ...] for i in range(m.shape[0]))


def _join_grads(grads, n):
    if isinstance(grads[0], np.ndarray):
        return np.concatenate(grads, axis=n.dim)
    return cat(grads, n.dim)


def _stack_grads(grads, n):
    if isinstance(grads[0], np.ndarray):
        return np.stack(grads, axis=n.dim)
    return stack(grads, n.dim)


# ---------------------------------------------------------------------------------------------------
# gradlab.cat and gradlab.stack: PyTorch's argument checks, then the ops above

def _tensor_list(name, tensors, dim):
    """cat's and stack's arguments checked as PyTorch checks them (TypeErrors, not numpy's)."""
    if not isinstance(tensors, (list, tuple)):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not "
                        f"{tp_name(type(tensors))}")
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {tp_name(type(t))}")
    if not isinstance(dim, numbers.Integral) or isinstance(dim, bool):
        raise TypeError(f"{name}(): argument 'dim' (position 2) must be int, not {tp_name(type(dim))}")
    return list(tensors)


def cat(tensors, dim=0):
    tensors = _tensor_list("cat", tensors, dim)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    # PyTorch's legacy rule: 1-d empty tensors are skipped, the dim is wrapped for the first other
    # tensor, and any dim goes when all are skipped
    parts = [t for t in tensors if not (t._data.ndim == 1 and t._data.shape[0] == 0)]
    ref = parts[0] if parts else tensors[0]
    d = _wrap_dim(dim, ref._data.ndim) if parts else 0
    parts = parts or tensors
    if len(parts) < len(tensors):     # the skipped empty tensors still take part in type promotion
        dt = _dtype.result_np_dtype([(1, t._data.dtype) for t in tensors], [])
        parts = [t if t._data.dtype == dt else t.to(_dtype.from_numpy_dtype(dt)) for t in parts]
    for i, t in enumerate(tensors):
        if t._data.ndim != ref._data.ndim and not (t._data.ndim == 1 and t._data.shape[0] == 0):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {ref._data.ndim} and {t._data.ndim}")
        for ax in range(ref._data.ndim):
            if ax != d and t._data.ndim == ref._data.ndim and t._data.shape[ax] != ref._data.shape[ax]:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {d}. Expected size "
                                   f"{ref._data.shape[ax]} but got size {t._data.shape[ax]} for tensor number {i} in the list.")
    if len(parts) > _MAX_CAT:     # more inputs than the op declares slots for: concatenate in groups
        return cat([cat(parts[i:i + _MAX_CAT], d) for i in range(0, len(parts), _MAX_CAT)], d)
    sizes = [t._data.shape[d] for t in parts]
    offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]]).astype(int).tolist()
    return OPS["cat"](*parts, dim=d, offsets=offsets, sizes=sizes)


concat = concatenate = cat


def stack(tensors, dim=0):
    tensors = _tensor_list("stack", tensors, dim)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    _wrap_dim(dim, tensors[0]._data.ndim + 1)
    for i, t in enumerate(tensors):
        if t._data.shape != tensors[0]._data.shape:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got [{', '.join(map(str, tensors[0]._data.shape))}] "
                               f"at entry 0 and [{', '.join(map(str, t._data.shape))}] at entry {i}")
    d = _wrap_dim(dim, tensors[0]._data.ndim + 1)
    if len(tensors) > _MAX_CAT:
        return cat([t.unsqueeze(d) for t in tensors], d)
    return OPS["stack"](*tensors, dim=d)


# --- as_strided and unfold: views given by sizes and strides ------------------------------------------

_byte_bounds = getattr(np, "byte_bounds", None) or np.lib.array_utils.byte_bounds     # numpy 1.x / 2.x


def _owner(a):
    """The array that owns a's memory: gradlab's stand-in for PyTorch's storage."""
    owner = a
    while True:
        base = owner.base
        if isinstance(base, np.ndarray):
            owner = base
        elif isinstance(getattr(base, "base", None), np.ndarray):       # (numpy's as_strided wraps its input)
            owner = base.base
        else:
            return owner


def storage_of(a):
    """(the storage as a flat array of a's dtype, a's offset in it in elements): the memory of the array
    owning a's, read element by element from its lowest address."""
    owner = _owner(a)
    low, high = _byte_bounds(owner)
    start = a.__array_interface__["data"][0]
    flat = np.lib.stride_tricks.as_strided(owner, ((high - low) // owner.itemsize,), (owner.itemsize,),
                                           writeable=owner.flags.writeable)
    if flat.dtype != a.dtype:       # (view_as_real reads a complex storage as floats)
        flat = flat.view(a.dtype)
    item = a.itemsize
    return flat, (start - low) // item


def positions(sizes, strides, offset):
    """Where each element of a tensor of these sizes and (element) strides sits in its storage."""
    pos = np.full(tuple(sizes), offset, np.int64)
    for d, (n, s) in enumerate(zip(sizes, strides)):
        step = [1] * len(sizes)
        step[d] = n
        pos = pos + (np.arange(n, dtype=np.int64) * s).reshape(step)
    return pos


def strided_view(storage, size, stride, offset):
    """The view of a flat storage array with these sizes, element strides and offset (PyTorch's set_). An empty
    view may start past the storage's end, as PyTorch's may: it is made from its address (it reads nothing)."""
    strides = tuple(s * storage.itemsize for s in stride)
    if offset < storage.size:
        return np.lib.stride_tricks.as_strided(storage[offset:], tuple(size), strides,
                                               writeable=storage.flags.writeable)
    interface = dict(storage.__array_interface__, shape=tuple(size), strides=strides,
                     data=(storage.__array_interface__["data"][0] + offset * storage.itemsize, False))
    return np.asarray(_Interface(interface, storage))


class _Interface:
    """An object numpy reads an array from (its __array_interface__), keeping the storage alive."""
    def __init__(self, interface, base):
        self.__array_interface__ = interface
        self.base = base


# (the text of as_strided's gradient: grad added into a storage of zeros where the view reads it, then read back
# where self lies, an element self holds k times getting 1/k of it)
_AS_STRIDED_GRAD = ("grad.new_zeros(storage_size).index_add(0, view_positions.flatten(), grad.flatten())"
                    "[self_positions] / counts")
_AS_STRIDED_GRAD_T = ("grad.new_zeros(storage_size).index_add(0, self_positions.flatten(), (grad / counts).flatten())"
                      "[view_positions]")


@op("as_strided_view", "AsStridedBackward0", promote=False, saved_params=(),
    shows={"self": _AS_STRIDED_GRAD},
    self=lambda g, n: dual.call("as_strided_backward", g, self_positions=n.self_positions,
                                view_positions=n.view_positions, storage_size=n.storage_size, counts=n.counts,
                                self_geometry=n.self_geometry))
def as_strided_view(self, size, stride, storage_offset, self_positions, view_positions, storage_size, counts,
                    self_geometry):
    """x.as_strided(size, stride, storage_offset): the elements of x's storage at storage_offset + i * stride[0] +
    j * stride[1] + ..., a view (offsets count from the storage's start, not from x's first element). The
    gradient's parameters: where self's elements and the view's lie in the storage, its size, and how many
    times self holds each of its elements' storage places (counts, 1 unless self overlaps itself)."""
    storage, _ = storage_of(self)
    return strided_view(storage, size, stride, storage_offset)


# (its graph is spent after a backward, as PyTorch's of as_strided_backward, which saves tensors)
@op("as_strided_backward", "AsStridedBackward0", ("grad_output",), promote=False,
    shows={"grad_output": f"({_AS_STRIDED_GRAD_T}) if not transposed else ({_AS_STRIDED_GRAD})"},
    grad_output=lambda g, n: dual.call("as_strided_backward", g, self_positions=n.self_positions,
                                       view_positions=n.view_positions, storage_size=n.storage_size,
                                       counts=n.counts, self_geometry=n.self_geometry, transposed=not n.transposed))
def as_strided_backward(grad_output, self_positions, view_positions, storage_size, counts, self_geometry,
                        transposed=False):
    """as_strided's gradient, PyTorch's as_strided_backward: grad added into a storage of zeros at the places
    the view read, then read back at self's places (divided by counts). `transposed`: the same linear map
    backwards, self-shaped to view-shaped (its own gradient)."""
    storage = np.zeros(storage_size, grad_output.dtype)
    if transposed:
        np.add.at(storage, self_positions.reshape(-1), (grad_output / counts).reshape(-1))
        return storage[view_positions]
    np.add.at(storage, view_positions.reshape(-1), grad_output.reshape(-1))
    strides, offset = self_geometry       # (the gradient is a view of that storage laid out as self is, as PyTorch's)
    if counts.size and counts.max() > 1:
        storage = storage / np.maximum(np.bincount(self_positions.reshape(-1), minlength=storage_size), 1)
    return strided_view(storage, self_positions.shape, strides, offset) if self_positions.size else \
        storage[self_positions]


def unfold_view(self, dimension, size, step):
    """Tensor.unfold's view: the windows of `size` elements, `step` apart, along `dimension`, as a new last dim."""
    if self.ndim == 0:
        return np.lib.stride_tricks.as_strided(self, (size,), (self.itemsize,), writeable=self.flags.writeable)
    shape = list(self.shape)
    strides = list(self.strides)
    shape[dimension] = (shape[dimension] - size) // step + 1
    strides[dimension] = strides[dimension] * step
    return np.lib.stride_tricks.as_strided(self, tuple(shape) + (size,), tuple(strides) + (self.strides[dimension],),
                                           writeable=self.flags.writeable)


@op("unfold", "UnfoldBackward0", variants=("method",), promote=False,
    # (each window's gradient added back where the window read self)
    shows={"self": "grad.new_zeros(self_sizes).flatten().index_add(0, arange(zeros(self_sizes).numel())"
                   ".reshape(self_sizes).unfold(dimension, size, step).flatten(), grad.flatten()).reshape(self_sizes)"},
    self=lambda g, n: dual.call("unfold_backward", g, input_sizes=n.self_sizes, dimension=n.dimension,
                                size=n.size, step=n.step))
def unfold(self, dimension, size, step, self_sizes):
    return unfold_view(self, dimension, size, step)


@op("unfold_backward", "UnfoldBackwardBackward0", ("grad_in",), promote=False,
    shows={"grad_in": "grad.unfold(dimension, size, step)"},
    grad_in=lambda g, n: dual.call("unfold", g, dimension=n.dimension, size=n.size, step=n.step,
                                   self_sizes=n.input_sizes))
def unfold_backward(grad_in, input_sizes, dimension, size, step):
    """unfold's gradient: each window's gradient added back where the window was read (overlaps add up)."""
    out = np.zeros(input_sizes, grad_in.dtype)
    windows = unfold_view(out, dimension, size, step)
    if out.ndim == 0:
        out[...] = grad_in.sum()
        return out
    for i in range(windows.shape[dimension]):
        key = (slice(None),) * dimension + (i,)
        window = (slice(None),) * dimension + (slice(i * step, i * step + size),)
        out[window] += np.moveaxis(grad_in[key], -1, dimension)
    return out


# --- the *_copy ops: each view's values as a new contiguous tensor -------------------------------------
# PyTorch's view_copy, permute_copy, ... (its "functionalization" copies of the views): the view's
# forward, copied, and the view's gradient under the node name "<view's name>_copy".

def _contiguous_copy(out):
    if isinstance(out, tuple):
        return tuple(np.array(o, order="C", copy=True) for o in out)
    return np.array(out, order="C", copy=True)


def declare_like(view_key, key, name, copy=True, variants=()):
    """A row with `view_key`'s forward (its values copied to a new contiguous array when `copy`) and gradient
    formulas under another key and node name: view_copy (ViewBackward0_copy), narrow_copy
    (NarrowCopyBackward0), as_strided_ (AsStridedBackward1)."""
    view = OPS[view_key]

    def forward(*args, **params):
        out = view.forward(*args, **params)
        return _contiguous_copy(out) if copy else out
    forward.__signature__ = inspect.signature(view.forward)
    forward.__doc__ = f"{key}: {view_key}'s forward" + (", its values as a new contiguous array." if copy else ".")
    shows_text = view.shows or {slot: getattr(f, "shows", None) for slot, f in zip(view.inputs, view.formulas)}
    op(key, name, view.inputs, saves=view.saves_by_slot or view.saves, num_outputs=view.num_outputs,
       promote=False, variants=variants, cast_result=view.cast_result, saved_params=view.saved_params,
       shows={k: v for k, v in shows_text.items() if v} or None,
       **{slot: f for slot, f in zip(view.inputs, view.formulas) if f is not None})(forward)
    if copy:
        CONTIGUOUS_RESULT.add(key)       # (a copy is contiguous whatever the input's layout)


for _view_key in ("view", "alias", "transpose", "t", "permute", "squeeze", "squeeze_dim", "squeeze_dims", "unsqueeze",
                  "expand", "select", "slice", "split", "split_with_sizes", "unbind", "unfold", "view_as_real"):
    # (torch.squeeze_copy's three overloads are three rows here, as squeeze's are: its function is written by hand)
    declare_like(_view_key, _view_key + "_copy", OPS[_view_key].name + "_copy",
                 variants=() if _view_key.startswith("squeeze_") else ("function",))
del _view_key
declare_like("as_strided_view", "as_strided_copy", "AsStridedBackward0_copy", variants=("function",))
declare_like("as_strided_view", "as_strided_inplace", "AsStridedBackward1", copy=False)


@op("narrow_copy", "NarrowCopyBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.new_zeros(self_sizes).index_copy(dim, tensor(range(start, start + length)), grad)"},
    self=lambda g, n: dual.call("slice_backward", g, dim=n.dim, start=n.start, stop=n.start + n.length, step=1,
                                input_sizes=n.self_sizes))
def narrow_copy(self, dim, start, length, self_sizes):
    """narrow's values as a new contiguous tensor. Its gradient slices from start as given (PyTorch's
    slice_backward_wrapper(grad, sizes, dim, start, start + length)): a negative start gets zeros."""
    begin = start + self.shape[dim] if start < 0 else start
    return np.array(self[(slice(None),) * dim + (slice(begin, begin + length),)], order="C", copy=True)


CONTIGUOUS_RESULT.add("narrow_copy")
declare_like("split_with_sizes", "unsafe_split_with_sizes", "UnsafeSplitWithSizesBackward0", copy=False,
             variants=("function", "method"))
# --- pixel and channel shuffles: a reshape, a permutation of dims, a reshape (each the other's gradient) ---

def _pixel_shuffle(x, r):
    """(*, C r^2, H, W) -> (*, C, H r, W r): each group of r^2 channels spread over an r x r block."""
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    blocks = x.reshape(lead + (c // (r * r), r, r, h, w))
    order = tuple(range(k)) + (k, k + 3, k + 1, k + 4, k + 2)     # (*, C, H, r, W, r)
    return np.array(blocks.transpose(order), order="C").reshape(lead + (c // (r * r), h * r, w * r))


def _pixel_unshuffle(x, r):
    """(*, C, H r, W r) -> (*, C r^2, H, W): pixel_shuffle undone."""
    lead, (c, h, w) = x.shape[:-3], x.shape[-3:]
    k = len(lead)
    blocks = x.reshape(lead + (c, h // r, r, w // r, r))
    order = tuple(range(k)) + (k, k + 2, k + 4, k + 1, k + 3)     # (*, C, r, r, H, W)
    return np.array(blocks.transpose(order), order="C").reshape(lead + (c * r * r, h // r, w // r))


@op("pixel_shuffle", "PixelShuffleBackward0", ("self",), promote=False, variants=("function",),
    shows={"self": "F.pixel_unshuffle(grad, upscale_factor)"},
    self=lambda g, n: dual.call("pixel_unshuffle", g, downscale_factor=n.upscale_factor))
def pixel_shuffle(self, upscale_factor):
    return _pixel_shuffle(self, upscale_factor)


@op("pixel_unshuffle", "PixelUnshuffleBackward0", ("self",), promote=False, variants=("function",),
    shows={"self": "F.pixel_shuffle(grad, downscale_factor)"},
    self=lambda g, n: dual.call("pixel_shuffle", g, upscale_factor=n.downscale_factor))
def pixel_unshuffle(self, downscale_factor):
    return _pixel_unshuffle(self, downscale_factor)


@op("channel_shuffle", "ChannelShuffleBackward0", ("self",), promote=False, variants=("function",),
    shows={"self": "F.channel_shuffle(grad, grad.shape[1] // groups)"},
    self=lambda g, n: dual.call("channel_shuffle", g, groups=dual.data(g).shape[1] // n.groups))
def channel_shuffle(self, groups):
    """(N, C, *) -> (N, groups, C/groups, *), the two swapped: channel i of group j goes to j + i * groups."""
    n, c = self.shape[:2]
    split = self.reshape((n, groups, c // groups) + self.shape[2:])
    return np.array(np.swapaxes(split, 1, 2), order="C").reshape(self.shape)
