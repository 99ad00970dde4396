"""The C library's float32 functions (glibc, Sun's fdlibm algorithms and ARM's optimized-routines),
which PyTorch's scalar loops call for the numbers left over after whole vectors: expf, erff,
expm1f, tanhf, log1pf. Same algorithm, same float32 steps.
"""
import numpy as np

from .core import _F32, _F64, _I32, _bits, _f, _from_bits, _h32, _kernel


# --- the C library's expf (glibc 2.28+, from ARM's optimized-routines) ----------------------------------
# PyTorch's scalar loops (the numbers left over after whole vectors) call std::exp, which is glibc's
# expf: computed in float64 from a table of 2**(i/32) and a cubic polynomial, rounded to float32 once.

_EXP2F_TABLE = np.array([       # 2**(i/32) as float64 bits, minus i << 47 (glibc's __exp2f_data.tab)
    0x3FF0000000000000, 0x3FEFD9B0D3158574, 0x3FEFB5586CF9890F, 0x3FEF9301D0125B51,
    0x3FEF72B83C7D517B, 0x3FEF54873168B9AA, 0x3FEF387A6E756238, 0x3FEF1E9DF51FDEE1,
    0x3FEF06FE0A31B715, 0x3FEEF1A7373AA9CB, 0x3FEEDEA64C123422, 0x3FEECE086061892D,
    0x3FEEBFDAD5362A27, 0x3FEEB42B569D4F82, 0x3FEEAB07DD485429, 0x3FEEA47EB03A5585,
    0x3FEEA09E667F3BCD, 0x3FEE9F75E8EC5F74, 0x3FEEA11473EB0187, 0x3FEEA589994CCE13,
    0x3FEEACE5422AA0DB, 0x3FEEB737B0CDC5E5, 0x3FEEC49182A3F090, 0x3FEED503B23E255D,
    0x3FEEE89F995AD3AD, 0x3FEEFF76F2FB5E47, 0x3FEF199BDD85529C, 0x3FEF3720DCEF9069,
    0x3FEF5818DCFBA487, 0x3FEF7C97337B9B5F, 0x3FEFA4AFA2A490DA, 0x3FEFD0765B6E4540], np.uint64)
_EXP2F_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * 32
_EXP2F_SHIFT = float.fromhex("0x1.8p+52")
_EXP2F_C = (float.fromhex("0x1.c6af84b912394p-5") / 32 ** 3, float.fromhex("0x1.ebfce50fac4f3p-3") / 32 ** 2,
            float.fromhex("0x1.62e42ff0c52d6p-1") / 32)


@_kernel
def glibc_expf(x):
    """exp(x) = 2**(k/32) * 2**(r/32) with k = round(x * 32/ln2): the table gives 2**((k mod 32)/32),
    k // 32 goes into the exponent bits, and C0 r^3 + C1 r^2 + C2 r + 1 approximates 2**(r/32)."""
    x = _f(x)
    xd = x.astype(_F64)
    z = _EXP2F_INV_LN2_N * xd
    kd = z + _EXP2F_SHIFT                  # rounds z to an integer, which lands in the low bits
    ki = kd.view(np.uint64)
    kd = kd - _EXP2F_SHIFT
    r = z - kd
    s = (_EXP2F_TABLE[ki % np.uint64(32)] + (ki << np.uint64(47))).view(_F64)
    c0, c1, c2 = _EXP2F_C
    y = ((c0 * r + c1) * (r * r) + (c2 * r + 1)) * s
    out = y.astype(_F32)
    out = np.where(x > _F32(float.fromhex("0x1.62e42ep6")), _F32(np.inf), out)
    out = np.where(x < _F32(-float.fromhex("0x1.9fe368p6")), _F32(0), out)
    out = np.where(np.isnan(x), x, out)
    return out.astype(_F32, copy=False)


# --- the C library's erff (glibc <= 2.39: Sun's fdlibm algorithm, in float) -------------------------------


_ERF_PP = _h32(0x3E0375D4, 0xBEA66BEB, 0xBCE9528F, 0xBBBD1489, 0xB7C756B1)
_ERF_QQ = _h32(0x3ECBBBCE, 0x3D852A63, 0x3BA68116, 0x390AEE49, 0xB684E21A)
_ERF_PA = _h32(0xBB1ACDC6, 0x3ED46805, 0xBEBE9208, 0x3EA2FE54, 0xBDE31CC2, 0x3D1151B3, 0xBB0DF9C0)
_ERF_QA = _h32(0x3DD9F331, 0x3F0A5785, 0x3D931AE7, 0x3E013307, 0x3C5F6E13, 0x3C445AA3)
_ERF_RA = _h32(0xBC21A093, 0xBF31A0B7, 0xC128F022, 0xC2798057, 0xC322658C, 0xC3389AE7, 0xC2A2932B, 0xC11D077E)
_ERF_SA = _h32(0x419D35CE, 0x4309A863, 0x43D9486F, 0x442158C9, 0x43D6810B, 0x42D9451F, 0x40D23F7C, 0xBD777F97)
_ERF_RB = _h32(0xBC21A092, 0xBF4C9DD4, 0xC18E104B, 0xC320A2EA, 0xC41F6441, 0xC480230B, 0xC3F1C275)
_ERF_SB = _h32(0x41F2B459, 0x43A2E571, 0x44C01759, 0x4547FDBB, 0x451F90CE, 0x43ED43A7, 0xC1B38712)


def _horner(z, coefficients, one=False):
    """c0 + z*(c1 + z*(c2 + ...)) in float32, each step rounded (no fused steps in glibc's build);
    with one=True: 1 + z*(c0 + z*(c1 + ...))."""
    acc = coefficients[-1]
    for c in coefficients[-2::-1]:
        acc = c + z * acc
    return _F32(1) + z * acc if one else acc + np.zeros_like(z)


@_kernel
def glibc_erff(x):
    """erf(x) as glibc's erff (before 2.40): rational approximations on [0, 0.84375), [0.84375, 1.25)
    and two erfc ranges up to 6, where exp(-x^2) is split as expf(-z^2 - 0.5625) * expf((z-x)(z+x) + R/S)
    with z = x rounded to 12 bits."""
    x = _f(x)
    ix = _bits(x) & _I32(0x7FFFFFFF)
    negative = _bits(x) < 0
    ax = np.abs(x)
    one = _F32(1)
    z = x * x
    small = x + x * (_horner(z, _ERF_PP) / _horner(z, _ERF_QQ, one=True))
    tiny = np.where(ix < _I32(0x04000000), _F32(0.125) * (_F32(8) * x + _from_bits(0x3F8375D4) * x),
                    x + _from_bits(0x3E0375D4) * x)
    small = np.where(ix < _I32(0x31800000), tiny, small)
    s = ax - one
    ratio = _horner(s, _ERF_PA) / _horner(s, _ERF_QA, one=True)
    erx = _from_bits(0x3F58560B)
    middle = np.where(negative, -erx - ratio, erx + ratio)
    s = one / (ax * ax)
    near = ix < _I32(0x4036DB6E)
    R = np.where(near, _horner(s, _ERF_RA), _horner(s, _ERF_RB))
    S = np.where(near, _horner(s, _ERF_SA, one=True), _horner(s, _ERF_SB, one=True))
    zz = _from_bits(_bits(ax) & _I32(-4096))                       # ix & 0xfffff000
    r = glibc_expf(-zz * zz - _F32(0.5625)) * glibc_expf((zz - ax) * (zz + ax) + R / S)
    tail = np.where(negative, r / ax - one, one - r / ax)
    tiny_f = _F32(1e-30)
    out = np.where(ix >= _I32(0x40C00000), np.where(negative, tiny_f - one, one - tiny_f), tail)
    out = np.where(ix < _I32(0x3FA00000), middle, out)
    out = np.where(ix < _I32(0x3F580000), small, out)
    out = np.where(ix >= _I32(0x7F800000), np.where(np.isnan(x), x, np.where(negative, -one, one)), out)
    return out.astype(_F32, copy=False)


_EXPM1_Q = _h32(0xBD088889, 0x3AD00D01, 0xB8A670CD, 0x36867E54, 0xB457EDBB)


@_kernel
def glibc_expm1f(x):
    """expm1(x) as glibc's expm1f (fdlibm, in float): x = k ln2 + r, a rational approximation of
    expm1(r), then 2^k applied through the exponent bits."""
    x = _f(x)
    one = _F32(1)
    hx = _bits(x) & _I32(0x7FFFFFFF)
    negative = _bits(x) < 0
    ln2_hi, ln2_lo, invln2 = _from_bits(0x3F317180), _from_bits(0x3717F7D1), _from_bits(0x3FB8AA3B)
    big = hx >= _I32(0x3F851592)                      # |x| >= 1.5 ln2: k from x / ln2
    kf = np.where(big, np.trunc(invln2 * x + np.where(negative, _F32(-0.5), _F32(0.5))).astype(_F32),
                  np.where(negative, _F32(-1), _F32(1)))
    hi = np.where(big, x - kf * ln2_hi, np.where(negative, x + ln2_hi, x - ln2_hi))
    lo = np.where(big, kf * ln2_lo, np.where(negative, -ln2_lo, ln2_lo))
    reduce = hx > _I32(0x3EB17218)                    # |x| > ln2 / 2
    k = np.where(reduce, kf, _F32(0)).astype(_I32)
    xr = np.where(reduce, hi - lo, x)
    c = np.where(reduce, (hi - xr) - lo, _F32(0))
    hfx = _F32(0.5) * xr
    hxs = xr * hfx
    r1 = one + hxs * (_EXPM1_Q[0] + hxs * (_EXPM1_Q[1] + hxs * (_EXPM1_Q[2] + hxs * (_EXPM1_Q[3] + hxs * _EXPM1_Q[4]))))
    t = _F32(3) - r1 * hfx
    e = hxs * ((r1 - t) / (_F32(6) - xr * t))
    k0 = xr - (xr * e - hxs)
    e = (xr * (e - c) - c) - hxs
    km1 = _F32(0.5) * (xr - e) - _F32(0.5)
    k1 = np.where(xr < _F32(-0.25), -_F32(2) * (e - (xr + _F32(0.5))), one + _F32(2) * (xr - e))
    shift = k << _I32(23)
    far = _from_bits(_bits(one - (e - xr)) + shift) - one                 # k <= -2 or k > 56
    t_small = _from_bits(_I32(0x3F800000) - (_I32(0x1000000) >> np.clip(k, 0, 31)))
    mid = _from_bits(_bits(t_small - (e - xr)) + shift)                   # 2 <= k < 23
    t_big = _from_bits((_I32(0x7F) - k) << _I32(23))
    high = _from_bits(_bits((xr - (e + t_big)) + one) + shift)            # 23 <= k <= 56
    out = np.where(k < 23, mid, high)
    out = np.where((k <= -2) | (k > 56), far, out)
    out = np.where(k == 1, k1, out)
    out = np.where(k == -1, km1, out)
    out = np.where(k == 0, k0, out)
    out = np.where(hx < _I32(0x33000000), x, out)                        # |x| < 2^-25: x
    huge_input = hx >= _I32(0x4195B844)                                   # |x| >= 27 ln2
    out = np.where(huge_input & negative, _F32(1e-30) - one, out)
    out = np.where(huge_input & ~negative & (hx > _I32(0x42B17217)), _F32(np.inf), out)
    return np.where(np.isnan(x), x, out).astype(_F32, copy=False)


@_kernel
def glibc_tanhf(x):
    """tanh(x) as glibc's tanhf (fdlibm): 1 - 2 / (expm1(2|x|) + 2) from 1 on, -t / (t + 2) with
    t = expm1(-2|x|) below, x itself for tiny x, 1 from 22 on."""
    x = _f(x)
    one, two = _F32(1), _F32(2)
    ix = _bits(x) & _I32(0x7FFFFFFF)
    ax = np.abs(x)
    t_up = glibc_expm1f(two * ax)
    t_dn = glibc_expm1f(-two * ax)
    z = np.where(ix >= _I32(0x3F800000), one - two / (t_up + two), -t_dn / (t_dn + two))
    z = np.where(ix >= _I32(0x41B00000), one - _F32(1e-30), z)
    z = np.where(_bits(x) < 0, -z, z)
    z = np.where(ix < _I32(0x24000000), x * (one + x), z)
    z = np.where(ix >= _I32(0x7F800000), np.where(np.isnan(x), x, np.copysign(one, x)), z)
    return z.astype(_F32, copy=False)


_LOG1P_LP = _h32(0x3F2AAAAB, 0x3ECCCCCD, 0x3E924925, 0x3E638E29, 0x3E3A3325, 0x3E1CD04F, 0x3E178897)


@_kernel
def glibc_log1pf(x):
    """log1p(x) as glibc's log1pf (fdlibm, in float): 1 + x = 2^k (1 + f) with a correction term c for
    the rounding of 1 + x, log(1 + f) = f - hfsq + s (hfsq + R), s = f / (2 + f)."""
    x = _f(x)
    one = _F32(1)
    hx = _bits(x)
    ax = hx & _I32(0x7FFFFFFF)
    ln2_hi, ln2_lo = _from_bits(0x3F317180), _from_bits(0x3717F7D1)
    k0 = (hx < _I32(0x3ED413D7)) & ((hx > 0) | (hx <= _I32(-0x416A09E1)))     # 0xbe95f61f: no reduction
    u = np.where(hx < _I32(0x5A000000), one + x, x)
    hu = _bits(u)
    k = (hu >> _I32(23)) - _I32(127)
    c = np.where(hx < _I32(0x5A000000), np.where(k > 0, one - (u - x), x - (u - one)) / u, _F32(0))
    hu = hu & _I32(0x007FFFFF)
    upper = hu >= _I32(0x3504F7)
    u = np.where(upper, _from_bits(hu | _I32(0x3F000000)), _from_bits(hu | _I32(0x3F800000)))
    k = np.where(upper, k + 1, k)
    hu = np.where(upper, (_I32(0x00800000) - hu) >> _I32(2), hu)
    f = np.where(k0, x, u - one)
    k = np.where(k0, 0, k)
    hu = np.where(k0, 1, hu)
    c = np.where(k0, _F32(0), c)
    kf = k.astype(_F32)
    hfsq = _F32(0.5) * f * f
    # |f| < 2^-20 (hu == 0)
    R0 = hfsq * (one - _F32(0.66666666666666666) * f)
    tiny_f = np.where(k == 0, f - R0, kf * ln2_hi - ((R0 - (kf * ln2_lo + c)) - f))
    tiny_f = np.where(f == 0, np.where(k == 0, _F32(0), kf * ln2_hi + (c + kf * ln2_lo)), tiny_f)
    s = f / (_F32(2) + f)
    z = s * s
    R = _LOG1P_LP[6]
    for coefficient in _LOG1P_LP[5::-1]:
        R = coefficient + z * R
    R = z * R
    general = np.where(k == 0, f - (hfsq - s * (hfsq + R)),
                       kf * ln2_hi - ((hfsq - (s * (hfsq + R) + (kf * ln2_lo + c))) - f))
    out = np.where(hu == 0, tiny_f, general)
    small = (hx < _I32(0x3ED413D7)) & (ax < _I32(0x31000000))                 # |x| < 2^-29
    out = np.where(small, np.where(ax < _I32(0x24800000), x, x - x * x * _F32(0.5)), out)
    out = np.where((hx < _I32(0x3ED413D7)) & (ax >= _I32(0x3F800000)),
                   np.where(x == -one, _F32(-np.inf), _F32(np.nan)), out)
    out = np.where(hx >= _I32(0x7F800000), x + x, out)
    return out.astype(_F32, copy=False)
