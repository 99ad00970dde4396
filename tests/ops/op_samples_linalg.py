"""Sample inputs of the linalg ops (registered into op_samples.SAMPLES; see op_samples.py)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import Case, _p3_grad_of, pick, rng, sample, shape, uniform  # noqa: F401


def _offset(draw):
    return draw(st.integers(-2, 2))


def _well_conditioned(draw, batch, n):
    """Square matrices far from singular: the identity (times +-2) plus a small random part."""
    r = rng(draw)
    eye = np.eye(n) * r.choice([-2.0, 2.0], batch + (n, 1))
    return eye + r.uniform(-0.5, 0.5, batch + (n, n))


@sample("tril")
def _tril(draw):
    shp = shape(draw, min_dims=2)
    k = _offset(draw)
    fn = pick(draw, [lambda T, x: x.tril(k), lambda T, x: T.tril(x, diagonal=k), lambda T, x: x.tril()])
    return Case(fn, [uniform(draw, shp)])


@sample("triu")
def _triu(draw):
    shp = shape(draw, min_dims=2)
    k = _offset(draw)
    fn = pick(draw, [lambda T, x: x.triu(k), lambda T, x: T.triu(x, k), lambda T, x: T.triu(x)])
    return Case(fn, [uniform(draw, shp)])


@sample("diagonal")
def _diagonal(draw):
    shp = shape(draw, min_dims=2)
    k = _offset(draw)
    d1, d2 = draw(st.sampled_from([(0, 1), (1, 0), (-1, 0), (0, -1)]))
    fn = pick(draw, [lambda T, x: x.diagonal(), lambda T, x: x.diagonal(k, d1, d2),
                     lambda T, x: T.diagonal(x, offset=k, dim1=d1, dim2=d2), lambda T, x: T.linalg.diagonal(x)])
    return Case(fn, [uniform(draw, shp)])


@sample("diagonal_backward")
def _diagonal_backward(draw):
    shp = shape(draw, min_dims=2, max_dims=2)
    k = draw(st.integers(-1, 1))
    n = max(0, min(shp[0] - max(0, -k), shp[1] - max(0, k)))
    return Case(_p3_grad_of(lambda T, x: x.diagonal(k) * 1), [uniform(draw, shp), uniform(draw, (n,))])


@sample("diagonal_copy")
def _diagonal_copy(draw):
    shp = shape(draw, min_dims=2, max_dims=2)
    k = _offset(draw)
    return Case(pick(draw, [lambda T, x: T.diag(x), lambda T, x: x.diag(k)]), [uniform(draw, shp)])


@sample("diag_embed")
def _diag_embed(draw):
    shp = shape(draw, min_dims=1, max_dims=2)
    k = _offset(draw)
    fn = pick(draw, [lambda T, x: T.diag_embed(x), lambda T, x: x.diag_embed(k),
                     lambda T, x: T.diag_embed(x, k, 0, -1), lambda T, x: T.diag(x.reshape(-1), k)])
    return Case(fn, [uniform(draw, shp)])


@sample("cross")
def _cross(draw):
    shp = shape(draw, min_dims=1, max_dims=2)
    shp = shp[:-1] + (3,)
    fn = pick(draw, [lambda T, a, b: T.cross(a, b, dim=-1), lambda T, a, b: a.cross(b, dim=-1),
                     lambda T, a, b: T.linalg.cross(a, b)])
    return Case(fn, [uniform(draw, shp), uniform(draw, shp)])


@sample("det")
def _det(draw):
    n = draw(st.integers(1, 3))
    batch = draw(st.sampled_from([(), (2,)]))
    fn = pick(draw, [lambda T, a: T.det(a), lambda T, a: a.det(), lambda T, a: T.linalg.det(a)])
    return Case(fn, [_well_conditioned(draw, batch, n)])


@sample("inverse")
def _inverse(draw):
    n = draw(st.integers(1, 3))
    batch = draw(st.sampled_from([(), (2,)]))
    fn = pick(draw, [lambda T, a: T.inverse(a), lambda T, a: a.inverse(), lambda T, a: T.linalg.inv(a)])
    return Case(fn, [_well_conditioned(draw, batch, n)])


@sample("slogdet")
def _slogdet(draw):
    n = draw(st.integers(1, 3))
    fn = pick(draw, [lambda T, a: T.slogdet(a)[1], lambda T, a: T.linalg.slogdet(a).logabsdet,
                     lambda T, a: T.logdet(a * a.det().sign())])
    return Case(fn, [_well_conditioned(draw, (), n)])


@sample("solve")
def _solve(draw):
    n = draw(st.integers(1, 3))
    vector = draw(st.booleans())
    b = (n,) if vector else (n, draw(st.integers(1, 2)))
    return Case(lambda T, a, b: T.linalg.solve(a, b), [_well_conditioned(draw, (), n), uniform(draw, b)])


@sample("cdist")
def _cdist(draw):
    m = draw(st.integers(1, 3))
    p = draw(st.sampled_from([1.0, 2.0, 3.0]))
    r1, r2 = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    # points on a coarse grid plus noise: no two coordinates equal (|x| is not differentiable at 0)
    return Case(lambda T, a, b: T.cdist(a, b, p=p), [uniform(draw, (r1, m)), uniform(draw, (r2, m)) + 5.0])


# PyTorch has no derivative of _cdist_backward: a backward through cdist's gradient raises (raises=)
@sample("cdist_backward", raises="the derivative for '_cdist_backward' is not implemented.")
def _cdist_backward(draw):
    m = draw(st.integers(1, 3))
    p = draw(st.sampled_from([1.0, 2.0, 3.0]))
    wrt = draw(st.integers(0, 1))
    return Case(lambda T, a, b: T.autograd.grad(T.cdist(a, b, p=p).sum(), (a, b)[wrt], create_graph=True)[0],
                [uniform(draw, (2, m)), uniform(draw, (3, m)) + 5.0])


@sample("addmv")
def _addmv(draw):
    n, m = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    beta, alpha = draw(st.sampled_from([(1, 1), (0.5, 2.0)]))
    bias = draw(st.sampled_from([(n,), (1,), ()]))
    return Case(lambda T, s, a, v: T.addmv(s, a, v, beta=beta, alpha=alpha),
                [uniform(draw, bias), uniform(draw, (n, m)), uniform(draw, (m,))])


@sample("baddbmm")
def _baddbmm(draw):
    b, n, k, m = (draw(st.integers(1, 3)) for _ in range(4))
    beta, alpha = draw(st.sampled_from([(1, 1), (0.5, 2.0)]))
    return Case(lambda T, s, x, y: T.baddbmm(s, x, y, beta=beta, alpha=alpha),
                [uniform(draw, (n, m)), uniform(draw, (b, n, k)), uniform(draw, (b, k, m))])


@sample("addbmm")
def _addbmm(draw):
    b, n, k, m = (draw(st.integers(1, 3)) for _ in range(4))
    beta, alpha = draw(st.sampled_from([(1, 1), (2.0, 0.5)]))
    return Case(lambda T, s, x, y: T.addbmm(s, x, y, beta=beta, alpha=alpha),
                [uniform(draw, (m,)), uniform(draw, (b, n, k)), uniform(draw, (b, k, m))])


@sample("euclidean_dist")
def _euclidean_dist(draw):
    # more than 25 rows: PyTorch's p = 2 through one matmul (EuclideanDistBackward0 under a view)
    m = draw(st.integers(1, 2))
    return Case(lambda T, a, b: T.cdist(a, b), [uniform(draw, (26, m)), uniform(draw, (2, m)) + 5.0])


@sample("svd")
def _svd(draw):
    shp = draw(st.sampled_from([(2, 2), (2, 3), (3, 2), (2, 2, 3)]))
    fn = pick(draw, [lambda T, a: T.linalg.svdvals(a), lambda T, a: T.linalg.matrix_norm(a, 2),
                     lambda T, a: T.linalg.norm(a, "nuc", dim=(-2, -1)), lambda T, a: T.linalg.matrix_norm(a, -2),
                     # the factors themselves, through what does not depend on their signs (which are LAPACK's
                     # choice: OpenBLAS's and MKL's differ for some matrices)
                     lambda T, a: T.svd(a).S, lambda T, a: (lambda r: r.U @ r.V.mT)(T.svd(a)),
                     lambda T, a: (lambda r: r.U @ r.Vh)(T.linalg.svd(a, full_matrices=False)),
                     lambda T, a: (lambda r: r.U[..., :1] ** 2 + r.S[..., :1, None])(a.svd()),
                     lambda T, a: (lambda r: r.Vh[..., :1, :] ** 2)(T.linalg.svd(a)),
                     lambda T, a: (lambda r: r.U[..., :1] * r.Vh[..., :1, :])(T.linalg.svd(a, full_matrices=True))])
    return Case(fn, [_well_conditioned(draw, shp[:-2], shp[-1])[..., :shp[-2], :]])
