"""torch.linalg: matrix functions (norms, inverse, determinant, solve, cross product, ...).

Each function is PyTorch's composition: linalg.norm picks vector_norm or matrix_norm, matrix_norm's
1 and inf orders are a vector norm then an amax (AmaxBackward0 on top, as in PyTorch), inv, det,
slogdet and solve are ops of the table (ops/matrix.py)."""
import math

from ._tensor_core import _wrap_dim
from .ops import OPS
from .ops.matrix import _LinAlgError
from .ops.operands import _check_tensor_argument, _kind
from ._tensor_methods.linalg import (_check_square, _check_svd_input, _cross, _LinalgSlogdetResult, _LinalgSvdResult,
                                     _matrix_power)

LinAlgError = _LinAlgError

__all__ = ["LinAlgError", "norm", "vector_norm", "matrix_norm", "inv", "det", "slogdet", "solve", "cross",
           "matrix_power", "multi_dot", "vecdot", "diagonal", "svdvals", "svd"]

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


def _svd_norm(A, ord, d0, d1, keepdim, dtype):
    """The spectral (ord=2, -2) and nuclear norms: the singular values of A with (d0, d1) moved last."""
    if dtype is not None:
        A = A.to(dtype)
    nd = A._data.ndim
    permutation = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]
    values = svdvals(A.permute(permutation))
    if ord == "nuc":
        result = values.sum(-1)
    else:
        result = values.amax(-1) if ord > 0 else values.amin(-1)
    if keepdim:
        reverse = [permutation.index(d) for d in range(nd)]
        result = result.unsqueeze(-1).unsqueeze(-1).permute(reverse)
    return result


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
    return _result(A.inverse(), out)


def det(A, *, out=None):
    _check_tensor_argument("linalg_det", A, "A")
    return _result(A.det(), out)


def slogdet(A, *, out=None):
    _check_tensor_argument("linalg_slogdet", A, "A")
    _check_square(A, "linalg.slogdet")
    return _LinalgSlogdetResult(OPS["slogdet"](A))


def solve(A, B, *, left=True, out=None):
    _check_tensor_argument("linalg_solve", A, "A")
    _check_tensor_argument("linalg_solve", B, "B", position=2)
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
    return _result(OPS["solve"](A, B, vector=vector, left=left), out)


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

