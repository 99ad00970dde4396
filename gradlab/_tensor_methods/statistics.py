"""Tensor methods: statistics (quantile, nanquantile, cov, corrcoef, logcumsumexp, renorm) and the older
linear algebra methods (cholesky, qr, lu, triangular_solve, pinverse, matrix_exp, ...), copied onto Tensor
by gradlab/tensor.py. Most are PyTorch's compositions, written with the same ops in the same order, so the
grad_fn chain a student sees is PyTorch's (quantile ends in SqueezeBackward4, corrcoef in ClampBackward1)."""
import math
import warnings

import numpy as np

from .._tensor_core import Tensor, _wrap_dim
from ..creation import full_like, zeros
from ..ops import OPS
from ..ops import indexing as _indexing
from ..ops.operands import _check_tensor_argument, _kind
from ._common import _warn_once

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile(self, q, dim, keepdim, interpolation, ignore_nan):
    """PyTorch's quantile_impl (Sorting.cpp): checks, then sort, ranks, gather and lerp."""
    name = "quantile()"     # (PyTorch's messages say quantile() for nanquantile too)
    if not isinstance(q, Tensor):
        if not 0 <= q <= 1:
            raise RuntimeError(f"{name} q must be in the range [0, 1] but got {_double(q)}")
        q = Tensor._make(np.asarray(q, self._data.dtype if self._data.dtype.kind == "f" else np.float32))
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError(f"{name} interpolation must be one of linear, lower, higher, midpoint or nearest, but got "
                           f"{interpolation}")
    if self._data.size == 0:
        raise RuntimeError(f"{name} input tensor must be non-empty")
    if q._data.ndim > 1:
        raise RuntimeError(f"{name} q must be a scalar or 1D tensor")
    if self._data.dtype not in (np.float32, np.float64):
        raise RuntimeError(f"{name} input tensor must be either float or double dtype")
    if self._data.dtype != q._data.dtype:
        raise RuntimeError(f"{name} q tensor must be same dtype as the input tensor")
    nd = self._data.ndim
    wrapped = _wrap_dim(dim, nd) if dim is not None else None
    qs = q._data
    if not ((qs >= 0) & (qs <= 1)).all():       # (checked after the dim: quantile_compute's first step)
        raise RuntimeError(f"{name} q values must be in the range [0, 1]")
    # the output's shape: q's size, then the reduced input's
    if dim is not None and nd > 0:
        out_shape = list(self._data.shape)
        if keepdim:
            out_shape[wrapped] = 1
        else:
            del out_shape[wrapped]
    elif keepdim:
        out_shape = [1] * nd
    else:
        out_shape = []
    if q._data.ndim > 0:
        out_shape.insert(0, q._data.size)
    # sort, to read the k-th values
    if dim is None:
        sorted_ = self.flatten().sort()[0]
    elif wrapped == nd - 1:
        sorted_ = self.sort()[0]
    else:
        sorted_ = self.unsqueeze(-1).transpose(wrapped, -1).sort()[0]
    if q._data.ndim == 0:      # (q is treated as 1-d below)
        out_shape.insert(0, 1)
    in_shape = out_shape[1:] + [sorted_.shape[-1]]
    sorted_ = sorted_.view(in_shape)
    if ignore_nan:
        # the ranks among the values that are not nan (all nan: rank 0, so the quantile is nan)
        ranks = q * (sorted_.isnan().logical_not_().sum(-1, True) - 1)
        ranks.masked_fill_(ranks < 0, 0)
    else:
        # a nan anywhere: the last rank, so the quantile is nan
        last_index = sorted_.shape[-1] - 1
        a, b = q * last_index, sorted_.isnan().any(-1, True)
        shape = np.broadcast_shapes(a.shape, b.shape)        # (PyTorch's broadcast_tensors)
        a, b = a.expand(shape), b.expand(shape)
        ranks = a.masked_fill(b, last_index)
    if interpolation == "lower":
        ranks.floor_()
    elif interpolation == "higher":
        ranks.ceil_()
    elif interpolation == "nearest":
        ranks.round_()
    ranks_below = ranks.long()
    values_below = sorted_.gather(-1, ranks_below)
    if interpolation in ("linear", "midpoint"):
        weights = full_like(ranks, 0.5) if interpolation == "midpoint" else ranks - ranks_below
        ranks_above = ranks.ceil_().long()
        values_above = sorted_.gather(-1, ranks_above)
        values_below = values_below.lerp(values_above, weights)
    if q._data.ndim == 0:
        values_below.squeeze_(-1)
    else:
        values_below.unsqueeze_(0).transpose_(0, -1).squeeze_(-1)
    return values_below


def _triggered(where):
    """The end PyTorch's C++ warnings carry: where in its sources they were raised."""
    return f" (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/{where}.)"


def _double(x):
    """A number as C++ prints a double (0.5, 1.5, nan, inf; an integer without a point)."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:g}"


class _StatisticsMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    def quantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _quantile(self, q, dim, keepdim, interpolation, False)

    def nanquantile(self, q, dim=None, keepdim=False, *, interpolation="linear"):
        return _quantile(self, q, dim, keepdim, interpolation, True)

    def cov(self, *, correction=1, fweights=None, aweights=None):
        return _cov(self, correction, fweights, aweights)

    def corrcoef(self):
        """PyTorch's corrcoef (Correlation.cpp): cov divided by the standard deviations, clipped to [-1, 1]."""
        if self._data.ndim > 2:
            raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                               f"{self._data.ndim} dimensions")
        c = _cov(self, 1, None, None)
        if c._data.ndim == 0:       # one variable: nan for a nan, inf or 0 covariance, 1 otherwise
            return c / c
        d = c.diagonal()
        stddev = (d.real if d.is_complex() else d).sqrt()
        c = c / stddev.view(-1, 1)
        c = c / stddev.view(1, -1)
        if c.is_complex():      # (PyTorch's at::complex of the clipped parts; gradlab has no torch.complex)
            return c.real.clip(-1, 1) + c.imag.clip(-1, 1) * 1j
        return c.clip(-1, 1)

    def logcumsumexp(self, dim):
        nd = self._data.ndim
        d = _wrap_dim(dim, max(nd, 1))
        if self._data.dtype.kind not in "fc":
            raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_kind(self)}'")
        return OPS["logcumsumexp"](self, dim=d)

    def renorm(self, p, dim, maxnorm):
        _check_renorm(self, p, dim, maxnorm)
        return OPS["renorm"](self, p=float(p), dim=_wrap_dim(dim, self._data.ndim), maxnorm=float(maxnorm))

    def solve(self, other):
        return solve(self, other)

    def lstsq(self, other):
        return lstsq(self, other)

    def eig(self, eigenvectors=False):
        return eig(self, eigenvectors=eigenvectors)

    def symeig(self, eigenvectors=False):
        return symeig(self, eigenvectors=eigenvectors)

    def renorm_(self, p, dim, maxnorm):
        _check_renorm(self, p, dim, maxnorm)
        _indexing._check_inplace_allowed(self)
        return _indexing._adopt(self, self.renorm(p, dim, maxnorm))


def _check_renorm(self, p, dim, maxnorm):
    """renorm's meta function (ReduceOps.cpp), in its order."""
    if isinstance(p, complex):
        raise RuntimeError("renorm: p must be real-valued")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {_double(maxnorm)}")
    if self._data.ndim <= 1:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {self._data.ndim} dimensions")
    d = _wrap_dim(dim, self._data.ndim)
    if self._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor as input. Got {_kind(self)}")
    if p == float("inf"):       # (the norm over the other dims has no identity there)
        for i, n in enumerate(self._data.shape):
            if i != d and n == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the inf norm on the dimension {i}because this "
                                   "dimension is empty and the operation does not have an identity")


def _cov(self, correction, fweights, aweights):
    """PyTorch's cov (Correlation.cpp): observations are the columns; weighted mean, then a matrix product."""
    nd = self._data.ndim
    if nd > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with {nd} "
                           "dimensions")
    if self._data.dtype.kind == "b":
        raise RuntimeError("cov(): bool dtype is not supported for input")
    inp = self.view(1, -1) if nd < 2 else self
    num_observations = inp.shape[1]
    w = None
    if fweights is not None:
        w = fweights
        if w._data.ndim > 1:
            raise RuntimeError("cov(): expected fweights to have one or fewer dimensions but got fweights with "
                               f"{w._data.ndim} dimensions")
        if w._data.dtype.kind not in "iu":
            raise RuntimeError("cov(): expected fweights to have integral dtype but got fweights with "
                               f"{_kind(w)} dtype")
        if w._data.size != num_observations:
            raise RuntimeError("cov(): expected fweights to have the same numel as there are observations in the input "
                               f"but got {w._data.size} != {num_observations}")
        if num_observations and not (w._data.min() >= 0):
            raise RuntimeError("cov(): fweights cannot be negative")
    if aweights is not None:
        aw = aweights
        if aw._data.ndim > 1:
            raise RuntimeError("cov(): expected aweights to have one or fewer dimensions but got aweights with "
                               f"{aw._data.ndim} dimensions")
        if aw._data.dtype.kind != "f":
            raise RuntimeError("cov(): expected aweights to have floating point dtype but got aweights with "
                               f"{_kind(aw)} dtype")
        if aw._data.size != num_observations:
            raise RuntimeError("cov(): expected aweights to have the same numel as there are observations in the input "
                               f"but got {aw._data.size} != {num_observations}")
        if num_observations and not (aw._data.min() >= 0):
            raise RuntimeError("cov(): aweights cannot be negative")
        w = w * aw if w is not None else aw
    w_sum = w.sum() if w is not None else Tensor._make(np.asarray(num_observations, np.int64))
    if w is not None and not bool((w_sum != 0).item()):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = (inp * w if w is not None else inp).sum(1) / w_sum
    if w is not None and aweights is not None and correction != 0:
        norm_factor = w_sum - correction * (w * aweights).sum() / w_sum
    else:
        norm_factor = w_sum - correction
    if bool((norm_factor <= 0).item()):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations." + _triggered("Correlation.cpp:129"), UserWarning, stacklevel=3)
        norm_factor = norm_factor.detach() * 0
    inp = inp - avg.unsqueeze(1)
    c = inp.mm((inp * w if w is not None else inp).t().conj())
    return c.true_divide(norm_factor).squeeze()


# ------------------------------------------------------------------------------------ removed in PyTorch 1.9+
# (PyTorch keeps the names, as Python functions that raise: torch/_linalg_utils.py)

def matrix_rank(input, tol=None, symmetric=False, *, out=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed.\n"
        "Please use the `torch.linalg.matrix_rank` function instead. "
        "The parameter 'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


def solve(input, A, *, out=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.solve` is deprecated in favor of `torch.linalg.solve`. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU factorization.\n\n"
        "To get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or `torch.lu_unpack`.\n"
        "X = torch.solve(B, A).solution "
        "should be replaced with:\n"
        "X = torch.linalg.solve(A, B)")


def lstsq(input, A, *, out=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.lstsq` is deprecated in favor of `torch.linalg.lstsq`.\n"
        "`torch.linalg.lstsq` has reversed arguments and does not return the QR decomposition in "
        "the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
        "The returned solution in `torch.lstsq` stored the residuals of the solution in the "
        "last m - n columns of the returned value whenever m > n. In torch.linalg.lstsq, "
        "the residuals are in the field 'residuals' of the returned named tuple.\n\n"
        "The unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\n"
        "should be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution")


def symeig(input, eigenvectors=False, upper=True, *, out=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed. "
        "The default behavior has changed from using the upper triangular portion of the matrix by default "
        "to using the lower triangular portion.\n\n"
        "L, _ = torch.symeig(A, upper=upper) "
        "should be replaced with:\n"
        "L = torch.linalg.eigvalsh(A, UPLO='U' if upper else 'L')\n\n"
        "and\n\n"
        "L, V = torch.symeig(A, eigenvectors=True) "
        "should be replaced with:\n"
        "L, V = torch.linalg.eigh(A, UPLO='U' if upper else 'L')")


def eig(self, eigenvectors=False, *, e=None, v=None):
    raise RuntimeError(
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real tensors "
        "mimicking complex tensors.\n\n"
        "L, _ = torch.eig(A) "
        "should be replaced with:\n"
        "L_complex = torch.linalg.eigvals(A)\n\n"
        "and\n\n"
        "L, V = torch.eig(A, eigenvectors=True) "
        "should be replaced with:\n"
        "L_complex, V_complex = torch.linalg.eig(A)")


def _mul_number(t, c):
    """t * c as PyTorch's C++ writes it with a number c (MulBackward1); an integer t is promoted as `t * c`."""
    if t._data.dtype.kind in "fc" and not isinstance(c, complex):
        return OPS["mul_by_number"](t, other=c)
    return t * c


def _div_number(t, c):
    """t / c with a number c (DivBackward1)."""
    if t._data.dtype.kind in "fc" and not isinstance(c, complex) and c != 0:
        return OPS["nn_div_by_number"](t, other=t._data.dtype.type(c))
    return t / c
