"""Sample inputs of the sorting ops (registered into op_samples.SAMPLES; see op_samples.py).

Values are distinct (no ties), so that every pick has a gradient finite differences can check;
tests/ops/test_sorting_parity.py compares the index choices among ties with PyTorch."""
from hypothesis import strategies as st

from op_samples import Case, away_from_zero, dim_of, distinct, pick, sample, shape, uniform  # noqa: F401


@sample("sort")
def _sort(draw):
    shp = shape(draw)
    dim, descending = dim_of(draw, shp), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.sort(dim, descending)[0],
                     lambda T, x: T.sort(x, dim=dim, descending=descending).values, lambda T, x: T.msort(x)])
    return Case(fn, [distinct(draw, shp)])


@sample("sort_stable")
def _sort_stable(draw):
    shp = shape(draw)
    dim, descending, stable = dim_of(draw, shp), draw(st.booleans()), draw(st.sampled_from([True, False, None]))
    fn = pick(draw, [lambda T, x: x.sort(dim=dim, descending=descending, stable=stable)[0],
                     lambda T, x: T.sort(x, stable=stable, dim=dim).values])
    return Case(fn, [distinct(draw, shp)])


@sample("topk")
def _topk(draw):
    shp = shape(draw, min_dims=1)
    dim = dim_of(draw, shp)
    k = draw(st.integers(0, shp[dim]))
    largest, srt = draw(st.booleans()), draw(st.booleans())
    fn = pick(draw, [lambda T, x: x.topk(k, dim, largest, srt)[0],
                     lambda T, x: T.topk(x, k, dim=dim, largest=largest, sorted=srt).values])
    return Case(fn, [distinct(draw, shp)])


@sample("kthvalue")
def _kthvalue(draw):
    shp = shape(draw, min_dims=1)
    dim, keepdim = dim_of(draw, shp), draw(st.booleans())
    k = draw(st.integers(1, shp[dim]))
    fn = pick(draw, [lambda T, x: x.kthvalue(k, dim, keepdim)[0], lambda T, x: T.kthvalue(x, k, dim).values])
    return Case(fn, [distinct(draw, shp)])


def _selection(name):
    def draw_case(draw):
        shp = shape(draw)
        dim, keepdim = dim_of(draw, shp), draw(st.booleans())
        fn = pick(draw, [lambda T, x: getattr(x, name)(dim, keepdim)[0],
                         lambda T, x: getattr(T, name)(x, dim=dim, keepdim=keepdim).values])
        return Case(fn, [distinct(draw, shp)])
    return draw_case


sample("median_dim")(_selection("median"))
sample("nanmedian_dim")(_selection("nanmedian"))
sample("mode")(_selection("mode"))


def _whole(name):
    def draw_case(draw):
        fn = pick(draw, [lambda T, x: getattr(x, name)(), lambda T, x: getattr(T, name)(x)])
        return Case(fn, [distinct(draw, shape(draw))])
    return draw_case


sample("median")(_whole("median"))
sample("nanmedian")(_whole("nanmedian"))


def _cumulative(name):
    def draw_case(draw):
        shp = shape(draw)
        dim = dim_of(draw, shp)
        fn = pick(draw, [lambda T, x: getattr(x, name)(dim)[0], lambda T, x: getattr(T, name)(x, dim=dim).values])
        return Case(fn, [distinct(draw, shp)])
    return draw_case


sample("cummax")(_cumulative("cummax"))
sample("cummin")(_cumulative("cummin"))


@sample("cumprod")
def _cumprod(draw):
    shp = shape(draw)
    dim = dim_of(draw, shp)
    fn = pick(draw, [lambda T, x: x.cumprod(dim), lambda T, x: T.cumprod(x, dim)])
    return Case(fn, [away_from_zero(draw, shp, 0.5, 1.5)])
