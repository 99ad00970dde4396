"""PyTorch's vectorized float32 CPU kernels, step by step in numpy, so that gradlab prints PyTorch's bits.

Most float32 math in gradlab is computed in float64 and rounded once (correctly rounded). PyTorch's
CPU kernels are not correctly rounded: they are fast polynomial approximations written with SIMD
instructions, and their last bit differs from the exact answer for a share of inputs. Where the
kernel is public code we repeat it here, one float32 operation at a time, so the results agree bit for
bit. What PyTorch 2.13's CPU build (x86-64) runs, measured against it:

* softmax / log_softmax over the last dimension (and their gradients): ATen's own kernels
  (aten/src/ATen/native/cpu/SoftMaxKernel.cpp, LogSoftmaxKernelImpl.h) on `Vectorized<float>`:
  16 lanes with AVX512, 8 with AVX2. exp is SLEEF's `expf_u10` and log SLEEF's `logf_u10`
  (github.com/shibatch/sleef, src/libm/sleefsimdsp.c: `xexpf`, `xlogf_u1`); the sums run lane by
  lane over whole vectors, the leftover numbers join the first lanes, and the lanes are folded in
  halves at the end (`vec_reduce_all`).
* gelu (exact form) of a contiguous tensor of more than one element, and its gradient: oneDNN's
  JIT kernel (github.com/uxlfoundation/oneDNN, src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp):
  with AVX-512 the forward is a piecewise degree-5 polynomial picked by the input's exponent bits;
  the gradient is Abramowitz and Stegun's erf formula with oneDNN's own exp.
* Not reproduced (gradlab keeps its correctly rounded float64 path): float32 exp, log, tan, sin, cos,
  tanh, erf of a tensor go to Intel MKL's VML library (`vmsExp`, `vmsTan`, ... in "high accuracy"
  mode), whose code is not public; the same results come out whatever the CPU capability. gelu of a
  single number or a non-contiguous tensor goes through C's `erff` (glibc's), and softmax over
  another dimension than the last has its own kernel; both stay on gradlab's float64 path.

Which kernel runs depends on the CPU, as in PyTorch: ATen picks AVX512 when the CPU has
avx512f/bw/vl/dq and fma, else AVX2 (avx2 and fma), else its plain C++ (DEFAULT), and the
environment variable ATEN_CPU_CAPABILITY (avx512, avx2, default) overrides it. oneDNN looks at the
CPU on its own (ONEDNN_MAX_CPU_ISA can lower it). Where gradlab cannot know the CPU (no
/proc/cpuinfo, not x86-64) or PyTorch would take a path not written here, gradlab keeps its float64
path.

A fused multiply-add (`fma(a, b, c)`: a * b + c rounded once) is what the vector instruction
`vfmadd` computes; numpy has none. For float32 operands the product is exact in float64, so the
only error of `float64(a) * b + c` is the rounding of the sum, and rounding that again to float32
can round twice ("double rounding"). That only matters when the float64 sum lands exactly half-way
between two float32 numbers; there `fma32` looks at the sum's own rounding error and nudges it.
"""
import functools
import os
import platform
import threading

import numpy as np

from .. import _parallel

_F32, _F64 = np.float32, np.float64
_I32 = np.int32


# --- which kernels PyTorch runs on this machine ------------------------------------------------------

@functools.lru_cache(maxsize=None)
def _cpu_flags():
    """The CPU's feature flags from /proc/cpuinfo, or None where they cannot be read."""
    if platform.machine().lower() not in ("x86_64", "amd64"):
        return None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    return frozenset(line.split(":", 1)[1].split())
    except OSError:
        return None
    return None


def cpu_capability():
    """ATen's CPU capability: "AVX512", "AVX2", "DEFAULT", or None where gradlab cannot tell.

    As ATen's compute_cpu_capability(): ATEN_CPU_CAPABILITY first, then the CPU's flags."""
    return _capability(os.environ.get("ATEN_CPU_CAPABILITY"))


@functools.lru_cache(maxsize=None)
def _capability(env):
    flags = _cpu_flags()
    if flags is None:
        return None
    if env in ("avx512", "avx2", "default"):
        return env.upper()
    if {"avx512vl", "avx512bw", "avx512dq", "fma"} <= flags:
        return "AVX512"
    if {"avx2", "fma"} <= flags:
        return "AVX2"
    return "DEFAULT"


_LANES = {"AVX512": 16, "AVX2": 8}


def _lanes():
    """float32 lanes of ATen's Vectorized<float> when its SLEEF kernels run, else None."""
    return _LANES.get(_capability(os.environ.get("ATEN_CPU_CAPABILITY")))


_ONEDNN_BELOW_AVX512 = ("sse41", "avx", "avx2", "avx2_vnni", "avx2_vnni_2")


def onednn_avx512():
    """Whether oneDNN runs its AVX-512 kernels (avx512_core: avx512f/bw/vl/dq), as oneDNN decides."""
    return _onednn_avx512(os.environ.get("ONEDNN_MAX_CPU_ISA", os.environ.get("DNNL_MAX_CPU_ISA", "")))


@functools.lru_cache(maxsize=None)
def _onednn_avx512(limit):
    flags = _cpu_flags()
    if flags is None or not {"avx512f", "avx512bw", "avx512vl", "avx512dq"} <= flags:
        return False
    return limit.lower() not in _ONEDNN_BELOW_AVX512


# --- float32 arithmetic, one rounding at a time --------------------------------------------------------

def _bits(x):
    return x.view(_I32)


def _from_bits(i):
    """The float32 numbers with these bit patterns (int32 arrays, or Python ints as written in hex)."""
    if isinstance(i, int):
        return np.uint32(i).view(_F32)
    return np.asarray(i, _I32).view(_F32)


def fma32(a, b, c):
    """float32 a * b + c rounded once (the vfmadd instruction)."""
    s = np.multiply(a, b, dtype=_F64)           # exact: 24 + 24 bits fit in 53
    if np.shape(c) == () or np.shape(c) == s.shape:
        s += c
    else:
        s = s + c
    return _rounded_once(s, a, b, c)


def _rounded_once(s, a, b, c):
    """s = float64(a * b + c) rounded to float32 as a fused multiply-add would: once."""
    out = s.astype(_F32)
    # double rounding is only possible where s sits exactly half-way between two float32 numbers
    half_way = _half_way(s)
    if half_way.any():
        a, b, c = (np.broadcast_to(np.asarray(v, _F64), s.shape)[half_way] for v in (a, b, c))
        p, s0 = a * b, s[half_way]
        bb = s0 - p
        err = (p - (s0 - bb)) + (c - bb)      # the exact rounding error of the float64 sum
        nudged = np.where(err > 0, np.nextafter(s0, np.inf), np.where(err < 0, np.nextafter(s0, -np.inf), s0))
        out[half_way] = nudged.astype(_F32)
    return out


# Small arrays: numpy's cost is per call, not per number, so inside a kernel `_fma` keeps the sums of
# small arrays and the kernel checks them all at once when it ends (one test instead of one per step);
# in the rare case that one is double-rounded the kernel runs again with every step checked by fma32.
# Large arrays are checked step by step (keeping their sums would cost memory traffic instead).
_BATCH_MAX = 4096


class _State(threading.local):
    """Per thread: inside a kernel (depth); the sums kept (None: check every step)."""
    depth = 0
    sums = None


_STATE = _State()


def _fma(a, b, c, exact_sum=False):
    """fma32 inside a kernel; where the float64 sum is known to be exact (noted where used), no check."""
    s = np.multiply(a, b, dtype=_F64)
    try:
        s += c
    except ValueError:                      # c broadcasts to a larger shape than a * b
        s = s + c
    if exact_sum:
        return s.astype(_F32)
    sums = _STATE.sums
    if sums is None or s.size > _BATCH_MAX:
        return _rounded_once(s, a, b, c)
    sums.append((s, a, b, c))
    return s.astype(_F32)


_LOW29 = np.array(0x1FFFFFFF, np.uint64)
_HALF29 = np.array(0x10000000, np.uint64)


def _half_way(s):
    """Where the float64 numbers s lie exactly half-way between two float32 numbers."""
    return (s.view(np.uint64) & _LOW29) == _HALF29


def _double_rounded(sums):
    """Whether any kept sum (s = a * b + c in float64, the product exact) lies half-way between two
    float32 numbers without being exactly a * b + c (an exact tie rounds correctly)."""
    flat = np.concatenate([entry[0] for entry in sums], axis=None)
    bits = flat.view(np.uint64)
    bits &= _LOW29
    if not (bits == _HALF29).any():
        return False
    for s, a, b, c in sums:
        at = _half_way(s)
        if not at.any():
            continue
        s0 = s[at]
        p0 = np.broadcast_to(np.multiply(a, b, dtype=_F64), s.shape)[at]
        c0 = np.broadcast_to(np.asarray(c, _F64), s.shape)[at]
        bb = s0 - p0
        if ((p0 - (s0 - bb)) + (c0 - bb) != 0).any():      # the sum's exact rounding error
            return True
    return False


def _kernel(function):
    """A public kernel: numpy's warnings off (inf and nan are part of the arithmetic), and the sums
    `_fma` kept checked when the outermost kernel ends."""
    @functools.wraps(function)
    def run(*args, **kwargs):
        state = _STATE
        if state.depth:
            return function(*args, **kwargs)
        state.depth, state.sums = 1, []
        try:
            with np.errstate(all="ignore"):
                out = function(*args, **kwargs)
                if state.sums and _double_rounded(state.sums):
                    state.sums = None           # again, every step checked
                    out = function(*args, **kwargs)
        finally:
            state.depth, state.sums = 0, None
        return out
    return run


def _f(v):
    return np.asarray(v, _F32)


def _k32(v):
    """A float32 constant as a 0-d array: numpy's cheapest operand (a numpy or Python scalar costs more)."""
    return np.array(v, _F32)


def _k64(v):
    return np.array(v, _F64)


def _poly(x64, coefficients, u64=None):
    """Horner's steps u = fma(u, x, c) over the coefficients (0-d float64 arrays), each rounded once to
    float32. x64, u64: float32 numbers held as float64 (float64 * float64 is numpy's fastest product,
    and exact for them); u64: the first value, else coefficients[0]. Returns u as float32 and as
    float64. The sums are kept for the kernel's check as _fma keeps them."""
    sums = _STATE.sums
    if u64 is None:
        u64, coefficients = coefficients[0], coefficients[1:]
    for c in coefficients:
        t = u64 * x64
        t += c
        u32 = _rounded(t, u64, x64, c, sums)
        u64 = u32.astype(_F64)
    return u32, u64


def _rounded(t, a, b, c, sums=()):
    """t = a * b + c (float64, the product exact) rounded to float32 as fma; t kept for the kernel's
    check (sums: the kernel's list, () to look it up)."""
    if sums == ():
        sums = _STATE.sums
    if sums is None or t.size > _BATCH_MAX:
        return _rounded_once(t, a, b, c)
    sums.append((t, a, b, c))
    return t.astype(_F32)


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
    t = qf.astype(_F64)                              # fma(q, -L2L, s): its float64 sum is exact
    t *= _K_M_L2LF
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
    m = _bits(d) & _I_MANTISSA
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
    t = inv64 * ax
    t -= xx
    u = t.astype(_F32)                                                  # fma(t, ax, -xx): exact
    t = inv64 * bx
    t = (_K_ONE64 - t).astype(_F32)                                     # fma(-bx, t, 1): exact
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
    # zero, negative, infinite and nan inputs: as IEEE log (which numpy's log is on them)
    ok = d > _K_ZERO
    ok &= d < _K_INF
    np.putmask(r, ~ok, np.log(d))
    return r


# --- ATen's reductions over Vectorized<float> (functional_base.h) ------------------------------------

def _fold_lanes(acc):
    """vec_reduce_all: the vector folded in halves (lanes i and i + W/2 added, and so on): lane 0."""
    while acc.shape[1] > 1:
        h = acc.shape[1] // 2
        acc = acc[:, :h] + acc[:, h:]
    return acc[:, 0]


def row_sums(v, lanes):
    """reduce_all / map_reduce_all with +: each row of the float32 matrix v (already mapped) summed as
    PyTorch's vector loop sums it."""
    rows, n = v.shape
    if n < lanes:                                   # one partial vector: its lanes added one by one
        return np.add.accumulate(v, axis=1)[:, -1]
    full = n - n % lanes
    acc = np.add.reduce(v[:, :full].reshape(rows, full // lanes, lanes), axis=1)   # vector by vector
    if n > full:
        acc[:, :n - full] += v[:, full:]           # the leftover numbers join the first lanes
    return _fold_lanes(acc)


# --- softmax and log_softmax over the last dimension ------------------------------------------------

def _rows(x):
    return np.ascontiguousarray(x).reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)


@_kernel
def softmax_lastdim(x):
    """softmax over the last dim (float32), as ATen's _vec_softmax_lastdim; None if not reproduced here."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    e = sleef_expf(r - np.maximum.reduce(r, axis=1, keepdims=True), nonpositive=True)
    inverse = _F32(1) / row_sums(e, lanes)
    return (e * inverse[:, None]).reshape(x.shape)


@_kernel
def log_softmax_lastdim(x):
    """log_softmax over the last dim (float32): x - max - log(sum(exp(x - max))), each step rounded."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.ndim == 0 or x.shape[-1] == 0:
        return None
    r = _rows(x)
    shifted = r - np.maximum.reduce(r, axis=1, keepdims=True)
    log_sum = sleef_logf(row_sums(sleef_expf(shifted, nonpositive=True), lanes))
    return (shifted - log_sum[:, None]).reshape(x.shape)


@_kernel
def softmax_backward_lastdim(grad, output, threads=None):
    """(grad - sum(grad * output)) * output over the last dim, as ATen's kernel. Its loop body is
    compiled twice, for the threads (OpenMP) and for the caller's own thread (one row, or one
    thread), and only the second copy fuses the leftover numbers' multiply-add into the sum
    (measured: torch.set_num_threads(1) changes these bits)."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    g, y = _rows(grad), _rows(output)
    threads = _parallel.get_num_threads() if threads is None else threads
    rows, n = g.shape
    products = g * y
    if n < lanes or n % lanes == 0 or (rows > 1 and threads > 1):
        total = row_sums(products, lanes)
    else:
        full = n - n % lanes
        acc = np.add.reduce(products[:, :full].reshape(rows, full // lanes, lanes), axis=1)
        acc[:, :n - full] = _fma(g[:, full:], y[:, full:], acc[:, :n - full])
        total = _fold_lanes(acc)
    return ((g - total[:, None]) * y).reshape(grad.shape)


@_kernel
def log_softmax_backward_lastdim(grad, output):
    """grad - exp(output) * sum(grad) over the last dim; the compiler fuses the last multiply and
    subtract into one fma (measured)."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.ndim == 0 or grad.shape[-1] == 0:
        return None
    g, y = _rows(grad), _rows(output)
    total = row_sums(g, lanes)
    e = sleef_expf(y)
    return _fma(-e, total[:, None], g).reshape(grad.shape)


# --- oneDNN's gelu (eltwise_gelu_erf) -------------------------------------------------------------------

# jit_uni_eltwise_injector.cpp, gelu_erf_minimax_polynomial: for each of 32 intervals (25 used) the
# coefficients of degree 0..5 of a polynomial p with gelu(x) = x/2 * (1 + sign(x) * p(|x|)).
_GELU_TABLE = np.array([
    [  # degree 0
     0xa6f2cb94, 0x32827792, 0x3381cc0c, 0x34523d4a, 0x351ac44d, 0x35f36d88, 0x36ee8229, 0x37b8a3bb,
     0x3867a213, 0x3940033b, 0x3a2a5a1d, 0x3ae35863, 0x3b7828f2, 0x3c08b14b, 0x3c515ed3, 0xbb503236,
     0xbd8d8e5e, 0xbe8abcd9, 0xbf0c19a2, 0xbeccb328, 0x3e176ced, 0x3f470d99, 0x3f7abb28, 0x3f800000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 1
     0x3f4c422a, 0x3f4c421f, 0x3f4c4207, 0x3f4c41cb, 0x3f4c413b, 0x3f4c3fad, 0x3f4c3a2f, 0x3f4c2d40,
     0x3f4c146a, 0x3f4bc341, 0x3f4ad08c, 0x3f48f8cf, 0x3f45fac7, 0x3f404e07, 0x3f3b980f, 0x3f48dff3,
     0x3f78b21b, 0x3fbb0704, 0x40019c32, 0x3fe536d6, 0x3f81331e, 0x3e6c8684, 0x3c98f936, 0x00000000,
     0x3f800000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 2
     0xb62173f4, 0x3735e4cf, 0x37f2ff89, 0x388c23be, 0x3917535c, 0x39ab2ab0, 0x3a60fadb, 0x3af9b960,
     0x3b6e5491, 0x3c0a4ec5, 0x3ca5aa8c, 0x3d2138d9, 0x3d8737d4, 0x3ddfb660, 0x3e0f27ab, 0x3d94004b,
     0xbe0efdeb, 0xbf1d96c3, 0xbf89db58, 0xbf6d9897, 0xbef69fb8, 0xbdc4f8a8, 0xbbde6422, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 3
     0xbe081a19, 0xbe084570, 0xbe08639b, 0xbe089837, 0xbe08f409, 0xbe09ab95, 0xbe0b66d0, 0xbe0e400a,
     0xbe124df8, 0xbe1bde02, 0xbe2f19c9, 0xbe4931bf, 0xbe685fbc, 0xbe89c95f, 0xbe96cbca, 0xbe8044aa,
     0xbe0550f2, 0x3dcfd6a1, 0x3e94c826, 0x3e79345f, 0x3decec91, 0x3ca46568, 0x3aa1e00a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 4
     0xba3d61db, 0x39f097a3, 0x3a5845dc, 0x3ab1fa35, 0x3b0cefb8, 0x3b653ab6, 0x3bcae527, 0x3c221712,
     0x3c6c5840, 0x3cc0a703, 0x3d1dcc19, 0x3d63656d, 0x3d955907, 0x3dbf9910, 0x3dd53f69, 0x3db7dcef,
     0x3d639ebe, 0xba6ede48, 0xbd22be69, 0xbd041cf1, 0xbc64f5ab, 0xbb097a32, 0xb8ebf380, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
    [  # degree 5
     0x3cb7d80c, 0x3c9b6050, 0x3c978d11, 0x3c92e850, 0x3c8d058b, 0x3c848454, 0x3c6cd623, 0x3c4c824b,
     0x3c2a7935, 0x3be0b390, 0x3b0651ac, 0xbb232f53, 0xbbd42fa0, 0xbc2c5366, 0xbc492c9e, 0xbc2a7aa6,
     0xbbd55d04, 0xba823a76, 0x3b102aa8, 0x3ae25a7e, 0x3a31f792, 0x38b84375, 0x3689bb5a, 0x00000000,
     0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000, 0x00000000,
    ],
], np.uint32).view(np.float32)


@_kernel
def gelu_onednn(x):
    """gelu(x) (exact form) as oneDNN's AVX-512 kernel: the interval index from the bits of |x|
    (exponent and 2 mantissa bits), a degree-5 polynomial by fma steps, then x * (1 + sign * p) / 2."""
    x = _f(x)
    xb = _bits(x)
    pos_bits = xb & _I32(0x7FFFFFFF)
    pos = _from_bits(pos_bits)
    index = np.clip((pos_bits + _I32(-0x3DE00001)) >> _I32(21), 1, 24)     # + 0xc21fffff
    index = np.where(_from_bits(0x40B15CEE) < pos, 23, index) & 31         # beyond 5.54: erf is 1
    table = _GELU_TABLE
    p = table[5][index]
    for degree in range(4, -1, -1):
        p = _fma(p, pos, table[degree][index])
    p = _from_bits(_bits(p) ^ (xb & _I32(-2 ** 31)))
    return (x * (p + _F32(1))) * _F32(0.5)


def _onednn_exp(x):
    """oneDNN's exp (exp_compute_vector_fwd): n = floor(x log2(e) + 1/2), r = x - n ln2, a degree-5
    polynomial, times 2**(n-1) times 2."""
    low = x < _from_bits(0xC2AEAC50)                       # below log(FLT_MIN): 0
    src = np.maximum(np.minimum(x, _from_bits(0x42B17218)), _from_bits(0xC2AEAC50))
    n = np.floor(src * _from_bits(0x3FB8AA3B) + _F32(0.5))
    r = _fma(-n, _from_bits(0x3F317218), src, exact_sum=True)   # (exact in float64)
    scale = _from_bits((np.rint(n - _F32(1)).astype(_I32) + _I32(127)) << _I32(23))
    scale = np.where(low, _F32(0), scale)
    p = np.full(r.shape, _from_bits(0x3C07CFCE), _F32)
    for c in (0x3D2B9D0D, 0x3E2AAD40, 0x3EFFFEE3, 0x3F7FFFFB):
        p = _fma(p, r, _from_bits(c))
    p = _fma(p, r, _F32(1))
    return p * scale * _F32(2)


_AS_POLY = [_from_bits(v) for v in (0x3E827906, 0xBE91A98E, 0x3FB5F0E3, 0xBFBA00E3, 0x3F87DC22)]


@_kernel
def gelu_backward_onednn(grad, x):
    """grad * gelu'(x) as oneDNN's kernel: erf(x/sqrt2) by Abramowitz and Stegun 7.1.26 with oneDNN's
    exp, gelu' = 1/2 + x/sqrt(2 pi) exp(-x^2/2) + erf/2."""
    x = _f(x)
    r = x * _from_bits(0x3F3504F3)                           # x / sqrt(2)
    q = _onednn_exp(-(r * r))
    t = r * _from_bits(0x3F106EBA) * q                       # r / sqrt(pi) * q
    w = _F32(1) / _fma(_from_bits(0x3EA7BA05), np.abs(r), _F32(1))
    p = np.full(w.shape, _AS_POLY[4], _F32)
    for c in _AS_POLY[3::-1]:
        p = _fma(p, w, c)
    erf = _fma(-q * w, p, _F32(1))
    erf = _from_bits(_bits(erf) ^ (_bits(r) & _I32(-2 ** 31)))
    return _f(grad) * _fma(erf, _F32(0.5), t + _F32(0.5))


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


# --- softmax and log_softmax over another dimension than the last -----------------------------------------
# The tensor is seen as (outer, dim, inner): each of the outer * inner positions is one softmax over
# `dim` numbers inner apart. Whole vectors of positions run the SLEEF kernels; the others PyTorch's
# scalar loop, with glibc's expf. Sums over `dim` are one running sum, position by position.

def _as_3d(x, dim):
    """(outer, dim, inner) view of a contiguous copy of x."""
    shape = x.shape
    dim = dim % x.ndim
    outer = int(np.prod(shape[:dim], dtype=np.int64))
    inner = int(np.prod(shape[dim + 1:], dtype=np.int64))
    return np.ascontiguousarray(x).reshape(outer, shape[dim], inner)


def _running_sum(v):
    """Sum over axis 1, one number after the other (axis 1 of an (outer, dim, inner) array)."""
    return np.add.accumulate(v, axis=1)[:, -1:, :]


def _softmax_vector_positions(outer, inner, lanes, threads):
    """Which positions (outer * inner, in memory order) _vec_softmax computes with whole vectors: each
    thread walks its share of the positions, a vector at a time while one fits in both its share and
    the current row of `inner`; the rest of a row (or of its share) goes to the scalar loop."""
    n = outer * inner
    p = np.arange(n)
    vector = np.zeros(n, bool)
    threads = threads if n > 1 else 1
    share = -(-n // threads)
    for begin in range(0, n, share):
        end = min(begin + share, n)
        q = p[begin:end]
        row_start = np.maximum(begin, q - q % inner)
        block = row_start + (q - row_start) // lanes * lanes
        vector[begin:end] = block + lanes <= np.minimum(end, q - q % inner + inner)
    return vector


@_kernel
def softmax_inner(x, dim, threads=None):
    """softmax over a dim that is not the last (float32), as ATen's _vec_softmax: exp(x - max) / sum.
    Which numbers take the vector path depends on how the positions are shared among the threads."""
    lanes = _lanes()
    threads = _parallel.get_num_threads() if threads is None else threads
    if lanes is None or x.dtype != _F32 or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    outer, _, inner = x3.shape
    vector = _softmax_vector_positions(outer, inner, lanes, threads).reshape(outer, 1, inner)
    shifted = x3 - np.maximum.reduce(x3, axis=1, keepdims=True)
    e = np.where(vector, sleef_expf(shifted, nonpositive=True), glibc_expf(shifted))
    return (e / _running_sum(e)).reshape(x.shape)


def _logsoftmax_vector_positions(inner, dim_size, lanes):
    """Which inner positions serial_vec_logsoftmax_range computes with whole vectors: inner is cut in
    chunks (128 KiB of a chunk's columns), each chunk's whole vectors first, its leftover scalar."""
    chunk = max(128 * 1024 // dim_size // 4, lanes) // lanes * lanes
    chunk = min(chunk, inner)
    q = np.arange(inner)
    start = q - q % chunk
    size = np.minimum(chunk, inner - start)
    return (q - start) < size - size % lanes


@_kernel
def log_softmax_inner(x, dim):
    """log_softmax over a dim that is not the last (float32): x - max - log(sum(exp(x - max)))."""
    lanes = _lanes()
    if lanes is None or x.dtype != _F32 or x.size == 0 or x.ndim == 0:
        return None
    x3 = _as_3d(x, dim)
    vector = _logsoftmax_vector_positions(x3.shape[2], x3.shape[1], lanes)[None, None, :]
    shifted = x3 - np.fmax.reduce(x3, axis=1, keepdims=True)     # (its max skips nans: blendv on >)
    e = np.where(vector, sleef_expf(shifted, nonpositive=True), glibc_expf(shifted))
    return (shifted - sleef_logf(_running_sum(e))).reshape(x.shape)


@_kernel
def softmax_backward_inner(grad, output, dim):
    """softmax's gradient over a dim that is not the last: output * (grad - sum(grad * output)), the
    sum one fused multiply-add per number (the compiler fuses both the vector and the scalar loop)."""
    if _lanes() is None or grad.dtype != _F32 or output.dtype != _F32 or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    total = np.zeros((g.shape[0], 1, g.shape[2]), _F32)
    for d in range(g.shape[1]):
        total = _fma(g[:, d:d + 1], y[:, d:d + 1], total)
    return (y * (g - total)).reshape(grad.shape)


@_kernel
def log_softmax_backward_inner(grad, output, dim):
    """log_softmax's gradient over a dim that is not the last: grad - exp(output) * sum(grad), fused."""
    lanes = _lanes()
    if lanes is None or grad.dtype != _F32 or output.dtype != _F32 or grad.size == 0 or grad.ndim == 0:
        return None
    g, y = _as_3d(grad, dim), _as_3d(output, dim)
    vector = _logsoftmax_vector_positions(g.shape[2], g.shape[1], lanes)[None, None, :]
    total = _running_sum(g)
    e = np.where(vector, sleef_expf(y), glibc_expf(y))
    return _fma(-e, total, g).reshape(grad.shape)


# --- elementwise kernels (ATen's cpu_kernel_vec) --------------------------------------------------------
# TensorIterator walks a dense tensor in memory order. Above 32768 numbers the walk is shared among
# the threads in equal slices; each slice runs the vector function on blocks of two vectors and the
# scalar function on the numbers left at its end.

_GRAIN = 32768


def _memory_order(x):
    """x's numbers in memory order (a view) and how to put results back in x's shape; None where x
    is not dense (its numbers do not fill one block of memory), where PyTorch walks it otherwise."""
    if x.flags.c_contiguous:
        return x.reshape(-1), lambda flat: flat.reshape(x.shape)
    if x.ndim < 2 or 0 in x.strides:
        return None
    order = np.argsort([-abs(s) for s in x.strides], kind="stable")
    perm = x.transpose(order)
    if not perm.flags.c_contiguous:
        return None
    inverse = np.argsort(order)
    return perm.reshape(-1), lambda flat: flat.reshape(perm.shape).transpose(inverse)


def _vector_mask(n, lanes, threads):
    """Which of n numbers (memory order) cpu_kernel_vec computes with the vector function."""
    block = 2 * lanes
    if n <= _GRAIN or threads <= 1:
        slices = [(0, n)]
    else:
        share = -(-n // min(threads, -(-n // _GRAIN)))
        slices = [(b, min(b + share, n)) for b in range(0, n, share)]
    mask = np.zeros(n, bool)
    for begin, end in slices:
        mask[begin:begin + (end - begin) // block * block] = True
    return mask


def by_loop(mask, vector_fn, scalar_fn, *arrays):
    """vector_fn where mask (the vector loop's numbers), scalar_fn elsewhere, each computed only on the
    numbers it serves (arrays: of mask's shape, broadcast views allowed)."""
    if mask.all():
        return vector_fn(*arrays)
    if not mask.any():
        return scalar_fn(*arrays)
    out = np.empty(mask.shape, _F32)
    out[mask] = vector_fn(*(a[mask] for a in arrays))
    rest = ~mask
    out[rest] = scalar_fn(*(a[rest] for a in arrays))
    return out


def elementwise(x, vector_fn, scalar_fn, threads=None):
    """y = f(x) for a float32 array as cpu_kernel_vec computes it, or None where not reproduced."""
    if x.dtype != _F32:
        return None
    mask = loop_mask(x, threads=threads)
    return None if mask is None else by_loop(mask, vector_fn, scalar_fn, x)


@_kernel
def sigmoid(x):
    """sigmoid of a dense float32 array: vectors 1 / (1 + exp(0 - x)) with SLEEF's expf, leftovers
    1 / (1 + expf(-x)) with glibc's."""
    return elementwise(x, lambda v: _F32(1) / (_F32(1) + sleef_expf(_F32(0) - v)),
                       lambda v: _F32(1) / (_F32(1) + glibc_expf(-v)))


@_kernel
def silu(x):
    """silu = x / (1 + exp(-x)) of a dense float32 array (vectors: SLEEF's expf; leftovers: glibc's)."""
    return elementwise(x, lambda v: v / (_F32(1) + sleef_expf(-v)), lambda v: v / (_F32(1) + glibc_expf(-v)))


def _silu_grad(dy, x, exp):
    s = _F32(1) / (_F32(1) + exp(-x))
    return dy * s * _fma(x, _F32(1) - s, _F32(1))          # (1 + x (1 - s): fused by the compiler)


@_kernel
def silu_backward(grad, x, threads=None):
    """silu's gradient dy * s * (1 + x (1 - s)), s = sigmoid(x), for float32 arrays."""
    if x.dtype != _F32 or grad.dtype != _F32:
        return None
    mask = loop_mask(x, grad, threads)
    if mask is None:
        return None
    return by_loop(mask, lambda g, v: _silu_grad(g, v, sleef_expf), lambda g, v: _silu_grad(g, v, glibc_expf),
                   np.broadcast_to(grad, x.shape), x)


# --- the C library's erff (glibc <= 2.39: Sun's fdlibm algorithm, in float) -------------------------------

def _h32(*words):
    return [_from_bits(w) for w in words]


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


# --- ATen's own gelu kernel (GeluKernel: what runs where oneDNN does not) ---------------------------------

def _aten_vec_erf(v):
    """Vectorized<float>::erf: Abramowitz and Stegun 7.1.26, 1 - (a1 t + ... + a5 t^5) exp(-x^2),
    t = 1 / (1 + p |x|), by fma steps, with SLEEF's expf."""
    sign = _bits(v) & _I32(-2 ** 31)
    t = _F32(1) / _fma(_F32(0.3275911), np.abs(v), _F32(1))
    r = _fma(_F32(1.061405429), t, _F32(-1.453152027))
    for c in (1.421413741, -0.284496736, 0.254829592):
        r = _fma(r, t, _F32(c))
    e = sleef_expf(-(v * v))
    return _from_bits(_bits(_fma(-e * t, r, _F32(1))) ^ sign)


_SQRT1_2F = _F32(0.7071067811865476)
_GELU_BETAF = _F32(1.1283791670955126 * 0.7071067811865476 * 0.5)       # M_2_SQRTPI * M_SQRT1_2 * 0.5


def _all_scalar(x):
    """Whether TensorIterator runs its scalar loop on every number of a non-dense x (its innermost
    dimension is not contiguous)."""
    dims = [abs(s) for n, s in zip(x.shape, x.strides) if n > 1]
    return bool(dims) and min(dims) != x.itemsize


@_kernel
def gelu_aten(x, threads=None):
    """gelu (exact form) of a float32 array as ATen's GeluKernel: x/2 (1 + erf(x/sqrt2)), vectors with
    Vectorized erf, the leftovers with glibc's erff."""
    def vector(v):
        return v * _F32(0.5) * (_F32(1) + _aten_vec_erf(v * _SQRT1_2F))

    def scalar(v):
        return v * _F32(0.5) * (_F32(1) + glibc_erff(v * _SQRT1_2F))
    if _lanes() is None or x.dtype != _F32:
        return None
    if _memory_order(x) is None:
        return scalar(x) if _all_scalar(x) else None
    return elementwise(x, vector, scalar, threads)


@_kernel
def gelu_backward_aten(grad, x, threads=None):
    """gelu's gradient dy (cdf + x pdf) as ATen's GeluBackwardKernel; the vector loop fuses
    cdf + x pdf into one fma, the scalar loop does not (measured)."""
    def part(v, erf, exp):
        cdf = _F32(0.5) * (_F32(1) + erf(v * _SQRT1_2F))
        return cdf, _GELU_BETAF * exp(v * v * _F32(-0.5))
    if x.dtype != _F32 or grad.dtype != _F32:
        return None
    mask = loop_mask(x, grad, threads)
    if mask is None:
        return None
    def vector(g, v):
        cdf, pdf = part(v, _aten_vec_erf, sleef_expf)
        return g * _fma(v, pdf, cdf)

    def scalar(g, v):
        cdf, pdf = part(v, glibc_erff, glibc_expf)
        return g * (cdf + v * pdf)
    return by_loop(mask, vector, scalar, np.broadcast_to(grad, x.shape), x)


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


def _sleef_expk2f(dx, dy):
    """SLEEF's expk2f: exp of a double-float, as a double-float."""
    q = np.rint((dx + dy) * _R_LN2F).astype(_I32)
    qf = q.astype(_F32)
    sx, sy = _df_add2_f2_f(dx, dy, qf * -_L2UF)
    sx, sy = _df_add2_f2_f(sx, sy, qf * -_L2LF)
    u = np.full(sx.shape, _F32(0.1980960224e-3), _F32)
    for c in (0.1394256484e-2, 0.8333456703e-2, 0.4166637361e-1):
        u = _fma(u, sx, _F32(c))
    tx, ty = _df_add2_f2_f(*_df_mul_f2_f(sx, sy, u), _F32(0.166666659414234244790680580464))
    tx, ty = _df_add2_f2_f(*_df_mul_f2_f2(sx, sy, tx, ty), _F32(0.5))
    qx = sx * sx                                                       # dfsqu
    qy = _fma(sx + sx, sy, _fma(sx, sx, -qx, exact_sum=True))
    tx, ty = _df_add2_f2_f2(sx, sy, *_df_mul_f2_f2(qx, qy, tx, ty))
    s = _F32(1) + tx                                                   # dfadd(1, t)
    tx, ty = s, ((_F32(1) - s) + tx) + ty
    half = q >> _I32(1)
    scale = (_pow2i(half), _pow2i(q - half))
    tx, ty = tx * scale[0] * scale[1], ty * scale[0] * scale[1]
    low = dx < _F32(-104)
    return np.where(low, _F32(0), tx), np.where(low, _F32(0), ty)


@_kernel
def sleef_tanhf(x):
    """SLEEF's tanhf (1.0 ulp): (e - 1/e) / (e + 1/e) with e = exp(|x|) in double-float."""
    x = _f(x)
    y = np.abs(x)
    dx, dy = _sleef_expk2f(y, np.zeros_like(y))
    ex = _F32(1) / dx                                                  # dfrec
    ey = ex * _fma(-dy, ex, _fma(-dx, ex, _F32(1), exact_sum=True))
    nx = dx - ex                                                       # dfadd(d, -e)
    ny = (((dx - nx) - ex) + dy) - ey
    mx = dx + ex                                                       # dfadd(d, e)
    my = (((dx - mx) + ex) + dy) + ey
    t = _F32(1) / mx                                                   # dfdiv(n, m)
    s = nx * t
    u = _fma(t, nx, -s, exact_sum=True)
    v = _fma(-my, t, _fma(-mx, t, _F32(1), exact_sum=True))
    r = s + _fma(s, v, _fma(ny, t, u))
    r = np.where((y > _F32(8.664339742)) | np.isnan(r), _F32(1), r)
    r = np.copysign(r, x)
    return np.where(np.isnan(x), x, r).astype(_F32, copy=False)


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


def loop_mask(x, grad=None, threads=None):
    """Which numbers of x (in x's shape) PyTorch's elementwise loop computes with the vector function
    (x alone, or with a gradient of x's layout or expanded from one number); None where gradlab does
    not reproduce the walk."""
    lanes = _lanes()
    if lanes is None or (grad is not None and grad.shape != x.shape):
        return None
    walk = _memory_order(x)
    if walk is None:                    # x's innermost numbers are not adjacent: the scalar loop throughout
        return np.zeros(x.shape, bool) if _all_scalar(x) else None
    if grad is not None and not (grad.strides == x.strides or (grad.size and not any(grad.strides))):
        # another layout: TensorIterator walks the gradient's order, where x's numbers are not
        # adjacent: the scalar loop throughout (partly expanded gradients are not reproduced)
        return np.zeros(x.shape, bool) if _memory_order(grad) is not None and not _adjacent_in(x, grad) else None
    flat, back = walk
    return back(_vector_mask(flat.size, lanes, _parallel.get_num_threads() if threads is None else threads))


def _adjacent_in(x, other):
    """Whether x's numbers are adjacent along other's fastest dimension (of more than one number)."""
    dims = [(abs(s), d) for d, (n, s) in enumerate(zip(other.shape, other.strides)) if n > 1]
    return bool(dims) and abs(x.strides[min(dims)[1]]) == x.itemsize


@_kernel
def tanh_in_loop(v, mask):
    """tanh as the vector loop (SLEEF's tanhf) and the scalar loop (glibc's tanhf) compute it."""
    return by_loop(mask, sleef_tanhf, glibc_tanhf, v)


_GELU_TANH_BETAF = _F32(1.4142135623730951 * 1.1283791670955126 * 0.5)     # M_SQRT2 * M_2_SQRTPI * 0.5


@_kernel
def gelu_tanh(x):
    """gelu's tanh approximation x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) as ATen's GeluKernel
    (the compiler fuses x + 0.044715 x^3)."""
    if x.dtype != _F32:
        return None
    mask = loop_mask(x)
    if mask is None:
        return None
    inner = _GELU_TANH_BETAF * _fma(_F32(0.044715), x * x * x, x)
    return _F32(0.5) * x * (_F32(1) + tanh_in_loop(inner, mask))


# --- log1p: SLEEF's log1pf (vectors) and glibc's log1pf (fdlibm, scalar loop) ----------------------------

@_kernel
def sleef_log1pf(d):
    """SLEEF's log1pf (1.0 ulp): 1 + d = m 2^e with m in [0.75, 1.5) formed without rounding 1 + d,
    then log(m) = 2 atanh(m / (2 + m)) in double-float, plus e ln2; log(d) beyond 1e38."""
    d = _f(d)
    dp1 = d + _F32(1)
    e = (((_bits(dp1 * _F32(1.0 / 0.75)) >> _I32(23)) & _I32(0xFF)) - _I32(127))
    t = _pow2i(-e)                                                    # 2^-e
    m = _fma(d, t, t - _F32(1), exact_sum=True)                      # (t a power of two: exact)
    ef = e.astype(_F32)
    ln2_hi, ln2_lo = _F32(0.69314718246459960938), _F32(-1.904654323148236017e-09)
    sx = ln2_hi * ef
    sy = _fma(ln2_lo, ef, _fma(ln2_hi, ef, -sx, exact_sum=True))
    bx = _F32(2) + m                                                  # dfadd(2, m)
    by = (_F32(2) - bx) + m
    t1 = _F32(1) / bx                                                 # dfdiv((m, 0), (bx, by))
    xx = m * t1
    u = _fma(t1, m, -xx, exact_sum=True)
    v = _fma(-by, t1, _fma(-bx, t1, _F32(1), exact_sum=True))
    xy = _fma(xx, v, u)
    x2 = xx * xx
    p = _fma(_fma(_F32(0.3027294874), x2, _F32(0.3996108174)), x2, _F32(0.6666694880))
    s = sx + xx * _F32(2)
    sy = (((sx - s) + xx * _F32(2)) + sy) + xy * _F32(2)
    w = x2 * xx * p
    r = s + w
    sy = ((s - r) + w) + sy
    r = r + sy
    beyond = d > _F32(float.fromhex("0x1.2ced32p+126"))
    if beyond.any():
        r = np.where(beyond, sleef_logf(d), r)
    r = np.where(d < _F32(-1), _F32(np.nan), r)
    r = np.where(d == _F32(-1), _F32(-np.inf), r)
    r = np.where((d == 0) & np.signbit(d), _F32(-0.0), r)
    r = np.where(d == np.inf, d, r)
    return np.where(np.isnan(d), d, r).astype(_F32, copy=False)


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


@_kernel
def softplus(x, beta, threshold):
    """softplus = log1p(exp(beta x)) / beta (x itself where beta x > threshold), as ATen's kernel."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    z = x * _F32(beta)
    out = by_loop(mask, lambda v: sleef_log1pf(sleef_expf(v)) / _F32(beta),
                  lambda v: glibc_log1pf(glibc_expf(v)) / _F32(beta), z)
    return np.where(z > _F32(threshold), x, out)


@_kernel
def softplus_exp(x, beta, grad=None):
    """exp(beta x) as softplus's gradient kernel computes it (vector: SLEEF, scalar: glibc)."""
    mask = loop_mask(x, grad) if x.dtype == _F32 else None
    if mask is None:
        return None
    return by_loop(mask, sleef_expf, glibc_expf, x * _F32(beta))


@_kernel
def mish(x):
    """mish = x tanh(log1p(exp(x))), as ATen's kernel."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    return by_loop(mask, lambda v: v * sleef_tanhf(sleef_log1pf(sleef_expf(v))),
                   lambda v: v * glibc_tanhf(glibc_log1pf(glibc_expf(v))), x)


@_kernel
def mish_backward(grad, x):
    """mish's gradient dy (t + x sigmoid(x) (1 - t^2)), t = tanh(softplus(x)), both steps fused."""
    mask = loop_mask(x, grad) if x.dtype == _F32 and grad.dtype == _F32 else None
    if mask is None:
        return None

    def part(exp, log1p, tanh):
        def grad_of(g, v):
            sigmoid = _F32(1) / (_F32(1) + exp(-v))
            t = tanh(log1p(exp(v)))
            return g * _fma(v * sigmoid, _fma(-t, t, _F32(1)), t)
        return grad_of
    return by_loop(mask, part(sleef_expf, sleef_log1pf, sleef_tanhf), part(glibc_expf, glibc_log1pf, glibc_tanhf),
                   np.broadcast_to(grad, x.shape), x)


@_kernel
def sleef_expm1f(a):
    """SLEEF's expm1f (1.0 ulp): exp in double-float (expk2f) minus 1, rounded once."""
    a = _f(a)
    dx, dy = _sleef_expk2f(a, np.zeros_like(a))
    s = dx + _F32(-1)                                                  # dfadd2(d, -1)
    v = s - dx
    x = s + (((dx - (s - v)) + (_F32(-1) - v)) + dy)
    x = np.where(a > _F32(88.72283172607421875), _F32(np.inf), x)
    x = np.where(a < _F32(-16.635532333438687426013570), _F32(-1), x)
    x = np.where((a == 0) & np.signbit(a), _F32(-0.0), x)
    return np.where(np.isnan(a), a, x).astype(_F32, copy=False)


@_kernel
def elu(x, alpha):
    """elu = x where x > 0, else expm1(x) * alpha (vector: SLEEF's expm1f, scalar: glibc's)."""
    mask = loop_mask(x) if x.dtype == _F32 else None
    if mask is None:
        return None
    return np.where(x <= 0, by_loop(mask, sleef_expm1f, glibc_expm1f, x) * _F32(alpha), x)


@_kernel
def log_sigmoid(x):
    """logsigmoid = min(x, 0) - log1p(exp(-|x|)): ATen's kernel runs whole and partial vectors
    (SLEEF's expf and log1pf) on every number."""
    if _lanes() is None or x.dtype != _F32:
        return None
    return np.minimum(x, _F32(0)) - sleef_log1pf(sleef_expf(-np.abs(x), nonpositive=True))


@_kernel
def log_sigmoid_backward(grad, x):
    """(max_deriv - sign * b / (1 + b)) * grad with the forward's buffer b = exp(-|x|) (SLEEF's)."""
    if _lanes() is None or x.dtype != _F32 or getattr(grad, "dtype", None) != _F32:
        return None
    b = sleef_expf(-np.abs(x), nonpositive=True)
    negative = x < 0
    return (np.where(negative, _F32(1), _F32(0)) - np.where(negative, _F32(1), _F32(-1)) * (b / (_F32(1) + b))) * grad


# --- torch.log1p / torch.expm1: PyTorch's vml wrappers (no MKL for these two) run vec::map, whole and
# partial vectors, so SLEEF's function computes every number, whatever the layout.

def log1p(x):
    return sleef_log1pf(x) if _lanes() is not None and x.dtype == _F32 else None


def expm1(x):
    return sleef_expm1f(x) if _lanes() is not None and x.dtype == _F32 else None
