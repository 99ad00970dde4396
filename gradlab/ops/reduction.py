"""Reductions: sum, mean, max/min, prod, var/std, norm, logsumexp, cumsum.

`dim` is always normalised to a tuple of non-negative ints before the op runs, so formulas can
rely on it. `_restore(g, n)` puts reduced dimensions back (as size 1) so the gradient broadcasts
against the input.
"""
import numpy as np

from .. import _parallel
from .._dtype import from_numpy_dtype
from .._tensor_core import GivenDims
from . import dual
from .summation import add_reduce
from .operands import broadcast_error
from .arithmetic import sub_check
from .formula_text import shows
from .registry import OPS, op
from .shape import cat as _cat


_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _div_number(x, count):
    """The mean's gradient: expanded, then divided (a contiguous result), and with create_graph
    recorded as PyTorch's C++ `tensor / number` does (DivBackward1). Half divides in float32, as
    torch's kernel does (numpy would round the count to half first)."""
    if isinstance(x, np.ndarray):
        return (x.astype(_F32) / count).astype(_F16) if x.dtype == _F16 else x / count
    return OPS["nn_div_by_number"](x, other=count)


def _half_mean(x, dim, keepdim, count):
    """torch's CPU mean of half: cast to float, sum, divide, round to half once."""
    total = add_reduce(x, axis=dim, keepdims=keepdim, dtype=_F32)
    return (total / _F32.type(count)).astype(_F16)


def _mean_of(x, dims):
    """self.mean() (dims None) or self.mean(dims, keepdim=True), as the var/std gradients use it."""
    if isinstance(x, dual.Tensor):
        return x.mean() if dims is None else x.mean(dims, keepdim=True)
    count = x.size if dims is None else int(np.prod([x.shape[d] for d in dims]))
    if not count:                       # (numpy would warn: "Mean of empty slice")
        return np.full(np.add.reduce(x, axis=dims, keepdims=dims is not None).shape, np.nan, x.dtype)
    if x.dtype == _F16:
        return _half_mean(x, dims, dims is not None, count)
    return add_reduce(x, axis=dims, keepdims=dims is not None) / x.dtype.type(count)


def _restore(g, n):
    """Unsqueeze the reduced dims of g (when keepdim=False) so it broadcasts against the input."""
    if n.keepdim or n.dim is None:
        return g
    if isinstance(g, dual.Tensor):      # (PyTorch's unsqueeze_multiple: one UnsqueezeBackward0 per dim)
        for d in sorted(n.dim):
            g = g.unsqueeze(d)
        return g
    shape = list(g.shape)
    for d in sorted(n.dim):
        shape.insert(d, 1)
    return g.reshape(shape)


def _expand_to_input(g, n):
    return dual.expand(_restore(g, n), n.self_sizes)


@op("sum", "SumBackward0", variants=("function", "method"), cast_result=False,
    self=lambda g, n: dual.expand(g, n.self_sizes))
def sum(self, self_sizes):
    return add_reduce(self, axis=None, dtype=_sum_dtype(self))     # floats in PyTorch's order (summation.py)


@op("sum_dim", "SumBackward1", cast_result=False, shows={"self": "restore_dims(grad, dim, keepdim).expand(self_sizes)"},
    self=_expand_to_input)
def sum_dim(self, dim, keepdim, self_sizes):
    return add_reduce(self, axis=dim, keepdims=keepdim, dtype=_sum_dtype(self))


# at::acc_type<T, /*is_cuda=*/false>: what PyTorch's CPU running sums and products keep between steps
_CPU_ACC_TYPE = {np.dtype(np.float16): np.dtype(np.float32), np.dtype(np.float32): np.dtype(np.float64),
                 np.dtype(np.complex64): np.dtype(np.complex128)}


def _sum_dtype(a):
    # PyTorch sums bool and integer tensors as int64
    return np.int64 if a.dtype.kind in "biu" else None


_EMPTY_MEAN_C = complex(-np.nan, -np.nan)


@op("mean", "MeanBackward0", variants=("function", "method"), shows={"self": "grad.expand(self_sizes) / count"},
    self=lambda g, n: _div_number(dual.expand(g, n.self_sizes), n.count))
def mean(self, self_sizes, count):
    if self.size == 0:                  # PyTorch's 0 / 0: -nan (the sign bit set; numpy would warn), complex: both parts
        return np.full((), _EMPTY_MEAN_C if self.dtype.kind == "c" else -np.nan, self.dtype)
    if self.dtype == _F16:
        return _half_mean(self, None, False, count)
    return add_reduce(self, axis=None) / count           # PyTorch's CPU mean: its sum, then a division


@op("mean_dim", "MeanBackward1", shows={"self": "restore_dims(grad, dim, keepdim).expand(self_sizes) / count"},
    self=lambda g, n: _div_number(_expand_to_input(g, n), n.count))
def mean_dim(self, dim, keepdim, self_sizes, count):
    if count == 0:                      # empty slices: nan, as in PyTorch (numpy would warn)
        return np.full(np.add.reduce(self, axis=dim, keepdims=keepdim).shape,
                       _EMPTY_MEAN_C if self.dtype.kind == "c" else -np.nan, self.dtype)
    if self.dtype == _F16:
        return _half_mean(self, dim, keepdim, count)
    return add_reduce(self, axis=dim, keepdims=keepdim) / self.dtype.type(count)


@shows("where(self == restore_dims(result, dim, keepdim), restore_dims(grad, dim, keepdim) / (self == restore_dims(result, dim, keepdim)).sum(dim, keepdim=True), 0)")
def _even_split_grad(g, n):
    # ties share the gradient evenly, as PyTorch does for full max/min and amax/amin
    hits = n.self == _restore(n.result, n)
    return _restore_reshaped(g, n) / dual.sum_keepdim(hits, n.dim) * hits      # (PyTorch's order: MulBackward0 last)


def _restore_reshaped(g, n):
    """amax/amin's restore_reduced_dims: the reduced dims put back by one reshape (ViewBackward0 under
    create_graph), where sum and mean unsqueeze them one by one."""
    if isinstance(g, dual.Tensor) and not n.keepdim and n.dim is not None:
        shape = list(g._data.shape)
        for d in sorted(n.dim):
            shape.insert(d, 1)
        return g.reshape(shape)
    return _restore(g, n)


@shows("where(isclose(self, result, rtol=0, atol=0, equal_nan=True), "        # (equal_nan: a nan maximum came from the nans)
       "grad / isclose(self, result, rtol=0, atol=0, equal_nan=True).sum(), 0)")
def _evenly_distribute_grad(g, n):
    """full max/min: g shared by the ties, written into zeros (PyTorch's evenly_distribute_backward:
    not g * hits, inf * 0 is nan). A nan result came from the nan inputs."""
    x, r = dual.data(n.self), dual.data(n.result)
    hits = np.isnan(x) if np.isnan(r) else x == r
    share = g / int(np.count_nonzero(hits))
    if isinstance(g, dual.Tensor):      # (recorded as PyTorch's zeros.masked_fill_(hits, share))
        return dual.like(g, np.zeros(x.shape, x.dtype)).masked_fill(dual.like(g, hits), share)
    return dual.where_or_zero(hits, np.broadcast_to(share, x.shape))


@op("max_all", "MaxBackward1", saves=("self", "result"),
    self=_evenly_distribute_grad)
def max_all(self, dim=None, keepdim=False):
    return np.max(self)


@op("min_all", "MinBackward1", saves=("self", "result"),
    self=_evenly_distribute_grad)
def min_all(self, dim=None, keepdim=False):
    return np.min(self)


@op("amax", "AmaxBackward0", variants=("function", "method"), saves=("self", "result"),
    self=_even_split_grad)
def amax(self, dim, keepdim):
    return np.max(self, axis=dim, keepdims=keepdim)


@op("amin", "AminBackward0", variants=("function", "method"), saves=("self", "result"),
    self=_even_split_grad)
def amin(self, dim, keepdim):
    return np.min(self, axis=dim, keepdims=keepdim)


@shows("grad.new_zeros(self_sizes).scatter(dim[0], restore_dims(indices, dim, keepdim), %s) if self_sizes "
       "else grad" % "restore_dims(grad, dim, keepdim)")
def _index_grad(g, n):
    """max(dim)/min(dim): the whole gradient goes to the single returned index."""
    if isinstance(g, dual.Tensor):      # (PyTorch's value_selecting_reduction_backward: ScatterBackward0)
        d = n.dim[0] if n.self_sizes else 0
        idx = n.indices if n.keepdim or not n.self_sizes else np.expand_dims(n.indices, d)
        g = _restore(g, n) if n.self_sizes else g
        zeros = dual.like(g, np.zeros(n.self_sizes, dual.data(g).dtype))
        return dual.call("scatter", zeros, g, dim=d, index=idx, src_sizes=dual.data(g).shape)
    if not n.self_sizes:            # a 0-d input is its own maximum: the gradient passes through
        return g
    d = n.dim[0]
    idx = n.indices if n.keepdim else np.expand_dims(n.indices, d)
    onehot = np.zeros(n.self_sizes, dtype=bool)
    np.put_along_axis(onehot, idx, True, axis=d)
    return dual.where_or_zero(dual.like(g, onehot), _restore(g, n))     # (not g * onehot: inf * 0 is nan)


@op("max_dim", "MaxBackward0",
    self=_index_grad)
def max_dim(self, dim, keepdim, indices, self_sizes):
    if self.ndim == 0:
        return self.copy()
    return np.take_along_axis(self, indices if keepdim else np.expand_dims(indices, dim[0]), dim[0]).reshape(
        indices.shape)


@op("min_dim", "MinBackward0",
    self=_index_grad)
def min_dim(self, dim, keepdim, indices, self_sizes):
    if self.ndim == 0:
        return self.copy()
    return np.take_along_axis(self, indices if keepdim else np.expand_dims(indices, dim[0]), dim[0]).reshape(
        indices.shape)


@shows("restore_dims(grad, dim, keepdim) * prod_of_others(self, dim).conj() if self.dim() else grad")
def _prod_grad(g, n):
    """PyTorch's prod_backward: grad * (result / input).conj() when no input is 0; else the product of the others
    without a division, prod_safe_zeros_backward (over the flattened input for a full product)."""
    x, r = n.self, _restore(n.result, n)
    xs = dual.data(x)
    if not xs.ndim:           # (torch returns grad itself)
        return g
    if not (xs == 0).any():
        return _restore(g, n) * dual.conj(r / x)      # (torch's grad * (result / input).conj(): MulBackward0 last)
    if n.dim is None:
        flat = x.reshape(-1) if isinstance(x, dual.Tensor) else xs.reshape(-1)
        out = _prod_safe_zeros_backward(g, flat, 0)
        return out.view(xs.shape) if isinstance(out, dual.Tensor) else out.reshape(xs.shape)
    dim = n.dim if isinstance(n.dim, int) else n.dim[0]
    return _prod_safe_zeros_backward(_restore(g, n), x, dim)


def _prod_safe_zeros_backward(g, x, dim):
    """grad times the product of the other entries along dim, as the exclusive cumulative products from
    both ends: cat([1, x[:-1]]).cumprod() * cat([1, x[1:].flip()]).cumprod().flip() (safe with zeros)."""
    xs = dual.data(x)
    if not xs.size:
        return dual.expand(g, xs.shape)
    size = xs.shape[dim]
    if size == 1:               # (the others' product is empty: grad itself)
        return g
    ones_shape = list(xs.shape)
    ones_shape[dim] = 1
    ones = np.ones(ones_shape, dual.data(g).dtype)
    if isinstance(x, dual.Tensor) or isinstance(g, dual.Tensor):
        ones = dual.like(g, ones)
        normal = _cat([ones, x.narrow(dim, 0, size - 1)], dim).cumprod(dim)
        reverse = _cat([ones, x.narrow(dim, 1, size - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    else:
        take = [slice(None)] * xs.ndim
        take[dim] = slice(0, size - 1)
        normal = np.cumprod(np.concatenate([ones, xs[tuple(take)]], dim), axis=dim)
        take[dim] = slice(1, size)
        reverse = np.flip(np.cumprod(np.concatenate([ones, np.flip(xs[tuple(take)], dim)], dim), axis=dim), dim)
    return g * dual.conj(normal * reverse)


@op("prod", "ProdBackward0", variants=("function", "method"), cast_result=False, saves=("self", "result"),
    self=_prod_grad)
def prod(self, dim=None, keepdim=False):
    if self.dtype == _F16:
        return _half_prod(self, tuple(range(self.ndim)), False)
    return np.prod(self, dtype=_sum_dtype(self))


def _half_prod(x, dims, keepdim):
    """A float16 product as PyTorch's CPU loop takes it: one number after another, each product rounded to
    half (numpy's float16 reduce keeps a float between them)."""
    dims = tuple(d % x.ndim for d in dims) if x.ndim else ()
    kept = [d for d in range(x.ndim) if d not in dims]
    flat = np.transpose(x, kept + list(dims)).reshape([x.shape[d] for d in kept] + [-1])
    out = np.ones(flat.shape[:-1], _F16)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(flat.shape[-1]):
            out = out * flat[..., i]          # (a half times a half is exact in float: one rounding)
    if keepdim:
        out = out.reshape([1 if d in dims else n for d, n in enumerate(x.shape)])
    return out


@op("prod_dim", "ProdBackward1", cast_result=False, saves=("self", "result"),
    self=_prod_grad)
def prod_dim(self, dim, keepdim):
    if self.dtype == _F16:
        return _half_prod(self, dim if isinstance(dim, tuple) else (dim,), keepdim)
    return np.prod(self, axis=dim, keepdims=keepdim, dtype=_sum_dtype(self))


@shows("2 / (count - correction) * restore_dims(grad, dim, keepdim) * (self - self.mean(dim, keepdim=True))")
def _var_grad(g, n):
    """torch's var_backward: (2 / dof) * grad * (self - self.mean(...)), in that order; with no
    degrees of freedom left, a full reduction gives grad * where(self == mean, nan, inf)."""
    x = n.self
    dof = n.count - n.correction
    if type(n.dim) is GivenDims and n.dim.given == () and x.ndim:
        dof = 1 - n.correction      # (dim=[]: PyTorch's backward counts the elements of no dims, 1)
    if n.dim is None or not x.ndim:
        if dof <= 0:
            return g * dual.where(x == _mean_of(x, None), float("nan"), float("inf"))
        return _scale(g, 2.0 / dof) * (x - _mean_of(x, None))
    if not n.keepdim and x.ndim > 1:
        g = _restore(g, n)
    return _scale(g, 2.0 / dof if dof else float("inf")) * (x - _mean_of(x, n.dim))


def _scale(g, c):
    """c * g for a Python float c: half arrays multiply in float32 (torch's opmath), numpy would
    round c to half first. On Tensors C++'s `c * grad` (MulBackward1)."""
    return dual.mul_scalar(g, c)


@op("var", "VarBackward0", variants=("function", "method"), saves=("self",), cast_result=False,
    self=_var_grad)
def var(self, dim, keepdim, correction, count):
    return _rounded(_var(self, dim, keepdim, correction, count), self.dtype)


def _var(x, dim, keepdim, correction, count, two_pass=True):
    """The variance in double, as PyTorch's CPU kernels compute it (then rounded once: _rounded): a float or
    double tensor reduced to one number takes two passes (std_var_all_cpu: the deviations from x.mean(),
    their squares summed one by one in each thread's slice, the slices' sums added); anything else, and
    var_mean (two_pass=False), the running mean and sum of squared deviations of Welford's algorithm
    (_welford). Divided by max(count - correction, 0): nan or inf when that is 0, as in PyTorch (which
    warns, in Tensor.var); numpy's own warnings stay out."""
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if x.dtype.kind == "c":
            # PyTorch's: the real part's variance plus the imaginary part's, each rounded to the real dtype
            # first and added there (a float32 sum may overflow to inf)
            real = x.real.dtype
            return (_rounded(_var(x.real, dim, keepdim, correction, count, two_pass), real)
                    + _rounded(_var(x.imag, dim, keepdim, correction, count, two_pass), real))
        if not count:
            return np.full(np.add.reduce(x, axis=dim, keepdims=keepdim).shape, np.nan)
        if two_pass and x.dtype in (_F32, _F64) and x.size == count:
            mean = float(OPS["mean"].forward(x, x.shape, count))
            squares = 0.0
            for part in _thread_slices(_walk(x, None)[0]):
                d = part.astype(_F64) - mean
                squares = squares + np.cumsum(d * d)[-1]      # (cumsum: one by one, as C's loop adds)
            return np.asarray(squares / max(0.0, count - correction)).reshape(
                np.add.reduce(x, axis=dim, keepdims=keepdim).shape)
        _, m2, n = _welford(x, dim, keepdim)
        return m2 / (n - correction if n > correction else 0.0)


_GRAIN = 32768      # ATen's GRAIN_SIZE: below it a reduction runs on one thread


def _thread_slices(flat):
    """A reduction's numbers (1-d, in visiting order) as ATen's parallel_for splits them among threads:
    equal slices of at least the grain, one per thread."""
    n, threads = flat.size, _parallel.get_num_threads()
    if n < _GRAIN or threads == 1:
        return [flat]
    size = -(-n // min(threads, -(-n // _GRAIN)))
    return [flat[b:b + size] for b in range(0, n, size)]


def _walk(x, dim):
    """x's numbers as PyTorch's reduction visits them: (outputs, count), the reduced dims in memory order
    (TensorIterator's: the smallest stride innermost), and the kept dims' shape."""
    dims = tuple(range(x.ndim)) if dim is None else tuple(d % x.ndim for d in np.atleast_1d(dim))
    order = sorted(dims, key=lambda d: -abs(x.strides[d]) if x.shape[d] > 1 else 0)
    kept = [d for d in range(x.ndim) if d not in dims]
    shape = [x.shape[d] for d in kept]
    count = int(np.prod([x.shape[d] for d in dims]))
    return np.moveaxis(x, kept + order, list(range(x.ndim))).reshape(shape + [count]), shape


def _welford_steps(values, mean=0.0, m2=0.0, n=0):
    """PyTorch's WelfordOps.reduce over Python floats (doubles), one number at a time."""
    for v in values:
        n += 1
        delta = v - mean
        mean = mean + delta / n
        m2 = m2 + delta * (v - mean)
    return mean, m2, float(n)


def _welford_combine(a, b):
    """WelfordOps.combine: two threads' partial results."""
    if a[2] == 0:
        return b
    if b[2] == 0:
        return a
    delta = b[0] - a[0]
    count = a[2] + b[2]
    share = b[2] / count
    return a[0] + delta * share, a[1] + b[1] + delta * delta * a[2] * share, count


def _welford(x, dim, keepdim):
    """(mean, m2, count) in double as PyTorch's Welford kernel (binary_kernel_reduce) computes them: each
    output's numbers one by one in visiting order; one output alone is split among threads above the grain
    and the slices' results combined. (Python floats: the same IEEE doubles as C's.)"""
    flat, shape = _walk(x, dim)
    outputs = int(np.prod(shape))
    count = flat.shape[-1]
    if outputs <= 8:
        rows = flat.reshape(outputs, count)
        results = []
        for row in rows:
            acc = (0.0, 0.0, 0.0)
            for part in (_thread_slices(row) if outputs == 1 else [row]):
                acc = _welford_combine(acc, _welford_steps(part.tolist()))
            results.append(acc)
        mean = np.array([r[0] for r in results]).reshape(shape)
        m2 = np.array([r[1] for r in results]).reshape(shape)
    else:                       # many outputs: the same steps, all outputs at once
        mean, m2 = np.zeros(flat.shape[:-1]), np.zeros(flat.shape[:-1])
        for k in range(count):
            v = flat[..., k].astype(_F64)
            delta = v - mean
            mean = mean + delta / (k + 1)
            m2 = m2 + delta * (v - mean)
    if keepdim:
        dims = tuple(range(x.ndim)) if dim is None else tuple(d % x.ndim for d in np.atleast_1d(dim))
        mean, m2 = np.expand_dims(mean, dims), np.expand_dims(m2, dims)
    return np.asarray(mean), np.asarray(m2), float(count)


def _rounded(v, dtype):
    """A float64 result in the input's dtype (a complex one's real dtype): half through float, as torch's
    double -> Half does."""
    dtype = np.empty(0, dtype).real.dtype
    if dtype == _F16:
        return v.astype(_F32).astype(_F16)
    return v.astype(dtype, copy=False) if dtype.kind == "f" else v


@shows("2 / (count - correction) * restore_dims(grad / (2 * result), dim, keepdim) * (self - self.mean(dim, keepdim=True))")
def _std_grad(g, n):
    """torch's std_backward: var_backward of (grad / (result * 2)).masked_fill_(result == 0, 0)."""
    r = n.result
    return _var_grad(dual.zero_where(r == 0, g / dual.mul_scalar(r, 2)), n)


@op("std", "StdBackward0", variants=("function", "method"), saves=("self", "result"), cast_result=False,
    self=_std_grad)
def std(self, dim, keepdim, correction, count):
    with np.errstate(invalid="ignore"):
        return _rounded(np.sqrt(_var(self, dim, keepdim, correction, count)), self.dtype)


@shows("restore_dims(grad, dim, keepdim) * self * abs(self) ** (p - 2) / restore_dims(result, dim, keepdim) ** (p - 1)")
def _norm_grad(g, n):
    x, r = n.self, _restore(n.result, n)
    if n.p == 0:            # counting nonzeros is flat: PyTorch leaves the gradient undefined (.grad stays None)
        return None
    return norm_backward(_restore(g, n), x, n.p, r, n.dim)


def norm_backward(g, x, p, r, dims):
    """PyTorch's norm_backward, op for op, with g and the norm r already shaped to broadcast against x:
    p = 2: grad * (self / norm), 0 where the norm is 0; p = 1: self.sgn() * grad; p = inf: self.sgn() times grad
    shared by the entries at the maximum (a nan one is one); else self.sgn() * |self|^(p - 1) (self * |self|^(p - 2)
    for p > 2), times grad / norm^(p - 1) with 0 where the norm is 0 (for p < 1: 0 where self is 0, times grad *
    norm^(1 - p))."""
    if p == 2:
        return g * dual.zero_where(r == 0, x / r)                # (PyTorch's masked_fill_)
    if p == 1:
        return _sgn_times(x, g)
    if abs(p) == float("inf"):
        hits = (abs(x) == r) | (x != x)
        return _sgn(x) * (g / dual.sum_keepdim(hits, dims) * hits)
    if p < 1:
        return _sgn(x) * dual.zero_where(x == 0, abs(x) ** (p - 1)) * g * r ** (1 - p)
    scale = dual.zero_where(r == 0, g / r ** (p - 1))
    return (_sgn(x) * abs(x) ** (p - 1) if p < 2 else x * abs(x) ** (p - 2)) * scale


def _sgn(x):
    """self.sgn(): sign(x), or x / |x| for a complex x."""
    return dual.call("sgn", x)


def _sgn_times(x, g):
    """p = 1's gradient: PyTorch's self.sgn() * grad (on arrays sign(x) * g, the same numbers)."""
    return dual.call("sgn", x) * g if isinstance(x, dual.Tensor) else g * dual.sign(x)


@op("norm", "LinalgVectorNormBackward0", variants=("function", "method"), saves=("self", "result"), float_result=True,
    cast_result=False,                  # (a complex tensor's norm is real)
    self=_norm_grad)
def norm(self, p, dim, keepdim):
    if self.dtype == _F16:              # (PyTorch's norm kernel accumulates a half tensor in float)
        return norm.forward(self.astype(_F32), p, dim, keepdim).astype(_F16)
    a = np.abs(self)
    if p == 2:
        return np.sqrt(np.sum(a * a, axis=dim, keepdims=keepdim))
    if p == float("inf"):
        return np.max(a, axis=dim, keepdims=keepdim)
    if p == -float("inf"):
        return np.min(a, axis=dim, keepdims=keepdim)
    if p == 0:
        return np.sum(a != 0, axis=dim, keepdims=keepdim).astype(a.dtype)
    return np.sum(a ** p, axis=dim, keepdims=keepdim) ** (1.0 / p)


def _dist_grad(sign):
    """PyTorch's norm_backward of self - other (DistBackward0): the norm's gradient at the difference."""
    def formula(g, n):
        x, r, p = n.self - n.other, n.result, n.p
        if p == 0:
            out = x * 0.0
        else:
            out = norm_backward(g, x, p, r, tuple(range(np.ndim(dual.data(x)))))
        return out if sign > 0 else -out
    formula.shows = ("" if sign > 0 else "-") + "grad * (self - other) * abs(self - other) ** (p - 2) / result ** (p - 1)"
    return formula


@op("dist", "DistBackward0", ("self", "other"), variants=("function", "method"), saves=("self", "other", "result"),
    check=sub_check, cast_result=False,     # (a norm: real for complex inputs too)         # (PyTorch's dist is norm(self - other): the subtraction's check comes first)
    self=_dist_grad(1), other=_dist_grad(-1))
def dist(self, other, p=2):
    """torch.dist: the p-norm of self - other (broadcast), over all elements."""
    try:
        np.broadcast_shapes(self.shape, other.shape)
    except ValueError:
        raise broadcast_error(self.shape, other.shape) from None
    if self.dtype.kind not in "fc":
        raise RuntimeError("norm(): input dtype should be either floating point or complex. Got "
                           f"{from_numpy_dtype(self.dtype)._legacy[:-len('Tensor')]} instead.")
    return norm.forward(np.subtract(self, other), p, None, False)


@op("logsumexp", "LogsumexpBackward0", variants=("function", "method"), saves=("self", "result"), float_result=True,
    shows={"self": "restore_dims(grad, dim, keepdim) * exp(self - restore_dims(result, dim, keepdim)).conj()"},
    self=lambda g, n: _restore(g, n) * dual.conj(dual.exp(n.self - _restore(n.result, n))))
def logsumexp(self, dim, keepdim):
    if self.size == 0:                  # a sum of nothing: log(0) = -inf
        with np.errstate(divide="ignore"):
            return np.log(np.zeros(np.add.reduce(self, axis=dim, keepdims=keepdim).shape, self.dtype))
    # complex: shifted by the largest real part, as PyTorch (a complex shift would move log's branch by 2 pi j)
    m = np.max(self.real if self.dtype.kind == "c" else self, axis=dim, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    out = np.log(np.sum(np.exp(self - m), axis=dim, keepdims=True)) + m
    return out if keepdim else np.squeeze(out, axis=dim)


@op("cumsum", "CumsumBackward0", variants=("function", "method", "inplace"), cast_result=False,
    shows={"self": "grad.flip(dim).cumsum(dim).flip(dim) if grad.dim() else grad"},
    self=lambda g, n: dual.flip(dual.cumsum(dual.flip(g, n.dim), n.dim), n.dim) if np.ndim(dual.data(g)) else g)
def cumsum(self, dim):
    if self.ndim == 0:                 # (numpy would give a 1-d result)
        return self.astype(_sum_dtype(self) or self.dtype, copy=True)
    if self.dtype in _CPU_ACC_TYPE:
        # (PyTorch's running sum is kept in the CPU acc_type: float for half, double for float, complex<double>
        # for complex<float>; each step rounded to the dtype)
        return np.ascontiguousarray(np.cumsum(self, axis=dim, dtype=_CPU_ACC_TYPE[self.dtype]) + 0).astype(self.dtype)
    out = np.ascontiguousarray(np.cumsum(self, axis=dim, dtype=_sum_dtype(self)))    # (contiguous, as in PyTorch)
    if out.dtype.kind in "fc":
        out += 0        # PyTorch's running sum starts at +0, so a -0 never comes out (numpy starts at the first -0)
    return out


# --- var_mean, std_mean, nansum -----------------------------------------------------------------

def _mean_part(g, n):
    """mean_backward: the mean's gradient expanded to the input and divided by the count."""
    return _div_number(_expand_to_input(g, n), max(n.count, 1))


def _std_of(x, n):
    if isinstance(x, dual.Tensor):
        dims = tuple(range(x.dim())) if n.dim is None else n.dim
        return x.std(dims, correction=n.correction, keepdim=n.keepdim) if x.dim() else x.std(correction=n.correction)
    return _rounded(np.sqrt(_var(x, n.dim, n.keepdim, n.correction, n.count)), x.dtype)


@shows("%s + %s.expand(self_sizes) / count" % (
    _var_grad.shows.replace("grad,", "grads[0],"), "restore_dims(grads[1], dim, keepdim)"))
def _var_mean_grad(g, n):
    g_var, g_mean = g
    return _var_grad(g_var, n) + _mean_part(g_mean, n)


@shows("restore_dims(grads[0], dim, keepdim) * (self - self.mean(dim, keepdim=True)) / ((count - correction) * "
       "self.std(dim, correction=correction, keepdim=True)) + restore_dims(grads[1], dim, keepdim).expand(self_sizes) / count")
def _std_mean_grad(g, n):
    g_std, g_mean = g
    r = dual.saved_output(n, 0, arrays=True)   # (PyTorch's std_mean_backward reads the std it returned)
    undefined = getattr(n, "_undefined", (False, False))
    # (PyTorch's: std_backward for a defined grads[0], plus mean_backward for a defined grads[1])
    grad = None if undefined[0] else _var_grad(dual.zero_where(r == 0, g_std / dual.mul_scalar(r, 2)), n)
    if undefined[1]:
        return grad
    return _mean_part(g_mean, n) if grad is None else grad + _mean_part(g_mean, n)


def _welford_mean(x, dim, keepdim, count):
    """var_mean's mean: Welford's running mean in double (_welford), rounded once."""
    if not count:       # (nan in both parts of a complex mean)
        nan = complex(np.nan, np.nan) if x.dtype.kind == "c" else np.nan
        return np.full(np.add.reduce(x, axis=dim, keepdims=keepdim).shape, nan, x.dtype)
    if x.dtype.kind == "c":      # (PyTorch's: the real part's mean and the imaginary part's, each Welford's)
        real = _welford_mean(x.real, dim, keepdim, count)
        out = np.empty(real.shape, x.dtype)
        out.real, out.imag = real, _welford_mean(x.imag, dim, keepdim, count)
        return out
    with np.errstate(invalid="ignore", over="ignore"):
        return _rounded(_welford(x, dim, keepdim)[0], x.dtype)


@op("var_mean", "VarMeanBackward0", variants=("function",), saves=("self",), num_outputs=2, cast_result=False,
    self=_var_mean_grad)
def var_mean(self, dim, keepdim, correction, count, self_sizes):
    return (_rounded(_var(self, dim, keepdim, correction, count, two_pass=False), self.dtype),
            _welford_mean(self, dim, keepdim, count))


@op("std_mean", "StdMeanBackward0", variants=("function",), saves=("self",), num_outputs=2,
    saves_outputs=(0,), cast_result=False,
    self=_std_mean_grad)
def std_mean(self, dim, keepdim, correction, count, self_sizes):
    with np.errstate(invalid="ignore"):
        std = _rounded(np.sqrt(_var(self, dim, keepdim, correction, count, two_pass=False)), self.dtype)
    return std, _welford_mean(self, dim, keepdim, count)


@op("nansum", "NansumBackward0", variants=("function", "method"), saves=("self",), cast_result=False,
    shows={"self": "restore_dims(grad, dim, keepdim).expand(self_sizes) * ~isnan(self)"},
    self=lambda g, n: _expand_to_input(g, n) * dual.like(g, ~np.isnan(dual.data(n.self))))
def nansum(self, dim, keepdim, self_sizes):
    """The sum with nan counted as 0 (torch's formula: grad expanded, 0 where self is nan)."""
    if self.dtype.kind in "fc":
        self = np.where(np.isnan(self), self.dtype.type(0), self)
    # (PyTorch's nansum is sum's cascade with the nans skipped: the same order as sum's)
    return add_reduce(self, axis=dim, keepdims=keepdim, dtype=_sum_dtype(self))


def _split_among_ties(g, x, extreme, n):
    hits = x == _restore(extreme, n)
    return _restore(g, n) / dual.sum_keepdim(hits, n.dim) * hits


def _extremes_of(x, n):
    if isinstance(x, dual.Tensor):
        return x.amin(n.dim, n.keepdim), x.amax(n.dim, n.keepdim)
    return np.min(x, axis=n.dim, keepdims=n.keepdim), np.max(x, axis=n.dim, keepdims=n.keepdim)


@shows(" + ".join("where(self == {0}, {1} / (self == {0}).sum(dim, keepdim=True), 0)".format(
    extreme, "restore_dims(%s, dim, keepdim)" % grad)
    for extreme, grad in (("self.amin(dim, keepdim=True)", "grads[0]"), ("self.amax(dim, keepdim=True)", "grads[1]"))))
def _aminmax_grad(g, n):
    """Each of min and max shares its gradient evenly among the inputs that tie for it (as amin/amax). PyTorch's
    aminmax_backward reads the saved min and max (not recomputed: changed through .data, they are what it
    compares self with, a lost tie giving 0 / 0)."""
    guards = n._guards
    if guards is not None and all(s.array is not None for s in guards):
        lo, hi = (s.array for s in guards)
    else:
        lo, hi = _extremes_of(n.self, n)
    # (an output that got no gradient is left out, as PyTorch's undefined grad_min or grad_max: its 0 / 0 too)
    undefined = getattr(n, "_undefined_outputs", (False, False))
    parts = [_split_among_ties(gi, n.self, extreme, n) for gi, extreme, skip in zip(g, (lo, hi), undefined) if not skip]
    return parts[0] if len(parts) == 1 else parts[0] + parts[1]


@op("aminmax", "AminmaxBackward0", variants=("function", "method"), saves=("self",), num_outputs=2,
    saves_outputs=(0, 1),
    self=_aminmax_grad)
def aminmax(self, dim, keepdim):
    return np.min(self, axis=dim, keepdims=keepdim), np.max(self, axis=dim, keepdims=keepdim)


# --- logcumsumexp, renorm, pdist --------------------------------------------------------------------

def _log_add_exp(x, y):
    """PyTorch's CPU kernel's step (in double): log(exp(x) + exp(y)), a nan in y kept, two equal infinities kept."""
    with np.errstate(invalid="ignore", over="ignore"):
        lo = np.where(np.isnan(y), y, np.minimum(x, y))
        hi = np.where(np.isnan(y), y, np.maximum(x, y))
        return np.where((lo != hi) | np.isfinite(lo), np.log1p(np.exp(lo - hi)) + hi, x)


def _log_add_exp_complex(x, y):
    """The complex step (PyTorch's _log_add_exp_helper): ordered by real part; a nan anywhere gives nan + nanj,
    two equal infinite real parts -inf (the smaller) or log(exp + exp)."""
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        swap = y.real < x.real
        lo, hi = np.where(swap, y, x), np.where(swap, x, y)
        nan = np.isnan(x) | np.isnan(y)
        same_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
        out = np.log1p(np.exp(lo - hi)) + hi
        out = np.where(same_inf, np.where(lo.real < 0, lo, np.log(np.exp(lo) + np.exp(hi))), out)
        return np.where(nan, complex(np.nan, np.nan), out)


def _reverse_logcumsumexp(x, dim):
    return dual.flip(dual.call("logcumsumexp", dual.flip(x, (dim,)), dim=dim), (dim,))


@shows("grad if grad.dim() == 0 or grad.numel() == 0 else (lambda lp, ln, r, x, d, exp, flip, lcse: "
       "exp(flip(lcse(flip(lp - r, [d]), d), [d]) + x) - exp(flip(lcse(flip(ln - r, [d]), d), [d]) + x))("
       "where(grad > 0, log(abs(grad)), float('-inf')), where(grad < 0, log(abs(grad)), float('-inf')), result, self, "
       "dim, exp, flip, logcumsumexp)")
def _logcumsumexp_grad(g, n):
    """PyTorch's logcumsumexp_backward (TensorFlow's): the positive and negative parts of grad, each summed from the
    end in log space, so that no exp overflows."""
    if np.ndim(dual.data(g)) == 0 or np.size(dual.data(g)) == 0:
        return g
    lowest = np.finfo(dual.data(g).dtype).min
    with np.errstate(divide="ignore"):
        log_abs_grad = dual.log(abs(g))
    pos = dual.where(g > 0, log_abs_grad, lowest)
    neg = dual.where(g < 0, log_abs_grad, lowest)
    out_pos = dual.exp(_reverse_logcumsumexp(pos - n.result, n.dim) + n.self)
    out_neg = dual.exp(_reverse_logcumsumexp(neg - n.result, n.dim) + n.self)
    return out_pos - out_neg


@op("logcumsumexp", "LogcumsumexpBackward0", variants=("function", "method"), saves=("self", "result"), float_result=True,
    self=_logcumsumexp_grad)
def logcumsumexp(self, dim):
    """log(cumsum(exp(self))) along dim, as PyTorch's CPU kernel: one log-add-exp step at a time, in double."""
    if self.ndim == 0:
        return self.copy()
    x = np.moveaxis(self, dim, 0)
    complex_ = self.dtype.kind == "c"
    wide = np.complex128 if complex_ else np.float64
    step = _log_add_exp_complex if complex_ else _log_add_exp
    out = np.empty(x.shape, self.dtype)
    acc = np.full(x.shape[1:], -np.inf, wide)
    for i in range(x.shape[0]):
        acc = step(x[i].astype(wide), acc)
        out[i] = acc
    return np.ascontiguousarray(np.moveaxis(out, 0, dim))


def _renorm_norm(x, p, dim):
    others = tuple(d for d in range(x.ndim) if d != dim)
    return dual.like(x, norm.forward(dual.data(x), p, others, True))


@shows("(lambda x, g, m, p, o, where, abs: (lambda r, go: where(r > m, m / (r + 1e-7) * g - m / (r + 1e-7) ** 2 * "
       "(x * abs(x) ** (p - 2) * go / r ** (p - 1)), g))(x.norm(p, o, True), (x * g).sum(o, True)))(self, grad, "
       "maxnorm, p, tuple(range(dim)) + tuple(range(dim + 1, self.dim())), where, abs)")
def _renorm_grad(g, n):
    """PyTorch's renorm_backward, op for op: the rows that were scaled get the scale's gradient too,
    where(norm > maxnorm, factor * (grad - invnorm * norm_backward((self * grad).sum(others), ...)), grad)."""
    x, p = n.self, n.p
    others = tuple(d for d in range(np.ndim(dual.data(x))) if d != n.dim)
    if isinstance(x, dual.Tensor):      # (linalg_vector_norm: LinalgVectorNormBackward0 in a graph of the gradient)
        r = OPS["norm"](x, p=p, dim=others, keepdim=True)
    else:
        r = _renorm_norm(x, p, n.dim)
    go = dual.sum_keepdim(dual.conj(x) * g, others)
    nb = norm_backward(go, x, p, r, others)
    shifted = dual.add_scalar(r, 1e-7)
    invnorm = shifted.reciprocal() if isinstance(shifted, dual.Tensor) else 1 / shifted
    factor = dual.mul_scalar(invnorm, n.maxnorm)
    return dual.where(r > n.maxnorm, factor * (g - invnorm * nb), g)


@op("renorm", "RenormBackward0", variants=("function", "method", "inplace"), saves=("self",), self=_renorm_grad)
def renorm(self, p, dim, maxnorm):
    """Each slice along dim whose p-norm exceeds maxnorm scaled down to norm maxnorm (1e-7 added to the norm)."""
    r = _renorm_norm(self, p, dim)
    t = self.dtype.type if self.dtype.kind == "f" else np.float32
    factor = np.where(r > t(maxnorm), t(maxnorm) / (r + t(1e-7)), t(1)).astype(r.dtype)
    return (self * factor).astype(self.dtype, copy=False)


def _pdist_pairs(n_rows):
    rows, cols = np.triu_indices(n_rows, 1)
    return rows, cols


@shows("(lambda x, g, p, t, zeros, where, abs, sign: (lambda G, d: (G.unsqueeze(-1) * where(d == 0, 0 * d, sign(d) * "
       "abs(d) ** (p - 1) / (abs(d) ** p).sum(-1, True) ** ((p - 1) / p))).sum(1))((lambda G: G + G.mT)(zeros("
       "x.shape[0], x.shape[0], dtype=x.dtype).index_put((t[0], t[1]), g)), x.unsqueeze(1) - x.unsqueeze(0)))(self, "
       "grad, p, triu_indices(self.shape[0], self.shape[0], 1), zeros, where, abs, sign)")
def _pdist_grad(g, n):
    """PyTorch's _pdist_backward: each pair's norm gradient added to its first row and taken from its second.
    (PyTorch has no derivative of it: in a graph of the gradient its node, PdistBackwardBackward0, raises.)"""
    if isinstance(g, dual.Tensor):
        return OPS["_pdist_backward"](g, n.self, n.result, p=n.p)
    return _pdist_backward.forward(g, n.self, n.result, n.p)


def _pdist_not_implemented(g, n):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


@op("_pdist_backward", "PdistBackwardBackward0", ("grad", "self", "pdist"), saved_params=(),
    shows={"grad": "the derivative for '_pdist_backward' is not implemented.",
           "self": "the derivative for '_pdist_backward' is not implemented.",
           "pdist": "the derivative for '_pdist_backward' is not implemented."},
    grad=_pdist_not_implemented, self=_pdist_not_implemented, pdist=_pdist_not_implemented)
def _pdist_backward(grad, self, pdist, p):
    x, r, gd = self, pdist, grad
    rows, cols = _pdist_pairs(x.shape[0])
    diff = x[rows] - x[cols]
    gk, rk = gd[:, None], r[:, None]
    with np.errstate(divide="ignore", invalid="ignore"):
        if p == 0:
            part = np.zeros_like(diff)
        elif p == 1:
            part = np.sign(diff) * gk
        elif p == 2:
            part = np.where(rk == 0, 0, diff * gk / rk)
        elif p == float("inf"):
            part = np.sign(diff) * (np.abs(diff) == rk) * gk
        elif p < 2:
            part = np.where((rk == 0) | (diff == 0), 0, np.sign(diff) * np.abs(diff) ** (p - 1) * gk / rk ** (p - 1))
        else:
            part = np.where(rk == 0, 0, diff * np.abs(diff) ** (p - 2) * gk / rk ** (p - 1))
    out = np.zeros_like(x)
    np.add.at(out, rows, part.astype(x.dtype))
    np.add.at(out, cols, -part.astype(x.dtype))
    return out


@op("pdist", "PdistBackward0", saves=("self", "result"), variants=("function",), self=_pdist_grad)
def pdist(self, p):
    """The p-norm distances between the rows of a matrix, for each pair i < j, row by row."""
    rows, cols = _pdist_pairs(self.shape[0])
    diff = np.abs(self[rows] - self[cols])
    if p == 0:
        return np.sum(diff != 0, axis=1).astype(self.dtype)
    if p == float("inf"):
        return np.max(diff, axis=1, initial=0).astype(self.dtype)
    if p == 2:
        return np.sqrt(np.sum(diff * diff, axis=1)).astype(self.dtype)
    if p == 1:
        return np.sum(diff, axis=1).astype(self.dtype)
    return (np.sum(diff ** p, axis=1) ** (1.0 / p)).astype(self.dtype)
