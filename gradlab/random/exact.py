"""Correctly rounded float arithmetic on numpy arrays, which numpy does not offer: the fused
multiply-add (`a * b + c` with one rounding, as PyTorch's compiled kernels compute it) in float64
and float32, and the C library's float64 log. The generator (uniform_, normal's Box-Muller) and
creation's arange/linspace use them to give PyTorch's bits."""
import math
from fractions import Fraction

import numpy as np


def _two_sum(a, b):
    s = a + b
    bb = s - a
    err = (a - (s - bb)) + (b - bb)
    return s, err


def _split(a):
    c = a * 134217729.0  # 2**27 + 1 (Veltkamp split)
    hi = c - (c - a)
    return hi, a - hi


def _two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return p, err


def _round_odd_sum(a, b):
    """a + b rounded to odd (float64 arrays)."""
    s, err = _two_sum(a, b)
    inexact = err != 0
    even = (s.view(np.int64) & 1) == 0
    fix = inexact & even
    if np.any(fix):
        s = np.where(fix, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
    return s


def _fma64(a, b, c) -> np.ndarray:
    """Correctly rounded float64 ``a * b + c`` (Boldo-Melquiond emulation)."""
    a = np.asarray(a, dtype=np.float64)
    b = np.broadcast_to(np.asarray(b, dtype=np.float64), a.shape)
    c = np.broadcast_to(np.asarray(c, dtype=np.float64), a.shape)
    with np.errstate(all="ignore"):
        uh, ul = _two_prod(a, b)
        th, tl = _two_sum(c, uh)
        v = _round_odd_sum(tl, ul)
        out = th + v
        naive = a * b + c
    # non-finite inputs/intermediates: fall back to the plain expression
    bad = ~np.isfinite(out)
    if np.any(bad):
        out = np.where(bad, naive, out)
    return out


def _fma32(a, b, c) -> np.ndarray:
    """Correctly rounded float32 ``a * b + c`` of float32 arrays/scalars.

    The product of two float32 values is exact in float64 (24 + 24 bits), so only the sum is rounded
    twice: to float64, then to float32. That can differ from one rounding only where the float64 sum lands
    exactly on a midpoint between two float32 values (about one element in 2**29), or in float32's
    subnormal range, whose grid is another: those few are summed rounding to odd, which makes the second
    rounding exact; the rest take one plain float64 sum (5x faster than rounding every element to odd)."""
    a = np.asarray(a, dtype=np.float32).astype(np.float64)
    p = a * np.float64(np.float32(b))  # exact: 24 + 24 bits
    c = np.broadcast_to(np.float64(np.float32(c)), p.shape)
    with np.errstate(all="ignore"):
        s = p + c
    bits = s.view(np.int64)
    doubtful = (bits & _BELOW_FLOAT32) == _FLOAT32_MIDPOINT
    doubtful |= (np.abs(s) < _FLOAT32_TINY) & (s != 0)
    if doubtful.any():
        with np.errstate(all="ignore"):
            if np.ndim(s) == 0:
                s = _round_odd_sum(p, np.array(c))
            else:                                  # (s is a new array: written in place)
                s[doubtful] = _round_odd_sum(p[doubtful], c[doubtful])
    return s.astype(np.float32)


_BELOW_FLOAT32 = (1 << 29) - 1          # the 29 bits of a float64's mantissa that float32 lacks
_FLOAT32_MIDPOINT = 1 << 28             # ... as they are at a midpoint between two float32 values
_FLOAT32_TINY = 2.0 ** -126             # below it, float32's subnormals


def _fma_scalar(a: float, b: float, c: float) -> float:
    if b == 1.0 and c == 0.0:
        return a
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return a * b + c
    return float(Fraction(a) * Fraction(b) + Fraction(c))


_HAVE_LONGDOUBLE = np.finfo(np.longdouble).nmant >= 60


def _log64(x: np.ndarray) -> np.ndarray:
    """float64 log equal to the C library's ``log`` (what torch uses).

    numpy's SIMD float64 log is off by one ulp for ~0.3% of inputs.  The C
    library's log is within 0.52 ulp, so it can only differ from the correctly
    rounded value when the exact log lies within 0.02 ulp of a rounding midpoint.
    We keep numpy's result where an 80-bit ``logl`` shows it is at most 0.48 ulp
    from the exact value (then it is the correctly rounded value, which is also
    what the C library returns), and call ``math.log`` for the few others.
    """
    y = np.log(x)
    if x.size == 0:
        return y
    if _HAVE_LONGDOUBLE:
        with np.errstate(all="ignore"):
            exact = np.log(x.astype(np.longdouble))
            err = np.abs((exact - y.astype(np.longdouble)) / np.spacing(np.abs(y)).astype(np.longdouble))
        idx = np.flatnonzero(~(err < 0.48))
    else:
        idx = np.arange(x.size)
    if idx.size:
        flat = y.reshape(-1)
        xf = x.reshape(-1)
        flat[idx] = [math.log(v) if v > 0 else float(np.log(v)) for v in xf[idx].tolist()]
    return y

