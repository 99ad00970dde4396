"""Sample inputs of PyTorch's other unary math (registered into op_samples.SAMPLES; see op_samples.py):
acosh, asinh, atanh, erfc, erfinv, lgamma, digamma, polygamma, mvlgamma, i0 and special_i1, exp2, sinc,
deg2rad, rad2deg, frexp, ldexp, nextafter, and mul_scalar (the MulBackward1 their gradients record)."""
from hypothesis import strategies as st

from op_samples import Case, away_from_zero, pick, rng, sample, shape, uniform


def _unary(key, lo=-2.0, hi=2.0, torch_fn=None, **options):
    def draw_case(draw):
        fn = pick(draw, [lambda T, x: getattr(x, key)(), lambda T, x: getattr(T, key)(x)])
        return Case(fn, [uniform(draw, shape(draw), lo, hi)], torch_fn)
    sample(key, **options)(draw_case)


_unary("acosh", 1.2, 3.0)
_unary("asinh")
_unary("atanh", -0.8, 0.8)
_unary("erfc")
_unary("erfinv", -0.8, 0.8)
_unary("lgamma", 0.3, 3.0)
_unary("digamma", 0.3, 3.0)
_unary("i0", -3.0, 3.0)
_unary("exp2", second_order=True)
_unary("deg2rad")
_unary("rad2deg")


@sample("sinc", second_order=True)
def _sinc(draw):
    fn = pick(draw, [lambda T, x: x.sinc(), lambda T, x: T.sinc(x)])
    return Case(fn, [away_from_zero(draw, shape(draw))])


@sample("polygamma")
def _polygamma(draw):
    n = draw(st.integers(0, 3))
    fn = pick(draw, [lambda T, x: x.polygamma(n), lambda T, x: T.polygamma(n, x)])
    return Case(fn, [uniform(draw, shape(draw), 0.5, 3.0)])


@sample("polygamma_inplace")
def _polygamma_inplace(draw):
    n = draw(st.integers(0, 3))
    return Case(lambda T, x: (x * 1).polygamma_(n), [uniform(draw, shape(draw), 0.5, 3.0)])


@sample("mvlgamma")
def _mvlgamma(draw):
    p = draw(st.integers(1, 3))
    fn = pick(draw, [lambda T, x: x.mvlgamma(p), lambda T, x: T.mvlgamma(x, p=p)])
    return Case(fn, [uniform(draw, shape(draw), 2.0, 4.0)])


@sample("special_i1")
def _special_i1(draw):
    # (i0's gradient; PyTorch's torch.special.i1)
    return Case(lambda T, x: T.OPS["special_i1"](x), [away_from_zero(draw, shape(draw), 0.2, 3.0)],
                torch_fn=lambda T, x: T.special.i1(x))


@sample("frexp")
def _frexp(draw):
    # (mantissas away from the powers of two, where the exponent, a step, jumps)
    r = rng(draw)
    shp = shape(draw)
    return Case(lambda T, x: T.frexp(x)[0], [r.uniform(1.1, 1.9, shp) * r.choice([-1.0, 1.0], shp)])


@sample("ldexp")
def _ldexp(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, x, e: x.ldexp(e), lambda T, x, e: T.ldexp(x, e)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("nextafter")
def _nextafter(draw):
    shp = shape(draw)
    fn = pick(draw, [lambda T, x, o: x.nextafter(o), lambda T, x, o: T.nextafter(x, o)])
    return Case(fn, [uniform(draw, shp, -2.0, -0.5), uniform(draw, shp, 0.5, 2.0)])


@sample("conj_physical_inplace")
def _conj_physical_inplace(draw):
    return Case(lambda T, x: (x * 1).conj_physical_(), [uniform(draw, shape(draw))])
