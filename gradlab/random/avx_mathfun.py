"""The float32 log and sin/cos PyTorch's randn uses on x86 CPUs, step for step.

For 16 or more float32 numbers, PyTorch's normal_ (torch.randn, nn.init.normal_, ...) turns uniform draws into
normal ones with Box-Muller, in its AVX2 kernel (also taken on AVX-512 CPUs). That kernel's log and sin/cos are not
the C library's: they are the Cephes polynomials of avx_mathfun.h, in float32, which GCC compiles with fused
multiply-adds wherever a product feeds an addition. Reproducing the same operations in the same order, each
rounded to float32 (fused ones once), gives PyTorch's bits: measured equal on 409,600 of 409,600 numbers from
100 seeds. A correctly rounded log or numpy's sin/cos differ in the last bit for some percent of the numbers.
"""
import numpy as np

from ..ops.vectorized import fma32 as _fma

_F32 = np.float32
_MIN_NORMAL = _F32(1.17549435e-38)
_SQRT_HALF = _F32(0.707106781186547524)
# log(1 + x) ~ x - x^2/2 + x^3 * P(x) on [sqrt(1/2) - 1, sqrt(2) - 1], P's coefficients highest first
_LOG_P = [_F32(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                            1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                            3.3333331174e-1)]
# log(2) split in two: a short head (exact times a small exponent) and the rest
_LN2_HEAD, _LN2_TAIL = _F32(0.693359375), _F32(-2.12194440e-4)

_FOUR_OVER_PI = _F32(1.27323954473516)
_PI_OVER_4_PARTS = (_F32(-0.78515625), _F32(-2.4187564849853515625e-4), _F32(-3.77489497744594108e-8))
_COS_P = [_F32(c) for c in (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]
_SIN_P = [_F32(c) for c in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]


def log_ps(x):
    """Natural log of positive float32 x (avx_mathfun's log256_ps): x = m * 2^e with m in [sqrt(1/2), sqrt(2)),
    then a polynomial in m - 1. x <= 0 gives nan (never met: Box-Muller takes the log of 1 - u, u in [0, 1))."""
    invalid = x <= 0
    bits = np.maximum(x, _MIN_NORMAL).view(np.int32)
    exponent = (bits >> 23) - 0x7F
    m = ((bits & ~np.int32(0x7F800000)) | np.int32(0x3F000000)).view(_F32)    # the mantissa, in [0.5, 1)
    e = exponent.astype(_F32) + _F32(1)
    small = m < _SQRT_HALF                                                    # then use 2m and e - 1
    m = (m - _F32(1)) + np.where(small, m, _F32(0))
    e = e - small.astype(_F32)
    z = m * m
    y = np.full_like(m, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = _fma(y, m, p)
    y = y * m
    y = _fma(y, z, e * _LN2_TAIL)            # (GCC fuses y * z into the addition of e * tail)
    y = _fma(z, _F32(-0.5), y)
    out = _fma(e, _LN2_HEAD, m + y)
    out[invalid] = np.nan
    return out


def sincos_ps(x):
    """(sin x, cos x) of float32 x (avx_mathfun's sincos256_ps): x reduced by a multiple j of pi/4 (in three
    parts, for accuracy), then two polynomials, swapped and signed by j's octant."""
    negative = np.signbit(x)
    x = np.abs(x)
    j = (x * _FOUR_OVER_PI).astype(np.int32)       # (truncation, as cvttps)
    j = (j + 1) & ~1                                # an even octant
    y = j.astype(_F32)
    for part in _PI_OVER_4_PARTS:
        x = _fma(y, part, x)
    sin_negative = negative ^ ((j & 4) != 0)
    cos_negative = (~(j - 2) & 4) != 0
    use_sin_poly = (j & 2) == 0
    z = x * x
    c = np.full_like(x, _COS_P[0])
    for p in _COS_P[1:]:
        c = _fma(c, z, p)
    c = _fma(c * z, z, -(z * _F32(0.5))) + _F32(1)    # 1 - z/2 + z^2 * P(z)
    s = np.full_like(x, _SIN_P[0])
    for p in _SIN_P[1:]:
        s = _fma(s, z, p)
    s = _fma(s * z, x, x)                              # x + x^3 * Q(z)
    sin, cos = np.where(use_sin_poly, s, c), np.where(use_sin_poly, c, s)
    return np.where(sin_negative, -sin, sin), np.where(cos_negative, -cos, cos)
