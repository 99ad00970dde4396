"""Matrix products. `matmul` dispatches on the number of dimensions exactly as PyTorch does, so
the grad_fn a student sees is PyTorch's (MmBackward0, MvBackward0, DotBackward0, ...)."""
import numpy as np

from . import dual
from .operands import _check_tensor_argument, broadcast_error
from .registry import OPS, op


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


@op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), variants=("function", "method"),
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


@op("addmv", "AddmvBackward0", ("self", "mat", "vec"), variants=("function", "method"),
    shows={"self": "grad * beta", "mat": "grad.outer(vec.conj()) * alpha", "vec": "mat.t().conj() @ grad * alpha"},
    saves={"mat": ("vec",), "vec": ("mat",)},
    self=lambda g, n: _scaled(g, n.beta),
    mat=lambda g, n: _scaled(_outer(g, dual.conj(n.vec)), n.alpha),
    vec=lambda g, n: _scaled(dual.mv(dual.conj(dual.t(n.mat)), g), n.alpha))
def addmv(self, mat, vec, beta=1, alpha=1):
    return _add_scaled(np.asarray(mat @ vec), self, beta, alpha)


@op("baddbmm", "BaddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method"),
    shows={"self": "grad * beta", "batch1": "grad @ batch2.transpose(1, 2).conj() * alpha",
           "batch2": "batch1.transpose(1, 2).conj() @ grad * alpha"},
    saves={"batch1": ("batch2",), "batch2": ("batch1",)},
    self=lambda g, n: _scaled(g, n.beta),
    batch1=lambda g, n: _scaled(dual.bmm(g, dual.conj(dual.transpose(n.batch2, 1, 2))), n.alpha),
    batch2=lambda g, n: _scaled(dual.bmm(dual.conj(dual.transpose(n.batch1, 1, 2)), g), n.alpha))
def baddbmm(self, batch1, batch2, beta=1, alpha=1):
    return _add_scaled(np.matmul(batch1, batch2), self, beta, alpha)


@op("addbmm", "AddbmmBackward0", ("self", "batch1", "batch2"), variants=("function", "method"),
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
