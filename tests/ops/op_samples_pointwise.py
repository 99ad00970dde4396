"""Sample inputs of the pointwise ops (registered into op_samples.SAMPLES; see op_samples.py).

Issue 17's pointwise and shape ops: atan2, hypot, frac, nan_to_num, the scatter family (scatter,
scatter_add, index_add, index_copy, masked_select, masked_scatter, take and the ops their gradients
use), var_mean/std_mean, nansum, aminmax and the views taken in place (t_, transpose_, ...)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import (Case, _p3_grad_of, away_from_zero, dim_of, distinct, pick, rng, sample, shape,  # noqa: F401
                        uniform)


# --- elementwise ----------------------------------------------------------------------------------

@sample("atan2")
def _atan2(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, y, x: y.atan2(x), lambda T, y, x: T.atan2(y, x), lambda T, y, x: T.arctan2(y, x)])
    return Case(fn, [uniform(draw, shp), away_from_zero(draw, shp)])


@sample("hypot")
def _hypot(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, a, b: a.hypot(b), lambda T, a, b: T.hypot(a, b)])
    return Case(fn, [away_from_zero(draw, shp), away_from_zero(draw, shp)])


@sample("frac")
def _frac(draw):
    shp = shape(draw)
    vals = np.floor(uniform(draw, shp, -3, 3)) + uniform(draw, shp, 0.2, 0.8)     # away from integers
    return Case(pick(draw, [lambda T, x: x.frac(), lambda T, x: T.frac(x)]), [vals])


@sample("nan_to_num")
def _nan_to_num(draw):
    fn = pick(draw, [lambda T, x: x.nan_to_num(), lambda T, x: T.nan_to_num(x, nan=1.0, posinf=2.0),
                     lambda T, x: x.nan_to_num(neginf=-5.0)])
    return Case(fn, [uniform(draw, shape(draw))])


# --- scatter and friends --------------------------------------------------------------------------

def _permutation_index(draw, shp, dim):
    """Distinct positions along dim for every other position: scatter's writes do not overlap."""
    return np.argsort(rng(draw).random(shp), axis=dim)


@sample("scatter")
def _scatter(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = _permutation_index(draw, shp, dim)
    fn = pick(draw, [lambda T, x, s: x.scatter(dim, T.tensor(idx), s), lambda T, x, s: T.scatter(x, dim, T.tensor(idx), s),
                     lambda T, x, s: (x * 1).scatter_(dim, T.tensor(idx), s)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("scatter_value")
def _scatter_value(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = rng(draw).integers(0, shp[dim], shp)
    fn = pick(draw, [lambda T, x: x.scatter(dim, T.tensor(idx), 2.5), lambda T, x: x.scatter(dim, T.tensor(idx), value=-1),
                     lambda T, x: (x * 1).scatter_(dim, T.tensor(idx), 0.5)])
    return Case(fn, [uniform(draw, shp)])


@sample("scatter_add_src")
def _scatter_add_src(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    idx = rng(draw).integers(0, shp[dim], shp)
    fn = pick(draw, [lambda T, x, s: x.scatter_add(dim, T.tensor(idx), s),
                     lambda T, x, s: T.scatter_add(x, dim, T.tensor(idx), s),
                     lambda T, x, s: (x * 1).scatter_add_(dim, T.tensor(idx), s)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


def _scatter_reduce_sample(reduce):
    def draw_case(draw):
        shp = shape(draw, min_dims=1)
        dim = dim_of(draw, shp)
        idx = rng(draw).integers(0, shp[dim], shp)
        include_self = draw(st.booleans())
        fn = pick(draw, [lambda T, x, s: x.scatter_reduce(dim, T.tensor(idx), s, reduce, include_self=include_self),
                         lambda T, x, s: T.scatter_reduce(x, dim, T.tensor(idx), s, reduce, include_self=include_self),
                         lambda T, x, s: (x * 1).scatter_reduce_(dim, T.tensor(idx), s, reduce,
                                                                 include_self=include_self)])
        # (away from 0, where prod's gradient has its special case, and from ties of amax/amin: the ranges differ,
        # as two draws may give the same numbers)
        return Case(fn, [distinct(draw, shp, 0.5, 2.0), distinct(draw, shp, 0.6, 2.3)])
    return draw_case


def _index_reduce_sample(reduce):
    def draw_case(draw):
        shp = shape(draw, min_dims=1)
        dim = dim_of(draw, shp)
        n = draw(st.integers(1, 4))
        idx = rng(draw).integers(0, shp[dim], n)
        src_shape = shp[:dim % len(shp)] + (n,) + shp[dim % len(shp) + 1:]
        include_self = draw(st.booleans())
        fn = pick(draw, [lambda T, x, s: x.index_reduce(dim, T.tensor(idx), s, reduce, include_self=include_self),
                         lambda T, x, s: (x * 1).index_reduce_(dim, T.tensor(idx), s, reduce, include_self=include_self)])
        return Case(fn, [distinct(draw, shp, 0.5, 2.0), distinct(draw, src_shape, 2.5, 4.0)])
    return draw_case


for _reduce in ("sum", "prod", "mean", "amax", "amin"):
    sample(f"scatter_reduce_{_reduce}")(_scatter_reduce_sample(_reduce))
    if _reduce != "sum":
        sample(f"index_reduce_{_reduce}")(_index_reduce_sample(_reduce))


@sample("index_add_alpha")
def _index_add_alpha(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    n = draw(st.integers(1, 4))
    idx = rng(draw).integers(0, shp[dim], n)
    src_shape = shp[:dim % len(shp)] + (n,) + shp[dim % len(shp) + 1:]
    fn = pick(draw, [lambda T, x, s: x.index_add(dim, T.tensor(idx), s),
                     lambda T, x, s: x.index_add(dim, T.tensor(idx), s, alpha=2.5),
                     lambda T, x, s: (x * 1).index_add_(dim, T.tensor(idx), s, alpha=-1)])
    return Case(fn, [uniform(draw, shp), uniform(draw, src_shape)])


@sample("index_copy")
def _index_copy(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp) % len(shp)
    n = draw(st.integers(1, shp[dim]))
    idx = rng(draw).permutation(shp[dim])[:n]
    src_shape = shp[:dim] + (n,) + shp[dim + 1:]
    fn = pick(draw, [lambda T, x, s: x.index_copy(dim, T.tensor(idx), s),
                     lambda T, x, s: (x * 1).index_copy_(dim, T.tensor(idx), s)])
    return Case(fn, [uniform(draw, shp), uniform(draw, src_shape)])


@sample("index_fill_along")
def _index_fill_along(draw):
    # index_copy's gradient for self: grad.index_fill(dim, index, 0)
    shp = shape(draw, min_dims=1)
    idx = rng(draw).permutation(shp[0])[:1]
    return Case(_p3_grad_of(lambda T, x: x.index_copy(0, T.tensor(idx), x[:1] * 0)),
                [uniform(draw, shp), uniform(draw, shp)])


def _mask(draw, shp):
    return rng(draw).random(shp) < 0.5


@sample("masked_select")
def _masked_select(draw):
    shp = shape(draw, min_dims=1)
    mask = _mask(draw, shp[draw(st.integers(0, len(shp) - 1)):])        # (broadcast over the leading dims)
    fn = pick(draw, [lambda T, x: x.masked_select(T.tensor(mask)), lambda T, x: T.masked_select(x, T.tensor(mask))])
    return Case(fn, [uniform(draw, shp)])


@sample("masked_scatter")
def _masked_scatter(draw):
    shp = shape(draw, min_dims=1)
    mask = _mask(draw, shp)
    mask.flat[0] = True
    fn = pick(draw, [lambda T, x, s: x.masked_scatter(T.tensor(mask), s),
                     lambda T, x, s: (x * 1).masked_scatter_(T.tensor(mask), s),
                     _p3_grad_of(lambda T, x: x.masked_select(T.tensor(mask)))])      # (masked_select's gradient)
    extra = 0 if fn.__name__ == "fn" else draw(st.integers(0, 2))      # (a gradient is exactly mask.sum() long)
    return Case(fn, [uniform(draw, shp), uniform(draw, (int(mask.sum()) + extra,))])


@sample("take")
def _take(draw):
    shp = shape(draw)
    n = int(np.prod(shp))
    idx = rng(draw).integers(-n, n, draw(st.sampled_from([(3,), (2, 2), ()])))
    return Case(pick(draw, [lambda T, x: x.take(T.tensor(idx)), lambda T, x: T.take(x, T.tensor(idx))]),
                [uniform(draw, shp)])


@sample("put_add")
def _put_add(draw):
    # take's gradient: zeros.put_(index, grad, accumulate=True)
    shp = shape(draw)
    idx = rng(draw).integers(0, int(np.prod(shp)), 3)
    return Case(_p3_grad_of(lambda T, x: x.take(T.tensor(idx))), [uniform(draw, shp), uniform(draw, (3,))])


# --- reductions -----------------------------------------------------------------------------------

def _reduction_args(draw, shp):
    """dim (None, one dim or a tuple) and keepdim, each reduced dim of size >= 2 (a nonzero variance)."""
    choice = draw(st.sampled_from(["all", "one", "tuple"]))
    if choice == "all" or not shp:
        return {}
    dim = dim_of(draw, shp)
    keepdim = draw(st.booleans())
    return {"dim": dim if choice == "one" else (dim,), "keepdim": keepdim}


@sample("var_mean")
def _var_mean(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    kw = _reduction_args(draw, shp)
    correction = draw(st.sampled_from([0, 1]))
    return Case(lambda T, x: T.var_mean(x, **kw, correction=correction), [uniform(draw, shp)])


@sample("std_mean")
def _std_mean(draw):
    shp = shape(draw, min_dims=1, min_side=2)
    kw = _reduction_args(draw, shp)
    fn = pick(draw, [lambda T, x: T.std_mean(x, **kw), lambda T, x: T.std_mean(x, **kw)[0],
                     lambda T, x: T.std_mean(x, **kw)[1]])
    return Case(fn, [uniform(draw, shp)])


@sample("nansum")
def _nansum(draw):
    shp = shape(draw)
    kw = _reduction_args(draw, shp)
    fn = pick(draw, [lambda T, x: x.nansum(**kw), lambda T, x: T.nansum(x, **kw), lambda T, x: T.nanmean(x, **kw)])
    return Case(fn, [uniform(draw, shp)])


@sample("aminmax")
def _aminmax(draw):
    shp = shape(draw)
    if shp and draw(st.booleans()):
        dim, keepdim = dim_of(draw, shp), draw(st.booleans())
        fn = pick(draw, [lambda T, x: x.aminmax(dim=dim, keepdim=keepdim), lambda T, x: T.aminmax(x, dim=dim).max])
    else:
        fn = pick(draw, [lambda T, x: x.aminmax(), lambda T, x: T.aminmax(x).min])
    return Case(fn, [distinct(draw, shp)])


# --- views taken in place -------------------------------------------------------------------------

@sample("t_inplace")
def _t_inplace(draw):
    return Case(lambda T, x: (x * 1).t_(), [uniform(draw, shape(draw, max_dims=2))])


@sample("transpose_inplace")
def _transpose_inplace(draw):
    shp = shape(draw, min_dims=1)
    d0, d1 = dim_of(draw, shp), dim_of(draw, shp)
    return Case(lambda T, x: (x * 1).transpose_(d0, d1), [uniform(draw, shp)])


@sample("unsqueeze_inplace")
def _unsqueeze_inplace(draw):
    shp = shape(draw)
    dim = draw(st.integers(-len(shp) - 1, len(shp)))
    return Case(lambda T, x: (x * 1).unsqueeze_(dim), [uniform(draw, shp)])


@sample("squeeze_all_inplace")
def _squeeze_all_inplace(draw):
    shp = shape(draw, min_side=1, max_side=2)
    return Case(lambda T, x: (x * 1).squeeze_(), [uniform(draw, shp)])


@sample("squeeze_dim_inplace")
def _squeeze_dim_inplace(draw):
    shp = shape(draw, min_dims=1, min_side=1, max_side=2)
    dim = dim_of(draw, shp)
    return Case(lambda T, x: (x * 1).squeeze_(dim), [uniform(draw, shp)])


@sample("squeeze_dims_inplace")
def _squeeze_dims_inplace(draw):
    shp = shape(draw, min_dims=1, min_side=1, max_side=2)
    dims = tuple(sorted(set(draw(st.lists(st.integers(0, len(shp) - 1), min_size=1, max_size=len(shp))))))
    return Case(lambda T, x: (x * 1).squeeze_(dims), [uniform(draw, shp)])
