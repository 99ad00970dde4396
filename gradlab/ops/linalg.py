"""Matrix products. `matmul` dispatches on the number of dimensions exactly as PyTorch does, so
the grad_fn a student sees is PyTorch's (MmBackward0, MvBackward0, DotBackward0, ...)."""
import numpy as np

from . import dual
from .operands import _check_tensor_argument, broadcast_error
from .registry import OPS, op


def _mat2_grad(left, g, n):
    """left.t() @ g, laid out like mat2 was.

    When mat2 is a transposed matrix (nn.Linear's weight.t()), (g.t() @ left).t() gives the same
    numbers in mat2's layout, so the weight's own gradient arrives contiguous and AccumulateGrad
    copies it without a slow strided pass (PyTorch's mm backward makes the same choice). The caller
    records the layout as `mat2_transposed`: saving mat2 just for it would keep it alive."""
    if n.mat2_transposed:
        return dual.t(dual.mm(dual.t(g), left))
    return dual.mm(dual.t(left), g)


def mat2_transposed(mat2):
    """The `mat2_transposed` argument of mm/addmm: is mat2 a transposed (column-major) matrix?"""
    flags = mat2._data.flags
    return flags.f_contiguous and not flags.c_contiguous


@op("mm", "MmBackward0", ("self", "mat2"), variants=("function", "method"),
    saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: dual.mm(g, dual.t(n.mat2)),
    mat2=lambda g, n: _mat2_grad(n.self, g, n))
def mm(self, mat2, mat2_transposed=False):
    return dual.mm(self, mat2)


@op("mv", "MvBackward0", ("self", "vec"), variants=("function", "method"), saves={"self": ("vec",), "vec": ("self",)},
    self=lambda g, n: dual.unsqueeze(g, 1) * dual.unsqueeze(n.vec, 0),
    vec=lambda g, n: dual.mv(dual.t(n.self), g))
def mv(self, vec):
    return self @ vec


@op("dot", "DotBackward0", ("self", "tensor"), variants=("function", "method"),
    saves={"self": ("tensor",), "tensor": ("self",)},
    self=lambda g, n: g * n.tensor,
    tensor=lambda g, n: g * n.self)
def dot(self, tensor):
    return np.asarray(np.dot(self, tensor))


@op("bmm", "BmmBackward0", ("self", "mat2"), variants=("function", "method"),
    saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: dual.bmm(g, dual.transpose(n.mat2, 1, 2)),
    mat2=lambda g, n: dual.bmm(dual.transpose(n.self, 1, 2), g))
def bmm(self, mat2):
    return np.matmul(self, mat2)


def _scaled(g, c):
    """c * g, skipped for c == 1 (PyTorch's maybe_multiply)."""
    return g if c == 1 else g * c


@op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), variants=("function", "method"),
    saves={"mat1": ("mat2",), "mat2": ("mat1",)},
    self=lambda g, n: _scaled(g, n.beta),
    mat1=lambda g, n: _scaled(dual.mm(g, dual.t(n.mat2)), n.alpha),
    mat2=lambda g, n: _scaled(_mat2_grad(n.mat1, g, n), n.alpha))
def addmm(self, mat1, mat2, mat2_transposed=False, beta=1, alpha=1):
    """beta * self + alpha * (mat1 @ mat2): with beta = alpha = 1, what nn.Linear computes for a 2-d input."""
    out = dual.mm(mat1, mat2)
    return _add_scaled(out, self, beta, alpha)


def _add_scaled(out, self, beta, alpha):
    """beta * self + alpha * out, as BLAS does it: beta = 0 ignores self (its nan and inf too)."""
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


@op("addmv", "AddmvBackward0", ("self", "mat", "vec"), variants=("function", "method"),
    saves={"mat": ("vec",), "vec": ("mat",)},
    self=lambda g, n: _scaled(g, n.beta),
    mat=lambda g, n: _scaled(dual.unsqueeze(g, 1) * dual.unsqueeze(n.vec, 0), n.alpha),
    vec=lambda g, n: _scaled(dual.mv(dual.t(n.mat), g), n.alpha))
def addmv(self, mat, vec, beta=1, alpha=1):
    return _add_scaled(np.asarray(mat @ vec), self, beta, alpha)


@op("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method"),
    saves={"batch1": ("batch2",), "batch2": ("batch1",)},
    self=lambda g, n: _scaled(g, n.beta),
    batch1=lambda g, n: _scaled(dual.bmm(g, dual.transpose(n.batch2, 1, 2)), n.alpha),
    batch2=lambda g, n: _scaled(dual.bmm(dual.transpose(n.batch1, 1, 2), g), n.alpha))
def baddbmm(self, batch1, batch2, beta=1, alpha=1):
    return _add_scaled(np.matmul(batch1, batch2), self, beta, alpha)


@op("addbmm", "AddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method"),
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
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{a._data.shape[0]} and "
                               f"{b._data.shape[0]}x{b._data.shape[1]})")
        return OPS["squeeze_matmul"](a.unsqueeze(0).mm(b), dim=0, self_sizes=(1, b._data.shape[1]))
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
    a3 = a2.expand(batch + (n, k)).reshape(-1, n, k)
    b3 = b2.expand(batch + (k, m)).reshape(-1, k, m)
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
    try:
        np.reshape(big._data, (-1, big._data.shape[-1]), copy=False)
        return True
    except ValueError:
        return False


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
    folded = t1.reshape(-1, k)
    if t2._data.ndim == 2:
        out = folded.mm(t2)
        out = OPS["unsafe_view"](out, shape=shape + (t2._data.shape[1],), self_sizes=out._data.shape)
        return out.mT.contiguous() if transpose else out
    out = folded.mv(t2)
    return OPS["unsafe_view"](out, shape=shape, self_sizes=out._data.shape)
