"""In-place operations: `x.add_(1)`, `x.zero_()`, `x.normal_()`, and the write of `x[key] = v`.

Writing changes the tensor's storage in place and bumps its version counter. When the graph must
know about it, the tensor gets a new grad_fn: the node of the in-place op (or CopySlices for item
assignment), whose input is the tensor's old history.

Views share their base's storage, so a change through one is a change of all (PyTorch's rules):
* writing through a view `v` of `y` (`y[0].mul_(3)`) rewrites the *base's* history: y's grad_fn
  becomes CopySlices, which runs the in-place op's gradient on v's part of y's gradient;
* after any recorded change of `y`, every view of y reads through y's new history: its grad_fn
  becomes AsStridedBackward0 (which picks the view's elements out of y's gradient).
"""
import weakref

import numpy as np

from .._dtype import c32_scalar, cast, category as _category, from_numpy_dtype, half_scalar, real_part
from .._tensor_core import INFERENCE_INPLACE, InferenceVersionCounter, Tensor
from ..autograd import function as _autograd_function, grad_mode, node as _autograd_node
from ..autograd.engine import ZERO_TENSOR_IMMUTABLE
from ..autograd.forward_grads import INPLACE_HOOK as _FORWARD_AD, tangent_of as _tangent_of
from ..autograd.node import Node, record, set_history
from . import dual
from .arithmetic import _real_input
from .formula_text import shows
from .operands import _binary, _check_int_scalar
from .registry import OPS, ORIGINAL_SELF, edge_of, op

_LEAF_INPLACE = "a leaf Variable that requires grad is being used in an in-place operation."
_VIEW_OF_LEAF_INPLACE = "a view of a leaf Variable that requires grad is being used in an in-place operation."
_NO_GRADIENT_EDGE = _autograd_node.NO_GRADIENT_EDGE
_NO_GRAD_VIEW_INPLACE = (
    "A view was created in no_grad mode and is being modified inplace with grad mode enabled. Given that this use "
    "case is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view and the "
    "inplace either both inside the no_grad block (if you don't want the inplace to be tracked) or both outside (if "
    "you want the inplace to be tracked).")

_CUSTOM_VIEW_INPLACE = (
    "Output {0} of {1} is a view and is being modified inplace. This view was created inside a custom Function (or "
    "because an input was returned as-is) and the autograd logic to handle view+inplace would override the custom "
    "backward associated with the custom Function, leading to incorrect gradients. This behavior is forbidden. You "
    "can fix this by cloning the output of the custom Function.")

_MULTI_OUTPUT_INPLACE = (" This view is the output of a function that returns multiple views. Such functions do not "
                         "allow the output views to be modified inplace. You should replace the inplace operation by "
                         "an out-of-place one.")


def _check_inplace_allowed(t, as_view=False, view_name=None):
    if getattr(t, "_zerotensor", False):
        raise RuntimeError(ZERO_TENSOR_IMMUTABLE)
    # (an inference tensor changed outside inference_mode: PyTorch writes first, and its version bump, after the
    # kernel, raises INFERENCE_INPLACE: so does InferenceVersionCounter's, once the op has written)
    if not grad_mode._state["enabled"]:
        return
    multi = getattr(t, "_multi_output", None)          # an output of unbind or split (see _tensor_methods/shape.py)
    if multi is not None and t.requires_grad:
        # (a view of such a view inherits the rule; the message names the view's own node)
        name = _autograd_node.short_name(t.grad_fn.name()) if t.grad_fn is not None else multi[0]
        nr = t._output_nr
        if view_name is not None:               # `t[0] = 1`: PyTorch checks the Select view it writes through
            name, nr = view_name, 0
        raise RuntimeError(f"Output {nr} of {name} is a view and is being modified inplace. This view is "
                           "the output of a function that returns multiple views. Such functions do not allow the "
                           "output views to be modified inplace. You should replace the inplace operation by an "
                           "out-of-place one.")
    custom = t.__dict__.get("_custom_view") if t.__dict__ else None
    if custom is not None and t.requires_grad:
        raise RuntimeError(_CUSTOM_VIEW_INPLACE.format(*reversed(custom)))
    if t._base is not None and (t._requires_grad or t._grad_fn is not None) and t.__dict__.get("_no_grad_view"):
        # a view made under no_grad (its creation, kept by Tensor._view_of), whatever its own flag
        if t.__dict__["_no_grad_view"] == "multi":        # (an output of unbind/split: _multi_output_views)
            raise RuntimeError(_NO_GRAD_VIEW_INPLACE.split(" Given")[0] + _MULTI_OUTPUT_INPLACE)
        raise RuntimeError(_NO_GRAD_VIEW_INPLACE)
    base = t._base
    # (PyTorch's check_inplace asks only that the view requires grad and its base is a leaf: a base that does not
    # require grad itself, when the view of it was made to require grad and viewed again, counts too)
    if base is not None and base.grad_fn is None and (base._requires_grad or t.requires_grad):
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE)
    if t.grad_fn is None and t._requires_grad:
        # (a view made to require grad itself, `arange(6.).reshape(2, 3).requires_grad_()`: its base is a leaf,
        # which is all PyTorch's check_inplace asks of a view's base)
        raise RuntimeError(_VIEW_OF_LEAF_INPLACE if as_view or (base is not None and base.grad_fn is None)
                           else _LEAF_INPLACE)


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
    if node is None:
        view._grad_fn = None
        view._output_nr = 0
    else:
        multi = getattr(view, "_multi_output", None)
        made = view.__dict__.get("_no_grad_view") if view._base is not None else None
        old = view._grad_fn
        if type(old) is MultiOutputViewChanged:
            message = old.message
        elif multi is not None:    # an output of unbind/split can not read through: PyTorch refuses to use it
            # (a view of such an output: PyTorch's message names the view's own node)
            message = _autograd_node._MULTI_OUTPUT_CHANGED.format(
                *multi if old is None else (_autograd_node.short_name(old.name()), view._output_nr))
        elif made:                 # nor can a view made under no_grad
            message = _NO_GRAD_VIEW_CHANGED + (_MULTI_OUTPUT_INPLACE if made == "multi" else _NO_GRAD_VIEW_INPLACE[
                _NO_GRAD_VIEW_INPLACE.index(" Given"):])
        else:
            set_history(node, view)
            _keep_retained_grad(view)
            return
        set_history(MultiOutputViewChanged(message, node.next_functions), view)
        if type(view) is Tensor:   # (reading its grad_fn raises, as PyTorch's does: see UnreadableView)
            view.__dict__["_unreadable"] = message
            view.__class__ = UnreadableView


_NO_GRAD_VIEW_CHANGED = ("A view was created in no_grad mode and its base or another view of its base has been "
                         "modified inplace with grad mode enabled.")


class MultiOutputViewChanged(Node):
    """The history of a view that may not read through its changed base (an output of unbind or split, a view made
    under no_grad): PyTorch raises as soon as it is used (gradlab: when its grad_fn is read, see UnreadableView, or a
    backward reaches it, or reads it as a saved tensor)."""

    def __init__(self, message, edges):
        super().__init__()
        self.next_functions = edges         # (the base's history: the leaves are still reached)
        self.message = message

    def apply(self, grad_outputs, as_arrays=False):
        raise RuntimeError(self.message)


class UnreadableView(Tensor):
    """A view that MultiOutputViewChanged describes. PyTorch compares a view's version with its own each time its
    grad_fn is read, and here refuses to make it a new one: reading grad_fn (and so is_leaf, printing) raises. Its
    class is changed to this one then, so that every other tensor's grad_fn stays a plain slot read."""
    __slots__ = ()

    @property
    def grad_fn(self):
        raise RuntimeError(self.__dict__["_unreadable"])


UnreadableView.__module__ = Tensor.__module__
UnreadableView.__qualname__ = UnreadableView.__name__ = "Tensor"     # (its type's name, as any tensor's)


def _keep_retained_grad(t):
    """retain_grad() follows the tensor to its new grad_fn, as in PyTorch."""
    if t._retains_grad:
        t.retain_grad()


class CopySlices(Node):
    """The base's new grad_fn after an in-place op through one of its views (PyTorch's CopySlices).

    `fn` is the in-place op's own node (MulBackward0 for `v.mul_(3)`). Backward takes the base's
    gradient, runs fn's gradient on the view's part of it, and puts the result back there; fn's
    other inputs (the `w` of `v.mul_(w)`) get their gradients as this node's other slots."""

    def __init__(self, fn, positions):
        super().__init__()
        self._fn = fn
        self._positions = positions
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


def _make_writable(t):
    """A read-only numpy broadcast that repeats no element (a gradient a hook receives, sum's expand of a 0-d
    one) is memory PyTorch lets in-place ops write: t gets a writable view of the same memory, if its owner
    is writable. (An expanded t, whose elements share memory, stays read-only: PyTorch refuses it too.)"""
    a = t._data
    if any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape)):
        return
    root = _writable_owner(a)
    if root is None:
        return
    offset = a.__array_interface__["data"][0] - root.__array_interface__["data"][0]
    if not root.flags.writeable or root.dtype != a.dtype or offset < 0 or offset % a.itemsize:
        return
    as_strided = np.lib.stride_tricks.as_strided
    start = as_strided(root, shape=(offset // a.itemsize + 1,), strides=(a.itemsize,))[offset // a.itemsize:]
    t._data = as_strided(start, shape=a.shape, strides=a.strides)


def _copy_into(t, result):
    if not t._data.size and not np.can_cast(result._data.dtype, t._data.dtype, casting="same_kind") and not (
            result._data.dtype.kind in "iu" and t._data.dtype.kind in "iu"):
        # (nothing to write, but the result type is still checked; numpy refuses any write into an empty
        # expanded view, which is read-only)
        raise RuntimeError(f"result type {_kind_name(result._data.dtype)} can't be cast to the desired output "
                           f"type {_kind_name(t._data.dtype)}")
    if not t._data.size:
        return
    if not t._data.flags.writeable:
        _make_writable(t)
    if t._data.dtype.kind == "V" or result._data.dtype.kind == "V":     # (complex32: converted by cast)
        if _category(result._data.dtype) > _category(t._data.dtype):
            raise RuntimeError(f"result type {_kind_name(result._data.dtype)} can't be cast to the desired output "
                               f"type {_kind_name(t._data.dtype)}")
        t._data[...] = cast(result._data, t._data.dtype)
        return
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
        if not grad_mode._state["enabled"]:
            _untracked_change(t)
        _changed_through_alias(t)
        return t
    if type(node) is _autograd_node.NoDerivative and not node._op_name.endswith("_"):
        node._op_name += "_"              # (written in place: PyTorch names aten's in-place op, floor_divide_)
    root = t._base
    saves_result = node._saved and "result" in node._saved
    if root is None:
        set_history(node, t)
        if saves_result:    # (after set_history: the saved output is output 0 of node, as t now is)
            node._save("result", t, is_output=True)
        _keep_retained_grad(t)
        _refresh_views(t)
    else:                                 # written through a view: the base's history changes
        if saves_result:
            # the saved output is now t (same values): the view itself, which reads through the base's new
            # history (a graph of the gradient must go through it)
            node._save("result", t, is_output=False)
        # slot 0 is the base's old history; fn's other inputs (the `w` of `v.mul_(w)`) keep their edges
        wrapper = CopySlices(node, view_positions(t, root))
        record(wrapper, None, root, edges=(edge_of(root),) + tuple(node.next_functions[1:]))
        _keep_retained_grad(root)
        _refresh_views(root, written=t)
        if node._saved and "result" in node._saved and t._grad_fn is not None:
            # PyTorch's saved output of an in-place op on a view keeps the view's grad_fn of now, weakly: its
            # version error names it while it lives (see SavedTensor._version_message)
            node._saved["result"].view_fn = weakref.ref(t._grad_fn)
    return t


def _untracked_change(t):
    """A change in place that records nothing (under no_grad, or through a detached alias): PyTorch gives the
    views of a base that requires grad (a leaf too) a fresh history read from the base (AsStridedBackward0),
    as after a recorded change, the next time it looks at them (its view's grad_fn compares versions)."""
    root = t._base if t._base is not None else t
    if (root.grad_fn is None and not root._requires_grad) or (t is root and not root._views):
        return
    state = grad_mode._state
    previous = state["enabled"]
    state["enabled"] = True
    try:
        _refresh_views(root, written=None if t is root else t)
    finally:
        state["enabled"] = previous


def after_untracked_write(t):
    """t was written without recording a node: its views, or its detached source's, read through the base."""
    if not grad_mode._state["enabled"] and (t._base is not None or t._views):
        _untracked_change(t)
    _changed_through_alias(t)


def _changed_through_alias(t):
    """t (or the tensor t is a view of) is x.detach(), which shares x's storage and version counter: a change
    of it is an untracked change of x (`.data` shares no version counter: it changes nothing here)."""
    root = t._base if t._base is not None else t
    source = getattr(root, "_detached_of", None)
    if source is not None:
        source = source()
        if source is not None:
            _untracked_change(source)


def _dirty_history(t, node, output_nr, inputs):
    """A custom Function changed t in place (ctx.mark_dirty) and node now produces it: a view's base reads
    through CopySlices(node), and views see the new history (PyTorch's rebase_history)."""
    root = t._base
    if root is None:
        _refresh_views(t)
        return
    if output_nr != 0 or not inputs or inputs[0] is not t:
        return      # (CopySlices runs node's gradient for output 0 and input 0: the usual dirty Function)
    wrapper = CopySlices(node, view_positions(t, root))
    record(wrapper, None, root, edges=(edge_of(root),) + tuple(node.next_functions[1:]))
    _keep_retained_grad(root)
    _refresh_views(root, written=t)


_autograd_function.DIRTY_HISTORY.append(_dirty_history)


def _kind_name(dtype):
    return from_numpy_dtype(dtype)._legacy[:-len("Tensor")]


def _stand_in(t, opkey):
    """A tensor standing for t's value before the in-place change: same history, own storage when
    the op saves its input (so that the saved value is the old one)."""
    op = OPS[opkey]
    data = t._data.copy(order="K") if "self" in op.saves else t._data     # (laid out as t: PyTorch clones it)
    s = Tensor._make(data, t.grad_fn, t._output_nr)
    s._requires_grad = t._requires_grad
    s._accumulator = t._accumulator
    if data.dtype.kind not in "fc" and (s.grad_fn is not None or s._requires_grad):
        s._stands_in = True     # (an integer tensor's in-place op still records: registry's _integer_history)
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


def overlaps(t, other):
    """PyTorch's assert_no_overlap test (index_put_'s): both dense and sharing memory, laid out alike or not."""
    a, b = t._data, other._data
    if not a.size or not b.size or not np.may_share_memory(a, b) or not (_dense(a) and _dense(b)):
        return False
    a_begin, b_begin = a.__array_interface__["data"][0], b.__array_interface__["data"][0]
    return a_begin < b_begin + b.nbytes and b_begin < a_begin + a.nbytes


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


_NO_OVERLAP_OPS = {"index_add_alpha", "index_copy"}
# in-place ops refusing a complex self before anything else (abs_: its result would not be complex)
_COMPLEX_INPLACE = {"abs": (RuntimeError, "In-place abs is not supported for complex tensors."),
                    "floor": (NotImplementedError, "floor is not supported for complex inputs"),
                    "ceil": (NotImplementedError, "ceil is not supported for complex inputs"),
                    "trunc": (NotImplementedError, "trunc is not supported for complex inputs"),
                    "sign": (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                                  "Please use torch.sgn instead.")}
_FILL_VALUE_OPS = {"masked_fill_tensor", "index_fill_tensor", "fill_tensor"}


def run_inplace(t, opkey, args, params):
    """x.add_(y) and friends: compute like the out-of-place op, then write into x."""
    if _FORWARD_AD[0] is not None:      # inside forward_ad.dual_level: the tangent changes in place too
        return _FORWARD_AD[0](t, opkey, args, params)
    _check_inplace_allowed(t)             # (autograd's checks come first, as in PyTorch)
    check = OPS[opkey].check
    if check is not None:                 # (the op's own checks come before TensorIterator's overlap check)
        check(t, *args)
    refusal = _COMPLEX_INPLACE.get(opkey) if t._data.dtype.kind in "cV" else None
    if refusal is not None:               # (so do their refusals of a complex self)
        raise refusal[0](refusal[1])
    # (a fill's 0-d value is read as a number, value.item(), before anything is written: no overlap to check)
    check_overlaps(t, () if opkey in _FILL_VALUE_OPS else args)
    if opkey in _NO_OVERLAP_OPS:          # (their assert_no_overlap refuses the same memory laid out alike too)
        for a in args:
            if isinstance(a, Tensor) and overlaps(t, a):
                raise RuntimeError(_PARTIAL_OVERLAP)
    data = t._data
    records = grad_mode._state["enabled"] and (
        t.requires_grad or any(isinstance(a, Tensor) and a.requires_grad for a in args))
    if records:
        stand_in = _stand_in(t, opkey)
        if "self" in OPS[opkey].saves and t.requires_grad:
            # what the op saves for self: PyTorch's original_self = self.clone() (CloneBackward0)
            ORIGINAL_SELF[id(stand_in)] = OPS["clone"](stand_in)
            try:
                result = _call(opkey, stand_in, args, params)
            finally:
                ORIGINAL_SELF.clear()
        else:
            result = _call(opkey, stand_in, args, params)
    elif _write_in_place(t, opkey, args, params):
        t._version_counter[0] += 1
        if not grad_mode._state["enabled"] and (t._base is not None or t._views):
            _untracked_change(t)
        _changed_through_alias(t)
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


def write_untracked(t, ufunc, other):
    """`p -= lr * p.grad` under no_grad (an optimizer's step), the common case in one step: two float
    tensors of one dtype and shape, each owning its memory (no view: nothing can overlap). Then every
    check of run_inplace passes and _write_in_place computes into t: this does just that. Returns t,
    or None for anything else (the caller takes the general path)."""
    if other.__class__ is not Tensor or grad_mode._state["enabled"]:
        return None
    data, o = t._data, other._data
    if (data.dtype.kind != "f" or o.dtype != data.dtype or o.shape != data.shape or data.base is not None
            or o.base is not None or getattr(t, "_zerotensor", False) or not data.flags.writeable):
        return None
    ufunc(data, o, out=data)
    t._version_counter[0] += 1
    return t


def _call(opkey, t, args, params):
    if opkey in ("add", "sub", "mul", "div", "pow", "maximum", "minimum"):
        return _binary(opkey, t, args[0], **params)
    return OPS[opkey](t, *args, **params)


def _zero_tangent(t):
    """Inside forward_ad.dual_level, new values that do not depend on t (a fill, random numbers) leave t's
    tangent zero, changed in place as PyTorch does (a view's tangent is part of its base's)."""
    tangent = _tangent_of(t)
    if tangent is not None:
        tangent.zero_()


def fill_inplace(t, value):
    """x.zero_(), x.fill_(v): on a non-leaf the new grad_fn is PyTorch's ZeroBackward0/FillBackward2."""
    value = scalar_for(t, value)
    _check_inplace_allowed(t)
    _zero_tangent(t)
    if grad_mode._state["enabled"] and t.requires_grad:
        key = "zero" if value == 0 else "fill"
        result = OPS[key](_stand_in(t, key), value=value)
        return _adopt(t, result)
    data = t._data
    if data.dtype.kind == "V":
        value = c32_scalar(value)       # (complex32: a structured element, both parts written)
    if data.flags.writeable:
        data[...] = value
    elif (t._base is None and not t._views and data.ndim and all(st == 0 for st in data.strides)
          and _writable_owner(data) is None):
        # one number seen at every position, owned by no other tensor (the gradient autograd.grad gives
        # for x.sum()): PyTorch fills that one memory location; here it becomes a fresh one
        data = np.ndarray(data.shape, data.dtype, np.full(1, value, data.dtype), 0, data.strides)
        t._data = data
    else:                          # an expanded view (numpy's are read-only): PyTorch fills its memory
        _write_through_base(t, Ellipsis, value)
    t._version_counter[0] += 1
    after_untracked_write(t)
    return t


def assign_data(t, array, op_key=None):
    """Write freshly drawn values into t (uniform_, normal_). On a tensor that requires grad (not a
    leaf: those refuse) PyTorch records the op (`op_key`: NormalBackward0, UniformBackward0), through
    which no gradient flows; anywhere else (nn.init, under no_grad) it is untracked."""
    _check_inplace_allowed(t)
    _zero_tangent(t)
    if op_key is not None and grad_mode._state["enabled"] and t.requires_grad and not any(
            st == 0 and n > 1 for st, n in zip(t._data.strides, t._data.shape)):
        return _adopt(t, OPS[op_key](_stand_in(t, op_key), values=np.asarray(array, t._data.dtype)))
    if not t._data.size:                 # nothing to write (an empty expanded tensor overlaps nothing)
        t._version_counter[0] += 1
        return t
    if t._data.flags.writeable:
        t._data[...] = array
    elif any(st == 0 and n > 1 for st, n in zip(t._data.strides, t._data.shape)):
        raise RuntimeError(_OVERLAP)               # (PyTorch's random kernels refuse an expanded tensor)
    else:                          # (read-only but one element per memory location: a numpy broadcast view)
        _write_through_base(t, Ellipsis, array)
    t._version_counter[0] += 1
    after_untracked_write(t)
    return t


def _write_through_base(t, key, value):
    root = t._base if t._base is not None else t
    if not root._data.flags.writeable:
        # (a detached expanded tensor is no view of a tensor: its memory is the numpy array it broadcasts)
        owner = _writable_owner(root._data)
        if owner is not None:
            root = _Memory(owner)
    values = np.array(t._data, copy=True)
    values[key] = value
    written = np.zeros(t._data.shape, bool)
    written[key] = True
    root._data.flat[view_positions(t, root)[written]] = values[written]


def _writable_owner(data):
    """The writeable numpy array owning the memory a read-only view (an expanded tensor's) shows, or None."""
    owner = data
    while owner.base is not None:
        below = owner.base
        if not isinstance(below, np.ndarray):     # (numpy's as_strided/broadcast_to keep theirs in a DummyArray)
            below = getattr(below, "base", None)
            if not isinstance(below, np.ndarray):
                break                             # (memory numpy does not own: a buffer)
        owner = below
    return owner if owner.flags.writeable else None


class _Memory:
    """A numpy array standing where view_positions reads a tensor's `_data`."""
    def __init__(self, array):
        self._data = array


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
    if huge_ints and value.__class__ is int and not -2 ** 63 <= value < 2 ** 63:
        raise ValueError("Overflow when unpacking long long")     # (item assignment reads a long long)
    _check_int_scalar(value)                                     # (a Scalar argument: up to 64 bits)
    if isinstance(value, complex) and kind not in "cV":
        if kind == "b":                      # (a complex number is true when nonzero)
            return bool(value)
        if value.imag:                       # (item assignment converts a Half's value through double)
            c_name = "double" if huge_ints and kind == "f" and t._data.dtype.itemsize == 2 else _c_name(t)
            raise RuntimeError(f"value cannot be converted to type {c_name} without overflow")
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
    if value.__class__ is float and t._data.dtype == np.float16:
        return half_scalar(value)
    return value


# zero_/fill_ on a non-leaf: recorded nodes with PyTorch's names

@shows("zeros_like(grad)")
def _no_gradient(g, n):
    """zeros, not recorded (PyTorch's zeros_like(grad)): nothing flows back through a fill"""
    return dual.like(g, np.zeros_like(dual.data(g)))


@op("zero", "ZeroBackward0", variants=("inplace",), promote=False,
    self=_no_gradient)
def _zero(self, value):
    return np.zeros_like(self)


@op("fill", "FillBackward2", variants=("function", "inplace"), promote=False,   # (torch.fill: _functions/shape.py)
    self=_no_gradient)
def _fill(self, value):
    return np.full_like(self, value)


@op("normal_", "NormalBackward0", variants=("method",), promote=False, saved_params=(),
    self=_no_gradient)
def _normal_(self, values):
    """self.normal_() on a tensor that requires grad: the drawn `values` (see assign_data)."""
    return np.array(values, dtype=self.dtype)


@op("uniform_", "UniformBackward0", variants=("method",), promote=False, saved_params=(),
    self=_no_gradient)
def _uniform_(self, values):
    """self.uniform_() on a tensor that requires grad: the drawn `values` (see assign_data)."""
    return np.array(values, dtype=self.dtype)


# torch.normal with tensor arguments (creation/sampling.py draws the values): PyTorch records the overload's node,
# whose gradients are zeros
@op("normal_Tensor_float", "NormalBackward1", ("mean",), promote=False, cast_result=False, saved_params=(),
    mean=_no_gradient)
def _normal_tensor_float(mean, values):
    return values


@op("normal_float_Tensor", "NormalBackward2", ("std",), promote=False, cast_result=False, saved_params=(),
    std=_no_gradient)
def _normal_float_tensor(std, values):
    return values


@op("normal_Tensor_Tensor", "NormalBackward3", ("mean", "std"), promote=False, cast_result=False, saved_params=(),
    mean=_no_gradient, std=_no_gradient)
def _normal_tensor_tensor(mean, std, values):
    return values


def _random_fill_row(key, name, variants=()):
    """An in-place random fill on a tensor that requires grad (x.bernoulli_(0.5)): the drawn values, no
    gradient through them, PyTorch's node name."""
    @op(key, name, promote=False, saved_params=(), variants=variants, self=_no_gradient)
    def fill(self, values):
        return np.array(values, dtype=self.dtype)
    return fill


# (random_ and bernoulli_ choose between their rows; the other rows are named as the method is)
for _key, _name in (("random_2", "RandomBackward2"), ("random_1", "RandomBackward1"), ("random_0", "RandomBackward0"),
                    ("bernoulli_2", "BernoulliBackward2"), ("bernoulli_1", "BernoulliBackward1"),
                    ("bernoulli_0", "BernoulliBackward0")):     # (bernoulli_0: torch.bernoulli(x), out of place)
    _random_fill_row(_key, _name)
for _key, _name in (("exponential_", "ExponentialBackward0"), ("geometric_", "GeometricBackward0"),
                    ("cauchy_", "CauchyBackward0"), ("log_normal_", "LogNormalBackward0")):
    _random_fill_row(_key, _name, variants=("method",))
del _key, _name


@op("fill_tensor", "FillBackward3", ("self", "value"), promote=False, shows={"value": "grad.sum()"},
    self=_no_gradient,
    # (grad.sum(): SumBackward0 in a graph of the gradient; on arrays the node sums g to the value's shape)
    value=lambda g, n: _real_input(g.sum() if isinstance(g, Tensor) else g, n, 1))
def _fill_tensor(self, value):
    return np.full_like(self, real_part(value, self.dtype))


@op("copy", "CopyBackwards", ("self", "src"), variants=("inplace",), promote=False,
    self=_no_gradient,
    src=lambda g, n: g)
def _copy(self, src):
    while src.ndim > self.ndim and src.shape[0] == 1:      # (leading 1s of the value are dropped)
        src = src[0]
    return np.array(np.broadcast_to(src, self.shape), dtype=self.dtype)
