"""The special functions of PyTorch's pointwise ops (digamma, trigamma, polygamma, erfinv, i0, i1,
sinc), each computed as ATen's CPU kernel computes it (aten/src/ATen/native/Math.h): the same
algorithm (Cephes' series and Chebyshev expansions, Pavlis' erfinv), in the same precision, one
numpy operation per C operation, so that float32 results carry ATen's rounding (float16 goes
through float32, as ATen's half kernels do).

numpy has none of these functions and scipy is not a dependency, so they are written here. Every
function takes and returns a numpy float array; the loops of the C code become masks (a number
leaves the loop when its condition fails).
"""
import ctypes
import math

import numpy as np

from ._libm import c_math_library

from .vectorized import cpu_capability, fma32, fma64

_F16, _F32, _F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)


def _mul_add(a, b, c):
    """a * b + c as ATen's compiled C++ computes it: its AVX2 and AVX512 builds (-mfma) let the compiler
    fuse a product and a sum into one fma (rounded once); its DEFAULT build rounds twice."""
    if cpu_capability() in ("AVX2", "AVX512"):
        dtype = np.result_type(a, b, c)
        if dtype == _F32:
            return fma32(a, b, c)
        with np.errstate(all="ignore"):
            return fma64(np.broadcast_to(a, np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))), b, c)
    return a * b + c


def _in_float32(kernel):
    """kernel(x) for a float16 x computed in float32 and rounded, as ATen's half kernels do; the kernel
    sees a 1-d array (its masks index it), the result has x's shape."""
    def fn(x, *args):
        flat = np.asarray(x).reshape(-1)
        if flat.dtype == _F16:
            return _shaped(kernel(flat.astype(_F32), *args).astype(_F16), np.shape(x))
        return _shaped(kernel(flat, *args), np.shape(x))
    fn.__name__, fn.__doc__ = kernel.__name__, kernel.__doc__
    return fn


def _shaped(out, shape):
    """out (a new 1-d array) given `shape` in place: an array that owns its memory, which the op table then
    lays out as PyTorch lays out the result (as the input: a transposed input gives a transposed result)."""
    if out.base is not None:
        out = out.copy()
    out.shape = shape
    return out


def _libm(name, float32):
    """The C library's function `name` on each number (what std::<name> calls in ATen's scalar code),
    or None where no C library is found."""
    try:
        c_fn = getattr(c_math_library(), name)
    except (OSError, AttributeError, TypeError):
        return None
    kind = ctypes.c_float if float32 else ctypes.c_double
    c_fn.restype, c_fn.argtypes = kind, [kind]
    return np.frompyfunc(c_fn, 1, 1)


def _each(name):
    """The C library's `name` (double) and `name`f (float) on each number: what std::<name> calls in
    ATen's scalar code."""
    each64, each32 = _libm(name, False), _libm(name + "f", True)

    def fn(x):
        if x.size == 0:
            return x.copy()
        if x.dtype == _F32:
            return _shaped(np.asarray(each32(x.reshape(-1)), dtype=_F32), x.shape)
        return _shaped(np.asarray(each64(x.reshape(-1)), dtype=_F64), x.shape)
    return fn


def _safe(fn):
    def quiet(*args):
        with np.errstate(all="ignore"):
            return fn(*args)
    return quiet


_exp, _log, _erf, _erfc, _tan, _lgamma = (_each(name) for name in ("exp", "log", "erf", "erfc", "tan", "lgamma"))


def _libm_pow(float32):
    try:
        c_fn = c_math_library().powf if float32 else \
            c_math_library().pow
    except (OSError, AttributeError, TypeError):
        return np.power
    kind = ctypes.c_float if float32 else ctypes.c_double
    c_fn.restype, c_fn.argtypes = kind, [kind, kind]
    each = np.frompyfunc(c_fn, 2, 1)
    dtype = _F32 if float32 else _F64
    return lambda a, b: np.asarray(each(a, b), dtype=dtype) if np.size(a) else np.asarray(a, dtype).copy()


# the C library's pow (numpy's float64 power is its own, ~1 number in 18 an ulp off glibc's)
_POW = {_F64: _libm_pow(False), _F32: _libm_pow(True)}


def libm_pow(base, exponent):
    """The C library's pow on each number of a float64 array (std::pow in ATen's scalar code)."""
    return _POW[_F64](base, np.asarray(exponent, _F64))


def libm(name):
    """The C library's double function `name` on each number of a float64 array, or None without one."""
    return _each(name) if _libm(name, False) is not None else None


_sinf = _libm("sinf", True)


def _sin32(x):
    """The C library's sinf (float64 sin rounded to float32 where there is none)."""
    if _sinf is None or not x.size:
        return np.sin(x.astype(_F64)).astype(_F32)
    return np.asarray(_sinf(x), dtype=_F32)


# --- digamma, trigamma, polygamma --------------------------------------------------------------

_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


@_in_float32
@_safe
def digamma(x):
    """Cephes' psi: x < 0 reflected (psi(1 - x) - pi / tan(pi * frac(x)), that term in float64), then
    pushed up to 10 or more by psi(x) = psi(x + 1) - 1/x, then the asymptotic series with log(x)."""
    T = x.dtype.type
    given = x
    x = np.array(x, copy=True)
    negative = x < 0
    reflect = np.zeros_like(x)
    if negative.any():
        frac = np.fmod(x[negative].astype(_F64), 1.0)
        term = np.pi / _tan(np.pi * frac)
        reflect[negative] = term.astype(x.dtype)
        x[negative] = T(1) - x[negative]
    result = np.zeros_like(x)
    active = x < 10
    while active.any():
        result[active] -= T(1) / x[active]
        x[active] += T(1)
        active &= x < 10
    z = T(1) / (x * x)
    poly = np.zeros_like(x)
    for a in _DIGAMMA_A:
        poly = _mul_add(poly, z, T(a))
    y = np.where(x < T(1e17), z * poly, T(0))
    out = result + _log(x) - T(0.5) / x - y
    out = np.where(x == 10, result + T(_PSI_10), out)
    out = np.where(negative, out - reflect, out)
    out = np.where(negative & (given == np.trunc(given)), T(np.nan), out)
    return np.where(given == 0, np.copysign(T(np.inf), -given), out).astype(x.dtype, copy=False)


@_in_float32
@_safe
def trigamma(x):
    """psi'(x): x < 0.5 reflected with pi^2 / sin(pi x)^2, six steps of 1/x^2, then the asymptotic series."""
    T = x.dtype.type
    pi = T(np.pi)
    x = np.array(x, copy=True)
    small = x < T(0.5)
    result = np.zeros_like(x)
    if small.any():
        s = (_sin32(pi * x[small]) if x.dtype == _F32 else np.sin(pi * x[small]))
        result[small] -= (pi * pi) / (s * s)
        x[small] = T(1) - x[small]
    for _ in range(6):
        result += T(1) / (x * x)
        x += T(1)
    ixx = T(1) / (x * x)
    inner = _mul_add(-ixx, _mul_add(-ixx, T(1) / T(42), T(1) / T(30)), T(1) / T(6))
    result += _mul_add(ixx, inner, T(1) + T(1) / (T(2) * x)) / x
    return np.where(small, -result, result)


_ZETA_A = (12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9, 7.47242496e10,
           -2.950130727918164224e12, 1.1646782814350067249e14, -4.5979787224074726105e15,
           1.8152105401943546773e17, -7.1661652561756670113e18)
_MACHEP = 1.11022302462515654042E-16


@_safe
def zeta(s, q, acc=_F64):
    """Hurwitz's zeta(s, q) = sum over k of (k + q)^-s (Cephes: nine terms or more, then Euler-Maclaurin's
    correction with Bernoulli numbers), for a number s and an array q, in `acc` (ATen's accumulate type:
    float64 for float and double, float32 for half)."""
    T = acc.type
    given = np.asarray(q)
    q = given.astype(acc).reshape(-1)
    machep = T(_MACHEP)
    out = np.full(q.shape, T(np.nan))
    if s == 1:
        return np.full(q.shape, T(np.inf))
    if s < 1:
        return out
    s = T(s)
    pole = (q <= 0) & (q == np.floor(q))
    out[pole] = T(np.inf)
    left = ~pole & ~((q <= 0) & (s != np.floor(s)))
    qs = q[left]
    power = _POW[acc]
    # (the first term is std::pow(q, -s) of the given float or half q: powf, then widened)
    total = _POW[_F32](qs.astype(_F32), np.float32(-s)).astype(acc) if given.dtype != _F64 else power(qs, -s)
    a = qs.copy()
    b = np.zeros_like(qs)
    i = 0
    done = np.zeros(qs.shape, bool)
    while i < 100000:
        go = ~done & ((i < 9) | (a <= T(9)))
        if not go.any():
            break
        i += 1
        a[go] += T(1)
        b[go] = power(a[go], -s)
        total[go] += b[go]
        done |= go & (-machep * total < b) & (b < machep * total)
    rest = ~done
    w = a
    total[rest] = total[rest] + b[rest] * w[rest] / (s - T(1))
    total[rest] = total[rest] - T(0.5) * b[rest]
    aa = np.ones_like(qs)
    k = T(0)
    for j in range(12):
        if not rest.any():
            break
        aa[rest] *= s + k
        b[rest] /= w[rest]
        t = aa[rest] * b[rest] / T(_ZETA_A[j])
        total[rest] = total[rest] + t
        small = np.abs(t / total[rest]) < machep
        idx = np.flatnonzero(rest)
        rest[idx[small]] = False
        k += T(1)
        aa[rest] *= s + k
        b[rest] /= w[rest]
        k += T(1)
    out[left] = total
    return out


def polygamma(x, n):
    """psi^(n)(x): digamma for n = 0, trigamma for n = 1, else (-1)^(n+1) n! zeta(n + 1, x), with n! as
    exp(lgamma(n + 1)) (float32 for half and float) and zeta in ATen's accumulate type, rounded to x's."""
    if n == 0:
        return digamma(x)
    if n == 1:
        return trigamma(x)
    x = np.asarray(x)
    sign = 1.0 if n % 2 else -1.0
    if x.dtype == _F64:
        fact = _exp(_lgamma(np.array([n + 1.0])))[0]
        return _shaped(sign * fact * zeta(float(n + 1), x), x.shape)
    # float and half: expf(lgammaf(n + 1)) in float (half's n + 1 rounded to half first)
    n1 = np.float32(np.float16(n) + np.float16(1)) if x.dtype == _F16 else np.float32(n + 1.0)
    fact = _exp(_lgamma(np.array([n1], _F32)))[0]
    z = zeta(float(n + 1), x.reshape(-1), _F32 if x.dtype == _F16 else _F64).astype(x.dtype)
    return _shaped((np.float32(sign) * fact * z.astype(_F32)).astype(x.dtype), x.shape)


# --- erfinv ------------------------------------------------------------------------------------

_ERFINV_A = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
_ERFINV_B = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
_ERFINV_C = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
_ERFINV_D = (3.543889200, 1.637067800)


@_safe
def _erfinv_pavlis(y):
    """Pavlis' erfinv in float64: a rational first guess (|y| <= 0.7, or in sqrt(-log((1 - |y|) / 2))
    beyond), then Newton steps with erf and exp."""
    a, b, c, d = _ERFINV_A, _ERFINV_B, _ERFINV_C, _ERFINV_D
    y_abs = np.abs(y)
    z = y * y
    x_central = y * (((a[3] * z + a[2]) * z + a[1]) * z + a[0]) / ((((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1)
    z = np.sqrt(-_log((1 - y_abs) / 2))
    x_tail = np.copysign(((c[3] * z + c[2]) * z + c[1]) * z + c[0], y) / ((d[1] * z + d[0]) * z + 1)
    x = np.where(y_abs <= 0.7, x_central, x_tail)
    for _ in range(3):          # (two are Pavlis'; the third brings it to float64's last bits)
        x = x - (_erf(x) - y) / (2 / math.sqrt(math.pi) * _exp(-x * x))
    x = np.where(y_abs == 1, np.copysign(np.inf, y), x)
    return np.where(y_abs > 1, np.nan, x)


def erfinv(y):
    """The inverse of erf. ATen's CPU kernel is Intel MKL's (vsErfInv, vdErfInv: not public), nearly
    correctly rounded: float64 to its last bits here, rounded to float32 (which agrees with MKL's float32
    on 99.9% of numbers) or float16."""
    if y.dtype == _F64:
        return _erfinv_pavlis(y)
    return _erfinv_pavlis(y.astype(_F64)).astype(y.dtype)


# --- i0, i1 ------------------------------------------------------------------------------------

_I0_A = (-4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
         1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
         -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
         9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
         -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
         1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
         -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
         1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
         -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
         1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1)
_I0_B = (-7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
         3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
         1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
         -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
         7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
         -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
         3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
         2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
         8.04490411014108831608E-1)
_I1_A = (2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
         -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
         3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
         -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
         9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
         -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
         4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
         -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
         2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
         -1.76416518357834055153E-1, 2.52587186443633654823E-1)
_I1_B = (7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
         -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
         -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
         4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
         -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
         3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
         -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
         -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
         7.78576235018280120474E-1)
# (ATen's float i1 drops the coefficients too small for float: the last 17 of A, the last 7 of B)
_I1_A32, _I1_B32 = _I1_A[-17:], _I1_B[-7:]


def _chbevl(x, coefficients):
    """Clenshaw's sum of a Chebyshev series (Cephes' chbevl), in x's precision."""
    T = x.dtype.type
    b0, b1, b2 = np.full_like(x, T(coefficients[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2 = b1
        b1 = b0
        b0 = _mul_add(x, b1, -b2) + T(c)
    return T(0.5) * (b0 - b2)


@_in_float32
@_safe
def i0(x):
    """I0(x) = exp(|x|) * (a Chebyshev series in |x|/2 - 2 on [0, 8], in 32/|x| - 2 over sqrt(|x|) beyond)."""
    T = x.dtype.type
    x = np.abs(x)
    near = x <= T(8)
    e = _exp(x)
    inner = e * _chbevl(x / T(2) - T(2), _I0_A)
    outer = e * _chbevl(T(32) / x - T(2), _I0_B) / np.sqrt(x)
    return np.where(near, inner, outer).astype(x.dtype, copy=False)


@_in_float32
@_safe
def i1(x):
    """I1(x): as i0, odd, with x * exp(|x|) before the series on [0, 8]."""
    T = x.dtype.type
    a, b = (_I1_A32, _I1_B32) if x.dtype == _F32 else (_I1_A, _I1_B)
    ax = np.abs(x)
    e = _exp(ax)
    inner = e * ax * _chbevl(ax / T(2) - T(2), a)
    outer = e * _chbevl(T(32) / ax - T(2), b) / np.sqrt(ax)
    out = np.where(ax <= T(8), inner, outer)
    return np.where(x < 0, -out, out).astype(x.dtype, copy=False)


# --- sinc ---------------------------------------------------------------------------------------

@_in_float32
@_safe
def sinc(x):
    """sin(pi x) / (pi x), 1 at 0: the product in x's precision (complex too), its sine, one division."""
    if x.dtype.kind == "c":
        product = x * np.pi
        return np.where(x == 0, 1, np.sin(product) / product).astype(x.dtype, copy=False)
    T = x.dtype.type
    product = T(np.pi) * x
    s = _sin32(product) if x.dtype == _F32 else np.sin(product)
    return np.where(x == 0, T(1), s / product).astype(x.dtype, copy=False)


# --- exp2 ---------------------------------------------------------------------------------------

_EXP2F_POLY = tuple(np.float32(c) for c in (0.1535920892e-3, 0.1339262701e-2, 0.9618384764e-2, 0.5550347269e-1,
                                            0.2402264476e+0, 0.6931471825e+0, 1.0))


def sleef_exp2f(d):
    """SLEEF's exp2f_u10 (what ATen's vector loop calls with AVX2/AVX512): 2**round(d) times a degree-6
    polynomial in the rest, each step one fma, the power of two applied in two halves."""
    d = np.asarray(d, _F32)
    with np.errstate(all="ignore"):
        u = np.rint(d)
        q = np.nan_to_num(u, nan=0.0, posinf=0.0, neginf=0.0).clip(-300, 300).astype(np.int32)
        s = d - u
        p = np.full(d.shape, _EXP2F_POLY[0])
        for c in _EXP2F_POLY[1:]:
            p = fma32(p, s, c)
        half = q >> 1
        out = p * np.ldexp(np.float32(1), half).astype(_F32) * np.ldexp(np.float32(1), q - half).astype(_F32)
        out = np.where(d >= 128, _F32.type(np.inf), out)
        out = np.where(d < -150, _F32.type(0), out)
    return np.where(np.isnan(d), d, out).astype(_F32, copy=False)


def lgamma(x):
    """The C library's lgamma on each number (float32: float64 rounded, what ATen's MKL kernel gives
    most often)."""
    if x.dtype == _F16:
        return lgamma(x.astype(_F32)).astype(_F16)
    if x.dtype == _F32:
        return _lgamma(x.astype(_F64)).astype(_F32)
    return _lgamma(x)


def erfc(x):
    if x.dtype == _F16:
        return erfc(x.astype(_F32)).astype(_F16)
    if x.dtype == _F32:
        return erfc(x.astype(_F64)).astype(_F32)
    return _erfc(x)


# --- torch.special's Cephes, Faddeeva and orthogonal-polynomial functions ----------------------
# (ATen/native/Math.h: calc_i0e, calc_i1e, calc_ndtri, calc_erfcx, calc_log_ndtr, the *_forward
# functions of the Bessel functions, airy_ai and the polynomials.) Each C branch is computed on the
# numbers that take it (a mask), in the input's precision; a multiply feeding an add is one fma where
# ATen's build fuses them (_mul_add). Their coefficient tables are special_coefficients.py's.

from . import special_coefficients as _C   # noqa: E402

_sin, _cos, _acos, _log1p = (_each(name) for name in ("sin", "cos", "acos", "log1p"))


def _poly(z, coefficients):
    """Horner's rule from the highest coefficient down (the C loops `p = p * z + C[i]` from p = 0)."""
    T = z.dtype.type
    p = np.zeros_like(z)
    for c in coefficients:
        p = _mul_add(p, z, T(c))
    return p


def _pieces(x, dtype, *branches):
    """The result of a C function with if/else branches: `branches` are (mask, kernel) pairs in the C
    code's order, a number taking the first whose mask holds; kernel(x[mask]) computes that branch."""
    out = np.full(x.shape, np.nan, dtype)
    taken = np.zeros(x.shape, bool)
    for mask, kernel in branches:
        mask = mask & ~taken
        if mask.any():
            out[mask] = kernel(x[mask]) if callable(kernel) else kernel
        taken |= mask
    return out


def _float_kernel(kernel):
    """kernel on a float32 or float64 array of any shape (flattened for its masks, the shape given back)."""
    def fn(x, *args):
        flat = np.asarray(x).reshape(-1)
        with np.errstate(all="ignore"):
            return _shaped(kernel(flat, *args), np.shape(x))
    fn.__name__, fn.__doc__ = kernel.__name__, kernel.__doc__
    return fn


def _chbevl_plain(x, coefficients):
    """Cephes' chbevl with every operation rounded (c10::Half's operators: no fused multiply-add)."""
    T = x.dtype.type
    b0, b1, b2 = np.full_like(x, T(coefficients[0])), np.zeros_like(x), np.zeros_like(x)
    for c in coefficients[1:]:
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + T(c)
    return T(0.5) * (b0 - b2)


@_safe
def i0e(x):
    """exp(-|x|) I0(x): i0's Chebyshev series without the factor exp(|x|). (ATen's half kernel is calc_i0e
    on c10::Half itself: every operation rounded to half.)"""
    T = x.dtype.type
    if x.dtype != _F16:
        return _i0e(x)
    if True:
        # (ATen's vector loop, over whole blocks of 32, computes in float; its scalar loop over the last
        # n % 32 numbers runs calc_i0e on c10::Half itself: every operation rounded to half)
        flat = x.reshape(-1)
        start = flat.size - flat.size % 32
        out = np.empty_like(flat)
        out[:start] = _i0e(flat[:start].astype(_F32)).astype(_F16)
        ax = np.abs(flat[start:])
        out[start:] = np.where(ax <= T(8), _chbevl_plain(ax / T(2) - T(2), _I0_A),
                               (_chbevl_plain(T(32) / ax - T(2), _I0_B) / np.sqrt(ax.astype(_F32))).astype(_F16))
        return out.reshape(x.shape)


@_float_kernel
def _i0e(x):
    T = x.dtype.type
    x = np.abs(x)
    return np.where(x <= T(8), _chbevl(x / T(2) - T(2), _I0_A),
                    _chbevl(T(32) / x - T(2), _I0_B) / np.sqrt(x)).astype(x.dtype, copy=False)


@_in_float32
@_safe
def i1e(x):
    """exp(-|x|) I1(x): i1's series without the factor exp(|x|), odd."""
    T = x.dtype.type
    a, b = (_I1_A32, _I1_B32) if x.dtype == _F32 else (_I1_A, _I1_B)
    ax = np.abs(x)
    out = np.where(ax <= T(8), _chbevl(ax / T(2) - T(2), a) * ax, _chbevl(T(32) / ax - T(2), b) / np.sqrt(ax))
    return np.where(x < 0, -out, out).astype(x.dtype, copy=False)


def _polevl(z, coefficients):
    return _poly(z, coefficients)


@_float_kernel
def ndtri(y0):
    """The inverse of the normal distribution function (Cephes' ndtri): a rational function of y - 1/2 in
    the middle, of 1 / sqrt(-2 log y) in the tails."""
    T = y0.dtype.type
    one = T(1)
    exp_m2 = T(0.13533528323661269189)
    upper = y0 > one - exp_m2
    y = np.where(upper, one - y0, y0)

    def central(y):
        y = y - T(0.5)
        y2 = y * y
        x = _mul_add(y, y2 * _polevl(y2, _C.NDTRI_P0) / _polevl(y2, _C.NDTRI_Q0), y)
        return x * T(2.50662827463100050242E0)

    def tail(y):    # (::sqrt and ::log here are the C library's double functions, for float too)
        x = np.sqrt(-2.0 * _log(y.astype(_F64))).astype(y.dtype)
        x0 = (x - _log(x.astype(_F64)) / x).astype(y.dtype)
        z = one / x
        x1 = np.where(x < T(8), z * _polevl(z, _C.NDTRI_P1) / _polevl(z, _C.NDTRI_Q1),
                      z * _polevl(z, _C.NDTRI_P2) / _polevl(z, _C.NDTRI_Q2))
        return x0 - x1

    out = _pieces(y, y0.dtype, (y0 == 0, T(-np.inf)), (y0 == one, T(np.inf)), ((y0 < 0) | (y0 > one), T(np.nan)),
                  (y > exp_m2, central), (np.ones(y.shape, bool), tail))
    flip = ~upper & ~(y > exp_m2) & (y0 > 0) & (y0 < one)
    return np.where(flip, -out, out)


def _erfcx_y100(y100):
    """Johnson's erfcx on [0, 50] through y100 = 400 / (4 + x): one of 100 Chebyshev pieces, in float64 (its
    coefficients are double literals: a float y100 gives t in float, the polynomial in double)."""
    T = y100.dtype.type
    out = np.ones(y100.shape, _F64)      # (y100 = 100: |x| < 4 eps, erfcx within 1e-15 of 1)
    case = y100.astype(np.int64)
    for k in np.unique(case[(case >= 0) & (case < 100)]):
        m = case == k
        t = (T(2) * y100[m] - T(_C.ERFCX_T[k])).astype(_F64)
        p = np.zeros(t.shape, _F64)
        for c in reversed(_C.ERFCX_Y100[k]):
            p = p * t + float(c) if p.any() else np.full(t.shape, float(c))     # (not fused: as ATen's double)
        out[m] = p
    return out


@_float_kernel
def erfcx(x):
    """exp(x^2) erfc(x) (Johnson's calc_erfcx): a continued fraction beyond 50, the Chebyshev pieces on
    [0, 50], and 2 exp(x^2) - erfcx(-x) for x < 0."""
    T = x.dtype.type
    ispi = T(0.56418958354775628694807945156)

    def fraction(x):        # (4.5, 5 and 3.75 are double literals: float x computes this in double)
        xx = (x * x).astype(_F64)
        x64 = x.astype(_F64)
        return (float(ispi) * (xx * (x64 * x64 + 4.5) + 2) / (x64 * (xx * (x64 * x64 + 5) + 3.75))).astype(x.dtype)

    def doubled_exp(x):     # (ATen's unqualified exp here is the C library's double exp, for float too)
        return 2 * _exp((x * x).astype(_F64))

    def left(x):
        return (doubled_exp(x) - _erfcx_y100(T(400) / (T(4) - x)).astype(x.dtype)).astype(x.dtype)

    return _pieces(x, x.dtype, (np.isnan(x), T(np.nan)), (x > T(5e7), lambda x: ispi / x), (x > T(50), fraction),
                   (x >= 0, lambda x: _erfcx_y100(T(400) / (T(4) + x)).astype(x.dtype)),
                   (x < T(-26.7), T(np.inf)), (x < T(-6.1), lambda x: doubled_exp(x).astype(x.dtype)),
                   (np.ones(x.shape, bool), left))


@_float_kernel
def log_ndtr(x):
    """log of the normal distribution function: log(erfcx(-t) / 2) - t^2 below -1 (t = x / sqrt 2), else
    log1p(-erfc(t) / 2)."""
    T = x.dtype.type
    t = x * T(0.707106781186547524400844362104849039)
    low = x < T(-1)
    out = np.empty_like(x)
    if low.any():
        tl = t[low]
        out[low] = _log(erfcx(-tl) / T(2)) - tl * tl
    if (~low).any():
        out[~low] = _log1p(-_erfc(t[~low]) / T(2))
    return out


@_safe
def entr(x):
    """-x log(x) for x > 0, 0 at 0, -inf below (nan stays nan)."""
    T = x.dtype.type
    log = _log(np.where(x > 0, x, T(1)))
    if x.dtype == _F16:         # (c10's std::log of a Half is rounded to half, then a Half product)
        log = _log(np.where(x > 0, x, T(1)).astype(_F32)).astype(_F16)
    out = np.where(x > 0, -x * log, np.where(x == 0, T(0), T(-np.inf)))
    return np.where(np.isnan(x), x, out).astype(x.dtype, copy=False)


def xlog1py(x, y):
    """x * log1p(y), 0 where x is 0 (nan where y is nan): float16 through float32."""
    dtype = np.result_type(x, y)
    x, y = np.broadcast_arrays(np.asarray(x, dtype), np.asarray(y, dtype))
    compute = dtype
    with np.errstate(all="ignore"):     # (half: c10's std::log1p of a Half rounded to half, then a Half product)
        out = x * (_log1p(np.array(y, _F32)).astype(_F16) if dtype == _F16 else _log1p(np.array(y, compute)))
        out = np.where(x == 0, compute.type(0), out)
        return np.where(np.isnan(y), compute.type(np.nan), out).astype(dtype)


def zeta_arrays(x, q):
    """Hurwitz's zeta(x, q) elementwise, in their (float) dtype: zeta() above for each distinct x."""
    dtype = np.result_type(x, q)
    x, q = np.broadcast_arrays(np.asarray(x, dtype), np.asarray(q, dtype))
    out = np.full(x.shape, np.nan, dtype)
    for s in np.unique(x[~np.isnan(x)]):
        m = x == s
        out[m] = zeta(float(s), q[m], _F64).astype(dtype)     # (ATen's acc_type of float is double)
    return out


# --- the Bessel functions (Cephes' j0, j1, y0, y1 as ATen writes them) -------------------------

def _asymptotic(x, c, phase, sine_first, squared_25):
    """The x > 5 branch: (P(z) cos(x - phase) -/+ 5/x Q(z) sin(x - phase)) sqrt(2/pi) / sqrt(x), z = 25 / x^2."""
    T = x.dtype.type
    z = T(25) / (x * x) if squared_25 else T(5) / x * (T(5) / x)
    pp, pq, qp, qq = (_poly(z, getattr(_C, f"{c}_{n}")) for n in ("PP", "PQ", "QP", "QQ"))
    angle = x - T(phase)
    if sine_first:      # (the first product fused with the sum: fma(P, sin, 5/x Q cos))
        value = _mul_add(pp / pq, _sin(angle), T(5) / x * (qp / qq) * _cos(angle))
    else:
        value = _mul_add(pp / pq, _cos(angle), -(T(5) / x * (qp / qq) * _sin(angle)))
    return value * T(0.797884560802865355879892119868763737) / np.sqrt(x)


_PI_4, _3PI_4 = 0.785398163397448309615660845819875721, 2.356194490192344928846982537459627163


@_float_kernel
def bessel_j0(x):
    T = x.dtype.type
    x = np.abs(x)

    def near(x):
        xx = x * x
        return (xx - T(5.78318596294678452118e+00)) * (xx - T(3.04712623436620863991e+01)) * \
            _poly(xx, _C.J0_RP) / _poly(xx, _C.J0_RQ)
    return _pieces(x, x.dtype, (x < T(0.00001), lambda x: T(1) - x * x / T(4)), (x <= T(5), near),
                   (np.ones(x.shape, bool), lambda x: _asymptotic(x, "J0", _PI_4, False, True)))


@_float_kernel
def bessel_j1(x):
    T = x.dtype.type
    negative = x < 0
    x = np.abs(x)

    def near(x):
        xx = x * x
        return _poly(xx, _C.J1_RP) / _poly(xx, _C.J1_RQ) * x * (xx - T(1.46819706421238932572e+01)) * \
            (xx - T(4.92184563216946036703e+01))
    out = _pieces(x, x.dtype, (x <= T(5), near),
                  (np.ones(x.shape, bool), lambda x: _asymptotic(x, "J1", _3PI_4, False, False)))
    return np.where(negative, -out, out)


@_float_kernel
def bessel_y0(x):
    T = x.dtype.type

    def near(x):
        xx = x * x
        return _mul_add(T(0.636619772367581343075535053490057448) * _log(x), bessel_j0(x),
                        _poly(xx, _C.Y0_YP) / _poly(xx, _C.Y0_YQ))
    return _pieces(x, x.dtype, (x == 0, T(-np.inf)), (x < 0, T(np.nan)), (x <= T(5), near),
                   (np.ones(x.shape, bool), lambda x: _asymptotic(x, "Y0", _PI_4, True, True)))


@_float_kernel
def bessel_y1(x):
    T = x.dtype.type

    def near(x):
        xx = x * x
        return _mul_add(x, _poly(xx, _C.Y1_YP) / _poly(xx, _C.Y1_YQ),
                        T(0.636619772367581343075535053490057448) * _mul_add(bessel_j1(x), _log(x), -(T(1) / x)))
    return _pieces(x, x.dtype, (x == 0, T(-np.inf)), (x < 0, T(np.nan)), (x <= T(5), near),
                   (np.ones(x.shape, bool), lambda x: _asymptotic(x, "Y1", _3PI_4, True, False)))


def _clenshaw(z, coefficients):
    """The modified Bessel functions' Chebyshev sums as ATen writes them: 0.5 * (a - p) after the loop."""
    T = z.dtype.type
    p = np.zeros_like(z)
    q = np.zeros_like(z)
    a = np.full_like(z, T(coefficients[0]))
    for c in coefficients[1:]:
        p = q
        q = a
        a = _mul_add(z, q, -p) + T(c)
    return T(0.5) * (a - p)


@_float_kernel
def modified_bessel_i0(x):
    T = x.dtype.type
    ax = np.abs(x)
    return np.where(ax <= T(8), _exp(ax) * _clenshaw(ax / T(2) - T(2), _I0_A),
                    _exp(ax) * _clenshaw(T(32) / ax - T(2), _I0_B) / np.sqrt(ax))


@_float_kernel
def modified_bessel_i1(x):
    T = x.dtype.type
    ax = np.abs(x)
    out = np.where(ax <= T(8), _clenshaw(ax / T(2) - T(2), _C.I1_A) * ax * _exp(ax),
                   _exp(ax) * _clenshaw(T(32) / ax - T(2), _C.I1_B) / np.sqrt(ax))
    return np.where(x < 0, -out, out)


def _bessel_k(x, order, scaled):
    T = x.dtype.type
    A, B = (getattr(_C, f"K{order}{'E' if scaled else ''}_{n}") for n in "AB")

    def near(x):
        series = _clenshaw(_mul_add(x, x, -T(2)), A)
        if order == 0 and not scaled and x.dtype == _F32:
            # (log(0.5 * x): 0.5 a double literal, so the log and the fused sum are double)
            log_half = _log(0.5 * x.astype(_F64))
            return _mul_add(-log_half, modified_bessel_i0(x).astype(_F64), series.astype(_F64)).astype(x.dtype)
        log_half = _log(T(0.5) * x)
        if order == 0:
            out = _mul_add(-log_half, modified_bessel_i0(x), series)
        else:
            out = _mul_add(log_half, modified_bessel_i1(x), series / x)
        return out * _exp(x) if scaled else out

    def far(x):
        out = _clenshaw(T(8) / x - T(2), B)
        return out / np.sqrt(x) if scaled else _exp(-x) * out / np.sqrt(x)
    return _pieces(x, x.dtype, (x == 0, T(np.inf)), (x < 0, T(np.nan)), (x <= T(2), near),
                   (np.ones(x.shape, bool), far))


modified_bessel_k0 = _float_kernel(lambda x: _bessel_k(x, 0, False))
modified_bessel_k1 = _float_kernel(lambda x: _bessel_k(x, 1, False))
scaled_modified_bessel_k0 = _float_kernel(lambda x: _bessel_k(x, 0, True))
scaled_modified_bessel_k1 = _float_kernel(lambda x: _bessel_k(x, 1, True))


@_float_kernel
def spherical_bessel_j0(x):
    """sin(x) / x: a Taylor polynomial below 0.5, 0 at infinity."""
    T = x.dtype.type

    def series(x):
        xx = x * x
        p = T(1) / T(6227020800.0)
        for c in (T(-1) / T(39916800.0), T(1) / T(362880.0), T(-1) / T(5040.0), T(1) / T(120.0), T(-1) / T(6.0)):
            p = _mul_add(xx, p, c)
        return _mul_add(xx, p, T(1))
    return _pieces(x, x.dtype, (np.isinf(x), T(0)), (np.abs(x) < T(0.5), series),
                   (np.ones(x.shape, bool), lambda x: _sin(x) / x))


@_float_kernel
def airy_ai(x):
    """Airy's Ai (Cephes' airy): asymptotic series beyond -2.09 and 2.09 (8.32: exp's ratio alone), the
    power series f and g in between."""
    T = x.dtype.type
    out = np.zeros_like(x)
    out[np.isinf(x) | np.isnan(x)] = T(np.nan)
    rest = ~np.isinf(x) & ~np.isnan(x) & ~(x > T(103.892))
    low = rest & (x < T(-2.09))
    if low.any():
        xl = x[low]
        zeta_ = T(-2.0) * xl * np.sqrt(-xl) / T(3.0)
        z = T(1.0) / zeta_
        zz = z * z
        afn, afd, agn, agd = (_poly(zz, getattr(_C, f"AIRY_{n}")) for n in ("AFN", "AFD", "AGN", "AGD"))
        t = T(-2.0) * xl * np.sqrt(-xl) / T(3.0) + T(0.25) * T(np.pi)
        out[low] = T(5.64189583547756286948e-01) / np.sqrt(np.sqrt(-xl)) * (
            _mul_add(_sin(t), T(1.0) + z * z * afn / afd, -(_cos(t) * (z * agn / agd))))
    high = rest & (x >= T(2.09))
    if high.any():
        xh = x[high]
        zeta_ = T(2.0) * xh * np.sqrt(xh) / T(3.0)
        an, ad = (_poly(T(1.0) / zeta_, getattr(_C, f"AIRY_{n}")) for n in ("AN", "AD"))
        out[high] = T(5.64189583547756286948e-01) * (an / ad) / (T(2.0) * np.sqrt(np.sqrt(xh)) * _exp(zeta_))
    series = rest & ~low & ~(x > T(8.3203353))
    if series.any():
        xs = x[series]
        f = np.ones_like(xs)
        g = xs.copy()
        k = np.ones_like(xs)
        m = np.ones_like(xs)
        n = xs.copy()
        z = xs * xs * xs
        active = np.ones(xs.shape, bool)
        eps = np.finfo(x.dtype).eps
        while active.any():
            a = active
            m[a] *= z[a]
            k[a] += T(1)
            m[a] /= k[a]
            n[a] *= z[a]
            k[a] += T(1)
            n[a] /= k[a]
            m[a] /= k[a]
            f[a] += m[a]
            k[a] += T(1)
            n[a] /= k[a]
            g[a] += n[a]
            active = a & (np.abs(m / f) > eps)
        keep = np.where(xs >= T(2.09), out[series], _mul_add(T(0.355028053887817239260), f, -(T(0.258819403792806798405) * g)))
        out[series] = keep
    return out


# --- the orthogonal polynomials, p_n(x) for an integer n (ATen casts a float n to int64) -------

def _fused(a, b, c):
    """_mul_add for recurrences whose numbers may overflow: fused where a * b + c is finite (the exact
    fma there), as computed elsewhere (an inf or nan either way)."""
    a, b, c = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    if a.dtype == _F32:         # (float32's fma is exact in float64, overflow or not)
        return _mul_add(a, b, c)
    plain = a * b + c
    finite = np.isfinite(plain) & (np.abs(plain) < np.finfo(plain.dtype).max / 4)
    out = plain.copy()
    if finite.any():
        out[finite] = _mul_add(a[finite], b[finite], c[finite])
    # (a zero keeps the sign IEEE's sum gives it, -0 from -0 + -0, which the exact fma above does not)
    zero = (out == 0) & (plain == 0)
    out[zero] = plain[zero]
    return out


def _degree(n):
    """ATen's static_cast<int64_t>(n) of a float n (nan and +-inf: what x86 gives, INT64_MIN)."""
    n = np.asarray(n)
    if n.dtype.kind == "f":
        bad = ~np.isfinite(n) | (np.abs(n) >= 2.0 ** 63)
        return np.where(bad, np.iinfo(np.int64).min, np.trunc(np.where(bad, 0, n))).astype(np.int64)
    return n.astype(np.int64)


def _recurrence(x, n, first, second, step, start=2, stop_nan=True):
    """p_n(x) for the numbers with n >= 2 (or `start`): p = first, q = second, then `r = step(k, p, q)` for
    k = start.. while k <= n (and q is not nan): ATen's loop, masked."""
    p = np.array(first, copy=True)
    q = np.array(second, copy=True)
    r = np.array(q, copy=True)
    k = start
    active = k <= n
    while active.any():
        if stop_nan:
            active &= ~np.isnan(q)
        if not active.any():
            break
        r_new = step(k, p[active], q[active], active)
        r[active] = r_new
        p[active] = q[active]
        q[active] = r_new
        k += 1
        active &= k <= n
    return r


def _polynomial(kernel):
    """kernel(x, n) on x (float32/float64) and an integer n of any shape, broadcast, flattened for the masks."""
    def fn(x, n):
        x, n = np.broadcast_arrays(np.asarray(x), _degree(n))
        with np.errstate(all="ignore"):
            return _shaped(kernel(x.reshape(-1).copy(), n.reshape(-1).copy()), x.shape)
    fn.__name__ = kernel.__name__
    return fn


def _chebyshev(x, n, kind, shifted):
    """T, U, V, W (shifted: of 2x - 1) as ATen computes them: their values at the ends, the trigonometric
    form for large n inside (-1, 1), else the three-term recurrence."""
    T = x.dtype.type
    one = T(1)
    y = x + x - one if shifted else x          # (the shifted forms write x + x - 1 where the others write x)
    two_y = (x + x - one + (x + x - one)) if shifted else x + x
    nn = n.astype(x.dtype)
    odd = (n % 2) != 0
    out = np.zeros_like(x)
    done = n < 0
    # the ends
    if shifted:
        top, bottom = x == one, x == 0
    else:
        top, bottom = (np.abs(x) == one) & (x > 0), (np.abs(x) == one) & ~(x > 0)
    plus_n1, two_n1 = (n + 1).astype(x.dtype), (n + n + 1).astype(x.dtype)
    end_top = {"t": np.ones_like(x), "u": plus_n1, "v": np.ones_like(x), "w": two_n1}[kind]
    end_bottom = {"t": np.where(odd, -one, one), "u": np.where(odd, -plus_n1, plus_n1),
                  "v": np.where(odd, -two_n1, two_n1), "w": np.where(odd, -one, one)}[kind]
    for mask, value in ((top, end_top), (bottom, end_bottom)):
        m = mask & ~done
        out[m] = value[m]
        done |= m
    # large n inside (-1, 1)
    limit = {"t": 6, "u": 8, "v": 8, "w": 8}[kind] if not shifted else {"t": 6, "u": 6, "v": 6, "w": 4}[kind]
    inside = ~done & (n > limit) & (np.abs(y) < one)
    if inside.any():
        yi, ni, n_i = y[inside], nn[inside], n[inside]
        theta = _acos(yi)
        if kind == "t":
            value = _cos(ni * theta)
        elif kind == "u":
            s = _sin(theta)
            value = np.where(s != 0, _sin((n_i + 1).astype(x.dtype) * theta) / s,
                             (n_i + 1).astype(x.dtype) * _cos((n_i + 1).astype(x.dtype) * theta) / yi)
        elif kind == "v":
            value = np.where(_sin(theta / T(2)) != one, _cos((ni + T(0.5)) * theta) / _cos(theta / T(2)),
                             np.where(n_i % 2 != 0, -two_n1[inside], two_n1[inside]))
        else:
            value = np.where(_cos(theta / T(2)) != one, _sin((ni + T(0.5)) * theta) / _sin(theta / T(2)),
                             np.where(yi > 0, two_n1[inside], np.where(n_i % 2 != 0, -one, one)))
        out[inside] = value
        done |= inside
    zero = ~done & (n == 0)
    out[zero] = one
    done |= zero
    p1 = {"t": y, "u": two_y, "v": two_y - one, "w": two_y + one}[kind]
    first = ~done & (n == 1)
    out[first] = p1[first]
    done |= first
    rest = ~done
    if rest.any():
        tr = two_y[rest]
        out[rest] = _recurrence(x[rest], n[rest], np.ones(tr.shape, x.dtype), p1[rest],
                                lambda k, p, q, a: _fused(tr[a], q, -p))
    return out


def _make_chebyshev(kind, shifted):
    def kernel(x, n):
        return _chebyshev(x, n, kind, shifted)
    kernel.__name__ = f"{'shifted_' if shifted else ''}chebyshev_polynomial_{kind}"
    return _polynomial(kernel)


(chebyshev_polynomial_t, chebyshev_polynomial_u, chebyshev_polynomial_v, chebyshev_polynomial_w) = (
    _make_chebyshev(kind, False) for kind in "tuvw")
(shifted_chebyshev_polynomial_t, shifted_chebyshev_polynomial_u, shifted_chebyshev_polynomial_v,
 shifted_chebyshev_polynomial_w) = (_make_chebyshev(kind, True) for kind in "tuvw")


def _simple_polynomial(x, n, p1, step, start, ends=None, limit=None):
    T = x.dtype.type
    out = np.zeros_like(x)
    done = n < 0
    if ends is not None:
        m = ~done & ends[0]
        out[m] = ends[1][m]
        done |= m
    m = ~done & (n == 0)
    out[m] = T(1)
    done |= m
    m = ~done & (n == 1)
    out[m] = p1[m]
    done |= m
    if limit is not None:
        m = ~done & (n > limit)
        out[m] = T(np.nan)
        done |= m
    rest = ~done
    if rest.any():
        xr = x[rest]
        out[rest] = _recurrence(xr, n[rest], np.ones_like(xr), p1[rest], lambda k, p, q, a: step(k, xr[a], p, q),
                                start=start, stop_nan=limit is None)
    return out


@_polynomial
def hermite_polynomial_h(x, n):
    """The physicists' Hermite H_n: r = 2x q - k p for k = 2, 4, .. < 2n (nan beyond n = 128 / 512)."""
    T = x.dtype.type
    limit = 128 if x.dtype == _F32 else 512
    # (the loop runs k = 2, 4, ..., 2n - 2: n - 1 steps, written here as k' = k / 2 + 1 = 2 .. n)
    return _simple_polynomial(x, n, x + x, lambda k, x, p, q: _fused(x + x, q, -(T(2 * (k - 1)) * p)), 2,
                              limit=limit)


@_polynomial
def hermite_polynomial_he(x, n):
    """The probabilists' Hermite He_n: r = x q - k p for k = 1 .. n - 1."""
    T = x.dtype.type
    limit = 128 if x.dtype == _F32 else 512
    return _simple_polynomial(x, n, x, lambda k, x, p, q: _fused(x, q, -(T(k - 1) * p)), 2, limit=limit)


@_polynomial
def laguerre_polynomial_l(x, n):
    """Laguerre's L_n: 1 at x = 0, else ((2k + 1 - x) q - k p) / (k + 1) for k = 1 .. n - 1."""
    T = x.dtype.type
    return _simple_polynomial(
        x, n, T(1) - x, lambda k, x, p, q: _fused(T(2 * (k - 1)) + (T(1) - x), q, -(T(k - 1) * p)) / T(k), 2,
        ends=(np.abs(x) == 0, np.ones_like(x)))


@_polynomial
def legendre_polynomial_p(x, n):
    """Legendre's P_n: +-1 at x = +-1, else ((2k + 1) x q - k p) / (k + 1) for k = 1 .. n - 1."""
    T = x.dtype.type
    odd = (n % 2) != 0
    ends = (np.abs(x) == T(1), np.where((x > 0) | ~odd, T(1), T(-1)).astype(x.dtype))
    return _simple_polynomial(x, n, x, lambda k, x, p, q: _fused(T(2 * (k - 1) + 1) * x, q, -(T(k - 1) * p)) / T(k),
                              2, ends=ends)


# --- the op rows of torch.special's differentiable functions ----------------------------------
# (the Bessel functions, airy_ai and the polynomials have no derivative in PyTorch: no rows, their
# results never require grad; torch.special computes them in special.py)

from .._dtype import default_np, result_np_dtype   # noqa: E402
from . import dual   # noqa: E402
from .operands import broadcast_error   # noqa: E402
from .arithmetic import refuse_kinds   # noqa: E402
from .registry import op   # noqa: E402


def _kernel_check(kernel, no_half=False):
    """A `check` refusing the dtypes ATen's kernel has no loop for: complex, and half for some."""
    def check(*args):
        arrays = [a._data for a in args if isinstance(a, dual.Tensor)]
        if arrays:
            if len(arrays) == 2:
                try:
                    np.broadcast_shapes(arrays[0].shape, arrays[1].shape)
                except ValueError:
                    raise broadcast_error(arrays[0].shape, arrays[1].shape) from None
            dtype = result_np_dtype([(a.ndim, a.dtype) for a in arrays], [])
            refuse_kinds(kernel, "c", np.empty(0, dtype))
            if no_half and dtype == _F16:
                raise NotImplementedError(f"\"{kernel}_cpu\" not implemented for 'Half'")
    return check


@op("special_entr", "SpecialEntrBackward0", saves=("self",), float_result=True, check=_kernel_check("entr"),
    shows={"self": "grad * -(1 + self.log())"},
    self=lambda g, n: g * -dual.add_scalar(dual.call("log", n.self), 1))
def special_entr(self):
    """-x log x (torch.special.entr)."""
    return entr(self)


@op("special_erfcx", "SpecialErfcxBackward0", saves=("self", "result"), float_result=True,
    check=_kernel_check("erfcx", True), shows={"self": "(2.0 * self * result - 2.0 / sqrt(pi)) * grad"},
    self=lambda g, n: dual.sub_scalar(dual.mul_scalar(n.self, 2.0) * n.result, 2.0 / math.sqrt(math.pi)) * g)
def special_erfcx(self):
    """exp(x^2) erfc(x) (torch.special.erfcx)."""
    return erfcx(self)


@op("special_i0e", "SpecialI0EBackward0", saves=("self", "result"), float_result=True, check=_kernel_check("i0e"),
    shows={"self": "grad * (special.i1e(self) - self.sgn() * result)"},
    self=lambda g, n: g * (dual.call("special_i1e", n.self) - dual.call("sgn", n.self) * n.result))
def special_i0e(self):
    """exp(-|x|) I0(x) (torch.special.i0e)."""
    return i0e(self)


def _i1e_grad(g, n):
    """PyTorch's i1e_backward: I0e(x) - I1e(x) (sgn(x) + 1/x), 0.5 where |x| <= eps (the formula's 0/0)."""
    x = dual.data(n.self)
    eps = float(np.finfo(x.dtype).eps)
    not_tiny = dual.like(g, np.abs(x) > eps)
    safe = dual.where(not_tiny, n.self, eps)
    gradx = dual.call("special_i0e", safe) - n.result * (dual.call("sgn", safe) + dual.call("reciprocal", safe))
    return g * dual.where(not_tiny, gradx, 0.5)


@op("special_i1e", "SpecialI1EBackward0", saves=("self", "result"), float_result=True, check=_kernel_check("i1e"),
    shows={"self": "grad * where(self.abs() > finfo(self.dtype).eps, special.i0e(self) - result * (self.sgn() + "
                   "self.reciprocal()), 0.5)"},
    self=_i1e_grad)
def special_i1e(self):
    """exp(-|x|) I1(x) (torch.special.i1e)."""
    return i1e(self)


@op("special_ndtri", "SpecialNdtriBackward0", saves=("result",), float_result=True,
    check=_kernel_check("ndtri", True), shows={"self": "grad * sqrt(2 * pi) * (result * result / 2).exp()"},
    self=lambda g, n: g * math.sqrt(2 * math.pi) * dual.call("exp", dual.div_scalar(dual.pow_scalar(n.result, 2), 2)))
def special_ndtri(self):
    """The inverse of the normal distribution function (torch.special.ndtri)."""
    return ndtri(self)


@op("special_log_ndtr", "SpecialLogNdtrBackward0", saves=("self", "result"), float_result=True,
    check=_kernel_check("log_ndtr", True),
    shows={"self": "grad / sqrt(2 * pi) * (-(result + self * self / 2)).exp()"},
    self=lambda g, n: g / math.sqrt(2 * math.pi) * dual.call(
        "exp", -(n.result + dual.div_scalar(dual.pow_scalar(n.self, 2), 2))))
def special_log_ndtr(self):
    """log of the normal distribution function (torch.special.log_ndtr)."""
    return log_ndtr(self)


def _xlog1py_self_grad(g, n):
    # PyTorch: xlog1py(grad, other).masked_fill((self == 0.) & (other <= -1.), 0.)
    mask = (dual.data(n.self) == 0) & (dual.data(n.other) <= -1) if isinstance(n.self, (np.ndarray, dual.Tensor)) \
        else None
    out = dual.call("special_xlog1py_scalar_other", g, other=n.other) if not isinstance(n.other, (np.ndarray, dual.Tensor)) \
        else dual.call("special_xlog1py", g, n.other)
    return out if mask is None else dual.zero_where(dual.like(out, np.broadcast_to(mask, np.shape(dual.data(out)))), out)


@op("special_xlog1py", "SpecialXlog1PyBackward0", ("self", "other"), float_result=True, check=_kernel_check("xlog1py"),
    saves={"self": ("self", "other"), "other": ("self", "other")},
    shows={"self": "where((self == 0) & (other <= -1), 0, special.xlog1py(grad, other))",
           "other": "grad * self / (other + 1)"},
    self=_xlog1py_self_grad, other=lambda g, n: g * n.self / dual.add_scalar(n.other, 1))
def special_xlog1py(self, other):
    """x * log1p(y), 0 where x is 0 (torch.special.xlog1py)."""
    return xlog1py(self, other)


@op("special_xlog1py_scalar_other", "SpecialXlog1PyBackward2", ("self",), saves=("self",), float_result=True,
    check=_kernel_check("xlog1py"),
    shows={"self": "where((self == 0) & (other <= -1), 0, special.xlog1py(grad, other))"},
    self=lambda g, n: dual.zero_where(dual.like(g, np.broadcast_to((dual.data(n.self) == 0) & (n.other <= -1),
                                                                   np.shape(dual.data(g)))),
                                      dual.call("special_xlog1py_scalar_other", g, other=n.other)))
def special_xlog1py_scalar_other(self, other):
    return xlog1py(self, np.asarray(other, self.dtype))


@op("special_xlog1py_scalar_self", "SpecialXlog1PyBackward1", ("other",), saves=("other",), float_result=True,
    check=_kernel_check("xlog1py"),
    other=lambda g, n: g * n.self_value / dual.add_scalar(n.other, 1))
def special_xlog1py_scalar_self(other, self_value):
    return xlog1py(np.asarray(self_value, other.dtype), other)


def _plus_one(x):
    """PyTorch's `self + 1.` in zeta's gradient: an integer self gives the default float dtype."""
    if isinstance(x, dual.Tensor):
        return x + 1.0
    return (x + 1).astype(x.dtype if x.dtype.kind == "f" else default_np())


def _zeta_self_grad(g, n):
    raise NotImplementedError("the derivative for 'zeta' is not implemented.")


@op("special_zeta", "SpecialZetaBackward0", ("self", "other"), float_result=True, check=_kernel_check("zeta", True),
    saves={"self": (), "other": ("self", "other")}, self=_zeta_self_grad,
    shows={"self": "not implemented", "other": "grad * -self * special.zeta(self + 1.0, other)"},
    other=lambda g, n: g * -n.self * dual.call("special_zeta", _plus_one(n.self), n.other))
def special_zeta(self, other):
    """Hurwitz's zeta(x, q) (torch.special.zeta)."""
    return zeta_arrays(self, other)


@op("special_zeta_scalar_other", "SpecialZetaBackward2", ("self",), float_result=True,
    check=_kernel_check("zeta", True), self=_zeta_self_grad, shows={"self": "not implemented"})
def special_zeta_scalar_other(self, other):
    return zeta_arrays(self, np.asarray(other, self.dtype))


@op("special_zeta_scalar_self", "SpecialZetaBackward1", ("other",), saves=("other",), float_result=True,
    check=_kernel_check("zeta", True), shows={"other": "grad * -self_value * special.zeta(self_value + 1.0, other)"},
    other=lambda g, n: g * -n.self_value * dual.call("special_zeta_scalar_self", n.other, self_value=n.self_value + 1.0))
def special_zeta_scalar_self(other, self_value):
    return zeta_arrays(np.asarray(self_value, other.dtype), other)
