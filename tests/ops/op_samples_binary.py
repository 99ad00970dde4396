"""Sample inputs for the binary rows of ops/arithmetic.py, ops/compare.py, ops/matrix.py and ops/complex.py
that tests/core/test_binary_parity.py adds: fmax, fmin, copysign, xlogy, logaddexp(2),
igamma(c), the in-place comparisons, vdot, addr, complex and polar (see op_samples.py)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import Case, broadcast_pair, const, distinct, pick, positive, sample, shape, uniform


def _pair(draw, values=uniform):
    sa, sb = broadcast_pair(draw)
    return values(draw, sa), values(draw, sb)


@sample("fmax")
def _fmax(draw):
    sa, sb = broadcast_pair(draw)
    both = distinct(draw, (int(np.prod(sa)) + int(np.prod(sb)),))      # (no ties: one side wins)
    fn = pick(draw, [lambda T, a, b: T.fmax(a, b), lambda T, a, b: a.fmax(b)])
    return Case(fn, [both[:int(np.prod(sa))].reshape(sa), both[int(np.prod(sa)):].reshape(sb)])


@sample("fmin")
def _fmin(draw):
    sa, sb = broadcast_pair(draw)
    both = distinct(draw, (int(np.prod(sa)) + int(np.prod(sb)),))
    fn = pick(draw, [lambda T, a, b: T.fmin(a, b), lambda T, a, b: a.fmin(b)])
    return Case(fn, [both[:int(np.prod(sa))].reshape(sa), both[int(np.prod(sa)):].reshape(sb)])


@sample("copysign")
def _copysign(draw):
    a, b = _pair(draw)
    b = np.where(np.abs(b) < 0.1, 0.5, b)              # (away from the sign's jump at 0)
    fn = pick(draw, [lambda T, a, b: T.copysign(a, b), lambda T, a, b: a.copysign(b)])
    return Case(fn, [a, b])


@sample("copysign_scalar")
def _copysign_scalar(draw):
    s = draw(st.sampled_from([-1.5, 2.0, -0.0, 3]))
    fn = pick(draw, [lambda T, a: T.copysign(a, s), lambda T, a: a.copysign(s)])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("xlogy")
def _xlogy(draw):
    sa, sb = broadcast_pair(draw)
    fn = pick(draw, [lambda T, a, b: T.xlogy(a, b), lambda T, a, b: a.xlogy(b)])
    return Case(fn, [uniform(draw, sa), positive(draw, sb)])


@sample("xlogy_scalar_other")
def _xlogy_scalar_other(draw):
    s = draw(st.sampled_from([0.5, 2.0, 3]))
    fn = pick(draw, [lambda T, a: T.xlogy(a, s), lambda T, a: a.xlogy(s)])
    return Case(fn, [uniform(draw, shape(draw))])


@sample("xlogy_scalar_self")
def _xlogy_scalar_self(draw):
    s = draw(st.sampled_from([0.5, -2.0, 3]))
    return Case(lambda T, b: T.xlogy(s, b), [positive(draw, shape(draw))])


@sample("logaddexp")
def _logaddexp(draw):
    fn = pick(draw, [lambda T, a, b: T.logaddexp(a, b), lambda T, a, b: a.logaddexp(b)])
    return Case(fn, list(_pair(draw)))


@sample("logaddexp2")
def _logaddexp2(draw):
    fn = pick(draw, [lambda T, a, b: T.logaddexp2(a, b), lambda T, a, b: a.logaddexp2(b)])
    return Case(fn, list(_pair(draw)))


def _igamma_case(draw, name):
    # (the gradient for self, the shape parameter, is not implemented in PyTorch: only other's is checked)
    sa, sb = broadcast_pair(draw)
    a = positive(draw, sa, 0.5, 3.0)
    return Case(lambda T, x: getattr(T, name)(const(T, a, x), x), [positive(draw, sb, 0.3, 3.0)])


@sample("igamma")
def _igamma(draw):
    return _igamma_case(draw, "igamma")


@sample("igammac")
def _igammac(draw):
    return _igamma_case(draw, "igammac")


def _comparison_inplace(name, tensor):
    def draw_case(draw):
        shp = shape(draw)
        method = draw(st.sampled_from({"eq": ["eq_"], "ne": ["ne_", "not_equal_"], "lt": ["lt_", "less_"],
                                       "le": ["le_", "less_equal_"], "gt": ["gt_", "greater_"],
                                       "ge": ["ge_", "greater_equal_"]}[name]))
        n = int(np.prod(shp))
        both = distinct(draw, (2 * n,))             # (no ties: a comparison's jump is away from every input)
        if tensor:
            return Case(lambda T, x, w: getattr(x * 1, method)(w), [both[:n].reshape(shp), both[n:].reshape(shp)])
        return Case(lambda T, x: getattr(x * 1, method)(0.2531), [both[:n].reshape(shp)])
    return draw_case


for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    sample(f"{_name}_scalar_inplace")(_comparison_inplace(_name, False))
    sample(f"{_name}_tensor_inplace")(_comparison_inplace(_name, True))
del _name


@sample("vdot")
def _vdot(draw):
    k = draw(st.integers(1, 4))
    return Case(pick(draw, [lambda T, a, b: T.vdot(a, b), lambda T, a, b: a.vdot(b)]),
                [uniform(draw, (k,)), uniform(draw, (k,))])


@sample("addr")
def _addr(draw):
    n, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    self_shape = draw(st.sampled_from([(n, m), (m,), (), (1, m), (n, 1)]))
    fn = pick(draw, [lambda T, x, a, b: T.addr(x, a, b), lambda T, x, a, b: x.addr(a, b, beta=0.5, alpha=2),
                     lambda T, x, a, b: T.addr(x, a, b, alpha=-1.5)])
    return Case(fn, [uniform(draw, self_shape), uniform(draw, (n,)), uniform(draw, (m,))])


@sample("complex")
def _complex(draw):
    a, b = _pair(draw)
    return Case(lambda T, a, b: T.view_as_real(T.complex(a, b)), [a, b])


@sample("polar")
def _polar(draw):
    sa, sb = broadcast_pair(draw)
    return Case(lambda T, a, b: T.view_as_real(T.polar(a, b)), [positive(draw, sa), uniform(draw, sb)])
