"""Choosing ops: clamp, maximum, minimum, where, masked_fill, index_fill (PyTorch's
TensorCompare.cpp), and the tie rule (`keep_max`) relu shares with them.

Each block is the forward (numpy) and one gradient formula per input, with PyTorch's node name.
"""
import numpy as np

from .._dtype import real_part, scalar_in
from .._tensor_core import Tensor
from . import dual
from .arithmetic import _real_input
from .formula_text import shows
from .registry import op, refuse_complex

_NO_COMPLEX_CLAMP = "clamp is not supported for complex types"

_F16, _F32 = np.dtype(np.float16), np.dtype(np.float32)


def keep_max(a, b):
    """max(a, b) with a kept where they tie, as PyTorch's std::max(a, b) (relu(-0.) is -0.); NaN
    propagates. numpy's maximum keeps its second operand on ties (float32/float64; float16 is
    compared in float32, where that holds)."""
    if getattr(a, "dtype", None) == _F16:
        return np.maximum(_as_float32(b), a.astype(_F32)).astype(_F16)
    return np.maximum(b, a)


def keep_min(a, b):
    """min(a, b) with a kept where they tie (see keep_max)."""
    if getattr(a, "dtype", None) == _F16:
        return np.minimum(_as_float32(b), a.astype(_F32)).astype(_F16)
    return np.minimum(b, a)


def _as_float32(x):
    return x.astype(_F32) if isinstance(x, np.ndarray) else x


# --- clamping and choosing ----------------------------------------------------------------------

def _inside(n):
    """1 where clamp let the value through (the boundary counts as inside, as in PyTorch)."""
    mask = n.self == n.self
    if n.min is not None:
        mask = mask & (n.self >= n.min)
    if n.max is not None:
        mask = mask & (n.self <= n.max)
    return mask


def _bound(value, dtype, kernel):
    """A number bound of an integer or bool tensor, as PyTorch converts it: out of the type's range it is
    refused (a negative number for an unsigned type wraps, down to -max, as c10's conversion allows), and
    PyTorch's kernels take no bool bound for a bool tensor."""
    if dtype.kind == "b" and type(value) is bool:
        raise NotImplementedError(f'"{kernel}_cpu" not implemented for \'Bool\'')
    if dtype.kind in "iu" and type(value) is int:
        info = np.iinfo(dtype)
        if not (-info.max if dtype.kind == "u" else info.min) <= value <= info.max:
            name = "int" if dtype == np.int32 else dtype.name + "_t"       # (c10's names: int32_t is int)
            raise RuntimeError(f"value cannot be converted to type {name} without overflow")
        return np.array(value).astype(dtype)
    return value


@op("clamp", "ClampBackward1", variants=("function", "method", "inplace"), aliases=("clip",), saves=("self",),
    shows={"self": "where(self == clamp(self, min, max), grad, 0)"},     # (min or max may be None)
    self=lambda g, n: dual.where_or_zero(_inside(n), g))
def clamp(self, min=None, max=None):
    refuse_complex(_NO_COMPLEX_CLAMP, NotImplementedError, self)
    kernel = "clamp_scalar" if min is not None and max is not None else (
        "clamp_min_scalar" if min is not None else "clamp_max_scalar")
    min, max = _bound(min, self.dtype, kernel), _bound(max, self.dtype, kernel)
    out = self if min is None else keep_max(self, min)       # (PyTorch's min(max(x, lo), hi))
    out = out if max is None else keep_min(out, max)
    return self.copy() if out is self else np.asarray(out).astype(self.dtype, copy=False)


@op("clamp_min", "ClampMinBackward0", variants=("function", "method", "inplace"), saves=("self",),
    self=lambda g, n: dual.where_or_zero(n.self >= n.min, g))
def clamp_min(self, min):
    refuse_complex(_NO_COMPLEX_CLAMP, NotImplementedError, self)
    return keep_max(self, _bound(min, self.dtype, "clamp_min_scalar")).astype(self.dtype, copy=False)


@op("clamp_max", "ClampMaxBackward0", variants=("function", "method", "inplace"), saves=("self",),
    self=lambda g, n: dual.where_or_zero(n.self <= n.max, g))
def clamp_max(self, max):
    refuse_complex(_NO_COMPLEX_CLAMP, NotImplementedError, self)
    return keep_min(self, _bound(max, self.dtype, "clamp_max_scalar")).astype(self.dtype, copy=False)


# clamp with tensor bounds: the bounds get gradients too (where they won)
@op("clamp_tensor", "ClampBackward0", ("self", "min", "max"), saves=("self", "min", "max"),
    self=lambda g, n: dual.where_or_zero((n.self >= n.min) & (n.self <= n.max), g),
    min=lambda g, n: dual.where_or_zero((n.self < n.min) & (n.min <= n.max), g),
    max=lambda g, n: dual.where_or_zero((n.self > n.max) | (n.min > n.max), g))
def clamp_tensor(self, min, max):
    return keep_min(keep_max(self, min), max)


@op("clamp_min_tensor", "ClampMinBackward1", ("self", "min"), saves=("self", "min"),
    self=lambda g, n: dual.where_or_zero(n.self >= n.min, g),
    min=lambda g, n: dual.where_or_zero(n.self < n.min, g))
def clamp_min_tensor(self, min):
    refuse_complex('"maximum_cpu" not implemented for \'{dtype}\'', NotImplementedError, self, min)
    return keep_max(self, min)


@op("clamp_max_tensor", "ClampMaxBackward1", ("self", "max"), saves=("self", "max"),
    self=lambda g, n: dual.where_or_zero(n.self <= n.max, g),
    max=lambda g, n: dual.where_or_zero(n.self > n.max, g))
def clamp_max_tensor(self, max):
    refuse_complex('"minimum_cpu" not implemented for \'{dtype}\'', NotImplementedError, self, max)
    return keep_min(self, max)


def _share(g, mine, theirs, lost):
    """max/min's gradient for input `mine`, as PyTorch's: where(tie, g / 2, g), then 0 where it lost
    (written as zeros, not multiplied: inf * 0 is nan; a nan input never loses)."""
    tie, lost = mine == theirs, lost(mine, theirs)
    if isinstance(g, dual.Tensor):         # (with create_graph: the same ops, recorded)
        return dual.where(tie, dual.div_scalar(g, 2), g).masked_fill(lost, 0)    # (grad / 2: DivBackward1)
    return dual.zero_where(lost, dual.where(tie, g / 2, g))


def _refuse_complex_first(name):
    """maximum/minimum refuse complex operands before TensorIterator checks their shapes."""
    def check(self, other):
        for a in (self, other):
            if isinstance(a, Tensor) and a._data.dtype.kind in "cV":
                raise RuntimeError(f"{name} not implemented for complex tensors.")
    return check


def _pick_grad(mine, theirs):
    """Gradient share of maximum's input `mine`: 1 where it won, 0.5 on ties, 0 where it lost."""
    return lambda g, n: _share(g, getattr(n, mine), getattr(n, theirs), lambda a, b: a < b)


@op("maximum", "MaximumBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other"),
    shows={"self": "where(self == other, grad / 2, where(self > other, grad, 0))",
           "other": "where(self == other, grad / 2, where(other > self, grad, 0))"},
    check=_refuse_complex_first("maximum"),
    self=_pick_grad("self", "other"),
    other=_pick_grad("other", "self"))
def maximum(self, other):
    refuse_complex("maximum not implemented for complex tensors.", RuntimeError, self, other)
    return keep_max(self, other)


def _pick_grad_min(mine, theirs):
    return lambda g, n: _share(g, getattr(n, mine), getattr(n, theirs), lambda a, b: a > b)


@op("minimum", "MinimumBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other"),
    shows={"self": "where(self == other, grad / 2, where(self < other, grad, 0))",
           "other": "where(self == other, grad / 2, where(other < self, grad, 0))"},
    check=_refuse_complex_first("minimum"),
    self=_pick_grad_min("self", "other"),
    other=_pick_grad_min("other", "self"))
def minimum(self, other):
    refuse_complex("minimum not implemented for complex tensors.", RuntimeError, self, other)
    return keep_min(self, other)


@op("where", "WhereBackward0", ("self", "other"), variants=("function", "method"),
    shows={"self": "where(condition, grad, 0)", "other": "where(condition, 0, grad)"},
    self=lambda g, n: _real_input(dual.where_or_zero(dual.like(g, n.condition), g), n, 0),   # (a numpy bool array)
    other=lambda g, n: _real_input(dual.where(n.condition, 0.0, g) if isinstance(g, dual.Tensor)   # (where(condition,
                                   else dual.where_or_zero(~n.condition, g), n, 1))            # 0, grad): the zero first)
def where(self, other, condition):
    return np.where(condition, self, other)


@shows("where(mask, 0, grad)")
def _fill_grad(g, n):
    """zero where the fill wrote (PyTorch's grad.masked_fill(mask, 0): not g * ~mask, inf * 0 is nan)"""
    return dual.zero_where(dual.like(g, n.mask), g)


@op("masked_fill", "MaskedFillBackward0", ("self",), variants=("function", "method", "inplace"),
    self=_fill_grad)
def masked_fill(self, mask, value):
    return np.where(mask, np.asarray(value, dtype=self.dtype), self)


@op("masked_fill_tensor", "MaskedFillBackward1", ("self", "value"), promote=False,
    shows={"value": "where(mask, grad, 0).sum()"},
    self=_fill_grad,
    value=lambda g, n: _real_input(dual.where_or_zero(dual.like(g, n.mask), g), n, 1))   # (summed by the node)
def masked_fill_tensor(self, value, mask):
    return np.where(mask, real_part(value, self.dtype).astype(self.dtype), self)


@op("index_fill", "IndexFillBackward0", ("self",), variants=("function", "method", "inplace"),
    self=_fill_grad)
def index_fill(self, mask, value):
    return np.where(mask, np.asarray(value, dtype=self.dtype), self)


@op("index_fill_tensor", "IndexFillBackward1", ("self", "value"), promote=False,
    shows={"value": "where(mask, grad, 0).sum()"},
    self=_fill_grad,
    value=lambda g, n: _real_input(dual.where_or_zero(dual.like(g, n.mask), g), n, 1))   # (summed by the node)
def index_fill_tensor(self, value, mask, fill):
    """index_fill with a 0-d tensor value: PyTorch fills its item (`fill`, already converted) and records the
    value's gradient (grad.index_select(dim, index.unique()).sum(): each filled entry once)."""
    return np.where(mask, np.asarray(fill, dtype=self.dtype), self)


# --- nan_to_num ---------------------------------------------------------------------------------

@op("nan_to_num", "NanToNumBackward0", variants=("function", "method", "inplace"), saves=("self",),
    shows={"self": "grad * isfinite(self)"},
    self=lambda g, n: g * dual.like(g, np.isfinite(dual.data(n.self))))      # (torch: grad * isfinite(self))
def nan_to_num(self, nan=None, posinf=None, neginf=None):
    if self.dtype.kind not in "fc":
        return self.copy()
    if self.dtype.kind == "c":          # (PyTorch replaces in the real and the imaginary part alike)
        out = np.empty_like(self)
        out.real, out.imag = (nan_to_num.forward(part, nan, posinf, neginf) for part in (self.real, self.imag))
        return out
    info = np.finfo(self.dtype)
    with np.errstate(over="ignore"):          # (a replacement too big for the dtype becomes inf, as in C++)
        nan, posinf, neginf = (None if v is None else scalar_in(v, self.dtype) for v in (nan, posinf, neginf))
    out = np.where(np.isnan(self), self.dtype.type(0.0 if nan is None else nan), self)
    out = np.where(np.isposinf(out), self.dtype.type(info.max if posinf is None else posinf), out)
    out = np.where(np.isneginf(out), self.dtype.type(info.min if neginf is None else neginf), out)
    return out.astype(self.dtype, copy=False)


# --- fmax, fmin: maximum and minimum that ignore a nan ----------------------------------------------

def _fpick(mine_wins):
    """fmax/fmin's gradients (derivatives.yaml): self's where it won (ties: all of it) or other is nan;
    other's everywhere else. Written as zeros where the other input took it (not multiplied: inf * 0)."""
    def self_grad(g, n):
        s, o = dual.data(n.self), dual.data(n.other)
        return dual.zero_where(~(mine_wins(s, o) | np.isnan(o)), g)

    def other_grad(g, n):
        s, o = dual.data(n.self), dual.data(n.other)
        return dual.zero_where(mine_wins(s, o) | np.isnan(o), g)
    return self_grad, other_grad


_FMAX_GRADS = _fpick(np.greater_equal)
_FMIN_GRADS = _fpick(np.less_equal)


@op("fmax", "FmaxBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other"),
    shows={"self": "where((self >= other) | isnan(other), grad, 0)",
           "other": "where((self >= other) | isnan(other), 0, grad)"},
    self=_FMAX_GRADS[0], other=_FMAX_GRADS[1])
def fmax(self, other):
    # (PyTorch keeps self on a tie, -0. against 0. too, and where other is nan: the gradient's own mask)
    with np.errstate(invalid="ignore"):
        return np.where((self >= other) | np.isnan(other), self, other)


@op("fmin", "FminBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other"),
    shows={"self": "where((self <= other) | isnan(other), grad, 0)",
           "other": "where((self <= other) | isnan(other), 0, grad)"},
    self=_FMIN_GRADS[0], other=_FMIN_GRADS[1])
def fmin(self, other):
    with np.errstate(invalid="ignore"):
        return np.where((self <= other) | np.isnan(other), self, other)


# --- in-place comparisons: x.eq_(y) writes x == y into x (in x's dtype), recorded with zero gradients -------

def _zeros(g, n):
    """zeros_like: the comparison is flat (written, not g * 0: inf * 0 is nan)"""
    return dual.like(g, np.zeros_like(dual.data(g)))


def _comparison_rows(name, node):
    # (the values are computed by the caller, with the operators' promotion and errors: `result`)
    @op(name + "_scalar_inplace", f"{node}Backward0", ("self",), promote=False, saved_params=(),
        shows={"self": "zeros_like(grad)"},
        self=_zeros)
    def scalar_form(self, result):
        return result.astype(self.dtype)

    @op(name + "_tensor_inplace", f"{node}Backward1", ("self", "other"), promote=False, saved_params=(),   # (result: no saved tensor)
        shows={"self": "zeros_like(grad)", "other": "zeros_like(grad)"},
        self=_zeros, other=_zeros)
    def tensor_form(self, other, result):
        return result.astype(self.dtype)


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    _comparison_rows(_name, _name.capitalize())
del _name
