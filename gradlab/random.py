"""PyTorch-compatible CPU random number generation, on numpy arrays.

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
  ``fma(z, std, mean)`` in the dtype.  float64 is bit-exact; float32 uses numpy's
  float32 sin/cos and a correctly rounded log, which differs from torch's SIMD
  code by an ulp for a few percent of values (about 0.007% differ when printed
  at 4 decimals).

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
import secrets
from fractions import Fraction

import numpy as np

__all__ = [
    "Generator",
    "default_generator",
    "manual_seed",
    "initial_seed",
    "seed",
    "get_rng_state",
    "set_rng_state",
    "DEFAULT_SEED",
    "STATE_SIZE",
    "calculate_gain",
    "fan_in_and_fan_out",
    "init_uniform",
    "init_normal",
    "init_constant",
    "kaiming_uniform",
    "kaiming_normal",
    "xavier_uniform",
    "xavier_normal",
    "linear_init",
]

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
    """Correctly rounded float32 ``a * b + c`` of float32 arrays/scalars."""
    a = np.asarray(a, dtype=np.float32).astype(np.float64)
    p = a * np.float64(np.float32(b))  # exact: 24 + 24 bits
    with np.errstate(all="ignore"):
        s = _round_odd_sum(p, np.broadcast_to(np.float64(np.float32(c)), p.shape).copy())
    return s.astype(np.float32)


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


def _box_muller_blocks(d: np.ndarray, mean, std) -> np.ndarray:
    """Transform uniforms ``d`` (size a multiple of 16) block-wise, in d's dtype."""
    dt = d.dtype.type
    b = d.reshape(-1, 16)
    u1 = dt(1) - b[:, :8]
    u2 = b[:, 8:]
    if dt is np.float32:
        # log in double, correctly rounded to float32: closer to torch's SIMD log
        # than numpy's float32 log (trig stays in numpy float32, which is closer
        # to torch's than correctly rounded trig); measured, see tests.
        r = np.log(u1.astype(np.float64)).astype(np.float32)
    else:
        r = _log64(u1)
    r *= dt(-2)
    np.sqrt(r, out=r)
    theta = u2 * dt(_TWO_PI)
    out = np.empty_like(b)
    c = out[:, :8]
    s = out[:, 8:]
    np.cos(theta, out=c)
    np.sin(theta, out=s)
    c *= r
    s *= r
    out = out.reshape(-1)
    if std != 1.0 or mean != 0.0:  # torch applies them with a fused multiply-add
        if dt is np.float32:
            out = _fma32(out, std, mean)
        else:
            out = _fma64(out, std, mean)
    return out


class Generator:
    """A torch-compatible CPU generator (MT19937) producing numpy arrays."""

    def __init__(self, seed: int = DEFAULT_SEED):
        self._bg = np.random.MT19937(0)
        self._state_template = self._bg.state
        self._normal_cache = None  # float (double) or None
        self._float_extra = np.zeros((), dtype=[("v", "<f4"), ("ok", "u1")])
        self.manual_seed(seed)

    # ------------------------------------------------------------ seeding
    def manual_seed(self, seed) -> "Generator":
        seed = int(seed) % (1 << 64)
        self._initial_seed = seed
        self._bg.state = {
            "bit_generator": "MT19937",
            "state": {"key": _init_genrand(seed & _MASK32), "pos": _N},
        }
        self._normal_cache = None
        self._fresh = True  # torch reports next=0 (not 624) right after seeding
        self._float_extra["v"] = 0.0
        self._float_extra["ok"] = 0
        return self

    def initial_seed(self) -> int:
        return self._initial_seed

    def seed(self) -> int:
        s = secrets.randbits(64)
        self.manual_seed(s)
        return s

    # ------------------------------------------------------------ state
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
            vals = [_fma_scalar(self._scalar_normal(), std, mean) for _ in range(n)]
            out = np.array(vals, dtype=np.float64).astype(dtype).reshape(shape)
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
        d[:full] = _box_muller_blocks(d[:full], mean, std)
        tail = self._unit(16, dtype)
        d[n - 16 :] = _box_muller_blocks(tail, mean, std)
        return d.reshape(shape)

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


# ---------------------------------------------------------------- module level
_NO_CUDA_GENERATOR = (
    "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared libraries: a "
    "CPU library and a CUDA library; this error has occurred because you are trying to use some CUDA "
    "functionality, but the CUDA library has not been loaded by the dynamic linker for some reason.  The CUDA "
    "library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA library! One common culprit "
    "is a lack of -Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic library "
    "dependencies if you don't depend on any of their symbols.  You can check if this has occurred by using ldd "
    "on your binary to see if there is a dependency on *_cuda.so library.")


class PublicGenerator(Generator):
    """torch.Generator: the generator above with PyTorch's public interface (a device, states as
    uint8 tensors, the argument checks of PyTorch's C++ methods). Generator(seed) stays the
    numpy-level engine that gradlab's own code and tests use."""

    def __init__(self, device="cpu"):
        from . import _device
        d = _device.as_device(device, "Generator")
        if d.type == "cuda":
            raise RuntimeError(_NO_CUDA_GENERATOR)
        _device.require_cpu(d)
        self.device = _device.CPU
        super().__init__()

    def manual_seed(self, seed):
        if isinstance(seed, np.integer):
            raise TypeError("an integer is required")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise RuntimeError(f"manual_seed expected a long, but got {type(seed).__name__}")
        if not -2 ** 63 <= int(seed) < 2 ** 64:
            raise ValueError("Overflow when unpacking long long")
        return super().manual_seed(seed)

    def get_state(self):
        from .tensor import Tensor
        return Tensor._make(super().get_state())

    def set_state(self, new_state):
        return super().set_state(state_array(new_state))


def state_array(state):
    """The numpy bytes of an RNG state given as a uint8 tensor, with PyTorch's checks."""
    from .tensor import Tensor, _type_name
    if not isinstance(state, Tensor):
        raise TypeError(f"expected a torch.ByteTensor, but got {_type_name(state)}")
    if state._data.dtype != np.uint8:
        raise TypeError("RNG state must be a torch.ByteTensor")
    return state._data


# A cell that ends in `manual_seed(0)` shows PyTorch's `<torch._C.Generator object at 0x...>`.
Generator.__module__ = PublicGenerator.__module__ = "torch._C"
PublicGenerator.__name__ = PublicGenerator.__qualname__ = "Generator"

default_generator = PublicGenerator()


def manual_seed(seed) -> Generator:
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    return default_generator.initial_seed()


def seed() -> int:
    return default_generator.seed()


def get_rng_state() -> np.ndarray:
    return Generator.get_state(default_generator)


def set_rng_state(state) -> None:
    Generator.set_state(default_generator, state)


# ---------------------------------------------------------------- nn.init math
# How torch.nn.init consumes the stream (checked against torch): every
# initialiser draws with ``Tensor.uniform_(-bound, bound)`` or
# ``Tensor.normal_(mean, std)`` on the whole (contiguous) parameter, i.e.
# exactly ``Generator.uniform(shape, dtype, -bound, bound)`` /
# ``Generator.normal(shape, dtype, mean, std)``; bounds are Python floats.
#   nn.Linear(in, out): weight = kaiming_uniform(a=sqrt(5)) -> bound 1/sqrt(in)
#   (computed as sqrt(3) * gain / sqrt(fan_in)), then
#   bias = uniform(-1/sqrt(in), 1/sqrt(in)), weight drawn first.


def fan_in_and_fan_out(shape):
    shape = _shape_tuple(shape)
    if len(shape) < 2:
        raise ValueError(
            "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"
        )
    receptive = 1
    for s in shape[2:]:
        receptive *= s
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None) -> float:
    linear_fns = ["linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d",
                  "conv_transpose2d", "conv_transpose3d"]
    if nonlinearity in linear_fns or nonlinearity == "sigmoid":
        return 1
    if nonlinearity == "tanh":
        return 5.0 / 3
    if nonlinearity == "relu":
        return math.sqrt(2.0)
    if nonlinearity == "leaky_relu":
        if param is None:
            negative_slope = 0.01
        elif not isinstance(param, bool) and isinstance(param, (int, float)):
            negative_slope = param
        else:
            raise ValueError(f"negative_slope {param} not a valid number")
        return math.sqrt(2.0 / (1 + negative_slope**2))
    if nonlinearity == "selu":
        return 3.0 / 4
    raise ValueError(f"Unsupported nonlinearity {nonlinearity}")


def _gen(generator):
    return default_generator if generator is None else generator


def init_uniform(shape, dtype=np.float32, a=0.0, b=1.0, generator=None):
    return _gen(generator).uniform(shape, dtype, a, b)


def init_normal(shape, dtype=np.float32, mean=0.0, std=1.0, generator=None):
    return _gen(generator).normal(shape, dtype, mean, std)


def init_constant(shape, dtype=np.float32, val=0.0):
    return np.full(_shape_tuple(shape), val, dtype=dtype)


def _kaiming_std(shape, a, mode, nonlinearity):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    fan = fan_in if mode == "fan_in" else fan_out
    gain = calculate_gain(nonlinearity, a)
    return gain / math.sqrt(fan)


def kaiming_uniform(shape, dtype=np.float32, a=0.0, mode="fan_in",
                    nonlinearity="leaky_relu", generator=None):
    bound = math.sqrt(3.0) * _kaiming_std(shape, a, mode, nonlinearity)
    return _gen(generator).uniform(shape, dtype, -bound, bound)


def kaiming_normal(shape, dtype=np.float32, a=0.0, mode="fan_in",
                   nonlinearity="leaky_relu", generator=None):
    std = _kaiming_std(shape, a, mode, nonlinearity)
    return _gen(generator).normal(shape, dtype, 0.0, std)


def xavier_uniform(shape, dtype=np.float32, gain=1.0, generator=None):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    a = math.sqrt(3.0) * std
    return _gen(generator).uniform(shape, dtype, -a, a)


def xavier_normal(shape, dtype=np.float32, gain=1.0, generator=None):
    fan_in, fan_out = fan_in_and_fan_out(shape)
    std = gain * math.sqrt(2.0 / float(fan_in + fan_out))
    return _gen(generator).normal(shape, dtype, 0.0, std)


def linear_init(in_features, out_features, bias=True, dtype=np.float32, generator=None):
    """(weight, bias) exactly as ``nn.Linear(in_features, out_features)`` draws them."""
    weight = kaiming_uniform((out_features, in_features), dtype, a=math.sqrt(5),
                             generator=generator)
    b = None
    if bias:
        fan_in, _ = fan_in_and_fan_out((out_features, in_features))
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        b = _gen(generator).uniform((out_features,), dtype, -bound, bound)
    return weight, b
