"""Ops: matrix (rows of the op table; see registry.py): triangles and diagonals, the cross product,
determinant, inverse and solve, pairwise distances.

Each row is PyTorch's node (TrilBackward0, DiagonalBackward0, LinalgDetBackward0, ...). The public
functions and their argument checks are in _functions/linalg.py and linalg.py."""
import numpy as np

from .._dtype import from_numpy_dtype, result_np_dtype
from .._tensor_core import Tensor
from . import dual
from .formula_text import shows
from .registry import OPS, op
from .shape import cat


class _LinAlgError(RuntimeError):
    """torch.linalg.LinAlgError: a matrix that LAPACK cannot factor (singular, ...)."""


_LinAlgError.__module__ = "torch._C"


# ---------------------------------------------------------------- triangles

@op("tril", "TrilBackward0", variants=("function", "method", "inplace"), promote=False, shows={"self": "grad.tril(diagonal)"},
    self=lambda g, n: dual.call("tril", g, diagonal=n.diagonal))
def tril(self, diagonal=0):
    return np.tril(self, diagonal)


@op("triu", "TriuBackward0", variants=("function", "method", "inplace"), promote=False, shows={"self": "grad.triu(diagonal)"},
    self=lambda g, n: dual.call("triu", g, diagonal=n.diagonal))
def triu(self, diagonal=0):
    return np.triu(self, diagonal)


# ---------------------------------------------------------------- diagonals

def diagonal_view(a, offset, dim1, dim2):
    """a's diagonal as a view sharing a's memory (writable when a is): the other dims first, the
    diagonal last, as PyTorch's diagonal. (np.diagonal's view is read-only.)"""
    start1, start2 = max(0, -offset), max(0, offset)
    length = max(0, min(a.shape[dim1] - start1, a.shape[dim2] - start2))
    if length:
        key = [slice(None)] * a.ndim
        key[dim1], key[dim2] = slice(start1, None), slice(start2, None)
        a = a[tuple(key)]
    rest = [d for d in range(a.ndim) if d not in (dim1, dim2)]
    shape = tuple(a.shape[d] for d in rest) + (length,)
    strides = tuple(a.strides[d] for d in rest) + (a.strides[dim1] + a.strides[dim2],)
    return np.lib.stride_tricks.as_strided(a, shape, strides, writeable=a.flags.writeable)


# (the gradient: zeros shaped like self with grad written on the diagonal, as torch's diagonal_backward)
@op("diagonal", "DiagonalBackward0", variants=("function", "method"), promote=False,
    shows={"self": 'zeros(self_sizes, dtype=grad.dtype).diagonal(offset, dim1, dim2).copy_(grad)._base'},
    self=lambda g, n: dual.call("diagonal_backward", g, input_sizes=n.self_sizes, offset=n.offset, dim1=n.dim1,
                                dim2=n.dim2))
def diagonal(self, offset, dim1, dim2, self_sizes):
    return diagonal_view(self, offset, dim1, dim2)


@op("diagonal_backward", "DiagonalBackwardBackward0", ("grad_output",), promote=False,
    shows={"grad_output": "grad.diagonal(offset, dim1, dim2)"},
    grad_output=lambda g, n: dual.call("diagonal", g, offset=n.offset, dim1=n.dim1, dim2=n.dim2,
                                       self_sizes=n.input_sizes))
def diagonal_backward(grad_output, input_sizes, offset, dim1, dim2):
    out = np.zeros(input_sizes, grad_output.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = grad_output
    return out


@op("diagonal_copy", "DiagonalBackward0_copy", variants=("function",), promote=False,
    shows={"self": 'zeros(self_sizes, dtype=grad.dtype).diagonal(offset, dim1, dim2).copy_(grad)._base'},
    self=lambda g, n: dual.call("diagonal_backward", g, input_sizes=n.self_sizes, offset=n.offset, dim1=n.dim1,
                                dim2=n.dim2))
def diagonal_copy(self, offset, dim1, dim2, self_sizes):
    """torch.diag of a matrix: the diagonal as a new tensor."""
    return diagonal_view(self, offset, dim1, dim2).copy()


@op("diag_embed", "DiagEmbedBackward0", variants=("function", "method"), promote=False,
    shows={"self": "grad.diagonal(offset, dim1, dim2)"},
    # (a view of grad, as PyTorch's: a leaf's gradient keeps its strides)
    self=lambda g, n: (dual.call("diagonal_copy", g, offset=n.offset, dim1=n.dim1, dim2=n.dim2,
                                 self_sizes=dual.data(g).shape) if isinstance(g, Tensor)
                       else diagonal_view(g, n.offset, n.dim1, n.dim2)))
def diag_embed(self, offset, dim1, dim2):
    """self's last dim laid on the diagonal (offset) of the new dims dim1, dim2 (of the result)."""
    n = self.shape[-1] + abs(offset) if self.ndim else abs(offset)
    shape = list(self.shape[:-1])
    for d in sorted((dim1, dim2)):
        shape.insert(d, n)
    out = np.zeros(shape, self.dtype)
    diagonal_view(out, offset, dim1, dim2)[...] = self
    return out


# ---------------------------------------------------------------- cross product

@op("cross", "LinalgCrossBackward0", ("self", "other"), variants=("function", "method"),
    saves={"self": ("other",), "other": ("self",)},
    shows={"self": "cross(other, grad, dim=dim)", "other": "cross(grad, self, dim=dim)"},
    self=lambda g, n: dual.call("cross", n.other, g, dim=n.dim),
    other=lambda g, n: dual.call("cross", g, n.self, dim=n.dim))
def cross(self, other, dim):
    a, b = np.broadcast_arrays(self, other)
    a, b = np.moveaxis(a, dim, -1), np.moveaxis(b, dim, -1)
    out = np.empty(a.shape, np.result_type(a, b))
    for i in range(3):              # (np.cross's float32 products round differently from PyTorch's a*b - c*d)
        j, k = (i + 1) % 3, (i + 2) % 3
        out[..., i] = a[..., j] * b[..., k] - a[..., k] * b[..., j]
    return np.moveaxis(out, -1, dim)


# ---------------------------------------------------------------- determinant, inverse, solve

def _mT(x):
    return dual.transpose(x, -1, -2)


@shows("(grad * result.conj()).unsqueeze(-1).unsqueeze(-1) * inverse(self).mH")
def _det_grad(g, n):
    """g * det(A) * A^-T. As PyTorch's (in a plain backward): through A's LU with its exactly-zero
    pivots replaced by eps, so that a singular A with det exactly 0 gets a zero gradient."""
    if isinstance(g, Tensor):
        return _det_grad_graph(g, n.result, n.self)
    if n.self.shape[-1] == 1:           # (a 1 x 1 matrix's det is its entry: the gradient is grad, even at 0)
        return dual.like(g, np.broadcast_to(np.asarray(dual.data(g))[..., None, None], n.self.shape).copy())
    # (A^-H * conj(det) for a complex A: conj is the array itself when real)
    return _scaled_inverse_t(dual.conj(n.self), np.asarray(g * dual.conj(n.result)))


def _det_grad_graph(g, result, A):
    """The gradient of det as PyTorch's linalg_det_backward records it for a graph of the gradient: a 1 x 1
    matrix's is grad itself; an invertible A's solves A^T G = diag(grad * det) (linalg.solve, as
    solve_backward: the LU recomputed); a (numerically) singular A's goes through its SVD, A = U S Vh:
    G = U diag(alpha * prod of the other singular values) Vh, alpha = det(U) det(Vh) grad (the adjugate)."""
    if A.shape[-1] == 1:
        return g.unsqueeze(-1).unsqueeze(-1).expand(A.shape)
    if A._data.size == 0:
        return None
    singular = np.abs(result._data) < 100 * np.finfo(A._data.dtype).eps
    d = (g * dual.conj(result)).unsqueeze(-1).expand(A.shape[:-1]).diag_embed().mT
    if not singular.any():
        return _det_grad_invertible(A, d, g)
    if singular.all():
        return _det_grad_singular(A, d, g)
    # a batch of both kinds: each formula on its matrices, put in place (PyTorch's masked_fmap)
    mask = Tensor._make(singular)
    keep = Tensor._make(~singular)
    out = Tensor._make(np.empty(A.shape, A._data.dtype))
    out = out.index_put_((mask,), _det_grad_singular(A[mask], d[mask], g[mask]))
    return out.index_put_((keep,), _det_grad_invertible(A[keep], d[keep], g[keep]))


def _det_grad_invertible(A, d, g):
    """G with A^H G = d (g: unused, as in PyTorch's masked_fmap, which hands both formulas the same arguments)."""
    return dual.call("solve", A.mH, d, vector=False)


def _det_grad_singular(A, d, g):
    u, s, vh = svd(A, full_matrices=True)
    alpha = dual.conj(det(u) * det(vh)) * g
    d = _prod_safe_zeros_backward(alpha.unsqueeze(-1), s)
    return (u * d.unsqueeze(-2)) @ vh


def _prod_safe_zeros_backward(grad, s):
    """grad times the product of the other entries of s along its last dim, without dividing (PyTorch's
    prod_safe_zeros_backward: exclusive cumulative products from both ends)."""
    k = s.shape[-1]
    if k == 1:
        return grad
    ones = Tensor._make(np.ones(s.shape[:-1] + (1,), s._data.dtype))
    exclusive_normal = cat([ones, s.narrow(-1, 0, k - 1)], -1).cumprod(-1)
    narrow_reverse = s.narrow(-1, 1, k - 1).flip(-1)
    exclusive_reverse = cat([ones, narrow_reverse], -1).cumprod(-1).flip(-1)
    return grad * (exclusive_normal * exclusive_reverse)


def _scaled_inverse_t(a, scale, perturb=True):
    """scale * a^-T for a batch of matrices (a zero pivot of a's LU replaced by eps: PyTorch's det backward)."""
    out = np.zeros(a.shape, a.dtype)
    if a.size:
        flat, scale = out.reshape((-1,) + a.shape[-2:]), scale.reshape(-1)
        for i, m in enumerate(a.reshape((-1,) + a.shape[-2:])):
            inv_t, _ = _lu_solve(np.ascontiguousarray(m.T), np.eye(m.shape[0], dtype=m.dtype), perturb=perturb)
            flat[i] = inv_t * scale[i]
    return out


@op("det", "LinalgDetBackward0", variants=("function", "method"), saves=("self", "result"),
    self=_det_grad)
def det(self):
    if self.shape[-1] == 0:
        return np.ones(self.shape[:-2], self.dtype)
    dets = _batched(_lu_det, self)
    return np.array(dets, self.dtype).reshape(self.shape[:-2])


# PyTorch's CPU determinant and inverse are LAPACK's (MKL's) LU with partial pivoting, in the input's
# precision: a float32 det of an integer matrix prints 9.0000 where the exact answer is 9. These
# functions redo that LU step by step (unblocked, right-looking: what MKL computes for the small
# matrices of teaching material), so that the printed digits are PyTorch's. Each update
# a - l * u rounds the product, then the difference (no fused multiply-add: measured against torch 2.13's
# det, bit for bit on 1,800 random, integer and singular float32/float64 matrices of order 2 to 5, where a
# fused update matched 60%; a singular integer matrix's exactly-zero pivot stays exactly zero).

def _wide(dtype):
    """The type an update is computed in: the input's own (see above)."""
    return dtype


def idamax(column):
    """BLAS's i?amax, LAPACK's pivot: the first entry of largest |re| + |im| (|x| when real), a nan never
    larger than what comes before it (only a leading nan is chosen)."""
    size = np.abs(column.real) + np.abs(column.imag) if column.dtype.kind == "c" else np.abs(column)
    if size.size == 0 or np.isnan(size[0]):
        return 0
    return int(np.argmax(np.where(np.isnan(size), -np.inf, size)))


def lu_factor(a):
    """(LU, pivots, info) of one square matrix (float32 or float64): L below the diagonal (unit),
    U on and above it; pivots[k] is the row swapped with k; info the 1-based index of the first
    exactly-zero pivot (0 if none), as LAPACK's getrf."""
    lu = np.array(a, dtype=a.dtype)
    n = lu.shape[0]
    wide, one = _wide(lu.dtype), lu.dtype.type(1)
    pivots, info = [], 0
    for k in range(n):
        p = k + idamax(lu[k:, k])
        pivots.append(p)
        if lu[p, k] != 0:
            if p != k:
                lu[[k, p]] = lu[[p, k]]
            if n - k - 1 == 1 and n <= 4:       # (MKL divides a single element; scales a longer column by 1/pivot)
                lu[k + 1:, k] = lu[k + 1:, k] / lu[k, k]
            else:
                lu[k + 1:, k] = lu[k + 1:, k] * (one / lu[k, k])
        elif not info:
            info = k + 1
        rest = lu[k + 1:, k + 1:]
        rest[...] = (rest.astype(wide) - np.outer(lu[k + 1:, k].astype(wide), lu[k, k + 1:].astype(wide)))
    return lu, pivots, info


def _lu_det(a):
    """det(a) as PyTorch computes it: the product of U's diagonal in a's LU (of the transpose, as
    PyTorch hands its row-major memory to LAPACK), in order, and the pivots' sign."""
    lu, pivots, _ = lu_factor(a.T)
    out = a.dtype.type(1)
    for x in np.diagonal(lu):
        out = a.dtype.type(out * x)
    flips = sum(p != k for k, p in enumerate(pivots))
    return -out if flips % 2 else out


def _lu_solve(a, b, perturb=False):
    """x with a x = b (b a matrix) by LU and two triangular solves (LAPACK's getrs), or (None, info)
    when a is singular (info: LAPACK's index of the zero pivot). perturb: a zero pivot becomes eps
    instead (what PyTorch's det gradient does); None: solve anyway (1 / 0 is inf, as PyTorch's slogdet gradient)."""
    lu, pivots, info = lu_factor(a)
    if info:
        if perturb is False:
            return None, info
        if perturb:
            diag = np.diagonal(lu).copy()
            np.fill_diagonal(lu, np.where(diag == 0, np.finfo(a.dtype).eps, diag))
    n = a.shape[0]
    wide, one = _wide(a.dtype), a.dtype.type(1)
    x = np.array(b, dtype=a.dtype)
    for k, p in enumerate(pivots):
        if p != k:
            x[[k, p]] = x[[p, k]]
    for k in range(n):                       # L y = P b (unit lower), column by column
        x[k + 1:] = x[k + 1:].astype(wide) - np.outer(lu[k + 1:, k].astype(wide), x[k].astype(wide))
    for k in range(n - 1, -1, -1):           # U x = y
        x[k] = x[k] * (one / lu[k, k])
        x[:k] = x[:k].astype(wide) - np.outer(lu[:k, k].astype(wide), x[k].astype(wide))
    return x, 0


def _batched(fn, a):
    flat = a.reshape((-1,) + a.shape[-2:])
    return [fn(m) for m in flat]


def _inverse_grad(g, n):
    """-(A^-H g A^-H). A graph of the gradient records derivatives.yaml's order, -(A^-H @ (grad @ A^-H));
    a plain backward keeps its left-to-right products (the same numbers up to rounding)."""
    if isinstance(g, Tensor):
        return -(n.result.mH @ (g @ n.result.mH))
    inverse_h = dual.conj(_mT(n.result))        # (the transpose itself when real)
    return -(inverse_h @ g @ inverse_h)


@op("inverse", "LinalgInvExBackward0", variants=("function", "method"), saves=("result",),
    shows={"self": "-(result.mH @ (grad @ result.mH))"},
    self=_inverse_grad)
def inverse(self, check_errors=True, error_prefix="linalg.inv"):
    """A^-1 by LU and solving A X = I (PyTorch's linalg_inv_ex is linalg_solve_ex(A, I)); check_errors=False:
    a singular A's substitution goes on through the zero pivot (its infs and nans, as LAPACK's)."""
    if self.size == 0:
        return np.zeros(self.shape, self.dtype)
    out = np.empty(self.shape, self.dtype)
    flat = out.reshape((-1,) + self.shape[-2:])
    for b, m in enumerate(self.reshape((-1,) + self.shape[-2:])):
        with np.errstate(all="ignore"):
            inv, info = _lu_solve(m, np.eye(m.shape[0], dtype=m.dtype), perturb=False if check_errors else None)
        if info:
            where = f"(Batch element {b}): " if self.ndim > 2 else ""
            raise _LinAlgError(f"{error_prefix}: {where}The diagonal element {info} is zero, the inversion could not be "
                               "completed because the input matrix is singular.")
        flat[b] = inv
    return _column_major(out)


def _column_major(x):
    """x laid out as LAPACK leaves PyTorch's results: each matrix column-major (strides (1, n))."""
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(x, -1, -2)), -1, -2)


@shows("inverse(A).mH @ grad if left else grad @ inverse(A).mH")
def _solve_b_grad(g, n):
    """solve(A^H, g); for X A = B (left=False) everything transposed: (solve(conj(A), g^T))^T."""
    if isinstance(g, Tensor):
        gb = dual.shared_with_second(n, g, lambda: _solve_gb_graph(g, n), first=False)
        return gb.squeeze(-1) if n.vector else gb
    if not n.left:
        return _mT(dual.call("solve", dual.conj(n.A), _mT(g), vector=False, left=True, check_errors=False))
    return dual.call("solve", dual.conj(_mT(n.A)), g, vector=n.vector, left=True, check_errors=False)


def _solve_gb_graph(g, n):
    """PyTorch's linalg_solve_backward for a graph of the gradient: gB = linalg.solve(A^H, gX, left), the LU
    recomputed (a vector gX as a column)."""
    return dual.call("solve", n.A.mH, g.unsqueeze(-1) if n.vector else g, vector=False, left=n.left, check_errors=False)


@shows("-(inverse(A).mH @ grad).unsqueeze(-1) * result.conj().unsqueeze(-2) if vector"
       " else -(inverse(A).mH @ grad) @ result.mH if left else -result.mH @ (grad @ inverse(A).mH)")
def _solve_a_grad(g, n):
    if isinstance(g, Tensor):       # (PyTorch's linalg_solve_backward: gA = -gB X^H, or -X^H gB for left=False)
        gb = dual.shared_with_second(n, g, lambda: _solve_gb_graph(g, n), first=True)
        x = n.result.unsqueeze(-1) if n.vector else n.result
        return -(gb @ x.mH) if n.left else -(x.mH @ gb)
    gb = _solve_b_grad(g, n)
    x_conj = dual.conj(n.result)         # (the result itself when real)
    if not n.left:                   # X = B A^-1: gA = -X^H gB
        return -(_mT(x_conj) @ gb)
    if n.vector:
        return -(dual.unsqueeze(gb, -1) * dual.unsqueeze(x_conj, -2))
    return -(gb @ _mT(x_conj))


# (variants: torch.solve and Tensor.solve, removed from PyTorch, are written by hand to raise its error)
@op("solve", "LinalgSolveExBackward0", ("A", "B"), saves={"A": ("A", "result"), "B": ("A",)},
    variants=("function", "method"),
    A=_solve_a_grad,
    B=_solve_b_grad)
def solve(A, B, vector, left=True, check_errors=True, error_prefix="torch.linalg.solve"):
    """X with A X = B (vector: B is a (batch of) vector(s)); left=False: X A = B. check_errors=False
    (solve_ex): a singular A's substitution goes on through the zero pivot, as LAPACK's getrs."""
    if not left:
        return np.swapaxes(solve.forward(np.swapaxes(A, -1, -2), np.swapaxes(B, -1, -2), False,
                                         check_errors=check_errors, error_prefix=error_prefix), -1, -2)
    dtype = np.result_type(A, B)
    b = B[..., None] if vector else B
    batch = np.broadcast_shapes(A.shape[:-2], b.shape[:-2])
    out = np.zeros(batch + b.shape[-2:], dtype)
    if out.size:
        a_all = np.broadcast_to(A, batch + A.shape[-2:]).reshape((-1,) + A.shape[-2:])
        b_all = np.broadcast_to(b, batch + b.shape[-2:]).reshape((-1,) + b.shape[-2:])
        flat = out.reshape((-1,) + b.shape[-2:])
        for i, (m, rhs) in enumerate(zip(a_all, b_all)):
            with np.errstate(all="ignore"):
                x, info = _lu_solve(m, rhs, perturb=False if check_errors else None)
            if info:
                where = f"(Batch element {i}): " if batch else ""
                raise _LinAlgError(f"{error_prefix}: {where}The solver failed because the input matrix is singular.")
            flat[i] = x
    return out[..., 0] if vector else _column_major(out)


# ---------------------------------------------------------------- pairwise distances

def _cdist_grad(which):
    def formula(g, n):
        diff = dual.unsqueeze(n.x1, -2) - dual.unsqueeze(n.x2, -3)       # (..., P, R, M)
        dist = dual.unsqueeze(n.result, -1)
        p = n.p
        g = dual.unsqueeze(g, -1)
        if p == 0:
            part = diff * 0
        elif p == 1:
            part = dual.sign(diff)
        elif p == 2:
            part = dual.where(dist == 0, 0.0, diff / dist)
        elif p == float("inf"):
            part = dual.sign(diff) * (abs(diff) == dist)
        elif p < 2:              # (PyTorch: no gradient through a zero difference when p < 1)
            zero = (dist == 0) | (diff == 0) if p < 1 else dist == 0
            part = dual.where(zero, 0.0, dual.sign(diff) * abs(diff) ** (p - 1) / dist ** (p - 1))
        else:
            part = dual.where(dist == 0, 0.0, diff * abs(diff) ** (p - 2) / dist ** (p - 1))
        terms = g * part
        return dual.sum_dims(terms, -2) if which == "x1" else -dual.sum_dims(terms, -3)
    # (its text: the general p, with p = inf's own rule; p = 1 and 2 are the general one where no difference is 0)
    diff = "x1.unsqueeze(-2) - x2.unsqueeze(-3)"
    part = (f"(sign({diff}) * (abs({diff}) == result.unsqueeze(-1)) if p == float('inf')"
            f" else ({diff}) * abs({diff}) ** (p - 2) / result.unsqueeze(-1) ** (p - 1))")
    total = f"(grad.unsqueeze(-1) * {part}).sum(-2)" if which == "x1" else f"-(grad.unsqueeze(-1) * {part}).sum(-3)"
    formula.shows = f"zeros_like({which}) if p == 0 else {total}"
    return formula


def _cdist_grad_recorded(which):
    """cdist's gradient: on arrays the formula above; in a graph of the gradient PyTorch's _cdist_backward op
    (CdistBackwardBackward0), for x2 with the roles swapped and grad and result transposed."""
    formula = _cdist_grad(which)

    def recorded(g, n):
        if not isinstance(g, Tensor):
            return formula(g, n)
        if which == "x1":
            return cdist_backward(g.contiguous(), n.x1, n.x2, n.result, p=n.p)
        return cdist_backward(g.mT.contiguous(), n.x2, n.x1, n.result.mT.contiguous(), p=n.p)
    recorded.shows = formula.shows
    return recorded


def _no_cdist_double_backward(g, n):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


@op("cdist_backward", "CdistBackwardBackward0", ("grad", "x1", "x2", "cdist"), saves=(),
    shows={slot: "the derivative for '_cdist_backward' is not implemented." for slot in ("grad", "x1", "x2", "cdist")},
    grad=_no_cdist_double_backward, x1=_no_cdist_double_backward, x2=_no_cdist_double_backward,
    cdist=_no_cdist_double_backward)
def cdist_backward(grad, x1, x2, cdist, p):
    """PyTorch's _cdist_backward: the gradient of cdist(x1, x2, p) for x1 (whose own derivative PyTorch
    does not implement: a second backward through it raises)."""
    return _cdist_grad("x1")(grad, _CdistSaved(x1, x2, cdist, p))


class _CdistSaved:
    """What _cdist_grad's formula reads from a node, for cdist_backward's forward."""
    def __init__(self, x1, x2, result, p):
        self.x1, self.x2, self.result, self.p = x1, x2, result, p


@op("cdist", "CdistBackward0", ("x1", "x2"), variants=("function",), saves=("x1", "x2", "result"),
    x1=_cdist_grad_recorded("x1"),
    x2=_cdist_grad_recorded("x2"))
def cdist(x1, x2, p):
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:
        out = np.sum(diff != 0, axis=-1).astype(diff.dtype)
    elif p == 1:
        out = np.sum(diff, axis=-1)
    elif p == 2:
        out = np.sqrt(np.sum(diff * diff, axis=-1))
    elif p == float("inf"):
        out = np.max(diff, axis=-1, initial=0)
    else:
        out = np.sum(diff ** p, axis=-1) ** (1.0 / p)
    return out


@shows("grads[1].unsqueeze(-1).unsqueeze(-1) * inverse(self).mT")
def _slogdet_grad(g, n):
    if isinstance(g[1], Tensor):        # (PyTorch's slogdet_backward: solve A^T G = diag(grad_logabsdet))
        d = g[1].unsqueeze(-1).expand(n.self.shape[:-1]).diag_embed().mT
        return dual.call("solve", n.self.mH, d, vector=False)
    return _scaled_inverse_t(n.self, np.asarray(g[1]), perturb=None)


@op("slogdet", "LinalgSlogdetBackward0", variants=("function", "method"), saves=("self",), num_outputs=2,
    saves_outputs=(0,), cast_result=False,
    self=_slogdet_grad)
def slogdet(self):
    real = np.zeros(0, self.dtype).real.dtype          # (logabsdet is real for a complex A)
    if self.size == 0:                                 # (0 x 0: det 1; an empty batch: empty results)
        return np.ones(self.shape[:-2], self.dtype), np.zeros(self.shape[:-2], real)
    signs, logs = zip(*_batched(_lu_slogdet, self))
    return (np.array(signs, self.dtype).reshape(self.shape[:-2]), np.array(logs, real).reshape(self.shape[:-2]))


def _lu_slogdet(a):
    """(sign, log|det|) from the same LU as det: the log of each |U_ii| (correctly rounded), summed in order."""
    lu, pivots, _ = lu_factor(a.T)
    diag = np.diagonal(lu)
    t = a.dtype.type
    sign = t(-1) if sum(p != k for k, p in enumerate(pivots)) % 2 else t(1)
    for x in diag:          # (torch's sgn: 0 for a real nan, x / |x| for a complex x)
        sign = t(sign * (t(int(0 < x) - int(x < 0)) if a.dtype.kind == "f" else (x / abs(x) if x != 0 else t(0))))
    real = np.abs(diag).dtype.type
    total = real(0)
    for x in np.log(np.abs(diag).astype(np.float64)).astype(np.abs(diag).dtype):
        total = real(total + x)
    return sign, total


def _euclidean_dist_grad(which):
    def formula(g, n):
        if isinstance(g, Tensor):   # (PyTorch's: grad / res, masked_fill_ where res == 0, once for both inputs)
            ratio = dual.shared_with_second(n, g, lambda: dual.zero_where(n.result == 0, g / n.result), first=which == "x1")
        else:
            ratio = dual.where(n.result == 0, 0.0, g / n.result)
        if which == "x1":
            return n.x1 * dual.sum_keepdim(ratio, -1) - ratio @ n.x2
        return n.x2 * dual.unsqueeze(dual.sum_dims(ratio, -2), -1) - dual.transpose(ratio, -1, -2) @ n.x1
    ratio = "where(result == 0, 0, grad / result)"
    formula.shows = (f"x1 * {ratio}.sum(-1, keepdim=True) - {ratio} @ x2" if which == "x1"
                     else f"x2 * {ratio}.sum(-2).unsqueeze(-1) - {ratio}.mT @ x1")
    return formula


@op("euclidean_dist", "EuclideanDistBackward0", ("x1", "x2"), saves=("x1", "x2", "result"),
    x1=_euclidean_dist_grad("x1"),
    x2=_euclidean_dist_grad("x2"))
def euclidean_dist(x1, x2):
    """cdist's p = 2 through one matmul, as PyTorch's _euclidean_dist: [-2 x1, |x1|^2, 1] @ [x2, 1, |x2|^2]^T,
    clamped at 0 before the square root, as in PyTorch."""
    n1 = np.sum(x1 * x1, axis=-1, keepdims=True)
    n2 = np.sum(x2 * x2, axis=-1, keepdims=True)
    a = np.concatenate([x1 * x1.dtype.type(-2), n1, np.ones_like(n1)], axis=-1)
    b = np.concatenate([x2, np.ones_like(n2), n2], axis=-1)
    return np.sqrt(np.maximum(a @ np.swapaxes(b, -1, -2), x1.dtype.type(0)))


def _svd_grad_graph(g, n):
    """PyTorch's svd_backward op for op, for a graph of the gradient: on the saved factors U, S, Vh (outputs of
    this node, so differentiable again), with the branches for gradients that were not given (undefined)."""
    U, S, Vh = (dual.saved_output(n, i) for i in range(3))
    gU, gS, gVh = (g[i] if dual.defined(n, i) else None for i in range(3))
    if n.full_matrices:         # (derivatives.yaml: the reduced factors and their gradients)
        k = S.shape[-1]
        gU = None if gU is None else gU.narrow(-1, 0, k)
        gVh = None if gVh is None else gVh.narrow(-2, 0, k)
        U, Vh = U.narrow(-1, 0, k), Vh.narrow(-2, 0, k)
    if gU is None and gS is None and gVh is None:
        return None
    m, n_ = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:          # (svdvals: U diag(gS) Vh)
        return U @ (gS.unsqueeze(-1) * Vh) if m >= n_ else (U * gS.unsqueeze(-2)) @ Vh
    UhgU = None if gU is None else _skew(U.mH @ gU)
    VhgV = None if gVh is None else _skew(Vh @ gVh.mH)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1)
    E.diagonal(0, -2, -1).fill_(1)          # (any nonzero: it divides zeros)
    if gU is not None:
        gA = (UhgU * S.unsqueeze(-2) + S.unsqueeze(-1) * VhgV) / E if gVh is not None else (UhgU / E) * S.unsqueeze(-2)
    else:
        gA = S.unsqueeze(-1) * (VhgV / E)
    if gS is not None:
        gA = gA + gS.diag_embed()
    if m > n_ and gU is not None:
        gA = U @ gA
        gUSinv = gU / S.unsqueeze(-2)
        gA = gA + gUSinv - U @ (U.mH @ gUSinv)
        return gA @ Vh
    if m < n_ and gVh is not None:
        gA = gA @ Vh
        SinvgVh = gVh / S.unsqueeze(-1)
        gA = gA + SinvgVh - (SinvgVh @ Vh.mH) @ Vh
        return U @ gA
    return U @ (gA @ Vh) if m >= n_ else (U @ gA) @ Vh


def _skew(a):
    return a - a.mH


def _svd_grad(g, n):
    """PyTorch's svd_backward for real matrices (reduced SVD), on the saved input's factors:
    gA = U [(skew(U^T gU) / E) S + S (skew(V^T gV) / E) + diag(gS)] V^T
         + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T),  E_jk = s_k^2 - s_j^2 (1 on the diagonal).
    (A graph of the gradient: _svd_grad_graph.)"""
    if isinstance(g[1], Tensor):
        return _svd_grad_graph(g, n)
    a = dual.data(n.self)
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    g_u, g_s, g_vh = (dual.data(x) for x in g)
    k = s.shape[-1]
    if getattr(n, "full_matrices", False):      # (PyTorch's derivatives.yaml narrows gU and gVh to the reduced SVD)
        g_u, g_vh = g_u[..., :k], g_vh[..., :k, :]
    v, g_v = np.swapaxes(vh, -1, -2), np.swapaxes(g_vh, -1, -2)
    out = (u * g_s[..., None, :]) @ vh
    if np.any(g_u) or np.any(g_vh):
        s2 = s * s
        e = s2[..., None, :] - s2[..., :, None]
        e[..., np.arange(k), np.arange(k)] = 1
        ut_gu = np.swapaxes(u, -1, -2) @ g_u
        vt_gv = np.swapaxes(v, -1, -2) @ g_v
        skew_u = (ut_gu - np.swapaxes(ut_gu, -1, -2)) / e
        skew_v = (vt_gv - np.swapaxes(vt_gv, -1, -2)) / e
        inner = skew_u * s[..., None, :] + s[..., :, None] * skew_v
        out = out + u @ inner @ vh
        m, n_ = a.shape[-2:]
        if m > k:
            out = out + ((g_u - u @ ut_gu) / s[..., None, :]) @ vh
        if n_ > k:
            out = out + (u / s[..., None, :]) @ np.swapaxes(g_v - v @ vt_gv, -1, -2)
    return dual.like(g[1], out.astype(a.dtype, copy=False))


# Its text: the formula above with U, S, V the reduced SVD of the saved input (torch.svd(self)), gU, gS, gV the
# gradients of U, S and V = Vh^T (narrowed to the reduced SVD); an output that received none adds nothing.
_SVD_PARTS = {
    "U": "svd(self).U", "S": "svd(self).S", "V": "svd(self).V",
    "gU": "grads[0][..., :svd(self).S.shape[-1]]", "gV": "grads[2][..., :svd(self).S.shape[-1], :].mT",
    "E": "(svd(self).S.unsqueeze(-2) ** 2 - svd(self).S.unsqueeze(-1) ** 2"
         " + eye(n=svd(self).S.shape[-1], dtype=self.dtype))"}
_SVD_TEXT = (
    "(0 if grads[1] is None else {U} @ diag_embed(grads[1]) @ {V}.mT)"
    " + (0 if grads[0] is None else {U} @ (({U}.mT @ {gU} - {gU}.mT @ {U}) / {E} * {S}.unsqueeze(-2)) @ {V}.mT"
    " + ({gU} - {U} @ {U}.mT @ {gU}) / {S}.unsqueeze(-2) @ {V}.mT)"
    " + (0 if grads[2] is None else {U} @ ({S}.unsqueeze(-1) * ({V}.mT @ {gV} - {gV}.mT @ {V}) / {E}) @ {V}.mT"
    " + {U} / {S}.unsqueeze(-2) @ ({gV} - {V} @ {V}.mT @ {gV}).mT)").format(**_SVD_PARTS)


@op("svd", "LinalgSvdBackward0", saves=("self",), num_outputs=3, saves_outputs=(0, 1, 2),
    variants=("function", "method"), cast_result=False,
    shows={"self": _SVD_TEXT},
    self=_svd_grad)
def svd(self, full_matrices=False, check_errors=True):
    """U, S, Vh of the SVD (linalg.svd, torch.svd, linalg.svdvals: S); the reduced one unless full_matrices.
    A matrix with a non-finite entry raises PyTorch's error, or (torch.svd: check_errors=False) gives nans."""
    finite = np.isfinite(self).all(axis=(-2, -1))
    if check_errors:
        check_svd_finite(self)
    if not finite.all():
        # (an inf without a nan: MKL's gesdd returns, its singular values nan; torch.svd: no check at all)
        u, s, vh = svd.forward(np.where(finite[..., None, None], self, 0), full_matrices)
        for x in (u, s, vh):
            x[~finite] = np.nan
        return u, s, vh
    u, s, vh = np.linalg.svd(self, full_matrices=full_matrices)
    # (LAPACK's factors are column-major, matrix by matrix, as in PyTorch: torch.svd's V = Vh.mT is contiguous)
    return _column_major(u.astype(self.dtype, copy=False)), s.astype(self.real.dtype), _column_major(
        vh.astype(self.dtype, copy=False))


def check_svd_finite(a):
    """PyTorch's error where LAPACK's gesdd fails: a matrix with a nan (one with an inf but no nan comes back
    with nan singular values)."""
    has_nan = np.isnan(a).any(axis=(-2, -1))
    if has_nan.any():
        batch = f"(Batch element {np.nonzero(has_nan.reshape(-1))[0][0]}): " if a.ndim > 2 else ""
        raise _LinAlgError(f"linalg.svd: {batch}The algorithm failed to converge because the input matrix contained "
                           "non-finite values.")


def _column_major(a):
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)


# ---------------------------------------------------------------- vdot, addr

@op("vdot", "VdotBackward0", ("self", "other"), variants=("function", "method"), promote=False, saves={"self": ("other",), "other": ("self",)},
    shows={"self": "grad.conj() * other", "other": "grad * self"},
    self=lambda g, n: dual.conj(g) * n.other,
    other=lambda g, n: g * n.self)
def vdot(self, other):
    """The dot product of self's conjugate with other (1-d, one dtype: checked by Tensor.vdot)."""
    if self.dtype.kind == "c":
        return np.asarray(np.vdot(self, other))
    return np.asarray(np.dot(self, other))


def _maybe_multiply(g, c):
    """c * g, skipped for c == 1 (PyTorch's maybe_multiply: C++'s `t * s` for a Scalar s, MulBackward1 in a
    graph of the gradient)."""
    if c == 1:
        return g
    return OPS["mul_scalar"](g, other=c) if isinstance(g, Tensor) else g * c


def _conj_number(c):
    return c.conjugate() if isinstance(c, complex) else c


def _mv_checked(mat, vec):
    """mat.mv(vec) in a formula: PyTorch's mv is addmv, whose inputs must share a dtype (a vector of another
    dtype than the gradient is refused there)."""
    m, v = dual.data(mat), dual.data(vec)
    if m.dtype != v.dtype:
        kinds = [from_numpy_dtype(d)._legacy[:-len("Tensor")] for d in (v.dtype, m.dtype, v.dtype)]
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {kinds[0]}, {kinds[1]}, and "
                           f"{kinds[2]}")
    return dual.mv(mat, dual.conj(vec))


# (promote=False: PyTorch expands self to the result's shape before its TensorIterator, so a 0-d self takes
# part in the result type as a full tensor: the forward promotes all three alike)
@op("addr", "AddrBackward0", ("self", "vec1", "vec2"), variants=("function", "method", "inplace"), promote=False, saves={"vec1": ("vec2",), "vec2": ("vec1",)},
    shows={"self": "grad * beta.conj()", "vec1": "grad.mv(vec2.conj()) * alpha.conj()",
           "vec2": "grad.t().mv(vec1.conj()) * alpha.conj()"},
    self=lambda g, n: _maybe_multiply(g, _conj_number(n.beta)),
    vec1=lambda g, n: _maybe_multiply(_mv_checked(g, n.vec2), _conj_number(n.alpha)),
    vec2=lambda g, n: _maybe_multiply(_mv_checked(dual.t(g), n.vec1), _conj_number(n.alpha)))
def addr(self, vec1, vec2, beta=1, alpha=1):
    """beta * self + alpha * outer(vec1, vec2), element by element as PyTorch's kernel: beta_val * self +
    alpha_val * vec1 * vec2 (beta == 0 ignores self, its nan too); bools: (beta and self) or (alpha and
    vec1 and vec2)."""
    dtype = result_np_dtype([(1, x.dtype) for x in (self, vec1, vec2)], [])     # (PyTorch's promotion)
    self, vec1, vec2 = (x.astype(dtype, copy=False) for x in (self, vec1, vec2))
    v1, v2 = vec1[:, None], vec2[None, :]
    shape = (vec1.shape[0], vec2.shape[0])
    if dtype.kind == "b":
        out = (bool(alpha) & v1 & v2) if not beta else (self & bool(beta)) | (bool(alpha) & v1 & v2)
        return np.broadcast_to(out, shape).copy()
    a, b = (dtype.type(c) if dtype.kind != "c" else dtype.type(complex(c)) for c in (alpha, beta))
    if dtype.kind in "iu":
        a, b = (np.asarray(int(c)).astype(dtype)[()] for c in (alpha, beta))    # (integers wrap)
    with np.errstate(over="ignore", invalid="ignore"):
        product = (a * v1) * v2
        out = product if beta == 0 else b * self + product
    return np.broadcast_to(out, shape).astype(dtype)
