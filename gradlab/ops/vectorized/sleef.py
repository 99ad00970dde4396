"""SLEEF's float32 functions (github.com/shibatch/sleef, src/libm/sleefsimdsp.c), which ATen's
Vectorized<float> calls: expf and logf (u10: within 1.0 ulp), tanhf, log1pf and expm1f. Each is a
range reduction, a polynomial evaluated by fma steps, and for the last four "double-float" arithmetic
(a value kept as a pair hi + lo of float32 numbers). Every step here is the same float32 operation.
"""
import numpy as np

from .core import (_F32, _F64, _I32, _bits, _f, _fma, _from_bits, _k32, _k64, _kernel, _poly, _rounded,
                   fma32)


# --- SLEEF 3.x: Sleef_expf16_u10 / Sleef_expf8_u10 ------------------------------------------------------

_R_LN2F = _F32(1.442695040888963407359924681001892137426645954152985934135449406931)
_L2UF, _L2LF = _F32(0.693145751953125), _F32(1.428606765330187045e-06)
_EXPF_POLY = [_F32(c) for c in (0.000198527617612853646278381, 0.00139304355252534151077271,
                                0.00833336077630519866943359, 0.0416664853692054748535156,
                                0.166666671633720397949219, 0.5)]
_K_R_LN2F, _K_M_L2UF, _K_M_L2LF = _k32(_R_LN2F), _k32(-_L2UF), _k64(-_L2LF)
_K_EXPF_POLY = [_k64(c) for c in _EXPF_POLY]
_K_ONE, _K_ZERO, _K_INF, _K_HALF, _K_TWO = _k32(1), _k32(0), _k32(np.inf), _k32(0.5), _k32(2)
_K_M104, _K_100 = _k32(-104), _k32(100)
_I_1 = np.array(1, _I32)


def _pow2i(q):
    """2**q as a float32, built from its exponent bits (q in the normal range)."""
    return _from_bits((q + _I32(0x7F)) << _I32(23))


@_kernel
def sleef_expf(d, nonpositive=False):
    """SLEEF's expf (1.0 ulp): exp(d) = 2**q * exp(s) with s = d - q*ln2 in two steps (ln2 split in
    an upper part of few bits and the rest), a degree-7 polynomial for exp(s), then 2**q applied in
    two halves so that it never overflows on the way."""
    d = _f(d)
    if d.ndim == 0:
        return sleef_expf(d.reshape(1), nonpositive).reshape(())
    qf = np.rint(d * _K_R_LN2F)                      # round to nearest even, as cvtps2dq
    # s = fma(q, -L2U, d): L2U has 15 bits and |q| <= 150 wherever the result is kept, so the product
    # is exact in float32 and one float32 addition rounds as the fma does
    s = qf * _K_M_L2UF
    s += d
    t = qf * _K_M_L2LF                               # fma(q, -L2L, s) (float64: its sum is exact)
    t += s
    s = t.astype(_F32)
    s64 = s.astype(_F64)
    u, u64 = _poly(s64, _K_EXPF_POLY)
    s *= s
    t = s.astype(_F64)                               # 1 + fma(s * s, u, s)
    t *= u64
    t += s64
    u = _K_ONE + _rounded(t, s, u64, s64)
    # u * 2**(q/2) * 2**(q - q/2): the first product is exact (|q| <= 150), so one ldexp rounds alike
    u = np.ldexp(u, qf.astype(_I32))
    np.putmask(u, d < _K_M104, _K_ZERO)
    if not nonpositive:                              # (the caller knows that no d is above 0)
        np.putmask(u, d > _K_100, _K_INF)
    return u


# --- SLEEF 3.x: Sleef_logf16_u10 / Sleef_logf8_u10 --------------------------------------------------------
# ("double-float" arithmetic: a value kept as a pair hi + lo of float32 numbers, ~48 bits)

def _df_add2(x, y):
    s = x + y
    v = s - x
    return s, (x - (s - v)) + (y - v)


def _df_div(nx, ny, dx, dy):
    t = _F32(1) / dx
    s = nx * t
    u = _fma(t, nx, -s, exact_sum=True)             # the product's rounding error: exact
    # (for log's m +- 1 with m in [0.75, 1.5): dy is 0 or a power of two, ny is 0: exact sums)
    v = _fma(-dy, t, _fma(-dx, t, _F32(1), exact_sum=True), exact_sum=True)
    return s, _fma(s, v, _fma(ny, t, u, exact_sum=True))


_K_4_3 = _k32(_F32(1.0 / 0.75))
_LN2_HI, _LN2_LO = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
_K_LN2_HI, _K_LN2_HI64, _K_LN2_LO64 = _k32(_LN2_HI), _k64(_LN2_HI), _k64(_LN2_LO)
_K_LOGF_POLY = [_k64(_F32(c)) for c in (0.3027294874, 0.3996108174, 0.6666694880)]
_K_1_5, _K_ONE64 = _k32(1.5), _k64(1)
_I_23, _I_127 = np.array(23, _I32), np.array(127, _I32)
_I_MANTISSA, _I_ONE_BITS = np.array(0x007FFFFF, _I32), np.array(0x3F800000, _I32)
_U_MAX_FINITE = np.array(0x7F7FFFFF, np.uint32)
_U_23 = np.array(23, np.uint32)


def _logf_exponent_table():
    """sx + sy = e * ln2 for each exponent field (and sign bit) of d / 0.75, as logf computes them:
    sx = ln2_hi * e, sy = fma(ln2_lo, e, fma(ln2_hi, e, -sx))."""
    e = ((np.arange(512, dtype=_I32) & _I32(0xFF)) - _I32(127)).astype(_F32)
    sx = _LN2_HI * e
    return sx, fma32(_LN2_LO, e, fma32(_LN2_HI, e, -sx))


_LOGF_E_HI, _LOGF_E_LO = _logf_exponent_table()


@_kernel
def sleef_logf(d):
    """SLEEF's logf (1.0 ulp) for positive normal d: d = m * 2**e with m in [0.75, 1.5);
    log(m) = 2 atanh(x), x = (m - 1) / (m + 1), in double-float; plus e * ln2 (ln2 as two floats).
    Zero, negative, infinite and nan inputs are fixed up after (as the vfixupimm step), as IEEE log."""
    d = _f(d)
    if d.ndim == 0:
        return sleef_logf(d.reshape(1)).reshape(())
    # e * ln2 as the double-float sx + sy depends on the exponent field of d * (1 / 0.75) alone (the
    # sign bit too, where the result is replaced at the end): looked up in a table of the 512 cases
    field = _bits(d * _K_4_3).view(np.uint32) >> _U_23
    sx, sy = _LOGF_E_HI[field], _LOGF_E_LO[field]
    bits = _bits(d)
    m = bits & _I_MANTISSA
    m |= _I_ONE_BITS
    m = m.view(_F32)                                                    # [1, 2)
    np.putmask(m, m >= _K_1_5, m * _K_HALF)                             # [0.75, 1.5)
    # x = (m - 1) / (m + 1) in double-float: m - 1 is exact, m + 1 = bx + by
    ax = m - _K_ONE
    bx = m + _K_ONE
    v = bx - _K_ONE
    by = (_K_ONE - (bx - v)) + (m - v)
    inv = _K_ONE / bx
    xx = ax * inv
    inv64 = inv.astype(_F64)
    u = inv64 * ax
    u -= xx                             # fma(t, ax, -xx): exact in float64, so already a float32
    t = inv64 * bx
    t = _K_ONE64 - t                    # fma(-bx, t, 1): exact (a float32)
    p = inv64 * by
    v = (t - p).astype(_F32)                                            # fma(-by, t, .): exact
    xx64 = xx.astype(_F64)
    t = xx64 * v
    t += u
    xy = _rounded(t, xx64, v, u)                                        # fma(xx, v, u)
    x2 = xx * xx
    poly, _ = _poly(x2.astype(_F64), _K_LOGF_POLY)
    twice = xx * _K_TWO
    s = sx + twice                                                      # (s) += 2x, double-float
    sy = (((sx - s) + twice) + sy) + xy * _K_TWO
    w = x2 * xx * poly
    r = s + w
    sy = ((s - r) + w) + sy
    r += sy
    # zero, negative, infinite and nan inputs (bits - 1 beyond the largest float's): as IEEE log,
    # which numpy's log is on them
    special = (bits - _I_1).view(np.uint32) >= _U_MAX_FINITE
    np.putmask(r, special, np.log(d))
    return r


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


@_kernel
def sleef_log1pf(d):
    """SLEEF's log1pf (1.0 ulp): 1 + d = m 2^e with m in [0.75, 1.5) formed without rounding 1 + d,
    then log(m) = 2 atanh(m / (2 + m)) in double-float, plus e ln2; log(d) beyond 1e38."""
    d = _f(d)
    if d.ndim == 0:
        return sleef_log1pf(d.reshape(1)).reshape(())
    field = _bits((d + _K_ONE) * _K_4_3).view(np.uint32) >> _U_23       # e + 127 (and the sign bit)
    t, sx, sy = _LOG1PF_T[field], _LOGF_E_HI[field], _LOGF_E_LO[field]
    m = d.astype(_F64)                                                  # fma(d, 2^-e, 2^-e - 1): exact
    m *= t
    m += _LOG1PF_T_M1[field]
    m = m.astype(_F32)
    bx = _K_TWO + m                                                     # dfadd(2, m)
    by = (_K_TWO - bx) + m
    inv = _K_ONE / bx                                                   # dfdiv((m, 0), (bx, by))
    xx = m * inv
    inv64 = inv.astype(_F64)
    w = inv64 * m
    w -= xx
    u = w.astype(_F32)                                                  # fma(inv, m, -xx): exact
    w = inv64 * bx
    w = (_K_ONE64 - w).astype(_F32)                                     # fma(-bx, inv, 1): exact
    p = inv64 * by
    p = w - p
    v = _rounded(p, -by, inv64, w)                                      # fma(-by, inv, .)
    xx64 = xx.astype(_F64)
    p = xx64 * v
    p += u
    xy = _rounded(p, xx64, v, u)                                        # fma(xx, v, u)
    x2 = xx * xx
    poly, _ = _poly(x2.astype(_F64), _K_LOGF_POLY)
    twice = xx * _K_TWO
    s = sx + twice
    sy = (((sx - s) + twice) + sy) + xy * _K_TWO
    w = x2 * xx * poly
    r = s + w
    sy = ((s - r) + w) + sy
    r += sy
    beyond = d > _K_BEYOND
    if beyond.any():
        np.putmask(r, beyond, sleef_logf(d))
    # below -1, -1, -0, inf and nan: as IEEE log1p (which numpy's log1p is on them)
    ok = d > _K_M_ONE
    ok &= d < _K_INF
    ok &= d != _K_ZERO
    np.putmask(r, ~ok, np.log1p(d))
    return r


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
