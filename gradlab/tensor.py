"""Tensor: a numpy array plus what autograd needs (requires_grad, grad, grad_fn, version).

The class itself (its slots, `_make`, plain accessors such as `shape`) is in `_tensor_core.py`, below
autograd and the ops. Its methods need the layers above the core, so they are written as plain class
bodies in the files below and copied onto it here, as PyTorch's torch/_tensor.py adds its Python
methods to the C++ TensorBase. Operators and methods call the op table (`gradlab/ops`); printing
lives in `gradlab/display/printing.py`. Where each method is written:

    _tensor_methods/attributes.py    Tensor(...), size, stride, requires_grad, grad, retain_grad, hooks,
                                     backward, detach, data
    _tensor_methods/conversion.py    item, tolist, numpy, float(t), len, to, type, float(), cuda, new_*,
                                     clone, contiguous
    _tensor_methods/operators.py     + - * / @ ** == < & ~ ..., isnan, any, all, nonzero, eq, greater, ...
    _tensor_methods/pointwise.py     add, div, pow, round, clamp, where, masked_fill, lerp, atan2
    _tensor_methods/reductions.py    sum, mean, max, argmax, var, norm, softmax; matmul, mm, bmm, dot
    _tensor_methods/shape.py         view, reshape, squeeze, transpose, permute, expand, split, gather, ...
    _tensor_methods/inplace.py       t[i], t[i] = v, add_, mul_, fill_, copy_, +=, clamp_, ...
    _tensor_methods/random_fills.py  uniform_, normal_
    _tensor_methods/linalg.py        det, inverse, tril, triu, diag, diagonal, cross, kron, addmm
    _tensor_methods/sorting.py       sort, argsort, topk, kthvalue, median, mode, unique, searchsorted
    _tensor_methods/binary.py        fmax, copysign, xlogy, logaddexp, gcd, ..., eq_, lt_, addr, inner, vdot
    _tensor_methods/_common.py       what several of them use: operand checks, warn-once, maximum
    this file                        repr(t), format(t), copy.deepcopy(t)
    _tensor_methods/variants.py      made from the op table, for every row's `variants` that no file above
                                     writes by hand: exp, sin, tanh, relu, abs, ..., exp_, sin_, ..., arcsin

What a student reads in them is the bookkeeping PyTorch does for every tensor:

* a *leaf* is a tensor the user created; it has no grad_fn, and backward adds into its `.grad`;
* a tensor computed from inputs that require grad has a `grad_fn` (the node that made it) and
  `output_nr` (which output of that node it is);
* `_version` counts in-place changes; views and `detach()` share the counter with their base.
"""
import copy as _copy
from . import _device

from ._tensor_core import Tensor
from .autograd.forward_grads import tangent_of
from .display.printing import format_tensor
from ._tensor_methods.attributes import _AttributeMethods
from ._tensor_methods.conversion import _ConversionMethods
from ._tensor_methods.operators import _OperatorMethods
from ._tensor_methods.pointwise import _PointwiseMethods
from ._tensor_methods.reductions import _ReductionMethods
from ._tensor_methods.shape import _ShapeMethods
from ._tensor_methods.views import _ViewMethods
from ._tensor_methods.inplace import _InPlaceMethods
from ._tensor_methods.random_fills import _RandomFillMethods
from ._tensor_methods.linalg import _LinalgMethods
from ._tensor_methods.sorting import _SortingMethods
from ._tensor_methods.statistics import _LinearAlgebraMethods, _StatisticsMethods
from ._tensor_methods.binary import _BinaryMethods
from ._tensor_methods.misc import _MiscMethods, _MoreMiscMethods
from ._tensor_methods.variants import methods as _methods_from_the_op_table

# names the rest of gradlab (and its tests) import from here
from .ops.shape import cat, concat, concatenate, stack  # noqa: F401
from .ops.operands import _type_name, broadcast_error, where  # noqa: F401
from ._tensor_methods._common import (_WARN_ALWAYS, _WARNED, _argument_type_name, is_warn_always_enabled,  # noqa: F401
                                      matmul, maximum, minimum, set_warn_always)
from ._tensor_core import _FLOAT_ONLY  # noqa: F401
from ._tensor_methods.attributes import _init  # noqa: F401
from ._tensor_methods.conversion import _SCALAR_WARNING  # noqa: F401
from ._tensor_methods.reductions import _ReturnType  # noqa: F401
from ._tensor_methods.shape import _size_args  # noqa: F401


class _PrintingMethods:
    """Copied onto `Tensor` below, like the other method classes."""

    # --- printing (text identical to PyTorch's; Jupyter's HTML cards are added by gradlab/viz/cards.py) ---
    def __repr__(self):
        try:
            node = self.grad_fn
            name = type(node).__name__ if node is not None else None
        except RuntimeError:        # (a view that may not read through its changed base: PyTorch prints this)
            name = "Invalid"
        tangent = tangent_of(self)      # (inside forward_ad.dual_level: PyTorch adds the tangent, as f"{tangent}")
        return format_tensor(self._data, requires_grad=self._requires_grad, grad_fn_name=name,
                             meta=type(self._data) is _device.MetaArray,
                             suffixes=() if tangent is None else (f"tangent={tangent}",))

    __str__ = __repr__

    def __format__(self, spec):
        if self._data.ndim == 0 and type(self._data) is not _device.MetaArray:
            return format(self.item(), spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def __deepcopy__(self, memo):
        if self.grad_fn is not None:
            raise RuntimeError("Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                               "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                               "be because of a torch.nn.utils.weight_norm usage, see "
                               "https://github.com/pytorch/pytorch/pull/103001")
        t = type(self)._make(self._data.copy(order="K"))
        t._requires_grad = self._requires_grad
        if self._grad is not None:
            t._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = t
        if self.__dict__:              # the user's own attributes, copied too (as PyTorch's deepcopy does)
            t.__dict__.update(_copy.deepcopy(self.__dict__, memo))
        return t


def _hand_written(classes):
    """{name: (class, value)} of the class bodies: Tensor's hand-written methods. A name written in two of
    them (or already on the core class) is an error, not a silent choice."""
    written = {}
    for cls in classes:
        for name, value in vars(cls).items():
            if name in ("__module__", "__qualname__", "__doc__", "__dict__", "__weakref__"):
                continue
            if name in written or name in vars(Tensor):
                where = written[name][0].__name__ if name in written else "_tensor_core.py"
                raise ImportError(f"Tensor.{name} is written twice: in {where} and in {cls.__name__}")
            written[name] = cls, value
    return written


# Each class body above becomes Tensor's own methods. (No method uses zero-argument super() or a
# __private name, which would still point at its class.) Their __qualname__ becomes Tensor's, for
# reprs and errors.
for _name, (_methods, _value) in _hand_written((
        _AttributeMethods, _ConversionMethods, _PrintingMethods, _OperatorMethods, _PointwiseMethods, _ReductionMethods,
        _ShapeMethods, _InPlaceMethods, _RandomFillMethods, _LinalgMethods, _SortingMethods,
        _StatisticsMethods, _LinearAlgebraMethods, _BinaryMethods, _ViewMethods, _MiscMethods,
        _MoreMiscMethods)).items():
    _prefix = _methods.__name__ + "."
    for _fn in (_value.fget, _value.fset, _value.fdel) if isinstance(_value, property) else (
            getattr(_value, "__func__", _value),):
        if getattr(_fn, "__qualname__", "").startswith(_prefix):
            _fn.__qualname__ = "Tensor." + _fn.__qualname__[len(_prefix):]
    setattr(Tensor, _name, _value)
del _methods, _prefix, _name, _value, _fn

# Then the methods the op table declares (`variants=`) and no file above writes: x.exp(), x.exp_(), x.arcsin()
for _name, _value in _methods_from_the_op_table(written=vars(Tensor)).items():
    setattr(Tensor, _name, _value)
del _name, _value


def _not_writable(name):
    def refuse(self, value=None):
        raise AttributeError(f"attribute '{name}' of 'torch._C.TensorBase' objects is not writable")
    refuse.__qualname__ = f"Tensor.{name}"
    return refuse


# Setting or deleting a read-only attribute (t.shape = ..., del t.dtype) fails in PyTorch's words, which name
# its C class; the user's own attributes (t.note = 1) go into the tensor's __dict__, as in PyTorch
for _name, _value in list(vars(Tensor).items()):
    if isinstance(_value, property) and _value.fset is None:
        setattr(Tensor, _name, property(_value.fget, _not_writable(_name), _not_writable(_name), _value.__doc__))
del _name, _value
