"""The float32 log and sine/cosine of PyTorch's randn, one lane at a time on numpy arrays.

torch.randn of 16 float32 numbers or more runs normal_fill_16_AVX2 (aten/src/ATen/native/cpu/
DistributionTemplates.h), whose Box-Muller calls log256_ps and sincos256_ps from avx_mathfun.h: Cephes'
float polynomials, not the C library's logf/cosf. Every step below is one float32 operation of those
functions, in their order. The library is compiled with FMA contraction, so where a product feeds an
addition the compiler made one fused multiply-add (_fma32, one rounding) of them: which pairs it fused is
what the comments say, measured bit for bit against torch.randn (0 of 3,000,000 numbers differ)."""
import numpy as np

from .exact import _round_odd_sum

_f = np.float32


def _fma32(a, b, c):
    """float32 a * b + c rounded once (exact.py's _fma32, lean for these float32 arrays and scalars: it
    runs 20 times a block). The product is exact in float64; the float64 sum rounds to float32 like one
    rounding unless it lands on a float32 midpoint (then summed again, rounding to odd). Unlike exact.py's,
    no float32 subnormals are handled: randn's intermediate values stay far above them; c is a scalar or
    an array of the result's shape."""
    p = np.multiply(a, b, dtype=np.float64)
    s = p + c
    doubtful = np.flatnonzero((s.view(np.int64) & _BELOW_FLOAT32) == _FLOAT32_MIDPOINT)
    if doubtful.size:                   # (a few in a million: indexed by position, not by a mask)
        c = np.asarray(c, np.float64)
        s.flat[doubtful] = _round_odd_sum(p.flat[doubtful], c.flat[doubtful] if c.ndim else np.full(doubtful.size, c))
    return s.astype(_f)


_BELOW_FLOAT32 = (1 << 29) - 1          # the 29 bits of a float64's mantissa that float32 lacks
_FLOAT32_MIDPOINT = 1 << 28             # ... as they are at a midpoint between two float32 values

# log256_ps's Cephes coefficients (log(1 + x) = x - x^2 / 2 + x^3 P(x) on [sqrt(1/2) - 1, sqrt(2) - 1])
_LOG_P = [_f(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                          1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                          3.3333331174E-1)]
_LOG_Q1, _LOG_Q2 = _f(-2.12194440e-4), _f(0.693359375)     # log(2) split in two: q2 has few bits
_SQRTHF = _f(0.707106781186547524)
_MIN_NORM_POS = np.array(0x00800000, np.uint32).view(_f)
_MANT_BITS = np.uint32(0x807FFFFF)                          # ~0x7f800000: the sign and the mantissa
_HALF_BITS = np.array(0.5, _f).view(np.uint32)

# sincos256_ps's: pi / 4 in three parts (the "extended precision modular arithmetic"), the polynomials
_DP = [_f(-0.78515625), _f(-2.4187564849853515625e-4), _f(-3.77489497744594108e-8)]
_SINCOF = [_f(-1.9515295891E-4), _f(8.3321608736E-3), _f(-1.6666654611E-1)]
_COSCOF = [_f(2.443315711809948E-005), _f(-1.388731625493765E-003), _f(4.166664568298827E-002)]
_FOPI = _f(1.27323954473516)                                # 4 / pi
_SIGN = np.uint32(0x80000000)


def log256_ps(x: np.ndarray) -> np.ndarray:
    """avx_mathfun's natural log of positive float32 numbers (x = m * 2^e, log(m) by a polynomial)."""
    x = np.maximum(np.asarray(x, _f), _MIN_NORM_POS)
    bits = x.view(np.uint32)
    e = ((bits >> 23).astype(np.int32) - 0x7F).astype(_f) + _f(1)
    x = ((bits & _MANT_BITS) | _HALF_BITS).view(_f)             # the mantissa, in [0.5, 1)
    small = x < _SQRTHF                                         # then use 2m - 1 and e - 1
    x = (x - _f(1)) + np.where(small, x, _f(0))
    e = e - np.where(small, _f(1), _f(0))
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = _fma32(y, x, p)                                     # Horner: each y * x + p fused
    y = y * x
    y = _fma32(y, z, e * _LOG_Q1)                               # y * z fused into + e * q1 (rounded)
    # (fused too, but z * 0.5 and e * q2 (17 bits) are exact in float32: one float32 operation rounds once)
    y = y - z * _f(0.5)
    x = x + y
    return x + e * _LOG_Q2


def sincos256_ps(x: np.ndarray) -> tuple:
    """avx_mathfun's (sin(x), cos(x)) of float32 numbers in [0, 2 pi] (randn's angles): reduced to
    [-pi/4, pi/4] by octant j."""
    bits = np.asarray(x, _f).view(np.uint32)
    sign_sin = bits & _SIGN
    x = (bits & ~_SIGN).view(_f)
    j = (x * _FOPI).astype(np.int32)                            # truncated, as _mm256_cvttps_epi32
    j = (j + 1) & ~1
    y = j.astype(_f)
    sign_sin = sign_sin ^ ((j & 4).astype(np.uint32) << 29)
    sign_cos = (~(j - 2) & 4).astype(np.uint32) << 29
    use_sin_poly = (j & 2) == 0
    # x - y * pi/4, one part at a time, each fused. For randn's angles (below 2 pi: y <= 8) y times the first
    # two parts (8 and 11 bits) is exact in float32, so one float32 addition rounds once as the fused form
    x = x + y * _DP[0]
    x = x + y * _DP[1]
    x = _fma32(y, _DP[2], x)
    z = x * x
    yc = _fma32(_COSCOF[0], z, _COSCOF[1])
    yc = _fma32(yc, z, _COSCOF[2])
    yc = yc * z
    yc = _fma32(yc, z, -(z * _f(0.5)))                          # (the last * z fused into - z / 2)
    yc = yc + _f(1)
    ys = _fma32(_SINCOF[0], z, _SINCOF[1])
    ys = _fma32(ys, z, _SINCOF[2])
    ys = ys * z
    ys = _fma32(ys, x, x)
    s = np.where(use_sin_poly, ys, yc)
    c = np.where(use_sin_poly, yc, ys)
    return (s.view(np.uint32) ^ sign_sin).view(_f), (c.view(np.uint32) ^ sign_cos).view(_f)
