"""Tensor's indexing (`t[i]`, `t[i] = v`) and in-place methods (`add_`, `fill_`, `copy_`, `+=`, `clamp_`, ...):
each checks what PyTorch checks, changes the array and bumps the version counter. The plain in-place
forms of the op table's rows (`exp_`, `sin_`, ...) are made by _tensor_methods/variants.py; they, too,
go through `_inplace` below."""
import numbers

import numpy as np

from .. import _device, _dtype
from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..autograd.node import Node, record
from ..ops import OPS, indexing as _indexing
from ..ops.indexing import fill_inplace, setitem
from ..ops.inplace import _check_inplace_allowed, after_untracked_write, write_untracked
from ..ops.operands import _SCALARS, _check_arguments, _check_int_scalar, _kind, _number, _py, broadcast_error
from ._common import (_NO_ROUNDING, _OPERANDS, _argument_type_name, _c_type, _check_exponent, _check_fill_value,
                      _check_operand, _check_sub, _check_complex_clamp, _check_tensor_argument, _clamp_bounds, _lifted,
                      _wrapped)
from .operators import _check_heaviside
from .pointwise import _check_complex_fill
from .pointwise import _check_ldexp, _check_nextafter, _check_polygamma
from .. import _warnings


_CATEGORY = {bool: 0, int: 1, float: 2, complex: 3}     # (the widest bound decides clamp_'s type)


class _InPlaceMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- indexing -------------------------------------------------------------------------------
    def __getitem__(self, key):
        return _indexing.getitem(self, key)

    def __setitem__(self, key, value):
        _indexing.setitem(self, key, value)

    # --- in-place operations --------------------------------------------------------------------
    def _inplace(self, opkey, *args, **params):
        if opkey in _RESULT_CHECKED:            # x.add_(y): the result must fit x (see _check_inplace_result)
            _check_inplace_result(self, opkey, args[0] if args else params.get("exponent"), params.get("alpha", 1))
        return _indexing.run_inplace(self, opkey, args, params)

    # (add_, sub_, mul_ are the op table's plain in-place forms: made by _tensor_methods/variants.py)

    def div_(self, other, *, rounding_mode=_NO_ROUNDING):
        if rounding_mode is _NO_ROUNDING:
            return self._inplace("div", other)
        _indexing._check_inplace_allowed(self)        # (autograd's check first, then the mode, as in PyTorch)
        if rounding_mode is not None and rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        _check_inplace_result(self, "div" if rounding_mode is None else "div_rounding", other)
        return _indexing.run_inplace(self, "div_rounding", (other,), {"rounding_mode": rounding_mode})

    def pow_(self, exponent):
        if isinstance(exponent, Tensor):
            return self._inplace("pow", exponent)
        return self._inplace("pow_scalar", exponent=exponent)

    def square_(self, *args, **kwargs):
        """x.square_(): PyTorch's pow_(2) (PowBackward0; a bool tensor can not hold the Long result)."""
        if kwargs:
            raise TypeError("TensorBase.square_() takes no keyword arguments")
        if args:
            raise TypeError(f"TensorBase.square_() takes no arguments ({len(args)} given)")
        if self._data.dtype == np.bool_:
            raise RuntimeError("result type Long can't be cast to the desired output type Bool")
        return self.pow_(2)

    def clamp_(self, min=None, max=None):
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            _check_arguments("clamp_", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                     ("Number min = None", "Number max = None")])
            _check_complex_clamp(self, None, None)     # (a complex bound: the result type's cast error below)
            return self._inplace("clamp_tensor", *_clamp_bounds(self, min, max))
        _check_arguments("clamp_", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                 ("Number min = None", "Number max = None")])
        if min is None and max is None:
            _check_inplace_allowed(self)           # (autograd's check comes before the kernel's, as in PyTorch)
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        _check_complex_clamp(self, min, max)
        # clamp's own check of the result type of self and both bounds, before the overlap check
        bounds = sorted((_py(b) for b in (min, max) if b is not None), key=lambda b: _CATEGORY.get(type(b), 0))
        self._check_lifted(bounds[-1])
        return self._inplace("clamp", min=_py(min), max=_py(max))

    def zero_(self):
        return fill_inplace(self, 0)

    def fill_(self, value):
        if isinstance(value, Tensor):            # (a 0-d tensor: FillBackward3, its value gets a gradient)
            if value._data.ndim:
                _check_inplace_allowed(self)
                raise RuntimeError(f"fill_ only supports 0-dimension value tensor but got tensor with "
                                   f"{value._data.ndim} dimensions.")
            return self._inplace("fill_tensor", value)
        return fill_inplace(self, _py(value))

    def copy_(self, src, non_blocking=False):      # (non_blocking: nothing to overlap on a CPU)
        if type(non_blocking) is not bool:
            raise TypeError(f"copy_(): argument 'non_blocking' (position 2) must be bool, not "
                            f"{_argument_type_name(non_blocking)}")
        if getattr(self, "_zerotensor", False):
            raise RuntimeError(_indexing._ZERO_TENSOR_COPY)
        _indexing._check_inplace_allowed(self)      # (autograd's checks before the kernel's overlap check)
        if isinstance(src, Tensor) and src.is_meta != self.is_meta:
            if src.is_meta:
                raise NotImplementedError(_device.META_NO_DATA)
            return self.copy_(src.to("meta"), non_blocking)
        if isinstance(src, np.generic):     # (a number to PyTorch, as to its parser: np.float32 too)
            src = src.item()
        if isinstance(src, (bool, int, float, complex)):
            # PyTorch's parser makes a number a 0-d tensor (int64, float64, complex128), which copy_ then casts:
            # 300 wraps into uint8, 3j gives its real part (with the cast's warning)
            _check_int_scalar(src)
            src = Tensor._make(np.array(src))
        if isinstance(src, Tensor) and not (self.requires_grad or src.requires_grad) and _same_data(self, src):
            self._version_counter[0] += 1     # (PyTorch's copy_ returns at once: the same memory, laid out alike)
            _indexing.after_untracked_write(self)       # (a change all the same: views read through their base)
            return self
        if isinstance(src, Tensor) and src is not self:
            # PyTorch's copy_ is a TensorIterator with self as its output: overlaps, then shapes
            _indexing.check_overlaps(self, (src,))
            shape, src_shape = self._data.shape, src._data.shape
            if src_shape != shape:
                try:
                    common = np.broadcast_shapes(shape, src_shape)
                except ValueError:
                    raise broadcast_error(shape, src_shape) from None
                if common != shape:
                    raise RuntimeError(f"output with shape {list(shape)} doesn't match the broadcast shape "
                                       f"{list(common)}")
        setitem(self, Ellipsis, src, copy=True)
        return self

    def masked_fill_(self, mask, value):
        mask, value = self._masked_fill_args(mask, value, inplace=True)
        _indexing._check_inplace_allowed(self)      # (autograd's checks before the kernel's)
        if self._is_expanded():
            return self._fill_expanded("masked_fill_", 2450, np.broadcast_to(mask, self._data.shape), value)
        if isinstance(value, Tensor):
            return self._inplace("masked_fill_tensor", value, mask=mask)
        return self._inplace("masked_fill", mask=mask, value=value)

    def clamp_min_(self, min):
        _check_arguments("clamp_min_", (min,), [("Tensor min",), ("Number min",)])
        if isinstance(min, Tensor):
            return self._inplace("clamp_min_tensor", min)
        if self._data.dtype.kind in "cV" or isinstance(_py(min), complex):     # (before the result type's check)
            raise NotImplementedError("clamp is not supported for complex types")
        self._check_lifted(_py(min))
        return self._inplace("clamp_min", min=_py(min))

    def clamp_max_(self, max):
        _check_arguments("clamp_max_", (max,), [("Tensor max",), ("Number max",)])
        if isinstance(max, Tensor):
            return self._inplace("clamp_max_tensor", max)
        if self._data.dtype.kind in "cV" or isinstance(_py(max), complex):     # (before the result type's check)
            raise NotImplementedError("clamp is not supported for complex types")
        self._check_lifted(_py(max))
        return self._inplace("clamp_max", max=_py(max))

    def _is_expanded(self):
        """An expanded view (stride 0 along a dim of size > 1) that records no graph (and holds an element: an
        empty one overlaps nothing)."""
        return (self._data.size and not self._data.flags.writeable and not self._requires_grad
                and any(st == 0 and n > 1 for st, n in zip(self._data.strides, self._data.shape)))

    def _fill_expanded(self, name, line, mask, value):
        """PyTorch still fills an expanded tensor's shared memory here, with a deprecation warning."""
        _warnings.warn(f"Use of {name} on expanded tensors is deprecated. Please clone() the tensor before performing "
                       "this operation. This also applies to advanced indexing e.g. tensor[mask] = scalar (Triggered "
                       f"internally at /__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:{line}.)",
                       UserWarning)
        _indexing._write_through_base(self, mask, value._data if isinstance(value, Tensor) else value)
        self._version_counter[0] += 1
        after_untracked_write(self)       # (a detached view's source reads through its base from now on)
        return self

    def _check_lifted(self, scalar):
        """An in-place op cannot turn an int tensor into a float one (x.clamp_min_(0.5) of int x)."""
        lifted = _lifted(self, scalar)
        if lifted is not self:
            raise RuntimeError(f"result type {_kind(lifted)} can't be cast to the desired output type {_c_type(self)}")

    # --- writing at flat positions or index tensors: put_, index_put_ ------------------------------
    def put_(self, index, source, accumulate=False):
        """self.flatten()[index] = source (or += with accumulate), PyTorch's checks in its order."""
        _check_inplace_allowed(self)
        key = _put_key(self, index, source)
        if not index._data.size:
            return self
        return self._inplace("put_positions_add" if accumulate else "put_positions", source, key=key)

    def put(self, index, source, accumulate=False):
        """Out of place: PyTorch's put is a clone put_ into, but its node (PutBackward0) takes self itself."""
        key = _put_key(self, index, source)
        return OPS["put_positions_add" if accumulate else "put_positions"](self, source, key=key)

    def index_put_(self, indices, values, accumulate=False):
        """self[indices] = values (or += with accumulate): indexing with a tuple of index tensors."""
        indices = _index_put_indices(self, indices, values, accumulate)
        if not accumulate:
            setitem(self, indices, values)
            return self
        _check_inplace_allowed(self)
        values, key = _accumulated(self, indices, values)
        return self._inplace("index_put_accumulate", values, key=key)

    def index_put(self, indices, values, accumulate=False):
        """Out of place: a clone written into, recorded as one IndexPutBackward0 of self and values."""
        indices = _index_put_indices(self, indices, values, accumulate)
        if accumulate:
            values, key = _accumulated(self, indices, values)
            return OPS["index_put_accumulate"](self, values, key=key)
        written = Tensor._make(self._data.copy())
        with grad_mode.no_grad():
            setitem(written, indices, values.detach())       # (setitem's checks, and the values written)
        written._version_counter[0] = 0                      # (a new tensor: PyTorch's out-of-place result)
        if not (grad_mode._state["enabled"] and (self.requires_grad or values.requires_grad)):
            return written
        v = values._data
        while v.ndim and v.shape[0] == 1:
            v = v[0]
        return OPS["index_put_values"](self, values.reshape(v.shape) if v.shape != values._data.shape else values,
                                key=_indexing.numpy_key(indices))

    def index_fill_(self, dim, index, value):
        """In-place index_fill (IndexFillBackward0 when recorded)."""
        _check_arguments("index_fill_", (dim, index, value), [("int dim", "Tensor index", "Tensor value"),
                                                               ("int dim", "Tensor index", "Number value")])
        _check_fill_value(value)
        _check_complex_fill(self, value, index)
        if self._is_expanded():
            return self._fill_expanded("index_fill_", 1913, self._index_fill_mask(dim, index), _py(value))
        fill = _indexing.scalar_for(self, _py(value))            # (wraps, or PyTorch's error; a tensor's item too)
        mask = self._index_fill_mask(dim, index)                 # (the indices after the value)
        if isinstance(value, Tensor):
            return self._inplace("index_fill_tensor", value, mask=mask, fill=fill)
        return self._inplace("index_fill", mask=mask, value=fill)

    def lerp_(self, end, weight):
        _check_arguments("lerp_", (end, weight), [("Tensor end", "Tensor weight"), ("Tensor end", "Number weight")])
        _indexing._check_inplace_allowed(self)      # (autograd's checks before the kernel's)
        self._check_lerp(end, weight, inplace=True)
        if isinstance(weight, Tensor):
            return self._inplace("lerp_tensor", end, weight)
        return self._inplace("lerp", end, weight=_py(weight))

    # `t += x` works in place for what the operators take; for anything else Python falls back to
    # `t = t + x` (numpy computes it for an array, as with PyTorch)
    # (write_untracked first takes an optimizer's `p -= lr * p.grad` under no_grad straight into p's memory)
    def __iadd__(self, other):
        if write_untracked(self, np.add, other) is not None:
            return self
        return self.add_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __isub__(self, other):
        if write_untracked(self, np.subtract, other) is not None:
            return self
        return self.sub_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __imul__(self, other):
        if write_untracked(self, np.multiply, other) is not None:
            return self
        return self.mul_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __itruediv__(self, other):
        if write_untracked(self, np.true_divide, other) is not None:
            return self
        return self.div_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def __ipow__(self, exponent):
        return self.pow_(exponent) if isinstance(exponent, _OPERANDS) else NotImplemented

    def heaviside_(self, values):
        """Checked as heaviside's meta function checks its output (self), computed out of place, written in."""
        _check_tensor_argument("heaviside_", values, "values")
        _indexing._check_inplace_allowed(self)
        _indexing.check_overlaps(self, (values,))
        _check_heaviside(self, values)
        _check_inplace_result(self, "heaviside", values)
        return _indexing._adopt(self, self.heaviside(values))

    # PyTorch's other unary math (the rows: ops/unary.py; the out-of-place forms: _tensor_methods/pointwise.py)
    def polygamma_(self, n):
        _check_polygamma(self, n)
        return self._inplace("polygamma_inplace", n=n)

    def mvlgamma_(self, p):
        """x.mvlgamma_(p): PyTorch's own checks (bool, then p), and its words for an integer x."""
        OPS["mvlgamma"].check(self)
        if p < 1:
            raise RuntimeError("p has to be greater than or equal to 1")
        if self._data.dtype.kind in "iu":
            _indexing._check_inplace_allowed(self)
            raise RuntimeError(f"mvlgamma: result type {_kind(self)} can't be cast to the desired output type "
                               f"{_dtype.from_numpy_dtype(_dtype.default_np())._legacy[:-len('Tensor')]}")
        return self._inplace("mvlgamma", p=p)

    def conj_physical_(self):
        return self._inplace("conj_physical_inplace")

    def acosh_(self):
        return _without_inplace_derivative(self, "acosh")

    def asinh_(self):
        return _without_inplace_derivative(self, "asinh")

    def atanh_(self):
        return _without_inplace_derivative(self, "atanh")

    def ldexp_(self, other):
        _check_tensor_argument("ldexp_", other, "other")
        _indexing._check_inplace_allowed(self)      # (a leaf that requires grad is refused before anything else)
        if self._data.dtype.kind in "biu":          # (PyTorch names the op where others name the result type)
            raise RuntimeError(f"ldexp can't be cast to the desired output type {_kind(self)}")
        _check_inplace_result(self, "ldexp", other)
        _check_ldexp(self, other)
        return self._inplace("ldexp", other, exponent_dtype=other._data.dtype)

    def nextafter_(self, other):
        _check_tensor_argument("nextafter_", other, "other")
        _check_inplace_result(self, "nextafter", other)
        _check_nextafter(self, other)
        return self._inplace("nextafter", other)

    # operators without a differentiable in-place method here: computed out of place, then written into self
    def __ifloordiv__(self, other):
        return _inplace_operator(self, "floor_divide", other, Tensor.__floordiv__)

    def __imod__(self, other):
        return self.remainder_(other) if isinstance(other, _OPERANDS) else NotImplemented

    def remainder_(self, other):
        """x.remainder_(y), x %= y: RemainderBackward0 (a number) or RemainderBackward1 (a tensor)."""
        _check_operand("remainder_", other)
        _check_inplace_result(self, "remainder", other)
        if isinstance(other, Tensor):          # (RemainderBackward0 recorded as for x.remainder(y))
            return _indexing.run_inplace(self, "remainder_tensor", (other,), {})
        return _indexing.run_inplace(self, "remainder", (), {"other": _wrapped(_number(other), self)})

    def __iand__(self, other):
        return _inplace_operator(self, "bitwise_and", other, Tensor.__and__)

    def __ior__(self, other):
        return _inplace_operator(self, "bitwise_or", other, Tensor.__or__)

    def __ixor__(self, other):
        return _inplace_operator(self, "bitwise_xor", other, Tensor.__xor__)

    def __ilshift__(self, other):
        return _inplace_operator(self, "bitwise_left_shift", other, Tensor.__lshift__)

    def __irshift__(self, other):
        return _inplace_operator(self, "bitwise_right_shift", other, Tensor.__rshift__)


# (and the ops that refuse complex operands, whose refusal comes after this check in PyTorch)
def _put_key(t, index, source):
    """put_'s checks, in PyTorch's order, and the numpy key of its positions (None: nothing to write)."""
    if index._data.dtype != np.int64:
        raise RuntimeError(f"put_(): Expected a long tensor for index, but got {_kind(index)}")
    if source._data.dtype != t._data.dtype:
        raise RuntimeError(f"put_(): self and source expected to have the same dtype, but got self.dtype = "
                           f"{_kind(t)} and source.dtype = {_kind(source)}")
    n, idx = t._data.size, index._data
    if source._data.size != idx.size:
        raise IndexError(f"put_(): Expected source and index to have the same number of elements, but got "
                         f"source.numel() = {source._data.size}, index.numel() = {idx.size}")
    if n == 0 and idx.size:
        raise IndexError("put_(): Tried to put elements into an empty tensor")
    bad = (idx < -n) | (idx >= n)
    if bad.any():
        raise IndexError(f"out of range: tried to access index {idx[bad].flat[0]} on a tensor of {n} elements.")
    # (PyTorch reshapes index to source's shape; negative positions count from the end)
    flat = np.where(idx < 0, idx + n, idx).reshape(source._data.shape)
    return np.unravel_index(flat, t._data.shape) if t._data.ndim else (flat,)     # (0-d: as 1-d)


def _index_put_indices(t, indices, values, accumulate):
    indices = tuple(indices)
    for i, k in enumerate(indices):    # (PyTorch's binding refuses a None among them)
        if not isinstance(k, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {_argument_type_name(k)}")
    if len(indices) > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim} (got {len(indices)})")
    if accumulate or not isinstance(values, Tensor):
        return indices
    kinds = [k._data.dtype for k in indices]
    if values._data.size == 1 and _masked_fill_dispatch(t, indices):
        # PyTorch's index_put_ writes one value through one mask with masked_fill_ (canDispatchToMaskedFill), whose
        # checks are the mask's shape, then its dtype (a uint8 mask is refused there, with no deprecation warning)
        if kinds[0] == np.uint8:
            raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype unsigned char")
    else:
        # index_put_'s own checks before its kernel's bounds: the value's shape as given against the indexed shape (no
        # leading 1s dropped, as x[i] = v drops them), then the dtypes; a 0-d integer index is an advanced index here
        # (x[tensor(1)] = v reads it as an int)
        if 0 in t._data.shape:             # (make_info refuses an index into a dim of size 0 first)
            _indexing.index_shape(t, indices)
        shape = _index_put_shape(t, indices)
        if shape is not None:
            v = values._data
            try:
                fits = len(v.shape) <= len(shape) and np.broadcast_shapes(v.shape, shape) == shape
            except ValueError:
                fits = False
            if not fits or v.dtype != t._data.dtype:
                for k in kinds:           # (make_info warned of each uint8 mask before these checks)
                    if k == np.uint8:
                        _warnings.warn(_indexing._UINT8_WARNING, UserWarning)
            if not fits:
                raise RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, v.shape))}] "
                                   f"cannot be broadcast to indexing result of shape [{', '.join(map(str, shape))}]")
            if v.dtype != t._data.dtype:
                raise RuntimeError(f"Index put requires the source and destination dtypes match, got {_kind(t)} for "
                                   f"the destination and {_kind(values)} for the source.")
    return indices


def _masked_fill_dispatch(t, indices):
    """PyTorch's canDispatchToMaskedFill (for one value): the indices read in turn, each mask's shape checked
    against self's dims as it is met; True when they are one mask and nothing else."""
    mask, at = None, 0
    for k in indices:
        a = k._data
        if a.dtype not in (np.uint8, np.bool_) or mask is not None:
            return False
        mask = a
        for j, n in enumerate(a.shape):
            if at + j < t._data.ndim and n != t._data.shape[at + j]:
                raise IndexError(f"The shape of the mask [{', '.join(map(str, a.shape))}] at index {j} does not "
                                 f"match the shape of the indexed tensor [{', '.join(map(str, t._data.shape))}] at "
                                 f"index {at + j}")
        at += a.ndim
    return mask is not None


def _index_put_shape(t, indices):
    """The shape index_put_ writes (the indices' broadcast shape, a mask counting as its nonzero positions, then
    the dims not indexed), or None where a mask does not fit self (that error comes first: left to setitem)."""
    parts, dim = [], 0
    for k in indices:
        a = k._data
        if a.dtype in (np.uint8, np.bool_):
            if a.shape != t._data.shape[dim:dim + a.ndim]:
                return None
            parts.append((int(np.count_nonzero(a)),))
            dim += a.ndim
        elif a.dtype in (np.int64, np.int32):
            parts.append(a.shape)
            dim += 1
        else:
            return None            # (an index of another dtype: setitem's error)
    try:
        return tuple(np.broadcast_shapes(*parts)) + t._data.shape[dim:]
    except ValueError:
        return None


def _accumulated(t, indices, values):
    """index_put_ with accumulate=True: its checks (no masked_fill shortcut: the dtypes must match), values
    broadcast to the indexed shape, and the numpy key."""
    shape, check_bounds = _indexing.index_shape(t, indices)        # (its index checks first, the bounds last)
    v = values._data
    try:
        fits = len(v.shape) <= len(shape) and np.broadcast_shapes(v.shape, shape) == shape
    except ValueError:
        fits = False
    if not fits:
        raise RuntimeError(f"shape mismatch: value tensor of shape [{', '.join(map(str, values._data.shape))}] "
                           f"cannot be broadcast to indexing result of shape [{', '.join(map(str, shape))}]")
    if values._data.dtype != t._data.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {_kind(t)} for "
                           f"the destination and {_kind(values)} for the source.")
    check_bounds()
    if values._data.shape != shape:
        values = values.expand(shape)
    return values, _indexing.numpy_key(indices)


_RESULT_CHECKED = {"add", "sub", "mul", "div", "pow", "pow_scalar", "clamp_tensor", "clamp_min_tensor",
                   "clamp_max_tensor", "atan2", "hypot"}


class _NoInplaceDerivative(Node):
    """The grad_fn of x.acosh_(), x.asinh_(), x.atanh_(): PyTorch records AcoshBackward1 (its in-place
    entry), whose derivative it never wrote: a backward through it fails."""
    _op = None

    def apply(self, grad_outputs, as_arrays=False):
        raise NotImplementedError(f"the derivative for 'inplace version of {self._op}' is not implemented.")


def _no_inplace_derivative_class(key):
    cls = type(key.capitalize() + "Backward1", (_NoInplaceDerivative,), {"_op": key})
    cls.__module__ = "builtins"             # (printed <AcoshBackward1 object at 0x...>, as PyTorch's)
    return cls


_NO_INPLACE_DERIVATIVE = {key: _no_inplace_derivative_class(key) for key in ("acosh", "asinh", "atanh")}


def _without_inplace_derivative(t, key):
    """x.<key>_() written in place as the row's other in-place forms are, its node then replaced by
    PyTorch's <Key>Backward1, which has the same edges and no derivative."""
    t._inplace(key)
    old = t.grad_fn
    if old is not None and getattr(old, "_op", None) is OPS[key]:
        node = _NO_INPLACE_DERIVATIVE[key]()
        record(node, (), t, edges=old.next_functions)
        node._input_meta = old._input_meta
    return t


def _check_inplace_result(t, opname, other, alpha=1):
    """x op= y writes into x: PyTorch first refuses a broadcast shape other than x's, then a result
    type x cannot hold (a float into an integer tensor, anything but bool into a bool one)."""
    _check_int_scalar(other)
    if opname == "sub" and (t._data.dtype.kind == "b" or other.__class__ is bool or
                            (other.__class__ is Tensor and other._data.dtype.kind == "b")):
        _indexing._check_inplace_allowed(t)
        _check_sub(t, other)
    if other.__class__ is int and other >= 2**63 and t._data.dtype.kind == "b":       # (read as a uint64)
        if opname == "pow_scalar":
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to "
                           "promote Bool and UInt64")
    data = t._data
    if opname == "pow_scalar" and isinstance(other, numbers.Integral) and other < 0 and data.dtype.kind in "biu":
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if opname == "pow_scalar" and other.__class__ in (int, float) and data.dtype.kind != "b":
        _check_exponent(other, data.dtype)
    if other.__class__ is Tensor:
        od = other._data
        if od.shape != data.shape:
            try:
                shape = np.broadcast_shapes(data.shape, od.shape)
            except ValueError:
                _indexing._check_inplace_allowed(t)
                _indexing.check_overlaps(t, (other,))
                raise broadcast_error(data.shape, od.shape) from None
            if shape != data.shape:
                _indexing._check_inplace_allowed(t)
                _indexing.check_overlaps(t, (other,))
                raise RuntimeError(f"output with shape [{', '.join(map(str, data.shape))}] doesn't match the "
                                   f"broadcast shape [{', '.join(map(str, shape))}]")
        if od.dtype == data.dtype and opname != "div" and alpha.__class__ is int:
            return                               # (the common case: nothing to check)
        res = _dtype.result_np_dtype([(data.ndim, data.dtype), (od.ndim, od.dtype)], [])
    elif isinstance(other, _SCALARS + (np.generic,)):
        other = _number(other)
        if data.dtype.kind == "f" and other.__class__ is not complex:
            res = data.dtype                     # (a real number never lifts a float tensor: quick)
        else:
            res = _dtype.result_np_dtype([(data.ndim, data.dtype)], [_scalar_category(other)])
    else:
        return
    if opname == "div" and res.kind in "biu":
        res = np.dtype(np.float32)              # true division of integers gives the default float
    kind, target = res.kind, data.dtype.kind
    if (kind in "fcV" and target in "biu") or (kind in "cV" and target not in "cV") or (target == "b" and kind != "b"):
        _indexing._check_inplace_allowed(t)
        _indexing.check_overlaps(t, (other,) if other.__class__ is Tensor else ())   # (refused first)
        raise RuntimeError(f"result type {_dtype.from_numpy_dtype(res)._legacy[:-6]} can't be cast to the "
                           f"desired output type {_kind(t)}")
    if alpha.__class__ is bool and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if alpha.__class__ is float and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")


def _scalar_category(x):
    return 0 if isinstance(x, bool) else 1 if isinstance(x, int) else 2 if isinstance(x, float) else 3


def _same_data(a, b):
    x, y = a._data, b._data
    return (x.__array_interface__["data"][0] == y.__array_interface__["data"][0] and x.strides == y.strides
            and x.shape == y.shape and x.dtype == y.dtype)


def _inplace_operator(t, opname, other, compute):
    """`t //= y`, `t &= y`: checked as an in-place op, computed out of place, written into t."""
    if not isinstance(other, _OPERANDS):
        return NotImplemented
    _indexing._check_inplace_allowed(t)
    _indexing.check_overlaps(t, (other,))       # (an expanded t is refused before any dtype check)
    _check_inplace_result(t, opname, other)
    result = compute(t, other)
    if result is NotImplemented:
        return NotImplemented
    return _indexing._adopt(t, result)
