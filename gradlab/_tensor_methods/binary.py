"""Tensor's binary methods of PyTorch's BinaryOps.cpp that check their arguments before the op table
(ops/arithmetic.py, ops/compare.py): fmax, fmin, copysign, xlogy, logaddexp(2), gcd, lcm,
igamma(c) and their in-place forms; the in-place comparisons (eq_, lt_, greater_equal_, ...) and the
in-place aliases (multiply_, divide_, subtract_, true_divide_); the in-place forms of addmm and its
relatives, cumsum/cumprod and tril/triu; addr, inner, ger, vdot, diagflat."""
import numpy as np

from .. import _dtype
from .._tensor_core import Tensor, _wrap_dim
from .._warnings import warn_once
from ..autograd import grad_mode
from ..ops import OPS, arithmetic as _arithmetic, indexing as _indexing
from ..ops.operands import _binary, _check_tensor_argument, _kind, _number, broadcast_error
from ._common import _NO_ROUNDING, _check_int_scalar, _lifted, _wrapped
from .linalg import _check_mat_dtypes
from .operators import _compare, _no_grad_binary

# integral inputs give the default float dtype (PyTorch's promote_integer_inputs_to_float)
_FLOAT_RESULT = {"copysign", "copysign_scalar", "xlogy", "xlogy_scalar_other"}


def _result_dtype(key, t, other):
    """The dtype PyTorch's TensorIterator computes key(t, other) in (a Python number is a wrapped number)."""
    if isinstance(other, Tensor):
        res = _dtype.result_np_dtype([(t._data.ndim, t._data.dtype), (other._data.ndim, other._data.dtype)], [])
    else:
        res = _dtype.result_np_dtype([(t._data.ndim, t._data.dtype)], [_dtype.category(np.asarray(other).dtype)])
    if key in _FLOAT_RESULT and res.kind in "biu":
        res = _dtype.default_np()
    return res


def _check_inplace(t, other, key=None):
    """TensorIterator's checks of an in-place binary op, in its order (after autograd's): overlaps, the
    broadcast shape (it must be t's), then the result type (t must hold it)."""
    _indexing._check_inplace_allowed(t)
    _indexing.check_overlaps(t, (other,) if isinstance(other, Tensor) else ())
    if isinstance(other, Tensor) and other._data.shape != t._data.shape:
        try:
            shape = np.broadcast_shapes(t._data.shape, other._data.shape)
        except ValueError:
            raise broadcast_error(t._data.shape, other._data.shape) from None
        if shape != t._data.shape:
            raise RuntimeError(f"output with shape [{', '.join(map(str, t._data.shape))}] doesn't match the "
                               f"broadcast shape [{', '.join(map(str, shape))}]")
    if key is None:
        return
    res = _result_dtype(key, t, other)
    if _dtype.category(res) > _dtype.category(t._data.dtype):
        raise RuntimeError(f"result type {_dtype.from_numpy_dtype(res)._legacy[:-6]} can't be cast to the desired "
                           f"output type {_kind(t)}")


def _scalar(other):
    other = _number(other)
    _check_int_scalar(other)
    return other


def _tensor_only(name, key=None):
    """x.<name>(other) and x.<name>_(other) for an op whose other must be a tensor (PyTorch has no Scalar
    overload)."""
    key = key or name

    def method(self, other):
        _check_tensor_argument(name, other)
        if name in ("fmax", "fmin") and "c" in (self._data.dtype.kind, other._data.dtype.kind):
            raise RuntimeError(f"{name} not implemented for complex tensors.")     # (before the shapes)
        if name in ("igamma", "igammac"):
            _check_broadcast(self, other)
            return _binary(key, self, other, lgamma_self=_lgamma_of(self, other))
        return _binary(key, self, other)

    def inplace(self, other):
        _check_tensor_argument(name + "_", other)
        _check_inplace(self, other, key)
        if name in ("igamma", "igammac"):
            return self._inplace(key, other, lgamma_self=_lgamma_of(self, other))
        return self._inplace(key, other)
    method.__name__ = method.__qualname__ = name
    inplace.__name__ = inplace.__qualname__ = name + "_"
    return method, inplace


def _check_broadcast(t, other):
    if t._data.dtype.kind == "c" and other._data.dtype == np.float16 and other._data.ndim:
        # (2 ** other in the complex dtype of other's: before the shapes)
        raise NotImplementedError("\"pow\" not implemented for 'ComplexHalf'")
    if other._data.shape != t._data.shape:
        try:
            np.broadcast_shapes(t._data.shape, other._data.shape)
        except ValueError:
            raise broadcast_error(t._data.shape, other._data.shape) from None




def _lgamma_of(t, other):
    """log Gamma of igamma's self, kept by its node for other's gradient (a float array; PyTorch computes it in the
    backward)."""
    if not (t.requires_grad or other.requires_grad) or t._data.dtype.kind not in "fiu":
        return None
    if t._data.dtype.kind in "iu":      # (PyTorch's lgamma of an integer self: the default float dtype)
        return _arithmetic.lgamma_arrays(t._data.astype(_dtype.default_np()))
    return _arithmetic.lgamma_arrays(t._data)





class _BinaryMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    fmax, _ = _tensor_only("fmax")            # (PyTorch has no fmax_, fmin_, logaddexp_)
    fmin, _ = _tensor_only("fmin")
    logaddexp, _ = _tensor_only("logaddexp")
    logaddexp2, _ = _tensor_only("logaddexp2")
    igamma, igamma_ = _tensor_only("igamma")
    igammac, igammac_ = _tensor_only("igammac")
    del _

    # gcd, lcm: integers only (no gradient): computed in the result dtype, no row of the op table
    def gcd(self, other):
        _check_tensor_argument("gcd", other)
        return _no_grad_binary(_arithmetic.gcd_arrays, self, other)

    def gcd_(self, other):
        _check_tensor_argument("gcd_", other)
        _check_inplace(self, other, "gcd")
        return _indexing._adopt(self, self.gcd(other))

    def lcm(self, other):
        _check_tensor_argument("lcm", other)
        return _no_grad_binary(_arithmetic.lcm_arrays, self, other)

    def lcm_(self, other):
        _check_tensor_argument("lcm_", other)
        _check_inplace(self, other, "lcm")
        return _indexing._adopt(self, self.lcm(other))

    def copysign(self, other):
        if isinstance(other, Tensor):
            return _binary("copysign", self, other)
        other = _scalar(other)
        _refuse_complex_scalar("copysign", self, other)
        return OPS["copysign_scalar"](_lifted(self, other), other=other)

    def copysign_(self, other):
        if isinstance(other, Tensor):
            _check_inplace(self, other, "copysign")
            return self._inplace("copysign", other)
        other = _scalar(other)
        if other.__class__ is complex and self._data.dtype.kind != "c":
            _check_inplace(self, 0)
            raise RuntimeError(f"result type {_complex_name(self)} can't be cast to the desired output type {_kind(self)}")
        _check_inplace(self, other, "copysign_scalar")
        return self._inplace("copysign_scalar", other=other)

    def xlogy(self, other):
        if isinstance(other, Tensor):
            return _binary("xlogy", self, other)
        other = _scalar(other)
        _refuse_complex_scalar("xlogy", self, other)
        return OPS["xlogy_scalar_other"](_lifted(self, other), other=other)

    def xlogy_(self, other):
        if isinstance(other, Tensor):
            _check_inplace(self, other, "xlogy")
            return self._inplace("xlogy", other)
        other = _scalar(other)
        if other.__class__ is complex and self._data.dtype.kind != "c":
            _check_inplace(self, 0)
            raise RuntimeError(f"result type {_complex_name(self)} can't be cast to the desired output type {_kind(self)}")
        _check_inplace(self, other, "xlogy_scalar_other")
        return self._inplace("xlogy_scalar_other", other=other)

    # --- in-place aliases ---------------------------------------------------------------------------
    def multiply_(self, other):
        return self.mul_(other)

    def subtract_(self, other, alpha=1):         # (the Number overload takes alpha by position too)
        return self.sub_(other, alpha=alpha)

    def divide_(self, other, *, rounding_mode=_NO_ROUNDING):
        if rounding_mode is _NO_ROUNDING:
            return self.div_(other)
        return self.div_(other, rounding_mode=rounding_mode)

    def true_divide_(self, other):
        return self.div_(other)

    # --- in-place forms of products, cumulative sums, triangles -------------------------------------
    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        _indexing._check_inplace_allowed(self)
        _check_tensor_argument("addmm_", mat1, "mat1")
        _check_tensor_argument("addmm_", mat2, "mat2")
        # addmm's own checks (dtypes, dims, sizes), then the in-place size, then the rest (self's expansion)
        _check_mat_dtypes(self, mat1, mat2)
        if mat1._data.ndim == 2 and mat2._data.ndim == 2 and mat1._data.shape[1] == mat2._data.shape[0]:
            _check_same_size(self, (mat1._data.shape[0], mat2._data.shape[1]))
        _checked(self.addmm, mat1, mat2, beta=beta, alpha=alpha)
        return self._inplace("addmm", mat1, mat2, beta=beta, alpha=alpha)

    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        _indexing._check_inplace_allowed(self)
        _check_tensor_argument("addmv_", mat, "mat")
        _check_tensor_argument("addmv_", vec, "vec")
        _checked(self.addmv, mat, vec, beta=beta, alpha=alpha)
        _check_same_size(self, mat._data.shape[:1])
        return self._inplace("addmv", mat, vec, beta=beta, alpha=alpha)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        _indexing._check_inplace_allowed(self)
        _check_tensor_argument("baddbmm_", batch1, "batch1")
        _check_tensor_argument("baddbmm_", batch2, "batch2")
        _checked(self.baddbmm, batch1, batch2, beta=beta, alpha=alpha)
        _check_same_size(self, batch1._data.shape[:2] + batch2._data.shape[2:])
        return self._inplace("baddbmm", batch1, batch2, beta=beta, alpha=alpha)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        _indexing._check_inplace_allowed(self)
        _check_tensor_argument("addbmm_", batch1, "batch1")
        _check_tensor_argument("addbmm_", batch2, "batch2")
        _checked(self.addbmm, batch1, batch2, beta=beta, alpha=alpha)     # (self need only broadcast, as PyTorch)
        shape = (batch1._data.shape[1], batch2._data.shape[2])
        if self._data.shape != shape and self._base is None and not self._views:
            # PyTorch's addbmm_ writes through addbmm_out, which resizes self to the result's shape
            result = self.addbmm(batch1, batch2, beta=beta, alpha=alpha)
            self._data = np.empty(shape, self._data.dtype)
            return _indexing._adopt(self, result)
        return self._inplace("addbmm", batch1, batch2, beta=beta, alpha=alpha)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        shape = _check_addr(self, vec1, vec2, beta, alpha)
        _expands_to(self, shape)
        return OPS["addr"](self, vec1, vec2, beta=beta, alpha=alpha)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        _indexing._check_inplace_allowed(self)
        _check_tensor_argument("addr_", vec1, "vec1")
        _check_tensor_argument("addr_", vec2, "vec2")
        for name, v in (("vec1", vec1), ("vec2", vec2)):
            if v._data.ndim != 1:
                raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._data.ndim}-D")
        if self._data.ndim != 2:
            raise RuntimeError(f"2D tensor expected, got {self._data.ndim}D tensor for input")
        shape = _check_addr(self, vec1, vec2, beta, alpha)
        if self._data.shape != shape:
            raise RuntimeError(f"size mismatch, input: {list(self._data.shape)}, v1: {list(vec1._data.shape)}, "
                               f"v2: {list(vec2._data.shape)}")
        _indexing.check_overlaps(self, (vec1, vec2))
        res = _dtype.result_np_dtype([(t._data.ndim, t._data.dtype) for t in (self, vec1, vec2)], [])
        if _dtype.category(res) > _dtype.category(self._data.dtype):
            raise RuntimeError(f"result type {_dtype.from_numpy_dtype(res)._legacy[:-6]} can't be cast to the "
                               f"desired output type {_kind(self)}")
        return self._inplace("addr", vec1, vec2, beta=beta, alpha=alpha)

    # --- cumulative sums and products in place ------------------------------------------------------
    def cumsum_(self, dim, *, dtype=None):
        return _cumulative_(self, "cumsum", dim, dtype)

    def cumprod_(self, dim, *, dtype=None):
        return _cumulative_(self, "cumprod", dim, dtype)

    # --- products: inner, ger, vdot; diagflat -------------------------------------------------------
    def inner(self, other):
        """PyTorch's composition: self * other when either is 0-d, else tensordot over the last dims."""
        _check_tensor_argument("inner", other)
        if not self._data.ndim or not other._data.ndim:
            return self * other
        if self._data.shape[-1] != other._data.shape[-1]:
            raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                               f"{list(self._data.shape)} and {list(other._data.shape)}")
        if self._data.dtype != other._data.dtype:
            raise RuntimeError("both inputs should have same dtype")
        # tensordot(self, other, [-1], [-1]): self keeps its dims, other's last moves to the front
        t1, t2 = self, other
        if other._data.shape[-1] == 1:
            t1 = t1.sum(-1, True)
        na, nb = self._data.ndim, other._data.ndim
        size = t1._data.shape[-1]
        free_a, free_b = t1._data.shape[:-1], t2._data.shape[:-1]
        t1 = t1.permute(list(range(na)))
        t2 = t2.permute([nb - 1] + list(range(nb - 1)))
        if not free_a and not free_b:
            result = t1.reshape(size).dot(t2.reshape(size))
        else:
            result = t1.reshape(int(np.prod(free_a)), size).mm(t2.reshape(size, int(np.prod(free_b))))
        return result.reshape(list(free_a + free_b))

    def ger(self, vec2):
        return self.outer(vec2)

    def vdot(self, other):
        _check_tensor_argument("vdot", other)
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {other._data.ndim}D tensors")
        if self._data.dtype != other._data.dtype:
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_kind(self)} and "
                               f"{_kind(other)}")
        if self._data.shape != other._data.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{self._data.size}] and src [{other._data.size}] to have "
                f"the same number of elements, but got {self._data.size} and {other._data.size} elements respectively")
        if self._data.dtype == np.bool_:
            raise NotImplementedError('"dot" not implemented for \'Bool\'')
        return OPS["vdot"](self, other)

    def diagflat(self, offset=0):
        """PyTorch's composition: self.contiguous().view(-1).diag(offset)."""
        return self.contiguous().view(-1).diag(offset)

    def tril_(self, diagonal=0):
        _indexing._check_inplace_allowed(self)
        if self._data.ndim < 2:
            raise RuntimeError("tril: input tensor must have at least 2 dimensions")
        return self._inplace("tril", diagonal=diagonal)

    def triu_(self, diagonal=0):
        _indexing._check_inplace_allowed(self)
        if self._data.ndim < 2:
            raise RuntimeError("triu: input tensor must have at least 2 dimensions")
        return self._inplace("triu", diagonal=diagonal)


# --- in-place comparisons: x.eq_(y) writes (x == y) into x, in x's dtype ---------------------------------

def _warn_complex(t, complex_other, scalar):
    """PyTorch compares a real x with a complex y in a complex dtype (a float16 x with a complex number: a ComplexHalf,
    whose warning _compare gives), and its copy of the result into x warns that the imaginary part is dropped
    (once per process)."""
    if not complex_other or t._data.dtype.kind in "cb":      # (complex into bool: no warning)
        return
    if t._data.size:
        warn_once(_dtype.COMPLEX_TO_REAL)


def _inplace_comparison(name, ufunc, row):
    def method(self, other):
        _check_inplace(self, other)
        if isinstance(other, Tensor):
            values = _compare(ufunc, self, other)._data
            _warn_complex(self, other._data.dtype.kind == "c", False)
            return self._inplace(row + "_tensor_inplace", other, result=values)
        other = _scalar(other)
        values = _compare(ufunc, self, _wrapped(other, self))._data
        _warn_complex(self, other.__class__ is complex, True)
        return self._inplace(row + "_scalar_inplace", result=values)
    method.__name__ = method.__qualname__ = name
    return method


for _name, _ufunc, _row in (("eq_", np.equal, "eq"), ("ne_", np.not_equal, "ne"), ("lt_", np.less, "lt"),
                            ("le_", np.less_equal, "le"), ("gt_", np.greater, "gt"), ("ge_", np.greater_equal, "ge"),
                            ("greater_", np.greater, "gt"), ("less_", np.less, "lt"),
                            ("greater_equal_", np.greater_equal, "ge"), ("less_equal_", np.less_equal, "le"),
                            ("not_equal_", np.not_equal, "ne")):
    setattr(_BinaryMethods, _name, _inplace_comparison(_name, _ufunc, _row))
del _name, _ufunc, _row


def _complex_name(t):
    """The complex dtype a complex number makes of t (as PyTorch names it: float16 gives ComplexHalf)."""
    return {"float16": "ComplexHalf", "void32": "ComplexHalf", "float64": "ComplexDouble", "complex128": "ComplexDouble"}.get(
        t._data.dtype.name, "ComplexFloat")


def _refuse_complex_scalar(kernel, t, x):
    """A kernel without complex loops, reached by a complex tensor or a complex number."""
    if x.__class__ is complex or t._data.dtype.kind in "cV":
        raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for '{_complex_name(t)}'")


def _xlogy_scalar_self(x, other):
    """xlogy(x, other) for a Python number x: XlogyBackward1 (only other gets a gradient)."""
    x = _scalar(x)
    _refuse_complex_scalar("xlogy", other, x)
    return OPS["xlogy_scalar_self"](_lifted(other, x), self_value=x)


def _checked(method, *args, **kwargs):
    """The out-of-place method's checks (and PyTorch's messages), its result thrown away."""
    with grad_mode.no_grad():
        method(*args, **kwargs)


def _check_same_size(t, shape):
    """An in-place product writes its result into t: t must already have the result's size."""
    if t._data.shape != tuple(shape):
        raise RuntimeError(f"Bad in-place call: input tensor size {list(t._data.shape)} and output tensor size "
                           f"{list(shape)} should match")


def _check_addr(t, vec1, vec2, beta, alpha):
    """addr's checks in PyTorch's order: the vectors' dims, then beta and alpha against the result dtype."""
    _check_tensor_argument("addr", vec1, "vec1")
    _check_tensor_argument("addr", vec2, "vec2")
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v._data.ndim != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v._data.ndim}-D")
    res = _dtype.result_np_dtype([(x._data.ndim, x._data.dtype) for x in (t, vec1, vec2)], [])
    for name, c in (("beta", beta), ("alpha", alpha)):
        c = _number(c)
        if c.__class__ is bool and res.kind != "b":
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if res.kind not in "fc" and c.__class__ not in (bool, int):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")
    return vec1._data.shape + vec2._data.shape


def _expands_to(t, shape):
    """t.expand(shape)'s check, with its message."""
    given = t._data.shape
    pad = len(shape) - len(given)
    if pad < 0:
        raise RuntimeError(f"expand: the requested shape has too few dimensions")
    for i in range(len(given) - 1, -1, -1):
        if given[i] != 1 and given[i] != shape[i + pad]:
            raise RuntimeError(f"The expanded size of the tensor ({shape[i + pad]}) must match the existing size "
                               f"({given[i]}) at non-singleton dimension {i + pad}.  Target sizes: {list(shape)}.  "
                               f"Tensor sizes: {list(given)}")


_C_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
            "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
            "void32": "c10::complex<c10::Half>", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _cumulative_(t, name, dim, dtype):
    """x.cumsum_(dim): autograd's checks, dim, the dtype (it must be x's), the kernel's dtype, then the op."""
    _indexing._check_inplace_allowed(t)
    d = _wrap_dim(dim, t._data.ndim)
    if dtype is not None and dtype.np != t._data.dtype:
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_C_NAMES[t._data.dtype.name]} and output tensor "
                           f"dtype {_C_NAMES[np.dtype(dtype.np).name]} should match")
    if t._data.dtype == np.bool_:
        raise NotImplementedError(f"\"{name}_out_cpu\" not implemented for 'Bool'")
    return t._inplace(name, dim=d)
