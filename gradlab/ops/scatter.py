"""Ops: scatter, scatter_add, index_add (with alpha), index_copy, masked_select, masked_scatter, take
(PyTorch's TensorAdvancedIndexing.cpp), rows of the op table (see registry.py).

The forwards take the index (a numpy int array, checked by the Tensor method) as a parameter. A
0-d self, index or src counts as 1-d, as in PyTorch."""
import numpy as np

from . import dual
from .formula_text import shows
from .registry import op
from .shape import _copy_slices_self_grad as zeros_at_key


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
    out = np.array(self, copy=True)
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
        out[key] = np.asarray(value).astype(self.dtype)
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
    if alpha != 1:
        s = s * np.asarray(alpha).astype(out.dtype) if out.dtype.kind != "b" else s
    np.add.at(o, _along(dim, _1d(index)), s)
    return out


def _scaled(x, alpha):
    return x if alpha == 1 else x * alpha


@shows("grad.index_select(dim, index)")
def _index_select_grad(g, n):
    """grad.index_select(dim, index).expand_as(source) (a 0-d source: its one value)."""
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
    _1d(out)[_along(dim, _1d(index))] = source.reshape(1) if source.ndim == 0 else source
    return out


@op("index_fill_along", "IndexFillBackward0", promote=False, shows={"self": "grad.index_fill(dim, index, 0)"},
    self=lambda g, n: dual.call("index_fill_along", g, dim=n.dim, index=n.index))
def index_fill_along(self, dim, index):
    """grad.index_fill(dim, index, 0): index_copy's gradient for self."""
    out = np.array(self, copy=True)
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
    return np.expand_dims(self, dim)


def _squeeze_name(which):
    return {"all": "SqueezeBackward3", "dim": "SqueezeBackward4", "dims": "SqueezeBackward5"}[which]


def _declare_squeezes():
    for which in ("all", "dim", "dims"):
        @op(f"squeeze_{which}_inplace", _squeeze_name(which), promote=False,
            self=lambda g, n: g.reshape(n.self_sizes))
        def squeeze_inplace(self, dims, self_sizes):
            return self.reshape(tuple(n for i, n in enumerate(self.shape) if not (i in dims and n == 1)))


_declare_squeezes()
