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
