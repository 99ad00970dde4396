"""SLEEF's float32 functions (github.com/shibatch/sleef, src/libm/sleefsimdsp.c), which ATen's
Vectorized<float> calls: expf and logf (u10: within 1.0 ulp), tanhf, log1pf and expm1f. Each is a
range reduction, a polynomial evaluated by fma steps, and for the last four "double-float" arithmetic
(a value kept as a pair hi + lo of float32 numbers). Every step here is the same float32 operation.

expf, logf and log1pf are written for few numpy calls (their cost is per call on small arrays), and
without the kernels' double-rounding bookkeeping (core.py) where it is not needed:
* a fused multiply-add whose float64 sum is exact rounds once when cast to float32; where that
  follows from the operands' exponents the comment says so;
* Horner steps whose result stays in one binade [2**e, 2**(e+1)) are rounded by adding c + C and
  subtracting C (_binade_rounding): one rounding, to float32's grid in that binade;
* the other steps are either checked or were checked on every input they can see. expf, over every
  float32 s with |s| <= 0.3466 (the reduced argument: |s| <= ln2 (1/2 + 1.2e-5)): the four binade
  steps stay strictly inside their binades, the fifth step's float64 sum (around 0.5) is half-way
  between two float32 numbers only where exact, the last one's (fma(s * s, u, s)) is half-way and
  inexact for 3 of the 2.1e9 s, where its last bit is then lost in 1 + r (tested); logf's m-dependent part (xx, xy, w) equal to the
  step-by-step checked one on every m in [0.75, 1.5), and its m, sx, sy equal to the former bit
  manipulation's on every positive normal float32 (the rest of logf is the same float32
  operations). log1pf keeps the check of its xy step (its m is any float32 in [-0.25, 0.5)).
tests/ops/test_vectorized_fast_paths.py repeats the cheap parts of these checks.
"""
import numpy as np

from .core import _F32, _F64, _I32, _f, _fma, _from_bits, _k32, _k64, _kernel, _poly, _rounded_once, fma32


# --- SLEEF 3.x: Sleef_expf16_u10 / Sleef_expf8_u10 ------------------------------------------------------

_R_LN2F = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2UF, _L2LF = _F32(0.693145751953125), _F32(1.428606765330187045e-06)
_EXPF_POLY = [_F32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                0.00833336077630519866943359, 0.0416664853692054748535156,
                                0.166666671633720397949219, 0.5)]
_K_R_LN2F, _K_M_L2UF = _k32(_R_LN2F), _k32(-_L2UF)
_K_ONE, _K_ZERO, _K_INF, _K_HALF, _K_TWO = _k32(1), _k32(0), _k32(np.inf), _k32(0.5), _k32(2)
_K_M104, _K_100 = _k32(-104), _k32(100)
_I_1 = np.array(1, _I32)


def _pow2i(q):
    """2**q as a float32, built from its exponent bits (q in the normal range)."""
    return _from_bits((q + _I32(0x7F)) << _I32(23))


def _binade_rounding(c, e):
    """For a Horner step u = fma(u, s, c) whose result always lies in [2**e, 2**(e+1)): the constants
    (c + C, C) with C = 1.5 * 2**(e+29), whose float64 ulp is float32's ulp in that binade, 2**(e-23).
    Then (u * s + (c + C)) - C is the fma, rounded once: u * s is exact in float64 (24 + 24 bits),
    c + C is exact (c's last bit is 2**(e-23)), the one rounding of the float64 sum is to float32's
    grid there (ties to even alike: C / 2**(e-23) is even), and subtracting C is exact."""
    big = 1.5 * 2.0 ** (e + 29)
    assert float(np.float64(c) + big) - big == float(c)          # c + C exact
    return _k64(np.float64(c) + big), _k64(big)


# The results of the first four Horner steps of expf stay in one binade each for |s| <= ln2/2
# (2**-10, 2**-7, 2**-5, 2**-3: 0.00132-0.00147, 0.00787-0.00885, 0.0389-0.0448, 0.153-0.183). The
# last two steps (around 0.5, and 1 + fma(s * s, u, s)) cross binades and are rounded by a float32
# cast of the float64 sum, with a half-way test (see _expf).
_EXPF_STEPS = [_binade_rounding(c, e) for c, e in zip(_EXPF_POLY[1:5], (-10, -7, -5, -3))]
_K_EXPF_C0, _K_EXPF_C5 = _k64(_EXPF_POLY[0]), _k64(_EXPF_POLY[5])
_K_M_L2F64 = _k64(-(np.float64(_L2UF) + np.float64(_L2LF)))
assert float(_K_M_L2F64) + float(_L2UF) == -float(_L2LF)        # L2U + L2L is exact in float64 (43 bits)


def _expf(d, nonpositive=False):
    """SLEEF's expf of a float32 array (at least 1-d); numpy's warnings are the caller's to silence.
    Few numpy calls (their cost is per call on small arrays) and four buffers reused throughout (a
    fresh large array costs its page faults)."""
    # q = rint(d * (1/ln2)) (cvtps2dq: to nearest even): adding 1.5 * 2**23 rounds a float32 to an
    # integer alike (|q| < 2**22 wherever the result is kept) and leaves q in the low mantissa bits
    a = d * _K_R_LN2F
    a += _K_MAGIC
    q = a - _K_MAGIC
    # s = fma(q, -L2L, fma(q, -L2U, d)): the inner one is exact (|q| <= 150 and L2U has 15 bits, so
    # q * L2U is a float32 and the difference exact by Sterbenz's lemma: d is within a factor 2 of
    # q * L2U unless q = 0), and so is, in float64, d - q * (L2U + L2L) (L2U + L2L has 43 bits, times
    # q 51; the sum's bits span 42): one rounding to float32, as the outer fma
    t = q.astype(_F64)
    t *= _K_M_L2F64
    s64 = d.astype(_F64)
    t += s64
    s = q
    np.copyto(s, t)
    np.copyto(s64, s)
    np.multiply(s64, _K_EXPF_C0, out=t)              # Horner's steps, each rounded once to float32
    for k, big in _EXPF_STEPS:
        t += k
        t -= big
        t *= s64
    t += _K_EXPF_C5
    u = t.astype(_F32)          # (checked on every s: half-way only where exact, so rounded once)
    np.copyto(t, u)
    np.multiply(s, s, out=u)                         # 1 + fma(s * s, u, s)
    np.copyto(s64, u)
    t *= s64
    np.copyto(s64, s)
    t += s64
    # a float32 cast of this sum rounds twice where it is half-way between two float32 numbers
    # without being exact: 3 of the 2.1e9 reduced arguments s do that (just below 2**-21, 2**-19 and
    # 2**-17: 0x34ffffff, 0x35fffffb, 0x36ffffeb), and there the last bit of r = fma(s * s, u, s)
    # is lost in 1 + r (r is within 2**-40 of a float32 near 1): the result is the same
    np.copyto(u, t)
    u += _K_ONE
    qi = a.view(_I32)
    qi -= _I_MAGIC
    # u * 2**(q/2) * 2**(q - q/2): the first product is exact (|q| <= 150), so one ldexp rounds alike
    np.ldexp(u, qi, out=u)
    u[d < _K_M104] = _K_ZERO                         # (boolean assignment: cheapest for few numbers)
    if not nonpositive:                              # (the caller knows that no d is above 0)
        u[d > _K_100] = _K_INF
    return u


_K_MAGIC, _I_MAGIC = _k32(1.5 * 2 ** 23), np.array(0x4B400000, _I32)


def _expf_nd(d, nonpositive=False):
    """_expf of a float32 array of any number of dimensions (inside a kernel: no errstate of its own)."""
    return _expf(d, nonpositive) if d.ndim else _expf(d.reshape(1), nonpositive).reshape(())


def sleef_expf(d, nonpositive=False):
    """SLEEF's expf (1.0 ulp): exp(d) = 2**q * exp(s) with s = d - q*ln2 in two steps (ln2 split in
    an upper part of few bits and the rest), a degree-7 polynomial for exp(s), then 2**q applied in
    two halves so that it never overflows on the way."""
    d = _f(d)
    with np.errstate(all="ignore"):
        if d.ndim == 0:
            return _expf(d.reshape(1), nonpositive).reshape(())
        return _expf(d, nonpositive)


# --- SLEEF 3.x: Sleef_logf16_u10 / Sleef_logf8_u10 --------------------------------------------------------
# ("double-float" arithmetic: a value kept as a pair hi + lo of float32 numbers, ~48 bits)

_K_4_3 = _k32(_F32(1.0 / 0.75))
_LN2_HI, _LN2_LO = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
_K_ONE64 = _k64(1)
_U_23 = np.array(23, np.uint32)


def _logf_exponent_table():
    """sx + sy = e * ln2 for each exponent field (and sign bit) of d / 0.75, as logf computes them:
    sx = ln2_hi * e, sy = fma(ln2_lo, e, fma(ln2_hi, e, -sx))."""
    e = ((np.arange(512, dtype=_I32) & _I32(0xFF)) - _I32(127)).astype(_F32)
    sx = _LN2_HI * e
    return sx, fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))


_LOGF_E_HI, _LOGF_E_LO = _logf_exponent_table()


# For each exponent field (and sign bit) of d * (1 / 0.75): e * ln2 as the double-float sx + sy, and
# 2**-e, which scales d to m in [0.75, 1.5) exactly (as SLEEF's AVX2 code does; AVX-512's getmant
# gives the same m for normal d). Rows (sx, sy, 2**-e): one lookup for the three.
_LOGF_TABLE = np.stack([_LOGF_E_HI, _LOGF_E_LO,
                        np.ldexp(_F32(1), -((np.arange(512) & 0xFF) - 127)).astype(_F32)])
_LOGF_STEPS = [_binade_rounding(_F32(0.3996108174), -2), _binade_rounding(_F32(0.6666694880), -1)]
_K_LOGF_C0 = _k64(_F32(0.3027294874))
_I_MIN_NORMAL, _U_NORMAL_SPAN = np.array(0x00800000, _I32), np.array(0x7F000000, np.uint32)


def _logf_reduced(m, f):
    """logf's part that depends on m in [0.75, 1.5) alone: x = (m - 1) / (m + 1) as the double-float
    xx + xy, and w = x**3 * poly(x**2). m and f (a float32 buffer of m's shape) are overwritten: xy
    is returned in f, w in m."""
    # m - 1 is exact, m + 1 = bx + by exactly
    m64 = m.astype(_F64)
    p = m64 - _K_ONE64                                                  # ax (exact)
    m64 += _K_ONE64                                                     # m + 1 (exact)
    np.copyto(f, m64)                                                   # bx
    np.divide(_K_ONE, f, out=f)                                         # t = 1 / bx
    t64 = f.astype(_F64)
    p *= t64                                                            # ax t (exact)
    xx = p.astype(_F32)
    xx64 = xx.astype(_F64)
    p -= xx64                           # u = fma(t, ax, -xx): exact in float64 (a float32 number)
    # v = fma(-by, t, fma(-bx, t, 1)): the inner one is exact, so v is 1 - (m + 1) t rounded once;
    # (m + 1) t has 25 + 24 bits and is within a factor 2 of 1: exact in float64
    m64 *= t64
    np.subtract(_K_ONE64, m64, out=m64)
    np.copyto(f, m64)                                                   # v
    np.copyto(m64, f)
    m64 *= xx64                                                         # xy = fma(xx, v, u)
    m64 += p
    np.copyto(f, m64)                                                   # xy
    np.multiply(xx, xx, out=m)                                          # x2
    np.copyto(t64, m)
    # the polynomial in x2 < 0.04, Horner's steps as expf's (their results in one binade each)
    np.multiply(t64, _K_LOGF_C0, out=m64)
    (k1, big1), (k2, big2) = _LOGF_STEPS
    m64 += k1
    m64 -= big1
    m64 *= t64
    m64 += k2
    m64 -= big2
    m *= xx
    m *= m64.astype(_F32)                                               # w = x2 xx poly
    return xx, f, m


def _logf(d, special=True):
    """SLEEF's logf of a float32 array (at least 1-d); numpy's warnings are the caller's to silence.
    special=False: the caller knows that every d is a normal positive number or nan (a nan passes
    through as a nan), so the fix-up of zero, subnormal, negative and infinite inputs is left out.
    The double-float steps run in float64 where that is exact, and the buffers
    are reused (a fresh large array costs its page faults)."""
    f = d * _K_4_3
    field = f.view(np.uint32)
    field >>= _U_23
    sx, sy, m = _LOGF_TABLE.take(field, axis=1)
    m *= d                                                              # [0.75, 1.5)
    xx, xy, w = _logf_reduced(m, f)
    xx *= _K_TWO                                                        # 2x
    s = sx + xx                                                         # (s) += 2x, double-float
    sx -= s
    sx += xx
    sx += sy
    xy *= _K_TWO
    sx += xy                                                            # sy
    r = s + w                                                           # (s) += w
    s -= r
    s += w
    s += sx
    r += s
    if special:
        # zero, subnormal, negative, infinite and nan inputs: as IEEE log (numpy's float64 log rounded
        # once is that on them, and SLEEF's result on subnormals, which AVX-512's getmant normalizes)
        bits = d.view(_I32) - _I_MIN_NORMAL
        special = bits.view(np.uint32) >= _U_NORMAL_SPAN
        if np.count_nonzero(special):
            r[special] = np.log(d[special].astype(_F64))
    return r


def sleef_logf(d):
    """SLEEF's logf (1.0 ulp) for positive normal d: d = m * 2**e with m in [0.75, 1.5);
    log(m) = 2 atanh(x), x = (m - 1) / (m + 1), in double-float; plus e * ln2 (ln2 as two floats).
    Zero, negative, infinite and nan inputs are fixed up after (as the vfixupimm step), as IEEE log."""
    d = _f(d)
    with np.errstate(all="ignore"):
        if d.ndim == 0:
            return _logf(d.reshape(1)).reshape(())
        return _logf(d)


# --- tanh: SLEEF's tanhf (vectors) and glibc's tanhf / expm1f (fdlibm, scalar loop) ----------------------

def _df_add2_f2_f(xx, xy, y):
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _df_add2_f2_f2(xx, xy, yx, yy):
    s = xx + yx
    v = s - xx
    return s, ((xx - (s - v)) + (yx - v)) + (xy + yy)


def _df_mul_f2_f(xx, xy, y):
    s = xx * y
    return s, _fma(xy, y, _fma(xx, y, -s, exact_sum=True))


def _df_mul_f2_f2(xx, xy, yx, yy):
    s = xx * yx
    return s, _fma(xx, yy, _fma(xy, yx, _fma(xx, yx, -s, exact_sum=True)))


_K_EXPK2F_POLY = [_k64(_F32(c)) for c in (0.1980960224e-3, 0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1)]
_K_C6 = _k32(0.166666659414234244790680580464)
_K_M_L2LF32 = _k32(-_L2LF)
_K_TANH_ONE = _k32(8.664339742)


def _sleef_expk2f(dx):
    """SLEEF's expk2f: exp of a double-float (here dx + 0), as a double-float."""
    qf = np.rint(dx * _K_R_LN2F)          # (the q of inputs beyond the normal range is not used)
    q = qf.astype(_I32)
    sx, sy = _df_add2_f2_f(dx, _K_ZERO, qf * _K_M_L2UF)
    sx, sy = _df_add2_f2_f(sx, sy, qf * _K_M_L2LF32)
    sx64 = sx.astype(_F64)
    u, _ = _poly(sx64, _K_EXPK2F_POLY)
    tx, ty = _df_add2_f2_f(*_df_mul_f2_f(sx, sy, u), _K_C6)
    tx, ty = _df_add2_f2_f(*_df_mul_f2_f2(sx, sy, tx, ty), _K_HALF)
    qx = sx * sx                                                       # dfsqu
    qy = _fma(sx + sx, sy, _fma(sx, sx, -qx, exact_sum=True))
    tx, ty = _df_add2_f2_f2(sx, sy, *_df_mul_f2_f2(qx, qy, tx, ty))
    s = _K_ONE + tx                                                    # dfadd(1, t)
    tx, ty = s, ((_K_ONE - s) + tx) + ty
    half = q >> _I_1
    scale = _pow2i(half), _pow2i(q - half)
    tx *= scale[0]
    tx *= scale[1]
    ty *= scale[0]
    ty *= scale[1]
    low = dx < _K_M104
    np.putmask(tx, low, _K_ZERO)
    np.putmask(ty, low, _K_ZERO)
    return tx, ty


@_kernel
def sleef_tanhf(x):
    """SLEEF's tanhf (1.0 ulp): (e - 1/e) / (e + 1/e) with e = exp(|x|) in double-float."""
    x = _f(x)
    if x.ndim == 0:
        return sleef_tanhf(x.reshape(1)).reshape(())
    y = np.abs(x)
    dx, dy = _sleef_expk2f(y)
    ex = _K_ONE / dx                                                   # dfrec
    ey = ex * _fma(-dy, ex, _fma(-dx, ex, _K_ONE, exact_sum=True))
    nx = dx - ex                                                       # dfadd(d, -e)
    ny = (((dx - nx) - ex) + dy) - ey
    mx = dx + ex                                                       # dfadd(d, e)
    my = (((dx - mx) + ex) + dy) + ey
    t = _K_ONE / mx                                                    # dfdiv(n, m)
    s = nx * t
    u = _fma(t, nx, -s, exact_sum=True)
    v = _fma(-my, t, _fma(-mx, t, _K_ONE, exact_sum=True))
    r = s + _fma(s, v, _fma(ny, t, u))
    one = y > _K_TANH_ONE
    one |= np.isnan(r)
    np.putmask(r, one, _K_ONE)
    r = np.copysign(r, x)
    np.putmask(r, np.isnan(x), x)
    return r


# --- log1p: SLEEF's log1pf (vectors) and glibc's log1pf (fdlibm, scalar loop) ----------------------------

def _log1pf_exponent_table():
    """For each exponent field (and sign bit) of (1 + d) / 0.75: 2^-e and 2^-e - 1 as log1pf forms
    them, and e * ln2 as the double-float sx + sy (as in logf)."""
    e = (np.arange(512, dtype=_I32) & _I32(0xFF)) - _I32(127)
    t = _pow2i(-e)
    return t, t - _F32(1)


_LOG1PF_T, _LOG1PF_T_M1 = _log1pf_exponent_table()
_K_BEYOND = _k32(float.fromhex("0x1.2ced32p+126"))
_K_M_ONE, _K_M_ZERO = _k32(-1), _k32(-0.0)
_K_EXPM1_BIG, _K_EXPM1_SMALL = _k32(88.72283172607421875), _k32(-16.635532333438687426013570)


# Rows (2^-e, 2^-e - 1) as float64 (the reduction runs in float64), (sx, sy) as float32
_LOG1PF_T64 = np.stack([_LOG1PF_T, _LOG1PF_T_M1]).astype(_F64)
_LOG1PF_E = np.stack([_LOGF_E_HI, _LOGF_E_LO])


def _log1pf(d):
    """SLEEF's log1pf of a float32 array (at least 1-d); numpy's warnings are the caller's to silence."""
    f = d + _K_ONE
    f *= _K_4_3
    field = f.view(np.uint32)
    field >>= _U_23                                                     # e + 127 (and the sign bit)
    t, t_m1 = _LOG1PF_T64.take(field, axis=1)
    sx, sy = _LOG1PF_E.take(field, axis=1)
    m64 = d.astype(_F64)                                                # fma(d, 2^-e, 2^-e - 1): exact
    m64 *= t
    m64 += t_m1
    m = m64.astype(_F32)
    bx = _K_TWO + m                                                     # dfadd(2, m)
    by = _K_TWO - bx
    by += m
    np.divide(_K_ONE, bx, out=f)                                        # dfdiv((m, 0), (bx, by))
    xx = m * f
    inv64 = f.astype(_F64)
    p = m64 * inv64
    xx64 = xx.astype(_F64)
    p -= xx64                                       # u = fma(inv, m, -xx): exact (a float32 number)
    np.copyto(m64, bx)
    m64 *= inv64
    np.subtract(_K_ONE64, m64, out=m64)             # w = fma(-bx, inv, 1): exact (a float32 number)
    # v = fma(-by, inv, w): exact in float64, so rounded once by the cast. |w| < 2**-24 and
    # |by inv| < 2**-23; w's last bit is at least ulp(bx) ulp(inv) >= 2**-48, and where w != 0,
    # bx != 2, so |m| >= 2**-24, by's last bit >= 2**-47 and by inv's >= 2**-72: 50 bits in all (where
    # w = 0 the sum is the product alone)
    np.copyto(t, by)
    t *= inv64
    np.subtract(m64, t, out=t)
    v = t.astype(_F32)
    np.copyto(m64, v)
    m64 *= xx64
    m64 += p
    xy = _rounded_once(m64, xx64, v, p)                                 # fma(xx, v, u)
    x2 = xx * xx
    np.copyto(t, x2)
    # the polynomial in x2 < 0.04 (xx = m / (2 + m) lies in [-1/7, 0.2), as logf's), rounded as logf's
    np.multiply(t, _K_LOGF_C0, out=m64)
    (k1, big1), (k2, big2) = _LOGF_STEPS
    m64 += k1
    m64 -= big1
    m64 *= t
    m64 += k2
    m64 -= big2
    x2 *= xx
    x2 *= m64.astype(_F32)                                              # w
    xx *= _K_TWO
    s = sx + xx
    sx -= s
    sx += xx
    sx += sy
    xy *= _K_TWO
    sx += xy                                                            # sy
    r = s + x2
    s -= r
    s += x2
    s += sx
    r += s
    beyond = d > _K_BEYOND
    if np.count_nonzero(beyond):
        r[beyond] = _logf(d[beyond])
    # below -1, -1, -0, inf and nan: as IEEE log1p (which numpy's log1p is on them)
    ok = d > _K_M_ONE
    ok &= d < _K_INF
    ok &= d != _K_ZERO
    np.logical_not(ok, out=ok)
    if np.count_nonzero(ok):
        r[ok] = np.log1p(d[ok])
    return r


def _log1pf_nd(d):
    return _log1pf(d) if d.ndim else _log1pf(d.reshape(1)).reshape(())


def sleef_log1pf(d):
    """SLEEF's log1pf (1.0 ulp): 1 + d = m 2^e with m in [0.75, 1.5) formed without rounding 1 + d,
    then log(m) = 2 atanh(m / (2 + m)) in double-float, plus e ln2; log(d) beyond 1e38."""
    with np.errstate(all="ignore"):
        return _log1pf_nd(_f(d))


@_kernel
def sleef_expm1f(a):
    """SLEEF's expm1f (1.0 ulp): exp in double-float (expk2f) minus 1, rounded once."""
    a = _f(a)
    if a.ndim == 0:
        return sleef_expm1f(a.reshape(1)).reshape(())
    dx, dy = _sleef_expk2f(a)
    s = dx + _K_M_ONE                                                  # dfadd2(d, -1)
    v = s - dx
    x = s + (((dx - (s - v)) + (_K_M_ONE - v)) + dy)
    np.putmask(x, a > _K_EXPM1_BIG, _K_INF)
    np.putmask(x, a < _K_EXPM1_SMALL, _K_M_ONE)
    np.putmask(x, (a == _K_ZERO) & np.signbit(a), _K_M_ZERO)
    np.putmask(x, np.isnan(a), a)
    return x
