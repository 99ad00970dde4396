"""torch.linalg: matrix functions (norms, inverse, determinant, solve, cross product, ...).

Each function is PyTorch's composition: linalg.norm picks vector_norm or matrix_norm, matrix_norm's
1 and inf orders are a vector norm then an amax (AmaxBackward0 on top, as in PyTorch), inv, det,
slogdet and solve are ops of the table (ops/matrix.py)."""
import math

import numpy as np

from ._tensor_core import _wrap_dim
from .ops import OPS
from .ops.matrix import _LinAlgError, check_svd_finite as _check_svd_finite
from .ops.shape import cat as _cat
from .ops.operands import _check_tensor_argument, _kind
from ._tensor_core import Tensor
from ._tensor_methods import statistics as _stats
from ._tensor_methods.linalg import (_svd_norm, _check_square, _check_svd_input, _cross, _LinalgSlogdetResult, _LinalgSvdResult,
                                     _matrix_power)

LinAlgError = _LinAlgError

__all__ = ["LinAlgError", "norm", "vector_norm", "matrix_norm", "inv", "det", "slogdet", "solve", "cross",
           "matrix_power", "multi_dot", "vecdot", "diagonal", "svdvals", "svd",
           "cholesky", "cholesky_ex", "qr", "lu", "lu_factor", "lu_factor_ex", "lu_solve", "solve_triangular", "pinv",
           "matrix_exp", "eigh", "eigvalsh", "eig", "eigvals", "matrix_rank", "inv_ex", "solve_ex", "matmul", "vander",
           "cond", "tensorinv", "tensorsolve", "lstsq", "ldl_factor", "ldl_factor_ex", "ldl_solve",
           "householder_product"]

_INF = float("inf")


# ------------------------------------------------------------------------------------------ norms

def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    _check_tensor_argument("linalg_vector_norm", x, "input")
    if isinstance(ord, str):
        raise TypeError(f"linalg_vector_norm(): argument 'ord' (position 2) must be Number, not str")
    if isinstance(dim, int):
        dim = (dim,)
    return _result(x.norm(ord, dim, keepdim, dtype), out)


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    _check_tensor_argument("linalg_matrix_norm", A, "input")
    return _result(_matrix_norm(A, ord, dim, keepdim, dtype), out)


def _matrix_norm(A, ord, dim, keepdim, dtype):
    nd = A._data.ndim
    if nd < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if isinstance(ord, str) and ord not in ("fro", "nuc") or not isinstance(ord, str) and ord not in (1, -1, 2, -2,
                                                                                                     _INF, -_INF):
        raise RuntimeError(f"linalg.matrix_norm: Order {_order(ord)} not supported.")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.matrix_norm: Expected a floating point or complex tensor as input. Got {_kind(A)}")
    dim = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    if len(dim) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    d0, d1 = _wrap_dim(dim[0], nd), _wrap_dim(dim[1], nd)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
    if isinstance(ord, str):
        if ord == "fro":
            return A.norm(2, (d0, d1), keepdim, dtype)
        return _svd_norm(A, ord, d0, d1, keepdim, dtype)
    if ord in (1, -1, _INF, -_INF):
        if abs(ord) == _INF:
            d0, d1 = d1, d0
        if A._data.shape[d0] == 0 or A._data.shape[d1] == 0:
            raise RuntimeError(f"linalg.matrix_norm cannot compute the {_order(ord)} norm on an empty tensor because "
                               "the operation does not have an identity")
        if not keepdim and d0 < d1:
            d1 -= 1
        sums = A.norm(1, (d0,), keepdim, dtype)
        return sums.amax(d1, keepdim) if ord > 0 else sums.amin(d1, keepdim)
    return _svd_norm(A, ord, d0, d1, keepdim, dtype)


def svdvals(A, *, driver=None, out=None):
    _check_tensor_argument("linalg_svdvals", A, "A")
    if A._data.ndim < 2:
        raise RuntimeError("linalg.svd: The input tensor A must have at least 2 dimensions.")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.svd: Expected a floating point or complex tensor as input. Got {_kind(A)}")
    return _result(OPS["svd"](A)[1], out)


def svd(A, full_matrices=True, *, driver=None, out=None):
    """U, S, Vh with A = U diag(S) Vh (LinalgSvdBackward0 for all three); U and Vh square when full_matrices."""
    _check_tensor_argument("linalg_svd", A, "A")
    _check_svd_input(A, "linalg.svd")
    result = _LinalgSvdResult(OPS["svd"](A, full_matrices=True) if full_matrices else OPS["svd"](A))
    if out is not None:
        for o, r in zip(out, result):
            o.resize_(r.shape).copy_(r.detach())
        return out
    return result


def _order(ord):
    return f"{ord:g}" if isinstance(ord, float) else str(ord)


def norm(A, ord=None, dim=None, keepdim=False, *, out=None, dtype=None):
    _check_tensor_argument("linalg_norm", A, "input")
    if dim is not None:
        dims = tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    elif ord is not None:
        if A._data.ndim not in (1, 2):
            raise RuntimeError("linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A._data.ndim}D.")
        dims = tuple(range(A._data.ndim))
    else:
        dims = None
    if ord is not None and dims is not None and (len(dims) == 2 or isinstance(ord, str)):
        result = _matrix_norm(A, "fro" if ord is None else ord, dims, keepdim, dtype)
    else:
        result = A.norm(2 if ord is None else ord, dims, keepdim, dtype)
    return _result(result, out)


def _result(t, out):
    if out is None:
        return t
    out.copy_(t)
    return out


# ------------------------------------------------------------------------------------------ matrices

def inv(A, *, out=None):
    _check_tensor_argument("linalg_inv", A, "A")
    _check_square(A, "linalg.inv")
    return _result(OPS["inverse"](A), out)


def det(A, *, out=None):
    _check_tensor_argument("linalg_det", A, "A")
    return _result(A.det(), out)


def slogdet(A, *, out=None):
    _check_tensor_argument("linalg_slogdet", A, "A")
    _check_square(A, "linalg.slogdet")
    return _LinalgSlogdetResult(OPS["slogdet"](A))


def _lu_infos(A):
    """LAPACK getrf's info per matrix (0, or the index of the first zero pivot) as torch's int32 tensor."""
    info = np.zeros(A._data.shape[:-2], np.int32)
    info.reshape(-1)[:] = [(_stats._ops_linalg.getrf(m)[2]) for m in _stats._ops_linalg._batches(A._data)]
    return info


def solve(A, B, *, left=True, out=None):
    _check_tensor_argument("linalg_solve", A, "A")
    _check_tensor_argument("linalg_solve", B, "B", position=2)
    return _result(_solve(A, B, left, True, "torch.linalg.solve"), out)


def _solve(A, B, left, check_errors, name):
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve: Expected A and B to have the same dtype, but found A of type {_kind(A)} and "
                           f"B of type {_kind(B)} instead")
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"linalg.solve: Expected a floating point or complex tensor as input. Got {_kind(A)}")
    _check_square(A, "linalg.solve")
    a, b = A._data.shape, B._data.shape
    vector = left and (B._data.ndim == 1 or (len(a) - 1 == len(b) and b == a[:-1]))
    if vector:
        rows, cols = b[-1], 1
    else:
        rows, cols = (b[-2] if len(b) >= 2 else 1), b[-1]
    if (rows if left else cols) != a[-1]:
        raise RuntimeError(f"linalg.solve: Incompatible shapes of A and B for the equation {'AX' if left else 'XA'} = B "
                           f"({a[-2]}x{a[-1]} and {rows}x{cols})")
    return OPS["solve"](A, B, vector=vector, left=left, check_errors=check_errors, error_prefix=name)


def cross(input, other, *, dim=-1, out=None):
    _check_tensor_argument("linalg_cross", input, "input")
    _check_tensor_argument("linalg_cross", other, "other", position=2)
    return _result(_cross(input, other, dim), out)


def matrix_power(A, n, *, out=None):
    _check_tensor_argument("linalg_matrix_power", A, "input")
    return _result(_matrix_power(A, n), out)


def vecdot(x, y, *, dim=-1, out=None):
    _check_tensor_argument("linalg_vecdot", x, "x")
    _check_tensor_argument("linalg_vecdot", y, "y", position=2)
    if x._data.dtype != y._data.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type {_kind(x)} "
                           f"and y of type {_kind(y)} instead")
    return _result((x * y).sum(dim), out)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    _check_tensor_argument("linalg_diagonal", A, "A")
    return A.diagonal(offset, dim1, dim2)


def multi_dot(tensors, *, out=None):
    """The product of a chain of matrices (the first and last may be vectors), in the cheapest order
    (PyTorch's dynamic programming over the chain), viewed to the result's shape at the end."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    for i, t in enumerate(tensors):
        nd = t._data.ndim
        allowed = (1, 2) if i in (0, n - 1) else (2,)
        if nd not in allowed:
            where = "first" if i == 0 else "last" if i == n - 1 else None
            if where:
                raise RuntimeError(f"multi_dot(): the {where} tensor must be 1D or 2D but got {nd}D")
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {nd}D")
    mats = list(tensors)
    if first._data.ndim == 1:
        mats[0] = first.unsqueeze(0)
    if last._data.ndim == 1:
        mats[-1] = last.unsqueeze(-1)
    for i in range(n - 1):
        if mats[i]._data.shape[1] != mats[i + 1]._data.shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i} and {i + 1} with shapes "
                               f"{list(mats[i]._data.shape)} and {list(mats[i + 1]._data.shape)} cannot be multiplied")
    dtype = first._data.dtype
    for t in tensors:
        if t._data.dtype != dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is {_kind(first)} "
                               f"and tensor {tensors.index(t)} {_kind(t)}")
    if n == 2:
        result = mats[0].mm(mats[1])
    elif n == 3:
        a, b = mats[0]._data.shape
        c = mats[2]._data.shape[0]
        d = mats[2]._data.shape[1]
        cost_1 = (a * c) * (b + d)        # (A B) C
        cost_2 = (b * d) * (a + c)        # A (B C)
        result = mats[0].mm(mats[1]).mm(mats[2]) if cost_1 < cost_2 else mats[0].mm(mats[1].mm(mats[2]))
    else:
        result = _chain(mats, _chain_order(mats), 0, n - 1)
    shape = ((first._data.shape[0],) if first._data.ndim == 2 else ()) + \
            ((last._data.shape[1],) if last._data.ndim == 2 else ())
    return _result(result.view(shape), out)


def _chain_order(mats):
    p = [mats[0]._data.shape[0]] + [m._data.shape[1] for m in mats]
    n = len(mats)
    cost = [[0] * n for _ in range(n)]
    order = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < cost[i][j]:
                    cost[i][j], order[i][j] = q, k
    return order


def _chain(mats, order, i, j):
    if i == j:
        return mats[i]
    return _chain(mats, order, i, order[i][j]).mm(_chain(mats, order, order[i][j] + 1, j))



# ------------------------------------------------------------------------------------------ decompositions
# (the forms torch.cholesky, torch.qr, torch.lu, ... share with these are in _tensor_methods/statistics.py)

def cholesky(A, *, upper=False, out=None):
    """L with A = L L^H (lower; upper=True: U = L^H): one LinalgCholeskyExBackward0."""
    _check_tensor_argument("linalg_cholesky", A, "A")
    return _result(_stats.linalg_cholesky_ex(A, upper, check_errors=True)[0], out)


def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(L, info): info > 0 is the order of the first leading minor that is not positive-definite."""
    _check_tensor_argument("linalg_cholesky_ex", A, "A")
    return _stats.linalg_cholesky_ex(A, upper, check_errors, error_name="linalg.cholesky_ex")


def qr(A, mode="reduced", *, out=None):
    """(Q, R) with A = Q R, Q's columns orthonormal, R upper triangular: one LinalgQrBackward0."""
    _check_tensor_argument("linalg_qr", A, "A")
    return _stats.linalg_qr(A, mode)


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    _check_tensor_argument("linalg_lu_factor_ex", A, "A")
    return _stats.linalg_lu_factor_ex(A, pivot, check_errors, name="torch.lu_factor",
                                      error_name="torch.linalg.lu_factor_ex")


def lu_factor(A, *, pivot=True, out=None):
    """(LU, pivots): L (unit, below the diagonal) and U packed in one matrix, and LAPACK's 1-based row swaps."""
    _check_tensor_argument("linalg_lu_factor", A, "A")
    lu_, piv, _ = _stats.linalg_lu_factor_ex(A, pivot, check_errors=True, name="torch.lu_factor")
    return _stats._LU_FACTOR((lu_, piv))


def lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P L U: L and U from one LinalgLuBackward0, P without a gradient."""
    _check_tensor_argument("linalg_lu", A, "A")
    return _stats.linalg_lu(A, pivot)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """X with A X = B (left=False: X A = B; adjoint: A^H) for A given by lu_factor's LU and pivots."""
    return _result(_stats.linalg_lu_solve(LU, pivots, B, left=left, adjoint=adjoint), out)


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """X with A X = B (left=False: X A = B), reading only A's upper or lower triangle."""
    _check_tensor_argument("linalg_solve_triangular", A, "A")
    _check_tensor_argument("linalg_solve_triangular", B, "B", position=2)
    _stats._square(A, "linalg.solve_triangular")
    _stats._at_least_2d(B, "linalg.solve_triangular", "B")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"linalg.solve_triangular: Expected A and B to have the same dtype, but found A of type "
                           f"{_kind(A)} and B of type {_kind(B)} instead")
    n = A._data.shape[-1]
    rows, cols = B._data.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"linalg.solve_triangular: Incompatible shapes of A and B for the equation "
                           f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {rows}x{cols})")
    _stats._kernel_dtype(A, "triangular_solve_cpu")
    return _result(OPS["linalg_solve_triangular"](A, B, upper=upper, left=left, unitriangular=unitriangular), out)


def pinv(A, *, atol=None, rtol=None, hermitian=False, out=None):
    """The Moore-Penrose pseudo-inverse (singular values below max(atol, rtol * the largest) count as 0)."""
    _check_tensor_argument("linalg_pinv", A, "input")
    return _result(_stats.linalg_pinv(A, atol, rtol, hermitian), out)


def matrix_exp(A):
    """exp(A) = I + A + A^2 / 2! + ...: one LinalgMatrixExpBackward0."""
    _check_tensor_argument("linalg_matrix_exp", A, "input")
    return _stats.linalg_matrix_exp(A)


def eigh(A, UPLO="L", *, out=None):
    """(eigenvalues ascending, eigenvectors as columns) of a Hermitian matrix, from its UPLO triangle."""
    _check_tensor_argument("linalg_eigh", A, "A")
    return _stats.linalg_eigh(A, UPLO, True)


def eigvalsh(A, UPLO="L", *, out=None):
    _check_tensor_argument("linalg_eigvalsh", A, "A")
    return _result(_stats.linalg_eigh(A, UPLO, False), out)


def _eig(A, name):
    _stats._square(A, name)
    if A._data.dtype.kind not in "fc":
        raise RuntimeError(f"Unknown Complex ScalarType for {_kind(A)}")
    _stats._kernel_dtype(A, "linalg_eig_out_cpu")
    if not np.isfinite(A._data).all():
        # (linalg.eig's message says torch.linalg.eig; torch's eigvals crashes on a nan, gradlab raises the same)
        raise RuntimeError(f"torch.{name}: input tensor should not contain infs or NaNs.")
    return OPS["linalg_eig"](A)


def eig(A, *, out=None):
    """(eigenvalues, eigenvectors) of a square matrix, complex: one LinalgEigBackward0."""
    _check_tensor_argument("linalg_eig", A, "A")
    return _stats._EIG(_eig(A, "linalg.eig"))


def eigvals(A, *, out=None):
    _check_tensor_argument("linalg_eigvals", A, "A")
    return _result(_eig(A, "linalg.eigvals")[0], out)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values above max(atol, rtol * the largest) (int64)."""
    _check_tensor_argument("linalg_matrix_rank", A, "input")
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if A._data.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    a = A._data
    if tol is not None:
        atol, rtol = tol, 0.0
    if not hermitian:
        _check_svd_finite(a)
    finite = np.isfinite(a).all(axis=(-2, -1))
    clean = np.where(finite[..., None, None], a, 0)       # (an inf: nan singular values, none counted)
    s = np.abs(np.linalg.eigvalsh(clean)) if hermitian and a.size else (
        np.linalg.svd(clean, compute_uv=False) if a.size else np.zeros(a.shape[:-2] + (0,), a.real.dtype))
    s = np.where(finite[..., None], s, np.nan)
    atol_v = 0.0 if atol is None else (atol._data if isinstance(atol, Tensor) else atol)
    if rtol is None:
        rtol_v = 0.0 if (atol is not None and np.any(np.asarray(atol_v) > 0)) else np.finfo(a.dtype).eps * max(
            a.shape[-2:])
    else:
        rtol_v = rtol._data if isinstance(rtol, Tensor) else rtol
    smax = s.max(axis=-1, keepdims=True) if s.shape[-1] else np.zeros(s.shape[:-1] + (1,), s.dtype)
    tol_v = np.maximum(np.asarray(atol_v)[..., None] if np.ndim(atol_v) else atol_v,
                       (np.asarray(rtol_v)[..., None] if np.ndim(rtol_v) else rtol_v) * smax)
    return _result(Tensor._make(np.sum(s > tol_v, axis=-1).astype(np.int64)), out)


def inv_ex(A, *, check_errors=False, out=None):
    """(inverse, info): info > 0 names the first zero pivot of A's LU (the inverse is then not meaningful)."""
    _check_tensor_argument("linalg_inv_ex", A, "A")
    _stats._square(A, "linalg.inv")
    _stats._floating(A, "linalg.inv")
    _stats._low_precision(A, "linalg.inv")
    # (torch's values for a singular A: the LU substitution's infs and nans, and LinalgInvExBackward0)
    result = OPS["inverse"](A, check_errors=check_errors, error_prefix="linalg.inv_ex")
    info = _lu_infos(A)
    return _stats._INV_EX((result, Tensor._make(info)))


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(solve(A, B), info)."""
    _check_tensor_argument("linalg_solve_ex", A, "A")
    _check_tensor_argument("linalg_solve_ex", B, "B", position=2)
    result = _solve(A, B, left, check_errors, "torch.linalg.solve_ex")
    info = _lu_infos(A)
    return _stats._SOLVE_EX((result, Tensor._make(info)))


def matmul(input, other, *, out=None):
    """torch.linalg.matmul is torch.matmul."""
    _check_tensor_argument("linalg_matmul", input, "input")
    return _result(input.matmul(other), out)


def vander(x, *, N=None):
    """PyTorch's composition: a column of ones, then cumprod of x repeated N - 1 times (CatBackward0 on top)."""
    _check_tensor_argument("linalg_vander", x, "x")
    kind = x._data.dtype
    if not (kind in (np.float32, np.float64, np.complex64, np.complex128) or kind.kind in "iu"):
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got {_kind(x)}")
    x_ = x.unsqueeze(-1) if x._data.ndim == 0 else x
    shape = list(x_._data.shape)
    n = shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape.append(n - 1)
    result = x_.unsqueeze(-1).expand(*shape).cumprod(-1)
    shape[-1] = 1
    ones = result.new_ones(shape)
    return _cat([ones, result], -1)


def cond(A, p=None, *, out=None):
    """The condition number ||A|| ||A^-1|| in norm p (None, 2, -2: the ratio of the extreme singular values),
    PyTorch's linalg_cond: 0 for an empty matrix, inf where A is singular."""
    _check_tensor_argument("linalg_cond", A, "A")
    if isinstance(p, str):
        name = f"linalg.cond(ord={p})"
        _stats._square(A, name)
        if p not in ("fro", "nuc"):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    else:
        if A._data.ndim < 2:
            raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
        if p is not None and p not in (1, -1, 2, -2, math.inf, -math.inf):
            raise RuntimeError(f"linalg.cond got an invalid norm type: {_order(p)}")
    if A._data.size == 0:
        real = np.zeros(A._data.shape[:-2], A._data.real.dtype if A._data.dtype.kind == "c" else A._data.dtype)
        return _result(Tensor._make(real), out)
    if p is None or p in (2, -2):
        _stats._floating(A, "linalg.svd")
        _stats._kernel_dtype(A, "linalg_svd_cpu")
        s = svdvals(A)
        big, small = s.narrow(-1, 0, 1), s.narrow(-1, s.shape[-1] - 1, 1)
        return _result((small / big if p == -2 else big / small).squeeze(-1), out)
    if p == "nuc":
        s = svdvals(A)
        return _result(s.sum(-1) * s.reciprocal().sum(-1), out)
    if not isinstance(p, str):
        _stats._square(A, f"linalg.cond(ord={int(p) if abs(p) != math.inf else p})")
    inverse, info = inv_ex(A)
    # (in place, as PyTorch: the inverse saved by its node changes, so a backward through it raises)
    inverse.masked_fill_(info.unsqueeze(-1).unsqueeze(-1) > 0, math.inf)
    result = matrix_norm(A, p) * matrix_norm(inverse, p)
    return _result(result.nan_to_num(math.inf, math.inf, -math.inf), out)


def tensorinv(A, ind=2, *, out=None):
    """The inverse of A seen as a matrix (its first ind dims against the rest), shaped back."""
    _check_tensor_argument("linalg_tensorinv", A, "input")
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    shape_ind_end = list(A._data.shape[ind:])
    shape_start_ind = list(A._data.shape[:ind])
    prod_ind_end = int(np.prod(shape_ind_end))
    if int(np.prod(shape_start_ind)) != prod_ind_end:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[ind:]) == prod(self.shape[:ind]), "
                           f"but got {prod_ind_end} != {int(np.prod(shape_start_ind))}")
    # (torch's tensorinv calls at::inverse, whose singular error says "inv:")
    square = A.reshape(prod_ind_end, prod_ind_end)
    _check_square(square, "linalg.inv")
    result = OPS["inverse"](square, error_prefix="inv")
    return _result(result.reshape(shape_ind_end + shape_start_ind), out)


def tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.ndim) = B."""
    _check_tensor_argument("linalg_tensorsolve", A, "A")
    _check_tensor_argument("linalg_tensorsolve", B, "B", position=2)
    if dims is not None:
        nd = A._data.ndim
        dims = [d % nd for d in dims]
        rest = [d for d in range(nd) if d not in dims]
        A = A.permute(rest + dims)
    result_shape = list(A._data.shape[B._data.ndim:])
    result_product = int(np.prod(result_shape))
    other_product = int(np.prod(A._data.shape[:B._data.ndim]))
    if result_product != other_product:
        raise RuntimeError("Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {result_product} != {other_product}")
    result = solve(A.reshape(result_product, result_product), B.flatten())
    return _result(result.view(result_shape), out)


def lstsq(A, B, rcond=None, *, driver=None):
    """(solution, residuals, rank, singular_values) of min ||A X - B|| (driver gelsy: rank, no residuals)."""
    _check_tensor_argument("linalg_lstsq", A, "self")
    _check_tensor_argument("linalg_lstsq", B, "b", position=2)
    if A._data.ndim < 2:
        raise RuntimeError("torch.linalg.lstsq: input must have at least 2 dimensions.")
    if A._data.dtype != B._data.dtype:
        raise RuntimeError(f"torch.linalg.lstsq: Expected input and b to have the same dtype, but got input with dtype "
                           f"{A.dtype} and b with dtype {B.dtype}")
    if A._data.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        raise RuntimeError("This function doesn't handle types other than float and double")
    driver = driver or "gelsy"
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    a_shape, b_shape = A._data.shape, B._data.shape
    vector = B._data.ndim == 1 or (len(a_shape) - 1 == len(b_shape) and b_shape == a_shape[:-1])
    if (b_shape[-1] if vector else b_shape[-2]) != a_shape[-2]:
        raise RuntimeError("torch.linalg.lstsq: input.size(-2) should match other.size(-2)" if not vector else
                           "torch.linalg.lstsq: input.size(-2) should match other.size(-1)")
    if np.isnan(A._data).any() or np.isnan(B._data).any():
        # (LAPACK's argument check refuses the nan scaling factor: PyTorch's internal assert, word for word)
        raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
                           'BatchLinearAlgebra.cpp":1613, please report a bug to PyTorch. torch.linalg.lstsq: Argument '
                           f'{(5 if driver == "gels" else 4) + (0 if np.isnan(A._data).any() else 2)} has illegal value. Most certainly there is a bug in the '
                           'implementation calling the backend library.')
    solution, residuals = OPS["linalg_lstsq"](A, B, vector=vector, driver=driver)
    a = A._data
    s = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(a.shape[:-2] + (0,), a.real.dtype)
    eps = np.finfo(a.dtype).eps * max(a.shape[-2:]) if rcond is None else rcond
    rank = np.sum(s > eps * (s.max(axis=-1, keepdims=True) if s.shape[-1] else 0), axis=-1).astype(np.int64)
    rank_t = Tensor._make(rank) if driver != "gels" else Tensor._make(np.empty(0, np.int64))
    sv = Tensor._make(s.astype(a.real.dtype)) if driver in ("gelsd", "gelss") else Tensor._make(
        np.empty(0, a.real.dtype))
    return _stats._LSTSQ((solution, residuals, rank_t, sv))


# ------------------------------------------------------------------------------------------ LDL

def _ldl_check_errors(info, api_name, batched):
    """PyTorch's _linalg_check_errors for the LDL: a positive info is not one of its known codes (an internal
    assert, word for word)."""
    for i, value in enumerate(info.reshape(-1)):
        if value > 0:
            # (no "(Batch element i)": the assert comes before the batch is named)
            raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
                               'BatchLinearAlgebra.cpp":1642, please report a bug to PyTorch. '
                               f'{api_name}: Unknown error code: {value}.')


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """(LD, pivots, info): the Bunch-Kaufman LDL^T (LDL^H) of a symmetric (Hermitian) matrix from its lower
    triangle, LAPACK's sytrf packed: L's unit columns below the diagonal, D's 1 x 1 and 2 x 2 blocks on it."""
    _check_tensor_argument("linalg_ldl_factor_ex", A, "self")
    name = "torch.linalg.ldl_factor_ex"
    if A._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if A._data.shape[-1] == A._data.shape[-2] and A._data.dtype == np.float16:
        raise NotImplementedError("\"ldl_factor_kernel_cpu\" not implemented for 'Half'")
    _check_square(A, name)
    a = A._data
    n = a.shape[-1]
    flat = a.reshape((int(np.prod(a.shape[:-2])), n, n))
    lds, pivs = np.zeros(flat.shape, a.dtype), np.zeros(flat.shape[:-1], np.int32)
    info = np.zeros(flat.shape[0], np.int32)
    with np.errstate(all="ignore"):
        for i, m in enumerate(flat):
            lds[i], pivs[i], info[i] = _stats._ops_linalg.sytf2(m, hermitian and a.dtype.kind == "c")
    info = info.reshape(a.shape[:-2])
    if check_errors:
        _ldl_check_errors(info, name, a.ndim > 2)
    LD = OPS["linalg_ldl_factor_ex"](A, factors=_stats._ops_linalg._column_major(lds.reshape(a.shape)))
    return _stats._LDL_FACTOR_EX((LD, Tensor._make(pivs.reshape(a.shape[:-1])), Tensor._make(info)))


def ldl_factor(A, *, hermitian=False, out=None):
    """(LD, pivots) of ldl_factor_ex, a singular A refused (PyTorch's error: an internal assert)."""
    _check_tensor_argument("linalg_ldl_factor", A, "self")
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    _ldl_check_errors(info._data, "torch.linalg.ldl_factor", A._data.ndim > 2)
    return _stats._LDL_FACTOR((LD, pivots))


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """X with A X = B for A given by ldl_factor's LD and pivots (LAPACK's sytrs)."""
    _check_tensor_argument("linalg_ldl_solve", LD, "LD")
    _check_tensor_argument("linalg_ldl_solve", pivots, "pivots", position=2)
    _check_tensor_argument("linalg_ldl_solve", B, "B", position=3)
    name = "torch.linalg.ldl_solve"
    _check_square(LD, name)
    if LD._data.dtype != B._data.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_kind(B)} and A of type "
                           f"{_kind(LD)} instead.")
    if B._data.ndim < 2:          # (PyTorch reads B.size(-2) before checking B's dimensions)
        raise IndexError(f"Dimension out of range (expected to be in range of [-{B._data.ndim}, "
                         f"{B._data.ndim - 1}], but got -2)")
    n = LD._data.shape[-1]
    if B._data.shape[-2] != n:
        raise RuntimeError(f"Incompatible matrix sizes for {name}: each A matrix is {n} by {n} but each b matrix is "
                           f"{B._data.shape[-2]} by {B._data.shape[-1]}")
    if pivots._data.shape != LD._data.shape[:-1]:
        raise RuntimeError(f"{name}: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with "
                           f"shape [{', '.join(map(str, pivots._data.shape))}] instead")
    if pivots._data.dtype.kind not in "iu":
        raise RuntimeError(f"{name}: Expected pivots to be integers. Got {_kind(pivots)}")
    return OPS["linalg_ldl_solve"](LD, B, pivots_array=pivots._data, hermitian=hermitian and
                                   LD._data.dtype.kind == "c")


# ------------------------------------------------------------------------------------------ Householder

def householder_product(A, tau, *, out=None):
    """The first n columns of the product of the Householder reflectors H_i = I - tau_i v_i v_i^H whose
    vectors are below A's diagonal (geqrf's output: Q of the QR)."""
    _check_tensor_argument("linalg_householder_product", A, "input")
    _check_tensor_argument("linalg_householder_product", tau, "tau", position=2)
    return _result(_stats.householder_product(A, tau, "torch.linalg.householder_product"), out)


# PyTorch's argument errors for its C functions linalg_<name> (gradlab/_argparse), bound here at the end
from . import _argparse as _argparse_, _signatures as _signatures_   # noqa: E402
globals().update(_argparse_.wrapped(globals(), _signatures_.LINALG))
