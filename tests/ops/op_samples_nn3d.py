"""Sample inputs of the 3-d pooling, fractional pooling, embedding-bag and grid-sampling ops (registered into
op_samples.SAMPLES; see op_samples.py)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import F, Case, pick, rng, sample, uniform  # noqa: F401


def _grad_of(T, y, x, g):
    return T.autograd.grad(y, x, g, create_graph=True)[0]


def _distinct(draw, shp):
    """Values that differ pairwise by at least 0.1: no ties for a maximum."""
    n = int(np.prod(shp))
    return (rng(draw).permutation(n).reshape(shp) - n / 2) / 7.0


def _pool3d_params(draw):
    k = tuple(draw(st.integers(1, 2)) for _ in range(3))
    s = tuple(draw(st.integers(1, 2)) for _ in range(3))
    p = tuple(draw(st.integers(0, kk // 2)) for kk in k)
    ceil = draw(st.booleans())
    size = tuple(draw(st.integers(kk, 4)) for kk in k)
    lead = draw(st.sampled_from([(2,), (1, 2)]))
    return k, s, p, ceil, lead + size


@sample("max_pool3d")
def _max_pool3d(draw):
    k, s, p, ceil, shp = _pool3d_params(draw)
    fn = pick(draw, [lambda T, x: F(T).max_pool3d(x, k, s, p, ceil_mode=ceil),
                     lambda T, x: T.nn.MaxPool3d(k, ceil_mode=ceil)(x)])
    return Case(fn, [_distinct(draw, shp)])


@sample("max_pool3d_backward", graph_names=False)
def _max_pool3d_backward(draw):
    k, s, p, ceil, shp = _pool3d_params(draw)
    x = _distinct(draw, shp)

    def fn(T, g):
        xt = T.tensor(x, dtype=g.dtype, requires_grad=True)
        y = F(T).max_pool3d(xt, k, s, p, ceil_mode=ceil)
        return _grad_of(T, (y * g[..., :y.shape[-3], :y.shape[-2], :y.shape[-1]]).sum(), xt, None)
    return Case(fn, [uniform(draw, shp[:-3] + tuple(n + 2 for n in shp[-3:]))])     # (ceil_mode: more outputs)


@sample("adaptive_max_pool3d")
def _adaptive_max_pool3d(draw):
    shp = draw(st.sampled_from([(2, 3, 4, 5), (1, 2, 3, 3, 4)]))
    size = draw(st.sampled_from([1, 2, (2, 1, 3), (None, 2, 2)]))
    return Case(lambda T, x: F(T).adaptive_max_pool3d(x, size), [_distinct(draw, shp)])


@sample("adaptive_max_pool3d_backward", graph_names=False)
def _adaptive_max_pool3d_backward(draw):
    shp = draw(st.sampled_from([(2, 3, 4, 5), (1, 2, 3, 3, 4)]))
    x = _distinct(draw, shp)

    def fn(T, g):
        xt = T.tensor(x, dtype=g.dtype, requires_grad=True)
        y = F(T).adaptive_max_pool3d(xt, 2)
        return _grad_of(T, (y * g[..., :2, :2, :2]).sum(), xt, None)
    return Case(fn, [uniform(draw, shp)])


@sample("avg_pool3d", second_order=True)
def _avg_pool3d(draw):
    k, s, p, ceil, shp = _pool3d_params(draw)
    include = draw(st.booleans())
    divisor = draw(st.sampled_from([None, None, 3]))
    fn = pick(draw, [lambda T, x: F(T).avg_pool3d(x, k, s, p, ceil, include, divisor),
                     lambda T, x: T.nn.AvgPool3d(k, padding=p, count_include_pad=include)(x)])
    return Case(fn, [uniform(draw, shp)])


@sample("avg_pool3d_backward", graph_names=False)
def _avg_pool3d_backward(draw):
    k, s, p, ceil, shp = _pool3d_params(draw)
    return Case(lambda T, x: _grad_of(T, (F(T).avg_pool3d(x, k, s, p, ceil) ** 2).sum(), x, None),
                [uniform(draw, shp)])


@sample("adaptive_avg_pool3d", second_order=True)
def _adaptive_avg_pool3d(draw):
    shp = draw(st.sampled_from([(2, 3, 4, 5), (1, 2, 3, 3, 4)]))
    size = draw(st.sampled_from([2, (2, 1, 3), (None, 2, 2)]))
    fn = pick(draw, [lambda T, x: F(T).adaptive_avg_pool3d(x, size), lambda T, x: T.nn.AdaptiveAvgPool3d(size)(x)])
    return Case(fn, [uniform(draw, shp)])


@sample("adaptive_avg_pool3d_backward", graph_names=False)
def _adaptive_avg_pool3d_backward(draw):
    shp = draw(st.sampled_from([(2, 3, 4, 5), (1, 2, 3, 3, 4)]))
    return Case(lambda T, x: _grad_of(T, (F(T).adaptive_avg_pool3d(x, 2) ** 2).sum(), x, None),
                [uniform(draw, shp)])


@sample("max_unpool3d", second_order=True)
def _max_unpool3d(draw):
    x = _distinct(draw, (1, 2, 4, 4, 2))

    def fn(T, v):
        _, i = F(T).max_pool3d(T.tensor(x), 2, return_indices=True)
        return F(T).max_unpool3d(v, i, 2)
    return Case(fn, [uniform(draw, (1, 2, 2, 2, 1))])


def _fractional(nd, draw):
    batch = draw(st.sampled_from([(), (2,)]))
    size = tuple(draw(st.integers(4, 6)) for _ in range(nd))
    out = tuple(draw(st.integers(1, 2)) for _ in range(nd))
    samples = rng(draw).uniform(0, 1, ((batch or (1,))[0], 2, nd))
    return batch + (2,) + size, out, samples


def _fractional_fn(nd, out, samples):
    def fn(T, x):
        pool = getattr(F(T), f"fractional_max_pool{nd}d")
        return pool(x, 2, output_size=out, _random_samples=T.tensor(samples, dtype=x.dtype))
    return fn


for _nd in (2, 3):
    def _register(nd=_nd):
        @sample(f"fractional_max_pool{nd}d")
        def _forward(draw):
            shp, out, samples = _fractional(nd, draw)
            return Case(_fractional_fn(nd, out, samples), [_distinct(draw, shp)])

        @sample(f"fractional_max_pool{nd}d_backward", graph_names=False)
        def _backward(draw):
            shp, out, samples = _fractional(nd, draw)
            x = _distinct(draw, shp)

            def fn(T, g):
                xt = T.tensor(x, dtype=g.dtype, requires_grad=True)
                y = _fractional_fn(nd, out, samples)(T, xt)
                return _grad_of(T, (y * g[(Ellipsis,) + tuple(slice(0, o) for o in out)]).sum(), xt, None)
            return Case(fn, [uniform(draw, shp)])
    _register()


@sample("embedding_bag")
def _embedding_bag(draw):
    r = rng(draw)
    mode = draw(st.sampled_from(["sum", "mean", "max"]))
    idx = r.integers(0, 5, 6)
    offsets = np.array([0, 2, 2, 5])
    pad = draw(st.sampled_from([None, 1]))
    weights = mode == "sum" and draw(st.booleans())
    arrays = [_distinct(draw, (5, 3))] + ([r.uniform(0.5, 2, 6)] if weights else [])

    def fn(T, w, psw=None):
        return F(T).embedding_bag(T.tensor(idx), w, T.tensor(offsets), mode=mode, padding_idx=pad,
                                  per_sample_weights=psw)
    return Case(fn, arrays)


@sample("grid_sampler_2d")
def _grid_sampler_2d(draw):
    mode = draw(st.sampled_from(["bilinear", "nearest", "bicubic"]))
    padding = draw(st.sampled_from(["zeros", "border", "reflection"]))
    corners = draw(st.booleans())
    # (grid points away from the pixel lattice, where bilinear sampling bends)
    grid = rng(draw).uniform(-0.9, 0.9, (2, 3, 2, 2))
    return Case(lambda T, x, g: F(T).grid_sample(x, g, mode, padding, corners), [uniform(draw, (2, 2, 4, 5)), grid])


@sample("grid_sampler_3d")
def _grid_sampler_3d(draw):
    padding = draw(st.sampled_from(["zeros", "border", "reflection"]))
    corners = draw(st.booleans())
    grid = rng(draw).uniform(-0.9, 0.9, (1, 2, 2, 2, 3))
    return Case(lambda T, x, g: F(T).grid_sample(x, g, "bilinear", padding, corners),
                [uniform(draw, (1, 2, 3, 4, 3)), grid])


@sample("affine_grid_generator", second_order=True)
def _affine_grid_generator(draw):
    nd = draw(st.sampled_from([2, 3]))
    size = (2, 1) + tuple(draw(st.integers(1, 4)) for _ in range(nd))
    corners = draw(st.booleans())
    return Case(lambda T, t: F(T).affine_grid(t, size, corners), [uniform(draw, (2, nd, nd + 1))])


@sample("affine_grid_generator_backward", graph_names=False)
def _affine_grid_generator_backward(draw):
    size = (2, 1, 3, 4)
    theta = uniform(draw, (2, 2, 3))

    def fn(T, g):
        t = T.tensor(theta, dtype=g.dtype, requires_grad=True)
        return _grad_of(T, (F(T).affine_grid(t, size, False) * g).sum(), t, None)
    return Case(fn, [uniform(draw, (2, 3, 4, 2))])


@sample("embedding_bag_backward", graph_names=False,
        raises="the derivative for '_embedding_bag_backward' is not implemented.")
def _embedding_bag_backward(draw):
    idx = rng(draw).integers(0, 5, 4)

    def fn(T, w):
        y = F(T).embedding_bag(T.tensor(idx), w, T.tensor([0, 2]), mode="mean")
        return _grad_of(T, (y * y).sum(), w, None)
    return Case(fn, [uniform(draw, (5, 3))])
