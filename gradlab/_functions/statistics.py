"""gradlab.<fn> functions: statistics, integration and window functions (see gradlab/_functions/__init__.py):
quantile, cov, corrcoef, trapezoid, cumulative_trapezoid, gradient, isin, pdist, the window functions, and
the functions PyTorch removed (torch.solve, torch.eig, ...), which raise PyTorch's RuntimeError.
Each is PyTorch's composition (Integration.cpp, ReduceOps.cpp, TensorFactories.cpp) with the same ops, so
their grad_fns are PyTorch's (trapezoid ends in MulBackward1, gradient in CatBackward0)."""
import builtins
import math

import numpy as np

from .. import _dtype
from .._tensor_core import Tensor, _wrap_dim
from ..creation import arange, linspace as _linspace, ones
from ..creation.options import _options
from ..ops import OPS
from ..ops.operands import _check_tensor_argument, _kind
from numpy.lib import _function_base_impl as coefficients      # (np.i0's Cephes coefficients)

from .._tensor_methods._common import _c_type, _warn_once
from .._tensor_methods.statistics import _LU_WITH_INFO, _div_number, _mul_number, _named, _triggered
from ..ops.shape import cat as _cat_op
from ..ops.vectorized.glibc import glibc_expf
from ._common import method_forms

__all__ = ["trapezoid", "trapz", "cumulative_trapezoid", "gradient", "isin", "pdist", "hann_window",
           "hamming_window", "bartlett_window", "blackman_window", "kaiser_window", "frobenius_norm", "nuclear_norm",
           "solve", "lstsq", "eig", "symeig", "matrix_rank"]

# (cholesky, cholesky_inverse, cholesky_solve, triangular_solve, renorm: made from the op table's rows)
_METHODS = ("quantile", "nanquantile", "cov", "corrcoef", "qr", "lu_solve", "pinverse", "matrix_exp")
globals().update(method_forms(*_METHODS))
__all__ += list(_METHODS)


# ------------------------------------------------------------------------------------ integration

def _zeros_like_except(y, dim):
    shape = list(y._data.shape)
    del shape[_wrap_dim(dim, y._data.ndim)]
    return Tensor._make(np.zeros(shape, y._data.dtype))


def _x_viewed(name, y, x, dim):
    """x seen with y's number of dims (a 1-d x along dim), so that its differences broadcast as numpy's."""
    nd = y._data.ndim
    if x._data.ndim == 1:
        if x._data.shape[0] != y._data.shape[dim]:
            raise RuntimeError(f"{name}: There must be one `x` value for each sample point")
        shape = [1] * nd
        shape[dim] = x._data.shape[0]
        return x.view(shape)
    if x._data.ndim < nd:
        return x.view([1] * (nd - x._data.ndim) + list(x._data.shape))
    return x


def _check_dx(name, dx):
    if isinstance(dx, (bool, complex)) or isinstance(dx, Tensor):
        raise RuntimeError(f"{name}: Currently, we only support dx as a real number.")


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """The trapezoid rule along dim: with spacing x (sample positions) or dx (a constant)."""
    _check_tensor_argument("trapezoid", y, "y")
    if x is not None and isinstance(x, Tensor):
        dim = _wrap_dim_no_scalar(_wrap_dim(dim, y._data.ndim), y._data.ndim)
        if y._data.shape[dim] == 0:
            return _zeros_like_except(y, dim)
        if y._data.dtype.kind == "b" or x._data.dtype.kind == "b":
            raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is not supported")
        xv = _x_viewed("trapezoid", y, x, dim)
        d = _slice(xv, dim, 1, None) - _slice(xv, dim, 0, -1)
        return _div_number(((_slice(y, dim, 1, None) + _slice(y, dim, 0, -1)) * d).sum(dim), 2.)
    dx = 1 if dx is None else dx
    dim = _wrap_dim_no_scalar(dim, y._data.ndim)
    if y._data.shape[dim] == 0:
        return _zeros_like_except(y, dim)
    if y._data.dtype.kind == "b":
        raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
    _check_dx("trapezoid", dx)
    return _mul_number(y.sum(dim) - _mul_number(y.select(dim, 0) + y.select(dim, -1), 0.5), float(dx))


def trapz(y, x=None, *, dx=None, dim=-1):
    """torch.trapz: trapezoid's older name (trapz(y, x, *, dim) or trapz(y, *, dx=1, dim), dx a double)."""
    return trapezoid(y, x, dx=None if dx is None else float(dx), dim=dim)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid rule along dim (one fewer element than y there)."""
    _check_tensor_argument("cumulative_trapezoid", y, "y")
    if x is not None and isinstance(x, Tensor):
        dim = _wrap_dim(dim, y._data.ndim)
        if y._data.dtype.kind == "b" or x._data.dtype.kind == "b":
            raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported")
        if x._data.ndim == 1:
            _wrap_dim_no_scalar(dim, y._data.ndim)
        xv = _x_viewed("cumulative_trapezoid", y, x, dim)
        left, right = _slice(y, dim, 0, -1), _slice(y, dim, 1, None)
        d = _slice(xv, dim, 1, None) - _slice(xv, dim, 0, -1)
        return _div_number(((left + right) * d).cumsum(dim), 2.)
    dx = 1 if dx is None else dx
    if y._data.dtype.kind == "b":
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
    _check_dx("cumulative_trapezoid", dx)
    if y._data.ndim == 0:
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    dim = _wrap_dim(dim, y._data.ndim)
    left, right = _slice(y, dim, 0, -1), _slice(y, dim, 1, None)
    return _mul_number(left + right, float(dx) / 2.).cumsum(dim)


def _wrap_dim_no_scalar(dim, nd):
    """maybe_wrap_dim without wrap_scalar: a 0-d tensor has no dim to name."""
    if nd == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _wrap_dim(dim, nd)


def _slice(t, dim, start, stop):
    """t[..., start:stop] along dim (SliceBackward0), as at::slice."""
    key = [slice(None)] * t._data.ndim
    key[dim] = slice(start, stop)
    return t[tuple(key)]


# ------------------------------------------------------------------------------------ gradient

def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """torch.gradient: the derivative estimated by central differences inside, one-sided (edge_order 1) or
    second-order (edge_order 2) differences at the ends; a tuple with one tensor per dim."""
    _check_tensor_argument("gradient", input, "self")
    nd = input._data.ndim
    if isinstance(dim, int):
        dims = [dim]
    elif dim is None:
        dims = None
    else:
        dims = list(dim)
    if isinstance(spacing, (list, tuple)):
        spacing = list(spacing)
        spacing_size = len(spacing)
    else:
        spacing_size = None
    _pre_check_gradient(input, spacing_size, dims, edge_order)
    dims_used = dims if dims is not None else list(range(nd))
    if spacing_size is None:
        if isinstance(spacing, Tensor):
            spacing = [spacing] * len(dims_used)
        else:
            spacing = [spacing] * len(dims_used)
    if spacing and isinstance(spacing[0], Tensor):
        return tuple(_gradient_coordinates(input, spacing, dims_used, edge_order))
    return tuple(_gradient_scalar(input, spacing, dims_used, edge_order))


def _pre_check_gradient(input, spacing_size, dims, edge_order):
    nd = input._data.ndim
    if input._data.dtype == np.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if spacing_size is not None and dims is None and spacing_size != nd:
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal to "
                           f"'self.dim() = {nd}', since dim argument was not given, but got a list of length "
                           f"{spacing_size}")
    if spacing_size is not None and dims is not None and spacing_size != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {spacing_size} "
                           f"and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    if dims is not None:
        seen = set()
        for d in dims:
            w = _wrap_dim(d, nd)
            if w in seen:
                raise RuntimeError(f"dim {w} appears multiple times in the list of dims")
            seen.add(w)
        for d in dims:
            if input._data.shape[_wrap_dim_no_scalar(d, nd)] < edge_order + 1:
                raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    else:
        for n in input._data.shape:
            if n < edge_order + 1:
                raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")


def _gradient_scalar(self, spacing, dims, edge_order):
    result = []
    for d, h in zip(dims, spacing):
        d = _wrap_dim(d, self._data.ndim)
        center = _div_number(_slice(self, d, 2, None) - _slice(self, d, 0, -2), h)
        if edge_order == 1:
            prepend = _div_number(_slice(self, d, 1, 2) - _slice(self, d, 0, 1), h)
            append = _div_number(_slice(self, d, -1, None) - _slice(self, d, -2, -1), h)
        else:
            prepend = _div_number(_mul_number(_slice(self, d, 0, 1), -1.5) + _mul_number(_slice(self, d, 1, 2), 2)
                                  - _mul_number(_slice(self, d, 2, 3), 0.5), h)
            append = _div_number(_mul_number(_slice(self, d, -3, -2), 0.5) - _mul_number(_slice(self, d, -2, -1), 2)
                                 + _mul_number(_slice(self, d, -1, None), 1.5), h)
        result.append(_cat([prepend, _div_number(center, 2), append], d))
    return result


def _gradient_coordinates(self, coordinates, dims, edge_order):
    result = []
    nd = self._data.ndim
    for d, coords in zip(dims, coordinates):
        if coords._data.ndim != 1:
            raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, but got an "
                               f"element with {coords._data.ndim} dimensions!")
        d = _wrap_dim(d, nd)
        shape = [1] * nd
        shape[d] = -1
        ax_dx = coords.diff(1, 0)
        dx1, dx2 = _slice(ax_dx, 0, 0, -1), _slice(ax_dx, 0, 1, None)
        a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
        b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
        c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
        center = a * _slice(self, d, 0, -2) + b * _slice(self, d, 1, -1) + c * _slice(self, d, 2, None)
        if edge_order == 1:
            prepend = (_slice(self, d, 1, 2) - _slice(self, d, 0, 1)) / ax_dx[0]
            append = (_slice(self, d, -1, None) - _slice(self, d, -2, -1)) / ax_dx[-1]
        else:
            a = -(_mul_number(ax_dx[0], 2.0) + ax_dx[1]) / (ax_dx[0] * (ax_dx[0] + ax_dx[1]))
            b = (ax_dx[0] + ax_dx[1]) / (ax_dx[0] * ax_dx[1])
            c = (-ax_dx[0]) / (ax_dx[1] * (ax_dx[0] + ax_dx[1]))
            prepend = a * _slice(self, d, 0, 1) + b * _slice(self, d, 1, 2) + c * _slice(self, d, 2, 3)
            a = (ax_dx[-1]) / (ax_dx[-2] * (ax_dx[-1] + ax_dx[-2]))
            b = -(ax_dx[-1] + ax_dx[-2]) / (ax_dx[-1] * ax_dx[-2])
            c = (_mul_number(ax_dx[-1], 2) + ax_dx[-2]) / (ax_dx[-1] * (ax_dx[-1] + ax_dx[-2]))
            append = a * _slice(self, d, -3, -2) + b * _slice(self, d, -2, -1) + c * _slice(self, d, -1, None)
        result.append(_cat([prepend, center, append], d))
    return result


def _cat(tensors, dim):
    return _cat_op(tensors, dim)


# ------------------------------------------------------------------------------------ isin

def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """A bool tensor shaped like elements: whether each is among test_elements (compared in their common dtype)."""
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments")
    for v in (elements, test_elements):     # (PyTorch's isin_default kernel has no bool or complex form)
        kind = v._data.dtype.kind if isinstance(v, Tensor) else "b" if isinstance(v, bool) else \
            "c" if isinstance(v, complex) else "f"
        if kind in "bc":
            name = _kind_name(v._data.dtype) if isinstance(v, Tensor) else "Bool" if kind == "b" else "ComplexDouble"
            raise RuntimeError(f"Unsupported input type encountered for isin(): {name}")
    e = elements._data if isinstance(elements, Tensor) else np.asarray(elements)
    t = test_elements._data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    if isinstance(elements, Tensor) and isinstance(test_elements, Tensor):
        common = _dtype.result_np_dtype([(1, e.dtype), (1, t.dtype)], [])
    elif isinstance(elements, Tensor):
        common = _dtype.result_np_dtype([(1, e.dtype)], [_dtype.category(np.asarray(test_elements).dtype)])
    else:
        common = _dtype.result_np_dtype([(1, t.dtype)], [_dtype.category(np.asarray(elements).dtype)])
    out = np.isin(e.astype(common), t.astype(common), invert=invert)
    return Tensor._make(np.asarray(out, bool).reshape(e.shape))


def _kind_name(np_dtype):
    return _dtype.from_numpy_dtype(np.dtype(np_dtype))._legacy[:-len("Tensor")]


# ------------------------------------------------------------------------------------ pdist

def pdist(input, p=2):
    """The p-norm distance between each pair of rows of a matrix (row i with the rows after it): one PdistBackward0."""
    _check_tensor_argument("pdist", input, "input")
    if input._data.ndim != 2:
        raise RuntimeError(f"pdist only supports 2D tensors, got: {input._data.ndim}D")
    if input._data.dtype.kind != "f":
        raise RuntimeError("pdist only supports floating-point dtypes")
    if p < 0:
        raise RuntimeError("pdist only supports non-negative p values")
    if input._data.dtype == np.float16 and input._data.shape[0] > 1:     # (the kernel has no half form)
        raise NotImplementedError("\"pdist\" not implemented for 'Half'")
    return OPS["pdist"](input.contiguous(), p=float(p))


# ------------------------------------------------------------------------------------ windows

# C++'s names of the dtypes, as TensorOptions prints them
_CPP_NAMES = {"int64": "long int", "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
              "bool": "bool"}


def _window_checks(name, dtype, window_length, pin_memory=False, device=None):
    dt = _dtype.get_default() if dtype is None else dtype
    if dt.np.kind not in "fc":
        raise RuntimeError(f"{name} expects floating point dtypes, got: TensorOptions(dtype={_CPP_NAMES[dt.np.name]}, "
                           f"device={device if isinstance(device, str) else 'cpu'}, layout=Strided (default), "
                           "requires_grad=false (default), "
                           f"pinned_memory={'true' if pin_memory else 'false'}, memory_format=(nullopt))")
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if dt.np.kind == "c" and window_length > 1:
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_kind_name(dt.np)}'")
    return dt


def _window_result(window, requires_grad):
    if requires_grad:
        window.requires_grad_(True)
    return window


def _short_window(window_length, dt, requires_grad):
    if window_length == 0:
        return _window_result(Tensor._make(np.empty(0, dt.np)), requires_grad)
    return _window_result(ones(1, dtype=dt), requires_grad)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   pin_memory=False, requires_grad=False):
    """alpha - beta cos(2 pi n / (N - 1)), computed as PyTorch does: arange, then mul_, cos_, mul_, add_ in dtype."""
    _options("hamming_window", dtype, device, pin_memory=pin_memory)
    return _hamming("hamming_window", window_length, periodic, alpha, beta, dtype, requires_grad, pin_memory, device)


def _hamming(name, window_length, periodic, alpha, beta, dtype, requires_grad, pin_memory=False, device=None):
    dt = _window_checks(name, dtype, window_length, pin_memory, device)
    if window_length <= 1:
        return _short_window(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    window = arange(n, dtype=dt)
    window.mul_(math.pi * 2. / (n - 1)).cos_().mul_(-beta).add_(alpha)
    return _window_result(window.narrow(0, 0, n - 1) if periodic else window, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                requires_grad=False):
    """hamming_window with alpha = beta = 0.5."""
    _options("hann_window", dtype, device, pin_memory=pin_memory)
    _window_checks("hann_window", dtype, window_length, pin_memory, device)
    return _hamming("hamming_window", window_length, periodic, 0.5, 0.5, dtype, requires_grad, pin_memory, device)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """The triangle 1 - |2n / (N - 1) - 1|: arange scaled by 2 / (N - 1), its second half mirrored as 2 - x."""
    _options("bartlett_window", dtype, device, pin_memory=pin_memory)
    dt = _window_checks("bartlett_window", dtype, window_length, pin_memory, device)
    if window_length <= 1:
        return _short_window(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    window = arange(n, dtype=dt).mul_(2. / (n - 1))
    first_half = ((n - 1) >> 1) + 1
    window.narrow(0, first_half, n - first_half).mul_(-1).add_(2)
    return _window_result(window.narrow(0, 0, n - 1) if periodic else window, requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, pin_memory=False,
                    requires_grad=False):
    """0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1)), in PyTorch's order of operations."""
    _options("blackman_window", dtype, device, pin_memory=pin_memory)
    dt = _window_checks("blackman_window", dtype, window_length, pin_memory, device)
    if window_length <= 1:
        return _short_window(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    window = arange(n, dtype=dt).mul_(math.pi / (n - 1))
    window = window.mul(4).cos_().mul_(0.08) - window.mul(2).cos_().mul_(0.5) + 0.42
    return _window_result(window.narrow(0, 0, n - 1) if periodic else window, requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None, pin_memory=False,
                  requires_grad=False):
    """I0(beta sqrt(1 - ((n - a) / a)^2)) / I0(beta), a = (N - 1) / 2 (I0: the modified Bessel function)."""
    _options("kaiser_window", dtype, device, pin_memory=pin_memory)
    dt = _window_checks("kaiser_window", dtype, window_length, pin_memory, device)
    if window_length <= 1:
        return _short_window(window_length, dt, requires_grad)
    n = window_length + 1 if periodic else window_length
    t = np.float32 if dt.np == np.float16 else dt.np.type     # (half computes in float: PyTorch's opmath)
    a = t((n - 1) / 2.0)
    x = np.arange(n).astype(dt.np).astype(t)
    inner = t(beta) * np.sqrt(np.abs(t(1) - ((x - a) / a) ** t(2)))
    window = (_calc_i0(inner) / _calc_i0(np.asarray([beta], t))[0]).astype(dt.np)
    window = Tensor._make(window)
    return _window_result(window.narrow(0, 0, n - 1) if periodic else window, requires_grad)


def _chbevl(x, coefficients):
    """Cephes' Chebyshev series, step by step in x's precision (PyTorch's chbevl)."""
    t = x.dtype.type
    b0, b1, b2 = np.full_like(x, coefficients[0]), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = x * b1 - b2 + t(c)
    return t(0.5) * (b0 - b2)


def _calc_i0(x):
    """PyTorch's calc_i0 (Cephes' modified Bessel function I0), in x's precision; numpy's np.i0 holds the same
    coefficients. float32's exp is the C library's expf, as PyTorch's scalar kernel calls."""
    t = x.dtype.type
    x = np.abs(x)
    exp = glibc_expf if x.dtype == np.float32 else np.exp
    small = x <= t(8.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = exp(x) * _chbevl(x / t(2.0) - t(2.0), np.array(coefficients._i0A).astype(x.dtype))
        b = exp(x) * _chbevl(t(32.0) / x - t(2.0), np.array(coefficients._i0B).astype(x.dtype)) / np.sqrt(x)
    return np.where(small, a, b).astype(x.dtype)


# ------------------------------------------------------------------------------------ norms kept for JIT

def frobenius_norm(input, dim, keepdim=False, *, out=None):
    """Deprecated in PyTorch (a warning), kept: at::norm(input, 2, dim, keepdim): one NormBackward1."""
    _check_tensor_argument("frobenius_norm", input, "input")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    _warn_once("at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
               "future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` instead" +
               _triggered("LinearAlgebra.cpp:3175"))
    if len(dims) > 2:
        raise RuntimeError(f"Expected at most 2 dimensions, but got {len(dims)} dimensions instead.")
    if input._data.dtype.kind not in "fc":
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {_kind(input)} "
                           "instead.")
    nd = input._data.ndim
    dims = tuple(_wrap_dim(d, nd) for d in dims) if dims else tuple(range(nd))      # (no dims: all of them)
    for i, d in enumerate(dims):
        if d in dims[:i]:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    if not nd:                              # (a 0-d tensor's dim 0 is itself: nothing to reduce over)
        dims = ()
    return _out(OPS["norm_p"](input, p=2, dim=dims, keepdim=keepdim), out)


def nuclear_norm(input, dim=None, keepdim=False, *, out=None):
    """Deprecated in PyTorch (a warning), kept: linalg.matrix_norm(input, 'nuc', dim, keepdim)."""
    _check_tensor_argument("nuclear_norm", input, "input")
    _warn_once("at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be removed in a "
               "future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` instead" +
               _triggered("LinearAlgebra.cpp:3229"))
    if isinstance(dim, bool):
        dim, keepdim = None, dim
    if input._data.ndim < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dim is None:
        dim = (-2, -1)
    return _out(_nuclear(input, dim, keepdim), out)


def _nuclear(A, dim, keepdim):
    """linalg.matrix_norm(A, 'nuc', dim, keepdim): the singular values of A with dim moved last, summed."""
    nd = A._data.ndim
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_kind(A)}")
    dim = (dim, dim) if isinstance(dim, int) else tuple(dim)       # (an int fills PyTorch's IntArrayRef[2])
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = (_wrap_dim(d, nd) for d in dim)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    permutation = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]
    result = OPS["svd"](A.permute(permutation))[1].sum(-1)
    if keepdim:
        reverse = [permutation.index(d) for d in range(nd)]
        result = result.unsqueeze(-1).unsqueeze(-1).permute(reverse)
    return result


def _out(t, out):
    if out is None:
        return t
    out.resize_(t.shape).copy_(t.detach())
    return out


def lu(A, pivot=True, get_infos=False, out=None):
    """torch.lu (torch.functional): lu_factor's (LU, pivots), and info when get_infos; deprecated (a warning)."""
    _check_tensor_argument("lu", A, "A")
    result = A.lu(pivot, get_infos)
    return _LU_WITH_INFO(result) if get_infos else result


# (torch.lu dispatches on get_infos to _lu_with_infos or _lu_no_infos, whose names a wrong keyword's TypeError shows)
lu.__name__ = lu.__qualname__ = "_lu_no_infos"


__all__ += ["lu", "lu_unpack"]


# the functions PyTorch removed (raising its RuntimeError): written with the Tensor methods of the same names
from .._tensor_methods.statistics import (eig, lstsq, lu_unpack, matrix_rank, solve,  # noqa: E402,F401
                                          symeig)


# ------------------------------------------------------------------------------------ histogramdd

_HISTOGRAMDD = _named("histogramdd", "hist", "bin_edges")


def histogramdd(input, bins, range=None, weight=None, density=False, *, out=None):
    """The histogram of points given as the rows of input (its last dim: the coordinates): bins a count per dim
    (or one count for all, or the edges as tensors); the edges as PyTorch's linspace of each dim's min and max
    (or range); a point on the last edge counts in the last bin, points outside are left out."""
    _check_tensor_argument("histogramdd", input, "input")
    for pos, value in enumerate(range if isinstance(range, (list, tuple)) else (), 1):   # (the parser's check)
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            raise TypeError(f"histogramdd(): argument 'range' must be tuple of floats, but found element of type "
                            f"{type(value).__name__} at pos {pos}")
    a = input._data
    if a.ndim < 2:
        raise RuntimeError("torch.histogramdd: input tensor should have at least 2 dimensions")
    n = a.shape[-1]
    points = a.reshape(-1, n)
    given_edges = isinstance(bins, (list, tuple)) and bins and isinstance(bins[0], Tensor)
    counts = list(bins) if isinstance(bins, (list, tuple)) else [bins] * n
    if not given_edges:                 # (the edges from the counts: _histogramdd_bin_edges, PyTorch's order)
        if range is not None and len(range) != 2 * n:
            raise RuntimeError(f"torch.histogramdd: for a {n}-dimensional histogram range should have {2 * n} "
                               f"elements, but got {len(range)}")
        if a.dtype not in (np.float32, np.float64) and range is None and a.size:
            # (the kernel that reads the data's range has float and double forms only)
            raise NotImplementedError(f"\"histogramdd\" not implemented for '{_kind(input)}'")
        bounds = []
        for d in builtins.range(n):
            if range is not None:
                low, high = float(range[2 * d]), float(range[2 * d + 1])
            elif points.shape[0]:
                low, high = float(points[:, d].min()), float(points[:, d].max())
            else:
                low, high = 0.0, 0.0
            if not (math.isfinite(low) and math.isfinite(high)):
                raise RuntimeError(f"torch.histogramdd: dimension {d}'s range [{_g(low)}, {_g(high)}] is not finite")
            if low > high:
                raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {_g(low)} max {_g(high)} "
                                   f"for dimension {d}")
            if low == high:             # (numpy's widening of an empty range)
                low, high = low - 0.5, high + 0.5
            bounds.append((low, high))
        if len(counts) != n:
            raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
        if any(c + 1 < 0 for c in counts):
            raise RuntimeError("number of steps must be non-negative")
        # (edges in the input's dtype; an integer one is refused by the histogram kernel below, not here)
        edges = [_linspace(low, high, c + 1, dtype=input.dtype if a.dtype.kind == "f" else _dtype.float64)
                 for (low, high), c in zip(bounds, counts)]
    else:
        edges = list(counts)
    # histogramdd_check_inputs: the edges, then the weight
    if len(edges) != n:
        raise RuntimeError(f"torch.histogramdd: expected {n} sequences of bin edges for a {n}-dimensional histogram "
                           f"but got {len(edges)}")
    for d, e in enumerate(edges):
        if given_edges and e._data.dtype != a.dtype:
            raise RuntimeError(f"torch.histogramdd: input tensor and bins tensors should have the same dtype, but got "
                               f"input with dtype {_c_type(input)} and bins for dimension {d} with dtype {_c_type(e)}")
        if e._data.ndim != 1:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got {e._data.ndim} "
                               f"dimensions in the bins tensor for dimension {d}")
        if e._data.size == 0:
            raise RuntimeError(f"torch.histogramdd: bins tensor should have at least 1 element, but got 0 elements in "
                               f"the bins tensor for dimension {d}")
    if weight is not None:
        if weight._data.dtype != a.dtype:
            raise RuntimeError(f"torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({_c_type(input)}), and weight({_c_type(weight)})")
        if (tuple(weight._data.shape) or (1,)) != a.shape[:-1]:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               "input tensor excluding its innermost dimension, but got input with shape "
                               f"[{', '.join(map(str, a.shape))}] and weight with shape "
                               f"[{', '.join(map(str, weight._data.shape))}]")
    if not given_edges:
        for d, c in enumerate(counts):
            if c <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {c} for dimension {d}")
    if a.dtype.kind != "f":
        raise NotImplementedError(f"\"histogram_cpu\" not implemented for '{_kind(input)}'")
    hist = np.zeros([e._data.size - 1 for e in edges], a.dtype)
    w = weight._data.reshape(-1) if weight is not None else np.ones(points.shape[0], a.dtype)
    index, keep = [], np.ones(points.shape[0], bool)
    for d, e in enumerate(edges):
        ed = e._data
        x = points[:, d]
        keep &= (x >= ed[0]) & (x <= ed[-1])
        index.append(np.clip(np.searchsorted(ed, x, side="right") - 1, 0, ed.size - 2))
    np.add.at(hist, tuple(i[keep] for i in index), w[keep].astype(a.dtype))
    if density:
        hist = hist / hist.sum()
        for d, e in enumerate(edges):
            shape = [1] * n
            shape[d] = e._data.size - 1
            hist = hist / np.diff(e._data).reshape(shape)
        hist = hist.astype(a.dtype)
    return _HISTOGRAMDD((Tensor._make(hist), tuple(edges)))


def _g(x):
    """A double as C++'s stream prints it."""
    return f"{x:g}"


__all__ += ["histogramdd"]
