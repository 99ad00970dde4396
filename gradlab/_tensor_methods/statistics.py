"""Tensor methods: statistics (quantile, nanquantile, cov, corrcoef, logcumsumexp, renorm) and the older
linear algebra methods (cholesky, qr, lu, triangular_solve, pinverse, matrix_exp, ...), copied onto Tensor
by gradlab/tensor.py. Most are PyTorch's compositions, written with the same ops in the same order, so the
grad_fn chain a student sees is PyTorch's (quantile ends in SqueezeBackward4, corrcoef in ClampBackward1)."""
import math

import numpy as np

from .._ctype import CType
from .._tensor_core import Tensor, _wrap_dim
from ..creation import full_like
from ..ops import OPS
from ..ops import indexing as _indexing
from ..ops import linalg as _ops_linalg
from ..ops.matrix import _LinAlgError
from .linalg import _NamedPair
from ..ops.operands import _check_tensor_argument, _kind
from ._common import _warn_once, refuse_complex32_linalg as _refuse_complex32
from .. import _warnings

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


def _type_name(value):
    """A Python value's type as PyTorch's argument errors name it (numpy.float64, Tensor, int)."""
    kind = type(value)
    if isinstance(value, Tensor):
        return "Tensor"
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


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
    if not p > 0:       # (a nan p too)
        raise RuntimeError("renorm: non-positive-norm not supported")
    if isinstance(maxnorm, complex):
        raise RuntimeError("renorm: maxnorm must be real-valued")
    if not maxnorm >= 0:
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
        _warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                       "observations." + _triggered("Correlation.cpp:129"), UserWarning)
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
        return OPS["mul_scalar"](t, other=c)
    return t * c


def _div_number(t, c):
    """t / c with a number c (DivBackward1)."""
    if t._data.dtype.kind in "fc" and not isinstance(c, complex) and c != 0:
        return OPS["nn_div_by_number"](t, other=t._data.dtype.type(c))
    return t / c


# ================================================================ linear algebra: checks and named results

def _named(name, *fields):
    """torch.return_types.<name>: a tuple with named fields, printed as PyTorch's."""
    body = {"__module__": "gradlab.return_types", "__qualname__": name, "__slots__": (), "_fields": fields,
            "n_fields": len(fields), "n_sequence_fields": len(fields)}
    body.update({f: property(lambda self, i=i: self[i]) for i, f in enumerate(fields)})
    return CType(name, (_NamedPair,), body, c_name=f"torch.return_types.{name}")


_QR = _named("qr", "Q", "R")
_LINALG_QR = _named("linalg_qr", "Q", "R")
_LU_UNPACK = _named("lu_unpack", "P", "L", "U")
_LINALG_LU = _named("linalg_lu", "P", "L", "U")
_LU_FACTOR = _named("linalg_lu_factor", "LU", "pivots")
_LU_FACTOR_EX = _named("linalg_lu_factor_ex", "LU", "pivots", "info")
_TRIANGULAR = _named("triangular_solve", "solution", "cloned_coefficient")
_CHOLESKY_EX = _named("linalg_cholesky_ex", "L", "info")
_EIGH = _named("linalg_eigh", "eigenvalues", "eigenvectors")
_EIG = _named("linalg_eig", "eigenvalues", "eigenvectors")
_INV_EX = _named("linalg_inv_ex", "inverse", "info")
_LDL_FACTOR = _named("linalg_ldl_factor", "LD", "pivots")
_GEQRF = _named("geqrf", "a", "tau")
_LDL_FACTOR_EX = _named("linalg_ldl_factor_ex", "LD", "pivots", "info")
_SOLVE_EX = _named("linalg_solve_ex", "result", "info")
_LU_WITH_INFO = _named("_lu_with_info", "LU", "pivots", "info")
_LSTSQ = _named("linalg_lstsq", "solution", "residuals", "rank", "singular_values")


def _at_least_2d(A, name, what="A"):
    if A._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")


def _square(A, name, what="A"):
    _at_least_2d(A, name, what)
    m, n = A._data.shape[-2:]
    if m != n:
        prefix = f"{name}: " if name else ""
        raise RuntimeError(f"{prefix}A must be batches of square matrices, but they are {m} by {n} matrices")


def _floating(A, name):
    _refuse_complex32(A, name)
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_kind(A)}")


def _kernel_dtype(A, kernel, skip_empty=False):
    """A LAPACK kernel's dispatch: no integer, bool or half form (skip_empty: an empty input reaches no kernel)."""
    if skip_empty and A._data.size == 0:
        return
    if A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_kind(A)}'")


def _low_precision(A, name):
    if A._data.dtype == np.float16:
        raise RuntimeError(f"{name}: Low precision dtypes not supported. Got Half")


def _batch_where(i, batched):
    return f"(Batch element {i}): " if batched else ""


def _int32(values, shape):
    return Tensor._make(np.asarray(values, np.int32).reshape(shape))


def cholesky_factor(A, name, upper, check_errors=True):
    """(the factor as an array, info per matrix): L from A's lower triangle (upper: U = L^H, L from the lower
    triangle of A^H, that is A's upper one, as LAPACK's potrf 'U')."""
    L, infos = _ops_linalg.cholesky_lower(np.conj(np.swapaxes(A._data, -1, -2)) if upper else A._data)
    if check_errors:
        for i, info in enumerate(infos):
            if info:
                raise _LinAlgError(f"{name}: {_batch_where(i, A._data.ndim > 2)}The factorization could not be "
                                   "completed because the input is not positive-definite (the leading minor of order "
                                   f"{info} is not positive-definite).")
    factor = np.conj(np.swapaxes(L, -1, -2)) if upper else L
    if upper and np.iscomplexobj(factor):
        # (the two conjugates leave -0 imaginary parts where potrf 'U' writes +0: the zeros below the diagonal
        # and the diagonal, which is real)
        factor = np.triu(factor)
        n = factor.shape[-1]
        factor[..., np.arange(n), np.arange(n)] = factor[..., np.arange(n), np.arange(n)].real
    return _ops_linalg._column_major(factor), infos


def lu_factor_arrays(A):
    """(packed LU (column-major, as LAPACK leaves it), 1-based int32 pivots, info per matrix)."""
    a = A._data
    m, n = a.shape[-2:]
    k = min(m, n)
    flat = a.reshape((int(np.prod(a.shape[:-2])), m, n))
    lus, pivs, infos = np.empty(flat.shape, a.dtype), np.empty((flat.shape[0], k), np.int32), []
    for i, mat in enumerate(flat):
        lu, piv, info = _ops_linalg.getrf(mat)
        lus[i], pivs[i] = lu, piv
        infos.append(info)
    return (_ops_linalg._column_major(lus.reshape(a.shape)), pivs.reshape(a.shape[:-2] + (k,)), infos)


def _warn_triangular_solve():
    """torch.triangular_solve's deprecation (its backward calls triangular_solve again: warned there too)."""
    _warn_once("torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed "
               "in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
               "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be "
               "replaced with\nX = torch.linalg.solve_triangular(A, B)." + _triggered("BatchLinearAlgebra.cpp:2273"))


class _LinearAlgebraMethods:
    """Copied onto Tensor with _StatisticsMethods (gradlab/tensor.py): the older torch.* linear algebra."""

    def cholesky(self, upper=False):
        _warn_once("torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a future "
                   "PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = torch.linalg.cholesky(A)\n"
                   "and\nU = torch.cholesky(A, upper=True)\nshould be replaced with\nU = torch.linalg.cholesky(A).mH\n"
                   "This transform will produce equivalent results for all valid (symmetric positive definite) "
                   "inputs." + _triggered("BatchLinearAlgebra.cpp:1765"))
        if self._data.size == 0:        # (PyTorch returns empty_like before any check)
            if self._data.dtype.kind in "fc":
                return OPS["cholesky"](self, upper=upper, factor=np.empty(self._data.shape, self._data.dtype))
            return Tensor._make(np.empty(self._data.shape, self._data.dtype))
        _square(self, "cholesky")
        _kernel_dtype(self, "cholesky_cpu")
        factor, _ = cholesky_factor(self, "cholesky", upper)
        return OPS["cholesky"](self, upper=upper, factor=factor)

    def cholesky_inverse(self, upper=False):
        _square(self, "cholesky_inverse")
        _kernel_dtype(self, "cholesky_inverse_out_cpu")
        d = np.diagonal(self._data, 0, -2, -1)
        zero = np.nonzero((d == 0).reshape(int(np.prod(d.shape[:-1])), d.shape[-1]))
        if zero[0].size:
            b, i = int(zero[0][0]), int(zero[1][0])
            raise _LinAlgError(f"cholesky_inverse: {_batch_where(b, self._data.ndim > 2)}The diagonal element {i + 1} "
                               "is zero, the inversion could not be completed because the input matrix is singular.")
        return OPS["cholesky_inverse"](self, upper=upper)

    def cholesky_solve(self, input2, upper=False):
        _check_tensor_argument("cholesky_solve", input2, "input2")
        b, A = self, input2
        if b._data.ndim < 2:
            raise RuntimeError(f"b should have at least 2 dimensions, but has {b._data.ndim} dimensions instead")
        if A._data.ndim < 2:
            raise RuntimeError(f"u should have at least 2 dimensions, but has {A._data.ndim} dimensions instead")
        if b._data.dtype != A._data.dtype:
            raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_kind(b)} and A of type "
                               f"{_kind(A)} instead.")
        _square(A, "")
        if A._data.shape[-1] != b._data.shape[-2]:
            raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is "
                               f"{A._data.shape[-1]} by {A._data.shape[-1]} but each b matrix is "
                               f"{b._data.shape[-2]} by {b._data.shape[-1]}")
        _kernel_dtype(b, "cholesky_solve_cpu")
        return OPS["cholesky_solve"](b, A, upper=upper)

    def qr(self, some=True):
        _warn_once("torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                   "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
                   "Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some "
                   "else 'complete')" + _triggered("BatchLinearAlgebra.cpp:2505"))
        return _QR(linalg_qr(self, "reduced" if some else "complete"))

    def geqrf(self):
        """(a, tau): LAPACK's geqrf, the QR with Q kept as Householder reflectors (GeqrfBackward0: none)."""
        if self._data.ndim < 2:
            raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
        _kernel_dtype(self, "geqrf_cpu")
        return _GEQRF(OPS["lapack_geqrf"](self))

    def orgqr(self, input2):
        """torch.orgqr: linalg.householder_product(self, input2)."""
        return householder_product(self, input2, "torch.linalg.householder_product")

    def ormqr(self, input2, input3, left=True, transpose=False):
        """Q (transpose: Q^H) of the reflectors (self, input2) times input3, from the left or the right."""
        name = "torch.ormqr"
        if self._data.ndim < 2:
            raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
        if input3._data.ndim < 2:
            raise RuntimeError(f"{name}: other must have at least 2 dimensions.")
        side = -2 if left else -1
        if input3._data.shape[side] != self._data.shape[-2]:
            raise RuntimeError(f"{name}: other.shape[{side}] must be equal to input.shape[-2]")
        if input2._data.shape[-1] != min(input3._data.shape[side], self._data.shape[-1]):
            raise RuntimeError(f"{name}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
        for other, label in ((input2, "tau"), (input3, "other")):
            if other._data.dtype != self._data.dtype:       # (sic: no space after "dtype" the first time)
                raise RuntimeError(f"{name}: Expected input and {label} to have the same dtype, but input has dtype"
                                   f"{_kind(self)} and {label} has dtype {_kind(other)}")
        _kernel_dtype(self, "ormqr_cpu")
        return OPS["lapack_ormqr"](self, input2, input3, left=left, transpose=transpose)

    def lu(self, pivot=True, get_infos=False):
        if not isinstance(pivot, bool):
            raise TypeError(f"_lu_with_info(): argument 'pivot' must be bool, not {_type_name(pivot)}")
        _warn_once("torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and will be "
                   "removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould be replaced "
                   "with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info = torch.lu(A, "
                   "compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                   "torch.linalg.lu_factor_ex(A, compute_pivots)" + _triggered("BatchLinearAlgebra.cpp:2073"))
        # (torch's _lu_with_info never checks: a singular A's factors come back, whatever get_infos; the
        # method returns a plain tuple, torch.lu with get_infos the named one)
        lu, piv, info = linalg_lu_factor_ex(self, pivot, check_errors=False, name="torch.lu_factor")
        return (lu, piv, info) if get_infos else (lu, piv)

    def lu_solve(self, LU_data, LU_pivots):
        _warn_once("torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a future "
                   "PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                   "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, pivots, B)"
                   + _triggered("BatchLinearAlgebra.cpp:2230"))
        return linalg_lu_solve(LU_data, LU_pivots, self)

    def triangular_solve(self, A, upper=True, transpose=False, unitriangular=False):
        _check_tensor_argument("triangular_solve", A, "A")
        b = self
        if b._data.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has "
                               f"{b._data.ndim} dimensions instead")
        if A._data.ndim < 2:
            raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has "
                               f"{A._data.ndim} dimensions instead")
        if b._data.dtype != A._data.dtype:
            raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_kind(b)} and A of type "
                               f"{_kind(A)} instead.")
        _square(A, "")
        if A._data.shape[-1] != b._data.shape[-2]:
            raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is "
                               f"{A._data.shape[-1]} by {A._data.shape[-1]} but each b matrix is "
                               f"{b._data.shape[-2]} by {b._data.shape[-1]}")
        _kernel_dtype(b, "triangular_solve_cpu")
        _warn_triangular_solve()
        a = np.swapaxes(A._data, -1, -2) if transpose else A._data
        up = (not upper) if transpose else upper
        solution = _ops_linalg._column_major(_ops_linalg.tri_solve(a, b._data, up, True, unitriangular).astype(
            b._data.dtype, copy=False))
        x, m = OPS["triangular_solve"](b, A, upper=upper, transpose=transpose, unitriangular=unitriangular,
                                       solution=solution, warn=_warn_triangular_solve)
        return _TRIANGULAR((x, m))

    def pinverse(self, rcond=1e-15):
        return linalg_pinv(self, rtol=rcond)

    def matrix_exp(self):
        return linalg_matrix_exp(self)


# --- the torch.linalg forms these methods share (gradlab/linalg.py binds them) ---------------------------

def linalg_cholesky_ex(A, upper=False, check_errors=False, name="linalg.cholesky", error_name=None):
    _square(A, name)
    _floating(A, name)
    _kernel_dtype(A, "cholesky_cpu", skip_empty=True)
    factor, infos = cholesky_factor(A, error_name or name, upper, check_errors)
    L = OPS["linalg_cholesky_ex"](A, upper=upper, factor=factor)
    return _CHOLESKY_EX((L, _int32(infos, A._data.shape[:-2])))


def linalg_qr(A, mode="reduced"):
    _at_least_2d(A, "linalg.qr")
    _floating(A, "linalg.qr")
    _kernel_dtype(A, "geqrf_cpu")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', or "
                           "'complete'")
    return _LINALG_QR(OPS["linalg_qr"](A, mode=mode))


def linalg_lu_factor_ex(A, pivot=True, check_errors=False, name="torch.lu_factor",
                        error_name="torch.linalg.lu_factor"):
    if A._data.ndim < 2:
        raise RuntimeError(f"{name}: Expected tensor with 2 or more dimensions. Got size: "
                           f"[{', '.join(map(str, A._data.shape))}] instead")
    _kernel_dtype(A, "lu_cpu", skip_empty=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu, piv, infos = lu_factor_arrays(A)
    if check_errors:
        for i, info in enumerate(infos):
            if info:
                # (a plain RuntimeError in torch: TORCH_CHECK, not LinAlgError's TORCH_CHECK_LINALG)
                raise RuntimeError(f"{error_name}: {_batch_where(i, A._data.ndim > 2)}U[{info},{info}] is "
                                   "zero and using it on lu_solve would result in a division by zero. If you still "
                                   "want to perform the factorization, consider calling linalg.lu(A, pivot) or "
                                   "linalg.lu_factor_ex(A, pivot)")
    LU = OPS["linalg_lu_factor_ex"](A, packed=lu, pivots_array=piv)
    return _LU_FACTOR_EX((LU, Tensor._make(piv), _int32(infos, A._data.shape[:-2])))


def linalg_lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    _check_tensor_argument("linalg_lu_solve", LU, "LU")
    _check_tensor_argument("linalg_lu_solve", pivots, "pivots", position=2)
    _check_tensor_argument("linalg_lu_solve", B, "B", position=3)
    _floating(LU, "torch.linalg.lu_solve")
    if LU._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_kind(LU)} and B of type {_kind(B)} instead")
    if pivots._data.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    _square(LU, "torch.linalg.lu_solve")
    _at_least_2d(B, "linalg.lu_solve", "B")
    n = LU._data.shape[-1]
    if left and B._data.shape[-2] != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation AX = B ({n}x{n} and "
                           f"{B._data.shape[-2]}x{B._data.shape[-1]})")
    if not left and B._data.shape[-1] != n:
        raise RuntimeError(f"linalg.lu_solve: Incompatible shapes of A and B for the equation XA = B ({n}x{n} and "
                           f"{B._data.shape[-2]}x{B._data.shape[-1]})")
    if LU._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.lu_solve: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_kind(LU)} and B of type {_kind(B)} instead")
    if pivots._data.dtype != np.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32")
    _floating(LU, "linalg.lu_solve")
    if pivots._data.ndim == 0 or pivots._data.shape[-1] != n:
        raise RuntimeError("linalg.lu_solve: Number of pivots per batch should be same as the dimension of the matrix")
    if pivots._data.shape != LU._data.shape[:-1]:
        raise RuntimeError("linalg.lu_solve: Expected LU.shape[:-1] and pivots.shape to be the same, but got pivots "
                           f"with shape [{', '.join(map(str, pivots._data.shape))}] instead")
    return OPS["linalg_lu_solve"](LU, B, pivots_array=pivots._data, left=left, adjoint=adjoint)


def householder_product(A, tau, name):
    if A._data.ndim < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if tau._data.ndim < 1:
        raise IndexError("Dimension specified as -1 but tensor has no dimensions")
    m, n = A._data.shape[-2:]
    if m < n:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if n < tau._data.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if A._data.dtype != tau._data.dtype:
        raise RuntimeError(f"{name}: tau dtype {_kind(tau)} does not match input dtype {_kind(A)}")
    _kernel_dtype(A, "orgqr_cpu")
    return OPS["linalg_householder_product"](A, tau)


def linalg_pinv(A, atol=None, rtol=None, hermitian=False):
    if A._data.ndim < 2 or A._data.dtype.kind not in "fc" or A._data.dtype == np.float16:
        raise RuntimeError(f"linalg.pinv({_kind(A)}{{[{', '.join(map(str, A._data.shape))}]}}): expected a tensor with "
                           "2 or more dimensions of float, double, cfloat or cdouble types")
    if rtol is None:
        rtol = 0.0 if atol is not None and atol > 0 else np.finfo(A._data.dtype).eps * max(A._data.shape[-2:])
    if isinstance(rtol, Tensor):
        rtol = float(rtol.item())
    return OPS["linalg_pinv"](A, rtol=float(rtol), hermitian=hermitian)


def linalg_matrix_exp(A):
    _square(A, "linalg.matrix_exp")
    _floating(A, "linalg.matrix_exp")
    return OPS["linalg_matrix_exp"](A)


def linalg_eigh(A, UPLO="L", eigenvectors=True):
    name = "linalg.eigh"
    if UPLO not in ("L", "U", "l", "u"):
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    _square(A, name)
    _kernel_dtype(A, "linalg_eigh_cpu", skip_empty=True)
    w, v = OPS["linalg_eigh"](A, uplo=UPLO.upper(), eigenvectors=eigenvectors)
    return _EIGH((w, v)) if eigenvectors else w


def lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """P, L, U from lu_factor's packed LU and pivots: P without a gradient, L and U one LuUnpackBackward0."""
    _check_tensor_argument("lu_unpack", LU_data, "LU_data")
    _check_tensor_argument("lu_unpack", LU_pivots, "LU_pivots", position=2)
    if LU_data._data.ndim < 2:
        raise RuntimeError(f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: "
                           f"[{', '.join(map(str, LU_data._data.shape))}] instead")
    if unpack_pivots and LU_pivots._data.dtype != np.int32:
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by torch.linalg.lu_factor")
    P, L, U = _ops_linalg.lu_unpack_arrays(LU_data._data, LU_pivots._data)
    empty = Tensor._make(np.empty(0, LU_data._data.dtype))
    if unpack_data:
        L_t, U_t = OPS["lu_unpack"](LU_data, factors=(L, U), lu_shape=LU_data._data.shape)
    else:
        L_t, U_t = empty, Tensor._make(np.empty(0, LU_data._data.dtype))
    P_t = Tensor._make(P) if unpack_pivots else Tensor._make(np.empty(0, LU_data._data.dtype))
    return _LU_UNPACK((P_t, L_t, U_t))


def linalg_lu(A, pivot=True):
    if A._data.ndim < 2:
        raise RuntimeError(f"linalg.lu: Expected tensor with 2 or more dimensions. Got size: "
                           f"[{', '.join(map(str, A._data.shape))}] instead")
    _kernel_dtype(A, "lu_cpu", skip_empty=True)
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    lu, piv, _ = lu_factor_arrays(A)
    P, L, U = _ops_linalg.lu_unpack_arrays(lu, piv)
    L_t, U_t = OPS["linalg_lu"](A, factors=(P, L, U))
    return _LINALG_LU((Tensor._make(P), L_t, U_t))


def _sizes(shape):
    return "[" + ", ".join(map(str, shape)) + "]"
