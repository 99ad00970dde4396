"""Indexing: reading `x[key]` and writing `x[key] = v`.

Reading `x[key]` becomes a chain of PyTorch's view ops (select, slice, unsqueeze) for basic
keys, and one IndexBackward0 node for integer-tensor or boolean-mask keys.

Writing `x[key] = v` reads the key the same way, then writes as every in-place op does
(ops/inplace.py): PyTorch's copy_, fill_ or index_put_ on the tensor, or CopySlices on its base.
"""
import numbers
import operator

import numpy as np

from .._ctype import tp_name
from .._dtype import c32_scalar, from_numpy_dtype
from .._tensor_core import Tensor
from .._tensor_data import _check_numpy, _from_python, _scalar_dtype
from ..autograd import forward_grads as _forward_grads, grad_mode
from .inplace import (_EXPANDED_INDEX_PUT, _EXPANDED_MASKED_FILL, _OVERLAP, _PARTIAL_OVERLAP, _adopt,
                      _check_inplace_allowed, _kind_name, _partial_overlap, _stand_in, _write_through_base, overlaps,
                      scalar_for)
# (in-place writing, also read by _tensor_methods/ as `indexing.<name>`: defined in ops/inplace.py)
from .inplace import after_untracked_write, assign_data, check_overlaps, fill_inplace, remember_view, run_inplace  # noqa: F401
from .conversion import real_part
from .registry import OPS
from .. import _warnings

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
    return tp_name(type(x))


def _key_tuple(key):
    """The key as a tuple of indices, as PyTorch reads it (python_variable_indexing.cpp)."""
    if isinstance(key, tuple):
        return key
    if isinstance(key, _SEQUENCES) and not isinstance(key, np.ndarray) and len(key) < 32:
        # numpy's old rule: x[[0, [1, 2]]] means x[0, [1, 2]] (deprecated: a warning)
        for k in key:
            if isinstance(k, (Tensor, slice) + _SEQUENCES) or k is None or k is Ellipsis:
                line = 349 if isinstance(k, (Tensor, slice) + _SEQUENCES) else 359
                _warnings.warn(_SEQUENCE_WARNING.format(line), UserWarning)
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


def _key_item(k, pending=None):
    """One item of a key, as numpy reads it. pending: a dict that collects, instead of raising or warning
    at once, an index tensor's bad dtype ('bad': the error) and the uint8 masks ('uint8': their ids), as
    PyTorch's index op checks them only after the whole key is read (x[bad, ::0] is an error about the step)."""
    if isinstance(k, np.bool_):             # (not a Python bool to PyTorch, nor an integer)
        raise IndexError(_INVALID_INDEX.format(_type_name(k)))
    if k is None or k is Ellipsis or isinstance(k, bool):
        return k
    if isinstance(k, slice):
        return k
    if isinstance(k, Tensor):
        a = k._data
        if a.dtype.kind in "iu" and a.dtype != np.uint8 and a.ndim == 0:
            return int(a)                   # a 0-d integer tensor is an int
        if a.dtype in (np.bool_, np.uint8) and a.ndim == 0:
            return bool(a)                  # (a 0-d mask: everything or nothing; uint8 too, without a warning)
        if a.dtype not in _INDEX_DTYPES:
            error = IndexError("tensors used as indices must be long, int, byte or bool tensors")
            if pending is None:
                raise error
            pending.setdefault("bad", error)
            stand_in = np.zeros(a.shape, np.int64)      # (until the error is raised)
            pending.setdefault("bad_ids", set()).add(id(stand_in))
            return stand_in
        return _mask_or_indices(a, pending)
    if isinstance(k, numbers.Integral):
        return _int64(int(k))
    if isinstance(k, np.ndarray):           # PyTorch makes a tensor of it first: a 0-d one is an int or a mask
        return _key_item(Tensor._make(_index_array(k)), pending)
    if isinstance(k, _SEQUENCES):
        return _mask_or_indices(_index_array(k), pending)
    try:
        return operator.index(k)
    except TypeError:
        raise IndexError(_INVALID_INDEX.format(_type_name(k))) from None


def numpy_key(indices):
    """The numpy key of a tuple of index tensors (index_put_'s indices; their checks are getitem's)."""
    return tuple(_key_item(k, {}) for k in indices)       # ({}: a uint8 mask warned when the key was checked)


def _int64(i):
    """An index as PyTorch's C++ reads it: a long long."""
    if not -2 ** 63 <= i < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")
    return i


def _index_array(seq):
    """A list (or array) index as PyTorch reads it: bool or uint8 stays, anything else is int64."""
    if isinstance(seq, (str, bytes, list, tuple, range)):
        # PyTorch's indexing_tensor_from_data: the dtype inferred over every element (its errors: an ellipsis,
        # None, a slice), then the elements stored as torch.tensor stores them: as longs unless it is a mask
        inferred = _scalar_dtype(seq)
        return _from_python(seq, inferred if inferred in (np.bool_, np.uint8) else np.dtype(np.int64))
    if isinstance(seq, np.ndarray):
        _check_numpy(seq)                   # (a numpy index becomes a tensor first: its dtype is checked so)
    a = np.asarray(seq)
    if a.dtype == np.bool_ or a.dtype == np.uint8 and isinstance(seq, np.ndarray):
        return a
    if a.dtype.kind not in "biuf":
        raise TypeError(f"new(): invalid data type '{a.dtype.name}'")
    return a.astype(np.int64)


def _mask_or_indices(a, pending=None):
    if a.dtype == np.uint8:
        mask = a.astype(bool)
        if pending is None:
            _warnings.warn(_UINT8_WARNING, UserWarning)
        else:
            pending.setdefault("uint8", set()).add(id(mask))
        return mask
    return a if a.dtype == np.bool_ else a.astype(np.int64, copy=False)


def getitem(t, key):
    """PyTorch's rules: `y[a:b]` alone is always a slice (even `y[:]`), `y[...]` an alias; in a
    tuple, slices that keep a whole dimension are skipped, and if nothing is left, an alias."""
    if isinstance(key, slice):
        _check_step(key)
        if t._data.ndim:
            return _slice(t, 0, key, keep_whole=True)
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")     # (`[:]` too)
    if t._data.ndim == 0 and isinstance(key, numbers.Integral) and not isinstance(key, (bool, Tensor)):
        if _int64(int(key)) != 0:
            raise IndexError(f"index {key} is out of bounds for dimension 0 with size 0")
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    pending = {}
    out, advanced = _apply_slicing(t, _key_tuple(key), pending)
    if advanced:
        _check_index_tensors(out, advanced, pending)
        return _advanced_getitem(out, advanced)
    if out is t:
        out = OPS["alias"](t)._view_of(t)
    return out


def index_shape(t, key):
    """The shape of t[key] after every check of PyTorch's index op but the bounds (index_put_ with accumulate=True
    checks the value's shape and dtype before its kernel reads the indices), and a function checking the bounds."""
    pending = {}
    out, advanced = _apply_slicing(Tensor._make(t._data), _key_tuple(key), pending)
    if not advanced:
        return out._data.shape, lambda: None
    _check_index_tensors(out, advanced, pending)
    # (an index into a dim of size 0 is refused by make_info, before the value is looked at, as in setitem)
    shape = _indexed_shape(out._data.shape, _advanced_key(out, advanced, check_bounds=0 in out._data.shape))
    return shape, lambda: _advanced_key(out, advanced)


def _check_step(k):
    if k.step is not None and k.step <= 0:
        raise ValueError("slice step cannot be zero" if k.step == 0 else "step must be greater than zero")


def _apply_slicing(t, key, pending):
    """The basic part of a key, as PyTorch's view ops (select, slice, unsqueeze), in order. Returns
    the view and the index arrays left for one index op, as {dim of the view: array}. Each index
    is read when its turn comes, as in PyTorch (x[5, 1.5] is an error about the 5); what PyTorch's
    index op checks is left in pending (see _key_item)."""
    ellipsis_dims = _check_count(key, t._data.ndim)
    out, dim, real_dim, advanced = t, 0, 0, {}
    for k in key:
        k = _key_item(k, pending)
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
            _check_step(k)                # (read as the slice is unpacked, before its dim is looked at)
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


def _check_index_tensors(out, advanced, pending):
    """The first checks of PyTorch's index op (make_info): the index tensors' dtypes, then each index in turn:
    a uint8 mask's warning, a mask's shape."""
    if "bad" in pending:
        raise pending["bad"]
    shape = out._data.shape
    for d, a in advanced.items():
        if id(a) in pending.get("uint8", ()):
            _warnings.warn(_UINT8_WARNING, UserWarning)
        if a.dtype == np.bool_:
            _check_mask_shape(a, shape, d)


def _check_mask_shape(a, shape, d):
    for j, n in enumerate(a.shape):
        if n != shape[d + j]:
            raise IndexError(f"The shape of the mask [{', '.join(map(str, a.shape))}] at index {j} does not "
                             f"match the shape of the indexed tensor [{', '.join(map(str, shape))}] at index {d + j}")


def _slice(t, dim, k, keep_whole):
    """t[..., k] along dim as PyTorch's slice view; a slice keeping the whole dimension is skipped
    unless keep_whole (`y[:]` on its own still records SliceBackward0)."""
    _check_step(k)
    size = t._data.shape[dim]
    start, stop, step = k.indices(size)
    # PyTorch skips the slice on the numbers as written, before negative ones wrap: a start of 0, a step of 1,
    # a stop at or past the end (`x[-3:]` of 3 rows, or `e[1:-1]` of none, are still slices)
    written = [0 if k.start is None else operator.index(k.start), None if k.stop is None else operator.index(k.stop),
               1 if k.step is None else operator.index(k.step)]
    if not keep_whole and written[0] == 0 and written[2] == 1 and (written[1] is None or written[1] >= size):
        return t
    out = OPS["slice"](t, dim=dim, start=start, stop=max(stop, start), step=step, self_sizes=t._data.shape)
    if out.grad_fn is not None:
        # (PyTorch's node keeps the numbers as written: an open end is INT64_MAX)
        out.grad_fn.__dict__["_shown"] = {"start": written[0],
                                          "end": 9223372036854775807 if written[1] is None else written[1]}
    return out._view_of(t)


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
            _check_mask_shape(a, shape, d)
            flat += [(None, i) for i in np.nonzero(a)]
        else:
            flat.append((d, a))
    try:
        np.broadcast_shapes(*(a.shape for _, a in flat))
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(f"[{', '.join(map(str, a.shape))}]" for _, a in flat)) from None
    key, at = [], 0                 # numpy's key: whole slices between; a mask stands for as many dims as it has
    for d in sorted(advanced):
        a = advanced[d]
        key += [slice(None)] * (d - at) + [a]
        at = d + (a.ndim if a.dtype == np.bool_ else 1)
    key = tuple(key)
    if check_bounds and _check_bounds(shape, flat, key):
        # an empty result reads nothing: out-of-range values are not errors (numpy's would be)
        safe = []
        for d in sorted(advanced):
            a = advanced[d]
            n = shape[d]
            safe.append(np.where((a < -n) | (a >= n), 0, a) if a.dtype != np.bool_ and n else a)
        key = tuple(safe.pop(0) if isinstance(k, np.ndarray) else k for k in key)
    return key


def _check_bounds(shape, flat, key):
    """Index values inside their dims (the n-th index tensor names dimension n, as PyTorch's kernel
    does); nothing else is checked when the result is empty, as nothing is read."""
    # (PyTorch's check is on the broadcast indices: x[[0], []] of an empty x reads nothing, and is no error)
    if np.prod(np.broadcast_shapes(*(a.shape for _, a in flat))) and any(
            d is not None and shape[d] == 0 for d, _ in flat):
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


_ZERO_TENSOR_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a "
                     "mutable zero tensor.")


def _spelled_out(nkey, ndim):
    """A key with several ellipses (PyTorch takes `x[..., 0, ...]`: each one skips the dims the other items
    leave) with each spelled out as whole slices, for numpy, which takes one."""
    used = sum(k.ndim if isinstance(k, np.ndarray) and k.dtype == np.bool_ else 1 for k in nkey
               if k is not None and k is not Ellipsis and k is not True and k is not False)
    each = max(ndim - used, 0)
    out = []
    for k in nkey:
        out.extend([slice(None)] * each if k is Ellipsis else [k])
    extra = used + each * sum(k is Ellipsis for k in nkey) - ndim
    while extra > 0 and out and type(out[-1]) is slice and out[-1] == slice(None):   # (past the last dim: nothing)
        out.pop()
        extra -= 1
    return tuple(out)


def setitem(t, key, value, copy=False):
    """`t[key] = value` (and t.copy_(value)); inside forward_ad.dual_level the tangent is written alike."""
    if _forward_grads.APPLY_HOOK[0] is None:
        return _setitem(t, key, value, copy)
    old = _forward_grads.tangent_of(t)
    value_tangent = _forward_grads.tangent_of(value) if isinstance(value, Tensor) else None
    hooks = _forward_grads.APPLY_HOOK[0], _forward_grads.INPLACE_HOOK[0]
    _forward_grads.APPLY_HOOK[0] = _forward_grads.INPLACE_HOOK[0] = None
    try:
        result = _setitem(t, key, value, copy)
        if old is None and value_tangent is not None and t._base is None:
            old = Tensor._make(np.zeros_like(t._data))      # (a plain tensor written with a dual gets a tangent)
            _forward_grads.set_tangent(t, old)
        if old is not None:
            # the value's tangent at the same places (zeros where the value has none: a number, a plain tensor)
            _setitem(old, key, value_tangent if value_tangent is not None else 0, copy)
        return result
    finally:
        _forward_grads.APPLY_HOOK[0], _forward_grads.INPLACE_HOOK[0] = hooks


def _setitem(t, key, value, copy=False):
    """`t[key] = value`, checked as PyTorch checks it: the value (a tensor or a number), then the
    key (read on a stand-in, so that a bad key changes nothing), then the value's shape and dtype.
    copy: t.copy_(value) (CopyBackwards whatever the value's shape; `t[...] = 0-d` is a fill_)."""
    value = _assigned_value(t, value)
    if getattr(t, "_zerotensor", False):   # (a write is a copy_ into the ZeroTensor: its own words)
        raise RuntimeError(_ZERO_TENSOR_COPY)
    if key is False:                       # x[False] = v writes nothing
        return
    if t._data.ndim == 0 and isinstance(key, (numbers.Integral, slice)) and not isinstance(key, (bool, Tensor)):
        getitem(t, key)                    # (0-d: the messages of reading)
    items = (None,) if key is True else _key_tuple(key)
    stand = Tensor._make(t._data)
    pending = {}
    target, advanced = _apply_slicing(stand, items, pending)
    strides, sizes = target._data.strides, target._data.shape
    expanded = target._data.size and any(step == 0 and size > 1 for step, size in zip(strides, sizes))
    as_view = target is not stand
    if expanded and not advanced:
        if isinstance(value, Tensor):         # (the value is expanded to the target's shape before copy_)
            v = value._data
            while v.ndim and v.shape[0] == 1:
                v = v[0, ...]
            Tensor._make(v).expand(target._data.shape)
        _check_inplace_allowed(t, as_view)    # (copy_'s autograd check comes before its overlap check)
        raise RuntimeError(_OVERLAP)          # an expanded tensor: one number would be written twice
    fill = False                             # index_put_ handing over to masked_fill_ (one mask, one value)
    if advanced:
        _check_inplace_allowed(t, as_view)   # (index_put_'s autograd check comes before its shape checks)
        if expanded:                         # PyTorch's index_put_ still writes, with a warning
            _warnings.warn(_EXPANDED_INDEX_PUT, UserWarning)
        if not isinstance(value, Tensor) or value._data.size == 1:
            fill = _masked_fill_dispatch(target, advanced, pending)
            if fill and expanded:
                _warnings.warn(_EXPANDED_MASKED_FILL, UserWarning)
    if isinstance(value, Tensor):
        v = value._data
        while v.ndim and v.shape[0] == 1:
            v = v[0, ...]                  # PyTorch drops the value's leading 1s first (a view: v[0] of a 1-d
            #                                array would be a numpy scalar, a copy, and the overlap test below lost)
        stripped = v.shape
        # the value may not share memory with what it is written into: index_put_ refuses any overlap, copy_
        # a partial one (the value expanded to the target's shape laid out as the target is: a copy onto itself)
        # (a value of the target's own shape goes to copy_ as it is, unstripped: `w[::2] += 1` writes w[::2] onto
        # itself, the same memory with the same strides, which copy_ skips)
        if overlaps(target, value) and (advanced or _partial_copy(
                target._data, value._data if value._data.shape == target._data.shape else v)):
            raise RuntimeError(_PARTIAL_OVERLAP)
    if advanced and not fill and any(isinstance(k, Tensor) and (k is t and target is stand or overlaps(target, k))
                                     for k in items):
        raise RuntimeError(_PARTIAL_OVERLAP)     # (index_put_ refuses an index sharing self's memory, `x[x] = v`)
    if advanced:                             # (make_info's checks; then the value's shape and dtype)
        _check_index_tensors(target, advanced, pending)
        index_key = _advanced_key(target, advanced, check_bounds=0 in target._data.shape)
        shape = _indexed_shape(target._data.shape, index_key)
    if isinstance(value, Tensor):
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
            if fill and v.dtype.kind == "c" and t._data.dtype.kind not in "cb":
                scalar_for(t, v.item())      # (masked_fill_ with the value's item: a nonzero imaginary part refused)
            if v.dtype != t._data.dtype and not fill:     # (x[mask] = 0-d: masked_fill_)
                raise RuntimeError(f"Index put requires the source and destination dtypes match, got "
                                   f"{_kind_name(t._data.dtype)} for the destination and {_kind_name(v.dtype)} for "
                                   "the source.")
    if advanced:
        _advanced_key(target, advanced)      # now the bounds
    empty = 0 in (shape if advanced else target._data.shape)
    nkey = tuple(_key_item(k, {}) for k in items)     # ({}: a uint8 mask warned once already, above)
    if sum(k is Ellipsis for k in nkey) > 1:
        nkey = _spelled_out(nkey, t._data.ndim)
    _check_inplace_allowed(t, as_view, None if advanced or not as_view else _last_view_name(items, t._data.shape))
    value_requires = isinstance(value, Tensor) and value.requires_grad
    if grad_mode._state["enabled"] and (t.requires_grad or value_requires):
        if expanded and t.requires_grad:
            raise RuntimeError(_OVERLAP)     # (PyTorch's too; only a value that requires grad is recorded)
        src = _stand_in(t, "copy_slices")
        val = value if isinstance(value, Tensor) else _py_or_array(value, t)
        # a 0-d value that requires grad, written into an integer or bool tensor by PyTorch's fill_ (or by index_put_'s
        # masked_fill_ for masks): kept as it is, whose node is then recorded (FillBackward3, CopySlices,
        # IndexPutBackward0; ops/registry.py's _integer_history). A copy_ into an integer tensor records nothing.
        # (so is a real one written into a complex tensor: its gradient is then refused, as PyTorch's engine does)
        fills = (value_requires and (t._data.dtype.kind not in "fc" or t._data.dtype.kind == "c" and
                                     val._data.dtype.kind != "c") and not copy and (val._data.ndim == 0 or (
                     t._data.dtype.kind == "c" and advanced and val._data.size == 1)) and (
            all(a.dtype == np.bool_ for a in advanced.values()) if advanced else target._data.ndim != 0))
        if isinstance(val, Tensor) and val._data.dtype != t._data.dtype and not fills:
            val = val.to(t.dtype)
        if isinstance(val, Tensor) and val._data.ndim and val._data.shape != target._data.shape:
            # PyTorch's graph: the value viewed without its leading 1s (always, for a copy), then expanded
            if not advanced or stripped != val._data.shape:
                val = val.view(stripped)
            if not advanced and stripped != target._data.shape:
                val = val.expand(target._data.shape)
        if advanced:       # index_put_ on t itself (IndexPutBackward0), or on a view of t (CopySlices)
            result = OPS["index_put_values" if target is stand else "copy_slices"](src, val, key=nkey)
        elif target is stand:       # the key names all of t: PyTorch's copy_ or fill_ (a number or 0-d into n-d)
            if copy or (isinstance(val, Tensor) and val._data.ndim) or not t._data.ndim:
                val = val if isinstance(val, Tensor) else Tensor._make(np.asarray(val, t._data.dtype))
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
    if empty:                                # nothing to write (numpy would still check the indices), but
        t._version_counter[0] += 1           # PyTorch's copy_/index_put_ ran: the version counts it
        return
    # (a tensor without its leading 1s; a complex one written into a real tensor: its real part, as copy_ warns)
    v = real_part(v, t._data.dtype) if isinstance(value, Tensor) else _py_or_array(value, t)
    if t._data.flags.writeable:
        t._data[nkey] = v
    else:                                    # an expanded view (numpy's are read-only): write its base
        _write_through_base(t, nkey, v)
    t._version_counter[0] += 1
    after_untracked_write(t)


def _last_view_name(items, shape):
    """The node of the last view a basic key makes (PyTorch's applySlicing: select for an int, slice for a slice
    that is not the whole dimension, unsqueeze for None; `...` and whole slices make none), or None."""
    name, dim = None, 0
    consuming = sum(1 for k in items if k is not None and k is not Ellipsis and not isinstance(k, bool))
    for k in items:
        if k is Ellipsis:
            dim += len(shape) - consuming
        elif k is None or k is True:
            name = "Unsqueeze"
        elif isinstance(k, slice):
            if dim < len(shape) and k.indices(shape[dim]) != (0, shape[dim], 1):
                name = "Slice"
            dim += 1
        elif isinstance(k, numbers.Integral):
            name = "Select"
        else:
            return None
    return name


def _masked_fill_dispatch(target, advanced, pending):
    """Whether index_put_ with one value hands over to masked_fill_ (canDispatchToMaskedFill): the indices are
    one mask (its shape checked here) and nothing else; masked_fill_ refuses a uint8 mask."""
    mask = None
    for d, a in advanced.items():
        if a.dtype != np.bool_ or mask is not None:
            return False
        _check_mask_shape(a, target._data.shape, d)
        mask = a
    if id(mask) in pending.get("uint8", ()):
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    return True


def _partial_copy(target, v):
    """Whether copying v (expanded to target's shape as PyTorch's expand lays it out) into target overlaps it
    partly: the same stretch of memory with other strides, or part of it (a broadcast v: too hard to tell, allowed)."""
    try:
        if np.broadcast_shapes(v.shape, target.shape) != target.shape:
            return False                   # (the expand's own error comes later)
    except ValueError:
        return False
    strides, lead = [0] * target.ndim, target.ndim - v.ndim
    for i in reversed(range(target.ndim)):             # (PyTorch's inferExpandGeometry)
        if i >= lead and v.shape[i - lead] == target.shape[i]:
            strides[i] = v.strides[i - lead]
        elif i < lead and target.shape[i] == 1:        # a new dim of size 1 continues the next one's stride
            strides[i] = strides[i + 1] * target.shape[i + 1] if i + 1 < target.ndim else v.itemsize
    if any(s == 0 and n > 1 for s, n in zip(strides, target.shape)):
        return False
    same = v.__array_interface__["data"][0] == target.__array_interface__["data"][0] and v.nbytes == target.nbytes
    return not same or strides != list(target.strides)


def _assigned_value(t, value):
    """What can be written into t: a tensor or a number (PyTorch's TypeError for anything else)."""
    if isinstance(value, Tensor):
        return value
    # Python's numbers (np.float64 is a float) and numpy's integers; PyTorch refuses np.float32 or np.bool_ here
    if isinstance(value, (numbers.Number, np.integer)) and not isinstance(
            value, (np.floating, np.complexfloating, np.bool_)) or isinstance(value, (float, complex)):
        return scalar_for(t, value, huge_ints=True)
    raise TypeError(f"can't assign a {_type_name(value)} to a torch.{from_numpy_dtype(t._data.dtype)._legacy}")


def _py_or_array(value, t):
    if isinstance(value, (numbers.Number, np.generic)):
        return c32_scalar(value) if t._data.dtype.kind == "V" else value
    return np.asarray(value, dtype=t._data.dtype)
