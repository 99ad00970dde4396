"""Matrix products. `matmul` dispatches on the number of dimensions exactly as PyTorch does, so
the grad_fn a student sees is PyTorch's (MmBackward0, MvBackward0, DotBackward0, ...)."""
import numpy as np

from . import dual
from .registry import op


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


@op("mm", "MmBackward0", ("self", "mat2"), saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: dual.mm(g, dual.t(n.mat2)),
    mat2=lambda g, n: _mat2_grad(n.self, g, n))
def mm(self, mat2, mat2_transposed=False):
    return dual.mm(self, mat2)


@op("mv", "MvBackward0", ("self", "vec"), saves={"self": ("vec",), "vec": ("self",)},
    self=lambda g, n: dual.unsqueeze(g, 1) * dual.unsqueeze(n.vec, 0),
    vec=lambda g, n: dual.mv(dual.t(n.self), g))
def mv(self, vec):
    return self @ vec


@op("dot", "DotBackward0", ("self", "tensor"), saves={"self": ("tensor",), "tensor": ("self",)},
    self=lambda g, n: g * n.tensor,
    tensor=lambda g, n: g * n.self)
def dot(self, tensor):
    return np.asarray(np.dot(self, tensor))


@op("bmm", "BmmBackward0", ("self", "mat2"), saves={"self": ("mat2",), "mat2": ("self",)},
    self=lambda g, n: dual.bmm(g, dual.transpose(n.mat2, 1, 2)),
    mat2=lambda g, n: dual.bmm(dual.transpose(n.self, 1, 2), g))
def bmm(self, mat2):
    return np.matmul(self, mat2)


@op("addmm", "AddmmBackward0", ("self", "mat1", "mat2"), saves={"mat1": ("mat2",), "mat2": ("mat1",)},
    self=lambda g, n: g,
    mat1=lambda g, n: dual.mm(g, dual.t(n.mat2)),
    mat2=lambda g, n: _mat2_grad(n.mat1, g, n))
def addmm(self, mat1, mat2, mat2_transposed=False):
    """bias + mat1 @ mat2: what nn.Linear computes for a 2-d input."""
    out = dual.mm(mat1, mat2)
    out += self
    return out


@op("trace", "TraceBackward0", cast_result=False,
    self=lambda g, n: dual.where(np.eye(*n.self_sizes, dtype=bool), g, 0.0))   # (not g * eye: nan * 0 is nan)
def trace(self, self_sizes):
    # an integer trace is int64, as PyTorch's sum of integers
    return np.asarray(np.trace(self, dtype=np.int64 if self.dtype.kind in "iu" else None))


def _eye_like(n, g):
    # in g's dtype: a 0-d float64 g times a 2-d float32 eye would be float32 (promotion by dimension)
    return dual.like(g, np.eye(*n.self_sizes, dtype=dual.data(g).dtype))
