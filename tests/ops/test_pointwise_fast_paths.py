"""The float32/float64 fast paths of the chain's and the small MLP's ops (tanh, its backward, relu, its
backward, sin/cos/exp/log, add/sub's complex test) against what they shortcut, bit for bit and stride
for stride, on random bit patterns (nan, -0., inf, subnormals) and on the sizes where a path switches.
The parity tests compare these ops with live PyTorch on a few samples; these fail if a fast path
ever answers differently from the general one."""
import numpy as np
import pytest

from gradlab.ops import dual
from gradlab.ops.arithmetic import _any_complex
from gradlab.ops.compare import keep_max
from gradlab.ops.registry import OPS

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
UINT = {F32: np.uint32, F64: np.uint64}
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _random_bits(rng, dtype, n):
    """n numbers of every kind: random bit patterns (nan, inf, subnormals, huge) and ordinary ones."""
    it = UINT[dtype]
    bits = rng.integers(0, np.iinfo(it).max, n, dtype=it, endpoint=True).view(dtype)
    plain = rng.standard_normal(n).astype(dtype)
    out = np.where(rng.random(n) < 0.5, bits, plain)
    out[:min(n, 6)] = np.array([np.nan, -0.0, 0.0, -np.inf, np.inf, 1e-40], dtype)[:min(n, 6)]
    return out


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.strides == want.strides
    it = UINT[got.dtype]
    bad = np.flatnonzero(got.reshape(-1).view(it) != want.reshape(-1).view(it))
    assert not bad.size, f"{bad.size} differ, e.g. {got.reshape(-1)[bad[:3]]} != {want.reshape(-1)[bad[:3]]}"


SHAPES = [(), (1,), (10,), (2, 2), (8, 16), (512,), (513,), (64, 256)]


@pytest.mark.parametrize("shape", SHAPES)
def test_tanh_backward_float32(shape):
    """grad * (1 - y * y) with 1 - y * y in float64 (y * y is exact there), rounded once to float32."""
    rng = np.random.default_rng(1)
    n = int(np.prod(shape))
    g = _random_bits(rng, F32, n).reshape(shape)
    for y in (_random_bits(rng, F32, n), np.tanh(rng.uniform(-4, 4, n).astype(F32))):
        y = y.reshape(shape)
        want = (1.0 - np.square(y.astype(F64))).astype(F32) * g
        _same(OPS["tanh_backward"].forward(g, y), want)
        _same(dual.call("tanh_backward", g, y), want)


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("shape", SHAPES)
def test_relu_backward(dtype, shape):
    """g where x > 0, else +0 (a nan x lets g through), laid out as x: the general zero_where's."""
    rng = np.random.default_rng(2)
    n = int(np.prod(shape))
    x = _random_bits(rng, dtype, n).reshape(shape)
    g = _random_bits(rng, dtype, n).reshape(shape)
    want = dual.zero_where(x <= 0, g)
    _same(want, np.where(x <= 0, dtype.type(0), g))        # (the general path is what it says)
    for threshold in (0, 0.0):
        _same(dual.threshold_backward(g, x, threshold), want)
    if x.ndim == 2:                                         # (a transposed x: the general path)
        _same(dual.threshold_backward(g.T, x.T, 0), dual.zero_where(x.T <= 0, g.T))


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("shape", SHAPES)
def test_relu_forward(dtype, shape):
    rng = np.random.default_rng(3)
    x = _random_bits(rng, dtype, int(np.prod(shape))).reshape(shape)
    views = [x] + ([x.T, x[::2]] if x.ndim else [])
    for v in views:
        got, want = OPS["relu"].forward(v), keep_max(v, 0)
        assert type(got) is type(want)
        _same(got, want)


@pytest.mark.parametrize("name", ["tanh", "sin", "cos", "exp", "log", "tan"])
@pytest.mark.parametrize("shape", [(), (10,), (8, 16)])
def test_rounded_unary_float32(name, shape):
    """numpy's float64 function rounded to float32, from the op's forward and from ops/dual.py."""
    rng = np.random.default_rng(4)
    x = _random_bits(rng, F32, int(np.prod(shape))).reshape(shape)
    want = getattr(np, name)(x.astype(F64)).astype(F32)
    _same(OPS[name].forward(x), want)
    if hasattr(dual, name):
        _same(getattr(dual, name)(x), want)


def test_any_complex_is_result_types():
    values = [1, 1.0, True, 1j, np.float32(1), np.complex64(1), np.int8(3), np.ones(2, F32),
              np.ones(2, np.complex64), np.ones(2, np.int64), np.ones((), np.complex128)]
    for a in values:
        for b in values:
            assert _any_complex(a, b) == (np.result_type(a, b).kind == "c"), (a, b)


@pytest.mark.parametrize("dtype", [F32, F64])
@pytest.mark.parametrize("shape", SHAPES)
def test_where_or_zero_and_zero_where(dtype, shape):
    """PyTorch's where(mask, grad, 0) and grad.masked_fill(mask, 0): g's bits kept, +0 elsewhere, laid
    out as the mask (a masked copy up to 512 numbers, g's bits ANDed with the mask past that)."""
    rng = np.random.default_rng(5)
    n = int(np.prod(shape))
    g = _random_bits(rng, dtype, n).reshape(shape)
    mask = (rng.random(n) < 0.5).reshape(shape)
    masks = [mask] + ([mask.T.copy().T] if mask.ndim == 2 else [])      # (a Fortran-ordered mask)
    zero = dtype.type(0)
    for m in masks:
        for got, want in ((dual.where_or_zero(m, g), np.where(m, g, zero)), (dual.zero_where(m, g), np.where(m, zero, g))):
            got = np.asarray(got)
            assert got.dtype == dtype and got.strides == m.astype(UINT[dtype]).strides
            assert np.array_equal(got.reshape(-1).view(UINT[dtype]), want.astype(dtype).reshape(-1).view(UINT[dtype]))
