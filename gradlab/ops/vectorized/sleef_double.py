"""SLEEF's float64 exp and log (u10: within 1.0 ulp), as ATen's Vectorized<double> calls them
(Sleef_expd8_u10 / Sleef_logd8_u10 with AVX512, Sleef_expd4_u10 / Sleef_logd4_u10 with AVX2; both
built with FMA). Source: github.com/shibatch/sleef, src/libm/sleefsimddp.c (`xexp`, `xlog_u1`, the
same from SLEEF 3.5 to 3.9), src/common/dd.h (double-double arithmetic), estrin.h (the polynomials).

The float32 kernels (sleef.py) get their fused multiply-adds from float64, where a float32 product is
exact. A float64 product needs 106 bits, so here an fma is built from error-free pieces (Dekker):
a * b = p + e exactly (Veltkamp's split of each factor in two halves of 26 bits), p + c = s + t exactly
(Knuth's TwoSum), and the result s + (t + e). That last sum rounds twice, and is wrong only where the
rounding of t + e moves the total across a half-way point between two float64 numbers: the kernels
keep the pieces and check them all at once when they end; in the rare case that one is wrong (or a
product was too small or too large for the split to be exact) the kernel runs again with every fma
checked, the doubtful ones computed exactly with fractions.

The price is speed: an fma is ~20 numpy calls here, and each kernel has about ten of them (the
independent ones of a polynomial computed together), so exp or log of a few numbers takes ~0.15 ms of
CPU where numpy's takes 1 us (measured on a shared machine; float64 log_softmax of an (8, 4) tensor:
~0.36 ms, was 9 us with numpy's correctly-rounded-or-nearly exp and log and 70-85% of its numbers right).
"""
import functools
import math
import threading
from fractions import Fraction

import numpy as np

_F64 = np.float64


def _k(v):
    """A float64 constant as a 0-d array: numpy's cheapest operand."""
    return np.array(v, _F64)


# --- fma for float64, from error-free pieces ------------------------------------------------------------

_SPLITTER = _k(2.0 ** 27 + 1)


def _split(a):
    """Veltkamp: a = hi + lo, each half of 26 bits, so that products of halves are exact. Returned as
    one array of shape (2,) + a.shape (hi, lo), so that the four products of two splits are one call."""
    out = np.empty((2,) + np.shape(a), _F64)
    hi, lo = out[0, ...], out[1, ...]
    np.multiply(a, _SPLITTER, out=lo)           # t (kept in lo for now)
    np.subtract(lo, a, out=hi)                  # t - a
    np.subtract(lo, hi, out=hi)                 # hi = t - (t - a)
    np.subtract(a, hi, out=lo)
    return out


def _splits(values):
    """The splits of constants, stacked: shape (2, len(values), 1) (the kernels' arrays are (k, n))."""
    return np.stack([_split(_k(v)) for v in values], axis=1).reshape(2, len(values), 1)


def _constants(values):
    return np.array(values, _F64).reshape(-1, 1)


def _product_error(p, a_split, b_split):
    """e with a * b = p + e exactly, p = a * b rounded (Dekker): ((ah*bh - p) + ah*bl + al*bh) + al*bl,
    each step exact; the four products in one call, the sum in that order by one reduce over axis 0."""
    nd = max(a_split.ndim, b_split.ndim)
    a_split = a_split.reshape((2, 1) + (1,) * (nd - a_split.ndim) + a_split.shape[1:])
    b_split = b_split.reshape((1, 2) + (1,) * (nd - b_split.ndim) + b_split.shape[1:])
    products = a_split * b_split                 # (2, 2, ...): ah*bh, ah*bl, al*bh, al*bl
    products[0, 0] -= p
    return np.add.reduce(products.reshape((4,) + products.shape[2:]), axis=0)


class _State(threading.local):
    checked = False     # every fma checked on the spot (the kernel's second run)
    kept = None         # the pieces of each fma, to check when the kernel ends


_STATE = _State()


def fma(a, b, c, a_split=None, b_split=None, c_dominates=False):
    """a * b + c rounded once, float64 (the vfmadd instruction), for arrays of one shape and 0-d
    constants. a_split, b_split: _split(a), _split(b) where already known (a constant's is computed
    once). c_dominates: |c| >= |a * b| wherever the result matters (the kernels' polynomial steps, by
    the range of their variable), so that p + c = s + t needs three operations (Fast2Sum) not six.
    Inside a kernel the pieces are kept for its check: a kernel must not change a result in place."""
    p = a * b
    e = _product_error(p, _split(a) if a_split is None else a_split, _split(b) if b_split is None else b_split)
    s = p + c
    if c_dominates and not _STATE.checked:
        t = p - (s - c)                     # p + c = s + t exactly
    else:
        bb = s - p
        t = (p - (s - bb)) + (c - bb)       # p + c = s + t exactly (Knuth's TwoSum)
    w = t + e
    r = s + w
    if _STATE.checked:
        return _checked(r, s, w, t, e, p, a, b, c)
    kept = _STATE.kept
    if kept is not None:            # (the kernels' factors are bounded: only the products are checked)
        kept.append((r, s, w, t, e, p))
    return r


_EXPONENT_BITS = np.array(0x7FF0000000000000, np.int64)
_MANTISSA_BITS = np.array(0x000FFFFFFFFFFFFF, np.int64)


def _half_gap_below(r):
    """Half the distance from |r| to the next float64 towards zero (from the bits: np.nextafter is slow):
    2**(exponent - 53), a half of that at a power of two; 0 for zeros and subnormals (always doubtful)."""
    bits = np.asarray(r).view(np.int64)
    half = (bits & _EXPONENT_BITS).view(_F64) * 2.0 ** -53
    np.putmask(half, (bits & _MANTISSA_BITS) == 0, half * 0.5)
    return half


def _doubtful(r, s, w, t, e, p, a=None, b=None):
    """Where r = s + w may not be a * b + c rounded once: the true value is r + (s + w - r) + (t + e -
    w), both errors exact; r is right unless the second one is nonzero and the two together reach
    half the gap to r's nearer neighbour. Also where the split of a or b was not exact (a product
    near the underflow, a factor near the overflow)."""
    bb = r - s
    r_err = (s - (r - bb)) + (w - bb)
    bb = w - t
    w_err = (t - (w - bb)) + (e - bb)
    doubt = (w_err != 0) & (np.abs(r_err) + np.abs(w_err) >= _half_gap_below(r))
    doubt |= (np.abs(p) < 2.0 ** -960) & (p != 0)
    if a is not None:
        doubt |= (np.abs(a) > 2.0 ** 995) & np.isfinite(a)
        doubt |= (np.abs(b) > 2.0 ** 995) & np.isfinite(b)
    return doubt


def _checked(r, s, w, t, e, p, a, b, c):
    doubt = _doubtful(r, s, w, t, e, p, a, b)
    if doubt.any():
        r = np.array(r, _F64)                   # (a copy: r may be a 0-d result)
        a, b, c = (np.broadcast_to(v, r.shape) for v in (a, b, c))
        for i in zip(*np.nonzero(np.broadcast_to(doubt, r.shape))):
            r[i] = exact_fma(float(a[i]), float(b[i]), float(c[i]))
    return r


def exact_fma(a, b, c):
    """fma of three Python floats, exactly: rational arithmetic, rounded once (int / int is)."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    v = Fraction(a) * Fraction(b) + Fraction(c)
    if v == 0:
        return a * b + c                        # (the sign of a zero result as IEEE's)
    return float(v)


def _kernel(function):
    """An elementwise kernel whose fmas are checked when it ends; run again, every fma checked on the
    spot, if one of them may be wrong."""
    @functools.wraps(function)
    def run(d):
        state = _STATE
        if state.checked or state.kept is not None:          # (inside another kernel)
            return function(d)
        state.kept = []
        try:
            with np.errstate(all="ignore"):
                out = function(d)
                kept, state.kept = state.kept, None
                if kept and _any_doubtful(kept):
                    state.checked = True
                    out = function(d)
        finally:
            state.kept, state.checked = None, False
        return out
    return run


def _any_doubtful(kept):
    """Whether any kept fma may be wrong: small ones checked together (numpy's cost is per call), large
    ones one by one (no copies)."""
    if sum(entry[0].size for entry in kept) > 4096:      # (measured: the copies cost more above)
        return any(_doubtful(*entry).any() for entry in kept)
    pieces = [np.concatenate([entry[k] for entry in kept], axis=None) for k in range(6)]
    return bool(_doubtful(*pieces).any())


# --- SLEEF: Sleef_expd8_u10 / Sleef_expd4_u10 (xexp, with FMA) ----------------------------------------------

_R_LN2 = _k(1.442695040888963407359924681001892137426645954152985934135449406931)
_M_L2U = _k(-.69314718055966295651160180568695068359375)      # 41 bits: u * L2U is exact for |u| < 2**12
_M_L2L = _k(-.28235290563031577122588448175013436025525412068e-12)
_M_L2L_SPLIT = _split(_M_L2L)
# POLY10's coefficients c9 ... c0 (estrin.h), as its first level uses them: fma(s, c_odd, c_even)
_EXP_C = (+0.2081276378237164457e-8, +0.2511210703042288022e-7, +0.2755762628169491192e-6,
          +0.2755723402025388239e-5, +0.2480158687479686264e-4, +0.1984126989855865850e-3,
          +0.1388888888914497797e-2, +0.8333333333314938210e-2, +0.4166666666666602598e-1,
          +0.1666666666666669072e+0)
_EXP_ODD, _EXP_ODD_SPLIT, _EXP_EVEN = _constants(_EXP_C[0::2]), _splits(_EXP_C[0::2]), _constants(_EXP_C[1::2])
_HALF, _ONE = _k(0.5), _k(1.0)
_EXP_MAX = 709.78271114955742909217217426      # above: inf (SLEEF 3.6's constant)


@_kernel
def sleef_expd(d):
    """SLEEF's exp (1.0 ulp), float64: exp(d) = 2**q * exp(s), s = d - q*ln2 (ln2 in two parts, the first
    with few bits), exp(s) a degree-12 polynomial: Estrin's scheme (POLY10: pairs of coefficients
    joined by s, pairs of those by s**2, then s**4, s**8), then three Horner steps; 2**q applied in two
    halves. The independent fmas of each level of Estrin's scheme are computed together."""
    d = np.asarray(d, _F64)
    shape = d.shape
    d = d.reshape(-1)
    # inputs beyond the ends are replaced at the end: clipped first so that every step stays finite
    x = np.clip(d, -1000.5, 710.0)
    u = np.rint(x * _R_LN2)                         # round to nearest even (vroundscale)
    s = u * _M_L2U                                  # exact: fma(u, -L2U, d) rounds once, as this sum
    s += x
    s = fma(u, _M_L2L, s, None, _M_L2L_SPLIT)
    s2 = s * s
    s4 = s2 * s2
    s8 = s4 * s4
    ss = _split(s)
    # |s| <= ln2 / 2: in every step below the added term dominates the product
    level1 = fma(s, _EXP_ODD, _EXP_EVEN, ss, _EXP_ODD_SPLIT, c_dominates=True)    # (c9,c8) ... (c1,c0)
    level2 = fma(s2, level1[1::2], level1[2::2], None, None, c_dominates=True)   # POLY4(c7..c4), POLY4(c3..c0)
    poly8 = fma(s4, level2[0], level2[1], None, None, c_dominates=True)
    r = fma(s8, level1[0], poly8, None, None, c_dominates=True)
    r = fma(r, s, _HALF, None, ss, c_dominates=True)
    r = fma(r, s, _ONE, None, ss, c_dominates=True)
    r = fma(r, s, _ONE, None, ss, c_dominates=True)
    # vldexp2: r * 2**(q >> 1) * 2**(q - (q >> 1)), each power of two built from its exponent bits
    q = np.where(np.isnan(u), 0, u).astype(np.int64)
    half = q >> 1
    r = r * ((half + 1023) << 52).view(_F64)       # (a new array: the last fma's result is kept for the check)
    r *= ((q - half + 1023) << 52).view(_F64)
    np.putmask(r, d > _EXP_MAX, np.inf)
    np.putmask(r, d < -1000, 0.0)
    return r.reshape(shape)


# --- SLEEF: Sleef_logd8_u10 / Sleef_logd4_u10 (xlog_u1, with FMA) ------------------------------------------

_LN2 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
# POLY7's coefficients c6 ... c0: its first level is fma(x2, (c5, c3, c1), (c4, c2, c0)), then
# fma(x4, (c6, (c3,c2)), ((c5,c4), (c1,c0))), then fma(x8, POLY3, POLY4)
_LOG_C = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0,
          0.2222214519839380009e+0, 0.2857142932794299317e+0, 0.3999999999635251990e+0,
          0.6666666666667333541e+0)
_LOG_ODD, _LOG_ODD_SPLIT, _LOG_EVEN = _constants(_LOG_C[1::2]), _splits(_LOG_C[1::2]), _constants(_LOG_C[2::2])
_E_MIN = -1100


@functools.cache
def _log_exponent_table():
    """s = ddmul((ln2_hi, ln2_lo), e) for each exponent e that log can meet: sx = ln2_hi * e,
    sy = fma(ln2_lo, e, fma(ln2_hi, e, -sx)) (the inner fma is the product's exact error)."""
    e = np.arange(_E_MIN, 1025).astype(_F64)     # (getexp of a positive number, subnormals included)
    sx = _LN2[0] * e
    sy = np.array([exact_fma(_LN2[1], float(k), exact_fma(_LN2[0], float(k), -float(h)))
                   for k, h in zip(e, sx)])
    return sx, sy


_R_075 = _k(1.0 / 0.75)
_M_ONE = _k(-1.0)


def _getexp_getmant(d):
    """AVX-512's getexp(d * (1/0.75)) (inf: 1024) and getmant(d) in [0.75, 1.5), for positive d
    (AVX2's ilogb and ldexp steps give the same numbers)."""
    scaled = d * _R_075
    _, k = np.frexp(scaled)                 # d * (1/0.75) = f * 2**k, f in [0.5, 1)
    e = k - 1
    np.putmask(e, scaled == np.inf, 1024)
    f, j = np.frexp(d)
    m = f * 2.0                             # [1, 2)
    np.putmask(m, m >= 1.5, m * 0.5)
    return e, m


@_kernel
def sleef_logd(d):
    """SLEEF's log (1.0 ulp), float64: d = m * 2**e with m in [0.75, 1.5); log(m) = 2 atanh(x) with
    x = (m - 1) / (m + 1) in double-double and a degree-7 polynomial in x**2; plus e * ln2 (ln2 as a
    double-double). Zero, negative, infinite and nan inputs as IEEE log (AVX-512's fixup step)."""
    d = np.asarray(d, _F64)
    shape = d.shape
    d = d.reshape(-1)
    positive = (d > 0) & (d < np.inf)
    dp = np.where(positive, d, 1.0)
    e, m = _getexp_getmant(dp)
    # x = dddiv(ddadd2(-1, m), ddadd2(1, m)): m - 1 is exact; m + 1 = dx + dy
    nx = m - _ONE
    dx = m + _ONE
    v = dx - m
    dy = (m - (dx - v)) + (_ONE - v)
    t = _ONE / dx
    xh = nx * t
    ts = _split(t)
    u = _product_error(xh, ts, _split(nx))          # fma(t, nx, -xh): the product's exact error
    p = dx * t
    v = _ONE - p                                    # fma(-dx, t, 1) = (1 - p) - e: 1 - p is exact (p ~ 1)
    v -= _product_error(p, _split(dx), ts)
    v = fma(-dy, t, v, None, ts)
    xl = fma(xh, v, u)
    x2 = xh * xh
    x4 = x2 * x2
    x8 = x4 * x4
    # |x| <= 0.2: in every polynomial step the added term dominates the product
    level1 = fma(x2, _LOG_ODD, _LOG_EVEN, None, _LOG_ODD_SPLIT, c_dominates=True)
    b = np.empty((2, x2.size), _F64)
    b[0] = _LOG_C[0]
    b[1] = level1[1]
    level2 = fma(x4, b, level1[0::2], None, None, c_dominates=True)    # POLY3(c6..c4), POLY4(c3..c0)
    poly = fma(x8, level2[0], level2[1], None, None, c_dominates=True)
    # s = e * ln2 (table) + 2x (ddadd_vd2_vd2_vd2), + x**3 * poly (ddadd_vd2_vd2_vd)
    index = e - _E_MIN
    table_hi, table_lo = _log_exponent_table()     # built at first use: 2,125 exact fmas in Fractions
    sx, sy = table_hi[index], table_lo[index]
    hi = sx + 2 * xh
    lo = sx - hi
    lo += 2 * xh
    lo += sy
    lo += 2 * xl
    y = (x2 * xh) * poly
    h2 = hi + y
    lo2 = hi - h2
    lo2 += y
    lo2 += lo
    r = h2 + lo2
    r[d == 0] = -np.inf
    r[d == np.inf] = np.inf
    r[(d < 0) | np.isnan(d)] = np.nan
    return r.reshape(shape)


def fma64(a, b, c):
    """fma of float64 arrays outside a kernel: every result checked on the spot."""
    a, b, c = (np.asarray(v, _F64) for v in (a, b, c))
    state = _STATE
    if state.checked:
        return fma(a, b, c)
    state.checked = True
    try:
        with np.errstate(all="ignore"):
            return fma(a, b, c)
    finally:
        state.checked = False


def _glibc_exp_one(v):
    try:
        return math.exp(v)
    except OverflowError:
        return math.inf


_GLIBC_EXP = np.frompyfunc(_glibc_exp_one, 1, 1)


def glibc_exp(v):
    """The C library's exp (std::exp on a double in ATen's scalar loops): Python's math.exp calls the
    same function of the same libm."""
    v = np.asarray(v, _F64)
    return _GLIBC_EXP(v).astype(_F64) if v.size else v.copy()
