"""Ops: scatter, scatter_add, index_add (with alpha), index_copy, masked_select, masked_scatter, take
(PyTorch's TensorAdvancedIndexing.cpp), rows of the op table (see registry.py).

The forwards take the index (a numpy int array, checked by the Tensor method) as a parameter. A
0-d self, index or src counts as 1-d, as in PyTorch."""
import numpy as np

from .._dtype import through_float
from .._tensor_core import Tensor
from . import dual
from .formula_text import shows
from .operands import broadcast_error
from .registry import op
from .shape import _copy_slices_self_grad as zeros_at_key, storage_of, strided_view, unsqueeze as _unsqueeze


class UnsavedIndex(np.ndarray):
    """An index read only by the gradient of an input that does not require grad (scatter_add's src,
    index_add's source): PyTorch does not save it, so it does not make the node spent after a
    backward (the registry counts plain arrays only)."""


def index_param(index, reader):
    """`index` as scatter_add/index_add pass it: saved only when `reader` (the Tensor whose gradient
    reads it) requires grad."""
    return index if getattr(reader, "requires_grad", False) else index.view(UnsavedIndex)


def _1d(a):
    return a.reshape(1) if a.ndim == 0 else a


def scatter_key(index, dim):
    """The numpy key of self[i][index[i][j]] (dim 1) for every position of index."""
    key = list(np.indices(index.shape, sparse=True))
    key[dim] = index
    return tuple(key)


def _src_part(src, index):
    """The part of src that scatter reads: src[:index.size(0), :index.size(1), ...]."""
    if src.ndim == 0:
        return src.reshape((1,) * index.ndim)
    return src[tuple(slice(0, n) for n in index.shape)]


def _scattered(self, dim, index, write):
    out = np.array(self, copy=True, order="C")       # (PyTorch's scatter result is contiguous)
    if index.size:
        write(_1d(out), scatter_key(_1d(index), dim))
    return out


_GATHERED = "grad.gather(dim, index)"


def _gather_grad(g, n, name):
    """src's gradient: grad.gather(dim, index) (PyTorch's engine refuses it when src is larger)."""
    grad = dual.call("gather", g, dim=n.dim, index=n.index, self_sizes=dual.data(g).shape)
    got = tuple(dual.data(grad).shape)
    if got != tuple(n.src_sizes):
        raise RuntimeError(f"Function {name} returned an invalid gradient at index 1 - got "
                           f"[{', '.join(map(str, got))}] but expected shape compatible with "
                           f"[{', '.join(map(str, n.src_sizes))}]")
    return grad


@op("scatter", "ScatterBackward0", ("self", "src"), variants=("function", "method", "inplace"), promote=False,
    shows={"self": "grad.scatter(dim, index, 0)", "src": _GATHERED},
    self=lambda g, n: dual.call("scatter_value", g, dim=n.dim, index=n.index, value=0),
    src=lambda g, n: _gather_grad(g, n, "ScatterBackward0"))
def scatter(self, src, dim, index, src_sizes):
    def write(out, key):
        out[key] = _src_part(src, _1d(index))
    return _scattered(self, dim, index, write)


@op("scatter_value", "ScatterBackward1", promote=False, shows={"self": "grad.scatter(dim, index, 0)"},
    self=lambda g, n: dual.call("scatter_value", g, dim=n.dim, index=n.index, value=0))
def scatter_value(self, dim, index, value):
    def write(out, key):
        out[key] = through_float(np.asarray(value), self.dtype).astype(self.dtype)
    return _scattered(self, dim, index, write)


@op("scatter_add_src", "ScatterAddBackward0", ("self", "src"), promote=False, shows={"src": _GATHERED},
    self=lambda g, n: g,
    src=lambda g, n: _gather_grad(g, n, "ScatterAddBackward0"))
def scatter_add_src(self, src, dim, index, src_sizes):
    def write(out, key):
        np.add.at(out, key, _src_part(src, _1d(index)))
    return _scattered(self, dim, index, write)


def scatter_reduced(self, src, dim, index, reduce):
    """scatter(..., reduce='add' or 'multiply'): forward only (PyTorch records NotImplemented)."""
    ufunc = np.add if reduce == "add" else np.multiply

    def write(out, key):
        value = _src_part(src, _1d(index)) if isinstance(src, np.ndarray) else np.asarray(src).astype(self.dtype)
        ufunc.at(out, key, value)
    return _scattered(self, dim, index, write)


# --- along one dim: index_add, index_copy ---------------------------------------------------------

def _along(dim, index):
    return (slice(None),) * dim + (index,)


@op("index_add_alpha", "IndexAddBackward0", ("self", "source"), promote=False,
    shows={"source": "grad.index_select(dim, index) * alpha"},
    self=lambda g, n: g,
    source=lambda g, n: _scaled(_index_select_grad(g, n), n.alpha))
def index_add_alpha(self, source, dim, index, alpha, source_sizes):
    """self with alpha * source's slices added at `index` along dim (repeated indices add up)."""
    out = np.array(self, copy=True)
    o, s = _1d(out), (source.reshape(1) if source.ndim == 0 else source)
    if not (out.size and s.size):       # (nothing to add: PyTorch reads no index, see _index_add_args)
        return out
    if alpha != 1:
        s = s * np.asarray(alpha).astype(out.dtype) if out.dtype.kind != "b" else s
    np.add.at(o, _along(dim, _1d(index)), s)
    return out


def _scaled(x, alpha):
    return x if alpha == 1 else x * alpha


def check_index_select_bounds(data, d, idx):
    """index_select's bounds check (also in the gradients that call it): PyTorch's kernels word it differently."""
    size = data.shape[d] if data.ndim else 1
    if size == 0 and idx.size:          # (PyTorch's 1-d kernel words it as any index out of range)
        if data.ndim == 1:
            raise IndexError("index out of range in self")
        raise RuntimeError("index_select(): self indexing axis dim should be positive")
    bad = (idx < 0) | (idx >= size)
    if bad.any():      # (its dim-1 and empty-input kernel, the others)
        if d == 1 or data.size == 0:
            raise RuntimeError(f"INDICES element is out of DATA bounds, id={idx[bad].flat[0]} axis_dim={size}")
        raise IndexError("index out of range in self")


@shows("grad.index_select(dim, index)")
def _index_select_grad(g, n):
    """grad.index_select(dim, index).expand_as(source) (a 0-d source: its one value)."""
    check_index_select_bounds(dual.data(g), n.dim, np.asarray(n.index))
    grad = dual.call("index_select", g, dim=n.dim, index=_1d(n.index), self_sizes=dual.data(g).shape)
    if not n.source_sizes:
        return grad.reshape(())
    return grad if isinstance(grad, np.ndarray) else dual.expand(grad, n.source_sizes)


@op("index_copy", "IndexCopyBackward0", ("self", "source"), variants=("function", "method", "inplace"), promote=False,
    shows={"self": "grad.index_fill(dim, index, 0)"},
    self=lambda g, n: dual.call("index_fill_along", g, dim=n.dim, index=n.index),
    source=_index_select_grad)
def index_copy(self, source, dim, index, source_sizes):
    out = np.array(self, copy=True)
    if out.size and source.size:        # (an empty source or self: PyTorch's kernel reads no index)
        _1d(out)[_along(dim, _1d(index))] = source.reshape(1) if source.ndim == 0 else source
    return out


@op("index_fill_along", "IndexFillBackward0", promote=False, shows={"self": "grad.index_fill(dim, index, 0)"},
    self=lambda g, n: dual.call("index_fill_along", g, dim=n.dim, index=n.index))
def index_fill_along(self, dim, index):
    """grad.index_fill(dim, index, 0): index_copy's gradient for self."""
    out = np.array(self, copy=True)
    if out.size:                        # (an empty grad is never looked at, as in index_fill)
        _1d(out)[_along(dim, _1d(index))] = 0
    return out


# --- masks and flat positions -------------------------------------------------------------------

@shows("grad.new_zeros(broadcast_shapes(self_sizes, mask.shape)).masked_scatter(mask, grad)")
def _masked_select_grad(g, n):
    """PyTorch's masked_select_backward: zeros (of the broadcast shape) masked_scatter'ed with grad."""
    shape = np.broadcast_shapes(n.self_sizes, n.mask.shape)
    zeros = dual.like(g, np.zeros(shape, dual.data(g).dtype))
    return dual.call("masked_scatter", zeros, g, mask=np.broadcast_to(n.mask, shape), source_sizes=dual.data(g).shape)


@op("masked_select", "MaskedSelectBackward0", variants=("function", "method"), promote=False, saves=("self",),
    self=_masked_select_grad)
def masked_select(self, mask, self_sizes):
    shape = np.broadcast_shapes(self.shape, mask.shape)
    return np.broadcast_to(self, shape)[np.broadcast_to(mask, shape)]


def _masked_scatter_source_grad(g, mask, source_sizes):
    """grad.masked_select(mask), padded with zeros to source's size and shaped as source."""
    picked = dual.call("masked_select", g, mask=mask, self_sizes=dual.data(g).shape)
    size = int(np.prod(source_sizes))
    if isinstance(picked, np.ndarray):
        return np.concatenate([picked, np.zeros(size - picked.size, picked.dtype)]).reshape(source_sizes)
    if size != picked._data.size:          # (zeros after the picked values, as PyTorch pads them)
        zeros = dual.Tensor._make(np.zeros(size - picked._data.size, picked._data.dtype))
        picked = dual.call("cat", picked, zeros, dim=0, offsets=[0, picked._data.size],
                           sizes=[picked._data.size, zeros._data.size])
    return picked.reshape(source_sizes)


@op("masked_scatter", "MaskedScatterBackward0", ("self", "source"), variants=("function", "method", "inplace"),
    promote=False,
    # (source's first mask.sum() elements were written: they get grad.masked_select(mask), the others 0)
    shows={"self": "grad.masked_fill(mask, 0)",
           "source": "grad.new_zeros(source_sizes).flatten().index_copy(0, tensor(range(int(mask.sum()))), "
                     "grad.masked_select(mask)).reshape(source_sizes)"},
    self=lambda g, n: dual.zero_where(dual.like(g, n.mask), g),
    source=lambda g, n: _masked_scatter_source_grad(g, n.mask, n.source_sizes))
def masked_scatter(self, source, mask, source_sizes):
    out = np.array(np.broadcast_to(self, mask.shape), copy=True)
    out[mask] = source.reshape(-1)[:int(mask.sum())]
    return out


@op("take", "TakeBackward0", variants=("function", "method"), promote=False, saves=("self",),
    # (PyTorch's zeros_like(self).put_(index, grad, accumulate=True); gradlab has no put_: index_add on the
    # flattened zeros, negative positions counted from the end)
    shows={"self": "grad.new_zeros(self_sizes).flatten().index_add(0, index.flatten() % zeros(self_sizes).numel(), "
                   "grad.flatten()).reshape(self_sizes)"},
    self=lambda g, n: dual.call("put_add", dual.like(g, np.zeros(n.self_sizes, dual.data(g).dtype)), g,
                                index=n.index))
def take(self, index, self_sizes):
    return self.reshape(-1)[index]


@op("put_add", "PutBackward0", ("self", "source"), promote=False, shows={"source": "grad.take(index)"},
    self=lambda g, n: g,
    source=lambda g, n: dual.call("take", g, index=n.index, self_sizes=dual.data(g).shape))
def put_add(self, source, index):
    """zeros.put_(index, grad, accumulate=True): take's gradient."""
    out = np.array(self, copy=True)
    np.add.at(out.reshape(-1), index, source)
    return out


def _declare_puts():
    """put_(index, source) and index_put_(indices, values, accumulate=True): `source` written (or added, repeated
    positions adding up) at a numpy key of self's positions. Written: self's gradient is grad with zeros where
    self was overwritten; added: grad itself. source's gradient is grad at the key either way."""
    for key, name, adds in (("put_positions", "PutBackward0", False), ("put_positions_add", "PutBackward0", True),
                            ("index_put_accumulate", "IndexPutBackward0", True)):
        @op(key, name, ("self", "source"), promote=False,
            shows={"source": "grad[key]"},
            self=(lambda g, n: g) if adds else zeros_at_key,
            source=lambda g, n: _1d(g)[n.key])
        def put(self, source, key, adds=adds):
            out = np.array(self, copy=True)
            if adds:
                np.add.at(_1d(out), key, source)
            else:
                _1d(out)[key] = source
            return out


_declare_puts()


# --- views taken in place: t_, transpose_, unsqueeze_, squeeze_ ----------------------------------
# (the tensor itself becomes the view: PyTorch names these nodes apart from the out-of-place views;
# they sit here with the other ops of issue 17's "pointwise and shape" list)

@op("t_inplace", "TBackward1", promote=False,
    self=lambda g, n: dual.t(g))
def t_inplace(self):
    return self.T if self.ndim == 2 else self


@op("transpose_inplace", "TransposeBackward1", promote=False,
    self=lambda g, n: dual.transpose(g, n.dim0, n.dim1))
def transpose_inplace(self, dim0, dim1):
    return np.swapaxes(self, dim0, dim1) if self.ndim else self


@op("unsqueeze_inplace", "UnsqueezeBackward1", promote=False,
    self=lambda g, n: dual.squeeze(g, n.dim))
def unsqueeze_inplace(self, dim):
    return _unsqueeze.forward(self, dim)      # (unsqueeze's strides)


def _squeeze_name(which):
    return {"all": "SqueezeBackward3", "dim": "SqueezeBackward4", "dims": "SqueezeBackward5"}[which]


def _declare_squeezes():
    for which in ("all", "dim", "dims"):
        @op(f"squeeze_{which}_inplace", _squeeze_name(which), promote=False,
            self=lambda g, n: g.reshape(n.self_sizes))
        def squeeze_inplace(self, dims, self_sizes):
            # (np.squeeze keeps the other dims' strides, as PyTorch's; a reshape would recompute those of size 1)
            return np.squeeze(self, axis=tuple(i for i, n in enumerate(self.shape) if i in dims and n == 1))


_declare_squeezes()


# --- scatter_reduce and index_reduce --------------------------------------------------------------
# One forward for both: index_reduce's 1-d index along dim is passed expanded to source's shape (a scatter
# index), so self[..., index[i], ...] op= source[..., i, ...] is scatter_reduce's self[i][index[i][j]] op= src[i][j].
# Their gradients are PyTorch's scatter_reduce_backward / index_reduce_backward (FunctionsManual.cpp), the
# same formulas with gather/scatter_add where index_select/index_add stand in index_reduce's.

_IDENTITY = {"sum": 0, "mean": 0, "prod": 1}


def _identity(reduce, dtype):
    """What a position written by src starts from when include_self=False."""
    if reduce in _IDENTITY:
        return _IDENTITY[reduce]
    big = reduce in ("amin", "min")
    if dtype.kind == "b":
        return big
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        return info.max if big else info.min
    return np.inf if big else -np.inf


_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "max": np.maximum,
           "amin": np.minimum, "min": np.minimum}


def _counts(shape, dtype, index, dim, include_self):
    """How many values each position of self reduces (1 where nothing is written): mean's divisor."""
    count = np.full(shape, 1 if include_self else 0, dtype)
    if index.size:
        np.add.at(_1d(count), scatter_key(_1d(index), dim), np.ones((), dtype))
    count[count == 0] = 1
    return count


def scatter_reduce_arrays(self, src, dim, index, reduce, include_self):
    out = np.array(self, copy=True)
    if not index.size:
        return out
    o = _1d(out)
    key = scatter_key(_1d(index), dim)
    if not include_self:
        o[key] = _identity(reduce, out.dtype)
    _UFUNCS[reduce].at(o, key, _src_part(src, _1d(index)))
    if reduce == "mean":
        count = _counts(out.shape, out.dtype, index, dim, include_self)
        if out.dtype.kind in "fc":
            out = out / count
        else:
            out = np.floor_divide(out, count)
    return out.astype(self.dtype, copy=False)


def _pick(g, n):
    """grad.gather(dim, index) (index_reduce: grad.index_select(dim, index), the same positions; recorded so on
    Tensors, IndexSelectBackward0)."""
    if isinstance(g, Tensor) and n._op.key.startswith("index_reduce"):
        idx = _index_of(n)
        if idx is not None:
            return g.index_select(n.dim, Tensor._make(idx))
    return dual.call("gather", g, dim=n.dim, index=_1d(n.index), self_sizes=dual.data(g).shape)


def _index_of(n):
    """index_reduce's own 1-d index, from the scatter index it was expanded to (None when that holds none)."""
    index = _1d(n.index)
    if not index.size:
        return None
    return index[tuple(slice(None) if i == n.dim else 0 for i in range(index.ndim))]


def _fill_one(mask, x):
    """x with 1 where mask holds: PyTorch's x.masked_fill(mask, 1) (MaskedFillBackward0 on Tensors)."""
    if isinstance(x, Tensor):
        return x.masked_fill(Tensor._make(np.asarray(mask)), 1)
    return dual.where(mask, 1, x)


def _spread(shape, dtype, n, values):
    """zeros(shape).scatter_add(dim, index, values), in numpy: a count that carries no gradient."""
    out = np.zeros(shape, dtype)
    if n.index.size:
        np.add.at(_1d(out), scatter_key(_1d(n.index), n.dim), _src_part(values.astype(dtype), _1d(n.index)))
    return out


def _reduce_grads(g, n, slot):
    """self's (slot 0) or src's (slot 1) gradient as PyTorch's scatter_reduce_backward computes them."""
    reduce, data, index_shape = n.reduce, dual.data, _1d(n.index).shape
    if tuple(n.src_sizes) != index_shape and not (n.src_sizes == () and index_shape == (1,)):
        # src larger than the index: PyTorch's prod and amax/amin compare src with index-shaped tensors (a broadcast
        # error), and its engine refuses src's gradient, gathered at the index's shape
        # (where they broadcast, src's gradient has src's shape, as PyTorch's)
        if reduce in ("prod", "amax", "amin"):
            try:
                np.broadcast_shapes(tuple(n.src_sizes), index_shape)
            except ValueError:
                raise broadcast_error(tuple(n.src_sizes), index_shape) from None
        elif slot == 1:
            raise RuntimeError(f"Function {n.name()} returned an invalid gradient at index 1 - got "
                               f"[{', '.join(map(str, index_shape))}] but expected shape compatible with "
                               f"[{', '.join(map(str, n.src_sizes))}]")
        src = n.src
    else:
        src = n.src.reshape(index_shape) if n.src_sizes == () else n.src    # (a 0-d src as the 1-d one it counts as)
    gtype = data(g).dtype
    if reduce == "sum":
        grad_self, grad_src = g, (_pick(g, n) if slot else None)
    elif reduce == "mean":
        count = dual.like(g, _counts(data(g).shape, gtype, n.index, n.dim, n.include_self))
        grad_self = g / count
        grad_src = _pick(g, n) / _pick(count, n) if slot else None
    elif reduce == "prod":
        # (zeros are masked out so that the product of the others is what each zero's gradient gets)
        masked_self = _fill_one(data(n.self) == 0, n.self)
        grad_self = g * _again(n, masked_self, n.src) / masked_self
        if slot:
            src_zero = data(src) == 0
            zeros_there = _pick(_spread(data(n.self).shape, np.int64, n, src_zero), n)
            single_zero = src_zero & (zeros_there == 1)
            masked_src = _fill_one(single_zero, src)
            if n.src_sizes == ():
                masked_src = masked_src.reshape(())
            grad_src = dual.where(single_zero, _pick(g * _again(n, n.self, masked_src), n),
                                  _pick(g * n.result, n) / _fill_one(src_zero, src))
    elif reduce in ("amax", "amin"):
        # (a gradient shared evenly among the values equal to the result)
        self_is = (data(n.self) == data(n.result)).astype(gtype)
        src_is = (data(src) == _pick(data(n.result), n)).astype(gtype)
        distributed = g / dual.like(g, self_is + _spread(self_is.shape, gtype, n, src_is))
        grad_self = dual.like(g, self_is) * distributed
        grad_src = dual.like(g, src_is) * _pick(distributed, n) if slot else None
    else:       # (the forward also takes "max" and "min"; the backward does not)
        raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {reduce}.")
    if slot == 1:
        return grad_src.reshape(n.src_sizes) if n.src_sizes == () else grad_src
    if not n.include_self:
        idx = _index_of(n) if isinstance(grad_self, Tensor) and n._op.key.startswith("index_reduce") else None
        if idx is not None:         # (index_reduce_backward's grad_self.index_fill(dim, index, 0))
            return grad_self.index_fill(n.dim, Tensor._make(idx), 0)
        grad_self = dual.call("scatter_value", grad_self, dim=n.dim, index=n.index, value=0)
    return grad_self


def _again(n, self, src):
    """self.scatter_reduce(dim, index, src, reduce, include_self), recorded (a Tensor) or not."""
    return dual.call(n._op.key, self, src, dim=n.dim, index=n.index, reduce=n.reduce,
                     include_self=n.include_self, src_sizes=n.src_sizes)


# The formulas as a student reads them (PyTorch's scatter_reduce_backward, one row per reduction; `index` is the
# scatter index: index_reduce's expanded to source's shape). A position src writes to loses self's gradient when
# include_self=False.
_N = "(ones_like(grad) if include_self else zeros_like(grad)).scatter_add(dim, index, ones_like(src)).clamp(min=1)"
_MASKED_SELF = "self.masked_fill(self == 0, 1)"
_SINGLE_ZERO = "((src == 0) & (zeros_like(self).scatter_add(dim, index, (src == 0).to(self.dtype)).gather(dim, index) == 1))"
_TIES = "(self == result).to(grad.dtype).scatter_add(dim, index, (src == result.gather(dim, index)).to(grad.dtype))"
_SELF_TEXT = {"sum": "grad", "mean": f"grad / {_N}",
              "prod": f"grad * {_MASKED_SELF}.scatter_reduce(dim, index, src, 'prod', include_self=include_self) / "
                      f"{_MASKED_SELF}",
              "amax": f"(self == result) * grad / {_TIES}"}
_SRC_TEXT = {"sum": "grad.gather(dim, index)", "mean": f"grad.gather(dim, index) / {_N}.gather(dim, index)",
             "prod": f"where({_SINGLE_ZERO}, (grad * self.scatter_reduce(dim, index, src.masked_fill({_SINGLE_ZERO}, 1), "
                     "'prod', include_self=include_self)).gather(dim, index), (grad * result).gather(dim, index) / "
                     "src.masked_fill(src == 0, 1))",
             "amax": f"(src == result.gather(dim, index)) * (grad / {_TIES}).gather(dim, index)"}
_SELF_TEXT["amin"], _SRC_TEXT["amin"] = _SELF_TEXT["amax"], _SRC_TEXT["amax"]


def _declare_reduces():
    for base, name in (("scatter_reduce", "ScatterReduceBackward0"), ("index_reduce", "IndexReduceBackward0")):
        for reduce in ("sum", "prod", "mean", "amax", "amin"):
            if base == "index_reduce" and reduce == "sum":
                continue
            self_text = _SELF_TEXT[reduce]
            @op(f"{base}_{reduce}", name, ("self", "src"), saves=("self", "src", "result"), promote=False,
                shows={"self": f"({self_text}) if include_self else ({self_text}).scatter(dim, index, 0)",
                       "src": _SRC_TEXT[reduce]},
                self=lambda g, n: _reduce_grads(g, n, 0),
                src=lambda g, n: _reduce_grads(g, n, 1))
            def reduced(self, src, dim, index, reduce, include_self, src_sizes):
                return scatter_reduce_arrays(self, src, dim, index, reduce, include_self)


_declare_reduces()


# --- select_scatter, slice_scatter, diagonal_scatter, as_strided_scatter --------------------------------
# Each is `self.clone()` with src written into one of its views (a select, a slice, a diagonal, an
# as_strided view). The Tensor method finds which elements that view holds: `positions`, indices into self
# in C order shaped like the view. The gradients: self's is grad with zeros there (PyTorch's
# <view>_scatter(grad, zeros_like(src))), src's is grad read there (the view of grad).

def _zeros_at_positions(g, n):
    return dual.call("index_fill_zero", g, key=np.unravel_index(n.positions, n.self_sizes))


def _kept_at_positions(g, n):
    """as_strided_scatter's gradient for self, PyTorch's as_strided_scatter_backward: the part of grad at the
    view, in zeros (not grad with zeros there, as the other scatters give: PyTorch's formula, kept)."""
    return dual.call("as_strided_scatter", _read_positions(g, n), positions=n.positions, self_sizes=n.self_sizes)


def _read_positions(g, n):
    """grad read at the view's positions: on arrays, the view itself of grad (made contiguous), as PyTorch's
    grad.select(...) / grad.as_strided(...) is a view; on Tensors, a gather that records its graph."""
    if isinstance(g, np.ndarray):
        strides, offset = n.view_geometry
        flat = np.ascontiguousarray(g).reshape(-1)
        return strided_view(flat, n.positions.shape, strides, offset)
    return dual.call("as_strided", g, positions=n.positions, self_sizes=n.self_sizes)


def clone_preserve_strides(a, dtype=None):
    """PyTorch's clone_preserve_strides: a copy with a's strides and storage offset in a new storage of its
    storage's size (a plain contiguous copy of a tensor that overlaps itself, an expanded one). With a dtype:
    an array of that dtype laid out so, filled with -1 (its storage's elements that a does not hold keep it)."""
    def new(shape):
        return np.empty(shape, a.dtype) if dtype is None else np.full(shape, -1, dtype)
    if a.size and any(s == 0 and n > 1 for s, n in zip(a.strides, a.shape)):
        out = new(a.shape)
    else:
        storage, offset = storage_of(a)
        out = strided_view(new(storage.size), a.shape, [s // a.itemsize for s in a.strides], offset)
    if dtype is None:
        out[...] = a
    return out


def scatter_into_view(self, src, positions):
    """A copy of self (clone_preserve_strides) with src written at `positions`."""
    out = clone_preserve_strides(self)
    src = np.asarray(src).astype(out.dtype)      # (copy_'s cast: an int wraps around into uint8, as in PyTorch)
    if positions.size and positions.min() < 0:     # (an as_strided view reaching between self's elements)
        held = positions >= 0
        positions, src = positions[held], np.broadcast_to(src, held.shape)[held]
    out[np.unravel_index(positions, self.shape)] = src
    return out


def _declare_view_scatters():
    for key, name in (("select_scatter", "SelectScatterBackward0"), ("slice_scatter", "SliceScatterBackward0"),
                      ("diagonal_scatter", "DiagonalScatterBackward0"),
                      ("as_strided_scatter_view", "AsStridedScatterBackward0")):
        def forward(self, src, positions, self_sizes, view_geometry):
            return scatter_into_view(self, src, positions)
        forward.__name__ = key
        forward.__doc__ = f"torch.{key.replace('_view', '')}: self with src written into one of its views."
        strided = key == "as_strided_scatter_view"
        op(key, name, ("self", "src"), variants=() if strided else ("function", "method"), promote=False,
           saved_params=(),
           shows={"self": ("grad.new_zeros(self_sizes).flatten().index_add(0, positions.flatten(), grad.flatten()[positions]"
                           ".flatten()).reshape(self_sizes)") if strided else
                  "grad.flatten().index_fill(0, positions.flatten(), 0).reshape(self_sizes)",
                  "src": "grad.flatten()[positions]"},
           self=_kept_at_positions if strided else _zeros_at_positions, src=_read_positions)(forward)


_declare_view_scatters()


# torch.fill(x, value): fill_'s forward out of place, under PyTorch's nodes of the functional fill
from .shape import declare_like  # noqa: E402
declare_like("fill", "fill_out", "FillBackward0", copy=False)
declare_like("fill_tensor", "fill_tensor_out", "FillBackward1", copy=False)
