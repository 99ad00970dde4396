"""Sample inputs for the statistics and decomposition ops (tests/core/test_stats_parity.py's area):
logcumsumexp, renorm, pdist, cholesky, qr, lu, triangular solves, pinv, matrix_exp, eigh, eig, lstsq.
Matrices are built inside the sample from the drawn values, so that the
decompositions get inputs they accept (symmetric positive definite, triangular with a safe diagonal)."""
import numpy as np
from hypothesis import strategies as st

from op_samples import Case, const, distinct, pick, sample, shape, uniform


def _eye(T, n, like):
    return const(T, np.eye(n), like)


def _spd(T, x):
    """x x^T + 3 I: symmetric positive definite."""
    return x @ x.mT + 3 * _eye(T, x.shape[-1], x)


def _lower(T, x):
    """x's lower triangle with 3 added on the diagonal: a well-conditioned Cholesky factor."""
    return x.tril() + 3 * _eye(T, x.shape[-1], x)


def _n(draw, lo=2, hi=3):
    return draw(st.integers(lo, hi))


@sample("logcumsumexp")
def _logcumsumexp(draw):
    shp = shape(draw, min_dims=1)
    dim = draw(st.integers(-len(shp), len(shp) - 1))
    return Case(lambda T, x: T.logcumsumexp(x, dim), [uniform(draw, shp)])


@sample("renorm")
def _renorm(draw):
    shp = shape(draw, min_dims=2, min_side=2)
    p = pick(draw, [1, 2, 3])
    dim = draw(st.integers(0, len(shp) - 1))
    return Case(lambda T, x: x.renorm(p, dim, 0.5), [distinct(draw, shp)])


@sample("pdist")
def _pdist(draw):
    p = pick(draw, [1, 2, 3])
    return Case(lambda T, x: T.pdist(x, p), [distinct(draw, (_n(draw, 2, 4), 2))])


@sample("cholesky")
def _cholesky(draw):
    n = _n(draw)
    upper = pick(draw, [False, True])
    return Case(lambda T, x: T.cholesky(_spd(T, x), upper), [uniform(draw, (n, n))])


@sample("linalg_cholesky_ex")
def _linalg_cholesky(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.cholesky(_spd(T, x)), [uniform(draw, (n, n))])


@sample("cholesky_inverse")
def _cholesky_inverse(draw):
    n = _n(draw)
    upper = pick(draw, [False, True])
    return Case(lambda T, x: T.cholesky_inverse(_lower(T, x).mT if upper else _lower(T, x), upper),
                [uniform(draw, (n, n))])


@sample("cholesky_solve")
def _cholesky_solve(draw):
    n = _n(draw)
    return Case(lambda T, b, x: T.cholesky_solve(b, _lower(T, x)), [uniform(draw, (n, 2)), uniform(draw, (n, n))])


@sample("linalg_qr")
def _linalg_qr(draw):
    shp = pick(draw, [(3, 2), (3, 3), (2, 3)])
    return Case(lambda T, x: T.linalg.qr(x), [distinct(draw, shp)])


@sample("linalg_lu_factor_ex")
def _lu_factor(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.lu_factor(x + 3 * _eye(T, n, x))[0], [uniform(draw, (n, n))])


@sample("linalg_lu")
def _linalg_lu(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.lu(x + 3 * _eye(T, n, x))[1:], [uniform(draw, (n, n))])


@sample("lu_unpack")
def _lu_unpack(draw):
    n = _n(draw)
    return Case(lambda T, x: T.lu_unpack(*T.linalg.lu_factor(x + 3 * _eye(T, n, x)))[1:], [uniform(draw, (n, n))])


@sample("linalg_lu_solve")
def _lu_solve(draw):
    n = _n(draw)
    left = pick(draw, [True, False])
    return Case(lambda T, x, b: T.linalg.lu_solve(*T.linalg.lu_factor(x + 3 * _eye(T, n, x)), b if left else b.mT,
                                                  left=left),
                [uniform(draw, (n, n)), uniform(draw, (n, 2))])


@sample("linalg_solve_triangular")
def _solve_triangular(draw):
    n = _n(draw)
    return Case(lambda T, x, b: T.linalg.solve_triangular(_lower(T, x).mT, b, upper=True),
                [uniform(draw, (n, n)), uniform(draw, (n, 2))])


@sample("triangular_solve")
def _triangular_solve(draw):
    n = _n(draw)
    return Case(lambda T, b, x: T.triangular_solve(b, _lower(T, x), upper=False),
                [uniform(draw, (n, 2)), uniform(draw, (n, n))])


@sample("linalg_pinv")
def _pinv(draw):
    shp = pick(draw, [(3, 2), (2, 2), (2, 3)])
    # (far from rank-deficient: pinv is not differentiable where the rank changes)
    return Case(lambda T, x: T.linalg.pinv(0.3 * x + 2 * const(T, np.eye(*shp), x)), [uniform(draw, shp)])


@sample("linalg_matrix_exp")
def _matrix_exp(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.matrix_exp(x), [uniform(draw, (n, n), -1.0, 1.0)])


@sample("linalg_eigh")
def _eigh(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.eigvalsh(x + x.mT), [distinct(draw, (n, n))])


@sample("linalg_lstsq")
def _lstsq(draw):
    return Case(lambda T, x, b: T.linalg.lstsq(x, b).solution, [distinct(draw, (3, 2)), uniform(draw, (3, 2))])


@sample("linalg_eig")
def _eig(draw):
    n = _n(draw)
    return Case(lambda T, x: T.linalg.eigvals(x + x.mT).real, [distinct(draw, (n, n))])


# PyTorch has no derivative of _pdist_backward: a backward through pdist's gradient raises (raises=)
@sample("_pdist_backward", raises="the derivative for '_pdist_backward' is not implemented.")
def _pdist_backward(draw):
    p = pick(draw, [1, 2, 3])
    return Case(lambda T, x: T.autograd.grad(T.pdist(x, p).sum(), x, create_graph=True)[0],
                [distinct(draw, (_n(draw, 2, 4), 2))])


# --- geqrf, householder_product, ormqr, the LDL (test_linalg_degenerate_parity's ops) ---------------------

@sample("lapack_geqrf", raises="the derivative for 'geqrf' is not implemented.")
def _geqrf(draw):
    return Case(lambda T, x: T.geqrf(x)[0], [uniform(draw, (3, 2))])


@sample("linalg_householder_product")
def _householder_product(draw):
    m = _n(draw, 2, 4)
    return Case(lambda T, a, t: T.linalg.householder_product(a, t), [uniform(draw, (m, 2)), uniform(draw, (2,))])


@sample("lapack_ormqr")
def _ormqr(draw):
    left, transpose = pick(draw, [True, False]), pick(draw, [True, False])
    return Case(lambda T, a, t, c: T.ormqr(a, t, c if left else c.mT, left=left, transpose=transpose),
                [uniform(draw, (3, 2)), uniform(draw, (2,)), uniform(draw, (3, 2))])


@sample("linalg_ldl_factor_ex", raises="derivative for aten::linalg_ldl_factor_ex is not implemented")
def _ldl_factor_ex(draw):
    return Case(lambda T, x: T.linalg.ldl_factor_ex(x + x.mT)[0], [uniform(draw, (3, 3))])


@sample("linalg_ldl_solve", raises="derivative for aten::linalg_ldl_solve is not implemented")
def _ldl_solve(draw):
    return Case(lambda T, x, b: T.linalg.ldl_solve(*T.linalg.ldl_factor((x + x.mT).detach()), b),
                [uniform(draw, (3, 3)), uniform(draw, (3, 2))])
