"""PyTorch's CPU generator (MT19937) on numpy arrays: the engine and its samplers.

Reproduces the streams of ``torch.manual_seed`` / ``torch.rand`` / ``torch.randn``
/ ``torch.randint`` (and ``uniform_`` / ``normal_``) of PyTorch's default CPU
generator.  Everything here works on plain numpy arrays; the Tensor layer wraps them.

The rules (see ``torch-parity.md`` section 4.9, each checked against torch):

* The engine is the standard 32-bit MT19937, seeded with ``init_genrand`` from
  the low 32 bits of the seed (the seed itself is kept modulo 2**64).
  Raw words are produced in bulk by numpy's public ``np.random.MT19937``
  bit generator (``random_raw``), whose state we load ourselves.
* A 64-bit draw is two words, the first one being the high half.
* float32 uniform: one word ``w`` -> ``(w & 0xFFFFFF) / 2**24``.
  float64 uniform: one 64-bit draw ``r`` -> ``(r & (2**53 - 1)) / 2**53``.
  ``uniform_(lo, hi)`` is ``fma(u, hi - lo, lo)`` in the dtype's arithmetic (for
  float32: bounds rounded to float32, range a float32 subtraction, one float32
  fused multiply-add), emulated here with exact error-free transformations.
* ``randint(low, high)``: ``low + w % (high - low)`` with one 32-bit word per
  element when the range is below 2**28, one 64-bit draw per element otherwise.
* normal, fewer than 16 elements ("scalar path"): Box-Muller in double from two
  float64 uniforms ``u1, u2``: ``r = sqrt(-2 log1p(-u2))``, ``theta = 2 pi u1``;
  ``r cos(theta)`` is used, ``r sin(theta)`` is kept in a one-slot cache that
  persists across calls (``manual_seed`` clears it).  Each value is
  ``fma(z, std, mean)`` in double, then cast to the dtype.
* normal, 16 elements or more ("block path"): fill with uniforms of the dtype,
  then transform blocks of 16 (pairs ``j``, ``j + 8``: ``u1 = 1 - d[j]``,
  ``u2 = d[j + 8]``) in the dtype's arithmetic; a ragged tail gets 16 fresh
  uniforms in the last 16 slots.  ``mean``/``std`` are applied as
  ``fma(z, std, mean)`` in the dtype.  float64 is bit-exact (numpy's sin/cos, the C
  library's log); float32 is too: its log and sin/cos are avx_mathfun's Cephes
  polynomials, as torch's AVX2 kernel computes them (see avx_mathfun.py).

State bytes (``get_state`` / ``set_state``): the same 5056-byte layout as
``torch.get_rng_state()`` (little-endian), so states can even be exchanged with
torch::

    offset  size   field
    0       8      uint64  initial seed
    8       4      int32   left  (words left before the next twist, 1..624)
    12      4      int32   seeded (always 1)
    16      8      uint64  next  (index of the next word, 0..624)
    24      4992   uint64[624] MT state words (each < 2**32)
    5016    8      float64 normal_x   (unused, 0)
    5024    8      float64 normal_y   (the cached scalar-path normal)
    5032    8      float64 normal_rho (unused, 0)
    5040    4      int32   normal_is_valid (1 if the cache holds a value)
    5044    4      padding
    5048    4      float32 next float normal sample (unused, kept as is)
    5052    1      bool    its validity flag (unused, kept as is)
    5053    3      padding
"""

from __future__ import annotations

import math
import os

import numpy as np

from ..ops.vectorized import cpu_capability
from .avx_mathfun import log256_ps, sincos256_ps
from .exact import _fma32, _fma64, _fma_scalar, _log64

DEFAULT_SEED = 67280421310721
STATE_SIZE = 5056
_N = 624
_MASK32 = 0xFFFFFFFF
_MASK53 = (1 << 53) - 1
_TWO_PI = 2.0 * math.pi

_STATE_DTYPE = np.dtype(
    [
        ("initial_seed", "<u8"),
        ("left", "<i4"),
        ("seeded", "<i4"),
        ("next", "<u8"),
        ("state", "<u8", (_N,)),
        ("normal_x", "<f8"),
        ("normal_y", "<f8"),
        ("normal_rho", "<f8"),
        ("normal_is_valid", "<i4"),
        ("_pad0", "V4"),
        ("next_float_normal", "<f4"),
        ("next_float_normal_valid", "u1"),
        ("_pad1", "V3"),
    ]
)
assert _STATE_DTYPE.itemsize == STATE_SIZE


def _init_genrand(s: int) -> np.ndarray:
    """Standard MT19937 ``init_genrand`` key for a 32-bit seed."""
    mt = [0] * _N
    x = s & _MASK32
    mt[0] = x
    for i in range(1, _N):
        x = (1812433253 * (x ^ (x >> 30)) + i) & _MASK32
        mt[i] = x
    return np.array(mt, dtype=np.uint32)


def _shape_tuple(shape) -> tuple:
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    return tuple(int(s) for s in shape)


def _numel(shape: tuple) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _box_muller_blocks(d: np.ndarray, mean, std) -> np.ndarray:
    """Transform uniforms ``d`` (size a multiple of 16) block-wise, in d's dtype: in each block of 16, the
    pairs (j, j + 8) give r = sqrt(-2 log(1 - d[j])), theta = 2 pi d[j + 8], then r cos theta, r sin theta."""
    if d.dtype.type is np.float32:
        return _box_muller_float32(d, mean, std)
    b = d.reshape(-1, 16)
    r = _log64(1.0 - b[:, :8])
    r *= -2.0
    np.sqrt(r, out=r)
    theta = b[:, 8:] * _TWO_PI
    out = np.empty_like(b)
    np.multiply(np.cos(theta), r, out=out[:, :8])
    np.multiply(np.sin(theta), r, out=out[:, 8:])
    out = out.reshape(-1)
    if std != 1.0 or mean != 0.0:  # torch applies them with a fused multiply-add
        out = _fma64(out, std, mean)
    return out


_ROWS = 8192


def _box_muller_float32(d, mean, std):
    """float32: PyTorch's AVX2 kernel on x86 (also on AVX-512: avx_mathfun.py's log and sin/cos, fma for std and
    mean), or, on a CPU without AVX2 (ATEN_CPU_CAPABILITY=default), its plain C++ loop with the C library's
    float functions (here correctly rounded; glibc's differ from them for about 1% of the numbers)."""
    f32 = np.float32
    b = d.reshape(-1, 16)
    u1 = f32(1) - b[:, :8]
    u2 = b[:, 8:]
    out = np.empty_like(b)
    if cpu_capability() == "DEFAULT":
        r = np.sqrt(f32(-2) * np.log(u1.astype(np.float64)).astype(f32))
        theta = (_TWO_PI * u2.astype(np.float64)).astype(f32).astype(np.float64)   # (2.0f * pi<double> * u2)
        out[:, :8] = r * np.cos(theta).astype(f32) * f32(std) + f32(mean)
        out[:, 8:] = r * np.sin(theta).astype(f32) * f32(std) + f32(mean)
        return out.reshape(-1)
    for i in range(0, len(b), _ROWS):      # (in pieces that stay in the CPU's cache: about 2x faster)
        rows = slice(i, i + _ROWS)
        r = np.sqrt(f32(-2) * log256_ps(u1[rows]))
        sin, cos = sincos256_ps(f32(_TWO_PI) * u2[rows])
        np.multiply(r, cos, out=out[rows, :8])
        np.multiply(r, sin, out=out[rows, 8:])
    out = out.reshape(-1)
    if std != 1.0 or mean != 0.0:
        out = _fma32(out, std, mean)
    return out


class Generator:
    """A torch-compatible CPU generator (MT19937) producing numpy arrays."""

    def __init__(self, seed: int = DEFAULT_SEED):
        self._normal_cache = None  # float (double) or None
        self._float_extra = np.zeros((), dtype=[("v", "<f4"), ("ok", "u1")])
        self.manual_seed(seed)

    def __getattr__(self, name):
        # numpy's bit generator (self._bg) is made at the first draw or state read, not with the generator:
        # importing numpy.random costs ~10 ms, and `import gradlab` makes the default generator
        if name == "_bg" and "_seed_state" in self.__dict__:
            self._bg = np.random.MT19937(0)
            self._bg.state = self.__dict__.pop("_seed_state")
            return self._bg
        return object.__getattribute__(self, name)          # (the usual AttributeError)

    # ------------------------------------------------------------ seeding
    def manual_seed(self, seed) -> "Generator":
        seed = int(seed) % (1 << 64)
        self._initial_seed = seed
        state = {
            "bit_generator": "MT19937",
            "state": {"key": _init_genrand(seed & _MASK32), "pos": _N},
        }
        if "_bg" in self.__dict__:
            self._bg.state = state
        else:
            self._seed_state = state
        self._normal_cache = None
        self._fresh = True  # torch reports next=0 (not 624) right after seeding
        self._float_extra["v"] = 0.0
        self._float_extra["ok"] = 0
        return self

    def initial_seed(self) -> int:
        return self._initial_seed

    def seed(self) -> int:
        # 64 bits from the OS's entropy, as secrets.randbits(64) draws them (secrets itself costs 6 ms at import)
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    # ------------------------------------------------------------ state
    def throwaway(self) -> "Generator":
        """A plain generator in this one's state, to draw from without advancing this one (a meta tensor's
        random numbers: PyTorch's meta kernels draw none)."""
        copy = Generator.__new__(Generator)
        copy.__dict__.update(self.__dict__)
        copy._float_extra = self._float_extra.copy()
        if "_bg" in self.__dict__:
            copy._bg = np.random.MT19937(0)
            copy._bg.state = self._bg.state
        return copy

    def get_state(self) -> np.ndarray:
        st = self._bg.state["state"]
        rec = np.zeros((), dtype=_STATE_DTYPE)
        rec["initial_seed"] = self._initial_seed
        pos = int(st["pos"])
        rec["left"] = _N - pos + 1
        rec["seeded"] = 1
        rec["next"] = 0 if (self._fresh and pos == _N) else pos
        rec["state"] = np.asarray(st["key"], dtype=np.uint64)
        if self._normal_cache is not None:
            rec["normal_y"] = self._normal_cache
            rec["normal_is_valid"] = 1
        rec["next_float_normal"] = self._float_extra["v"]
        rec["next_float_normal_valid"] = self._float_extra["ok"]
        return np.frombuffer(rec.tobytes(), dtype=np.uint8).copy()

    def set_state(self, state) -> "Generator":
        buf = np.ascontiguousarray(np.asarray(state), dtype=np.uint8)
        if buf.ndim != 1 or buf.size != STATE_SIZE:
            raise RuntimeError(
                f"Expected a CPUGeneratorImplState of size {STATE_SIZE} but found the "
                f"input RNG state size to be {buf.size}"
            )
        rec = np.frombuffer(buf.tobytes(), dtype=_STATE_DTYPE)[0]
        left = int(rec["left"])
        pos = _N + 1 - left
        if not 0 <= pos <= _N:
            raise RuntimeError("Invalid mt19937 state")
        self._initial_seed = int(rec["initial_seed"])
        self._bg.state = {
            "bit_generator": "MT19937",
            "state": {"key": (rec["state"] & _MASK32).astype(np.uint32), "pos": pos},
        }
        self._normal_cache = float(rec["normal_y"]) if int(rec["normal_is_valid"]) else None
        self._fresh = pos == _N and int(rec["next"]) == 0
        self._float_extra["v"] = rec["next_float_normal"]
        self._float_extra["ok"] = rec["next_float_normal_valid"]
        return self

    # ------------------------------------------------------------ raw draws
    def _raw(self, n: int) -> np.ndarray:
        self._fresh = False
        return self._bg.random_raw(n)

    def _words(self, n: int) -> np.ndarray:
        """n raw 32-bit words (as uint64)."""
        return self._raw(n)

    def _u64(self, n: int) -> np.ndarray:
        w = self._raw(2 * n)
        return (w[0::2] << np.uint64(32)) | w[1::2]

    def _unit_f32(self, n: int) -> np.ndarray:
        w = self._raw(n)
        w &= np.uint64(0xFFFFFF)
        out = w.astype(np.float32)
        out *= np.float32(2.0**-24)
        return out

    def _unit_f64(self, n: int) -> np.ndarray:
        w = self._raw(2 * n)
        hi = w[0::2] & np.uint64(0x1FFFFF)
        r = (hi << np.uint64(32)) | w[1::2]
        out = r.astype(np.float64)
        out *= 2.0**-53
        return out

    def _unit(self, n: int, dtype) -> np.ndarray:
        if dtype == np.float32:
            return self._unit_f32(n)
        return self._unit_f64(n)

    # ------------------------------------------------------------ samplers
    def uniform(self, shape, dtype=np.float32, low=0.0, high=1.0) -> np.ndarray:
        """``torch.rand`` / ``Tensor.uniform_(low, high)`` for float32/float64, float16 (a float32 draw
        rounded; one that rounds up to ``high`` becomes ``low``) and complex (real and imaginary
        parts drawn in turn, as PyTorch draws the tensor viewed as real numbers)."""
        shape = _shape_tuple(shape)
        dtype = np.dtype(dtype)
        if dtype.kind == "c":
            real = np.float32 if dtype == np.complex64 else np.float64
            return self.uniform(shape + (2,), real, low, high).view(dtype).reshape(shape)
        if dtype == np.float16:
            out = self.uniform(shape, np.float32, low, high).astype(np.float16)
            out[out == np.float16(high)] = np.float16(low)
            return out
        n = _numel(shape)
        if dtype == np.float32:
            u = self._unit_f32(n)
            if low == 0.0 and high == 1.0:
                return u.reshape(shape)
            lo = np.float32(low)
            rng = np.float32(high) - lo  # float32 subtraction
            return _fma32(u, rng, lo).reshape(shape)
        if dtype == np.float64:
            u = self._unit_f64(n)
            if low == 0.0 and high == 1.0:
                return u.reshape(shape)
            lo = float(low)
            return _fma64(u, float(high) - lo, lo).reshape(shape)
        raise TypeError(f"uniform: unsupported dtype {dtype}")

    def _scalar_normal(self) -> float:
        """One standard normal from the scalar (cached Box-Muller) path, in double."""
        c = self._normal_cache
        if c is not None:
            self._normal_cache = None
            return c
        u = self._unit_f64(2)
        u1 = float(u[0])
        u2 = float(u[1])
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = _TWO_PI * u1
        self._normal_cache = r * math.sin(theta)
        return r * math.cos(theta)

    def normal(self, shape, dtype=np.float32, mean=0.0, std=1.0) -> np.ndarray:
        """``torch.randn`` / ``torch.normal(mean, std, size)`` / ``Tensor.normal_``. float16: the float32
        numbers, rounded; complex: the tensor viewed as real numbers, each part with standard
        deviation std / sqrt(2) (PyTorch's normal_ of a complex tensor)."""
        shape = _shape_tuple(shape)
        dtype = np.dtype(dtype)
        if dtype.kind == "c":
            real = np.float32 if dtype == np.complex64 else np.float64
            return self.normal(shape + (2,), real, mean, float(std) / math.sqrt(2)).view(dtype).reshape(shape)
        half = dtype == np.float16
        if half:            # float32 numbers, rounded (PyTorch's half kernel computes in float)
            dtype = np.dtype(np.float32)
        if dtype not in (np.float32, np.float64):
            raise TypeError(f"normal: unsupported dtype {dtype}")
        n = _numel(shape)
        mean = float(mean)
        std = float(std)
        if n < 16:
            out = self.normal_scalar(n, dtype, mean, std).reshape(shape)
            return out.astype(np.float16) if half else out
        full = n - n % 16
        if half:            # it draws the whole blocks' numbers only, then the last block's 16
            d = np.empty(n, np.float32)
            d[:full] = _box_muller_blocks(self._unit_f32(full), mean, std)
            if full < n:
                d[n - 16:] = _box_muller_blocks(self._unit_f32(16), mean, std)
            return d.astype(np.float16).reshape(shape)
        d = self._unit(n, dtype)
        if full == n:
            return _box_muller_blocks(d, mean, std).reshape(shape)
        # the last 16 slots get 16 fresh uniforms, transformed after the whole blocks (each block is
        # independent of the others: one call transforms both)
        blocks = _box_muller_blocks(np.concatenate([d[:full], self._unit(16, dtype)]), mean, std)
        d[:full] = blocks[:full]
        d[n - 16 :] = blocks[full:]
        return d.reshape(shape)

    def normal_scalar(self, n, dtype, mean=0.0, std=1.0) -> np.ndarray:
        """n normals from the scalar (cached Box-Muller) path, each fma(z, std, mean) in double, then
        cast (what PyTorch's normal_ uses below 16 numbers and for a non-contiguous tensor)."""
        mean, std = float(mean), float(std)
        vals = np.array([_fma_scalar(self._scalar_normal(), std, mean) for _ in range(n)], dtype=np.float64)
        if np.dtype(dtype) == np.float16:       # (a Half is made from a float)
            vals = vals.astype(np.float32)
        return vals.astype(dtype)

    def randint(self, low, high=None, shape=(), dtype=np.int64) -> np.ndarray:
        """``torch.randint(low, high, shape)``: ``low + w % (high - low)``."""
        if high is None:
            low, high = 0, low
        low = int(low)
        high = int(high)
        rng = high - low
        if rng <= 0:
            raise RuntimeError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        shape = _shape_tuple(shape)
        n = _numel(shape)
        if rng < (1 << 28):  # torch switches to 64-bit draws from 2**28 on
            w = self._words(n)
            w %= np.uint64(rng)
        else:
            w = self._u64(n)
            w %= np.uint64(rng)
        out = w.astype(np.int64)
        out += low
        return out.astype(dtype).reshape(shape)

    def random_bits(self, shape, dtype) -> np.ndarray:
        """``Tensor.random_()`` without bounds: int64 and float64 take a 64-bit draw, the others one
        word; the value is the draw modulo (the type's max + 1), for floating types modulo
        (2**mantissa_digits + 1), for bool its lowest bit."""
        shape = _shape_tuple(shape)
        dtype = np.dtype(dtype)
        n = _numel(shape)
        w = self._u64(n) if dtype in (np.int64, np.float64) else self._words(n)
        if dtype == np.bool_:
            return (w & np.uint64(1)).astype(np.bool_).reshape(shape)
        if dtype.kind == "f":
            w %= np.uint64((1 << (np.finfo(dtype).nmant + 1)) + 1)
        else:
            w %= np.uint64(int(np.iinfo(dtype).max) + 1)
        return w.astype(dtype).reshape(shape)

    def random_from(self, low, shape, dtype) -> np.ndarray:
        """``Tensor.random_(from, None)``: [from, the type's max] (floating types: 2**digits)."""
        shape = _shape_tuple(shape)
        dtype = np.dtype(dtype)
        top = (1 << (np.finfo(dtype).nmant + 1)) if dtype.kind == "f" else int(np.iinfo(dtype).max)
        rng = top - int(low) + 1
        n = _numel(shape)
        w = self._u64(n) if rng >= (1 << 28) else self._words(n)       # (as randint)
        if rng < (1 << 64):
            w %= np.uint64(rng)
        out = w.astype(np.int64)            # (wraps around for huge ranges; the sum below wraps back)
        out += np.int64(low)
        return out.astype(dtype).reshape(shape)

    def randperm(self, n: int) -> np.ndarray:
        """``torch.randperm(n)`` (int64): below 2**32 / 20 a Fisher-Yates shuffle swapping slot i with
        i + word % (n - i); above, the "inside-out" variant with 64-bit draws."""
        out = np.arange(n, dtype=np.int64)
        if n < _MASK32 // 20:
            if n > 1:
                z = self._words(n - 1)
                z %= np.arange(n, 1, -1, dtype=np.uint64)
                swap = (z.astype(np.int64) + np.arange(n - 1)).tolist()
                a = out.tolist()
                for i, j in enumerate(swap):
                    a[i], a[j] = a[j], a[i]
                out = np.array(a, dtype=np.int64)
            return out
        z = self._u64(n) % np.arange(1, n + 1, dtype=np.uint64)
        a = out.tolist()
        for i, j in enumerate(z.tolist()):
            a[i] = a[j]
            a[j] = i
        return np.array(a, dtype=np.int64)

    def exponential(self, shape, dtype, lambd=1.0) -> np.ndarray:
        """``Tensor.exponential_(lambd)``: ``-1 / lambd * log1p(-u)`` in double from a float64 uniform,
        cast to the dtype."""
        shape = _shape_tuple(shape)
        u = self._unit_f64(_numel(shape))
        with np.errstate(all="ignore"):
            out = (-1.0 / float(lambd)) * _log1p64(-u)
        return _to_dtype(out, dtype).reshape(shape)

    def cauchy(self, n, dtype, median=0.0, sigma=1.0) -> np.ndarray:
        """``Tensor.cauchy_``: ``median + sigma * tan(pi * (u - 0.5))`` in double, u a float64 uniform."""
        m, s = float(median), float(sigma)
        vals = [m + s * math.tan(math.pi * (u - 0.5)) for u in self._unit_f64(n).tolist()]
        return _to_dtype(np.array(vals, dtype=np.float64), dtype)

    def log_normal(self, n, dtype, mean=1.0, std=2.0) -> np.ndarray:
        """``Tensor.log_normal_``: exp of the scalar path's normals (in double, the C library's exp)."""
        vals = [math.exp(z) for z in self.normal_scalar(n, np.float64, mean, std).tolist()]
        return _to_dtype(np.array(vals, dtype=np.float64), dtype)

    def geometric(self, shape, dtype, p) -> np.ndarray:
        """``Tensor.geometric_(p)``: ``ceil(log(u) / log1p(-p))`` from a float64 uniform."""
        shape = _shape_tuple(shape)
        u = self._unit_f64(_numel(shape))
        with np.errstate(all="ignore"):
            out = np.ceil(_log64(u) / math.log1p(-float(p)))
        return out.astype(dtype).reshape(shape)

    def bernoulli_scalar(self, shape, p) -> np.ndarray:
        """``Tensor.bernoulli_(p)`` for a float p: one float64 uniform u per element, u < p."""
        shape = _shape_tuple(shape)
        return (self._unit_f64(_numel(shape)) < float(p)).reshape(shape)

    def uniform_doubles(self, n: int) -> np.ndarray:
        """n float64 uniforms in [0, 1) (what multinomial and bernoulli draw, one per number)."""
        return self._unit_f64(n)

    def uniform_floats(self, n: int) -> np.ndarray:
        """n float32 uniforms in [0, 1) (bernoulli with float probabilities)."""
        return self._unit_f32(n)

    def poisson(self, lam: np.ndarray) -> np.ndarray:
        """``torch.poisson(rates)``: PyTorch's CPU sampler (numpy's legacy one), element by element in
        double: Hoermann's transformed rejection for rates >= 10, multiplication of uniforms below."""
        out = np.zeros(lam.size, dtype=np.float64)
        for i, rate in enumerate(lam.reshape(-1).tolist()):
            out[i] = self._poisson_one(rate)
        return out.reshape(lam.shape)

    def binomial(self, count: np.ndarray, prob: np.ndarray) -> np.ndarray:
        """``torch.binomial(count, prob)``: PyTorch's CPU sampler (Distributions.h sample_binomial), element
        by element in C order: Kachitvichyanukul and Schmeiser's BTRS (transformed rejection) where
        count * min(p, 1 - p) >= 10, else inversion by a sum of geometric draws; p > 0.5 draws the failures.
        Each uniform is one float64 uniform of the generator's stream. The choice of method and 1 - p are
        computed in the tensors' dtype (a float32 product), the samplers in double."""
        t = np.float32 if count.dtype == np.float32 else np.float64
        out = np.zeros(count.size, dtype=np.float64)
        for i, (n, p) in enumerate(zip(count.reshape(-1), prob.reshape(-1))):
            out[i] = self._binomial_one(t(n), t(p))
        return out.reshape(count.shape)

    def _binomial_one(self, count, prob) -> float:
        t = type(count)
        if count <= 0.0 or prob <= 0.0:
            return 0.0
        if prob >= 1.0:
            return float(count)
        if prob <= 0.5:
            big = count * prob >= 10.0
        elif prob > 0.5:
            q = t(1.0 - float(prob))
            big = count * q >= 10.0
            draw = self._btrs(float(count), float(q)) if big else self._binomial_inversion(float(count), float(q))
            return float(count - t(draw))
        else:
            return math.nan
        return self._btrs(float(count), float(prob)) if big else self._binomial_inversion(float(count), float(prob))

    def _binomial_inversion(self, count, prob) -> float:
        geom_sum, num_geom = 0.0, 0.0
        logprob = float(np.log1p(-prob))            # (log1pf for a float32 probability)
        while True:
            u = float(self._unit_f64(1)[0])
            geom_sum += math.ceil(math.log(u) / logprob) if u > 0 else math.inf
            if geom_sum > count:
                return num_geom
            num_geom += 1

    def _btrs(self, count, prob) -> float:
        t = type(count)
        one = t(1)
        stddev = float(np.sqrt(count * prob * (one - prob)))
        b = 1.15 + 2.53 * stddev
        a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
        c = float(count * prob) + 0.5
        v_r = 0.92 - 4.2 / b
        r = float(prob / (one - prob))
        alpha = (2.83 + 5.1 / b) * stddev
        m = float(np.floor((count + one) * prob))
        n = float(count)
        while True:
            U = float(self._unit_f64(1)[0]) - 0.5
            V = float(self._unit_f64(1)[0])
            us = 0.5 - abs(U)
            k = float(t(math.floor((2 * a / us + b) * U + c)))
            if k < 0 or k > n:
                continue
            if us >= 0.07 and V <= v_r:
                return k
            # (PyTorch's bound, which differs from Hormann's paper by a log, kept as PyTorch computes it)
            V = math.log(V * alpha / (a / (us * us) + b))
            upperbound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                          + (n + 1) * math.log((n - m + 1) / (n - k + 1))
                          + (k + 0.5) * math.log(r * (n - k + 1) / (k + 1))
                          + _stirling_tail(m) + _stirling_tail(n - m) - _stirling_tail(k)
                          - _stirling_tail(n - k))
            if V <= upperbound:
                return k

    def _poisson_one(self, lam: float) -> int:
        if lam >= 10:
            slam = math.sqrt(lam)
            loglam = math.log(lam)
            b = 0.931 + 2.53 * slam
            a = -0.059 + 0.02483 * b
            invalpha = 1.1239 + 1.1328 / (b - 3.4)
            vr = 0.9277 - 3.6224 / (b - 2)
            while True:
                U = float(self._unit_f64(1)[0]) - 0.5
                V = float(self._unit_f64(1)[0])
                us = 0.5 - abs(U)
                k = math.floor((2 * a / us + b) * U + lam + 0.43)
                if us >= 0.07 and V <= vr:
                    return k
                if k < 0 or (us < 0.013 and V > us):
                    continue
                if (math.log(V) + math.log(invalpha) - math.log(a / (us * us) + b)) <= \
                        (-lam + k * loglam - math.lgamma(k + 1.0)):
                    return k
        if lam == 0:
            return 0
        enlam = math.exp(-lam)
        x, prod = 0, 1.0
        while True:
            prod *= float(self._unit_f64(1)[0])
            if prod > enlam:
                x += 1
            else:
                return x


_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    """log(k!) minus its Stirling approximation (PyTorch's stirling_approx_tail: a table below 10)."""
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _to_dtype(values: np.ndarray, dtype) -> np.ndarray:
    """Doubles cast as C++ casts them: to Half through float."""
    if np.dtype(dtype) == np.float16:
        values = values.astype(np.float32)
    return values.astype(dtype)


def _log1p64(x: np.ndarray) -> np.ndarray:
    """float64 log1p as the C library computes it (numpy's SIMD one differs in the last bit for
    about 7% of inputs): math.log1p, element by element."""
    return np.array([math.log1p(v) for v in x.reshape(-1).tolist()], dtype=np.float64).reshape(x.shape)
