"""Tensor methods: linalg (copied onto Tensor by gradlab/tensor.py): triangles, diagonals, cross and
Kronecker products, determinant and inverse, addmm and its relatives, matrix_power."""

import numpy as np

from .._ctype import CType
from .._tensor_core import Tensor, _wrap_dim, c_size
from ..creation import zeros
from ..ops import OPS
from ..ops.linalg import column_major as _column_major
from ..ops.operands import _check_tensor_argument, _kind, broadcast_error, where
from ._common import _c_type, refuse_complex32_linalg
from .. import _warnings


class _LinalgMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- triangles and diagonals ----------------------------------------------------------------
    def tril(self, diagonal=0):
        _check_matrices(self, "tril: input tensor must have at least 2 dimensions")
        return OPS["tril"](self, diagonal=diagonal)

    def triu(self, diagonal=0):
        _check_matrices(self, "triu: input tensor must have at least 2 dimensions")
        return OPS["triu"](self, diagonal=diagonal)

    def diagonal(self, offset=0, dim1=0, dim2=1):
        nd = self._data.ndim
        d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return OPS["diagonal"](self, offset=offset, dim1=d1, dim2=d2, self_sizes=self._data.shape)._view_of(self)

    def diag_embed(self, offset=0, dim1=-2, dim2=-1):
        nd = self._data.ndim + 1
        d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
        return OPS["diag_embed"](self, offset=offset, dim1=d1, dim2=d2)

    def diag(self, diagonal=0):
        nd = self._data.ndim
        if nd == 1:
            return OPS["diag_embed"](self, offset=diagonal, dim1=0, dim2=1)
        if nd == 2:
            return OPS["diagonal_copy"](self, offset=diagonal, dim1=0, dim2=1, self_sizes=self._data.shape)
        raise RuntimeError(f"diag(): Supports 1D or 2D tensors. Got {nd}D")

    # --- products -------------------------------------------------------------------------------
    def cross(self, other, dim=None):
        _check_tensor_argument("cross", other)
        if dim is None:            # the first dim of size 3 (of self), with torch's warning
            dim = next((d for d, n in enumerate(self._data.shape) if n == 3), None)
            if dim is None:
                raise RuntimeError("no dimension of size 3 in input")
            _warn_cross_dim()
        return _cross(self, other, dim)

    def kron(self, other):
        _check_tensor_argument("kron", other)
        nd = max(self._data.ndim, other._data.ndim)
        a = (1,) * (nd - self._data.ndim) + self._data.shape
        b = (1,) * (nd - other._data.ndim) + other._data.shape
        a_shape = tuple(x for n in a for x in (n, 1))
        b_shape = tuple(x for n in b for x in (1, n))
        left = OPS["unsafe_view"](self, shape=a_shape, self_sizes=self._data.shape)
        right = OPS["unsafe_view"](other, shape=b_shape, self_sizes=other._data.shape)
        out = left * right
        return OPS["unsafe_view"](out, shape=tuple(x * y for x, y in zip(a, b)), self_sizes=out._data.shape)

    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        _check_tensor_argument("addmm", mat1, "mat1")
        _check_tensor_argument("addmm", mat2, "mat2")
        _check_mat_dtypes(self, mat1, mat2)
        for name, t in (("mat1", mat1), ("mat2", mat2)):
            if t._data.ndim != 2:
                raise RuntimeError(f"{name} must be a matrix, got {t._data.ndim}-D tensor")
        (n, k), (k2, m) = mat1._data.shape, mat2._data.shape
        if k != k2:
            raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {k2}x{m})")
        _check_expands(self, (n, m))
        _check_not_bool(self, "addmm_impl_cpu_")
        if mat2.requires_grad or mat1.requires_grad:      # (the layouts backward gives the gradients)
            return OPS["addmm"](self, mat1, mat2, mat1_transposed=_column_major(mat1),
                                mat2_transposed=_column_major(mat2), beta=beta, alpha=alpha)
        return OPS["addmm"](self, mat1, mat2, beta=beta, alpha=alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        _check_tensor_argument("addmv", mat, "mat")
        _check_tensor_argument("addmv", vec, "vec")
        if mat._data.ndim != 2 or vec._data.ndim != 1 or self._data.ndim > 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got {self._data.ndim}, {mat._data.ndim}, "
                               f"{vec._data.ndim}")
        if mat._data.shape[1] != vec._data.shape[0] or self._data.size not in (1, mat._data.shape[0]):
            raise RuntimeError(f"size mismatch, got input ({self._data.shape[0] if self._data.ndim else 1}), mat "
                               f"({'x'.join(map(str, mat._data.shape))}), vec ({vec._data.shape[0]})")
        _check_expands(self, mat._data.shape[:1])
        if not self._data.dtype == mat._data.dtype == vec._data.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_kind(self)}, {_kind(mat)}, "
                               f"and {_kind(vec)}")
        _check_not_bool(self, "addmv_impl_cpu")
        return OPS["addmv"](self, mat, vec, beta=beta, alpha=alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        _check_tensor_argument("baddbmm", batch1, "batch1")
        _check_tensor_argument("baddbmm", batch2, "batch2")
        c_size(batch1, 0), c_size(batch1, 1), c_size(batch2, 2)    # (an IndexError before any other check, as PyTorch)
        b1, b2 = _check_batches("baddbmm", batch1, batch2)
        _check_expands(self, (b1[0], b1[1], b2[2]))
        if self._data.dtype != batch1._data.dtype:
            raise RuntimeError(f"Input dtypes must be the same, got: input {_c_type(self)}, batch1: {_c_type(batch1)}, "
                               f"batch2: {_c_type(batch2)}")
        _check_bmm_sizes(b1, b2)
        if batch1._data.dtype != batch2._data.dtype:
            raise RuntimeError(f"expected scalar type {_kind(batch1)} but found {_kind(batch2)}")
        _check_not_bool(self, "baddbmm")
        return OPS["baddbmm"](self, batch1, batch2, beta=beta, alpha=alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        _check_tensor_argument("addbmm", batch1, "batch1")
        _check_tensor_argument("addbmm", batch2, "batch2")
        out_shape = (c_size(batch1, 1), c_size(batch2, 2))  # (an IndexError before any other check, as PyTorch)
        b1, b2 = _check_batches("addbmm", batch1, batch2)
        _check_expands(self, out_shape)
        _check_mat_dtypes(self, batch1, batch2)
        _check_bmm_sizes(b1, b2)
        _check_not_bool(self, "addmm_impl_cpu_")
        return OPS["addbmm"](self, batch1, batch2, beta=beta, alpha=alpha)

    def matrix_power(self, n):
        return _matrix_power(self, n)

    # --- determinant and inverse ----------------------------------------------------------------
    def det(self):
        _check_square(self, "linalg.det")
        return OPS["det"](self)

    def inverse(self):
        _check_square(self, "linalg.inv")
        return OPS["inverse"](self)

    def slogdet(self):
        _check_square(self, "linalg.slogdet")
        return _SlogdetResult(OPS["slogdet"](self))

    def svd(self, some=True, compute_uv=True):
        """torch.svd: U, S, V = linalg.svd(A, full_matrices=not some) with V = Vh.mT (a TransposeBackward0);
        without compute_uv, S alone and zero U and V of the full sizes."""
        if self._data.ndim < 2:
            raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {self._data.ndim} "
                               "dimensions instead")
        _check_svd_input(self, "linalg.svd")
        if not compute_uv:
            m, n = self._data.shape[-2:]
            s = OPS["svd"](self)[1]
            batch = self._data.shape[:-2]
            return _SvdResult((zeros(*batch, m, m, dtype=self.dtype), s, zeros(*batch, n, n, dtype=self.dtype)))
        u, s, vh = OPS["svd"](self, full_matrices=not some, check_errors=False)
        return _SvdResult((u, s, vh.transpose(-2, -1)))

    def logdet(self):
        _check_square(self, "logdet")
        sign, logabsdet = OPS["slogdet"](self)
        if self._data.dtype.kind == "c":       # (PyTorch: log of the complex sign plus the real log|det|)
            return sign.log() + logabsdet
        return where(sign == -1., float("nan"), logabsdet)


class _NamedPair(tuple):
    """torch.return_types.<name>: a pair with named fields (slogdet's sign and logabsdet, ...)."""
    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0
    _fields = ()

    def __new__(cls, values):
        return tuple.__new__(cls, tuple(values))

    def __repr__(self):
        inner = ",\n".join(f"{f}={v!r}" for f, v in zip(self._fields, self))
        return f"torch.return_types.{type(self).__name__}(\n{inner})"


def _named_pair(name, first, second):
    return CType(name, (_NamedPair,), {"__module__": "gradlab.return_types", "__qualname__": name, "__slots__": (),
                                       "_fields": (first, second), first: property(lambda self: self[0]),
                                       second: property(lambda self: self[1])}, c_name=f"torch.return_types.{name}")


def _named_triple(name, *fields):
    body = {"__module__": "gradlab.return_types", "__qualname__": name, "__slots__": (), "_fields": fields,
            "n_fields": 3, "n_sequence_fields": 3}
    body.update({f: property(lambda self, i=i: self[i]) for i, f in enumerate(fields)})
    return CType(name, (_NamedPair,), body, c_name=f"torch.return_types.{name}")


_SvdResult = _named_triple("svd", "U", "S", "V")
_LinalgSvdResult = _named_triple("linalg_svd", "U", "S", "Vh")
_SlogdetResult = _named_pair("slogdet", "sign", "logabsdet")
_LinalgSlogdetResult = _named_pair("linalg_slogdet", "sign", "logabsdet")


# --- checks, worded as PyTorch's --------------------------------------------------------------------

def _check_matrices(t, message):
    if t._data.ndim < 2:
        raise RuntimeError(message)


def _check_svd_input(t, name):
    if t._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if t._data.dtype.kind == "V":
        raise NotImplementedError("\"linalg_svd_cpu\" not implemented for 'ComplexHalf'")
    if t._data.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_kind(t)}")
    if t._data.dtype == np.float16:
        raise NotImplementedError("\"linalg_svd_cpu\" not implemented for 'Half'")


def _check_square(t, name):
    if t._data.ndim < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    n, m = t._data.shape[-2:]
    if n != m:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {n} by {m} matrices")
    refuse_complex32_linalg(t, name)
    if t._data.dtype == np.float16:
        raise NotImplementedError("\"lu_cpu\" not implemented for 'Half'" if name != "linalg.inv" else
                                  "\"linalg_lu_factor_ex_cpu\" not implemented for 'Half'")
    if t._data.dtype.kind not in "fc":
        raise RuntimeError(f"{name}: Expected a floating point or complex tensor as input. Got {_kind(t)}")


def _broadcast(a, b):
    try:
        return np.broadcast_shapes(a._data.shape, b._data.shape)
    except ValueError:
        raise broadcast_error(a._data.shape, b._data.shape) from None


def _warn_cross_dim():
    _warnings.warn_once("Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                       "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                       "with that of linalg.cross in a future release. (Triggered internally at "
                       "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")


def _cross(a, b, dim, name="linalg.cross"):
    """a x b along dim (torch.cross and torch.linalg.cross), with PyTorch's checks in its order."""
    if a._data.ndim != b._data.ndim:
        raise RuntimeError(f"{name}: inputs must have the same number of dimensions.")
    d = _wrap_dim(dim, a._data.ndim)
    if a._data.shape[d] != 3 or b._data.shape[d] != 3:
        raise RuntimeError(f"{name}: inputs dimension {dim} must have length 3. Got {a._data.shape[d]} and "
                           f"{b._data.shape[d]}")
    if a._data.dtype != b._data.dtype:
        raise RuntimeError(f"expected scalar type {_kind(a)} but found {_kind(b)}")
    _broadcast(a, b)
    if a._data.dtype == np.bool_:
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    return OPS["cross"](a, b, dim=d)


def _check_expands(t, shape):
    """t broadcasts to shape (addmm's self), else PyTorch's expand error."""
    given = t._data.shape
    if len(given) > len(shape):
        raise RuntimeError(f"The expanded size of the tensor ({shape[0] if shape else 0}) must match the existing size "
                           f"({given[0]}) at non-singleton dimension 0.  Target sizes: {list(shape)}.  "
                           f"Tensor sizes: {list(given)}")
    pad = len(shape) - len(given)
    for i in range(len(given) - 1, -1, -1):
        if given[i] != 1 and given[i] != shape[pad + i]:
            raise RuntimeError(f"The expanded size of the tensor ({shape[pad + i]}) must match the existing size "
                               f"({given[i]}) at non-singleton dimension {pad + i}.  Target sizes: {list(shape)}.  "
                               f"Tensor sizes: {list(given)}")


def _check_mat_dtypes(t, m1, m2):
    """addmm's (and addbmm's) dtype checks, before any shape is looked at."""
    if t._data.dtype != m2._data.dtype:
        raise RuntimeError(f"self and mat2 must have the same dtype, but got {_kind(t)} and {_kind(m2)}")
    if m1._data.dtype != m2._data.dtype:
        raise RuntimeError(f"mat1 and mat2 must have the same dtype, but got {_kind(m1)} and {_kind(m2)}")


def _check_not_bool(t, kernel):
    if t._data.dtype == np.bool_:
        raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')


def _check_batches(name, b1, b2):
    _check_tensor_argument(name, b1, "batch1")
    _check_tensor_argument(name, b2, "batch2")
    for arg, t in (("batch1", b1), ("batch2", b2)):
        if t._data.ndim != 3:
            raise RuntimeError(f"{arg} must be a 3D tensor")
    return b1._data.shape, b2._data.shape


def _check_bmm_sizes(b1, b2):
    if b2[:2] != (b1[0], b1[2]):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b1[0]}, {b1[2]}] "
                           f"but got: [{b2[0]}, {b2[1]}].")


def _matrix_power(t, n, name="linalg.matrix_power"):
    nd = t._data.ndim
    if nd < 2:
        raise RuntimeError(f"{name}: The input tensor A must have at least 2 dimensions.")
    if t._data.shape[-1] != t._data.shape[-2]:
        raise RuntimeError(f"{name}: A must be batches of square matrices, but they are {t._data.shape[-2]} by "
                           f"{t._data.shape[-1]} matrices")
    if n == 0:             # (PyTorch: a contiguous clone, the identity copied into it)
        eye = np.broadcast_to(np.eye(t._data.shape[-1], dtype=t._data.dtype), t._data.shape)
        return t.clone().copy_(Tensor._make(eye))
    if n == 1:
        return t.clone()
    if n < 0:
        _check_square(t, "linalg.inv")
        t, n = OPS["inverse"](t), -n
        if n == 1:
            return t
    if n == 2:
        return t.matmul(t)
    if n == 3:
        return t.matmul(t).matmul(t)
    result = z = None          # PyTorch's repeated squaring
    while n:
        bit, n = n & 1, n >> 1
        z = t if z is None else z.matmul(z)
        if bit:
            result = z if result is None else result.matmul(z)
    return result


def _svd_norm(A, ord, d0, d1, keepdim, dtype):
    """The spectral (ord=2, -2) and nuclear norms: the singular values of A with (d0, d1) moved last."""
    if dtype is not None:
        if dtype.np.kind not in "fc":
            raise RuntimeError(f"linalg.matrix_norm: dtype should be floating point or complex, but got "
                               f"{dtype._legacy[:-len('Tensor')]}")
        A = A.to(dtype)
    nd = A._data.ndim
    permutation = [d for d in range(nd) if d not in (d0, d1)] + [d0, d1]
    values = OPS["svd"](A.permute(permutation))[1]         # (linalg.svdvals, checked by the caller)
    if ord == "nuc":
        result = values.sum(-1)
    else:
        result = values.amax(-1) if ord > 0 else values.amin(-1)
    if keepdim:
        reverse = [permutation.index(d) for d in range(nd)]
        result = result.unsqueeze(-1).unsqueeze(-1).permute(reverse)
    return result
