"""Indexing, item assignment and in-place operations.

Reading `x[key]` becomes a chain of PyTorch's view ops (select, slice, unsqueeze) for basic
keys, and one IndexBackward0 node for integer-tensor or boolean-mask keys.

Writing (`x[key] = v`, `x.add_(1)`, `x.zero_()`) changes the tensor's storage in place and bumps
its version counter. When the graph must know about it, the tensor gets a new grad_fn: the node
of the in-place op (or CopySlices for item assignment), whose input is the tensor's old history.
"""
import numbers
import weakref

import numpy as np

from ..autograd import grad_mode
from .registry import OPS

_LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."


Tensor = None                   # bound by gradlab/tensor.py (imports run the other way)
_binary = None                  # tensor._binary, bound there too


def _is_advanced(k):
    if isinstance(k, Tensor):
        return not (k._data.ndim == 0 and k._data.dtype.kind in "iu")
    return isinstance(k, (list, np.ndarray))


def _numpy_key(key):
    """The key with tensors and lists turned into numpy index arrays."""
    out = []
    for k in key:
        if isinstance(k, Tensor):
            k = k._data
            if k.dtype.kind not in "biu":
                raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
        elif isinstance(k, list):
            k = np.asarray(k)
        out.append(k)
    return tuple(out)


def _as_tuple(key):
    return key if isinstance(key, tuple) else (key,)


def getitem(t, key):
    key = _as_tuple(key)
    if t._data.ndim == 0 and any(k is not None and k is not Ellipsis and not (isinstance(k, slice) and k == slice(None))
                                 for k in key):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` in "
                         "C++ to convert a 0-dim tensor to a number")
    if any(_is_advanced(k) for k in key):
        return _advanced_getitem(t, key)
    key = _expand_ellipsis(key, t._data.ndim)
    out, dim = t, 0
    for k in key:
        if k is None:
            out = out.unsqueeze(dim)
            dim += 1
        elif isinstance(k, slice):
            size = out._data.shape[dim]
            if k.step is not None and k.step <= 0:
                raise ValueError("step must be greater than zero")
            start, stop, step = k.indices(size)
            if (start, stop, step) != (0, size, 1):
                stop = max(stop, start)
                out = OPS["slice"](out, dim=dim, start=start, stop=stop, step=step,
                                   self_sizes=out._data.shape)._view_of(out)
            dim += 1
        else:
            out = out.select(dim, int(k))
    return out


def _expand_ellipsis(key, ndim):
    """Replace `...` by as many full slices as it stands for; check the number of indices."""
    used = sum(1 for k in key if k is not None and k is not Ellipsis)
    if used > ndim:
        raise IndexError(f"too many indices for tensor of dimension {ndim}")
    if Ellipsis not in key:
        return key
    i = key.index(Ellipsis)
    return key[:i] + (slice(None),) * (ndim - used) + tuple(k for k in key[i + 1:] if k is not Ellipsis)


def _advanced_getitem(t, key):
    nkey = _numpy_key(key)
    try:
        t._data[nkey]
    except IndexError as e:
        raise IndexError(_index_error_text(e, t, nkey)) from None
    # basic ints before the advanced part become selects, as in PyTorch (x[0, [1, 2]])
    lead = 0
    while lead < len(key) and isinstance(key[lead], numbers.Integral) and not isinstance(key[lead], bool):
        lead += 1
    src = t
    for i in range(lead):
        src = src.select(0, int(key[i]))
    rest = nkey[lead:]
    return OPS["index"](src, key=rest, self_sizes=src._data.shape)


def _index_error_text(err, t, key):
    msg = str(err)
    if "out of bounds" in msg and "axis" in msg:
        # numpy: "index 5 is out of bounds for axis 0 with size 3"
        return msg.replace("axis", "dimension")
    if "boolean index did not match" in msg:
        mask = next(k for k in key if isinstance(k, np.ndarray) and k.dtype == bool)
        return (f"The shape of the mask [{', '.join(map(str, mask.shape))}] at index 0 does not match the shape of "
                f"the indexed tensor [{', '.join(map(str, t._data.shape))}] at index 0")
    return msg


def _check_basic_bounds(t, key):
    dim = 0
    for k in key:
        if k is None:
            continue
        if k is Ellipsis:
            dim = t._data.ndim - sum(1 for kk in key[key.index(Ellipsis) + 1:] if kk is not None)
            continue
        if isinstance(k, numbers.Integral) and not isinstance(k, bool):
            size = t._data.shape[dim]
            if not -size <= k < size:
                raise IndexError(f"index {k} is out of bounds for dimension {dim} with size {size}")
        dim += 1


# --- writing --------------------------------------------------------------------------------------

def _check_inplace_allowed(t, as_view=False):
    if not grad_mode._state["enabled"]:
        return
    base = t._base
    if base is not None and base.grad_fn is None and base._requires_grad:
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE)
    if t.grad_fn is None and t._requires_grad:
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE if as_view else _LEAF_INPLACE)


def _check_view_of_graph(t):
    base = t._base
    if grad_mode._state["enabled"] and base is not None and base.grad_fn is not None:
        raise NotImplementedError(
            "gradlab does not record in-place changes made through a view of a tensor that has a grad_fn "
            "(PyTorch rewrites the base's history here). Write to the base tensor instead, e.g. y[0] = ... "
            "or use an out-of-place operation."
        )


def _adopt(t, result):
    """Make tensor t take result's values (in its own storage) and, if recorded, result's grad_fn."""
    try:
        np.copyto(t._data, result._data, casting="same_kind")
    except TypeError:
        raise RuntimeError(f"result type {_kind_name(result._data.dtype)} can't be cast to the desired output type "
                           f"{_kind_name(t._data.dtype)}") from None
    except ValueError:
        raise RuntimeError(f"output with shape [{', '.join(map(str, t._data.shape))}] doesn't match the broadcast "
                           f"shape [{', '.join(map(str, result._data.shape))}]") from None
    t._version_counter[0] += 1
    node = result.grad_fn
    if node is not None:
        t.grad_fn = node
        t._output_nr = 0
        node._output_ref = weakref.ref(t)
        if node._saved and "result" in node._saved:
            node._save("result", t, is_output=True)    # the saved output is now t (same values)
    return t


def _kind_name(dtype):
    from .._dtype import from_numpy_dtype
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


def run_inplace(t, opkey, args, params):
    """x.add_(y) and friends: compute like the out-of-place op, then write into x."""
    _check_inplace_allowed(t)
    records = grad_mode._state["enabled"] and (
        t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    if records:
        _check_view_of_graph(t)
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
    _check_inplace_allowed(t)
    if grad_mode._state["enabled"] and t.requires_grad:
        _check_view_of_graph(t)
        key = "zero" if value == 0 else "fill"
        result = OPS[key](_stand_in(t, key), value=value)
        return _adopt(t, result)
    t._data[...] = value
    t._version_counter[0] += 1
    return t


def assign_data(t, array):
    """Write freshly drawn values into t (uniform_, normal_): untracked like PyTorch's initialisers."""
    _check_inplace_allowed(t)
    t._data[...] = array
    t._version_counter[0] += 1
    return t


def setitem(t, key, value):
    key = _as_tuple(key)
    if isinstance(value, Tensor) and value._data.dtype.kind == "c" and t._data.dtype.kind != "c":
        raise RuntimeError("value cannot be converted to type float without overflow")
    nkey = _numpy_key(key)
    if not any(_is_advanced(k) for k in key):
        _check_basic_bounds(t, key)
    _check_inplace_allowed(t, as_view=True)
    value_requires = isinstance(value, Tensor) and value.requires_grad
    if grad_mode._state["enabled"] and (t.requires_grad or value_requires):
        _check_view_of_graph(t)
        src = _stand_in(t, "copy_slices")
        val = value if isinstance(value, Tensor) else _py_or_array(value, t)
        if isinstance(val, Tensor) and val._data.dtype != t._data.dtype:
            val = val.to(t._data.dtype)
        result = OPS["copy_slices"](src, val, key=nkey)
        _adopt(t, result)
        return
    v = value._data if isinstance(value, Tensor) else _py_or_array(value, t)
    try:
        t._data[nkey] = v
    except IndexError as e:
        raise IndexError(_index_error_text(e, t, nkey)) from None
    except ValueError:
        vshape = np.shape(v)
        raise RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, vshape))}] cannot be "
                           f"broadcast to indexing result of shape "
                           f"[{', '.join(map(str, t._data[nkey].shape))}]") from None
    t._version_counter[0] += 1


def _py_or_array(value, t):
    if isinstance(value, (numbers.Number, np.generic)):
        return value
    return np.asarray(value, dtype=t._data.dtype)


# zero_/fill_ on a non-leaf: recorded nodes with PyTorch's names
from .registry import op  # noqa: E402


@op("zero", "ZeroBackward0", promote=False,
    self=lambda g, n: g * 0)
def _zero(self, value):
    return np.zeros_like(self)


@op("fill", "FillBackward2", promote=False,
    self=lambda g, n: g * 0)
def _fill(self, value):
    return np.full_like(self, value)
