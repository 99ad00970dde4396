"""The fast paths of gradlab's SLEEF kernels (gradlab/ops/vectorized/sleef.py) against the kernels
written one fma at a time, each fma rounded once by fma32 (exact: tests/ops/test_vectorized_bits.py
checks fma32 against rational arithmetic). The fast paths skip the double-rounding checks where a
float64 sum is exact or was shown never to be half-way between two float32 numbers, and round some
Horner steps with a constant instead of a float32 cast: these tests fail if any of that is wrong on
their inputs (test_vectorized_bits.py compares the kernels with live PyTorch)."""
import numpy as np
import pytest

from gradlab.ops.vectorized import core, fma32, sleef

F32, F64, I32 = np.float32, np.float64, np.int32
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _bits_equal(got, want):
    same = (got.view(I32) == want.view(I32)) | (np.isnan(got) & np.isnan(want))
    bad = np.flatnonzero(~same)
    assert not bad.size, f"{bad.size} differ, e.g. {got[bad[:3]].tolist()} != {want[bad[:3]].tolist()}"


def _expf_by_steps(d):
    """SLEEF's xexpf (sleefsimdsp.c) with every fma rounded once."""
    with np.errstate(all="ignore"):
        q = np.rint(d * sleef._R_LN2F)
        s = fma32(q, -sleef._L2UF, d)
        s = fma32(q, -sleef._L2LF, s)
        u = np.full(d.shape, sleef._EXPF_POLY[0], F32)
        for c in sleef._EXPF_POLY[1:]:
            u = fma32(u, s, c)
        u = F32(1) + fma32(s * s, u, s)
        u = np.ldexp(u, np.clip(np.nan_to_num(q), -1000, 1000).astype(I32))
        u[d < -104] = 0
        u[d > 100] = np.inf
    return u


def _inputs(seed, ranges, n=400_000):
    rng = np.random.default_rng(seed)
    parts = [rng.uniform(lo, hi, n) for lo, hi in ranges]
    parts.append(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -104, -104.00001, 100, 88.72, 88.73, 1e-45]))
    return np.concatenate(parts).astype(F32)


def test_expf_fast_path():
    """Every range of q (the power of two) and of the reduced argument s, near 0 and near +-ln2/2."""
    d = _inputs(0, [(-110, 100), (-1, 1), (-1e-3, 1e-3), (-1e-20, 1e-20)])
    half_ln2 = np.float32(np.log(2) / 2)
    k = np.arange(-150, 129, dtype=F32)[:, None] * np.float32(np.log(2))
    edges = (k + half_ln2 * np.array([-1, 1], F32) + np.linspace(-1e-5, 1e-5, 2001, dtype=F32)[:, None, None])
    d = np.concatenate([d, edges.ravel().astype(F32)])
    _bits_equal(sleef.sleef_expf(d), _expf_by_steps(d))
    negative = -np.abs(d)
    _bits_equal(sleef.sleef_expf(negative, nonpositive=True), _expf_by_steps(negative))


def test_expf_double_rounded_last_step():
    """The three reduced arguments (found by trying every one) whose last fma, r = fma(s * s, u, s),
    has a float64 sum half-way between two float32 numbers without being exact: the kernel's float32
    cast of the sum rounds twice there, and the result is still SLEEF's, since that last bit of r is
    lost in 1 + r. (Each s is reached from every power of two: exp(s + q ln2) = 2**q exp(s).)"""
    s = np.array([0x34FFFFFF, 0x35FFFFFB, 0x36FFFFEB], I32).view(F32)     # q = 0: s = d
    u = np.full(s.shape, sleef._EXPF_POLY[0], F32)
    for c in sleef._EXPF_POLY[1:]:
        u = fma32(u, s, c)
    cast = ((s * s).astype(F64) * u + s).astype(F32)                # the float64 sum, cast once more
    r = fma32(s * s, u, s)
    assert (cast != r).all()
    assert (F32(1) + cast == F32(1) + r).all()
    q = np.arange(-5, 6, dtype=F32)[:, None] * np.float32(np.log(2))
    d = np.concatenate([s, (s + q).ravel(), np.linspace(-1, 1, 61, dtype=F32)])
    _bits_equal(sleef.sleef_expf(d), _expf_by_steps(d))


def test_expf_horner_steps_stay_in_their_binade():
    """The constants that round Horner's first four steps hold where each step's result stays in one
    binade: over |s| <= ln2/2 (and a margin), on a fine grid of s."""
    s = np.linspace(-0.3466, 0.3466, 2_000_001).astype(F32)
    u = np.full(s.shape, sleef._EXPF_POLY[0], F32)
    for c, e in zip(sleef._EXPF_POLY[1:5], (-10, -7, -5, -3)):
        u = fma32(u, s, c)
        assert (u >= 2.0 ** e).all() and (u < 2.0 ** (e + 1)).all()


def _logf_reduced_by_steps(m):
    """SLEEF's logf from m in [0.75, 1.5) on: x = (m - 1) / (m + 1) as the double-float xx + xy
    (dfdiv), and w = x2 xx poly(x2), every fma rounded once."""
    one = F32(1)
    ax, bx = m - one, m + one
    v = bx - one
    by = (one - (bx - v)) + (m - v)
    t = one / bx
    xx = ax * t
    u = fma32(t, ax, -xx)
    v = fma32(-by, t, fma32(-bx, t, one))
    xy = fma32(xx, v, u)
    x2 = xx * xx
    poly = np.full(m.shape, F32(0.3027294874), F32)
    for c in (F32(0.3996108174), F32(0.6666694880)):
        poly = fma32(poly, x2, c)
    return xx, xy, x2 * xx * poly


def test_logf_reduced_part_every_m():
    """logf's m-dependent part on every float32 m in [0.75, 1.5) (2**23 numbers)."""
    m = np.arange(F32(0.75).view(I32), F32(1.5).view(I32), dtype=I32).view(F32)
    for chunk in np.array_split(m, 8):
        want = _logf_reduced_by_steps(chunk)
        got = sleef._logf_reduced(chunk.copy(), np.empty_like(chunk))
        for g, w in zip(got, want):
            _bits_equal(g, w)


def _log1pf_by_steps(d):
    """SLEEF's xlog1pf with every fma rounded once (the kernel before its fast path)."""
    one, two = F32(1), F32(2)
    with np.errstate(all="ignore"):
        field = ((d + one) * sleef._K_4_3).view(np.uint32) >> 23
        t, sx, sy = sleef._LOG1PF_T[field], sleef._LOGF_E_HI[field], sleef._LOGF_E_LO[field]
        m = fma32(d, t, sleef._LOG1PF_T_M1[field])
        bx = two + m
        by = (two - bx) + m
        inv = one / bx
        xx = m * inv
        u = fma32(inv, m, -xx)
        v = fma32(-by, inv, fma32(-bx, inv, one))
        xy = fma32(xx, v, u)
        x2 = xx * xx
        poly = np.full(d.shape, F32(0.3027294874), F32)
        for c in (F32(0.3996108174), F32(0.6666694880)):
            poly = fma32(poly, x2, c)
        twice = xx * two
        s = sx + twice
        sy = (((sx - s) + twice) + sy) + xy * two
        w = x2 * xx * poly
        r = s + w
        sy = ((s - r) + w) + sy
        r += sy
        beyond = d > sleef._K_BEYOND
        r[beyond] = sleef.sleef_logf(d[beyond])
        bad = ~((d > -1) & (d < np.inf) & (d != 0))
        r[bad] = np.log1p(d[bad])
    return r


def test_log1pf_fast_path():
    d = _inputs(1, [(-1, 1), (-1e-3, 1e-3), (-1e-8, 1e-8), (-1e-30, 1e-30), (0, 100), (0, 1e30), (1e38, 3.4e38)])
    d = np.concatenate([d, -np.exp(np.random.default_rng(2).uniform(-90, 0, 400_000)).astype(F32)])
    _bits_equal(sleef.sleef_log1pf(d), _log1pf_by_steps(d))


def test_fast_paths_keep_shapes():
    """0-d and n-d arrays, as the callers pass them."""
    for fn in (sleef.sleef_expf, sleef.sleef_logf, sleef.sleef_log1pf):
        x = np.float32(1.5)
        assert fn(x).shape == ()
        y = np.full((2, 3, 4), 1.5, F32)
        assert fn(y).shape == (2, 3, 4) and (fn(y) == fn(x)).all()


def test_half_way_fix_picks_broadcast_operands():
    """_rounded_once's fix-up picks the operands at the half-way numbers from broadcast shapes."""
    a = np.full((3, 4), 1 + 2 ** -12, F32)
    b = np.array(1 + 2 ** -12, F32)
    c = (np.float32(2.0 ** -70) * np.array([[1], [-1], [0]], F32)).astype(F32)
    s = a.astype(F64) * b + c
    got = core._rounded_once(s, a, b, c)
    _bits_equal(got.ravel(), fma32(a, np.broadcast_to(b, a.shape), np.broadcast_to(c, a.shape)).ravel())
    assert got[0, 0] != got[1, 0]           # the tiny c decides the direction of the tie


def test_rounded_sum_nudges_only_inexact_half_way_sums():
    """_rounded_sum (log_softmax's gradient): exact half-way sums stay (ties to even), double-rounded
    ones are nudged, as fma32."""
    rng = np.random.default_rng(5)
    a = np.concatenate([np.full(8, 1 + 2 ** -12), rng.normal(0, 1, 200)]).astype(F32)
    b = np.concatenate([np.full(8, 1 + 2 ** -12), np.full(200, -0.125)]).astype(F32)
    c = np.concatenate([np.float32(2.0 ** -70) * np.array([1, -1, 2, -2, 0, 1, -1, 4]),
                        np.where(rng.random(200) < 0.5, 0.125, 0.0)]).astype(F32)
    p = a.astype(F64) * b
    _bits_equal(core._rounded_sum(p, c), fma32(a, b, c))
    assert (core._half_way(p + c)[8:]).any()            # exact half-way sums among the short ones
