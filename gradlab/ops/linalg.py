"""Matrix products. `matmul` dispatches on the number of dimensions exactly as PyTorch does, so
the grad_fn a student sees is PyTorch's (MmBackward0, MvBackward0, DotBackward0, ...)."""
from types import SimpleNamespace

import numpy as np

from .._tensor_core import Tensor
from . import dual
from .operands import _check_tensor_argument, broadcast_error
from .registry import OPS, op, refuse_inference_saved
from .inplace import run_inplace
from .matrix import _LinAlgError, check_svd_finite, idamax
from .shape import cat


def _mat2_grad(left, g, n):
    """left.t() @ g, laid out like mat2 was (PyTorch's mm_mat2_backward).

    When mat2 is a column-major matrix (nn.Linear's weight.t()), (g.t() @ left).t() gives the same
    numbers in mat2's layout, so the weight's own gradient arrives contiguous and AccumulateGrad
    copies it without a slow strided pass. The caller records the layout as `mat2_transposed`
    (column_major): saving mat2 just for it would keep it alive. Complex values: left is conjugated
    (PyTorch's `left.mH @ g`; a real left is itself)."""
    left = dual.conj(left)
    if n.mat2_transposed:
        return dual.t(dual.mm(dual.t(g), left))
    return dual.mm(dual.t(left), g)


def _mat1_grad(g, right, n):
    """g @ right.t(), or for a column-major mat1 (mat1_transposed) (right @ g.t()).t(), laid out like mat1
    (PyTorch's mm_mat1_backward): what a permuted matrix's gradient's layout, and a gradient's graph, show."""
    if n.mat1_transposed:
        return dual.t(dual.mm(dual.conj(right), dual.t(g)))
    return dual.mm(g, dual.conj(dual.t(right)))


def _outer(g, vec):
    """g.ger(vec), as PyTorch's outer computes it: g.reshape(n, 1) * vec."""
    return (g.reshape(-1, 1) if isinstance(g, dual.Tensor) else dual.unsqueeze(g, 1)) * vec


def column_major(matrix):
    """The `mat1_transposed` and `mat2_transposed` arguments of mm/addmm: PyTorch's test for a column-major
    matrix in mm_mat1_backward and mm_mat2_backward, strides[0] == 1 and strides[1] == sizes[0] (a transposed
    contiguous matrix, and any 1 x 1 one)."""
    data = matrix._data
    item = data.itemsize
    return data.strides[0] == item and data.strides[1] == data.shape[0] * item and data.size > 0


# ---------------------------------------------------------------- which gemm computes a @ b

# numpy hands a @ b and (b.T @ a.T).T to the same OpenBLAS gemm with its operands swapped: each entry
# is the same sum in the same order (the same bits, checked by tests/ops/test_matmul_kernels.py for
# every shape there), but not in the same time. PyTorch's mm leaves a row-major result, and the swapped
# product's is column-major, so it needs a copy (for addmm, the bias's addition does it). Measured with
# `benchmarks/matmul_kernels.py` (OpenBLAS 0.3.31, one thread, AMD EPYC with AVX-512, 2026-11-27):
# swapped-and-copied / direct time of float32 (n, k) @ (k, m) + bias with the right operand transposed
# (nn.Linear's `input @ weight.t() + bias`), lower quartiles of 11 interleaved repetitions:
#
#     k = 784   m=16  m=64  m=128 m=256 m=512        k = 256   m=16  m=64  m=128 m=256 m=512
#     n=4       1.25  1.13  1.10  1.06  0.44         n=4       1.33  1.24  1.18  1.15  0.43
#     n=8       1.20  1.07  1.06  0.52  0.55         n=8       1.27  1.20  1.15  0.54  0.55
#     n=16      1.17  1.04  0.59  0.55  0.55         n=16      1.23  1.14  0.64  0.58  0.57
#     n=32      1.10  0.85  0.75  0.70  0.70         n=32      1.20  0.90  0.80  0.74  0.74
#     n=64      1.12  1.04  0.90  0.86  0.84         n=64      1.16  1.08  0.95  0.92  0.92
#     n=128     1.91  1.16  1.04  0.96  0.94         n=128     1.79  1.22  1.13  1.02  1.00
#     n=256     1.90  1.26  1.14  1.06  1.05         n=256     1.95  1.41  1.27  1.19  1.14
#
# and at k = 2048 the same pattern (n=4: 0.39-0.59, n=64: 0.81-0.93 for m = 128-4096). Slower
# swapped, or no faster: k = 16 (1.07-2.6) and k = 64 (wins at n <= 32 only, smaller), a row-major
# right operand (`x @ W`: 0.97-1.3), float64 (0.95-1.24), and the backward's products (the weight's
# gradient (x.t() @ g).t() and the input's (W.t() @ g.t()).t() cost 1.05-5x once copied to the layout
# PyTorch gives them). The rule keeps the clear wins of both tables; on another BLAS or CPU, rerun the
# script. The 784-256-10 MLP's first layer (64 x 784 @ 784 x 256) is one of them.

def _swap_wins(a, b):
    """Compute a @ b as (b.T @ a.T).T? float32, a row-major, b a transposed row-major matrix,
    k >= 256, m >= 128, 4 <= n <= 64 and n * m >= 2048 (see the tables above)."""
    n, k = a.shape
    m = b.shape[1]
    return (k >= 256 and m >= 128 and 4 <= n <= 64 and n * m >= 2048 and a.dtype == _F32 and b.dtype == _F32
            and a.flags.c_contiguous and b.flags.f_contiguous)


_F32 = np.dtype(np.float32)


@op("mm", "MmBackward0", ("self", "mat2"), variants=("function", "method"),
    shows={"self": "grad @ mat2.t().conj()", "mat2": "self.t().conj() @ grad"},
    saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: _mat1_grad(g, n.mat2, n),
    mat2=lambda g, n: _mat2_grad(n.self, g, n))
def mm(self, mat2, mat1_transposed=False, mat2_transposed=False):
    if _swap_wins(self, mat2):
        return np.ascontiguousarray((mat2.T @ self.T).T)
    return dual.mm(self, mat2)


@op("mv", "MvBackward0", ("self", "vec"), variants=("function", "method"), saves={"self": ("vec",), "vec": ("self",)},
    shows={"self": "grad.outer(vec.conj())"},
    self=lambda g, n: _outer(g, dual.conj(n.vec)),
    vec=lambda g, n: dual.mv(dual.conj(dual.t(n.self)), g))
def mv(self, vec):
    return self @ vec


@op("dot", "DotBackward0", ("self", "tensor"), variants=("function", "method"),
    saves={"self": ("tensor",), "tensor": ("self",)},
    self=lambda g, n: g * dual.conj(n.tensor),
    tensor=lambda g, n: g * dual.conj(n.self))
def dot(self, tensor):
    return np.asarray(np.dot(self, tensor))


@op("bmm", "BmmBackward0", ("self", "mat2"), variants=("function", "method"),
    saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: dual.bmm(g, dual.conj(dual.transpose(n.mat2, 1, 2))),
    mat2=lambda g, n: dual.bmm(dual.conj(dual.transpose(n.self, 1, 2)), g))
def bmm(self, mat2):
    return np.matmul(self, mat2)


def _scaled(g, c):
    """c * g, skipped for c == 1 (PyTorch's maybe_multiply: on Tensors MulBackward1)."""
    return g if c == 1 else dual.mul_scalar(g, c)


@op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), variants=("function", "method", "inplace"),
    shows={"self": "grad * beta", "mat1": "grad @ mat2.t().conj() * alpha", "mat2": "mat1.t().conj() @ grad * alpha"},
    saves={"mat1": ("mat2",), "mat2": ("mat1",)},
    self=lambda g, n: _scaled(g, n.beta),
    mat1=lambda g, n: _scaled(_mat1_grad(g, n.mat2, n), n.alpha),
    mat2=lambda g, n: _scaled(_mat2_grad(n.mat1, g, n), n.alpha))
def addmm(self, mat1, mat2, mat1_transposed=False, mat2_transposed=False, beta=1, alpha=1):
    """beta * self + alpha * (mat1 @ mat2): with beta = alpha = 1, what nn.Linear computes for a 2-d input."""
    if _swap_wins(mat1, mat2):
        swapped = (mat2.T @ mat1.T).T
        shape = swapped.shape
        if (beta == 1 and alpha == 1 and self.dtype == swapped.dtype
                and self.shape in ((shape[1],), shape, (1, shape[1]))):
            # (nn.Linear's bias: the copy to row-major is the bias's addition, as out += self was)
            return np.add(swapped, self, out=np.empty(shape, swapped.dtype))
        out = np.ascontiguousarray(swapped)
    else:
        if beta == 1 and alpha == 1 and self.dtype == mat1.dtype and self.ndim <= 2:
            # MKL's small kernels start their sums from the bias (dual.mkl_gemm_order)
            shape = (mat1.shape[0], mat2.shape[1])
            if np.broadcast_shapes(self.shape, shape) == shape:
                summed = dual.mkl_gemm_order(mat1, mat2, init=self)
                if summed is not None:
                    return summed
        out = dual.mm(mat1, mat2)
    return _add_scaled(out, self, beta, alpha)


def _add_scaled(out, self, beta, alpha):
    """beta * self + alpha * out, as BLAS does it: beta = 0 ignores self (its nan and inf too)."""
    if beta == 1 and alpha == 1 and (self.shape == out.shape or self.shape == out.shape[-1:]) and out.flags.writeable:
        out += self         # (nn.Linear's bias, without np.broadcast_shapes' few microseconds)
        return out
    if alpha != 1:
        out = (out * alpha).astype(out.dtype, copy=False)
    if beta == 0:
        return np.broadcast_to(out, np.broadcast_shapes(out.shape, self.shape)).astype(out.dtype)
    if beta != 1:
        self = (self * beta).astype(self.dtype, copy=False)
    if out.shape == np.broadcast_shapes(out.shape, self.shape) and out.flags.writeable:
        out += self
        return out
    return np.add(out, self)


@op("addmv", "AddmvBackward0", ("self", "mat", "vec"), variants=("function", "method", "inplace"),
    shows={"self": "grad * beta", "mat": "grad.outer(vec.conj()) * alpha", "vec": "mat.t().conj() @ grad * alpha"},
    saves={"mat": ("vec",), "vec": ("mat",)},
    self=lambda g, n: _scaled(g, n.beta),
    mat=lambda g, n: _scaled(_outer(g, dual.conj(n.vec)), n.alpha),
    vec=lambda g, n: _scaled(dual.mv(dual.conj(dual.t(n.mat)), g), n.alpha))
def addmv(self, mat, vec, beta=1, alpha=1):
    return _add_scaled(np.asarray(mat @ vec), self, beta, alpha)


@op("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method", "inplace"),
    shows={"self": "grad * beta", "batch1": "grad @ batch2.transpose(1, 2).conj() * alpha",
           "batch2": "batch1.transpose(1, 2).conj() @ grad * alpha"},
    saves={"batch1": ("batch2",), "batch2": ("batch1",)},
    self=lambda g, n: _scaled(g, n.beta),
    batch1=lambda g, n: _scaled(dual.bmm(g, dual.conj(dual.transpose(n.batch2, 1, 2))), n.alpha),
    batch2=lambda g, n: _scaled(dual.bmm(dual.conj(dual.transpose(n.batch1, 1, 2)), g), n.alpha))
def baddbmm(self, batch1, batch2, beta=1, alpha=1):
    return _add_scaled(np.matmul(batch1, batch2), self, beta, alpha)


@op("addbmm", "AddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method", "inplace"),
    shows={"self": "grad * beta", "batch1": "grad.expand(len(batch1), *grad.shape) @ batch2.transpose(1, 2) * alpha",
           "batch2": "batch1.transpose(1, 2) @ grad.expand(len(batch1), *grad.shape) * alpha"},
    saves={"batch1": ("batch2",), "batch2": ("batch1",)},
    self=lambda g, n: _scaled(g, n.beta),
    batch1=lambda g, n: _scaled(dual.bmm(dual.expand(dual.unsqueeze(g, 0), (dual.data(n.batch2).shape[0],)
                                                      + dual.data(g).shape), dual.transpose(n.batch2, 1, 2)), n.alpha),
    batch2=lambda g, n: _scaled(dual.bmm(dual.transpose(n.batch1, 1, 2),
                                         dual.expand(dual.unsqueeze(g, 0), (dual.data(n.batch1).shape[0],)
                                                     + dual.data(g).shape)), n.alpha))
def addbmm(self, batch1, batch2, beta=1, alpha=1):
    """beta * self + alpha * (the sum over the batch of batch1[i] @ batch2[i])."""
    out = np.matmul(batch1, batch2).sum(0) if batch1.shape[0] else np.zeros((batch1.shape[1], batch2.shape[2]),
                                                                              np.result_type(batch1, batch2))
    return _add_scaled(out, self, beta, alpha)


@op("trace", "TraceBackward0", variants=("function", "method"), cast_result=False,
    shows={"self": "grad * eye(*self_sizes)"},
    self=lambda g, n: dual.where(np.eye(*n.self_sizes, dtype=bool), g, 0.0))   # (not g * eye: nan * 0 is nan)
def trace(self, self_sizes):
    # an integer trace is int64, as PyTorch's sum of integers
    return np.asarray(np.trace(self, dtype=np.int64 if self.dtype.kind in "iu" else None))


def _eye_like(n, g):
    # in g's dtype: a 0-d float64 g times a 2-d float32 eye would be float32 (promotion by dimension)
    return dual.like(g, np.eye(*n.self_sizes, dtype=dual.data(g).dtype))


# ---------------------------------------------------------------- gradlab.matmul and `@`

def matmul(a, b):
    """PyTorch's matmul dispatch, so that the grad_fn names match (see torch-parity.md section 2.2)."""
    _check_tensor_argument("matmul", a, "input")
    _check_tensor_argument("matmul", b, "other", position=2)
    da, db = a._data.ndim, b._data.ndim
    if da == 0 or db == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {da}D and {db}D")
    if da == 1 and db == 1:
        return a.dot(b)
    if da == 2 and db == 1:
        return a.mv(b)
    if da == 1 and db == 2:
        if a._data.shape[0] != b._data.shape[0]:
            refuse_inference_saved(OPS["mm"], (a, b))      # (mm saves its inputs before its kernel checks)
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{a._data.shape[0]} and "
                               f"{b._data.shape[0]}x{b._data.shape[1]})")
        out = OPS["squeeze_matmul"](a.unsqueeze(0).mm(b), dim=0, self_sizes=(1, b._data.shape[1]))
        out._version_counter[0] += 1        # (PyTorch's is mm(...).squeeze_(0): an in-place squeeze, counted)
        return out
    if da == 2 and db == 2:
        return a.mm(b)
    if (da == 3 and db == 3 and (a._data.shape[0] == 1) != (b._data.shape[0] == 1)
            and (a._data.shape[0] == 1 or a._data.shape[2] == b._data.shape[1])):   # (else bmm's error, as PyTorch)
        # a batch of one against a real batch: PyTorch squeezes it to a matrix, then folds
        return matmul(a.squeeze(0), b) if a._data.shape[0] == 1 else matmul(a, b.squeeze(0))
    if _should_fold(a, b):
        return _folded_matmul(a, b)
    # general batched case: broadcast the batch dims, then one bmm
    a2 = a.unsqueeze(0) if da == 1 else a
    b2 = b.unsqueeze(-1) if db == 1 else b
    try:
        batch = np.broadcast_shapes(a2._data.shape[:-2], b2._data.shape[:-2])
    except ValueError:
        raise broadcast_error(a2._data.shape[:-2], b2._data.shape[:-2]) from None
    n, k = a2._data.shape[-2:]
    k2, m = b2._data.shape[-2:]
    if k != k2:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{int(np.prod(batch))}, {k}] "
                           f"but got: [{int(np.prod(batch))}, {k2}].")
    rows = int(np.prod(batch))        # (not -1: with no elements it would be ambiguous)
    a3 = a2.expand(batch + (n, k)).reshape(rows, n, k)
    b3 = b2.expand(batch + (k, m)).reshape(rows, k, m)
    out = a3.bmm(b3)
    shape = batch + ((n,) if da > 1 else ()) + ((m,) if db > 1 else ())
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


def _should_fold(a, b):
    """PyTorch folds the batch dims of the larger operand into matrix rows (one mm or mv instead of
    bmm) when the other operand is a vector or matrix; the grad_fn chain shows which it chose."""
    big, small = (a, b) if a._data.ndim >= b._data.ndim else (b, a)
    if not (big._data.ndim >= 3 and small._data.ndim <= 2):
        return False
    if small.requires_grad:
        return True
    if a._data.ndim == 2:
        return False
    if big._data.size == 0:
        return True
    # only when t1.view(-1, t1.size(-1)) needs no copy, as PyTorch tests it: each of the first n-1 dims' stride is
    # the next one's stride times its size, size-1 dims included (numpy's reshape would skip those); t1 is the
    # larger operand, transposed (mT) when it is the second
    shape, strides = big._data.shape, big._data.strides
    if big is b:
        shape, strides = shape[:-2] + shape[:-3:-1], strides[:-2] + strides[:-3:-1]
    return all(strides[i] == strides[i + 1] * shape[i + 1] for i in range(len(shape) - 2))


def _folded_matmul(a, b):
    transpose = b._data.ndim > a._data.ndim
    t1 = b.mT if transpose else a
    t2 = (a.t() if a._data.ndim == 2 else a) if transpose else b
    k = t1._data.shape[-1]
    if k != t2._data.shape[0]:
        rows = int(np.prod(t1._data.shape[:-1]))
        if t2._data.ndim == 2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({rows}x{k} and "
                               f"{t2._data.shape[0]}x{t2._data.shape[1]})")
        raise RuntimeError(f"size mismatch, got input ({rows}), mat ({rows}x{k}), vec ({t2._data.shape[0]})")
    shape = t1._data.shape[:-1]
    folded = t1.reshape(int(np.prod(shape)), k)     # (PyTorch's rows, counted: -1 is ambiguous for an empty t1)
    if t2._data.ndim == 2:
        out = folded.mm(t2)
        out = OPS["unsafe_view"](out, shape=shape + (t2._data.shape[1],), self_sizes=out._data.shape)
        return out.mT.contiguous() if transpose else out
    out = folded.mv(t2)
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)


# ================================================================ decompositions and solvers
# cholesky, qr, lu, triangular solves, pinv, matrix_exp, eigh: numpy's LAPACK (or the loops below) for the
# forward, and PyTorch's backward formulas (FunctionsManual.cpp) written in numpy. Their values agree with
# PyTorch's to rounding (MKL's LAPACK and numpy's order their sums differently); their gradients are constants
# in a graph of the gradient (like svd's: no second derivative through these nodes).

def _mH(x):
    return np.conj(np.swapaxes(x, -1, -2))


def _batches(a):
    """The matrices of a batch, as a list of 2-d arrays (views)."""
    return list(a.reshape((int(np.prod(a.shape[:-2])),) + a.shape[-2:]))


def _column_major(x):
    """x laid out as LAPACK leaves PyTorch's results: each matrix column-major (a fresh copy)."""
    return np.swapaxes(np.array(np.swapaxes(x, -1, -2), order="C", copy=True), -1, -2)


def tri_solve(A, B, upper, left=True, unitriangular=False):
    """X with A X = B (left) or X A = B, A triangular (only its upper or lower triangle read), batched."""
    A = np.triu(A) if upper else np.tril(A)
    if unitriangular:
        n = A.shape[-1]
        A = A.copy()
        A[..., np.arange(n), np.arange(n)] = 1
    if not left:
        return np.swapaxes(tri_solve(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2), not upper), -1, -2)
    batch = np.broadcast_shapes(A.shape[:-2], B.shape[:-2])
    A = np.broadcast_to(A, batch + A.shape[-2:])
    B = np.broadcast_to(B, batch + B.shape[-2:])
    if A.shape[-1] == 0 or B.shape[-1] == 0 or 0 in batch:
        return np.zeros(batch + B.shape[-2:], np.result_type(A, B))
    with np.errstate(all="ignore"):
        if not (np.isfinite(A).all() and np.isfinite(B).all()):    # (a nan stays where substitution puts it)
            return _substitute(A, B, upper)
        try:
            return np.linalg.solve(A, B)
        except np.linalg.LinAlgError:        # (a zero on the diagonal: back substitution's infs and nans)
            return _substitute(A, B, upper)


def _substitute(A, B, upper):
    """Back (upper) or forward substitution, row by row, batched: what LAPACK's trsm gives a singular A."""
    n = A.shape[-1]
    X = np.zeros(np.broadcast_shapes(A.shape[:-1], B.shape[:-1]) + B.shape[-1:], np.result_type(A, B))
    order = range(n - 1, -1, -1) if upper else range(n)
    for i in order:
        # (the solved rows only: an inf on the diagonal times a 0 not yet solved would be a nan)
        done = slice(i + 1, n) if upper else slice(0, i)
        rest = (A[..., i, done, None] * X[..., done, :]).sum(-2)
        X[..., i, :] = (B[..., i, :] - rest) / A[..., i, i, None]
    return X


def cholesky_lower(a):
    """(L, info) for each matrix of a batch: L's lower triangle from a's (Cholesky-Banachiewicz, in a's dtype);
    info: the order of the first leading minor that is not positive-definite (0: none), per matrix.
    As LAPACK's potf2 where it fails: the columns before j factored, L[j, j] the non-positive d, the
    columns after j a's lower triangle untouched (what torch's cholesky_ex returns)."""
    flat = a.reshape((int(np.prod(a.shape[:-2])),) + a.shape[-2:])
    out = np.tril(flat)
    infos = []
    n = a.shape[-1]
    for m, L in zip(flat, out):
        info = 0
        for j in range(n):
            d = m[j, j] - np.dot(L[j, :j], np.conj(L[j, :j]))
            d = d.real if np.iscomplexobj(d) else d
            if not d > 0:
                L[j, j] = d
                info = j + 1
                break
            L[j, j] = np.sqrt(d)
            L[j + 1:, j] = (m[j + 1:, j] - L[j + 1:, :j] @ np.conj(L[j, :j])) / L[j, j]
        infos.append(info)
    return out.reshape(a.shape), infos


def _cholesky_grad(g, L, upper):
    """PyTorch's cholesky_backward: gA = L^-H Phi(L^H gL) L^-1, Phi: the lower triangle, its diagonal halved,
    made Hermitian."""
    if upper:
        L, g = _mH(L), _mH(g)
    _check_square_for_solve(_mH(L))
    gA = np.tril(_mH(L) @ g)
    gA = 0.5 * (gA + _mH(np.tril(gA, -1)))
    gA = tri_solve(_mH(L), gA, True, left=True)
    return tri_solve(L, gA, False, left=False)


def _check_square_for_solve(A):
    """linalg.solve_triangular's check, which PyTorch's cholesky_backward meets first for a non-square (empty)
    factor: the deprecated torch.cholesky accepts a (2, 0) matrix, its backward raises."""
    m, n = A.shape[-2:]
    if m != n:
        raise RuntimeError(f"linalg.solve_triangular: A must be batches of square matrices, but they are {m} by {n} "
                           "matrices")


def _cholesky_grad_graph(gL, L, upper):
    """PyTorch's cholesky_backward op for op, for a graph of the gradient (two triangular solves)."""
    if upper:
        L, gL = L.mH, gL.mH
    _check_square_for_solve(L.mH)
    gA = (L.mH @ gL).tril()
    gA = dual.mul_scalar(gA + gA.tril(-1).mH, 0.5)
    solve = OPS["linalg_solve_triangular"]
    gA = solve(L.mH, gA, upper=True, left=True, unitriangular=False)
    return solve(L, gA, upper=False, left=False, unitriangular=False)


# gA = L^-H Phi(L^H gL) L^-1: Phi(X) = the lower triangle with its diagonal halved, plus its transpose
_CHOLESKY_TEXT = 'linalg.solve_triangular((result.mH if upper else result), linalg.solve_triangular((result.mH if upper else result).mH, 0.5 * (((result.mH if upper else result).mH @ (grad.mH if upper else grad)).tril() + ((result.mH if upper else result).mH @ (grad.mH if upper else grad)).tril(-1).mH), upper=True), upper=False, left=False)'


@op("cholesky", "CholeskyBackward0", saves=("result",), variants=("function", "method"),
    shows={"self": _CHOLESKY_TEXT},
    self=lambda g, n: _cholesky_grad_graph(g, n.result, n.upper) if isinstance(g, Tensor) else dual.like(
        g, _cholesky_grad(dual.data(g), dual.data(n.result), n.upper)))
def cholesky(self, upper, factor):
    return factor


@op("linalg_cholesky_ex", "LinalgCholeskyExBackward0", saves=("result",), variants=(),
    shows={"self": _CHOLESKY_TEXT},
    self=lambda g, n: _cholesky_grad_graph(g, n.result, n.upper) if isinstance(g, Tensor) else dual.like(
        g, _cholesky_grad(dual.data(g), dual.data(n.result), n.upper)))
def linalg_cholesky_ex(self, upper, factor):
    return factor


def _mH_dual(x):
    """x.mH on arrays and on Tensors (a graph of the gradient records it)."""
    return dual.conj(dual.transpose(x, -1, -2))


@op("cholesky_inverse", "CholeskyInverseBackward0", saves=("self", "result"), variants=("function", "method"),
    shows={"self": "-(result @ (grad + grad.mH) @ result) @ self if not upper else -self @ (result @ (grad + "
                   "grad.mH) @ result)"},
    self=lambda g, n: _cholesky_inverse_grad(g, n.self, n.upper, n.result))
def cholesky_inverse(self, upper):
    """(L L^H)^-1 (or (U^H U)^-1): the inverse of the matrix whose Cholesky factor self is."""
    L = np.triu(self) if upper else np.tril(self)
    A = _mH(L) @ L if upper else L @ _mH(L)
    n = self.shape[-1]
    eye = np.broadcast_to(np.eye(n, dtype=self.dtype), A.shape)
    if not A.size:
        return np.zeros(A.shape, self.dtype)
    Li = tri_solve(L, eye, upper)               # (L^-1: inf and nan for a zero pivot, as LAPACK's potri)
    return _column_major((_mH(Li) @ Li if not upper else Li @ _mH(Li)).astype(self.dtype, copy=False))


def _cholesky_inverse_grad(g, L, upper, inverse):
    """PyTorch's cholesky_inverse_backward (matrix products only: differentiable again; a graph of the gradient
    records PyTorch's order, inverse @ (common @ inverse))."""
    if isinstance(g, Tensor):
        common = inverse @ ((g + g.mH) @ inverse)
        return -(L @ common) if upper else -(common @ L)
    common = inverse @ (g + _mH_dual(g)) @ inverse
    return -(L @ common) if upper else -(common @ L)


def _cholesky_solve_grads(g, n):
    B, L, X, upper = dual.data(n.self), dual.data(n.input2), dual.data(n.result), n.upper
    g = dual.data(g)
    gB = cholesky_solve.forward(g, L, upper)
    common = gB @ _mH(X)
    common = common + _mH(common)
    gL = -(L @ common) if upper else -(common @ L)
    return gB, gL


def _cholesky_solve_graph(g, n, for_input2):
    """PyTorch's cholesky_solve_backward for a graph of the gradient: grad_self = grad.cholesky_solve(input2)
    (one node for both inputs), grad_input2 = -(common @ input2) with common = grad_self X^H + its ^H."""
    grad_self = dual.shared_with_second(n, g, lambda: OPS["cholesky_solve"](g, n.input2, upper=n.upper),
                                        first=not for_input2)
    if not for_input2:
        return grad_self
    common = grad_self @ n.result.mH
    common = common + common.mH
    return -(n.input2 @ common) if n.upper else -(common @ n.input2)


@op("cholesky_solve", "CholeskySolveBackward0", ("self", "input2"), saves=("self", "input2", "result"),
    variants=("function", "method"),
    shows={"self": "cholesky_solve(grad, input2, upper)",
           "input2": "-(input2 @ ((lambda c: c + c.mH)(cholesky_solve(grad, input2, upper) @ result.mH))) if upper "
                     "else -((lambda c: c + c.mH)(cholesky_solve(grad, input2, upper) @ result.mH) @ input2)"},
    self=lambda g, n: _cholesky_solve_graph(g, n, False) if isinstance(g, Tensor) else dual.like(
        g, _cholesky_solve_grads(g, n)[0]),
    input2=lambda g, n: _cholesky_solve_graph(g, n, True) if isinstance(g, Tensor) else dual.like(
        g, _cholesky_solve_grads(g, n)[1]))
def cholesky_solve(self, input2, upper):
    """X with (L L^H) X = B (B = self, L = input2), by two triangular solves."""
    L = input2
    if upper:
        y = tri_solve(_mH(L), self, False)
        return _column_major(tri_solve(L, y, True))
    y = tri_solve(L, self, False)
    return _column_major(tri_solve(_mH(L), y, True))


# --- QR --------------------------------------------------------------------------------------------

def _qr_grad(gQ, gR, Q, R):
    """PyTorch's linalg_qr_backward (reduced QR): gA = [gQ + Q copyltu(M)] R^-H, M = R gR^H - gQ^H Q;
    a wide matrix A = [X | Y] (m < n) as the square QR of X with gQ + Y gV^H, and gY = Q gV."""
    m, n = Q.shape[-2], R.shape[-1]
    if m >= n:
        M = R @ _mH(gR) - _mH(gQ) @ Q
        M = np.tril(M) + _mH(np.tril(M, -1))
        return tri_solve(_mH(R), gQ + Q @ M, False, left=False)
    X_R, gX_R = R[..., :, :m], gR[..., :, :m]
    Y = Q @ R[..., :, m:]
    gV = gR[..., :, m:]
    gX = _qr_grad(gQ + Y @ _mH(gV), gX_R, Q, X_R)
    return np.concatenate([gX, Q @ gV], axis=-1)


def _qr_formula(g, n):
    if n.mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
                           "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    if isinstance(g[0], Tensor):
        return _qr_grad_graph(g, n)
    gQ, gR = (dual.data(x) for x in g)
    Q, R = linalg_qr.forward(dual.data(n.self), "complete" if n.mode == "complete" else "reduced")
    if n.mode == "complete" and Q.shape[-2] > R.shape[-1]:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    return dual.like(g[0], _qr_grad(gQ, gR, Q, R).astype(Q.dtype, copy=False))


def _qr_grad_graph(g, n):
    """PyTorch's linalg_qr_backward op for op, for a graph of the gradient: on the saved Q and R (outputs of this
    node), gA = (gQ + Q syminvadj(triu(gR R^H - Q^H gQ))) R^-H for m >= n; a wide A's through its first m columns."""
    Q, R = dual.saved_output(n, 0), dual.saved_output(n, 1)
    m, cols = Q.shape[-2], R.shape[-1]
    if n.mode == "complete" and m > cols:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    gQ, gR = (g[i] if dual.defined(n, i) else None for i in range(2))
    if gQ is None and gR is None:
        return None
    if gQ is not None:
        gA = gR @ R.mH - Q.mH @ gQ if gR is not None else -(Q.mH @ gQ)
    else:
        gA = gR @ R.mH
    solve = OPS["linalg_solve_triangular"]
    if m >= cols:
        X = gA.triu()
        sym = X + X.mH
        run_inplace(sym.diagonal(0, -2, -1), "mul_scalar", (), {"other": 0.5})     # (C++'s mul_(Scalar))
        gA = Q @ sym
        if gQ is not None:
            gA = gA + gQ
        return solve(R.mH, gA, upper=False, left=False, unitriangular=False)
    X = -gA
    gA = Q @ (X - X.mH).tril()
    gA = solve(R.narrow(-1, 0, m).mH, gA, upper=False, left=False, unitriangular=False)
    zeros = Tensor._make(np.zeros(R.shape[:-1] + (cols - m,), R._data.dtype))
    gA = cat([gA, zeros], -1)
    if gR is not None:
        gA = gA + Q @ gR
    return gA


# gA = [gQ + Q copyltu(R gR^H - gQ^H Q)] R^-H (copyltu(M) = M.tril() + M.tril(-1).mH); a wide A = [X | Y] as
# the square QR of X with gQ + Y gV^H, and gY = Q gV
_QR_TEXT = "(lambda QR, gs, solve, cat, zeros_like: (lambda Q, R, gQ, gR: (lambda sq: sq(Q, R, gQ, gR) if Q.shape[-2] >= R.shape[-1] else cat([sq(Q, R[..., :, :Q.shape[-2]], gQ + (Q @ R[..., :, Q.shape[-2]:]) @ gR[..., :, Q.shape[-2]:].mH, gR[..., :, :Q.shape[-2]]), Q @ gR[..., :, Q.shape[-2]:]], -1))(lambda Q, R, gQ, gR: (lambda M: solve(R.mH, gQ + Q @ (M.tril() + M.tril(-1).mH), upper=False, left=False))(R @ gR.mH - gQ.mH @ Q)))(QR[0], QR[1], zeros_like(QR[0]) if gs[0] is None else gs[0], zeros_like(QR[1]) if gs[1] is None else gs[1]))(linalg.qr(self, 'complete' if mode == 'complete' else 'reduced'), grads, linalg.solve_triangular, cat, zeros_like)"


@op("linalg_qr", "LinalgQrBackward0", saves=("self",), num_outputs=2, variants=(), saves_outputs=(0, 1),
    shows={"self": _QR_TEXT},
    self=_qr_formula)
def linalg_qr(self, mode):
    """Q, R with self = Q R (Householder QR, numpy's LAPACK); mode 'reduced', 'complete' or 'r' (Q empty)."""
    m, n = self.shape[-2:]
    k = min(m, n)
    if self.size == 0:
        q_cols = m if mode == "complete" else k
        q = np.zeros(self.shape[:-2] + (m, q_cols), self.dtype)
        if q_cols:
            q[..., np.arange(min(m, q_cols)), np.arange(min(m, q_cols))] = 1
        r = np.zeros(self.shape[:-2] + ((m if mode == "complete" else k), n), self.dtype)
        return (np.zeros(0, self.dtype) if mode == "r" else q), r
    q, r = np.linalg.qr(self, mode="complete" if mode == "complete" else "reduced")
    if mode == "r":
        return np.zeros(0, self.dtype), _column_major(r.astype(self.dtype, copy=False))
    return _column_major(q.astype(self.dtype, copy=False)), _column_major(r.astype(self.dtype, copy=False))


# --- LU --------------------------------------------------------------------------------------------

def getrf(a):
    """LAPACK's getrf for one m x n matrix: (LU packed, 1-based pivots, info): partial pivoting (the first
    largest |entry|), L unit lower below the diagonal, U on and above."""
    lu = np.array(a, dtype=a.dtype)
    m, n = lu.shape
    pivots, info = [], 0
    for k in range(min(m, n)):
        p = k + idamax(lu[k:, k])
        pivots.append(p + 1)
        if lu[p, k] != 0:
            if p != k:
                lu[[k, p]] = lu[[p, k]]
            lu[k + 1:, k] = lu[k + 1:, k] / lu[k, k]
        elif not info:
            info = k + 1
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, pivots, info


def lu_unpack_arrays(lu, pivots):
    """P, L, U from packed LU and 1-based pivots (batched): P the permutation with A = P L U."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    L = np.array(np.tril(lu, -1)[..., :, :k], order="C", copy=True)
    L[..., np.arange(k), np.arange(k)] = 1
    U = np.array(np.triu(lu)[..., :k, :], order="C", copy=True)
    batch = lu.shape[:-2]
    P = np.zeros(batch + (m, m), lu.dtype)
    count = int(np.prod(batch))
    flat_p, flat_piv = P.reshape((count, m, m)), np.asarray(pivots).reshape((count, -1) if count else (0, 0))
    for b in range(flat_p.shape[0]):
        perm = list(range(m))
        for i, p in enumerate(flat_piv[b] if flat_piv.size else []):
            p = int(p) - 1
            perm[i], perm[p] = perm[p], perm[i]
        flat_p[b][perm, np.arange(m)] = 1
    return P, L, U


def _lu_grad(gL, gU, P, L, U):
    """PyTorch's linalg_lu_backward (square, wide and tall)."""
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = np.tril(_mH(L) @ gL, -1) + np.triu(gU @ _mH(U))
        gA = tri_solve(_mH(U), gA, False, left=False)
        gA = tri_solve(_mH(L), gA, True, left=True, unitriangular=True)
    elif m < n:
        U1, gU1, gU2 = U[..., :, :m], gU[..., :, :m], gU[..., :, m:]
        gA = _mH(L) @ gL - np.triu(gU) @ _mH(U)
        gA = tri_solve(_mH(U1), np.tril(gA, -1), False, left=False)
        gA = np.concatenate([gA + np.triu(gU1), gU2], axis=-1)
        gA = tri_solve(_mH(L), gA, True, left=True, unitriangular=True)
    else:
        L1, gL1, gL2 = L[..., :k, :], gL[..., :k, :], gL[..., k:, :]
        gA = gU @ _mH(U) - _mH(L) @ np.tril(gL, -1)
        gA = tri_solve(_mH(L1), np.triu(gA), True, left=True, unitriangular=True)
        gA = np.concatenate([gA + np.tril(gL1, -1), gL2], axis=-2)
        gA = tri_solve(_mH(U), gA, False, left=False)
    return P @ gA


def _lu_grad_graph(L_grad, U_grad, P, L, U):
    """PyTorch's linalg_lu_backward op for op, for a graph of the gradient (L_grad or U_grad None: undefined)."""
    if L_grad is None and U_grad is None:
        return None
    solve = OPS["linalg_solve_triangular"]
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        A_grad = None if L_grad is None else (L.mH @ L_grad).tril(-1)
        if U_grad is not None:
            A_grad = (U_grad @ U.mH).triu() if A_grad is None else A_grad + (U_grad @ U.mH).triu()
        A_grad = solve(U.mH, A_grad, upper=False, left=False, unitriangular=False)
        A_grad = solve(L.mH, A_grad, upper=True, left=True, unitriangular=True)
        return P @ A_grad
    if m < n:
        U1 = U if n == k else U.narrow(-1, 0, k)
        A_grad = None if L_grad is None else L.mH @ L_grad
        if U_grad is not None:
            A_grad = -(U_grad.triu() @ U.mH) if A_grad is None else A_grad - U_grad.triu() @ U.mH
        A_grad = solve(U1.mH, A_grad.tril(-1), upper=False, left=False, unitriangular=False)
        if U_grad is not None:
            A_grad = cat([A_grad + (U_grad if n == k else U_grad.narrow(-1, 0, k)).triu(),
                          U_grad.narrow(-1, k, n - k)], -1)
        A_grad = solve(L.mH, A_grad, upper=True, left=True, unitriangular=True)
        if U_grad is None:
            A_grad = cat([A_grad, Tensor._make(np.zeros(U.shape[:-1] + (n - k,), U._data.dtype))], -1)
        return P @ A_grad
    L1 = L if m == k else L.narrow(-2, 0, k)
    A_grad = None if U_grad is None else U_grad @ U.mH
    if L_grad is not None:
        A_grad = -(L.mH @ L_grad.tril(-1)) if A_grad is None else A_grad - L.mH @ L_grad.tril(-1)
    A_grad = solve(L1.mH, A_grad.triu(), upper=True, left=True, unitriangular=True)
    if L_grad is not None:
        A_grad = cat([A_grad + (L_grad if m == k else L_grad.narrow(-2, 0, k)).tril(-1),
                      L_grad.narrow(-2, k, m - k)], -2)
    A_grad = solve(U.mH, A_grad, upper=False, left=False, unitriangular=False)
    if L_grad is None:
        A_grad = cat([A_grad, Tensor._make(np.zeros(L.shape[:-2] + (m - k,) + L.shape[-1:], L._data.dtype))], -2)
    return P @ A_grad


def _lu_unpacked(LU, pivots):
    """P (a constant) and L, U recorded by lu_unpack (LuUnpackBackward0), as PyTorch's lu_unpack(LU, pivots)."""
    P, L, U = lu_unpack_arrays(LU._data, pivots)
    L_t, U_t = OPS["lu_unpack"](LU, factors=(L, U), lu_shape=LU._data.shape)
    return Tensor._make(P), L_t, U_t


def _lu_factor_formula(g, n):
    """lu_factor_ex_backward: the packed gradient split into L's (below the diagonal) and U's parts."""
    lu, piv = n.packed, n.pivots_array
    if isinstance(g, Tensor):       # (PyTorch's lu_factor_ex_backward: lu_unpack recorded, linalg_lu_backward)
        LU = n.result
        P, L, U = _lu_unpacked(LU, piv)
        k = min(LU.shape[-2:])
        return _lu_grad_graph(g.narrow(-1, 0, k), g.narrow(-2, 0, k), P, L, U)
    gd = dual.data(g)
    P, L, U = lu_unpack_arrays(lu, piv)
    m, nn = lu.shape[-2:]
    k = min(m, nn)
    gL = np.tril(gd, -1)[..., :, :k]
    gU = np.triu(gd)[..., :k, :]
    return dual.like(g, _lu_grad(gL, gU, P, L, U).astype(lu.dtype, copy=False))


@op("linalg_lu_factor_ex", "LinalgLuFactorExBackward0", saves=("self", "result"), variants=(),
    shows={"self": "(lambda P, L, U, g, st: P @ st(L.mH, st(U.mH, (L.mH @ g.tril(-1)).tril(-1) + (g.triu() @ U.mH)"
                   ".triu(), upper=False, left=False), upper=True, unitriangular=True))(*lu_unpack(packed, "
                   "pivots_array), grad, linalg.solve_triangular) if packed.shape[-2] == packed.shape[-1] else None"},
    self=_lu_factor_formula)
def linalg_lu_factor_ex(self, packed, pivots_array):
    return packed


def _lu_formula(g, n):
    if isinstance(g[0], Tensor):        # (on the saved L and U, outputs of this node)
        return _lu_grad_graph(g[0] if dual.defined(n, 0) else None, g[1] if dual.defined(n, 1) else None,
                              Tensor._make(n.factors[0]), dual.saved_output(n, 0), dual.saved_output(n, 1))
    gL, gU = (dual.data(x) for x in g)
    P, L, U = n.factors
    return dual.like(g[0], _lu_grad(gL, gU, P, L, U).astype(L.dtype, copy=False))


# (P, which has no gradient, is made beside the node: the node's outputs are L and U)
@op("linalg_lu", "LinalgLuBackward0", saves=("self",), num_outputs=2, variants=(), saves_outputs=(0, 1),
    shows={"self": "(lambda P, L, U, gs, st: P @ st(L.mH, st(U.mH, (0 if gs[0] is None else (L.mH @ gs[0]).tril(-1))"
                   " + (0 if gs[1] is None else (gs[1] @ U.mH).triu()), upper=False, left=False), upper=True, "
                   "unitriangular=True))(*linalg.lu(self), grads, linalg.solve_triangular) if self.shape[-2] == "
                   "self.shape[-1] else None"},
    self=_lu_formula)
def linalg_lu(self, factors):
    return factors[1:]


@op("lu_unpack", "LuUnpackBackward0", ("LU_data",), num_outputs=2, variants=("function",),
    shows={"LU_data": "(0 if grads[0] is None else grads[0].tril(-1)) + (0 if grads[1] is None else grads[1].triu())"
                      " if lu_shape[-2] == lu_shape[-1] else None"},
    LU_data=lambda g, n: _lu_unpack_grad_graph(g, n) if isinstance(g[0], Tensor) else dual.like(
        g[0], _lu_unpack_grad(dual.data(g[0]), dual.data(g[1]), n.lu_shape)))
def lu_unpack(LU_data, factors, lu_shape):
    return factors


def _lu_unpack_grad_graph(g, n):
    """PyTorch's lu_unpack_backward op for op, for a graph of the gradient."""
    L_grad, U_grad = (g[i] if dual.defined(n, i) else None for i in range(2))
    if L_grad is None and U_grad is None:
        return None
    m, cols = n.lu_shape[-2:]
    k = min(m, cols)
    L1 = lambda L: L.tril(-1) if m == k else L.narrow(-2, 0, k).tril(-1)     # noqa: E731
    U1 = lambda U: U.triu() if cols == k else U.narrow(-1, 0, k).triu()      # noqa: E731
    if L_grad is not None:
        if U_grad is not None:
            if m == cols:
                return L_grad.tril(-1) + U_grad.triu()
            A2 = L_grad.narrow(-2, k, m - k) if m > cols else U_grad.narrow(-1, k, cols - k)
            return cat([L1(L_grad) + U1(U_grad), A2], -2 if m > cols else -1)
        if m >= cols:
            return L_grad.tril(-1)
        return cat([L_grad.tril(-1), Tensor._make(np.zeros(L_grad.shape[:-1] + (cols - m,), L_grad._data.dtype))], -1)
    if cols >= m:
        return U_grad.triu()
    return cat([U_grad.triu(), Tensor._make(np.zeros(U_grad.shape[:-2] + (m - cols,) + U_grad.shape[-1:],
                                                     U_grad._data.dtype))], -2)


def _lu_unpack_grad(gL, gU, shape):
    m, n = shape[-2:]
    k = min(m, n)
    out = np.zeros(gL.shape[:-2] + (m, n), gL.dtype)
    out[..., :, :k] += np.tril(gL, -1)
    out[..., :k, :] += np.triu(gU)
    return out


def _lu_solve_grads(g, n):
    """PyTorch's linalg_lu_solve_LU / linalg_solve's backward: gB = A^-H g, gLU from gA = -gB X^H."""
    g = dual.data(g)
    LU, piv, X = dual.data(n.LU), n.pivots_array, dual.data(n.result)
    P, L, U = lu_unpack_arrays(LU, piv)
    # (gB through the saved LU, as PyTorch's: a singular LU's zero pivot gives nans, not an error)
    if n.left:
        gB = getrs(LU, piv, g, not n.adjoint)
        gA = -gB @ _mH(X)
    else:
        gB = _mH(getrs(LU, piv, _mH(g), n.adjoint))
        gA = -_mH(X) @ gB
    if n.adjoint:
        gA = _mH(gA)
    # gA to the packed LU: A = P L U, so gL = P^T gA U^H (lower, unit), gU = L^H P^T gA (upper)
    gLU = _lu_packed_grad(_mH(P) @ gA, L, U)
    return gB, gLU


def _lu_packed_grad(pt_ga, L, U):
    """d<gA, P L U>: the packed LU's gradient of A = P L U, given P^T gA: (P^T gA U^H) below the diagonal,
    L^H (P^T gA) on and above (PyTorch's linalg_lu_solve_LU backward, square)."""
    return np.tril(pt_ga @ _mH(U), -1) + np.triu(_mH(L) @ pt_ga)


def _solve_batched(A, B, adjoint):
    return np.linalg.solve(_mH(A) if adjoint else A, B) if A.size and B.size else np.zeros(
        np.broadcast_shapes(A.shape[:-2], B.shape[:-2]) + B.shape[-2:], np.result_type(A, B))


def _lu_solve_LU_graph(gX, n):
    """PyTorch's linalg_lu_solve_LU op for op, for a graph of the gradient: through lu_unpack (recorded) and
    two triangular solves."""
    left, adjoint, X = n.left, n.adjoint, n.result
    P, L, U = _lu_unpacked(n.LU, n.pivots_array)
    solve = OPS["linalg_solve_triangular"]
    if left != adjoint:
        gR = solve(U.mH, -((gX if left else gX.mH) @ (X.mH if left else X)), upper=False, left=True,
                   unitriangular=False)
        gL = solve(L.mH, gR @ U.mH, upper=True, left=True, unitriangular=True).tril(-1)
        return gL + gR.triu()
    gR = -(P.mT @ (X if left else X.mH) @ (gX.mH if left else gX) @ P)
    gR = solve(L.mH, gR, upper=True, left=False, unitriangular=True)
    gU = solve(U.mH, L.mH @ gR, upper=False, left=False, unitriangular=False).triu()
    return gR.tril(-1) + gU


@op("linalg_lu_solve", "LinalgLuSolveBackward0", ("LU", "B"), saves=("LU", "B", "result"), variants=(),
    shows={"B": '(lambda A, g, left, adjoint, solve: (solve(A if adjoint else A.mH, g) if left else solve(A.mH if adjoint else A, g.mH).mH))((lambda P, L, U: P @ L @ U)(*lu_unpack(LU, pivots_array)), grad, left, adjoint, linalg.solve)',
           "LU": '(lambda P, L, U, gB, X, left, adjoint: (lambda gA: (P.mH @ gA @ U.mH).tril(-1) + (L.mH @ P.mH @ gA).triu())((lambda t: t.mH if adjoint else t)(-(gB @ X.mH) if left else -(X.mH @ gB))))(*lu_unpack(LU, pivots_array), (lambda A, g, left, adjoint, solve: (solve(A if adjoint else A.mH, g) if left else solve(A.mH if adjoint else A, g.mH).mH))((lambda P, L, U: P @ L @ U)(*lu_unpack(LU, pivots_array)), grad, left, adjoint, linalg.solve), result, left, adjoint)'},
    LU=lambda g, n: _lu_solve_LU_graph(g, n) if isinstance(g, Tensor) else dual.like(g, _lu_solve_grads(g, n)[1]),
    B=lambda g, n: OPS["linalg_lu_solve"](n.LU, g, pivots_array=n.pivots_array, left=n.left, adjoint=not n.adjoint)
    if isinstance(g, Tensor) else dual.like(g, _lu_solve_grads(g, n)[0]))
def linalg_lu_solve(LU, B, pivots_array, left, adjoint):
    if left:
        return _column_major(getrs(LU, pivots_array, B, adjoint))
    # X A = B is A^H X^H = B^H (X A^H = B: A X^H = B^H); row-major whatever LU's layout: returned as a view,
    # which the table keeps as laid out
    return np.ascontiguousarray(_mH(getrs(LU, pivots_array, _mH(B), not adjoint)))[...]


def getrs(LU, pivots, B, adjoint=False):
    """LAPACK's getrs on a batch: X with A X = B (adjoint: A^H X = B) for A = P L U given packed by getrf,
    substituting through the triangles as they are: a zero pivot of a singular A gives the infs and nans
    torch's lu_solve, solve_ex and inv_ex return."""
    batch = np.broadcast_shapes(LU.shape[:-2], B.shape[:-2])
    n, k = LU.shape[-1], B.shape[-1]
    dtype = np.result_type(LU, B)
    out = np.zeros(batch + (n, k), dtype)
    if out.size == 0:
        return out
    lus = np.broadcast_to(LU, batch + LU.shape[-2:]).reshape((-1, n, n))
    pivs = np.broadcast_to(pivots, batch + pivots.shape[-1:]).reshape((-1, n))
    bs = np.broadcast_to(B, batch + B.shape[-2:]).reshape((-1, n, k))
    wide, one = dtype, np.dtype(dtype).type(1)     # (the updates in the input's type, as ops/matrix.py's LU)
    flat = out.reshape((-1, n, k))
    with np.errstate(all="ignore"):
        for i in range(flat.shape[0]):
            lu, piv, x = lus[i].astype(dtype), pivs[i], flat[i]
            x[...] = bs[i]
            if not adjoint:
                for j, p in enumerate(piv):                   # P^T b, the swaps in order
                    if p - 1 != j:
                        x[[j, p - 1]] = x[[p - 1, j]]
                for j in range(n):                            # L y = P^T b (unit lower)
                    x[j + 1:] = x[j + 1:].astype(wide) - np.outer(lu[j + 1:, j].astype(wide), x[j].astype(wide))
                for j in range(n - 1, -1, -1):                # U x = y
                    x[j] = x[j] * (one / lu[j, j])
                    x[:j] = x[:j].astype(wide) - np.outer(lu[:j, j].astype(wide), x[j].astype(wide))
            else:
                lh = np.conj(lu)
                for j in range(n):                            # U^H y = b (lower)
                    x[j] = x[j] * (one / lh[j, j])
                    x[j + 1:] = x[j + 1:].astype(wide) - np.outer(lh[j, j + 1:].astype(wide), x[j].astype(wide))
                for j in range(n - 1, -1, -1):                # L^H z = y (unit upper)
                    x[:j] = x[:j].astype(wide) - np.outer(lh[j, :j].astype(wide), x[j].astype(wide))
                for j in range(n - 1, -1, -1):                # x = P z, the swaps in reverse
                    p = piv[j]
                    if p - 1 != j:
                        x[[j, p - 1]] = x[[p - 1, j]]
    return out


# --- triangular solves ---------------------------------------------------------------------------

def _tri_grads(g, n):
    """PyTorch's linalg_solve_triangular_forward_AD's adjoint: gB = solve(A^H, g) (the other triangle),
    gA = -gB X^H (left) or -X^H gB, restricted to A's triangle (its diagonal left out when unitriangular)."""
    g, A, X = dual.data(g), dual.data(n.self), dual.data(n.result)
    upper, left, unit = n.upper, n.left, n.unitriangular
    gB = tri_solve(_mH(A), g, not upper, left=left, unitriangular=unit)
    gA = -(gB @ _mH(X)) if left else -(_mH(X) @ gB)
    gA = np.triu(gA, 1 if unit else 0) if upper else np.tril(gA, -1 if unit else 0)
    return gA, gB


def _tri_grads_graph(g, n, for_A):
    """PyTorch's linalg_solve_triangular_backward for a graph of the gradient: G_B = solve_triangular(A^H, g)
    (one node for both inputs), G_A = -G_B X^H (left) or -X^H G_B, in A's triangle."""
    gB = dual.shared_with_second(n, g, lambda: OPS["linalg_solve_triangular"](
        n.self.mH, g, upper=not n.upper, left=n.left, unitriangular=n.unitriangular), first=for_A)
    if not for_A:
        return gB
    X_H = n.result.mH
    gA = -(gB @ X_H) if n.left else -(X_H @ gB)
    unit = int(n.unitriangular)
    return gA.triu(unit) if n.upper else gA.tril(-unit)


_SOLVE_TRI_B_TEXT = ("linalg.solve_triangular(self.mH, grad, upper=not upper, left=left, "
                     "unitriangular=unitriangular)")


@op("linalg_solve_triangular", "LinalgSolveTriangularBackward0", ("self", "B"), saves=("self", "result"),
    variants=(),
    shows={"B": _SOLVE_TRI_B_TEXT,
           "self": f"(lambda gB, X, upper, left, unit: (-(gB @ X.mH) if left else -(X.mH @ gB)).triu(1 if unit else 0) "
                   f"if upper else (-(gB @ X.mH) if left else -(X.mH @ gB)).tril(-1 if unit else 0))("
                   f"{_SOLVE_TRI_B_TEXT}, result, upper, left, unitriangular)"},
    self=lambda g, n: _tri_grads_graph(g, n, True) if isinstance(g, Tensor) else dual.like(g, _tri_grads(g, n)[0]),
    B=lambda g, n: _tri_grads_graph(g, n, False) if isinstance(g, Tensor) else dual.like(g, _tri_grads(g, n)[1]))
def linalg_solve_triangular(self, B, upper, left, unitriangular):
    return _column_major(tri_solve(self, B, upper, left, unitriangular).astype(np.result_type(self, B), copy=False))


def _triangular_solve_grads(g, n):
    """PyTorch's triangular_solve_backward: grad_self (b) = solve(A^H, g) and grad_A = -grad_b X^H, in A's
    triangle; the cloned A (the second output) passes its gradient through."""
    n.warn()            # (PyTorch's backward calls the deprecated triangular_solve: its warning again)
    gX, gM = (dual.data(x) for x in g)
    A, X = dual.data(n.A), n.solution
    upper, transpose, unit = n.upper, n.transpose, n.unitriangular
    gB = tri_solve(A, gX, upper, left=True, unitriangular=unit) if transpose else \
        tri_solve(_mH(A), gX, not upper, left=True, unitriangular=unit)
    gA = -(X @ _mH(gB)) if transpose else -(gB @ _mH(X))
    gA = np.triu(gA, 1 if unit else 0) if upper else np.tril(gA, -1 if unit else 0)
    return gB, gA + gM


_TRI_B_TEXT = ("linalg.solve_triangular(A if transpose else A.mH, grads[0], upper=upper if transpose else not upper, "
               "unitriangular=unitriangular)")


def _triangular_solve_graph(g, n, for_A):
    """PyTorch's triangular_solve_backward for a graph of the gradient: grad_b through the deprecated
    triangular_solve itself (its warning again), grad_a = -grad_b X^H in A's triangle, plus the cloned
    coefficient's gradient."""
    gX, gM = (g[i] if dual.defined(n, i) else None for i in range(2))
    if gX is None and gM is None:
        return None
    A = n.A
    if gX is None:
        grad_b = None
    else:
        grad_b = dual.shared_with_second(n, g, lambda: gX.triangular_solve(
            A.conj(), upper=n.upper, transpose=not n.transpose, unitriangular=n.unitriangular)[0], first=not for_A)
    if not for_A:
        return grad_b if grad_b is not None else Tensor._make(np.zeros_like(g[0]._data))
    if grad_b is not None:
        X = dual.saved_output(n, 0)
        grad_a = -(X.conj() @ grad_b.mT) if n.transpose else -(grad_b @ X.mH)
        unit = int(n.unitriangular)
        grad_a = grad_a.triu(unit) if n.upper else grad_a.tril(-unit)
    else:
        grad_a = Tensor._make(np.zeros((1,), A._data.dtype)).expand(A.shape)
    return grad_a if gM is None else grad_a.add(gM)


@op("triangular_solve", "TriangularSolveBackward0", ("self", "A"), saves=("A",), num_outputs=2, saves_outputs=(0,),
    variants=("function", "method"),
    shows={"self": _TRI_B_TEXT,
           "A": f"(lambda gB, X, upper, transpose, unit: (-(X @ gB.mH) if transpose else -(gB @ X.mH)).triu(1 if unit "
                f"else 0) if upper else (-(X @ gB.mH) if transpose else -(gB @ X.mH)).tril(-1 if unit else 0))("
                f"{_TRI_B_TEXT}, solution, upper, transpose, unitriangular) + (0 if grads[1] is None else grads[1])"},
    self=lambda g, n: _triangular_solve_graph(g, n, False) if isinstance(g[0], Tensor) else dual.like(
        g[0], _triangular_solve_grads(g, n)[0]),
    A=lambda g, n: _triangular_solve_graph(g, n, True) if isinstance(g[0], Tensor) else dual.like(
        g[0], _triangular_solve_grads(g, n)[1]))
def triangular_solve(self, A, upper, transpose, unitriangular, solution, warn):
    return solution, _column_major(np.broadcast_to(A, solution.shape[:-2] + A.shape[-2:]))


# --- pinv, matrix_exp, eigh ------------------------------------------------------------------------

def _pinv_grad(g, n):
    """PyTorch's pinv_backward."""
    A, pinvA = n.self, n.result
    m, nn = dual.data(A).shape[-2:]
    pinvAh = _mH_dual(pinvA)
    gradh = _mH_dual(g)
    if m <= nn:
        K = gradh @ pinvA
        KpinvAh = K @ pinvAh
        gA = -_mH_dual(pinvA @ K) + KpinvAh - (A @ pinvA) @ KpinvAh + (pinvAh @ pinvA) @ (gradh - K @ A)
    elif isinstance(g, Tensor):     # (a graph of the gradient: PyTorch's order of the terms)
        K = pinvA @ gradh
        pinvAhK = pinvAh @ K
        gA = -_mH_dual(K @ pinvA) + (gradh - A @ K) @ pinvA @ pinvAh + pinvAhK - pinvAhK @ pinvA @ A
    else:
        K = pinvA @ gradh
        pinvAhK = pinvAh @ K
        gA = -_mH_dual(K @ pinvA) + pinvAhK - pinvAhK @ pinvA @ A + (gradh - A @ K) @ pinvA @ pinvAh
    if isinstance(gA, Tensor):      # (a graph of the gradient: matrix products only, differentiable again)
        return gA
    # (the sum takes the layout of its first term, a transposed matrix: column-major, as PyTorch's)
    return _column_major(gA.astype(dual.data(A).dtype, copy=False))


# PyTorch's pinv_backward (P = pinv(A) = result, G = grad), for A wide or square, then tall
_PINV_TEXT = (
    "(lambda A, P, G: (lambda K: -(P @ K).mH + K @ P.mH - (A @ P) @ (K @ P.mH) + (P.mH @ P) @ (G.mH - K @ A))(G.mH @ P)"
    " if A.shape[-2] <= A.shape[-1] else (lambda K: -(K @ P).mH + P.mH @ K - P.mH @ K @ P @ A + (G.mH - A @ K) @ P"
    " @ P.mH)(P @ G.mH))(self, result, grad)")


@op("linalg_pinv", "LinalgPinvBackward0", saves=("self", "result"), variants=(),
    shows={"self": _PINV_TEXT},
    self=_pinv_grad)
def linalg_pinv(self, rtol, hermitian):
    """The pseudo-inverse: the SVD's reciprocal singular values above rtol * the largest."""
    m, n = self.shape[-2:]
    if self.size == 0:
        return np.zeros(self.shape[:-2] + (n, m), self.dtype)
    if not hermitian:
        check_svd_finite(self)
    finite = np.isfinite(self).all(axis=(-2, -1))[..., None, None]
    # (an inf: MKL's singular values are nans, none above the cutoff, the pseudo-inverse 0)
    u, s, vh = np.linalg.svd(np.where(finite, self, 0), full_matrices=False)
    s = np.where(finite[..., 0], s, np.nan)
    cutoff = rtol * s.max(axis=-1, keepdims=True) if s.shape[-1] else s
    s_inv = np.where(s > cutoff, 1 / np.where(s > cutoff, s, 1), 0)
    return (_mH(vh) * s_inv[..., None, :]) @ _mH(u)


def expm(a):
    """The matrix exponential: scaling and squaring of a degree-13 Pade approximant (Higham's), batched."""
    if a.size == 0:
        return a.copy()
    dt = a.dtype
    x = a.astype(np.complex128 if dt.kind == "c" else np.float64)
    b = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800., 129060195264000.,
         10559470521600., 670442572800., 33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.)
    norm = np.abs(x).sum(axis=-2).max(axis=-1)
    s = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / 5.371920351148152))).astype(int)
    s = np.where(norm > 5.371920351148152, s, 0)
    x = x / (2.0 ** s)[..., None, None]
    eye = np.broadcast_to(np.eye(a.shape[-1]), x.shape)
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4 + b[3] * x2 + b[1] * eye)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    # PyTorch's first Taylor degree: a matrix of 1-norm at most its theta (float64 2.2e-16, float32 1.2e-7;
    # a zero matrix above all) is I + A, exactly
    theta = 2.220446049250313e-16 if a.real.dtype == np.float64 else 1.192092800768788e-07
    tiny = np.abs(a).sum(axis=-2).max(axis=-1) <= theta
    r = np.where(tiny[..., None, None], np.eye(a.shape[-1], dtype=a.dtype) + a, r)
    flat_r, flat_s = r.reshape((-1,) + r.shape[-2:]), np.asarray(s).reshape(-1)
    for i in range(flat_r.shape[0]):
        for _ in range(int(flat_s[i])):
            flat_r[i] = flat_r[i] @ flat_r[i]
    return flat_r.reshape(r.shape).astype(dt)


def _matrix_exp_grad(g, n):
    """PyTorch's backward_analytic_function_of_a_matrix: exp of the block matrix [[A^H, g], [0, A^H]], its
    top-right block."""
    if isinstance(g, Tensor):       # (a graph of the gradient: PyTorch's copies into the block matrix, recorded)
        A = n.self.mT.conj()
        k = A.shape[-1]
        big = Tensor._make(np.zeros(A.shape[:-2] + (2 * k, 2 * k), g._data.dtype))
        big.narrow(-2, 0, k).narrow(-1, 0, k).copy_(A)
        big.narrow(-2, k, k).narrow(-1, k, k).copy_(A)
        big.narrow(-2, 0, k).narrow(-1, k, k).copy_(g)
        return OPS["linalg_matrix_exp"](big).narrow(-2, 0, k).narrow(-1, k, k)
    A, g = dual.data(n.self), dual.data(g)
    k = A.shape[-1]
    big = np.zeros(A.shape[:-2] + (2 * k, 2 * k), np.result_type(A, g))
    big[..., :k, :k] = _mH(A)
    big[..., k:, k:] = _mH(A)
    big[..., :k, k:] = g
    return dual.like(g, expm(big)[..., :k, k:].astype(A.dtype, copy=False))


@op("linalg_matrix_exp", "LinalgMatrixExpBackward0", saves=("self",), variants=(),
    shows={"self": "linalg.matrix_exp(cat([cat([self.mH, grad], -1), cat([zeros_like(self), self.mH], -1)], -2))"
                   "[..., :self.shape[-1], self.shape[-1]:]"},
    self=_matrix_exp_grad)
def linalg_matrix_exp(self):
    return expm(self)


def _eigh_grad(g, n):
    """PyTorch's linalg_eig_backward for a Hermitian matrix: gA = V (diag(gL) + (V^H gV - its ^H) / 2 / E) V^H,
    E_ij = L_j - L_i."""
    if isinstance(g[0], Tensor):
        return _eigh_grad_graph(g, n)
    gL, gV = (dual.data(x) for x in g)
    L, V = linalg_eigh.forward(dual.data(n.self), n.uplo, True)
    gA = np.zeros(V.shape, V.dtype) if gL is None else None
    if n.eigenvectors and np.any(gV):
        VhgV = _mH(V) @ gV
        E = L[..., None, :] - L[..., :, None]
        with np.errstate(divide="ignore", invalid="ignore"):
            inner = 0.5 * (VhgV - _mH(VhgV)) / E
        k = L.shape[-1]
        inner[..., np.arange(k), np.arange(k)] = gL if gL is not None else 0
        gA = V @ inner @ _mH(V)
    else:
        gA = (V * gL[..., None, :]) @ _mH(V)
    return dual.like(g[0], gA.astype(V.dtype, copy=False))


def _eigh_grad_graph(g, n):
    """PyTorch's linalg_eig_backward (is_hermitian) op for op, for a graph of the gradient, on the saved
    eigenvalues L and eigenvectors V (outputs of this node)."""
    L, V = dual.saved_output(n, 0), dual.saved_output(n, 1)
    gL, gV = (g[i] if dual.defined(n, i) else None for i in range(2))
    if gL is None and gV is None:
        return None
    if gV is None:                  # (eigvalsh: V diag(gL) V^H)
        return (V * gL.unsqueeze(-2)) @ V.mH
    VhgV = V.mH @ gV
    VhgV = dual.mul_scalar(VhgV - VhgV.mH, 0.5)
    Lconj = L.conj()
    E = Lconj.unsqueeze(-2) - Lconj.unsqueeze(-1)
    E.diagonal(0, -2, -1).fill_(1.0)
    gA = VhgV.div_(E)
    if gL is not None:
        gA.diagonal(0, -2, -1).copy_(gL)
    return V @ (gA @ V.mH)


@op("linalg_eigh", "LinalgEighBackward0", saves=("self",), num_outputs=2, variants=(), cast_result=False,
    saves_outputs=(0, 1),
    shows={"self": "(lambda L, V, off, gs, diag_embed: V @ ((0 if gs[0] is None else diag_embed(gs[0])) + (0 if gs[1] "
                   "is None else (V.mH @ gs[1] - (V.mH @ gs[1]).mH) / 2 / (L.unsqueeze(-2) - L.unsqueeze(-1) + 1 - off) "
                   "* off)) @ V.mH)(*linalg.eigh(self, UPLO=uplo), 1 - eye(self.shape[-1], dtype=self.dtype), grads, "
                   "diag_embed)"},
    self=_eigh_grad)
def linalg_eigh(self, uplo, eigenvectors):
    if self.size == 0:
        return np.zeros(self.shape[:-1], self.dtype.type(0).real.dtype), np.zeros(self.shape, self.dtype)
    try:
        w, v = np.linalg.eigh(self, UPLO=uplo)
    except np.linalg.LinAlgError:
        raise _eigh_error(self, uplo) from None
    return w, _column_major(v.astype(self.dtype, copy=False))


def _eigh_error(a, uplo):
    """PyTorch's error where LAPACK's syevd does not converge (numpy's says only "Eigenvalues did not converge"):
    the first matrix of the batch that fails. (numpy does not give LAPACK's info, PyTorch's "error code": the
    number of off-diagonal elements that did not reach zero; the message says so without a number.)"""
    flat = a.reshape((-1,) + a.shape[-2:])
    first = 0
    for first in range(len(flat)):
        try:
            np.linalg.eigh(flat[first], UPLO=uplo)
        except np.linalg.LinAlgError:
            break
    batch = f"(Batch element {first}): " if a.ndim > 2 else ""
    return _LinAlgError(f"linalg.eigh: {batch}The algorithm failed to converge because the input matrix is "
                        "ill-conditioned or has too many repeated eigenvalues.")


def _lstsq_grads(g, n):
    """PyTorch's linalg_lstsq_backward: through pinv(A) (gA: pinv_backward of gX B^H; gB = pinv(A)^H gX)."""
    gX = dual.data(g[0])
    A, B = dual.data(n.self), dual.data(n.b)
    if n.vector:
        gX, B = gX[..., None], B[..., None]
    pinvA = linalg_pinv.forward(A, np.finfo(A.dtype).eps * max(A.shape[-2:]), False)

    class _N:       # (pinv_backward's inputs, as a node would hold them)
        self, result = A, pinvA
    gA = _pinv_grad(gX @ _mH(B), _N)
    gB = _mH(pinvA) @ gX
    return gA, (gB[..., 0] if n.vector else gB)


def _lstsq_graph(g, n, for_A):
    """PyTorch's linalg_lstsq_backward for a graph of the gradient: pinv(A) recorded (one node for both inputs),
    gA = pinv_backward(gX B^H, pinv(A), A), gB = pinv(A)^H gX (the residuals have no gradient here)."""
    if not dual.defined(n, 0):
        return None
    A, B, gX = n.self, n.b, g[0]
    if n.vector:
        B, gX = B.unsqueeze(-1), gX.unsqueeze(-1)
    eps = np.finfo(A._data.dtype).eps * max(A.shape[-2:])
    pinvA = dual.shared_with_second(n, g, lambda: OPS["linalg_pinv"](A, rtol=eps, hermitian=False), first=for_A)
    if for_A:
        return _pinv_grad(gX @ B.mH, _PinvSaved(A, pinvA))
    gB = pinvA.mH @ gX
    return gB.squeeze(-1) if n.vector else gB


class _PinvSaved:
    """What _pinv_grad reads of its node: the input and the pseudo-inverse."""
    def __init__(self, A, pinvA):
        self.self, self.result = A, pinvA


# PyTorch's pinv_backward of gX B^H (P = pinv(A), K as in _pinv_grad), for A wide or square, then tall
_LSTSQ_A_TEXT = (
    "(lambda A, P, G: (lambda K: -(P @ K).mH + K @ P.mH - (A @ P) @ (K @ P.mH) + (P.mH @ P) @ (G.mH - K @ A))(G.mH @ P)"
    " if A.shape[-2] <= A.shape[-1] else (lambda K: -(K @ P).mH + P.mH @ K - P.mH @ K @ P @ A + (G.mH - A @ K) @ P"
    " @ P.mH)(P @ G.mH))(self, linalg.pinv(self), grads[0] @ b.mH)")


@op("linalg_lstsq", "LinalgLstsqBackward0", ("self", "b"), saves=("self", "b"), num_outputs=2, variants=(),
    shows={"self": _LSTSQ_A_TEXT, "b": "linalg.pinv(self).mH @ grads[0]"},
    self=lambda g, n: _lstsq_graph(g, n, True) if isinstance(g[0], Tensor) else dual.like(g[0], _lstsq_grads(g, n)[0]),
    b=lambda g, n: _lstsq_graph(g, n, False) if isinstance(g[0], Tensor) else dual.like(g[0], _lstsq_grads(g, n)[1]))
def linalg_lstsq(self, b, vector, driver):
    bb = b[..., None] if vector else b
    batch = np.broadcast_shapes(self.shape[:-2], bb.shape[:-2])
    A = np.broadcast_to(self, batch + self.shape[-2:])
    Bm = np.broadcast_to(bb, batch + bb.shape[-2:])
    m, n = self.shape[-2:]
    out = np.zeros(batch + (n, bb.shape[-1]), np.result_type(self, b))
    if out.size and m:
        flat_a, flat_b = A.reshape((-1,) + A.shape[-2:]), Bm.reshape((-1,) + Bm.shape[-2:])
        flat = out.reshape((-1,) + out.shape[-2:])
        for i in range(flat.shape[0]):
            flat[i] = np.linalg.lstsq(flat_a[i], flat_b[i], rcond=None)[0]
    if vector:
        return out[..., 0], np.zeros(0, self.dtype)
    # (LAPACK writes the solution into B's column-major max(m, n) x k buffer: its first n rows are the result)
    buffer = _column_major(np.zeros(batch + (max(m, n), bb.shape[-1]), out.dtype))
    buffer[..., :n, :] = out
    return buffer[..., :n, :], np.zeros(0, self.dtype)


def _eig_grad(g, n):
    """PyTorch's linalg_eig_backward (not Hermitian): gA = V^-H (diag(gL) + (V^H gV - V^H V diag(re(V^H gV))) / E*) V^H,
    E*_ij = conj(L_j - L_i); a real input gets its real part."""
    if isinstance(g[0], Tensor):
        return _eig_grad_graph(g, n)
    gL, gV = (dual.data(x) for x in g)
    A = dual.data(n.self)
    L, V = linalg_eig.forward(A)
    VhgV = _mH(V) @ gV
    diag = np.diagonal(VhgV, 0, -2, -1)
    if not np.allclose(diag.imag, 0, rtol=1e-2, atol=1e-2):
        raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                           "multiplication by e^{i phi}. The specified loss function depends on this quantity, so it "
                           "is ill-defined.")
    gA = VhgV - _mH(V) @ (V * diag.real[..., None, :])
    E = np.conj(L)[..., None, :] - np.conj(L)[..., :, None]
    k = L.shape[-1]
    E[..., np.arange(k), np.arange(k)] = 1
    gA = gA / E
    gA[..., np.arange(k), np.arange(k)] = gL
    gA = np.linalg.solve(_mH(V), gA @ _mH(V)) if gA.size else gA
    return dual.like(g[0], (gA.real if A.dtype.kind != "c" else gA).astype(A.dtype, copy=False))


def _eig_grad_graph(g, n):
    """PyTorch's linalg_eig_backward op for op, for a graph of the gradient, on the saved eigenvalues L and
    eigenvectors V (outputs of this node); a real input's gradient is its real part (handle_r_to_c)."""
    L, V = dual.saved_output(n, 0), dual.saved_output(n, 1)
    gL, gV = (g[i] if dual.defined(n, i) else None for i in range(2))
    if gL is None and gV is None:
        return None
    solve = OPS["solve"]
    if gV is None:                  # (eigvals: V^-H diag(gL) V^H)
        gA = solve(V.mH, gL.unsqueeze(-1) * V.mH, vector=False)
    else:
        VhgV = V.mH @ gV
        diag_VhgV = VhgV.diagonal(0, -2, -1)
        if not np.allclose(diag_VhgV._data.imag, 0, rtol=1e-2, atol=1e-2):
            raise RuntimeError("linalg_eig_backward: The eigenvectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this quantity, "
                               "so it is ill-defined.")
        VhgV = VhgV - V.mH @ (V * diag_VhgV.real.unsqueeze(-2))
        Lconj = L.conj()
        E = Lconj.unsqueeze(-2) - Lconj.unsqueeze(-1)
        E.diagonal(0, -2, -1).fill_(1.0)
        gA = VhgV.div_(E)
        if gL is not None:
            gA.diagonal(0, -2, -1).copy_(gL)
        gA = solve(V.mH, gA @ V.mH, vector=False)
    return gA if n.self._data.dtype.kind == "c" else gA.real


@op("linalg_eig", "LinalgEigBackward0", saves=("self",), num_outputs=2, variants=(), cast_result=False,
    saves_outputs=(0, 1),
    shows={"self": "(lambda L, V, off, gs, diag_embed, solve: solve(V.mH, ((0 if gs[0] is None else diag_embed(gs[0]))"
                   " + (0 if gs[1] is None else (V.mH @ gs[1] - V.mH @ (V * (V.mH @ gs[1]).diagonal(0, -2, -1).real"
                   ".unsqueeze(-2))) / (L.conj().unsqueeze(-2) - L.conj().unsqueeze(-1) + 1 - off) * off)) @ V.mH)"
                   ".real)(*linalg.eig(self), 1 - eye(self.shape[-1]), grads, diag_embed, linalg.solve)"},
    self=_eig_grad)
def linalg_eig(self):
    """Eigenvalues and eigenvectors (complex; numpy's LAPACK geev), the vectors column-major."""
    ctype = np.complex64 if self.dtype in (np.float32, np.complex64) else np.complex128
    if self.size == 0:
        return np.zeros(self.shape[:-1], ctype), np.zeros(self.shape, ctype)
    w, v = np.linalg.eig(self)
    return w.astype(ctype), _column_major(v.astype(ctype))


# --- LDL (Bunch-Kaufman) -------------------------------------------------------------------------
# PyTorch gives linalg_ldl_factor_ex and linalg_ldl_solve no derivative: their nodes are NotImplemented.

def _cabs1(x):
    """BLAS's |x| for pivoting: |re| + |im| for a complex number."""
    return abs(x.real) + abs(x.imag) if np.iscomplexobj(x) else abs(x)


def sytf2(a, hermitian):
    """LAPACK's ?sytf2 / ?hetf2 (lower) on one matrix: (LD, 1-based pivots (negative: a 2 x 2 block), info).
    Bunch-Kaufman diagonal pivoting; the strictly upper triangle left as zeros (as torch returns it)."""
    A = np.tril(np.array(a, dtype=a.dtype))
    n = A.shape[0]
    conj = np.conj if hermitian else (lambda x: x)
    alpha = (1 + np.sqrt(17.0)) / 8
    ipiv = np.zeros(n, np.int32)
    info, k = 0, 0
    if hermitian and np.iscomplexobj(A):
        A[np.arange(n), np.arange(n)] = A[np.arange(n), np.arange(n)].real
    while k < n:
        kstep = 1
        absakk = abs(A[k, k].real) if hermitian else _cabs1(A[k, k])
        if k < n - 1:
            imax = k + 1 + int(np.argmax(_cabs1(A[k + 1:, k])))
            colmax = _cabs1(A[imax, k])
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
            kp = k
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                jmax = k + int(np.argmax(_cabs1(A[imax, k:imax])))
                rowmax = _cabs1(A[imax, jmax])
                if imax < n - 1:
                    jmax = imax + 1 + int(np.argmax(_cabs1(A[imax + 1:, imax])))
                    rowmax = max(rowmax, _cabs1(A[jmax, imax]))
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif (abs(A[imax, imax].real) if hermitian else _cabs1(A[imax, imax])) >= alpha * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:            # rows and columns kk and kp of the trailing matrix swapped (lower triangle)
                A[kp + 1:, [kk, kp]] = A[kp + 1:, [kp, kk]]
                seg = A[kk + 1:kp, kk].copy()
                A[kk + 1:kp, kk] = conj(A[kp, kk + 1:kp])
                A[kp, kk + 1:kp] = conj(seg)
                if hermitian:
                    A[kp, kk] = conj(A[kp, kk])
                A[kk, kk], A[kp, kp] = A[kp, kp], A[kk, kk]
                if kstep == 2:
                    A[k + 1, k], A[kp, k] = A[kp, k], A[k + 1, k]
            if kstep == 1:
                if k < n - 1:       # A22 -= x x^T / d (the lower triangle), then x /= d
                    d11 = 1 / (A[k, k].real if hermitian else A[k, k])
                    x = A[k + 1:, k].copy()
                    for j in range(k + 1, n):
                        if x[j - k - 1] != 0:       # (BLAS's syr/her skip a zero: no 0 * inf)
                            A[j:, j] = A[j:, j] - x[j - k - 1:] * (d11 * conj(x[j - k - 1]))
                            if hermitian and np.iscomplexobj(A):
                                A[j, j] = A[j, j].real
                    A[k + 1:, k] = x * d11
            elif k < n - 2:
                if hermitian:
                    d = abs(A[k + 1, k])
                    d11, d22 = A[k + 1, k + 1].real / d, A[k, k].real / d
                    tt = 1 / (d11 * d22 - 1)
                    d21 = A[k + 1, k] / d
                    d = tt / d
                    for j in range(k + 2, n):
                        wk = d * (d11 * A[j, k] - d21 * A[j, k + 1])
                        wkp1 = d * (d22 * A[j, k + 1] - np.conj(d21) * A[j, k])
                        A[j:, j] = A[j:, j] - A[j:, k] * np.conj(wk) - A[j:, k + 1] * np.conj(wkp1)
                        A[j, k], A[j, k + 1] = wk, wkp1
                        A[j, j] = A[j, j].real
                else:
                    d21 = A[k + 1, k]
                    d11, d22 = A[k + 1, k + 1] / d21, A[k, k] / d21
                    t = 1 / (d11 * d22 - 1)
                    d21 = t / d21
                    for j in range(k + 2, n):
                        wk = d21 * (d11 * A[j, k] - A[j, k + 1])
                        wkp1 = d21 * (d22 * A[j, k + 1] - A[j, k])
                        A[j:, j] = A[j:, j] - (A[j:, k] * wk + A[j:, k + 1] * wkp1)
                        A[j, k], A[j, k + 1] = wk, wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return A, ipiv, info


def sytrs(A, ipiv, B, hermitian):
    """LAPACK's ?sytrs / ?hetrs (lower) on one matrix: X with A X = B from sytf2's LD and pivots."""
    B = np.array(B, dtype=np.result_type(A, B))
    n = A.shape[0]
    conj = np.conj if hermitian else (lambda x: x)
    k = 0
    while k < n:                                   # L D Y = B
        if ipiv[k] > 0:
            kp = ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            B[k + 1:] -= np.outer(A[k + 1:, k], B[k])
            B[k] = B[k] * (1 / (A[k, k].real if hermitian else A[k, k]))
            k += 1
        else:
            kp = -ipiv[k] - 1
            if kp != k + 1:
                B[[k + 1, kp]] = B[[kp, k + 1]]
            B[k + 2:] -= np.outer(A[k + 2:, k], B[k])
            B[k + 2:] -= np.outer(A[k + 2:, k + 1], B[k + 1])
            akm1k = A[k + 1, k]
            akm1 = A[k, k] / (conj(akm1k) if hermitian else akm1k)
            ak = A[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1 = B[k] / (conj(akm1k) if hermitian else akm1k)
            bk = B[k + 1] / akm1k
            B[k] = (ak * bkm1 - bk) / denom
            B[k + 1] = (akm1 * bk - bkm1) / (np.conj(denom) if hermitian else denom)
            k += 2
    k = n - 1
    while k >= 0:                                  # L^T X = Y (L^H when Hermitian)
        if ipiv[k] > 0:
            B[k] -= conj(A[k + 1:, k]) @ B[k + 1:]
            kp = ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 1
        else:
            B[k] -= conj(A[k + 1:, k]) @ B[k + 1:]
            B[k - 1] -= conj(A[k + 1:, k - 1]) @ B[k + 1:]
            kp = -ipiv[k] - 1
            if kp != k:
                B[[k, kp]] = B[[kp, k]]
            k -= 2
    return B


@op("linalg_ldl_factor_ex", "NotImplemented", saves=(), variants=(), promote=False, saved_params=(),
    shows={"self": "derivative for aten::linalg_ldl_factor_ex is not implemented"},
    self=lambda g, n: (_ for _ in ()).throw(
        RuntimeError("derivative for aten::linalg_ldl_factor_ex is not implemented")))
def linalg_ldl_factor_ex(self, factors):
    return factors


@op("linalg_ldl_solve", "NotImplemented", ("LD", "B"), saves=(), variants=(), promote=False, saved_params=(),
    shows={"LD": "derivative for aten::linalg_ldl_solve is not implemented",
           "B": "derivative for aten::linalg_ldl_solve is not implemented"},
    LD=lambda g, n: (_ for _ in ()).throw(RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")),
    B=lambda g, n: (_ for _ in ()).throw(RuntimeError("derivative for aten::linalg_ldl_solve is not implemented")))
def linalg_ldl_solve(LD, B, pivots_array, hermitian):
    batch = np.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    n, k = LD.shape[-1], B.shape[-1]
    out = np.zeros(batch + (n, k), np.result_type(LD, B))
    if out.size:
        lds = np.broadcast_to(LD, batch + LD.shape[-2:]).reshape((-1, n, n))
        pivs = np.broadcast_to(pivots_array, batch + (n,)).reshape((-1, n))
        bs = np.broadcast_to(B, batch + B.shape[-2:]).reshape((-1, n, k))
        with np.errstate(all="ignore"):
            for i, x in enumerate(out.reshape((-1, n, k))):
                x[...] = sytrs(lds[i], pivs[i], bs[i], hermitian)
    return _column_major(out)


# --- QR's Householder form (geqrf, householder_product / orgqr) ---------------------------------------

@op("lapack_geqrf", "GeqrfBackward0", num_outputs=2, variants=(), promote=False, saved_params=(),
    shows={"self": "derivative for geqrf is not implemented"},
    self=lambda g, n: (_ for _ in ()).throw(NotImplementedError("the derivative for 'geqrf' is not implemented.")))
def lapack_geqrf(self):
    """LAPACK's geqrf: R on and above the diagonal, the reflectors' vectors below it, and their scales tau
    (numpy's qr(mode='raw') is that call; column-major as LAPACK leaves it)."""
    m, n = self.shape[-2:]
    k = min(m, n)
    a = np.zeros(self.shape, self.dtype)
    tau = np.zeros(self.shape[:-2] + (k,), self.dtype)
    if self.size:
        flat_a, flat_t = a.reshape((-1, m, n)), tau.reshape((-1, k))
        for i, mat in enumerate(self.reshape((-1, m, n))):
            h, t = np.linalg.qr(mat, mode="raw")
            flat_a[i], flat_t[i] = h.T, t
    return _column_major(a), tau


def _reflector(A, tau, i):
    """H_i = I - tau_i v v^H, v = (0, ..., 0, 1, A[i+1:, i])."""
    m = A.shape[0]
    v = np.zeros(m, A.dtype)
    v[i] = 1
    v[i + 1:] = A[i + 1:, i]
    return v, np.eye(m, dtype=A.dtype) - tau[i] * np.outer(v, np.conj(v))


def _householder_product_grads(g, n):
    """The gradients of Q = H_0 H_1 ... H_(k-1) I[:, :n] (one matrix at a time): with G_H = L^H G R^H for
    L = H_0 .. H_(i-1), R = H_(i+1) .. I[:, :n], tau_i gets -v^H G_H v and v (A's column i below the
    diagonal) -conj(tau_i) G_H v - tau_i G_H^H v."""
    g, A_all, tau_all = dual.data(g), dual.data(n.input), dual.data(n.tau)
    m, cols = A_all.shape[-2:]
    k = tau_all.shape[-1]
    batch = np.broadcast_shapes(A_all.shape[:-2], tau_all.shape[:-1])
    gA = np.zeros(batch + (m, cols), np.result_type(A_all, g))
    gtau = np.zeros(batch + (k,), gA.dtype)
    A_b = np.broadcast_to(A_all, batch + (m, cols)).reshape((-1, m, cols))
    t_b = np.broadcast_to(tau_all, batch + (k,)).reshape((-1, k))
    g_b = np.broadcast_to(g, batch + (m, cols)).reshape((-1, m, cols))
    for b, (A, tau, G, gA_b, gt_b) in enumerate(zip(A_b, t_b, g_b, gA.reshape((-1, m, cols)),
                                                     gtau.reshape((-1, k)))):
        parts = [_reflector(A, tau, i) for i in range(k)]
        right = [None] * k
        R = np.eye(m, cols, dtype=A.dtype)
        for i in range(k - 1, -1, -1):
            right[i] = R
            R = parts[i][1] @ R
        L = np.eye(m, dtype=A.dtype)
        for i in range(k):
            v, H = parts[i]
            G_H = _mH(L) @ G @ _mH(right[i])
            gt_b[i] = -(np.conj(v) @ G_H @ v)
            gv = -np.conj(tau[i]) * (G_H @ v) - tau[i] * (_mH(G_H) @ v)
            gA_b[i + 1:, i] = gv[i + 1:]
            L = L @ H
    return gA.reshape(batch + (m, cols)), gtau.reshape(batch + (k,))


@op("linalg_householder_product", "LinalgHouseholderProductBackward0", ("input", "tau"), saves=("input", "tau"),
    variants=(), promote=False,
    shows={"input": "autograd.functional.vjp(linalg.householder_product, (input, tau), grad)[1][0]",
           "tau": "autograd.functional.vjp(linalg.householder_product, (input, tau), grad)[1][1]"},
    input=lambda g, n: dual.like(g, _householder_product_grads(g, n)[0]),
    tau=lambda g, n: dual.like(g, _householder_product_grads(g, n)[1]))
def linalg_householder_product(input, tau):
    """Q = H_0 H_1 ... H_(k-1) I[:, :n] from geqrf's reflectors (LAPACK's orgqr: the reflectors applied
    to the identity's columns from the last one back)."""
    m, cols = input.shape[-2:]
    k = tau.shape[-1]
    batch = np.broadcast_shapes(input.shape[:-2], tau.shape[:-1])
    out = np.zeros(batch + (m, cols), np.result_type(input, tau))
    if out.size:
        A_b = np.broadcast_to(input, batch + (m, cols)).reshape((-1, m, cols))
        t_b = np.broadcast_to(tau, batch + (k,)).reshape((-1, k))
        for A, t, Q in zip(A_b, t_b, out.reshape((-1, m, cols))):
            Q[...] = np.eye(m, cols, dtype=Q.dtype)
            for i in range(k - 1, -1, -1):
                v = np.concatenate([[1], A[i + 1:, i]]).astype(Q.dtype)
                Q[i:] = Q[i:] - t[i] * np.outer(v, np.conj(v) @ Q[i:])
    return _column_major(out)


def _full_reflectors(input, m):
    """input's reflector columns in an m x m matrix (zero columns added, or the extra ones dropped)."""
    cols = input.shape[-1]
    if cols >= m:
        return input[..., :m]
    return np.concatenate([input, np.zeros(input.shape[:-1] + (m - cols,), input.dtype)], -1)


def _ormqr_parts(n):
    m = dual.data(n.self).shape[-2]
    A = _full_reflectors(dual.data(n.self), m)
    Q = linalg_householder_product.forward(A, dual.data(n.input2))
    return A, Q


def _ormqr_grads(g, n):
    """op(Q) C (left) or C op(Q), op(Q) = Q or Q^H: gC = op(Q)^H g (g op(Q)^H); gQ from g C^H (C^H g), then
    to the reflectors as householder_product's gradient."""
    g, C = dual.data(g), dual.data(n.input3)
    A, Q = _ormqr_parts(n)
    opQ = _mH(Q) if n.transpose else Q
    gC = _mH(opQ) @ g if n.left else g @ _mH(opQ)
    g_opQ = g @ _mH(C) if n.left else _mH(C) @ g
    gQ = _mH(g_opQ) if n.transpose else g_opQ
    gA, gtau = _householder_product_grads(gQ, SimpleNamespace(input=A, tau=dual.data(n.input2)))
    cols = dual.data(n.self).shape[-1]
    gA = gA[..., :cols] if gA.shape[-1] >= cols else np.concatenate(
        [gA, np.zeros(gA.shape[:-1] + (cols - gA.shape[-1],), gA.dtype)], -1)
    return gA, gtau, gC


@op("lapack_ormqr", "OrmqrBackward0", ("self", "input2", "input3"), saves=("self", "input2", "input3"), variants=(),
    promote=False,
    # (self and input2: the full Q is householder_product of the reflectors padded to m columns; its
    # vector-Jacobian product with the gradient that reaches Q)
    shows={"self": "F.pad(autograd.functional.vjp(linalg.householder_product, (F.pad(self, (0, self.shape[-2] - self.shape[-1])), input2), ((grad @ input3.mH if left else input3.mH @ grad).mH if transpose else (grad @ input3.mH if left else input3.mH @ grad)))[1][0], (0, self.shape[-1] - self.shape[-2]))",
           "input2": "autograd.functional.vjp(linalg.householder_product, (F.pad(self, (0, self.shape[-2] - self.shape[-1])), input2), ((grad @ input3.mH if left else input3.mH @ grad).mH if transpose else (grad @ input3.mH if left else input3.mH @ grad)))[1][1]",
           "input3": "ormqr(self, input2, grad, left, not transpose)"},
    self=lambda g, n: dual.like(g, _ormqr_grads(g, n)[0]),
    input2=lambda g, n: dual.like(g, _ormqr_grads(g, n)[1]),
    input3=lambda g, n: dual.like(g, _ormqr_grads(g, n)[2]))
def lapack_ormqr(self, input2, input3, left=True, transpose=False):
    """The full Q of geqrf's reflectors (or Q^H) times input3, from the left or the right (LAPACK's ormqr)."""
    m = self.shape[-2]
    Q = linalg_householder_product.forward(_full_reflectors(self, m), input2)
    opQ = _mH(Q) if transpose else Q
    return _column_major(opQ @ input3 if left else input3 @ opQ)
