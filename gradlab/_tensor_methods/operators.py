"""Tensor's Python operators (`+`, `*`, `@`, `==`, `&`, ...), the logical tests (`isnan`, `any`,
`nonzero`, ...) and the comparisons by name (`eq`, `greater`, ...)."""
import numbers
import operator
import weakref

import numpy as np

from .. import _dtype
from .._warnings import warn_once
from .._tensor_core import Tensor
from ..autograd import grad_mode
from ..autograd.node import NoDerivative
from ..ops import OPS, elementwise as _elementwise, indexing as _indexing, registry as _registry
from ..ops.arithmetic import _KERNEL_NAMES
from ..ops.operands import (_SCALARS, _as_tensor, _binary, _check_int_scalar, _kind, _number, _type_name,
                            broadcast_error)
from ._common import (_OPERANDS, _check_exponent, _check_operand, _check_sub, _check_tensor_argument, _data_of,
                      _dims, _lifted, _wrapped, counted_result, matmul)


_ADD, _MUL, _DIV = OPS["add"], OPS["mul"], OPS["div"]
_NO_PARAMS = {}          # (apply only reads the parameters)


class _OperatorMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- arithmetic operators -------------------------------------------------------------------
    # As in PyTorch, an operator computes with a Tensor, a Python number or a numpy scalar, and
    # leaves anything else to Python (NotImplemented): `t * [1, 2]` then fails the way it fails
    # with PyTorch, and `t * np_array` is computed by numpy, which turns t into an array (an error
    # when t requires grad: no graph can go through numpy) and hands the result back to
    # __array_wrap__. numpy itself defers to objects with a higher __array_priority__ (PyTorch's
    # value), so `np.float64(2) * t` calls t.__rmul__ and keeps the graph.
    __array_priority__ = 1000

    def __array_wrap__(self, array):
        """numpy's result for a tensor (`np.exp(t)`, `t * np_array`) back as a Tensor, as PyTorch
        gives it (including PyTorch's habit of turning a bool result into uint8). PyTorch's takes no
        context/return_scalar arguments, so numpy 2 warns (DeprecationWarning) for both."""
        array = np.asarray(array)
        return Tensor._make(array.astype(np.uint8) if array.dtype == np.bool_ else array)

    # (add, mul and div first take the common case, a float or a tensor of the same shape, straight to
    # the op table: what _binary would do with them, without its checks of other operands)
    def __add__(self, other):
        cls = other.__class__
        if cls is float or (cls is Tensor and other._data.shape == self._data.shape):
            return _registry.apply(_ADD, (self, other), _NO_PARAMS)
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("add", self, other)

    __radd__ = __add__

    def __sub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        if self._data.dtype.kind == "b" or other.__class__ is bool or \
                (other.__class__ is Tensor and other._data.dtype.kind == "b"):
            _check_sub(self, other)
        return _binary("sub", self, other)

    # x.__rsub__(y) called with a Tensor y (Python never does): PyTorch computes y - x, y / x, ...
    def __rsub__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        if isinstance(other, Tensor):
            if self._data.dtype.kind == "b" or other._data.dtype.kind == "b":
                _check_sub(other, self)
            return _binary("rsub_tensor", self, other)
        return _scalar_left("rsub", self, other)

    def __mul__(self, other):
        cls = other.__class__
        if cls is float or (cls is Tensor and other._data.shape == self._data.shape):
            out = _registry.apply(_MUL, (self, other), _NO_PARAMS)
            if getattr(self, "_zerotensor", False) or getattr(other, "_zerotensor", False):
                out._zerotensor = True            # (PyTorch's mul of a ZeroTensor is one, as in _binary)
            return out
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("mul", self, other)

    __rmul__ = __mul__

    def __truediv__(self, other):
        cls = other.__class__
        if cls is float or (cls is Tensor and other._data.shape == self._data.shape):
            return _registry.apply(_DIV, (self, other), _NO_PARAMS)
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _binary("div", self, other)

    def __rtruediv__(self, other):
        if isinstance(other, (Tensor, numbers.Number, np.generic, np.ndarray)):
            return self.reciprocal() * other       # PyTorch's own definition (an ndarray goes to numpy)
        return NotImplemented

    def __pow__(self, exponent):
        if not isinstance(exponent, _OPERANDS):
            return NotImplemented
        if isinstance(exponent, Tensor):
            return _binary("pow", self, exponent)
        if isinstance(exponent, (numbers.Number, np.generic)):
            if isinstance(exponent, numbers.Integral) and exponent < 0 and self._data.dtype.kind in "biu":
                raise RuntimeError("Integers to negative integer powers are not allowed.")
            exponent = _number(exponent)
            cat = 0 if isinstance(exponent, bool) else 1 if isinstance(exponent, int) else \
                2 if isinstance(exponent, float) else 3
            if cat > _dtype.category(self._data.dtype):   # int_tensor ** 0.5: computed in float32
                # (cast in the tensor's own layout, as TensorIterator does: astype reorders an expanded one)
                cast = _elementwise.preserved_empty(self._data, _dtype.result_np_dtype(
                    [(self._data.ndim, self._data.dtype)], [cat]))
                cast[...] = self._data
                self = Tensor._make(cast)
            _check_exponent(exponent, self._data.dtype)
            return OPS["pow_scalar"](self, exponent=exponent)

    def __rpow__(self, base):
        if not isinstance(base, _OPERANDS):
            return NotImplemented
        if isinstance(base, Tensor):
            return base.__pow__(self)
        return _scalar_left("rpow", self, base)

    def __matmul__(self, other):
        if not isinstance(other, Tensor):      # a number is no matrix either: Python's TypeError
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other):
        if not isinstance(other, Tensor):
            return NotImplemented
        return matmul(other, self)

    def __floordiv__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_derivative(_no_grad_binary(_elementwise.floor_divide_arrays, self, other), "floor_divide",
                              self, other)

    def __rfloordiv__(self, other):
        if isinstance(other, Tensor):
            return other.__floordiv__(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_derivative(_no_grad_scalar_left(_elementwise.floor_divide_arrays, other, self), "floor_divide",
                              self)

    def heaviside(self, values):
        _check_heaviside(self, values)
        return _no_derivative(_no_grad_binary(_heaviside_arrays, self, values), "heaviside", self, values)

    def floor_divide(self, other):
        _check_operand("floor_divide", other)
        return self // other

    def floor_divide_(self, other):
        _check_operand("floor_divide_", other)
        return self.__ifloordiv__(other)

    def __mod__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return self.remainder(other)

    def __rmod__(self, other):
        if isinstance(other, Tensor):
            return other.remainder(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_derivative(_no_grad_scalar_left(_elementwise.remainder_arrays, other, self), "remainder", self)

    def __neg__(self):
        return OPS["neg"](self)

    def __pos__(self):
        if self._data.dtype.kind == "b":
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def __abs__(self):
        return OPS["abs"](self)

    def __invert__(self):
        if self._data.dtype.kind not in "biu":
            raise TypeError("~ (operator.invert) is only implemented on integer and Boolean-type tensors")
        return Tensor._make(np.invert(self._data))

    def __and__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_and, self, other)

    __rand__ = __and__

    def __or__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_or, self, other)

    __ror__ = __or__

    def __xor__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(np.bitwise_xor, self, other)

    __rxor__ = __xor__

    # shifts: integer dtypes only (PyTorch's kernels refuse the others), never differentiable
    def __lshift__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(_elementwise.lshift_arrays, self, other)

    def __rshift__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _no_grad_binary(_elementwise.rshift_arrays, self, other)

    # x.__rlshift__(y), `2 << x`: y << x, a number promoted as PyTorch promotes a Python scalar
    def __rlshift__(self, other):
        if isinstance(other, Tensor):
            return other.__lshift__(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_grad_scalar_left(_elementwise.lshift_arrays, other, self)

    def __rrshift__(self, other):
        if isinstance(other, Tensor):
            return other.__rshift__(self)
        if not isinstance(other, _SCALARS + (np.generic,)):
            return NotImplemented
        return _no_grad_scalar_left(_elementwise.rshift_arrays, other, self)

    def bitwise_left_shift(self, other):
        return _named_bitwise(self, other, Tensor.__lshift__)

    def bitwise_right_shift(self, other):
        return _named_bitwise(self, other, Tensor.__rshift__)

    def bitwise_left_shift_(self, other):
        return self.__ilshift__(other)

    def bitwise_right_shift_(self, other):
        return self.__irshift__(other)

    # the named forms (x.bitwise_and(y) is x & y; a float tensor is refused by the kernel, not by Python)
    def bitwise_and(self, other):
        return _named_bitwise(self, other, Tensor.__and__)

    def bitwise_or(self, other):
        return _named_bitwise(self, other, Tensor.__or__)

    def bitwise_xor(self, other):
        return _named_bitwise(self, other, Tensor.__xor__)

    def bitwise_not(self):
        if self._data.dtype.kind not in "biu":
            raise NotImplementedError(f'"bitwise_not_cpu" not implemented for {_kind_name(self)!r}')
        return Tensor._make(np.invert(self._data))

    def bitwise_and_(self, other):
        return self.__iand__(other)

    def bitwise_or_(self, other):
        return self.__ior__(other)

    def bitwise_xor_(self, other):
        return self.__ixor__(other)

    def bitwise_not_(self):
        _indexing.check_overlaps(self, ())      # (PyTorch's TensorIterator first, then the kernel's dtype)
        return self.copy_(self.bitwise_not())

    # comparisons: results are bool tensors and never carry gradients. Like PyTorch, == also
    # takes a numpy array; anything else is left to Python (`t == [1, 2]` is then plain False).
    # (__hash__ beside __eq__: a class body that defines __eq__ alone gets __hash__ = None.)
    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        if not isinstance(other, _OPERANDS + (np.ndarray,)):
            return NotImplemented
        return _compare(np.equal, self, other)

    def __ne__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.not_equal, self, other)

    def __lt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.less, self, other)

    def __le__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.less_equal, self, other)

    def __gt__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.greater, self, other)

    def __ge__(self, other):
        if not isinstance(other, _OPERANDS):
            return NotImplemented
        return _compare(np.greater_equal, self, other)

    # the named forms (x.eq(y), x.greater(y), ...) are added below the class: _named_comparison

    def equal(self, other):
        _check_tensor_argument("equal", other)
        if self._data.dtype.kind == "V" or other._data.dtype.kind == "V":
            # (the same memory, laid out alike: PyTorch's shortcut, which still asks for the nan-checking kernel)
            same = (self._data.__array_interface__["data"][0] == other._data.__array_interface__["data"][0]
                    and self._data.strides == other._data.strides and self._data.shape == other._data.shape)
            _no_complex32_kernel("equal_notnan_cpu" if same else "equal_cpu", self, other)
        return self._data.shape == other._data.shape and bool(np.array_equal(self._data, other._data))

    def allclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        _check_tensor_argument("allclose", other)
        if other._data.dtype != self._data.dtype:
            raise RuntimeError(f"{_kind(self)} did not match {_kind(other)}")
        try:
            np.broadcast_shapes(self._data.shape, other._data.shape)
        except ValueError:                 # (PyTorch's words, not numpy's)
            raise broadcast_error(self._data.shape, other._data.shape) from None
        return bool(np.allclose(_values(self._data), _values(_data_of(other)), rtol=rtol, atol=atol,
                                equal_nan=equal_nan))

    def isnan(self):
        return Tensor._make(np.isnan(_values(self._data)))

    def isinf(self):
        return Tensor._make(np.isinf(_values(self._data)))

    def isfinite(self):
        return Tensor._make(np.isfinite(_values(self._data)))

    def signbit(self):
        """Whether the sign bit is set (-0.0 and -nan too): a bool tensor, never differentiable."""
        if self._data.dtype.kind in "cV":
            raise NotImplementedError("signbit is not implemented for complex tensors.")
        return Tensor._make(_laid_out(np.signbit(self._data), self._data))

    def any(self, dim=None, keepdim=False):
        return self._logical_reduction(np.any, dim, keepdim)

    def all(self, dim=None, keepdim=False):
        return self._logical_reduction(np.all, dim, keepdim)

    def _logical_reduction(self, reduce, dim, keepdim):
        """any/all: bool results, except for uint8 input (uint8, as in PyTorch)."""
        if not isinstance(keepdim, (bool, np.bool_)):
            raise TypeError("keepdim")            # (_argparse words PyTorch's TypeError)
        axis = None if dim is None else _dims(dim, self._data.ndim)
        out = _registry.torch_contiguous(np.asarray(reduce(_values(self._data), axis=axis, keepdims=keepdim)))  # (a new tensor)
        return counted_result(self, Tensor._make(out.astype(np.uint8) if self._data.dtype == np.uint8 else out))

    def logical_not(self):
        _no_complex32_kernel("logical_not_cpu", self)
        return counted_result(self, Tensor._make(_laid_out(np.logical_not(self._data), self._data)))

    def logical_and(self, other):
        return self._logical("logical_and", np.logical_and, other)

    def logical_or(self, other):
        return self._logical("logical_or", np.logical_or, other)

    def logical_xor(self, other):
        return self._logical("logical_xor", np.logical_xor, other)

    def _logical(self, name, ufunc, other):
        _check_tensor_argument(name, other)
        _no_complex32_kernel(name + "_cpu", self, other)
        if other._data.shape != self._data.shape:
            try:
                np.broadcast_shapes(self._data.shape, other._data.shape)
            except ValueError:
                raise broadcast_error(self._data.shape, other._data.shape) from None
        return Tensor._make(_laid_out(ufunc(self._data, other._data), self._data, other._data))

    def logical_not_(self):
        _no_complex32_kernel("logical_not_cpu", self)
        return self._logical_inplace(np.logical_not(self._data))

    def logical_and_(self, other):
        return self._logical_inplace(self.logical_and(other)._data, other)

    def logical_or_(self, other):
        return self._logical_inplace(self.logical_or(other)._data, other)

    def logical_xor_(self, other):
        return self._logical_inplace(self.logical_xor(other)._data, other)

    def _logical_inplace(self, result, other=None):
        """x.logical_and_(y): the truth values written into x in x's dtype. Not differentiable, and PyTorch's
        kernel leaves autograd alone: a leaf that requires grad stays a leaf, a non-leaf keeps its grad_fn;
        only the version counter moves (so the copy is made as under no_grad)."""
        if result.shape != self._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, self._data.shape))}] doesn't match the "
                               f"broadcast shape [{', '.join(map(str, result.shape))}]")
        if other is not None and other._data.dtype.kind == "c" and self._data.dtype.kind not in "cb" and result.size:
            # PyTorch computes in the common dtype, complex, and copies the result back into x: its cast's warning
            warn_once(_dtype.COMPLEX_TO_REAL)
        with grad_mode.no_grad():
            return self.copy_(Tensor._make(result.astype(self._data.dtype)))

    def isclose(self, other, rtol=1e-05, atol=1e-08, equal_nan=False):
        """PyTorch's formula, in the inputs' dtype: self == other, or |self - other| <= atol + |rtol * other|
        (finite), or both nan with equal_nan."""
        _check_tensor_argument("isclose", other)
        if other._data.dtype != self._data.dtype:
            raise RuntimeError(f"{_kind(self)} did not match {_kind(other)}")
        if rtol < 0:
            raise RuntimeError(f"rtol must be greater than or equal to zero, but got {rtol}")
        if atol < 0:
            raise RuntimeError(f"atol must be greater than or equal to zero, but got {atol}")
        a, b = _values(self._data), _values(other._data)
        if a.shape != b.shape:
            try:
                np.broadcast_shapes(a.shape, b.shape)
            except ValueError:
                raise broadcast_error(a.shape, b.shape) from None
        close = np.asarray(a == b)
        if a.dtype.kind == "b":
            return Tensor._make(close)
        if equal_nan and a.dtype.kind in "fc":
            close = close | (np.isnan(a) & np.isnan(b))
        if rtol == 0 and atol == 0:
            return Tensor._make(close)
        work = a.dtype if a.dtype.kind in "fc" else np.dtype(np.float32)
        with np.errstate(invalid="ignore", over="ignore"):
            x, y = a.astype(work, copy=False), b.astype(work, copy=False)
            allowed = work.type(atol) + np.abs(work.type(rtol) * y)
            actual = np.abs(x - y)
            close = close | (np.isfinite(actual) & (actual <= allowed))
        return Tensor._make(np.asarray(close))

    def argwhere(self):
        return self.nonzero()

    def nonzero(self, as_tuple=False):
        if not isinstance(as_tuple, bool):
            raise TypeError(f"nonzero(): argument 'as_tuple' must be bool, not {_type_name(as_tuple)}")
        data = _values(self._data)
        if data.ndim == 0:     # one coordinate-less hit (or none); as_tuple reads it as 1-d
            if as_tuple:
                return (Tensor._make(np.zeros(int(data != 0), np.int64)),)
            return Tensor._make(_by_column(np.zeros((0, int(data != 0)), np.int64)))
        idx = np.nonzero(data)
        if as_tuple:      # (PyTorch unbinds its nonzero(): rows of one block, storage offsets 0, n, 2n, ...)
            block = np.stack(idx).astype(np.int64)
            return tuple(Tensor._make(row) for row in block)
        return Tensor._make(_by_column(np.stack(idx, axis=0).astype(np.int64)))


def _by_column(block):
    """nonzero()'s (n, ndim) result from its (ndim, n) block: PyTorch lays it out column by column, strides
    (1, n), so (1, 0) when nothing is found (numpy's transpose of an empty array has zero strides)."""
    out = block.T
    if not out.size:
        out = np.lib.stride_tricks.as_strided(out, out.shape, (out.itemsize, out.shape[0] * out.itemsize))
    return out


def _scalar_left(key, a, scalar):
    """`scalar - a`, `scalar ** a`: a Python scalar on the left of a tensor."""
    if isinstance(scalar, Tensor):
        return NotImplemented
    scalar = _number(scalar)
    if not isinstance(scalar, _SCALARS):
        return _binary("sub" if key == "rsub" else "pow", _as_tensor(scalar), a)
    _check_int_scalar(scalar)
    if key == "rsub" and (scalar.__class__ is bool or a._data.dtype.kind == "b"):
        _check_sub(a, scalar)
    a = _lifted(a, scalar)
    if key == "rsub":
        return OPS["rsub"](a, other=_wrapped(scalar, a))
    return OPS["rpow"](a, base=_wrapped(scalar, a))


def _named_bitwise(a, other, operator):
    out = operator(a, other)
    if out is NotImplemented:
        raise TypeError(f"unsupported operand type(s): 'Tensor' and {type(other).__name__!r}")
    return out


def _kind_name(t):
    """The C++ name of any dtype (_KERNEL_NAMES has the real ones)."""
    return {"complex64": "ComplexFloat", "complex128": "ComplexDouble", "void32": "ComplexHalf"}.get(
        t._data.dtype.name) or _dtype_name(t)


def _dtype_name(t):
    return _KERNEL_NAMES[t._data.dtype.name]


_BITWISE = {np.bitwise_and: "bitwise_and", np.bitwise_or: "bitwise_or", np.bitwise_xor: "bitwise_xor"}


def _no_derivative(result, op_name, *inputs):
    """Give `result` PyTorch's NotImplemented grad_fn when an input requires grad (see NoDerivative)."""
    if grad_mode._state["enabled"]:
        edges = tuple(_registry.edge_of(t) for t in inputs if isinstance(t, Tensor) and t.requires_grad)
        if edges:
            result._grad_fn = NoDerivative(op_name, edges)
            result.grad_fn._output_ref = weakref.ref(result)
    return result


def _no_grad_scalar_left(ufunc, scalar, a):
    """`2 // t`, `2 % t`: a number on the left, promoted as PyTorch promotes a Python scalar."""
    scalar = _number(scalar)
    _check_int_scalar(scalar)
    _check_bool_and_uint64(a, scalar)
    dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype)], [_dtype.category(np.asarray(scalar).dtype)])
    return Tensor._make(_laid_out(ufunc(np.asarray(scalar).astype(dt), a._data.astype(dt, copy=False)), a._data,
                                  general=True))


def _check_bool_and_uint64(a, number):
    """PyTorch reads an int of 2**63 or more as a uint64, which it does not promote with a bool tensor."""
    if number.__class__ is int and number >= 2**63 and a._data.dtype.kind == "b":
        raise RuntimeError("Promotion for uint16, uint32, uint64 types is not supported, attempted to promote Bool "
                           "and UInt64")


def _laid_out(out, *given, general=False):
    """A no-grad result in PyTorch's layout: TensorIterator's, from the inputs as given (a cast to the result
    dtype may have lost an expanded input's zero strides; numpy picks its own order). general: a Python number
    is an operand too (see registry.sorts_size_one)."""
    out = np.asarray(out)
    if not out.size and out.ndim:       # (an empty result: TensorIterator's strides, see torch_layout)
        return _registry.torch_layout(None, out, list(given), True if general else None)
    if not out.flags.c_contiguous or any(type(g) is np.ndarray and not g.flags.c_contiguous for g in given) or (
            _registry.sorts_size_one(out, given, general)):
        return _registry.torch_layout(None, out, list(given), _iterator_general(out, given, general))
    return out


def _iterator_general(out, given, number):
    """Does TensorIterator take its general path (dims sorted by strides)? Yes with a Python number or an operand of
    another shape than the result's; else its fast paths (see registry.torch_layout)."""
    return bool(number) or any(type(g) is not np.ndarray or g.shape != out.shape for g in given)


def _check_heaviside(a, values):
    """heaviside's meta function: complex first, then the dtypes must be equal (no promotion)."""
    _check_tensor_argument("heaviside", values, "values")
    if a._data.dtype.kind in "cV" or values._data.dtype.kind in "cV":
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if a._data.dtype != values._data.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")


def _heaviside_arrays(a, values):
    """PyTorch's kernel: `a == 0 ? values : a > 0` (a nan is not > 0: 0, where numpy's heaviside gives nan)."""
    return np.where(a == 0, values, (a > 0).astype(a.dtype))


def _no_complex32_kernel(kernel, *tensors):
    """PyTorch's refusal of an op without a ComplexHalf kernel, for a complex32 operand (numpy has no loop
    for complex32's structured arrays either)."""
    for t in tensors:
        if isinstance(t, Tensor) and t._data.dtype.kind == "V":
            raise NotImplementedError(f"\"{kernel}\" not implemented for 'ComplexHalf'")


_UFUNC_KERNELS = {_elementwise.floor_divide_arrays: "div_floor_cpu", np.floor_divide: "div_floor_cpu"}


def _no_grad_binary(ufunc, a, b):
    """a op b computed in PyTorch's result dtype (a Python int wraps around into an integer dtype)."""
    if a._data.dtype.kind == "V" or isinstance(b, Tensor) and b._data.dtype.kind == "V":
        _no_complex32_kernel(_UFUNC_KERNELS.get(ufunc, getattr(ufunc, "__name__", "").replace("_arrays", "") + "_cpu"),
                             a, b)
    b = _number(b)
    if isinstance(b, Tensor):
        bd = b._data
        if bd.shape != a._data.shape:       # (the shapes are checked before the dtypes)
            try:
                np.broadcast_shapes(a._data.shape, bd.shape)
            except ValueError:
                raise broadcast_error(a._data.shape, bd.shape) from None
        dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype), (bd.ndim, bd.dtype)], [])
    else:
        _check_int_scalar(b)
        _check_bool_and_uint64(a, b)
        bd = np.asarray(b)
        dt = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype)], [_dtype.category(bd.dtype)])
    if ufunc in _BITWISE and dt.kind in "fc":   # PyTorch has no kernel (numpy's TypeError says other words)
        raise NotImplementedError(f'"{_BITWISE[ufunc]}_cpu" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(dt)._legacy[:-len('Tensor')]}'")
    if dt == np.float16 and ufunc is _elementwise.floor_divide_arrays and (
            b.__class__ in (int, float) or isinstance(b, Tensor) and bd.ndim == 0 and bd.dtype != np.float16):
        # PyTorch divides float16 by a Python number, or by a 0-d tensor of another dtype, in float32 (numpy would
        # round the divisor to float16 first)
        divisor = np.float32(b if b.__class__ in (int, float) else bd.item())
        return Tensor._make(_laid_out(ufunc(a._data.astype(np.float32), divisor).astype(np.float16), a._data,
                                      general=True))
    try:
        out = ufunc(a._data.astype(dt, copy=False), bd.astype(dt, copy=False))
    except ValueError:
        raise broadcast_error(a._data.shape, bd.shape) from None
    return Tensor._make(_laid_out(np.asarray(out).astype(dt, copy=False), a._data, bd))


COMPLEX_HALF = ("ComplexHalf support is experimental and many operators don't support it yet. (Triggered internally "
                "at /__w/pytorch/pytorch/aten/src/ATen/EmptyTensor.cpp:54.)")

_ORDERINGS = {np.less: "lt", np.less_equal: "le", np.greater: "gt", np.greater_equal: "ge"}


def _compare(ufunc, a, b):
    if a._data.dtype.kind == "V" or b.__class__ is Tensor and b._data.dtype.kind == "V":
        return _compare_complex32(ufunc, a, b)
    given = b
    if isinstance(b, Tensor):
        bd = b._data
    elif isinstance(b, _SCALARS + (np.generic, np.ndarray, list, tuple)):
        # (an int is first converted to an integer tensor's dtype, wrapping: int8 < 1000 is int8 < -24)
        if isinstance(b, (list, tuple)):
            bd = np.asarray(b)
        else:
            b = _number(b)
            _check_int_scalar(b)
            bd = _wrapped(b, a)
    else:
        return NotImplemented
    kernel = _ORDERINGS.get(ufunc)
    if kernel is not None:
        # complex numbers have no order: PyTorch's kernels have no complex loop, whichever side is complex
        # (checked after the shapes)
        scalar = not isinstance(given, (Tensor, list, tuple))
        if not scalar and np.shape(bd) != a._data.shape:
            try:
                np.broadcast_shapes(a._data.shape, np.shape(bd))
            except ValueError:
                raise broadcast_error(a._data.shape, np.shape(bd)) from None
        weak = [_dtype.category(np.asarray(bd).dtype)] if scalar else []
        common = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype)] + (
            [(np.ndim(bd), np.asarray(bd).dtype)] if not scalar else []), weak)
        if common.kind in "cV":
            name = _dtype.from_numpy_dtype(common)._legacy[:-len('Tensor')]
            if scalar and a._data.dtype == np.float16:      # (PyTorch's ComplexHalf, which numpy lacks)
                name = "ComplexHalf"
            raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'{name}\'')
    if b.__class__ is complex and a._data.dtype == np.float16:
        warn_once(COMPLEX_HALF)        # (PyTorch compares in ComplexHalf)
    ad, given_bd = a._data, bd
    if isinstance(given, Tensor) and bd.dtype != ad.dtype:
        # PyTorch compares in the operands' common dtype: uint8 >= tensor(-3) is uint8 >= 253 (numpy would
        # compare the numbers themselves)
        common = _dtype.result_np_dtype([(ad.ndim, ad.dtype), (bd.ndim, bd.dtype)], [])
        ad, bd = ad.astype(common, copy=False), bd.astype(common, copy=False)
    try:
        out = np.asarray(ufunc(ad, bd))
    except ValueError:
        raise broadcast_error(a._data.shape, np.shape(bd)) from None
    if not out.size and out.ndim:       # (an empty result: TensorIterator's strides, see torch_layout)
        out = _registry.torch_layout(None, out, (a._data, given_bd))
    elif out.ndim and not (out.flags.c_contiguous and a._data.flags.c_contiguous and (
            type(given_bd) is not np.ndarray or given_bd.flags.c_contiguous)) or _registry.sorts_size_one(
            out, (a._data, given_bd), not isinstance(given, (Tensor, list, tuple))):
        out = _registry.torch_layout(None, out, (a._data, given_bd), _iterator_general(   # PyTorch's layout of the result
            out, (a._data, given_bd), not isinstance(given, (Tensor, list, tuple))))
    return Tensor._make(out)


def _values(data):
    """complex32's structured array as complex64 (its exact values), for numpy's tests; other arrays as they are."""
    return _dtype.c32_to_c64(data) if data.dtype.kind == "V" else data


def _compare_complex32(ufunc, a, b):
    """A comparison with a complex32 operand: == and != compare the values as complex64 (exactly theirs);
    an ordering has no kernel for ComplexHalf (nor for the complex dtype the operands promote to)."""
    kernel = _ORDERINGS.get(ufunc)
    if kernel is not None and (not isinstance(b, Tensor) or b._data.dtype.kind in "biuV" or b._data.ndim == 0 or
                               b._data.dtype == np.float16):
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for 'ComplexHalf'")
    as64 = (lambda t: Tensor._make(_dtype.c32_to_c64(t._data)) if t._data.dtype.kind == "V" else t)
    return _compare(ufunc, as64(a), as64(b) if isinstance(b, Tensor) else b)


def _named_comparison(name, compare):
    def method(self, other):
        _check_operand(name, other)      # PyTorch's argument error where the operator returns NotImplemented
        return compare(self, other)
    method.__name__ = method.__qualname__ = name
    return method


# x.eq(y), x.greater(y), ...: the comparison operators by name
for _name, _operator in (("eq", operator.eq), ("ne", operator.ne), ("lt", operator.lt), ("le", operator.le),
                         ("gt", operator.gt), ("ge", operator.ge), ("greater", operator.gt), ("less", operator.lt),
                         ("greater_equal", operator.ge), ("less_equal", operator.le), ("not_equal", operator.ne)):
    setattr(_OperatorMethods, _name, _named_comparison(_name, _operator))
