"""Tensor methods: sorting, selection and counting (copied onto Tensor by gradlab/tensor.py).

`sort`, `topk`, `kthvalue`, `median`, `mode`, `cummax`/`cummin` find their indices here (with the
functions of ops/sorting.py, which choose among ties as PyTorch's CPU kernels do) and hand them to
their op, which picks the values and records the node. `unique`, `bincount`, `histc`,
`count_nonzero` and `searchsorted` have no gradient and return plain tensors.
"""
import numpy as np

from .. import _dtype
from .._tensor_core import Tensor, _wrap_dim
from ..autograd import grad_mode
from ..autograd.node import Node, record
from ..ops import OPS, sorting as _sorting
from ..creation import linspace
from ..ops.arithmetic import _KERNEL_NAMES
from ..ops.shape import cat
from ..ops.operands import _kind
from ..ops.registry import torch_contiguous
from ._common import _all_dims, _argument_type_name, _dims
from .linalg import _named_pair
from .operators import _no_derivative
from .reductions import _ReturnType, _check_reduced_size, _in_dtype

_Histogram = _named_pair("histogram", "hist", "bin_edges")


def _kind_name(t):
    return _dtype.from_numpy_dtype(t._data.dtype)._legacy[:-len("Tensor")]


def _not_for(kernel, t, kinds="b"):
    if t._data.dtype.kind in kinds:
        raise NotImplementedError(f'"{kernel}" not implemented for \'{_kind_name(t)}\'')


def _keep(indices, keepdim, dim, ndim):
    return np.expand_dims(indices, dim) if keepdim and ndim else indices


_NO_STABLE = object()      # sort() without stable=: PyTorch's first overload (SortBackward0), else SortBackward1


class _NoDerivativeNode(Node):
    """unique's grad_fn: PyTorch records one, but has no derivative for it."""
    _aten = None

    def apply(self, grad_outputs, as_arrays=False):
        raise NotImplementedError(f"the derivative for '{self._aten}' is not implemented.")


def _no_derivative_class(name, aten):
    cls = type(name, (_NoDerivativeNode,), {"_aten": aten})
    cls.__module__ = "builtins"
    return cls


_UNIQUE_NODES = {"_unique2": _no_derivative_class("Unique2Backward0", "_unique2"),
                 "unique_dim": _no_derivative_class("UniqueDimBackward0", "unique_dim"),
                 "unique_consecutive": _no_derivative_class("UniqueConsecutiveBackward0", "unique_consecutive")}


def _unique_history(self, out, aten):
    """Give unique's result PyTorch's grad_fn (a floating input that requires grad, grad mode on)."""
    if self._data.dtype.kind in "fc" and (self._requires_grad or self.grad_fn is not None) \
            and grad_mode._state["enabled"]:
        record(_UNIQUE_NODES[aten](), (self,), out)


class _SortingMethods:
    """Copied onto `Tensor` by gradlab/tensor.py."""

    # --- sorting ------------------------------------------------------------------------------
    def sort(self, dim=-1, descending=False, *, stable=_NO_STABLE):
        d = _wrap_dim(dim, self._data.ndim)          # (the dim is checked before the dtype)
        if self._data.dtype.kind in "cV":
            raise RuntimeError(" Sort does not support complex dtypes on CPU")
        indices = _sorting.sort_indices(self._data, d, bool(descending), stable is not _NO_STABLE and bool(stable))
        values = OPS["sort" if stable is _NO_STABLE else "sort_stable"](self, dim=d, indices=indices,
                                                                        self_sizes=self._data.shape)
        return _ReturnType("sort", values, Tensor._make(indices))

    def argsort(self, dim=-1, descending=False, *, stable=False):
        d = _wrap_dim(dim, self._data.ndim)          # (the dim is checked before the dtype)
        if self._data.dtype.kind in "cV":
            raise RuntimeError(" Sort does not support complex dtypes on CPU")
        return Tensor._make(_sorting.sort_indices(self._data, d, bool(descending), bool(stable)))

    def msort(self):
        return self.sort(0)[0]

    def topk(self, k, dim=-1, largest=True, sorted=True):
        d = _wrap_dim(dim, self._data.ndim)
        size = self._data.shape[d] if self._data.ndim else 1
        if not 0 <= k <= size:
            raise RuntimeError("selected index k out of range")
        if self._data.dtype == np.bool_:
            raise RuntimeError("topk does not support bool dtypes on CPU")
        if self._data.dtype.kind in "cV":
            raise RuntimeError(" topk does not support complex dtypes on CPU")
        if self._data.ndim == 0:        # (PyTorch: the value itself, for k = 0 too)
            indices = np.zeros((), np.int64)
        else:
            indices = _sorting.topk_indices(self._data, k, d, bool(largest), bool(sorted))
        values = OPS["topk"](self, dim=d, indices=indices, self_sizes=self._data.shape)
        return _ReturnType("topk", values, Tensor._make(indices))

    # --- selection along a dim (values and indices) --------------------------------------------
    def _select(self, name, dim, keepdim, indices):
        d = _wrap_dim(dim, self._data.ndim)
        indices = _keep(indices, keepdim, d, self._data.ndim)
        values = OPS[name](self, dim=(d,), keepdim=keepdim, indices=indices, self_sizes=self._data.shape)
        return values, Tensor._make(np.array(indices, dtype=np.int64))

    def kthvalue(self, k, dim=-1, keepdim=False):
        d = _wrap_dim(dim, self._data.ndim)
        _check_reduced_size("kthvalue", self, (d,))
        size = self._data.shape[d] if self._data.ndim else 1
        if not 1 <= k <= size:
            raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
        if self._data.ndim:                 # (a 0-d tensor is its own k-th value, whatever its dtype)
            _not_for("kthvalue_cpu", self, "bc")
        values, indices = self._select("kthvalue", d, keepdim, _sorting.kthvalue_indices(self._data, k, d))
        return _ReturnType("kthvalue", values, indices)

    def median(self, dim=None, keepdim=False):
        return self._median("median", dim, keepdim)

    def nanmedian(self, dim=None, keepdim=False):
        return self._median("nanmedian", dim, keepdim)

    def _median(self, name, dim, keepdim):
        if dim is None:
            if not self._data.size and self._data.dtype.kind != "f":    # (PyTorch: nan in the input's dtype,
                with np.errstate(invalid="ignore"):                     # before it looks at the dtype)
                    return Tensor._make(np.asarray(np.nan).astype(self._data.dtype))
            _not_for("median_cpu", self, "bc")
            return OPS[name](self)
        d = _wrap_dim(dim, self._data.ndim)
        _check_reduced_size("median", self, (d,))
        _not_for("median_out", self, "bc")
        values, indices = self._select(name + "_dim", d, keepdim,
                                       _sorting.median_indices(self._data, d, name == "nanmedian"))
        return _ReturnType(name, values, indices)

    def mode(self, dim=-1, keepdim=False):
        d = _wrap_dim(dim, self._data.ndim)
        _check_reduced_size("mode", self, (d,))
        if not self._data.ndim and not self._data.size:
            raise IndexError("mode(): Expected reduction dim 0 to have non-zero size.")
        if self._data.size and self._data.ndim:    # (an empty result, or a 0-d tensor's copy: no kernel reached)
            _not_for("mode_cpu", self, "c")
        _, found = _sorting.mode_indices(self._data, d)
        values, indices = self._select("mode", d, keepdim, found)
        return _ReturnType("mode", values, indices)

    # --- cumulative ---------------------------------------------------------------------------
    def cumprod(self, dim, dtype=None):
        d = _wrap_dim(dim, self._data.ndim)
        src = self if dtype is None else self._accumulated_as(dtype, "cumprod_out_cpu")
        return _in_dtype(self, OPS["cumprod"](src, dim=d), dtype, src)

    def cummax(self, dim):
        return self._cumulative("cummax", dim)

    def cummin(self, dim):
        return self._cumulative("cummin", dim)

    def _cumulative(self, name, dim):
        if self._data.dtype.kind == "V":        # (complex32: no kernel, refused before the dim's checks)
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'ComplexHalf'")
        if not self._data.size and not -max(self._data.ndim, 1) <= dim < max(self._data.ndim, 1):
            # (PyTorch returns empty results before it checks dim)
            return _ReturnType(name, Tensor._make(self._data.copy()), Tensor._make(np.zeros(self._data.shape, np.int64)))
        if not self._data.ndim and dim not in (0, -1):
            raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
        d = _wrap_dim(dim, self._data.ndim)
        if not self._data.size and self._data.dtype.kind == "c":    # (empty results before the complex kernel's refusal)
            return _ReturnType(name, Tensor._make(self._data.copy()), Tensor._make(np.zeros(self._data.shape, np.int64)))
        if self._data.ndim:        # (a 0-d tensor is copied, reaching no kernel)
            _not_for(f"{name}_cpu", self, "c")
        indices = _sorting.cumulative_extreme_indices(self._data, d, name == "cummax")
        values = OPS[name](self, dim=d, indices=indices, self_sizes=self._data.shape)
        return _ReturnType(name, values, Tensor._make(indices))

    def diff(self, n=1, dim=-1, prepend=None, append=None):
        if self._data.ndim == 0:
            raise RuntimeError("diff expects input to be at least one-dimensional")
        if n < 0:
            raise RuntimeError(f"order must be non-negative but got {n}")
        for extra in (prepend, append):
            if extra is not None and extra.dim() != self._data.ndim:
                raise RuntimeError("diff expects prepend or append to be the same dimension as input")
        d = _wrap_dim(dim, self._data.ndim)
        x = self
        if prepend is not None or append is not None:
            x = cat([t for t in (prepend, self, append) if t is not None], d)
        if n == 0:
            out = Tensor._make(np.zeros_like(x._data))
            return out.copy_(x)
        length = x.shape[d] - 1
        for _ in range(min(n, x.shape[d])):
            if x._data.dtype == np.bool_:
                x = x.narrow(d, 1, length).logical_xor(x.narrow(d, 0, length))
            else:
                x = x.narrow(d, 1, length) - x.narrow(d, 0, length)
            length -= 1
        return x

    # --- distinct values and counting ----------------------------------------------------------
    def unique(self, sorted=True, return_inverse=False, return_counts=False, dim=None):
        _check_flags("_unique2" if dim is None else "unique_dim", sorted=sorted, return_inverse=return_inverse,
                     return_counts=return_counts)
        _not_for("unique" if dim is None else "unique_dim", self, "cV")
        data = self._data
        if dim is not None and not isinstance(dim, int):
            raise TypeError(f"unique_dim(): argument 'dim' (position 2) must be int, not {type(dim).__name__}")
        if dim is None:       # (PyTorch's: flatten, sort, split into runs of equal values; each nan a run)
            flat = data.reshape(-1)
            order = _sorting.sort_indices(flat, 0, False, False)
            ordered = flat[order]
            starts = np.ones(flat.shape, bool)
            starts[1:] = ordered[1:] != ordered[:-1]
            values = ordered[starts]
            inverse = np.empty(flat.shape, np.int64)
            inverse[order] = np.cumsum(starts) - 1
            inverse = inverse.reshape(data.shape)
            counts = np.diff(np.append(np.nonzero(starts)[0], flat.size))
        else:
            d = _unique_dim(self, dim)
            if not data.size:
                out = Tensor._make(data.copy())
                _unique_history(self, out, "unique_dim")
                return _unique_result(out, np.zeros(0, np.int64), np.zeros(0, np.int64), return_inverse, return_counts)
            moved = np.moveaxis(data, d, 0).reshape(data.shape[d], -1)
            _, first, inverse, counts = np.unique(moved, axis=0, return_index=True, return_inverse=True,
                                                  return_counts=True)
            values = _moved_contiguous(np.take(data, first, axis=d), d)
            inverse = inverse.reshape(-1)
        out = Tensor._make(np.ascontiguousarray(values) if dim is None else values)
        _unique_history(self, out, "_unique2" if dim is None else "unique_dim")
        return _unique_result(out, inverse, counts, return_inverse, return_counts)

    def unique_consecutive(self, return_inverse=False, return_counts=False, dim=None):
        _check_flags("unique_consecutive", return_inverse=return_inverse, return_counts=return_counts)
        _not_for("unique", self, "V")
        data = self._data
        if dim is not None and (data.ndim != 1 or dim != 0):
            _not_for("unique_dim", self, "c")       # (PyTorch's unique_dim; a 1-d tensor's dim 0 is its plain path)
        _not_for("unique", self, "c")
        if dim is None:
            flat = data.reshape(-1)
            starts = np.ones(flat.shape, bool)
            starts[1:] = flat[1:] != flat[:-1]
            values = flat[starts]
            group = np.cumsum(starts) - 1
            inverse = group.reshape(data.shape)
        else:
            d = _unique_dim(self, dim)
            moved = np.moveaxis(data, d, 0).reshape(data.shape[d], int(np.prod(data.shape)) // max(data.shape[d], 1))
            starts = np.ones(moved.shape[0], bool)
            starts[1:] = (moved[1:] != moved[:-1]).any(axis=1)
            values = _moved_contiguous(np.compress(starts, data, axis=d), d)
            group = np.cumsum(starts) - 1
            inverse = group
        counts = np.diff(np.append(np.nonzero(starts)[0], len(starts)))
        out = Tensor._make(np.ascontiguousarray(values) if dim is None else values)
        _unique_history(self, out, "unique_consecutive")
        return _unique_result(out, inverse, counts, return_inverse, return_counts)

    def bincount(self, weights=None, minlength=0):
        data = self._data
        _not_for("bincount_cpu", self, "bfc")
        if minlength < 0:
            raise RuntimeError("minlength should be >= 0")
        if data.ndim != 1 or (data.size and data.min() < 0):
            raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
        if weights is not None and (weights._data.ndim != 1 or weights._data.shape[0] != data.shape[0]):
            raise RuntimeError("weights should be 1-d and have the same length as input")
        length = max(int(data.max()) + 1 if data.size else 0, minlength)
        if weights is None or not data.size:      # (PyTorch: an empty input counts in int64, weights or not)
            return Tensor._make(np.bincount(data, minlength=length).astype(np.int64))
        kind = np.float32 if weights._data.dtype == np.float32 else np.float64
        out = np.zeros(length, kind)
        np.add.at(out, data, weights._data.astype(kind))        # (in order, in the result's precision)
        return Tensor._make(out)

    def count_nonzero(self, dim=None, *more):
        if more:                          # count_nonzero(0, 1): PyTorch's IntArrayRef dim given as separate ints
            dim = (dim, *more)
        data = _dtype.as_c64(self._data)        # (complex32: its values)
        if _all_dims(dim):
            return Tensor._make(np.asarray(np.count_nonzero(data), np.int64))
        dims = _dims(dim, data.ndim)
        return Tensor._make(np.asarray(np.count_nonzero(data, axis=dims), np.int64))

    def histc(self, bins=100, min=0, max=0):
        data = self._data
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        if data.dtype.kind == "V":                   # (complex32: no kernel at all)
            raise NotImplementedError("\"aminmax_cpu\" not implemented for 'ComplexHalf'")
        if data.dtype.kind == "c" and min == max:     # (the range from the data: aminmax has no complex kernel)
            raise NotImplementedError(f'"aminmax_cpu" not implemented for \'{_kind(self)}\'')
        kind = data.dtype if data.dtype.kind == "f" else np.dtype(np.float64)
        low, high = kind.type(min), kind.type(max)
        if low == high and data.size:
            low, high = kind.type(data.min()), kind.type(data.max())
        if low == high:
            low, high = low - 1, high + 1
        if not (np.isfinite(low) and np.isfinite(high)):
            raise RuntimeError(f"torch.histc: range of [{low:g}, {high:g}] is not finite")
        if low > high:
            raise RuntimeError("torch.histc: max must be larger than min")
        _not_for("linspace_cpu", self, "b")
        _not_for("histogram_cpu", self, "iuc")
        flat = data.reshape(-1)
        kept = flat[(flat >= low) & (flat <= high)]
        with np.errstate(over="ignore", invalid="ignore"):
            span = high - low
            pos = (kept - low) * data.dtype.type(bins) / span
        if not np.isfinite(span):            # (a range beyond the dtype: PyTorch counts nothing)
            pos = pos[:0]
        # (a position that overflowed the dtype, of numbers near its largest: PyTorch's int64 cast of inf
        # lands them in the first bin, as measured)
        pos = np.where(np.isfinite(pos), pos, 0).astype(np.int64)
        pos = np.minimum(pos, bins - 1)
        return Tensor._make(np.bincount(pos, minlength=bins).astype(data.dtype))

    def histogram(self, bins=100, *, range=None, weight=None, density=False):
        """torch.histogram: (hist, bin_edges); `bins` a count (edges from linspace over `range` or the
        data's min and max, widened by 0.5 each way when they are equal) or the edges themselves."""
        data = self._data
        if isinstance(bins, Tensor):
            if bins._data.dtype != data.dtype:
                raise RuntimeError("torch.histogramdd: input tensor and bins tensors should have the same dtype, but "
                                   f"got input with dtype {_C_NAMES.get(data.dtype.name, data.dtype.name)} and bins "
                                   f"for dimension 0 with dtype {_C_NAMES.get(bins._data.dtype.name, '?')}")
            if bins._data.ndim != 1:
                raise RuntimeError(f"torch.histogramdd: bins tensor should have one dimension, but got "
                                   f"{bins._data.ndim} dimensions in the bins tensor for dimension 0")
            if not bins._data.size:
                raise RuntimeError("torch.histogramdd: bins tensor should have at least 1 element, but got 0 "
                                   "elements in the bins tensor for dimension 0")
            if data.dtype.kind != "f" or data.dtype == np.float16:
                raise NotImplementedError(f'"histogram_cpu" not implemented for {_kernel_name(data.dtype)!r}')
            edges = bins._data.reshape(-1)
        else:
            if bins <= 0:
                raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
            if data.dtype.kind != "f" or data.dtype == np.float16:
                kernel = "histogramdd" if range is None and data.size else "histogram_cpu"
                raise NotImplementedError(f'"{kernel}" not implemented for {_kernel_name(data.dtype)!r}')
            if range is not None:
                low, high = float(range[0]), float(range[1])
            elif data.size:
                low, high = float(data.min()), float(data.max())
            else:
                low = high = 0.0
            if low > high:
                raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max "
                                   f"{high:g} for dimension 0")
            if not (np.isfinite(low) and np.isfinite(high)):
                raise RuntimeError(f"torch.histogramdd: dimension 0's range [{low:g}, {high:g}] is not finite")
            if low == high:
                low, high = low - 0.5, high + 0.5
            edges = linspace(low, high, bins + 1, dtype=self.dtype)._data
        flat = data.reshape(-1)
        if weight is not None and weight._data.dtype != data.dtype:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided, input tensor and weight tensor should "
                               f"have the same dtype, but got input({_C_NAMES.get(data.dtype.name, data.dtype.name)}), "
                               f"and weight({_C_NAMES.get(weight._data.dtype.name, weight._data.dtype.name)})")
        if weight is not None and weight._data.shape != data.shape:
            raise RuntimeError("torch.histogramdd: if weight tensor is provided it should have the same shape as the "
                               "input tensor excluding its innermost dimension, but got input with shape "
                               f"[{flat.size}, 1] and weight with shape [{', '.join(map(str, weight._data.shape))}]")
        if isinstance(bins, Tensor) and bins._data.size == 1:      # (one edge: no bin, checked after the weight)
            raise RuntimeError("torch.histogram(): bins must be > 0, but got 0 for dimension 0")
        n = edges.size - 1
        inside = (flat >= edges[0]) & (flat <= edges[-1])
        pos = np.minimum(np.searchsorted(edges, flat[inside], side="right") - 1, n - 1)
        hist = np.zeros(n, data.dtype)
        np.add.at(hist, pos, weight._data.reshape(-1)[inside] if weight is not None else data.dtype.type(1))
        if density:
            hist = (hist / hist.sum()).astype(data.dtype) / np.diff(edges)
        out = (Tensor._make(hist.astype(data.dtype, copy=False)), Tensor._make(edges.copy()))
        if self.requires_grad or (isinstance(weight, Tensor) and weight.requires_grad) or (
                isinstance(bins, Tensor) and bins.requires_grad):
            given = [t for t in (self, bins, weight) if isinstance(t, Tensor)]
            out = tuple(_no_derivative(t, "histogram", *given) for t in out)
        return _Histogram(out)


_C_NAMES = {"int8": "signed char", "uint8": "unsigned char", "int16": "short int", "int32": "int", "int64": "long int",
            "bool": "bool", "float16": "c10::Half", "float32": "float", "float64": "double"}


def _kernel_name(dtype):
    return _KERNEL_NAMES[dtype.name]


def _moved_contiguous(values, d):
    """unique_dim's result: PyTorch stacks the unique slices along a new first dim (contiguous), then moves
    that dim back to d (`x.unique(dim=1)` of a (2, 3) x has strides (1, 2)). An empty one is contiguous."""
    if not values.size:
        return values
    return np.moveaxis(torch_contiguous(np.moveaxis(values, d, 0)), 0, d)


def _unique_dim(t, dim):
    """unique's dim, checked as PyTorch's unique_dim checks it."""
    if not t._data.ndim:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, t._data.ndim)
    if not t._data.size and t._data.shape[d]:
        raise RuntimeError("There are 0 sized dimensions, and they aren't selected, so unique cannot be applied")
    if not t._data.size and t._data.shape.count(0) > 1:
        raise RuntimeError("Number of zero sized dimensions is more than one, so unique cannot be applied ")
    return d


def _check_flags(function, **flags):
    """unique's bool arguments, refused as PyTorch's argument parser refuses them."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{function}(): argument '{name}' must be bool, not {_argument_type_name(value)}")


def _unique_result(values, inverse, counts, return_inverse, return_counts):
    if not return_inverse and not return_counts:
        return values
    out = [values]
    if return_inverse:
        out.append(Tensor._make(np.asarray(inverse, np.int64)))
    if return_counts:
        out.append(Tensor._make(np.asarray(counts, np.int64)))
    return tuple(out)
