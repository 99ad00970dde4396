"""Tensor's named elementwise methods that check or convert their arguments (`add`, `div`, `clamp`,
`where`, `lerp`, ...), then call the op table (`gradlab/ops`). The plain ones, one call of a row with
nothing to check (`exp`, `sin`, `tanh`, `abs`, `nan_to_num`, `exp_`, ...), are made from the table's
`variants` by _tensor_methods/variants.py."""

import numpy as np

from .. import _dtype
from .._ctype import CType
from .._tensor_core import Tensor, _wrap_dim
from ..ops import OPS, indexing as _indexing
from ..ops.inplace import _dense
from ..ops.operands import (_binary, _check_arguments, _check_int_scalar, _kind, _number, _py, broadcast_error,
                            where)
from ._common import (_NO_ROUNDING, _c_type, _check_fill_value, _check_operand, _check_sub, _check_tensor_argument,
                      _check_complex_clamp, _clamp_bounds, _lifted, _wrapped, maximum, minimum)
from .. import _warnings



def _check_broadcast(t, other):
    """TensorIterator's shape check of a second tensor operand, with PyTorch's message."""
    if other._data.shape != t._data.shape:
        try:
            np.broadcast_shapes(t._data.shape, other._data.shape)
        except ValueError:
            raise broadcast_error(t._data.shape, other._data.shape) from None

class _PointwiseMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- complex conjugates (the rows in ops/complex.py) --------------------------------------------
    # (conj itself: _tensor_methods/attributes.py, beside real, imag and mH)
    def conj_physical(self):
        return OPS["conj_physical"](self) if self._data.dtype.kind in "cV" else self

    # --- named arithmetic -----------------------------------------------------------------------
    def add(self, other, alpha=1):
        _check_operand("add", other)
        if alpha.__class__ is int and alpha == 1:
            return self + other
        return _with_alpha("add", self, other, alpha)

    def sub(self, other, alpha=1):
        _check_operand("sub", other)
        if alpha.__class__ is int and alpha == 1:
            return self - other
        _check_sub(self, other)
        return _with_alpha("sub", self, other, alpha)

    def subtract(self, other, alpha=1):
        _check_operand("subtract", other)
        return self.sub(other, alpha=alpha)

    def mul(self, other):
        _check_operand("mul", other)
        return self * other

    def multiply(self, other):
        _check_operand("multiply", other)
        return self * other

    def div(self, other, rounding_mode=_NO_ROUNDING):
        _check_operand("div", other)
        if rounding_mode is None and (self._data.dtype.kind in "fc" or (
                other.__class__ is Tensor and other._data.dtype.kind in "fc") or other.__class__ in (float, complex)):
            # an explicit rounding_mode=None is PyTorch's other overload: true division recorded as DivBackward2
            return _binary("div_rounding", self, other, rounding_mode=None)
        if rounding_mode is None or rounding_mode is _NO_ROUNDING:
            return self / other
        if rounding_mode not in ("trunc", "floor"):
            raise RuntimeError("div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                               f"'{rounding_mode}'")
        return _binary("div_rounding", self, other, rounding_mode=rounding_mode)

    def divide(self, other, rounding_mode=_NO_ROUNDING):
        _check_operand("divide", other)
        return self.div(other) if rounding_mode is _NO_ROUNDING else self.div(other, rounding_mode=rounding_mode)

    def true_divide(self, other):
        _check_operand("true_divide", other)
        return self / other

    def pow(self, exponent):
        _check_operand("pow", exponent, "exponent")
        return self ** exponent

    def float_power(self, exponent):
        """x ** exponent computed in float64 (complex128 if either side is complex): PyTorch's float_power is
        x.to(float64).pow(exponent), so the graph shows a ToCopyBackward0 under the PowBackward0/1."""
        _check_operand("float_power", exponent, "exponent")
        return float_power(self, exponent)

    def float_power_(self, exponent):
        _check_operand("float_power_", exponent, "exponent")
        dtype = _float_power_dtype(self, exponent)
        if self._data.dtype != dtype.np:
            raise RuntimeError(f"the base given to float_power_ has dtype {_kind(self)} but the operation's result "
                               f"requires dtype {dtype._legacy[:-len('Tensor')]}")
        return self.pow_(_float_power_operand(exponent, dtype))

    def square(self):
        return self ** 2

    def remainder(self, other):
        _check_operand("remainder", other)
        other = _number(other)
        if isinstance(other, Tensor):
            return _binary("remainder_tensor", self, other)
        _check_int_scalar(other)
        a = _lifted(self, other)
        return OPS["remainder"](a, other=_wrapped(other, a))

    def fmod(self, other):
        _check_operand("fmod", other)
        other = _number(other)
        if isinstance(other, Tensor):
            return _binary("fmod_tensor", self, other)
        _check_int_scalar(other)
        a = _lifted(self, other)
        return OPS["fmod"](a, other=_wrapped(other, a))

    def round(self, *, decimals=None):
        if decimals is None:
            return OPS["round"](self)
        self._check_round_decimals(decimals)
        return OPS["round_decimals"](self, decimals=decimals)

    def round_(self, *, decimals=None):
        if decimals is None:
            return self._inplace("round")
        self._check_round_decimals(decimals)
        return self._inplace("round_decimals", decimals=decimals)

    def _check_round_decimals(self, decimals):
        if self._data.dtype.kind in "biu":          # (PyTorch's kernel names differ with and without decimals)
            kernel = "round_vml_cpu" if decimals == 0 else "round_cpu"
            raise NotImplementedError(f'"{kernel}" not implemented for \'{_kind(self)}\'')

    def clamp(self, min=None, max=None):
        if isinstance(min, Tensor) or isinstance(max, Tensor):
            # tensor bounds: PyTorch's ClampBackward0, whose bounds get gradients too
            _check_arguments("clamp", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                    ("Number min = None", "Number max = None")])
            _check_complex_clamp(self, None, None)      # (a complex self first, then the shapes, then
            for bound in (min, max):                    # a complex bound's kernel: PyTorch's order)
                if bound is not None:
                    _check_broadcast(self, bound)
            _check_complex_clamp(self, min, max)
            return OPS["clamp_tensor"](self, *_clamp_bounds(self, min, max))
        _check_arguments("clamp", (min, max), [("Tensor min = None", "Tensor max = None"),
                                                ("Number min = None", "Number max = None")])
        if min is None and max is None:
            raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
        _check_complex_clamp(self, min, max)
        src = self
        for bound in (min, max):                  # (int tensor, float bound: a float result)
            if bound is not None:
                src = _lifted(src, _py(bound))
        return OPS["clamp"](src, min=_py(min), max=_py(max))

    def clamp_min(self, min):
        _check_arguments("clamp_min", (min,), [("Tensor min",), ("Number min",)])
        if isinstance(min, Tensor):
            _check_broadcast(self, min)
            return OPS["clamp_min_tensor"](self, min)
        return OPS["clamp_min"](_lifted(self, _py(min)), min=_py(min))

    def clamp_max(self, max):
        _check_arguments("clamp_max", (max,), [("Tensor max",), ("Number max",)])
        if isinstance(max, Tensor):
            _check_broadcast(self, max)
            return OPS["clamp_max_tensor"](self, max)
        return OPS["clamp_max"](_lifted(self, _py(max)), max=_py(max))

    def maximum(self, other):
        _check_operand("maximum", other)
        return maximum(self, other)

    def minimum(self, other):
        _check_operand("minimum", other)
        return minimum(self, other)

    # --- atan2, hypot, fmod_, index_fill (issue 17) -------------------------------------------------
    def atan2(self, other):
        _check_tensor_argument("atan2", other)
        return _binary("atan2", self, other)

    def atan2_(self, other):
        _check_tensor_argument("atan2_", other)
        self._check_inplace_order(other, floating=True)
        return self._inplace("atan2", other)

    arctan2_ = atan2_

    def hypot(self, other):
        _check_tensor_argument("hypot", other)
        return _binary("hypot", self, other)

    def hypot_(self, other):
        _check_tensor_argument("hypot_", other)
        self._check_inplace_shape(other)
        return self._inplace("hypot", other)

    def _check_inplace_order(self, other, floating=False):
        """TensorIterator's checks of x.op_(y), in its order (after autograd's): overlaps, then y broadcast to x's
        shape, then the result type cast to x's dtype (floating: an op whose result of integers is a float)."""
        _indexing._check_inplace_allowed(self)
        _indexing.check_overlaps(self, (other,))
        self._check_inplace_shape(other)
        if floating and self._data.dtype.kind in "biu" and other._data.dtype.kind in "biu":
            raise RuntimeError(f"result type {_dtype.from_numpy_dtype(_dtype.default_np())._legacy[:-6]} can't be "
                               f"cast to the desired output type {_kind(self)}")
        self._check_float_inplace(other)

    def _check_inplace_shape(self, other):
        """x.op_(y) writes into x: y must broadcast to x's own shape."""
        if other._data.shape == self._data.shape:
            return
        try:
            shape = np.broadcast_shapes(self._data.shape, other._data.shape)
        except ValueError:
            raise broadcast_error(self._data.shape, other._data.shape) from None
        if shape != self._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, self._data.shape))}] doesn't match the "
                               f"broadcast shape [{', '.join(map(str, shape))}]")

    def nan_to_num_(self, nan=None, posinf=None, neginf=None):
        """Written by hand: on an integer or bool tensor PyTorch's nan_to_num_ copies self into itself, which
        writes nothing (so no overlap check: an expanded tensor is fine)."""
        if self._data.dtype.kind == "V":
            raise NotImplementedError("\"nan_to_num\" not implemented for 'ComplexHalf'")
        if self._data.dtype.kind not in "fc":
            self._version_counter[0] += 1
            return self
        return self._inplace("nan_to_num", nan=nan, posinf=posinf, neginf=neginf)

    def fmod_(self, other):
        _check_operand("fmod_", other)
        other = _number(other)
        if isinstance(other, Tensor):
            self._check_inplace_order(other)          # (before the kernel's refusal of bool and complex)
            return self._inplace("fmod_tensor", other)
        _check_int_scalar(other)
        self._check_float_inplace(other)
        return self._inplace("fmod", other=_wrapped(other, self))

    def _check_float_inplace(self, other):
        """An in-place op cannot write a result of a higher kind into self (a float into an int tensor,
        an int into a bool one): PyTorch's message names the result type. (TensorIterator checks overlaps first;
        autograd's checks of an in-place op, a leaf or a view of one, come before both.)"""
        _indexing._check_inplace_allowed(self)
        _indexing.check_overlaps(self, (other,) if isinstance(other, Tensor) else ())
        if isinstance(other, Tensor):
            res = _dtype.result_np_dtype([(self._data.ndim, self._data.dtype), (other._data.ndim, other._data.dtype)], [])
            lifted = res if _dtype.category(res) > _dtype.category(self._data.dtype) else None
        else:
            lifted = _lifted(self, other)
            lifted = lifted._data.dtype if lifted is not self else None
        if lifted is not None:
            raise RuntimeError(f"result type {_dtype.from_numpy_dtype(lifted)._legacy[:-6]} can't be cast to the "
                               f"desired output type {_kind(self)}")

    def index_fill(self, dim, index, value):
        """A copy with the entries at `index` along `dim` set to `value`."""
        _check_arguments("index_fill", (dim, index, value), [("int dim", "Tensor index", "Tensor value"),
                                                              ("int dim", "Tensor index", "Number value")])
        _check_fill_value(value)
        _check_complex_fill(self, value, index)
        fill = _indexing.scalar_for(self, _py(value))            # (wraps, or PyTorch's error; a tensor's item too)
        mask = self._index_fill_mask(dim, index)                 # (the indices after the value)
        if isinstance(value, Tensor):
            return OPS["index_fill_tensor"](self, value, mask=mask, fill=fill)
        return OPS["index_fill"](self, mask=mask, value=fill)

    def _index_fill_mask(self, dim, index):
        d = _wrap_dim(dim, self._data.ndim)
        idx = index._data
        if idx.dtype != np.int64:
            raise IndexError("index_fill_(): Expected dtype int64 for index.")
        if idx.ndim > 1:
            raise RuntimeError("Index has to be a vector/scalar")
        size = self._data.shape[d] if self._data.ndim else 1
        shape = self._data.shape
        if size == 0 and idx.size and all(n for i, n in enumerate(shape) if i != d):
            # PyTorch's kernel restrides self to one slice along dim, and its storage check fails first
            strides, step = [], 1
            for n in reversed(shape):
                strides.insert(0, step)
                step *= max(n, 1)
            strides[d] = 0
            sizes = [idx.size if i == d else n for i, n in enumerate(shape)]
            need = self._data.itemsize * (1 + sum((n - 1) * st for n, st in zip(sizes, strides)))
            root = self if self._base is None else self._base
            if need <= root._data.nbytes:         # (a view of a bigger storage: then the index is out of bounds)
                raise IndexError(f"index {idx.flat[0]} is out of bounds for dimension {d} with size 0")
            raise RuntimeError(f"setStorage: sizes {sizes}, strides {strides}, storage offset 0, and itemsize "
                               f"{self._data.itemsize} requiring a storage size of {need} are out of bounds for "
                               "storage of size 0")
        bad = (idx < -size) | (idx >= size)
        if bad.any() and self._data.size:             # (an empty self is never looked at)
            raise IndexError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
        if not self._data.size:
            return np.zeros(shape, dtype=bool)
        mask = np.zeros(self._data.shape, dtype=bool)
        where = [slice(None)] * self._data.ndim
        if self._data.ndim:
            where[d] = idx.reshape(-1)
        if self._data.ndim or idx.size:        # (a 0-d self is filled only when the index names it)
            mask[tuple(where)] = True
        return mask

    def where(self, condition, other):
        """x.where(cond, y): torch.where(cond, x, y)."""
        return where(condition, self, other)

    def masked_fill(self, mask, value):
        mask, value = self._masked_fill_args(mask, value)
        if isinstance(value, Tensor):
            return OPS["masked_fill_tensor"](self, value, mask=mask)
        return OPS["masked_fill"](self, mask=mask, value=value)

    def _masked_fill_args(self, mask, value, inplace=False):
        _check_arguments("masked_fill", (mask, value), [("Tensor mask", "Tensor value"), ("Tensor mask", "Number value")])
        # PyTorch's order: (not in place) mask and self broadcast, as masked_fill expands them before masked_fill_;
        # the value's dims; the mask's dtype; (in place) the broadcast; the value converted by the kernel
        if not inplace:
            self._check_mask_broadcast(mask, inplace)
        if isinstance(value, Tensor) and value._data.ndim:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value._data.ndim} dimension(s).")
        if mask._data.dtype != np.bool_:
            raise RuntimeError(f"masked_fill_ only supports boolean masks, but got mask with dtype {_c_type(mask)}")
        if inplace:
            self._check_mask_broadcast(mask, inplace)
        if not isinstance(value, Tensor):
            value = _indexing.scalar_for(self, value)
        else:       # (PyTorch fills with its item: an imaginary part, a number self's dtype can not hold, are refused)
            _indexing.scalar_for(self, value.item())
        return mask._data, value

    def _check_mask_broadcast(self, mask, inplace):
        try:
            shape = np.broadcast_shapes(mask._data.shape, self._data.shape)
        except ValueError:        # (in place, PyTorch names self first)
            shapes = (self._data.shape, mask._data.shape) if inplace else (mask._data.shape, self._data.shape)
            raise broadcast_error(*shapes) from None
        if inplace and shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")

    def masked_select(self, mask):
        _check_tensor_argument("masked_select", mask, "mask")
        if mask._data.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        try:
            np.broadcast_shapes(mask._data.shape, self._data.shape)
        except ValueError:
            raise broadcast_error(mask._data.shape, self._data.shape) from None
        return OPS["masked_select"](self, mask=mask._data, self_sizes=self._data.shape)

    def masked_scatter(self, mask, source):
        _check_tensor_argument("masked_scatter", mask, "mask")
        _check_tensor_argument("masked_scatter", source, "source", position=2)
        try:            # (out of place, the shapes come first: PyTorch's expand_outplace)
            shape = np.broadcast_shapes(mask._data.shape, self._data.shape)
        except ValueError:
            raise broadcast_error(mask._data.shape, self._data.shape) from None
        self._masked_scatter_check(mask, source)
        mask = np.broadcast_to(mask._data, shape)
        if int(mask.sum()) > source._data.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        return OPS["masked_scatter"](self, source, mask=mask, source_sizes=source._data.shape)

    def masked_scatter_(self, mask, source):
        self._masked_scatter_check(mask, source, inplace=True)
        mask = mask.expand(self._data.shape)._data         # (expand's message for a mask that does not fit)
        if int(mask.sum()) > source._data.size:
            raise RuntimeError("Number of elements of source < number of ones in mask")
        return self._inplace("masked_scatter", source, mask=mask, source_sizes=source._data.shape)

    def _masked_scatter_check(self, mask, source, inplace=False):
        _check_tensor_argument("masked_scatter", mask, "mask")
        _check_tensor_argument("masked_scatter", source, "source", position=2)
        if inplace:
            _indexing.check_overlaps(self, ())             # (PyTorch's assert_no_internal_overlap comes first)
        if source._data.dtype != self._data.dtype:          # (PyTorch's order: the dtypes, then the mask's)
            raise RuntimeError(f"masked_scatter: expected self and source to have same dtypes but got"
                               f"{_kind(self)} and {_kind(source)}")
        if inplace:
            mask.expand(self._data.shape)                  # (expand's message for a mask that does not fit)
        if mask._data.dtype == np.uint8:                   # (after the expand: no warning when it fails)
            _warnings.warn("masked_scatter_ received a mask with dtype torch.uint8, this behavior is now deprecated,"
                           "please use a mask with dtype torch.bool instead. (Triggered internally at "
                           "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:3130.)", UserWarning)
        if mask._data.dtype != np.bool_:
            raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype {_kind(mask)}")
        return mask._data.shape

    def lerp(self, end, weight):
        _check_arguments("lerp", (end, weight), [("Tensor end", "Tensor weight"), ("Tensor end", "Number weight")])
        if (isinstance(weight, Tensor) and not weight._data.ndim and weight._data.dtype.kind == "f"
                and self._data.dtype.kind not in "fc" and end._data.dtype == self._data.dtype):
            # a 0-d float weight promotes integer inputs, as a 0-d tensor does in PyTorch's type promotion
            return self.to(weight.dtype).lerp(end.to(weight.dtype), weight)
        self._check_lerp(end, weight)
        if isinstance(weight, Tensor):
            return OPS["lerp_tensor"](self, end, weight.to(self.dtype) if weight._data.ndim == 0 else weight)
        return OPS["lerp"](self, end, weight=_py(weight))

    def _check_lerp(self, end, weight, inplace=False):
        # PyTorch's order: dtypes (a 0-d weight may differ), then shapes, then the kernel's dtype
        if end._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {_c_type(self)} for `end` but got dtype {_c_type(end)}")
        tensor_weight = isinstance(weight, Tensor)
        if tensor_weight and weight._data.ndim and weight._data.dtype != self._data.dtype:
            raise RuntimeError(f"expected dtype {_c_type(self)} for `weight` but got dtype {_c_type(weight)}")
        if inplace:                        # (then TensorIterator: overlaps, shapes, types)
            _indexing.check_overlaps(self, (end, weight) if tensor_weight else (end,))
        shape = self._data.shape
        for other in (end, weight):
            if isinstance(other, Tensor) and other._data.shape != shape:
                try:
                    shape = np.broadcast_shapes(shape, other._data.shape)
                except ValueError:
                    raise broadcast_error(shape, other._data.shape) from None
        if inplace and shape != self._data.shape:
            raise RuntimeError(f"output with shape {list(self._data.shape)} doesn't match the broadcast shape "
                               f"{list(shape)}")
        if inplace and tensor_weight and not weight._data.ndim and \
                _dtype.category(weight._data.dtype) > _dtype.category(self._data.dtype):
            # (a 0-d float weight takes part in the result type: int.lerp(int, 0.25-tensor) is float)
            raise RuntimeError(f"result type {_kind(weight)} can't be cast to the desired output type {_kind(self)}")
        if self._data.dtype.kind not in "fc":
            raise NotImplementedError(f'"lerp_kernel_{"tensor" if tensor_weight else "scalar"}" not implemented for '
                                      f"'{_dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len('Tensor')]}'")


    # --- PyTorch's other unary math: the forms that check their arguments (the rows: ops/unary.py) --------
    def polygamma(self, n):
        """x.polygamma(n): the n-th derivative of digamma (torch.polygamma(n, x) takes n first)."""
        _check_polygamma(self, n)
        return OPS["polygamma"](self, n=n)

    def positive(self):
        """+x: x itself (no copy, no node), refused for bool as PyTorch's unary plus is."""
        if self._data.dtype.kind == "b":
            raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
        return self

    def isposinf(self):
        return _infinity_test(self, "isposinf", np.isposinf)

    def isneginf(self):
        return _infinity_test(self, "isneginf", np.isneginf)

    def isreal(self):
        """True where the imaginary part is 0 (everywhere for a real tensor)."""
        data = self._data
        if data.dtype.kind == "V":          # (complex32: its imaginary float16s)
            return Tensor._make(data["imag"] == 0)
        return Tensor._make(data.imag == 0 if data.dtype.kind == "c" else _bools_like(data, True))

    def is_nonzero(self):
        """A one-number tensor's truth, as bool(x): refused for none or several numbers."""
        if self._data.size == 0:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous")
        if self._data.size > 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(-1)[0] != 0)

    def frexp(self):
        """(mantissa, exponent) with x = mantissa * 2**exponent, 0.5 <= |mantissa| < 1: a named tuple, the
        exponent int32 and without gradient (FrexpBackward0 divides the gradient by 2**exponent)."""
        if self._data.dtype.kind != "f":
            raise RuntimeError("torch.frexp() only supports floating-point dtypes")
        exponent = np.asarray(np.frexp(self._data)[1], dtype=np.int32)
        mantissa = OPS["frexp"](self, exponent=exponent)
        return _Frexp((mantissa, Tensor._make(exponent)))

    def ldexp(self, other):
        """x * 2**other (a float result for integers; a bool exponent is refused)."""
        _check_tensor_argument("ldexp", other, "other")
        _check_broadcast(self, other)
        _check_ldexp(self, other)
        return OPS["ldexp"](self, other, exponent_dtype=other._data.dtype)

    def nextafter(self, other):
        """The next float after x towards other (NextafterBackward0 passes the gradient to x unchanged)."""
        _check_tensor_argument("nextafter", other, "other")
        _check_broadcast(self, other)
        _check_nextafter(self, other)
        return OPS["nextafter"](self, other)
    # --- activations PyTorch also has as methods (nn.functional's hardshrink and prelu call these) -------
    def hardshrink(self, lambd=0.5):
        """0 inside [-lambd, lambd], self elsewhere (HardshrinkBackward0)."""
        if self._data.dtype.kind not in "fc":
            raise NotImplementedError(f'"hardshrink_cpu" not implemented for \'{_scalar_name(self)}\'')
        return OPS["hardshrink"](self, lambd=lambd)

    def prelu(self, weight):
        """self where positive, else weight * self; weight has 1 or C (= self.size(1)) values
        (PreluKernelBackward0)."""
        if not isinstance(weight, Tensor):
            raise TypeError(f"prelu(): argument 'weight' (position 1) must be Tensor, not {type(weight).__name__}")
        if self._data.dtype != weight._data.dtype:
            raise RuntimeError(f"prelu: Type promoting not supported. Got {_scalar_name(self)} and {_scalar_name(weight)}")
        if weight._data.size != 1:
            if self._data.ndim == 0:
                raise RuntimeError("Not allow zero-dim input tensor.")
            channels = self._data.shape[1] if self._data.ndim >= 2 else 1
            if weight._data.size != channels:
                raise RuntimeError(f"Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                                   f"{weight._data.size} and channel size = {channels}.")
        if weight._data.ndim > 1:
            raise RuntimeError(f"prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = "
                               f"{weight._data.ndim}")
        if self._data.ndim > 1:     # torch's weight.reshape([1, C, 1, ..., 1]): a view, even when it changes nothing
            weight = weight.view((1, weight._data.size) + (1,) * (self._data.ndim - 2))
        return OPS["prelu"](self, weight)



def _scalar_name(t):
    """PyTorch's name of a dtype in its messages ('Float', 'Long')."""
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]


def _with_alpha(key, a, b, alpha):
    """a.add(b, alpha=...) / a.sub(b, alpha=...), with PyTorch's checks of alpha against the result."""
    alpha = _number(alpha)
    _check_complex_alpha(a, b, alpha)
    return _check_alpha(_binary(key, a, b, alpha=alpha), alpha)


def _check_complex_alpha(a, b, alpha):
    """A complex alpha needs a complex result: refused before the kernel runs."""
    if alpha.__class__ is not complex:
        return
    kinds = {a._data.dtype.kind, b._data.dtype.kind if isinstance(b, Tensor) else "c" if b.__class__ is complex
             else "f" if b.__class__ is float else "i"}
    if "c" in kinds:
        return
    if "f" not in kinds:
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")


def rsub(input, other, alpha=1):
    """torch.rsub(input, other, alpha=1): other - alpha * input (RsubBackward0 for a tensor other, RsubBackward1
    for a number), with sub's refusals of bools and add's checks of alpha."""
    _check_sub(input, other)
    alpha = _number(alpha)
    _check_complex_alpha(input, _number(other), alpha)
    if isinstance(other, Tensor):
        if other._data.shape != input._data.shape:      # (PyTorch computes sub(other, input): other is a)
            try:
                np.broadcast_shapes(other._data.shape, input._data.shape)
            except ValueError:
                raise broadcast_error(other._data.shape, input._data.shape) from None
        out = _binary("rsub_tensor", input, other, alpha=alpha)
    else:
        other = _number(other)
        a = _lifted(input, other)
        out = OPS["rsub"](a, other=_wrapped(other, a), alpha=alpha)
    return _check_alpha(out, alpha)


def _check_alpha(out, alpha):
    """PyTorch's alpha_check against the result's dtype (after the result: gradlab's kernels take any alpha)."""
    kind = out._data.dtype.kind
    if alpha.__class__ is bool and kind != "b":
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if alpha.__class__ is float and kind in "biu":
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if alpha.__class__ is complex and kind != "c":
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")
    return out


def _float_power_dtype(base, exponent):
    """float_power's result dtype: complex128 when base or exponent is complex, float64 otherwise."""
    for v in (base, exponent):
        if v.__class__ is complex or (isinstance(v, Tensor) and v._data.dtype.kind in "cV"):
            return _dtype.complex128
    return _dtype.float64


def _float_power_operand(v, dtype):
    """An operand of float_power in its dtype: a tensor cast (ToCopyBackward0 when it changes), a number
    converted as PyTorch's Scalar.toDouble() / toComplexDouble()."""
    if isinstance(v, Tensor):
        return v.to(dtype)
    v = _number(v)
    return complex(v) if dtype is _dtype.complex128 else float(v)


def float_power(base, exponent):
    """torch.float_power(base, exponent): one of them may be a number (a number base records PowBackward2)."""
    dtype = _float_power_dtype(base, exponent)
    base, exponent = _float_power_operand(base, dtype), _float_power_operand(exponent, dtype)
    if not isinstance(base, Tensor):
        return exponent.__rpow__(base)
    return base.pow(exponent)


# --- helpers of PyTorch's other unary math ------------------------------------------------------

def _check_polygamma(t, n):
    """n >= 0, then the kernel: digamma's for n = 0, trigamma's for 1, polygamma's beyond (none for complex)."""
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if t._data.dtype.kind in "cV":
        raise NotImplementedError(f'"{"digamma" if n == 0 else "trigamma" if n == 1 else "polygamma"}" not '
                                  f"implemented for '{_kind(t)}'")


def _infinity_test(t, name, test):
    """isposinf / isneginf: a bool tensor, False everywhere for integers and bools."""
    data = t._data
    if data.dtype.kind in "cV":
        raise RuntimeError(f"{name} does not support complex inputs.")
    return Tensor._make(test(data) if data.dtype.kind == "f" else _bools_like(data, False))


def _bools_like(data, value):
    """PyTorch's ones_like / zeros_like(x, dtype=bool): x's layout where x is dense, else contiguous."""
    return np.full_like(data, value, dtype=bool) if _dense(data) else np.full(data.shape, value, bool)


def _check_ldexp(t, other):
    """A float x's kernel has no bool exponents; a complex x's pow no half ones."""
    if other._data.dtype.kind == "b" and t._data.dtype.kind == "f":
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    if t._data.dtype.kind == "c" and other._data.dtype == np.float16:
        raise NotImplementedError('"pow" not implemented for \'ComplexHalf\'')


def _check_nextafter(a, b):
    """nextafter has float kernels only: the promoted dtype of both must be a float."""
    dtype = _dtype.result_np_dtype([(a._data.ndim, a._data.dtype), (b._data.ndim, b._data.dtype)], [])
    if dtype.kind != "f":
        raise NotImplementedError(f'"nextafter_cpu" not implemented for '
                                  f"'{_dtype.from_numpy_dtype(dtype)._legacy[:-len('Tensor')]}'")


class _Frexp(tuple, metaclass=CType, c_name="torch.return_types.frexp"):
    """What x.frexp() returns: torch.return_types.frexp (mantissa, exponent)."""
    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    @property
    def mantissa(self):
        return self[0]

    @property
    def exponent(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{type(self).__name__}(\nmantissa={self[0]!r},\nexponent={self[1]!r})"


class _FrexpOut(_Frexp, c_name="torch.return_types.frexp_out"):
    """What torch.frexp(x, out=(m, e)) returns: torch.return_types.frexp_out."""
    __slots__ = ()


_Frexp.__qualname__ = "frexp"
_FrexpOut.__qualname__ = "frexp_out"
_Frexp.__module__ = _FrexpOut.__module__ = "gradlab.return_types"
_Frexp._out_type = _FrexpOut


def _check_complex_fill(t, value, index):
    """index_fill's checks before its dim is read: the index's dtype, then its refusal of a complex number (or 0-d
    complex tensor) for a real tensor."""
    if index._data.dtype != np.int64:
        raise IndexError("index_fill_(): Expected dtype int64 for index.")
    if (isinstance(value, (complex, np.complexfloating)) or isinstance(value, Tensor) and value._data.dtype.kind == "c"
            ) and t._data.dtype.kind != "c":
        raise RuntimeError("index_fill_(): Converting complex Scalar to non-complex type is not supported")
