"""Tensor's reductions (`sum`, `mean`, `max`, `var`, `norm`, `softmax`, ...), reductions into positions
(`scatter`, `scatter_add`, `index_add`, `index_copy`, `take`) and matrix products (`matmul`, `mm`, `bmm`, `dot`, ...)."""
import numbers

import numpy as np

from .. import _dtype
from .._ctype import CType
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..autograd.node import save_for_check
from ..ops import OPS, indexing as _indexing
from ..ops.registry import refuse_inference_saved
from ..ops.linalg import column_major as _column_major
from ..ops.operands import _kind, _type_name
from ..ops.scatter import index_param, scatter_reduced
from ._common import (_all_dims, _c_type, _check_operand, _check_tensor_argument, _dims, _every_dim, matmul,
                      maximum, minimum)
from .linalg import _svd_norm
from .operators import _no_derivative
from .. import _warnings

_NO_DIM = object()      # sum(), mean(): no dim given (an explicit dim=None is another overload in PyTorch)



def _no_complex(t, message, error=NotImplementedError):
    """PyTorch's refusal of a complex tensor where values are ordered (max, argmax, amax, aminmax): `message`
    names the kernel's dtype as {}."""
    if t._data.dtype.kind in "cV":
        raise error(message.format(_dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]))

class _ReductionMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- reductions -----------------------------------------------------------------------------
    def sum(self, dim=_NO_DIM, keepdim=False, dtype=None):
        src = self if dtype is None else self._accumulated_as(dtype)
        if dim is _NO_DIM:
            return _in_dtype(self, OPS["sum"](src, self_sizes=src._data.shape), dtype, src)
        # an explicit dim=None (or [], ()) is PyTorch's sum over all dims: SumBackward1
        dims = _every_dim(dim, src._data.ndim) if _all_dims(dim) else _dims(dim, src._data.ndim)
        return _in_dtype(self, OPS["sum_dim"](src, dim=dims, keepdim=keepdim, self_sizes=src._data.shape), dtype, src)

    def _accumulated_as(self, dtype, kernel=None):
        """sum/prod/cumsum(dtype=...): the input cast to dtype (cumsum has no bool kernel)."""
        src = self.to(dtype)
        # (an empty one reaches no kernel, nor a 0-d one: PyTorch copies it)
        if kernel and src._data.dtype.kind == "b" and src._data.size and src._data.ndim:
            raise NotImplementedError(f'"{kernel}" not implemented for \'Bool\'')
        return src

    def mean(self, dim=_NO_DIM, keepdim=False, dtype=None):
        # (the dtype is checked before any cast: a refused one gives no complex-to-real warning)
        kind = self._data.dtype if dtype is None else _dtype.to_numpy_dtype(dtype)
        if kind.kind not in "fcV":
            which = "Input" if dtype is None else "Optional"
            raise RuntimeError(f"mean(): could not infer output dtype. {which} dtype must be either a floating point "
                               f"or complex dtype. Got: {_dtype.from_numpy_dtype(kind)._legacy[:-6]}")
        src = self if dtype is None else self.to(dtype)
        if dim is _NO_DIM:
            return OPS["mean"](src, self_sizes=src._data.shape, count=max(src._data.size, 1))
        dims = _every_dim(dim, src._data.ndim) if _all_dims(dim) else _dims(dim, src._data.ndim)   # (MeanBackward1)
        count = 1
        for d in dims:
            count *= src._data.shape[d]
        return OPS["mean_dim"](src, dim=dims, keepdim=keepdim, self_sizes=src._data.shape, count=count)

    def _extreme(self, which, dim, keepdim):
        if isinstance(dim, Tensor):        # x.max(y) means torch.maximum
            return maximum(self, dim) if which == "max" else minimum(self, dim)
        if dim is None:
            if self._data.size == 0:
                raise RuntimeError(f"{which}(): Expected reduction dim to be specified for input.numel() == 0. "
                                   "Specify the reduction dim with the 'dim' argument.")
            _no_complex(self, f'"{which}_all" not implemented for \'{{}}\'')
            return OPS[which + "_all"](self, dim=None, keepdim=False)
        d = _wrap_dim(dim, self._data.ndim)
        _check_reduced_size(which, self, (d,))
        _no_complex(self, f"{which}(): does not support complex input", RuntimeError)
        arg = np.argmax if which == "max" else np.argmin
        indices = np.asarray(arg(self._data, axis=d, keepdims=keepdim)) if self._data.ndim else np.zeros((), np.int64)
        values = OPS[which + "_dim"](self, dim=(d,), keepdim=keepdim, indices=indices,
                                     self_sizes=self._data.shape)
        indices = Tensor._make(np.asarray(indices, dtype=np.int64))
        if values._vc is not None and type(values._vc) is list:   # (of an inference tensor: its kernel's count)
            indices._vc = [values._vc[0]]
        return _ReturnType(which, values, indices)

    def max(self, dim=None, keepdim=False):
        return self._extreme("max", dim, keepdim)

    def min(self, dim=None, keepdim=False):
        return self._extreme("min", dim, keepdim)

    def amax(self, dim=(), keepdim=False):       # (dim=None: all dims, like ())
        dims = self._amax_dims("amax", dim)
        _no_complex(self, '"max_values_cpu" not implemented for \'{}\'')
        return OPS["amax"](self, dim=dims, keepdim=keepdim)

    def amin(self, dim=(), keepdim=False):
        dims = self._amax_dims("amin", dim)
        _no_complex(self, '"min_values_cpu" not implemented for \'{}\'')
        return OPS["amin"](self, dim=dims, keepdim=keepdim)

    def _amax_dims(self, name, dim):
        if dim is None or dim == () or dim == []:
            if self._data.size == 0:
                raise RuntimeError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                                   "the reduction dim with the 'dim' argument.")
            return _every_dim((), self._data.ndim)      # (shown as (): PyTorch's amax has no None)
        for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):     # (the message names the dim as given)
            if self._data.ndim and self._data.shape[_wrap_dim(d, self._data.ndim)] == 0:
                raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")
        return _dims(dim, self._data.ndim)

    def argmax(self, dim=None, keepdim=False):
        return self._arg_extreme("argmax", np.argmax, dim, keepdim)

    def argmin(self, dim=None, keepdim=False):
        return self._arg_extreme("argmin", np.argmin, dim, keepdim)

    def _arg_extreme(self, name, arg, dim, keepdim):
        if self._data.dtype == np.bool_:
            raise RuntimeError(f"{name}(): does not support bool input")
        _no_complex(self, f"{name}(): does not support complex input", RuntimeError)
        if dim is None:
            if self._data.size == 0:
                raise IndexError(f"{name}(): Expected reduction dim to be specified for input.numel() == 0.")
            out = np.asarray(arg(self._data), dtype=np.int64)
            return Tensor._make(out.reshape((1,) * self._data.ndim) if keepdim else out)
        d = _wrap_dim(dim, self._data.ndim)
        if not self._data.ndim:
            return Tensor._make(np.zeros((), np.int64))
        _check_reduced_size(name, self, (d,))
        return Tensor._make(np.asarray(arg(self._data, axis=d, keepdims=keepdim), dtype=np.int64))

    def prod(self, dim=None, keepdim=False, dtype=None):
        src = self if dtype is None else self._accumulated_as(dtype)
        if dim is None:
            return _in_dtype(self, OPS["prod"](src, dim=None, keepdim=False), dtype, src)
        return _in_dtype(self, OPS["prod_dim"](src, dim=_dims(dim, src._data.ndim), keepdim=keepdim), dtype, src)

    def _var_args(self, name, dim, unbiased, keepdim, correction):
        if self._data.dtype.kind not in "fcV":
            raise RuntimeError("std and var only support floating point and complex dtypes")
        if correction is None:
            correction = 1 if unbiased is None or unbiased else 0
        dims = None if dim is None else _every_dim(dim, self._data.ndim) if _all_dims(dim) else _dims(dim, self._data.ndim)
        count = self._data.size if dims is None else int(np.prod([self._data.shape[d] for d in dims]))
        if count - correction <= 0 or self._data.size == 0:
            _warnings.warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                           "factor (input numel divided by output numel). (Triggered internally at "
                           "/__w/pytorch/pytorch/aten/src/ATen/native/ReduceOps.cpp:1861.)", UserWarning)
        return dict(dim=dims, keepdim=keepdim, correction=correction, count=count)

    def var(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        out = OPS["var"](self, **self._var_args("var", dim, unbiased, keepdim, correction))
        return _correction_shown(out, dim, unbiased, correction)

    def std(self, dim=None, unbiased=None, keepdim=False, *, correction=None):
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        out = OPS["std"](self, **self._var_args("std", dim, unbiased, keepdim, correction))
        return _correction_shown(out, dim, unbiased, correction)

    def _var_mean(self, name, dim=None, unbiased=None, keepdim=False, *, correction=None):
        """torch.var_mean / std_mean: one node (VarMeanBackward0, StdMeanBackward0) with two outputs."""
        if isinstance(dim, bool):
            dim, unbiased = None, dim
        if self._data.dtype.kind not in "fc":
            raise RuntimeError(f"{name} only support floating point and complex dtypes")
        args = self._var_args(name, dim, unbiased, keepdim, correction)
        return OPS[name](self, **args, self_sizes=self._data.shape)

    def nansum(self, dim=None, keepdim=False, *, dtype=None):
        # (PyTorch checks the dims first, then a complex input, then the dtype's cast)
        dims = _every_dim(dim, self._data.ndim) if _all_dims(dim) else _dims(dim, self._data.ndim)
        if self._data.dtype.kind in "cV":
            raise RuntimeError("nansum on CPU does not support complex inputs")
        if self._data.dtype.kind in "biu":       # (no nan to skip: PyTorch's nansum is sum, any dtype)
            return self.sum(dims, keepdim, dtype=dtype)
        src = self if dtype is None else self._accumulated_as(dtype)
        if src._data.dtype.kind in "cV" and src._data.size:      # (an empty one reaches no kernel: zeros)
            raise NotImplementedError(f'"nansum_cpu" not implemented for \'{_kind(src)}\'')
        out = OPS["nansum"](src, dim=dims, keepdim=keepdim, self_sizes=src._data.shape)
        return _in_dtype(self, out, dtype, src)

    def nanmean(self, dim=None, keepdim=False, *, dtype=None):
        """torch's composition: nansum(...) / (count of non-nan) (DivBackward0 over NansumBackward0)."""
        if self._data.dtype.kind not in "fc":
            raise RuntimeError(f"nanmean(): expected input to have floating point or complex dtype but got "
                               f"{_kind(self)}")
        if dtype is not None and _dtype.to_numpy_dtype(dtype).kind not in "fc":      # (before any cast)
            raise RuntimeError("nanmean(): could not infer output dtype. Optional dtype must be either a floating "
                               f"point or complex dtype. Got: {dtype._legacy[:-6]}")
        # (the count first, as PyTorch: a bad dim is its error; then the sum, which refuses a complex input
        # whatever the dtype asked for, before any cast)
        count = self.isnan().logical_not().sum(dim=dim, keepdim=keepdim)
        if self._data.dtype.kind == "c":
            raise RuntimeError("nansum on CPU does not support complex inputs")
        return self.nansum(dim, keepdim, dtype=dtype) / count

    def aminmax(self, *, dim=None, keepdim=False):
        if dim is None:
            if self._data.size == 0:
                raise RuntimeError("aminmax(): cannot compute aminmax over an empty dimension as the operation has "
                                   "no identity.")
            dims = tuple(range(self._data.ndim))
        else:
            dims = _dims(dim, self._data.ndim)
            if self._data.ndim and self._data.shape[dims[0]] == 0:
                raise IndexError(f"aminmax: Expected reduction dim {dims[0]} to have non-zero size.")
            if not self._data.ndim and self._data.dtype.kind == "c":     # (PyTorch's 0-d path has its own check)
                raise RuntimeError(f"aminmax not implemented for {_kind(self)}")
        _no_complex(self, '"aminmax_cpu" not implemented for \'{}\'')
        lo, hi = OPS["aminmax"](self, dim=dims, keepdim=keepdim)
        return _MinMax((lo, hi))

    def norm(self, p="fro", dim=None, keepdim=False, dtype=None):
        if p == "fro" and isinstance(dim, (list, tuple)) and len(dim) > 2:
            # torch.norm hands 'fro' over more than two dims to linalg.matrix_norm, which refuses them
            if self._data.ndim < 2:
                raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
            if self._data.dtype.kind not in "fc":
                raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                                   + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")])
            raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
        if p == "fro" or p is None:
            p = 2
        if isinstance(p, str):                 # any other string is a matrix norm's order in PyTorch
            if p != "nuc":                     # (the order is checked before the dims, as in PyTorch)
                raise RuntimeError(f"linalg.matrix_norm: Order {p} not supported.")
            # (torch.norm hands it to linalg.matrix_norm, over all dims if none is given: its checks, in order)
            nd = self._data.ndim
            if nd < 2:
                raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
            if self._data.dtype.kind not in "fc":
                raise RuntimeError("linalg.matrix_norm: Expected a floating point or complex tensor as input. Got "
                                   + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")])
            dim = tuple(range(nd)) if dim is None else tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
            if len(dim) != 2:
                raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
            d0, d1 = _wrap_dim(dim[0], nd), _wrap_dim(dim[1], nd)
            if d0 == d1:
                raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dim[0]}, {dim[1]})")
            return _svd_norm(self, p, d0, d1, keepdim, dtype)
        if self._data.dtype.kind not in "fcV":
            raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                               + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")])
        p = float(p)
        if self._data.size == 0 and (p < 0 or p == float("inf")):
            # (max and min have no value on nothing: checked before the dtype, as PyTorch's meta function does)
            if _all_dims(dim):
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                                   "operation does not have an identity")
            for d in (dim if isinstance(dim, (tuple, list)) else (dim,)):
                if self._data.shape[_wrap_dim(d, self._data.ndim)] == 0:     # (PyTorch's message lacks a space)
                    raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on the dimension {d}because "
                                       "this dimension is empty and the operation does not have an identity")
        if dtype is not None:                  # computed in dtype (a cast without narrowing only)
            want = _dtype.to_numpy_dtype(dtype)
            if want.kind not in "fc":
                raise RuntimeError("linalg.vector_norm: dtype should be floating point or complex, but got "
                                   + dtype._legacy[:-len("Tensor")])
            if (want.kind == "c") != (self._data.dtype.kind == "c"):
                kind = "complex" if self._data.dtype.kind == "c" else "real"
                raise RuntimeError(f"linalg.vector_norm: dtype should be {kind} for {kind} inputs, but got "
                                   + dtype._legacy[:-len("Tensor")])
            if want != self._data.dtype:
                if np.promote_types(self._data.dtype, want) != want:
                    raise RuntimeError("linalg.vector_norm: the dtype of the input ("
                                       + _dtype.from_numpy_dtype(self._data.dtype)._legacy[:-len("Tensor")]
                                       + ") should be convertible without narrowing to the specified dtype ("
                                       + dtype._legacy[:-len("Tensor")] + ")")
                return self.to(dtype).norm(p, dim, keepdim)
        dims = None if _all_dims(dim) else _dims(dim, self._data.ndim)     # (after the dtype's checks)
        if p < 0 or p == float("inf"):        # (max and min have no value on nothing)
            reduced = self._data.shape if dims is None else [self._data.shape[d] for d in dims]
            if 0 in reduced or self._data.size == 0 and dims is None:
                raise RuntimeError(f"linalg.vector_norm cannot compute the {p:g} norm on an empty tensor because the "
                                   "operation does not have an identity")
        return OPS["norm"](self, p=p, dim=dims, keepdim=keepdim)

    def logsumexp(self, dim, keepdim=False):
        nd = self._data.ndim
        if _all_dims(dim) and nd and not keepdim and self._data.size:
            # PyTorch's logsumexp adds the max, kept as [1, 1] (squeezing no dims of an empty list), into its [] result
            raise RuntimeError(f"output with shape [] doesn't match the broadcast shape [{', '.join(['1'] * nd)}]")
        dims = _every_dim(dim, nd) if _all_dims(dim) else _dims(dim, nd)
        return OPS["logsumexp"](self, dim=dims, keepdim=keepdim)

    def cumsum(self, dim, dtype=None):
        dim = _wrap_dim(dim, self._data.ndim)
        src = self if dtype is None else self._accumulated_as(dtype, "cumsum_out_cpu")
        return _in_dtype(self, OPS["cumsum"](src, dim=dim), dtype, src)

    def softmax(self, dim, dtype=None):
        return OPS["softmax"](self if dtype is None else self.to(dtype), dim=_wrap_dim(dim, self._data.ndim))

    def log_softmax(self, dim, dtype=None):
        return OPS["log_softmax"](self if dtype is None else self.to(dtype), dim=_wrap_dim(dim, self._data.ndim))

    # --- scatter, index_add, index_copy, take (ops/scatter.py): reductions into positions ---------------------------------------
    def scatter(self, dim, index, src=None, value=None, *, reduce=None):
        return _scatter(self, "scatter", dim, index, src if src is not None else value, reduce)

    def scatter_(self, dim, index, src=None, value=None, *, reduce=None):
        return _scatter(self, "scatter_", dim, index, src if src is not None else value, reduce)

    def scatter_add(self, dim, index, src):
        _check_tensor_argument("scatter_add", src, "src", position=3)
        return _scatter(self, "scatter_add", dim, index, src, None)

    def scatter_add_(self, dim, index, src):
        _check_tensor_argument("scatter_add_", src, "src", position=3)
        return _scatter(self, "scatter_add_", dim, index, src, None)

    def scatter_reduce(self, dim, index, src, reduce, *, include_self=True):
        _check_tensor_argument("scatter_reduce", src, "src", position=3)
        return _scatter(self, "scatter_reduce", dim, index, src, reduce, include_self)

    def scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
        _check_tensor_argument("scatter_reduce_", src, "src", position=3)
        return _scatter(self, "scatter_reduce_", dim, index, src, reduce, include_self)

    def index_reduce(self, dim, index, source, reduce, *, include_self=True):
        return _index_reduce(self, "index_reduce", dim, index, source, reduce, include_self)

    def index_reduce_(self, dim, index, source, reduce, *, include_self=True):
        return _index_reduce(self, "index_reduce_", dim, index, source, reduce, include_self)

    def index_add(self, dim, index, source, *, alpha=1):
        return OPS["index_add_alpha"](self, source, **_index_add_args(self, dim, index, source), alpha=alpha)

    def index_add_(self, dim, index, source, *, alpha=1):
        return self._inplace("index_add_alpha", source, **_index_add_args(self, dim, index, source), alpha=alpha)

    def index_copy(self, dim, index, source):
        return OPS["index_copy"](self, source, **_index_copy_args(self, dim, index, source))

    def index_copy_(self, dim, index, source):
        return self._inplace("index_copy", source, **_index_copy_args(self, dim, index, source))

    def take(self, index):
        _check_tensor_argument("take", index, "index")
        if index._data.dtype != np.int64:
            raise RuntimeError(f"take(): Expected a long tensor for index, but got {_kind_of(index)}")
        n = self._data.size
        idx = index._data
        if n == 0 and idx.size:
            raise IndexError("take(): tried to take from an empty tensor")
        bad = (idx < -n) | (idx >= n)
        if bad.any():
            raise IndexError(f"out of range: tried to access index {idx[bad].flat[0]} on a tensor of {n} elements.")
        return OPS["take"](self, index=np.where(idx < 0, idx + n, idx), self_sizes=self._data.shape)

    # --- matrix products ------------------------------------------------------------------------
    def matmul(self, other):
        _check_operand("matmul", other)
        return matmul(self, other)

    def mm(self, mat2):
        _check_tensor_argument("mm", mat2, "mat2")
        _check_mm(self, mat2)
        if mat2.requires_grad or self.requires_grad:      # (the layouts backward gives the gradients)
            return OPS["mm"](self, mat2, mat1_transposed=_column_major(self), mat2_transposed=_column_major(mat2))
        return OPS["mm"](self, mat2)

    def mv(self, vec):
        _check_tensor_argument("mv", vec, "vec")
        if self._data.ndim == 0:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        if self._data.ndim != 2 or vec._data.ndim != 1:
            raise RuntimeError(f"vector + matrix @ vector expected, got 1, {self._data.ndim}, {vec._data.ndim}")
        if self._data.shape[1] != vec._data.shape[0]:
            raise RuntimeError(f"size mismatch, got input ({self._data.shape[0]}), mat "
                               f"({'x'.join(map(str, self._data.shape))}), vec ({vec._data.shape[0]})")
        if self._data.dtype != vec._data.dtype:
            raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_kind(vec)}, {_kind(self)}, and "
                               f"{_kind(vec)}")
        if self._data.dtype == np.bool_:
            raise NotImplementedError('"addmv_impl_cpu" not implemented for \'Bool\'')
        return OPS["mv"](self, vec)

    def dot(self, other):
        _check_tensor_argument("dot", other, "tensor")
        if self._data.ndim != 1 or other._data.ndim != 1:
            raise RuntimeError(f"1D tensors expected, but got {self._data.ndim}D and {other._data.ndim}D tensors")
        if self._data.dtype != other._data.dtype:           # (dtypes first, as PyTorch)
            raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_kind(self)} and "
                               f"{_kind(other)}")
        if self._data.shape != other._data.shape:
            raise RuntimeError(
                f"inconsistent tensor size, expected tensor [{self._data.size}] and src [{other._data.size}] to have "
                f"the same number of elements, but got {self._data.size} and {other._data.size} elements respectively")
        if self._data.dtype == np.bool_:
            raise NotImplementedError('"dot" not implemented for \'Bool\'')
        return OPS["dot"](self, other)

    def bmm(self, mat2):
        _check_tensor_argument("bmm", mat2, "mat2")
        for name, t in (("batch1", self), ("batch2", mat2)):
            if t._data.ndim != 3:
                raise RuntimeError(f"{name} must be a 3D tensor")
        b1, b2 = self._data.shape, mat2._data.shape
        if b2[:2] != (b1[0], b1[2]):
            raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b1[0]}, {b1[2]}] "
                               f"but got: [{b2[0]}, {b2[1]}].")
        if self._data.dtype == np.bool_:          # (the kernel is chosen by self's dtype before mat2 is checked)
            raise NotImplementedError('"bmm" not implemented for \'Bool\'')
        if self._data.dtype != mat2._data.dtype:
            raise RuntimeError(f"expected scalar type {_kind(self)} but found {_kind(mat2)}")
        return OPS["bmm"](self, mat2)

    def outer(self, vec2):
        _check_tensor_argument("outer", vec2, "vec2")
        for name, t in (("self", self), ("vec2", vec2)):
            if t._data.ndim != 1:
                raise RuntimeError(f"outer: Expected 1-D argument {name}, but got {t._data.ndim}-D")
        return self.reshape(-1, 1) * vec2

    def trace(self):
        if self._data.dtype == np.bool_:           # (the kernel's dtype is checked before the shape)
            raise NotImplementedError('"trace" not implemented for \'Bool\'')
        if self._data.ndim != 2:
            raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {self._data.ndim}")
        return OPS["trace"](self, self_sizes=self._data.shape)


class _ReturnType(tuple):
    """What `x.max(dim)` returns: a (values, indices) pair. As in PyTorch, each op has its own class
    (`gradlab.return_types.max`, named like `torch.return_types.max`), printed like torch's."""
    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0
    _classes = {}

    def __new__(cls, name, values, indices):
        # PyTorch saves the indices for the values' backward: changing them in place before it raises
        save_for_check(values.grad_fn, indices)
        return tuple.__new__(_ReturnType.of(name), (values, indices))

    @staticmethod
    def of(name):
        """The class for op `name` (one subclass per op, made on first use; gradlab.return_types lists them)."""
        kind = _ReturnType._classes.get(name)
        if kind is None:
            # (CType: Python's messages name it 'torch.return_types.max', as they name PyTorch's C type)
            kind = _ReturnType._classes[name] = CType(name, (_ReturnType,), {
                "__module__": "gradlab.return_types", "__qualname__": name, "__slots__": (),
                "__new__": lambda c, seq: tuple.__new__(c, tuple(seq))}, c_name=f"torch.return_types.{name}")
        return kind

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"


class _MinMax(tuple, metaclass=CType, c_name="torch.return_types.aminmax"):
    """What x.aminmax() returns: torch.return_types.aminmax (min, max)."""
    __slots__ = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    @property
    def min(self):
        return self[0]

    @property
    def max(self):
        return self[1]

    def __repr__(self):
        return f"torch.return_types.aminmax(\nmin={self[0]!r},\nmax={self[1]!r})"


_MinMax.__qualname__ = "aminmax"
_MinMax.__module__ = "gradlab.return_types"


def _check_reduced_size(name, t, dims):
    for d in dims:
        if t._data.ndim and t._data.shape[d] == 0:
            raise IndexError(f"{name}(): Expected reduction dim {d} to have non-zero size.")


def _check_mm(a, b):
    message = None
    if a._data.ndim != 2 or b._data.ndim != 2:
        message = f"{'self' if a._data.ndim != 2 else 'mat2'} must be a matrix"
    elif a._data.shape[1] != b._data.shape[0]:
        message = (f"mat1 and mat2 shapes cannot be multiplied ({a._data.shape[0]}x{a._data.shape[1]} and "
                   f"{b._data.shape[0]}x{b._data.shape[1]})")
    elif a._data.dtype != b._data.dtype:
        message = f"expected m1 and m2 to have the same dtype, but got: {_c_type(a)} != {_c_type(b)}"
    if message is not None:
        refuse_inference_saved(OPS["mm"], (a, b))       # (PyTorch saves the inputs before its kernel checks)
        raise RuntimeError(message)
    if a._data.dtype == np.bool_ and a._data.shape[0] * b._data.shape[1] and a._data.shape[1]:
        # (PyTorch's mm returns an empty result, or zeros when nothing is summed, before its kernel refuses bool)
        raise NotImplementedError('"addmm_impl_cpu_" not implemented for \'Bool\'')


def _in_dtype(t, out, dtype, src):
    """sum/prod/cumsum(dtype=...) of t: autograd refuses an integer or bool dtype for a t that
    requires grad (once dims are checked); an integer result is computed in int64, and with a
    smaller dtype (or bool) it wraps around to it, as PyTorch's accumulation in that dtype does."""
    if dtype is not None and out._data.dtype.kind in "biu":
        if t._requires_grad and grad_mode._state["enabled"]:
            raise RuntimeError(f"Autograd not support dtype: {_kind(src)}")
        if out._data.dtype != src._data.dtype:
            return Tensor._make(out._data.astype(src._data.dtype))
    return out


def _kind_of(t):
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]


def _shape_text(shape):
    return f"[{', '.join(map(str, shape))}]"


_SCATTER_REDUCE_WARNING = (
    "The reduce argument of torch.scatter with Tensor src is deprecated and will be removed in a future PyTorch "
    "release. Use torch.scatter_reduce instead for more reduction options. (Triggered internally at "
    "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:225.)")


_NEW_REDUCES = ("sum", "prod", "mean", "amax", "amin", "max", "min")     # (scatter_reduce's; max and min as amax, amin)


def _scatter(t, name, dim, index, src, reduce, include_self=True):
    """scatter/scatter_/scatter_add/scatter_add_: PyTorch's checks (ScatterGatherChecks.h, in its
    order), then the op: ScatterBackward0 (a tensor src), ScatterBackward1 (a value), ScatterAddBackward0."""
    base = name.rstrip("_")
    _check_tensor_argument(base if base == "scatter_add" else name, index, "index", position=2)
    if src is None:
        raise TypeError(f"{name}() missing 1 required positional arguments: \"src\"")
    is_tensor = isinstance(src, Tensor)
    if reduce is not None and is_tensor and base != "scatter_reduce":      # (warned first, even before the dim is checked, as PyTorch's overload)
        _warnings.warn_once(_SCATTER_REDUCE_WARNING)
    d = _wrap_dim(dim, t._data.ndim)
    idx = index._data
    if idx.size and idx.dtype not in (np.int64, np.int32):
        raise RuntimeError("scatter(): Expected dtype int32/int64 for index")        # (scatter_add's too)
    if is_tensor and src._data.dtype != t._data.dtype:
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    if idx.size:
        if max(t._data.ndim, 1) != max(idx.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
        ishape, sshape = idx.shape or (1,), t._data.shape or (1,)
        wrong = any(i != d and ishape[i] > sshape[i] for i in range(len(ishape)))
        if is_tensor and not wrong:
            # (PyTorch reads src.size(d) for each of self's dims, a 0-d src as size 1: a src with fewer dims
            # fails there, an IndexError; src's number of dims is checked after these sizes)
            sizes = src._data.shape
            for i in range(len(ishape)):
                if sizes and i >= len(sizes):
                    n = len(sizes)
                    raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {i})")
                if ishape[i] > (sizes[i] if sizes else 1):
                    wrong = True
                    break
        if is_tensor and max(src._data.ndim, 1) != max(idx.ndim, 1):
            raise RuntimeError("Index tensor must have the same number of dimensions as src tensor")
        if wrong:
            text = f"Expected index {_shape_text(idx.shape)} to be no larger than self {_shape_text(t._data.shape)} " \
                   f"apart from dimension {d}"
            raise RuntimeError(text + (f" and to be no larger size than src {_shape_text(src._data.shape)}"
                                       if is_tensor else ""))
    if base == "scatter_reduce":
        if reduce not in _NEW_REDUCES:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        # (PyTorch's kernel has no bool mean and no complex amax/amin; it runs only for a non-empty index, at once
        # with include_self, after the identity's write, which checks the bounds first, without it)
        unsupported = (reduce == "mean" and t._data.dtype == np.bool_ or reduce in ("amax", "amin")
                       and t._data.dtype.kind == "c")
        if unsupported and include_self and idx.size:
            _refuse_kernel(t, reduce)
    elif reduce is not None and reduce not in ("add", "multiply"):
        raise RuntimeError("reduce argument must be either add or multiply.")
    if idx.size:
        size = (t._data.shape or (1,))[d]
        bad = (idx < 0) | (idx >= size)
        if bad.any():
            raise RuntimeError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
    idx = idx.astype(np.int64, copy=False)
    if base == "scatter_reduce":
        if unsupported and idx.size:
            _refuse_kernel(t, reduce)
        if reduce == "mean" and t._data.dtype == np.bool_:     # (an empty index: the division after it)
            raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
        params = dict(dim=d, index=idx, reduce=reduce, include_self=bool(include_self), src_sizes=src._data.shape)
        key = "scatter_reduce_" + {"max": "amax", "min": "amin"}.get(reduce, reduce)   # (one row per reduction)
        if name.endswith("_"):
            return t._inplace(key, src, **params)
        return OPS[key](t, src, **params)
    if reduce is not None:
        value = src._data if is_tensor else _scalar_value(src)
        out = Tensor._make(scatter_reduced(t._data, value, d, idx, reduce))
        if name.endswith("_"):
            _indexing._check_inplace_allowed(t)
            t._data[...] = out._data
            t._version_counter[0] += 1
            return _no_derivative(t, "scatter_", t, src)
        return _no_derivative(out, "scatter", t, src)
    if base == "scatter_add":
        args, params = (src,), dict(dim=d, index=index_param(idx, src), src_sizes=src._data.shape)
        key = "scatter_add_src"
    elif is_tensor:
        args, params = (src,), dict(dim=d, index=idx, src_sizes=src._data.shape)
        key = "scatter"
    else:
        args, params = (), dict(dim=d, index=idx, value=_scalar_value(src))
        key = "scatter_value"
    if name.endswith("_"):
        return t._inplace(key, *args, **params)
    return OPS[key](t, *args, **params)


def _refuse_kernel(t, reduce):
    raise NotImplementedError(f"\"scatter_gather_tensor_cpu_reduce_{reduce}\" not implemented for '{_kind_of(t)}'")


def _scalar_value(value):
    if isinstance(value, Tensor):
        return value.item()
    if isinstance(value, np.generic):
        return value.item()
    if not isinstance(value, numbers.Number):
        raise TypeError(f"scatter(): argument 'value' must be Number, not {_type_name(value)}")
    return value


def _index_add_args(t, dim, index, source, func="index_add", bounds=True):
    """PyTorch's checks of index_add and index_reduce (index_func_meta_impl, in its order, named after `func`), then
    the bounds (index_add's kernel)."""
    _check_tensor_argument(func, index, "index", position=2)
    _check_tensor_argument(func, source, "source", position=3)
    d = _wrap_dim(dim, t._data.ndim)
    idx = index._data
    if idx.ndim > 1:
        raise IndexError(f"{func}_(): Index is supposed to be a vector, but got dim: {idx.ndim} with type: "
                         f"{_kind_of(index)} and size: {_shape_text(idx.shape)}")
    if idx.dtype not in (np.int64, np.int32):
        raise RuntimeError(f"{func}_(): Expected dtype int32/int64 for index but got: {_kind_of(index)}")
    if t._data.dtype != source._data.dtype:
        raise RuntimeError(f"{func}_(): self ({_kind_of(t)}) and source ({_kind_of(source)}) must have the same "
                           "scalar type")
    sd = source._data.ndim
    if not (d == 0 or d < sd):
        raise RuntimeError(f"{func}_(): Indexing dim {d} is out of bounds of the source tensor with dim {sd}")
    if idx.size != (1 if sd == 0 else source._data.shape[d]):
        if sd == 0:        # (PyTorch's message reads source.size(dim) of a 0-d source: that fails first)
            raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        raise RuntimeError(f"{func}_(): Number of indices ({idx.size}) should be equal to source.size(dim): "
                           f"({source._data.shape[d]}), for dim: {d}")
    self_sizes, source_sizes = list(t._data.shape), list(source._data.shape)
    if sd and t._data.ndim:
        del self_sizes[d], source_sizes[d]
    if self_sizes != source_sizes:
        raise RuntimeError(f"source tensor shape must match self tensor shape, excluding the specified dimension. "
                           f"Got self.shape = {_shape_text(t._data.shape)} source.shape = "
                           f"{_shape_text(source._data.shape)}")
    size = t._data.shape[d] if t._data.ndim else 1
    bad = (idx < 0) | (idx >= size)
    # (PyTorch's kernel: a self of one dim or none has its own loop and words; of more dims, an empty self or
    # index returns before any index is read)
    if bounds and t._data.ndim > 1 and not (idx.size and t._data.size):
        bad = bad & False
    if bounds and bad.any():
        if idx.dtype == np.int32 or t._data.ndim <= 1:   # (an int32 index goes through index_select's bounds check)
            raise IndexError("index out of range in self")
        raise RuntimeError(f"index {idx[bad].flat[0]} is out of bounds for dimension {d} with size {size}")
    return dict(dim=d, index=index_param(idx.astype(np.int64, copy=False), source), source_sizes=source._data.shape)


_INDEX_REDUCE_WARNING = ("index_reduce() is in beta and the API may change at any time. (Triggered internally at "
                         "/__w/pytorch/pytorch/aten/src/ATen/native/TensorAdvancedIndexing.cpp:1523.)")


def _index_reduce(t, name, dim, index, source, reduce, include_self):
    """index_reduce(_): PyTorch's checks (its meta function: the reduce first, then index_add's), its beta warning
    (once), then the scatter_reduce forward over index expanded to source's shape (ops/scatter.py)."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}.")
    args = _index_add_args(t, dim, index, source, "index_reduce", bounds=False)
    _warnings.warn_once(_INDEX_REDUCE_WARNING)          # (the kernel's first words, before its own checks)
    is_bool = t._data.dtype == np.bool_
    # (PyTorch's CPU kernel has no bool or complex case where it starts from the identity, nor in its 1-d loop; a
    # tensor of more dims goes through slices, whose mean is a floor division, refused for bool after the bounds,
    # and whose amax/amin are maximum/minimum, which have no complex kernel)
    if (is_bool or t._data.dtype.kind == "c") and (not include_self or t._data.ndim <= 1):
        kernel = "index_func_" if include_self else "index_reduce_func_exclude_input_init"
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_kind_of(t)}'")
    d = args["dim"]
    if not include_self:      # (the reduced places are first index_fill_'ed with the identity: its checks)
        t._index_fill_mask(d, Tensor._make(np.asarray(args["index"]).astype(np.int64).reshape(-1)))
    if t._data.ndim > 1 and t._data.shape[d] == 0 and np.asarray(args["index"]).size:   # (its self.select(dim, 0))
        raise IndexError(f"select(): index 0 out of range for tensor of size {list(t._data.shape)} at dimension {d}")
    size = t._data.shape[d] if t._data.ndim else 1
    bad = (np.asarray(args["index"]).reshape(-1) < 0) | (np.asarray(args["index"]).reshape(-1) >= size)
    # (the kernel checks each index, then reduces its slice: a complex amax/amin fails at the first good one)
    complex_extreme = t._data.dtype.kind == "c" and reduce in ("amax", "amin")
    if bad.any() and not (complex_extreme and not bad[0]):
        raise IndexError("index out of range in self")
    if is_bool and reduce == "mean" and bad.size:         # (an empty index returns before the division)
        raise NotImplementedError("\"div_floor_cpu\" not implemented for 'Bool'")
    if complex_extreme and bad.size:
        raise NotImplementedError(f"\"{'maximum' if reduce == 'amax' else 'minimum'}_cpu\" not implemented for "
                                  f"'{_kind_of(t)}'")
    d, idx = args["dim"], np.asarray(args["index"]).reshape(-1)
    shape = source._data.shape or (1,)
    along = [1] * len(shape)
    along[d] = -1
    expanded = np.ascontiguousarray(np.broadcast_to(idx.reshape(along), shape))
    params = dict(dim=d, index=expanded, reduce=reduce, include_self=bool(include_self), src_sizes=source._data.shape)
    if name.endswith("_"):
        return t._inplace("index_reduce_" + reduce, source, **params)
    return OPS["index_reduce_" + reduce](t, source, **params)


def _index_copy_args(t, dim, index, source):
    """PyTorch's checks of index_copy (its meta function, in its order), then the bounds (its kernel)."""
    _check_tensor_argument("index_copy", index, "index", position=2)
    _check_tensor_argument("index_copy", source, "source", position=3)
    d = _wrap_dim(dim, t._data.ndim)
    idx = index._data
    sd, nd = source._data.ndim, t._data.ndim
    if idx.ndim > 1:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {idx.ndim})")
    if sd == 0 and idx.size != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {idx.size})")
    if sd != nd and sd and nd:
        raise IndexError(f"index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({sd}), destination dimensionality ({nd})")
    if idx.dtype != np.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_kind_of(index)}")
    if t._data.dtype != source._data.dtype:
        raise RuntimeError(f"index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_kind_of(t)} and (source) {_kind_of(source)}")
    self_sliced, source_sliced = list(t._data.shape), list(source._data.shape)
    if self_sliced:
        del self_sliced[d]
    if source_sliced:
        del source_sliced[d]
    if self_sliced != source_sliced:
        raise RuntimeError(f"index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                           f"shape: {' '.join(map(str, self_sliced))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, source_sliced))} at dimension 0.")
    if sd and idx.size != source._data.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({idx.size}) should be equal to source.size(dim) "
                         f"({source._data.shape[d]})")
    size = t._data.shape[d] if nd else 1
    bad = (idx < 0) | (idx >= size)
    if source._data.size and not t._data.size:
        # PyTorch's kernel views self as source's shape (a stride of 0 along dim): more than an empty storage holds
        _check_restrided_storage(t, source._data.shape, d)
    if bad.any() and source._data.size:     # (PyTorch's kernel loops over source: an empty one reads no index)
        raise IndexError(f"index_copy_(): index {idx[bad].flat[0]} is out of bounds for dimension {d} with size "
                         f"{size}")
    return dict(dim=d, index=idx, source_sizes=source._data.shape)


def _check_restrided_storage(t, sizes, d):
    """PyTorch's setStorage check of self viewed with these sizes and self's strides but 0 along d."""
    strides = list(t.stride())
    strides[d] = 0
    offset = t.storage_offset()
    need = 0 if 0 in sizes else t._data.itemsize * (offset + 1 + sum((n - 1) * st for n, st in zip(sizes, strides)))
    have = t.untyped_storage().nbytes()
    if need > have:
        raise RuntimeError(f"setStorage: sizes {list(sizes)}, strides {strides}, storage offset {offset}, and itemsize "
                           f"{t._data.itemsize} requiring a storage size of {need} are out of bounds for storage of "
                           f"size {have}")


def _correction_shown(out, dim, unbiased, correction):
    """x.std() with no dim, unbiased or correction: PyTorch's node keeps correction as None (it means 1)."""
    if out.grad_fn is not None and dim is None and unbiased is None and correction is None:
        out.grad_fn.__dict__["_shown"] = {"correction": None}
    return out
