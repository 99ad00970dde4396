"""The ground floor of gradlab's copies of PyTorch's float32 kernels: which kernels PyTorch runs on
this CPU (ATen's capability, oneDNN's ISA), and float32 arithmetic one rounding at a time in numpy.

numpy has no fused multiply-add (fma: a * b + c rounded once, the vfmadd instruction). For float32
operands the product is exact in float64, so float64(a) * b + c has one rounding, and rounding that to
float32 is a second one; the two differ from one rounding only where the float64 sum lies exactly
half-way between two float32 numbers. Inside a kernel (`_kernel`) the sums of small arrays are kept and
checked together when the kernel ends; if one is such a half-way case the kernel runs again with
every step checked (`fma32`). numpy's cost is per call, so constants are 0-d arrays (`_k32`, `_k64`),
numpy's cheapest operands.
"""
import functools
import os
import platform
import threading

import numpy as np

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
    return _capability(_capability_env())


def _capability_env():
    """os.environ.get("ATEN_CPU_CAPABILITY"), read on every call (a test or a user may set it) but
    without os.environ.get's KeyError when it is unset, which costs each softmax ~1 us twice: the
    environment's own mapping, under os.environ's encoded key, where os.environ has one."""
    environ = os.environ
    data = getattr(environ, "_data", None)
    if data is None or _ENCODED_KEY is None:
        return environ.get(_KEY)
    value = data.get(_ENCODED_KEY)
    return None if value is None else environ.decodevalue(value)


_KEY = "ATEN_CPU_CAPABILITY"
_ENCODED_KEY = os.environ.encodekey(_KEY) if hasattr(os.environ, "encodekey") else None


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
    return _LANES.get(_capability(_capability_env()))


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
    if np.count_nonzero(half_way):              # (cheaper than .any() on small arrays)
        # (the half-way numbers are few: their positions found once, the operands picked there, then
        # converted)
        at = np.unravel_index(np.flatnonzero(half_way), s.shape)     # (np.nonzero is slower in 2-d)
        a, b, c = ((v if np.shape(v) == s.shape else np.broadcast_to(v, s.shape))[at].astype(_F64)
                   for v in (a, b, c))
        p, s0 = a * b, s[at]
        bb = s0 - p
        err = (p - (s0 - bb)) + (c - bb)      # the exact rounding error of the float64 sum
        nudged = np.where(err > 0, np.nextafter(s0, np.inf), np.where(err < 0, np.nextafter(s0, -np.inf), s0))
        out[at] = nudged.astype(_F32)
    return out


def _rounded_sum(p, c):
    """float32 of p + c rounded once, where p is an exact float64 product of two float32 numbers and c a
    float32 array or number: the fma, for callers that keep the product. Where the float64 sum is
    half-way between two float32 numbers (common where it is exact: a gradient like -1/8 makes short
    sums) the sum's rounding error, computed over the whole arrays (cheaper than picking the few
    numbers on small arrays), says which way to nudge."""
    s = p + c
    out = s.astype(_F32)
    half_way = _half_way(s)
    if np.count_nonzero(half_way):
        bb = s - p
        err = (p - (s - bb)) + (c - bb)
        half_way &= err != 0
        if np.count_nonzero(half_way):
            at = np.unravel_index(np.flatnonzero(half_way), s.shape)
            out[at] = np.where(err[at] > 0, np.nextafter(s[at], np.inf), np.nextafter(s[at], -np.inf)).astype(_F32)
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
    p = np.multiply(a, b, dtype=_F64)
    s = p + c
    if exact_sum:
        return s.astype(_F32)
    sums = _STATE.sums
    if sums is None or s.size > _BATCH_MAX:
        return _rounded_once(s, a, b, c)
    sums.append((s, p, None, c))            # (None: the product itself is kept)
    return s.astype(_F32)


_LOW29 = np.array(0x1FFFFFFF, np.uint64)
_HALF29 = np.array(0x10000000, np.uint64)


def _half_way(s):
    """Where the float64 numbers s lie exactly half-way between two float32 numbers."""
    return (s.view(np.uint64) & _LOW29) == _HALF29


def _double_rounded(sums):
    """Whether any kept sum (s = a * b + c in float64, the product exact; b None: a is the product)
    lies half-way between two float32 numbers without being exactly a * b + c (an exact tie rounds
    correctly)."""
    bits = np.concatenate([entry[0] for entry in sums], axis=None).view(np.uint64)
    bits &= _LOW29
    at = np.flatnonzero(bits == _HALF29)
    if not at.size:
        return False
    ends = np.cumsum([entry[0].size for entry in sums])
    owners = np.searchsorted(ends, at, side="right")
    ks = [int(owners[0])] if owners[0] == owners[-1] else np.unique(owners).tolist()
    for k in ks:                                           # only the sums with a half-way number
        s, a, b, c = sums[k]
        local = at - (ends[k] - s.size) if len(ks) == 1 else at[owners == k] - (ends[k] - s.size)
        p = a if b is None else np.multiply(a, b, dtype=_F64)
        s0 = s.reshape(-1)[local]
        p0 = (p if np.shape(p) == s.shape else np.broadcast_to(p, s.shape)).reshape(-1)[local]
        c = np.asarray(c, _F64)
        c0 = (c if c.shape == s.shape else np.broadcast_to(c, s.shape)).reshape(-1)[local]
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


def _quiet(function):
    """A public kernel without fused multiply-adds to check: numpy's warnings off (inf and nan are
    part of the arithmetic), nothing else. (errstate as a decorator: about half the cost of a `with`
    block, which builds a new errstate object on every call: 6,200 against 11,200 instructions.)"""
    return np.errstate(all="ignore")(function)


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


def _h32(*words):
    return [_from_bits(w) for w in words]
