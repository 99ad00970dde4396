"""Indexing, item assignment and in-place operations.

Reading `x[key]` becomes a chain of PyTorch's view ops (select, slice, unsqueeze) for basic
keys, and one IndexBackward0 node for integer-tensor or boolean-mask keys.

Writing (`x[key] = v`, `x.add_(1)`, `x.zero_()`) changes the tensor's storage in place and bumps
its version counter. When the graph must know about it, the tensor gets a new grad_fn: the node
of the in-place op (or CopySlices for item assignment), whose input is the tensor's old history.

Views share their base's storage, so a change through one is a change of all (PyTorch's rules):
* writing through a view `v` of `y` (`y[0].mul_(3)`) rewrites the *base's* history: y's grad_fn
  becomes CopySlices, which runs the in-place op's gradient on v's part of y's gradient;
* after any recorded change of `y`, every view of y reads through y's new history: its grad_fn
  becomes AsStridedBackward0 (which picks the view's elements out of y's gradient).
"""
import numbers
import operator
import warnings
import weakref

import numpy as np

from .._dtype import from_numpy_dtype
from .._tensor_core import Tensor
from ..autograd import grad_mode, node as _autograd_node
from ..autograd.node import Node
from .operands import _binary
from .registry import OPS, edge_of

_LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."

_INVALID_INDEX = "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid indices (got {})"
_SEQUENCE_WARNING = (
    "Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in pytorch 2.9; use "
    "x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as tensor index, x[torch.tensor(seq)], "
    "which will result either in an error or a different result (Triggered internally at "
    "/__w/pytorch/pytorch/torch/csrc/autograd/python_variable_indexing.cpp:{}.)")
_UINT8_WARNING = ("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead. (Triggered "
                  "internally at /__w/pytorch/pytorch/aten/src/ATen/native/IndexingUtils.h:37.)")
_INDEX_DTYPES = (np.dtype(np.int64), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_))
_SEQUENCES = (list, tuple, range, str, bytes, np.ndarray)      # what Python calls a sequence (PySequence_Check)


def _type_name(x):
    """A type as PyTorch's C code names it: `float`, `numpy.float64`."""
    t = type(x)
    return t.__name__ if t.__module__ == "builtins" or t.__flags__ & (1 << 9) else f"{t.__module__}.{t.__name__}"


def _key_tuple(key):
    """The key as a tuple of indices, as PyTorch reads it (python_variable_indexing.cpp)."""
    if isinstance(key, tuple):
        return key
    if isinstance(key, _SEQUENCES) and not isinstance(key, np.ndarray) and len(key) < 32:
        # numpy's old rule: x[[0, [1, 2]]] means x[0, [1, 2]] (deprecated: a warning)
        for k in key:
            if isinstance(k, (Tensor, slice) + _SEQUENCES) or k is None or k is Ellipsis:
                line = 349 if isinstance(k, (Tensor, slice) + _SEQUENCES) else 359
                warnings.warn(_SEQUENCE_WARNING.format(line), UserWarning, stacklevel=4)
                return tuple(key)
    return (key,)


def _count_specified(key):
    """How many dims of the tensor the key names (PyTorch's count, made before reading the key)."""
    n = 0
    for k in key:
        if isinstance(k, Tensor):
            n += k._data.ndim if k._data.dtype in (np.uint8, np.bool_) else 1
        elif k is not None and k is not Ellipsis and k is not True and k is not False:
            n += 1
    return n


def _key_item(k):
    if k is None or k is Ellipsis or isinstance(k, (bool, np.bool_)):
        return bool(k) if isinstance(k, np.bool_) else k
    if isinstance(k, slice):
        return k
    if isinstance(k, Tensor):
        a = k._data
        if a.dtype.kind in "iu" and a.dtype != np.uint8 and a.ndim == 0:
            return int(a)                   # a 0-d integer tensor is an int
        if a.dtype == np.bool_ and a.ndim == 0:
            return bool(a)
        if a.dtype not in _INDEX_DTYPES:
            raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        return _mask_or_indices(a)
    if isinstance(k, numbers.Integral):
        return int(k)
    if isinstance(k, _SEQUENCES):
        return _mask_or_indices(_index_array(k))
    try:
        return operator.index(k)
    except TypeError:
        raise IndexError(_INVALID_INDEX.format(_type_name(k))) from None


def _index_array(seq):
    """A list (or array) index as PyTorch reads it: bool or uint8 stays, anything else is int64."""
    if isinstance(seq, (str, bytes)) or (isinstance(seq, (list, tuple)) and _has_str(seq)):
        raise TypeError("new(): invalid data type 'str'")
    a = np.asarray(seq)
    if a.dtype == np.bool_ or a.dtype == np.uint8 and isinstance(seq, np.ndarray):
        return a
    if a.dtype.kind not in "biuf":
        raise TypeError(f"new(): invalid data type '{a.dtype.name}'")
    return a.astype(np.int64)


def _has_str(seq):
    return any(isinstance(e, (str, bytes)) or isinstance(e, (list, tuple)) and _has_str(e) for e in seq)


def _mask_or_indices(a):
    if a.dtype == np.uint8:
        warnings.warn(_UINT8_WARNING, UserWarning, stacklevel=5)
        return a.astype(bool)
    return a if a.dtype == np.bool_ else a.astype(np.int64, copy=False)


def getitem(t, key):
    """PyTorch's rules: `y[a:b]` alone is always a slice (even `y[:]`), `y[...]` an alias; in a
    tuple, slices that keep a whole dimension are skipped, and if nothing is left, an alias."""
    if isinstance(key, slice):
        _check_step(key)
        if t._data.ndim:
            return _slice(t, 0, key, keep_whole=True)
        if key != slice(None):
            raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if t._data.ndim == 0 and isinstance(key, numbers.Integral) and not isinstance(key, (bool, Tensor)):
        if key != 0:
            raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    out, advanced = _apply_slicing(t, _key_tuple(key))
    if advanced:
        return _advanced_getitem(out, advanced)
    if out is t:
        out = OPS["alias"](t)._view_of(t)
    return out


def _check_step(k):
    if k.step is not None and k.step <= 0:
        raise ValueError("slice step cannot be zero" if k.step == 0 else "step must be greater than zero")


def _apply_slicing(t, key):
    """The basic part of a key, as PyTorch's view ops (select, slice, unsqueeze), in order. Returns
    the view and the index arrays left for one index op, as {dim of the view: array}. Each index
    is read when its turn comes, as in PyTorch (x[5, 1.5] is an error about the 5)."""
    ellipsis_dims = _check_count(key, t._data.ndim)
    out, dim, real_dim, advanced = t, 0, 0, {}
    for k in key:
        k = _key_item(k)
        if k is Ellipsis:                 # the dims no index names (each item counts once in real_dim)
            dim += ellipsis_dims          # (each `...` of x[..., ..., 1] skips them again, as in PyTorch)
            real_dim += 1
        elif k is None:
            out = out.unsqueeze(dim)
            dim += 1
            real_dim += 1
        elif isinstance(k, bool):         # x[True]: a new dim of size 1, indexed by [0] (or by [])
            out = out.unsqueeze(dim)
            advanced[dim] = np.zeros(int(k), np.int64)
            dim += 1
            real_dim += 1
        elif isinstance(k, slice):
            if dim >= out._data.ndim and k != slice(None):     # (only after two `...`)
                raise IndexError(f"Dimension out of range (expected to be in range of [{-out._data.ndim}, "
                                 f"{out._data.ndim - 1}], but got {dim})")
            if dim < out._data.ndim:
                out = _slice(out, dim, k, keep_whole=False)
            dim += 1
            real_dim += 1
        elif isinstance(k, int):          # (an error names the position in the key: real_dim)
            if dim >= out._data.ndim:     # (only after two `...`: PyTorch reads a size of 0 there)
                raise IndexError(f"index {k} is out of bounds for dimension {real_dim} with size 0")
            # (the unwrapped method: gradlab's own call skips the argument checks of gradlab/_argparse.py)
            out = getattr(Tensor.select, "__wrapped__", Tensor.select)(out, dim, k, _real_dim=real_dim)
            real_dim += 1
        else:
            advanced[dim] = k
            n = k.ndim if k.dtype == np.bool_ else 1
            dim += n
            real_dim += n
    if advanced:
        end = max(d + (a.ndim if a.dtype == np.bool_ else 1) for d, a in advanced.items())
        if end > out._data.ndim:          # (only after two `...`)
            raise IndexError(f"too many indices for tensor of dimension {out._data.ndim} (got {end})")
    return out, advanced


def _slice(t, dim, k, keep_whole):
    """t[..., k] along dim as PyTorch's slice view; a slice keeping the whole dimension is skipped
    unless keep_whole (`y[:]` on its own still records SliceBackward0)."""
    _check_step(k)
    size = t._data.shape[dim]
    start, stop, step = k.indices(size)
    if not keep_whole and (start, stop, step) == (0, size, 1):
        return t
    return OPS["slice"](t, dim=dim, start=start, stop=max(stop, start), step=step,
                        self_sizes=t._data.shape)._view_of(t)


def _check_count(key, ndim):
    """Check the number of indices; return how many dims `...` stands for."""
    used = _count_specified(key)
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    return ndim - used


def _advanced_key(out, advanced, check_bounds=True):
    """The numpy key of PyTorch's index op on `out`, checked with PyTorch's messages."""
    shape = out._data.shape
    flat = []                       # the index tensors PyTorch's kernel sees (a mask is its nonzero())
    for d, a in advanced.items():
        if a.dtype == np.bool_:
            for j, n in enumerate(a.shape):
                if n != shape[d + j]:
                    raise IndexError(f"The shape of the mask [{', '.join(map(str, a.shape))}] at index {j} does not "
                                     f"match the shape of the indexed tensor [{', '.join(map(str, shape))}] at index "
                                     f"{d + j}")
            flat += [(None, i) for i in np.nonzero(a)]
        else:
            flat.append((d, a))
    try:
        np.broadcast_shapes(*(a.shape for _, a in flat))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(f"[{', '.join(map(str, a.shape))}]" for _, a in flat)) from None
    key = [slice(None)] * (max(advanced) + 1)
    for d, a in advanced.items():
        key[d] = a
    key = tuple(key)
    if check_bounds and _check_bounds(shape, flat, key):
        # an empty result reads nothing: out-of-range values are not errors (numpy's would be)
        key = tuple(np.where((k < -n) | (k >= n), 0, k) if isinstance(k, np.ndarray) and k.dtype != np.bool_ and n
                    else k for k, n in zip(key, shape))
    return key


def _check_bounds(shape, flat, key):
    """Index values inside their dims (the n-th index tensor names dimension n, as PyTorch's kernel
    does); nothing else is checked when the result is empty, as nothing is read."""
    if any(d is not None and a.size and shape[d] == 0 for d, a in flat):
        raise IndexError("index is out of bounds for dimension with size 0")
    if (0 in shape or any(not a.size for _, a in flat)) and 0 in _indexed_shape(shape, key):
        return True
    if len(flat) == 1 and flat[0][0] is not None:          # (one index tensor: the common case)
        d, a = flat[0]
        bad = (a < -shape[d]) | (a >= shape[d])
        if bad.any():
            raise IndexError(f"index {a[bad].flat[0]} is out of bounds for dimension 0 with size {shape[d]}")
        return False
    # the kernel reads element by element, each index tensor in turn: the first bad one in that order
    bshape = np.broadcast_shapes(*(a.shape for _, a in flat))
    bad = [np.broadcast_to((a < -shape[d]) | (a >= shape[d]), bshape).reshape(-1) if d is not None
           else np.zeros(int(np.prod(bshape)), bool) for d, a in flat]
    hits = np.stack(bad).any(axis=0) if bad else np.zeros(0, bool)
    if hits.any():
        at = int(np.argmax(hits))
        i = next(j for j, b in enumerate(bad) if b[at])
        d, a = flat[i]
        value = np.broadcast_to(a, bshape).reshape(-1)[at]
        raise IndexError(f"index {value} is out of bounds for dimension {i} with size {shape[d]}")


def _indexed_shape(shape, key):
    """The shape of x[key] for x of this shape, key made of full slices and index arrays (numpy's
    and PyTorch's rule: the indexed dims become the broadcast shape of the index arrays, in place
    if the arrays are next to each other, else in front)."""
    arrays = [i for i, k in enumerate(key) if isinstance(k, np.ndarray)]
    broadcast = np.broadcast_shapes(*(np.nonzero(k)[0].shape if k.dtype == np.bool_ else k.shape
                                      for k in key if isinstance(k, np.ndarray)))
    before, after, dim = [], [], 0
    for i, k in enumerate(key):
        n = k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else 1
        if not isinstance(k, np.ndarray):
            (before if i < arrays[0] else after).append(shape[dim])
        dim += n
    rest = list(shape[dim:])
    if arrays[-1] - arrays[0] + 1 != len(arrays):
        return broadcast + tuple(before + after + rest)
    return tuple(before) + broadcast + tuple(after + rest)


def _advanced_getitem(out, advanced):
    return OPS["index"](out, key=_advanced_key(out, advanced), self_sizes=out._data.shape)


# --- writing --------------------------------------------------------------------------------------

_NO_GRADIENT_EDGE = _autograd_node.NO_GRADIENT_EDGE
_NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if "
    "you want the inplace to be tracked).")


def _check_inplace_allowed(t, as_view=False):
    if not grad_mode._state["enabled"]:
        return
    multi = getattr(t, "_multi_output", None)          # an output of unbind or split (see tensor.py)
    if multi is not None and t.requires_grad:
        raise RuntimeError(f"Output {multi[1]} of {multi[0]} is a view and is being modified inplace. This view is "
                           "the output of a function that returns multiple views. Such functions do not allow the "
                           "output views to be modified inplace. You should replace the inplace operation by an "
                           "out-of-place one.")
    if t._accumulator is _NO_GRADIENT_EDGE:     # a view made under no_grad (see Tensor._view_of)
        raise RuntimeError(_NO_GRAD_VIEW_INPLACE)
    base = t._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE)
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE if as_view else _LEAF_INPLACE)


# --- views and in-place changes ----------------------------------------------------------------------

def remember_view(root, view):
    """Let root find its views again (weakly: a view nobody holds is gone)."""
    views = root._views
    if views is None:
        views = root._views = []
    elif len(views) >= 16 and len(views) % 16 == 0:       # drop dead references now and then
        views[:] = [r for r in views if r() is not None]
    views.append(weakref.ref(view))


_byte_bounds = getattr(np, "byte_bounds", None) or np.lib.array_utils.byte_bounds     # numpy 1.x / 2.x


def view_positions(view, root):
    """Where each element of `view` sits in `root`, as an index into root's elements in C order.

    The view's memory lies inside root's. Element strides map memory to positions: write each
    position of root into an int64 buffer laid out like root's memory, then read that buffer
    laid out like the view's memory."""
    r, v = root._data, view._data
    item = r.itemsize
    low, high = _byte_bounds(r)
    buffer = np.zeros((high - low) // item + 1, np.int64)
    as_strided = np.lib.stride_tricks.as_strided

    def laid_out_like(a):
        start = (a.__array_interface__["data"][0] - low) // item
        return as_strided(buffer[start:], shape=a.shape, strides=tuple(s // item * 8 for s in a.strides))
    laid_out_like(r)[...] = np.arange(r.size).reshape(r.shape)
    return np.array(laid_out_like(v), copy=True)


def _refresh_views(root, written=None):
    """After root's history changed, every view of root (and the view just written through, if
    any) reads through the new history."""
    views = [ref() for ref in root._views or ()]
    if written is not None and not any(v is written for v in views):
        views.append(written)
    for view in views:
        if view is not None:
            _read_through(view, root)


def _read_through(view, root):
    fresh = OPS["as_strided"](root, positions=view_positions(view, root), self_sizes=root._data.shape)
    node = fresh.grad_fn
    view.grad_fn = node
    view._output_nr = 0
    if node is not None:
        node._output_ref = weakref.ref(view)
        _keep_retained_grad(view)


def _keep_retained_grad(t):
    """retain_grad() follows the tensor to its new grad_fn, as in PyTorch."""
    if t._retains_grad:
        t.retain_grad()


class CopySlices(Node):
    """The base's new grad_fn after an in-place op through one of its views (PyTorch's CopySlices).

    `fn` is the in-place op's own node (MulBackward0 for `v.mul_(3)`). Backward takes the base's
    gradient, runs fn's gradient on the view's part of it, and puts the result back there; fn's
    other inputs (the `w` of `v.mul_(w)`) get their gradients as this node's other slots."""

    def __init__(self, fn, positions, base_edge):
        super().__init__()
        self._fn = fn
        self._positions = positions
        self.next_functions = (base_edge,) + tuple(fn.next_functions[1:])
        # fn's saved values are this node's (drawings, freeing); PyTorch's CopySlices frees fn
        # itself after a backward, so it is spent even when fn saved nothing
        self._saved = fn._saved if fn._saved is not None else {}

    def apply(self, grad_outputs, as_arrays=False):
        g = grad_outputs[0]
        if as_arrays:                      # numpy arrays: no graph of the gradient
            result = np.array(g, copy=True)
            flat = result.reshape(-1)
            inner = self._fn.apply([flat[self._positions]], True)
            flat[self._positions] = 0 if inner[0] is None else inner[0]
            return [result] + list(inner[1:])
        # Tensors: the gradient's own graph is recorded
        positions = Tensor._make(self._positions.reshape(-1))
        inner = self._fn.apply([g.reshape(-1)[positions].reshape(self._positions.shape)])
        part = inner[0] if inner[0] is not None else g.reshape(-1)[positions] * 0
        result = OPS["copy_slices"](g.reshape(-1), part.reshape(-1), key=(self._positions.reshape(-1),))
        return [result.reshape(g._data.shape)] + list(inner[1:])

    def _release(self):
        self._fn._release()
        super()._release()


CopySlices.__module__ = "builtins"
CopySlices.name = lambda self: "torch::autograd::CopySlices"     # PyTorch's name() for it


def _adopt(t, result, written=None):
    """Make tensor t take result's values (in its own storage) and, if recorded, result's grad_fn.
    An expanded t (numpy's view is read-only, its numbers share memory) stores only the positions
    `written` (a mask), into its base: every number sharing the memory shows the new value."""
    if written is not None and not t._data.flags.writeable:
        root = t._base if t._base is not None else t
        root._data.flat[view_positions(t, root)[written]] = result._data[written]
    else:
        _copy_into(t, result)
    t._version_counter[0] += 1
    return _record_adopted(t, result)


def _copy_into(t, result):
    try:
        np.copyto(t._data, result._data, casting="same_kind")
    except TypeError:
        if not (result._data.dtype.kind in "iu" and t._data.dtype.kind in "iu"):
            raise RuntimeError(f"result type {_kind_name(result._data.dtype)} can't be cast to the desired output "
                               f"type {_kind_name(t._data.dtype)}") from None
        np.copyto(t._data, result._data, casting="unsafe")     # int16 into uint8 wraps, as in PyTorch
    except ValueError:
        raise RuntimeError(f"output with shape [{', '.join(map(str, t._data.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, result._data.shape))}]") from None


def _record_adopted(t, result):
    node = result.grad_fn
    if node is None:
        return t
    if type(node) is _autograd_node.NoDerivative and not node._op_name.endswith("_"):
        node._op_name += "_"              # (written in place: PyTorch names aten's in-place op, floor_divide_)
    root = t._base
    if node._saved and "result" in node._saved:
        # the saved output is now t (same values). Written through a view, it is the view itself,
        # which reads through the base's new history (a graph of the gradient must go through it)
        node._save("result", t, is_output=root is None)
    if root is None:
        t.grad_fn = node
        t._output_nr = 0
        node._output_ref = weakref.ref(t)
        _keep_retained_grad(t)
        _refresh_views(t)
    else:                                 # written through a view: the base's history changes
        wrapper = CopySlices(node, view_positions(t, root), edge_of(root))
        root.grad_fn = wrapper
        root._output_nr = 0
        wrapper._output_ref = weakref.ref(root)
        _refresh_views(root, written=t)
    return t


def _kind_name(dtype):
    return from_numpy_dtype(dtype)._legacy[:-len("Tensor")]


def _stand_in(t, opkey):
    """A tensor standing for t's value before the in-place change: same history, own storage when
    the op saves its input (so that the saved value is the old one)."""
    op = OPS[opkey]
    data = t._data.copy() if "self" in op.saves else t._data
    s = Tensor._make(data, t.grad_fn, t._output_nr)
    s._requires_grad = t._requires_grad
    s._accumulator = t._accumulator
    return s


_OVERLAP = ("unsupported operation: more than one element of the written-to tensor refers to a single memory "
            "location. Please clone() the tensor before performing the operation.")


_EXPANDED_INDEX_PUT = (
    "Use of index_put_ on expanded tensors is deprecated. Please clone() the tensor before performing this operation. "
    "This also applies to advanced indexing e.g. tensor[indices] = tensor (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:976.)")
_EXPANDED_MASKED_FILL = (
    "Use of masked_fill_ on expanded tensors is deprecated. Please clone() the tensor before performing this "
    "operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:2450.)")


_PARTIAL_OVERLAP = ("unsupported operation: some elements of the input tensor and the written-to tensor refer to "
                    "a single memory location. Please clone() the tensor before performing the operation.")


def _dense(a):
    """Do a's elements fill one gap-free stretch of memory (in some order of its dims)?"""
    dims = sorted((stride, size) for stride, size in zip(a.strides, a.shape) if size != 1)
    expected = a.itemsize
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return True


def _partial_overlap(t, other):
    """PyTorch's test before writing t from other: both dense, sharing memory, but not laid out the
    same way (`v.add_(v.t())`). Anything it cannot decide cheaply is allowed, as in PyTorch."""
    a, b = t._data, other._data
    if t is other or not a.size or not b.size or not np.may_share_memory(a, b) or not (_dense(a) and _dense(b)):
        return False
    a_begin, b_begin = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    a_end, b_end = a_begin + a.nbytes, b_begin + b.nbytes
    if a_begin == b_begin and a_end == b_end:
        return a.strides != b.strides
    return a_begin < b_end and b_begin < a_end


def check_overlaps(t, args):
    """Writing into t from args: PyTorch refuses an expanded t, then an input that partly overlaps t
    (before it looks at shapes or dtypes)."""
    data = t._data
    if 0 in data.strides and data.size > 1 and any(
            step == 0 and size > 1 for step, size in zip(data.strides, data.shape)):
        raise RuntimeError(_OVERLAP)          # an expanded view: one number would be written twice
    for a in args:
        # (arrays that own their memory cannot overlap another one: the common p -= lr * g is quick)
        if isinstance(a, Tensor) and (data.base is not None or a._data.base is not None) and _partial_overlap(t, a):
            raise RuntimeError(_PARTIAL_OVERLAP)


def run_inplace(t, opkey, args, params):
    """x.add_(y) and friends: compute like the out-of-place op, then write into x."""
    _check_inplace_allowed(t)             # (autograd's checks come first, as in PyTorch)
    check_overlaps(t, args)
    data = t._data
    records = grad_mode._state["enabled"] and (
        t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    if records:
        result = _call(opkey, _stand_in(t, opkey), args, params)
    elif _write_in_place(t, opkey, args, params):
        t._version_counter[0] += 1
        return t
    else:
        with grad_mode.no_grad():
            result = _call(opkey, t, args, params)
    if result is NotImplemented:
        raise TypeError(f"unsupported operand for in-place {opkey}: {type(args[0]).__name__}")
    if result._data.shape != t._data.shape:
        try:
            np.broadcast_to(result._data, t._data.shape)
        except ValueError:
            raise RuntimeError(f"output with shape [{', '.join(map(str, t._data.shape))}] doesn't match the broadcast "
                               f"shape [{', '.join(map(str, result._data.shape))}]") from None
    return _adopt(t, result)


_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.true_divide}


def _write_in_place(t, opkey, args, params):
    """Untracked arithmetic (an optimizer's `p -= lr * p.grad` under no_grad) computed straight into
    t's memory, as numpy's `a -= b` does, when the result has t's dtype and shape."""
    ufunc = _UFUNCS.get(opkey)
    if ufunc is None or params.get("alpha", 1) != 1 or len(args) != 1 or t._data.dtype.kind != "f":
        return False
    other = args[0]
    if isinstance(other, Tensor):
        other = other._data
        if other.dtype != t._data.dtype or other.ndim > t._data.ndim or any(
                o not in (1, s) for o, s in zip(other.shape[::-1], t._data.shape[::-1])):
            return False      # the general path gives PyTorch's message for a bad shape
    elif not isinstance(other, (int, float)) or isinstance(other, bool):
        return False
    if not t._data.flags.writeable:
        return False
    ufunc(t._data, other, out=t._data)
    return True


def _call(opkey, t, args, params):
    if opkey in ("add", "sub", "mul", "div", "pow", "maximum", "minimum"):
        return _binary(opkey, t, args[0], **params)
    return OPS[opkey](t, *args, **params)


def fill_inplace(t, value):
    """x.zero_(), x.fill_(v): on a non-leaf the new grad_fn is PyTorch's ZeroBackward0/FillBackward2."""
    value = scalar_for(t, value)
    _check_inplace_allowed(t)
    if grad_mode._state["enabled"] and t.requires_grad:
        key = "zero" if value == 0 else "fill"
        result = OPS[key](_stand_in(t, key), value=value)
        return _adopt(t, result)
    data = t._data
    if data.flags.writeable:
        data[...] = value
    elif t._base is None and not t._views and data.size and all(st == 0 for st in data.strides):
        # one number seen at every position, owned by no other tensor (the gradient autograd.grad gives
        # for x.sum()): PyTorch fills that one memory location; here it becomes a fresh one
        data = np.ndarray(data.shape, data.dtype, np.full(1, value, data.dtype), 0, data.strides)
        t._data = data
    else:                          # an expanded view (numpy's are read-only): PyTorch fills its memory
        _write_through_base(t, Ellipsis, value)
    t._version_counter[0] += 1
    return t


def assign_data(t, array, op_key=None):
    """Write freshly drawn values into t (uniform_, normal_). On a tensor that requires grad (not a
    leaf: those refuse) PyTorch records the op (`op_key`: NormalBackward0, UniformBackward0), through
    which no gradient flows; anywhere else (nn.init, under no_grad) it is untracked."""
    _check_inplace_allowed(t)
    if op_key is not None and grad_mode._state["enabled"] and t.requires_grad and not any(
            st == 0 and n > 1 for st, n in zip(t._data.strides, t._data.shape)):
        return _adopt(t, OPS[op_key](_stand_in(t, op_key), values=np.asarray(array, t._data.dtype)))
    if t._data.flags.writeable:
        t._data[...] = array
    elif any(st == 0 and n > 1 for st, n in zip(t._data.strides, t._data.shape)):
        raise RuntimeError(_OVERLAP)               # (PyTorch's random kernels refuse an expanded tensor)
    else:                          # (read-only but one element per memory location: a numpy broadcast view)
        _write_through_base(t, Ellipsis, array)
    t._version_counter[0] += 1
    return t


def setitem(t, key, value):
    """`t[key] = value`, checked as PyTorch checks it: the value (a tensor or a number), then the
    key (read on a stand-in, so that a bad key changes nothing), then the value's shape and dtype."""
    value = _assigned_value(t, value)
    if key is False:                       # x[False] = v writes nothing
        return
    if t._data.ndim == 0 and isinstance(key, (numbers.Integral, slice)) and not isinstance(key, (bool, Tensor)):
        getitem(t, key)                    # (0-d: the messages of reading)
    items = (None,) if key is True else _key_tuple(key)
    stand = Tensor._make(t._data)
    target, advanced = _apply_slicing(stand, items)
    strides, sizes = target._data.strides, target._data.shape
    expanded = target._data.size and any(step == 0 and size > 1 for step, size in zip(strides, sizes))
    if expanded and not advanced:
        raise RuntimeError(_OVERLAP)          # an expanded tensor: one number would be written twice
    as_view = target is not stand
    if advanced:
        index_key = _advanced_key(target, advanced, check_bounds=0 in target._data.shape)
        shape = _indexed_shape(target._data.shape, index_key)
        _check_inplace_allowed(t, as_view)   # (index_put_'s autograd check comes before its shape checks)
        if expanded:                         # PyTorch's index_put_ still writes, with a warning
            warnings.warn(_EXPANDED_INDEX_PUT, UserWarning, stacklevel=3)
            if list(advanced) == [0] and advanced[0].dtype == np.bool_ and (
                    not isinstance(value, Tensor) or value._data.size == 1):
                # (one mask and one value: index_put_ goes on to masked_fill_, which warns too)
                warnings.warn(_EXPANDED_MASKED_FILL, UserWarning, stacklevel=3)
    if isinstance(value, Tensor):
        v = value._data
        while v.ndim and v.shape[0] == 1:
            v = v[0]                       # PyTorch drops the value's leading 1s first
        stripped = v.shape
        if not advanced:
            Tensor._make(v).expand(target._data.shape)         # (PyTorch's copy_ expands: its message)
        else:
            try:
                fits = len(v.shape) <= len(shape) and np.broadcast_shapes(v.shape, shape) == shape
            except ValueError:
                fits = False
            if not fits:
                raise RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, v.shape))}] "
                                   f"cannot be broadcast to indexing result of shape "
                                   f"[{', '.join(map(str, shape))}]")
            masks_only = all(a.dtype == np.bool_ for a in advanced.values())
            if v.dtype != t._data.dtype and not (v.ndim == 0 and masks_only):     # (x[mask] = 0-d: masked_fill_)
                raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                                   f"{_kind_name(t._data.dtype)} for the destination and {_kind_name(v.dtype)} for "
                                   "the source.")
    if advanced:
        _advanced_key(target, advanced)      # now the bounds
    empty = 0 in (shape if advanced else target._data.shape)
    nkey = tuple(_key_item(k) for k in items)
    _check_inplace_allowed(t, as_view)
    value_requires = isinstance(value, Tensor) and value.requires_grad
    if grad_mode._state["enabled"] and (t.requires_grad or value_requires):
        if expanded and t.requires_grad:
            raise RuntimeError(_OVERLAP)     # (PyTorch's too; only a value that requires grad is recorded)
        src = _stand_in(t, "copy_slices")
        val = value if isinstance(value, Tensor) else _py_or_array(value, t)
        if isinstance(val, Tensor) and val._data.dtype != t._data.dtype:
            val = val.to(t.dtype)
        if isinstance(val, Tensor) and val._data.ndim and val._data.shape != target._data.shape:
            # PyTorch's graph: the value viewed without its leading 1s (always, for a copy), then expanded
            if not advanced or stripped != val._data.shape:
                val = val.view(stripped)
            if not advanced and stripped != target._data.shape:
                val = val.expand(target._data.shape)
        if advanced:       # index_put_ on t itself (IndexPutBackward0), or on a view of t (CopySlices)
            result = OPS["index_put" if target is stand else "copy_slices"](src, val, key=nkey)
        elif target is stand:       # the key names all of t: PyTorch's copy_ or fill_
            if isinstance(val, Tensor) and val._data.ndim:
                result = OPS["copy"](src, val)
            else:
                result = OPS["fill_tensor"](src, val if isinstance(val, Tensor) else Tensor._make(np.asarray(val)))
        else:
            result = OPS["copy_slices"](src, val, key=nkey)
        written = None
        if expanded:                         # (PyTorch writes into the shared memory: see _adopt)
            written = np.zeros(t._data.shape, bool)
            written[nkey] = True
        _adopt(t, result, written)
        return
    if empty:
        return                               # nothing to write (numpy would still check the indices)
    v = v if isinstance(value, Tensor) else _py_or_array(value, t)      # (a tensor without its leading 1s)
    if t._data.flags.writeable:
        t._data[nkey] = v
    else:                                    # an expanded view (numpy's are read-only): write its base
        _write_through_base(t, nkey, v)
    t._version_counter[0] += 1


def _write_through_base(t, key, value):
    root = t._base if t._base is not None else t
    values = np.array(t._data, copy=True)
    values[key] = value
    written = np.zeros(t._data.shape, bool)
    written[key] = True
    root._data.flat[view_positions(t, root)[written]] = values[written]


def _assigned_value(t, value):
    """What can be written into t: a tensor or a number (PyTorch's TypeError for anything else)."""
    if isinstance(value, Tensor):
        if value._data.dtype.kind == "c" and t._data.dtype.kind != "c":
            raise RuntimeError("value cannot be converted to type float without overflow")
        return value
    if isinstance(value, (numbers.Number, np.number, np.bool_)):
        return scalar_for(t, value, huge_ints=True)
    raise TypeError(f"can't assign a {_type_name(value)} to a torch.{from_numpy_dtype(t._data.dtype)._legacy}")


def _c_name(t):
    return {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "int64_t", "int32": "int",
            "int16": "int16_t", "int8": "int8_t", "uint8": "uint8_t", "bool": "bool"}.get(t._data.dtype.name, "float")


def scalar_for(t, value, huge_ints=False):
    """A Python number written into t (x[i] = v, masked_fill, fill_), checked and converted as
    PyTorch does: into integers, nan, inf and values out of range are errors, except that
    negative numbers wrap around in unsigned types (-1 is 255 in uint8). huge_ints: an int too large
    for a float dtype becomes inf (item assignment) instead of an error (masked_fill, fill_)."""
    value = value.item() if isinstance(value, np.generic) else value
    kind = t._data.dtype.kind
    if isinstance(value, complex) and kind != "c":
        if value.imag:
            raise RuntimeError(f"value cannot be converted to type {_c_name(t)} without overflow")
        value = value.real
    if kind in "iu" and not isinstance(value, bool):
        info = np.iinfo(t._data.dtype)
        low = -info.max if kind == "u" and isinstance(value, int) else info.min     # (ints wrap, floats do not)
        if isinstance(value, float) and not np.isfinite(value) or not low <= value <= info.max:
            raise RuntimeError(f"value cannot be converted to type {_c_name(t)} without overflow")
        return np.asarray(int(value)).astype(t._data.dtype).item()
    if kind == "f" and not huge_ints and isinstance(value, int) and not isinstance(value, bool) and abs(value) > np.finfo(
            t._data.dtype).max:
        raise RuntimeError(f"value cannot be converted to type {_c_name(t)} without overflow")
    return value


def _py_or_array(value, t):
    if isinstance(value, (numbers.Number, np.generic)):
        return value
    return np.asarray(value, dtype=t._data.dtype)


# zero_/fill_ on a non-leaf: recorded nodes with PyTorch's names
from . import dual  # noqa: E402
from .registry import op  # noqa: E402


def _no_gradient(g, n):
    """zeros, not recorded (PyTorch's zeros_like(grad)): nothing flows back through a fill"""
    return dual.like(g, np.zeros_like(dual.data(g)))


@op("zero", "ZeroBackward0", promote=False,
    self=_no_gradient)
def _zero(self, value):
    return np.zeros_like(self)


@op("fill", "FillBackward2", promote=False,
    self=_no_gradient)
def _fill(self, value):
    return np.full_like(self, value)


@op("normal_", "NormalBackward0", promote=False, saved_params=(),
    self=_no_gradient)
def _normal_(self, values):
    """self.normal_() on a tensor that requires grad: the drawn `values` (see assign_data)."""
    return np.array(values, dtype=self.dtype)


@op("uniform_", "UniformBackward0", promote=False, saved_params=(),
    self=_no_gradient)
def _uniform_(self, values):
    """self.uniform_() on a tensor that requires grad: the drawn `values` (see assign_data)."""
    return np.array(values, dtype=self.dtype)


@op("fill_tensor", "FillBackward3", ("self", "value"), promote=False,
    self=_no_gradient,
    value=lambda g, n: g)           # (summed to the value's shape by the node)
def _fill_tensor(self, value):
    return np.full_like(self, value)


@op("copy", "CopyBackwards", ("self", "src"), promote=False,
    self=_no_gradient,
    src=lambda g, n: g)
def _copy(self, src):
    while src.ndim > self.ndim and src.shape[0] == 1:      # (leading 1s of the value are dropped)
        src = src[0]
    return np.array(np.broadcast_to(src, self.shape), dtype=self.dtype)
