"""Sample inputs of the conv ops (registered into op_samples.SAMPLES; see op_samples.py): convolution,
max/average/adaptive pooling, padding, and their gradients as ops of their own (create_graph)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import F, Case, pick, rng, sample, shape, uniform  # noqa: F401


def _grad_of(T, y, x, g):
    return T.autograd.grad(y, x, g, create_graph=True)[0]


def _conv_case(draw):
    """(fn(T, x, w[, b]), arrays) for a conv1d or conv2d with drawn parameters."""
    dim = draw(st.sampled_from([1, 2, 2, 3]))
    groups = draw(st.sampled_from([1, 1, 2]))
    cin, cout = groups * draw(st.integers(1, 2)), groups * draw(st.integers(1, 2))
    k = tuple(draw(st.integers(1, 3)) for _ in range(dim))
    s = draw(st.integers(1, 2))
    d = draw(st.integers(1, 2))
    p = draw(st.integers(0, 1))
    size = tuple(draw(st.integers(d * (kk - 1) + 1, 5)) for kk in k)
    batch = draw(st.sampled_from([(), (1,), (2,)]))
    bias = draw(st.booleans())
    conv = f"conv{dim}d"
    arrays = [uniform(draw, batch + (cin,) + size), uniform(draw, (cout, cin // groups) + k)]
    if bias:
        arrays.append(uniform(draw, (cout,)))

    def fn(T, x, w, b=None):
        return getattr(F(T), conv)(x, w, b, stride=s, padding=p, dilation=d, groups=groups)
    return fn, arrays


@sample("convolution", second_order=True)
def _convolution(draw):
    fn, arrays = _conv_case(draw)
    return Case(fn, arrays)


def _distinct(draw, shp):
    """Values that differ pairwise by at least 0.1: no ties for a maximum."""
    n = int(np.prod(shp))
    return (rng(draw).permutation(n).reshape(shp) - n / 2) / 7.0


def _pool_params(draw):
    k = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    s = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    p = (draw(st.integers(0, k[0] // 2)), draw(st.integers(0, k[1] // 2)))
    ceil = draw(st.booleans())
    size = (draw(st.integers(k[0], 6)), draw(st.integers(k[1], 6)))
    lead = draw(st.sampled_from([(2,), (1, 2)]))
    return k, s, p, ceil, lead + size


@sample("max_pool2d")
def _max_pool2d(draw):
    k, s, p, ceil, shp = _pool_params(draw)
    fn = pick(draw, [lambda T, x: F(T).max_pool2d(x, k, s, p, ceil_mode=ceil),
                     lambda T, x: F(T).max_pool2d(x, k, s, p, dilation=(1, 2) if shp[-1] >= 2 * k[1] else 1),
                     lambda T, x: T.nn.MaxPool2d(k, ceil_mode=ceil)(x),
                     lambda T, x: F(T).max_pool1d(x[..., 0, :], k[1], s[1], p[1])])
    return Case(fn, [_distinct(draw, shp)])


@sample("max_pool2d_backward", graph_names=False)
def _max_pool2d_backward(draw):
    k, s, p, ceil, shp = _pool_params(draw)
    x = _distinct(draw, shp)

    def fn(T, g):
        xt = T.tensor(x, dtype=g.dtype, requires_grad=True)
        y = F(T).max_pool2d(xt, k, s, p, ceil_mode=ceil)
        return _grad_of(T, (y * g[..., :y.shape[-2], :y.shape[-1]]).sum(), xt, None)
    return Case(fn, [uniform(draw, shp)])


@sample("adaptive_max_pool2d")
def _adaptive_max_pool2d(draw):
    shp = draw(st.sampled_from([(2, 5, 5), (1, 2, 4, 7), (2, 3, 3)]))
    size = draw(st.sampled_from([1, 2, 3, (2, 4), (None, 2)]))
    return Case(lambda T, x: F(T).adaptive_max_pool2d(x, size), [_distinct(draw, shp)])


@sample("adaptive_max_pool2d_backward", graph_names=False)
def _adaptive_max_pool2d_backward(draw):
    shp = draw(st.sampled_from([(2, 5, 5), (1, 2, 4, 7)]))
    size = draw(st.sampled_from([2, 3, (2, 4)]))
    x = _distinct(draw, shp)

    def fn(T, g):
        xt = T.tensor(x, dtype=g.dtype, requires_grad=True)
        y = F(T).adaptive_max_pool2d(xt, size)
        return _grad_of(T, (y * g[..., :y.shape[-2], :y.shape[-1]]).sum(), xt, None)
    return Case(fn, [uniform(draw, shp)])


@sample("avg_pool2d", second_order=True)
def _avg_pool2d(draw):
    k, s, p, ceil, shp = _pool_params(draw)
    include = draw(st.booleans())
    divisor = draw(st.sampled_from([None, None, 3]))
    fn = pick(draw, [lambda T, x: F(T).avg_pool2d(x, k, s, p, ceil, include, divisor),
                     lambda T, x: T.nn.AvgPool2d(k, padding=p, count_include_pad=include)(x),
                     lambda T, x: F(T).avg_pool1d(x[..., 0, :], k[1], s[1], p[1], ceil, include)])
    return Case(fn, [uniform(draw, shp)])


@sample("avg_pool2d_backward", graph_names=False)
def _avg_pool2d_backward(draw):
    k, s, p, ceil, shp = _pool_params(draw)
    x = uniform(draw, shp)

    def fn(T, x_):
        y = F(T).avg_pool2d(x_, k, s, p, ceil)
        return _grad_of(T, (y * y).sum(), x_, None)
    return Case(fn, [x])


@sample("adaptive_avg_pool2d", second_order=True)
def _adaptive_avg_pool2d(draw):
    shp = draw(st.sampled_from([(2, 5, 5), (1, 2, 4, 7), (2, 3, 3), (2, 6, 6)]))
    size = draw(st.sampled_from([2, 3, (2, 4), (None, 2), (5, 1)]))
    fn = pick(draw, [lambda T, x: F(T).adaptive_avg_pool2d(x, size), lambda T, x: T.nn.AdaptiveAvgPool2d(size)(x),
                     lambda T, x: F(T).adaptive_avg_pool1d(x[0], 3)])
    return Case(fn, [uniform(draw, shp)])


@sample("adaptive_avg_pool2d_backward", graph_names=False)
def _adaptive_avg_pool2d_backward(draw):
    shp = draw(st.sampled_from([(2, 5, 5), (1, 2, 4, 7)]))
    size = draw(st.sampled_from([2, 3, (2, 4)]))
    return Case(lambda T, x: _grad_of(T, (F(T).adaptive_avg_pool2d(x, size) ** 2).sum(), x, None),
                [uniform(draw, shp)])


@sample("constant_pad_nd", second_order=True)
def _constant_pad_nd(draw):
    shp = shape(draw, min_dims=1, max_dims=3, min_side=2)
    pad = tuple(draw(st.integers(-1, 2)) for _ in range(2 * draw(st.integers(1, len(shp)))))
    value = draw(st.sampled_from([0, 1.5]))
    fn = pick(draw, [lambda T, x: F(T).pad(x, pad, value=value), lambda T, x: F(T).pad(x, pad)])
    return Case(fn, [uniform(draw, shp)])


def _index_pad(mode, nd):
    @sample(f"{mode}_pad{nd}d", second_order=True)
    def forward(draw):
        batch = draw(st.sampled_from([(), (2,)]))
        shp = batch + (2,) + tuple(draw(st.integers(3, 4)) for _ in range(nd))
        pad = tuple(draw(st.integers(0, 2)) for _ in range(2 * nd))
        return Case(lambda T, x: F(T).pad(x, pad, mode=mode), [uniform(draw, shp)])

    @sample(f"{mode}_pad{nd}d_backward", graph_names=False)
    def backward(draw):
        shp = (2,) + tuple(draw(st.integers(3, 4)) for _ in range(nd))
        pad = tuple(draw(st.integers(0, 2)) for _ in range(2 * nd))
        return Case(lambda T, x: _grad_of(T, (F(T).pad(x, pad, mode=mode) ** 2).sum(), x, None), [uniform(draw, shp)])


for _mode in ("reflect", "replicate"):
    for _nd in (1, 2, 3):
        _index_pad(_mode, _nd)
