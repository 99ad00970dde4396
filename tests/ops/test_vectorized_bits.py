"""gradlab's copies of PyTorch's vectorized float32 kernels (gradlab/ops/vectorized/) against real
PyTorch, bit for bit: softmax / log_softmax over the last dim and their gradients (SLEEF expf/logf
and ATen's lane sums), gelu of contiguous tensors and its gradient (oneDNN). Inputs are generated from
fixed seeds over several ranges (small, large, negative, near the kernels' special points, with
infinities and nans); torch computes every expected value. Any differing bit fails."""
from fractions import Fraction

import numpy as np
import pytest

import gradlab
from gradlab.ops import vectorized

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

F32 = np.float32


def _bits_equal(got, want):
    """Equal bit patterns, nans compared as nans (their sign bit is not part of the claim)."""
    got, want = np.asarray(got, F32), np.asarray(want, F32)
    assert got.shape == want.shape
    same = got.view(np.int32) == want.view(np.int32)
    same |= np.isnan(got) & np.isnan(want)
    if not same.all():
        bad = np.flatnonzero(~same.ravel())[:5]
        raise AssertionError(f"{(~same).sum()} of {same.size} differ, e.g. at {bad.tolist()}: "
                             f"gradlab {got.ravel()[bad].tolist()} torch {want.ravel()[bad].tolist()}")


def _sleef_capability():
    mine = vectorized.cpu_capability()
    if mine is None:
        pytest.skip("gradlab cannot tell this CPU's capability: it keeps its float64 path")
    assert mine == torch.backends.cpu.get_cpu_capability(), "gradlab chose another CPU capability than PyTorch"
    if mine == "DEFAULT":
        pytest.skip("PyTorch's DEFAULT capability uses the C library's expf/logf: not reproduced")
    return mine


RANGES = {"small": 0.01, "unit": 1.0, "wide": 8.0, "large": 40.0}


def _rows(seed, n, scale, rows=None):
    rng = np.random.default_rng(seed)
    rows = rows or max(4000 // max(n, 1), 8)
    x = rng.normal(0, scale, (rows, n)).astype(F32)
    x[0, :] = x[0, 0]                       # a row of equal numbers (every exp(x - max) is 1)
    if n > 2 and rows > 3:
        x[1, 1] = np.inf                    # inf - inf: a row of nans
        x[2, 0] = -np.inf                   # exp(-inf) = 0
        x[3, n // 2] = np.nan
        x[-1, :] = rng.uniform(-104, 0, n).astype(F32)     # down to SLEEF's underflow to 0
    return x


SIZES = [1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 100, 1000]


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("scale", list(RANGES.values()), ids=list(RANGES))
def test_softmax_family_lastdim(n, scale):
    _sleef_capability()
    x = _rows(n * 7 + int(scale * 10), n, scale)
    g = np.random.default_rng(n).normal(0, 1, x.shape).astype(F32)
    tx = torch.from_numpy(x)
    sm, ls = torch.softmax(tx, -1), torch.log_softmax(tx, -1)
    _bits_equal(vectorized.softmax_lastdim(x), sm.numpy())
    _bits_equal(vectorized.log_softmax_lastdim(x), ls.numpy())
    tg = torch.from_numpy(g)
    _bits_equal(vectorized.softmax_backward_lastdim(g, sm.numpy()),
                torch.ops.aten._softmax_backward_data(tg, sm, -1, torch.float32).numpy())
    _bits_equal(vectorized.log_softmax_backward_lastdim(g, ls.numpy()),
                torch.ops.aten._log_softmax_backward_data(tg, ls, -1, torch.float32).numpy())


@pytest.mark.parametrize("fn", ["softmax", "log_softmax"])
@pytest.mark.parametrize("shape,transpose", [((3,), False), ((8,), False), ((5, 20), False), ((64, 256), False),
                                             ((2, 3, 33), False), ((20, 5), True), ((256, 64), True)])
def test_softmax_family_through_autograd(fn, shape, transpose):
    """The public functions: forward values and the gradient of a weighted sum, through gradlab's ops."""
    _sleef_capability()
    rng = np.random.default_rng(sum(shape))
    x = rng.normal(0, 3, shape).astype(F32)
    w = rng.normal(0, 1, shape[::-1] if transpose else shape).astype(F32)
    outs = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        inp = leaf.t() if transpose else leaf
        y = getattr(lib, fn)(inp, -1)
        (y * lib.tensor(w)).sum().backward()
        outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
    _bits_equal(outs[0][0], outs[1][0])
    _bits_equal(outs[0][1], outs[1][1])


def _gelu_inputs(seed):
    rng = np.random.default_rng(seed)
    parts = [rng.uniform(-r, r, 20000) for r in (1e-30, 1e-3, 1.0, 5.6, 12.0, 100.0)]
    parts.append(np.float32(5.5420785) + np.arange(-200, 200, dtype=F32) * np.float32(1e-6))   # oneDNN's bound
    parts.append(np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 3.4e38, -3.4e38]))
    return np.concatenate(parts).astype(F32)


def test_gelu_onednn_forward_and_gradient():
    if not vectorized.onednn_avx512():
        pytest.skip("oneDNN's AVX-512 gelu does not run on this CPU: gradlab keeps its float64 path")
    x = _gelu_inputs(0)
    g = np.random.default_rng(1).normal(0, 1, x.shape).astype(F32)
    tx = torch.from_numpy(x)
    _bits_equal(vectorized.gelu_onednn(x), torch.nn.functional.gelu(tx).numpy())
    _bits_equal(vectorized.gelu_backward_onednn(g, x), torch.ops.aten.gelu_backward(torch.from_numpy(g), tx).numpy())


@pytest.mark.parametrize("shape", [(2,), (3,), (17,), (5, 20), (64, 256)])
def test_gelu_through_autograd(shape):
    if not vectorized.onednn_avx512():
        pytest.skip("oneDNN's AVX-512 gelu does not run on this CPU")
    rng = np.random.default_rng(len(shape) * 100 + shape[-1])
    x = rng.normal(0, 3, shape).astype(F32)
    w = rng.normal(0, 1, shape).astype(F32)
    outs = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        y = lib.nn.functional.gelu(leaf)
        (y * lib.tensor(w)).sum().backward()
        outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
    _bits_equal(outs[0][0], outs[1][0])
    _bits_equal(outs[0][1], outs[1][1])


def _round_to_float32(exact):
    """The float32 nearest to a Fraction (ties to even), by comparing the neighbours exactly."""
    guess = np.float32(float(exact))
    candidates = [np.nextafter(guess, np.float32(-np.inf)), guess, np.nextafter(guess, np.float32(np.inf))]
    return min(candidates, key=lambda f: (abs(Fraction(float(f)) - exact), int(np.array(f).view(np.int32)) & 1))


def test_fma32_is_one_rounding():
    """fma32 against exact rational arithmetic, including sums that land (nearly) half-way between floats."""
    rng = np.random.default_rng(3)
    a = rng.normal(0, 1, 3000).astype(F32)
    b = rng.normal(0, 1, 3000).astype(F32)
    c = rng.normal(0, 1e-3, 3000).astype(F32)
    ab = a.astype(np.float64) * b
    c[:1500] = -(ab[:1500].astype(F32))            # a*b + c: the product's rounding error, tiny sums
    c[1500:2000] = (ab[1500:2000] * 2.0 ** -25).astype(F32)      # sums near a half-way point
    # double rounding: (1 + 2**-12)**2 = 1 + 2**-11 + 2**-24 is half-way between two float32 numbers,
    # and a tiny c (lost in the float64 sum) decides the direction
    k = np.arange(2000, 2400)
    a[k] = b[k] = np.float32(1 + 2 ** -12) * np.where(k % 4 < 2, 1, -1).astype(F32) * np.float32(2.0) ** (k % 7 - 3)
    c[k] = np.float32(2.0 ** -70) * np.where(k % 2, 1, -1).astype(F32) * np.float32(2.0) ** (2 * (k % 7) - 6)
    got = vectorized.fma32(a, b, c)
    want = [_round_to_float32(Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z))) for x, y, z in zip(a, b, c)]
    _bits_equal(got, np.array(want, F32))


def test_capability_follows_environment(monkeypatch):
    if vectorized.cpu_capability() is None:
        pytest.skip("not an x86-64 Linux machine")
    for value, expected in (("default", "DEFAULT"), ("avx2", "AVX2"), ("avx512", "AVX512")):
        monkeypatch.setenv("ATEN_CPU_CAPABILITY", value)
        assert vectorized.cpu_capability() == expected
    monkeypatch.setenv("ATEN_CPU_CAPABILITY", "default")
    x = np.random.default_rng(0).normal(0, 1, (4, 9)).astype(F32)
    assert vectorized.softmax_lastdim(x) is None           # DEFAULT: gradlab's float64 path


INNER_CASES = [((5, 20), 0), ((5, 3), 0), ((7, 1), 0), ((3, 7, 9), 1), ((3, 7, 9), -2), ((2, 5, 41), 0),
               ((8, 3, 17), 1), ((64, 256), 0), ((7, 33), 0), ((3, 4, 5, 6), 2), ((2, 300, 70), 1), ((10, 2000), 0)]


@pytest.fixture
def threads():
    """Run with several thread counts (which numbers take the vector path depends on the split)."""
    before = (torch.get_num_threads(), gradlab.get_num_threads())

    def use(n):
        torch.set_num_threads(n)
        gradlab.set_num_threads(n)
    yield use
    torch.set_num_threads(before[0])
    gradlab.set_num_threads(before[1])


@pytest.mark.parametrize("nthreads", [1, 2, 3])
@pytest.mark.parametrize("shape,dim", INNER_CASES)
def test_softmax_family_other_dims(shape, dim, nthreads, threads):
    """softmax / log_softmax over a dim that is not the last, forward and gradient, through gradlab's ops:
    whole vectors with SLEEF's expf, the leftover numbers with glibc's expf."""
    _sleef_capability()
    threads(nthreads)
    rng = np.random.default_rng(abs(dim) * 1000 + sum(shape))
    x = rng.normal(0, 3, shape).astype(F32)
    x.reshape(-1)[:: max(x.size // 7, 1)] *= 20          # a few far from the rest (exp underflows)
    w = rng.normal(0, 1, shape).astype(F32)
    for fn in ("softmax", "log_softmax"):
        outs = []
        for lib in (gradlab, torch):
            leaf = lib.tensor(x).requires_grad_()
            y = getattr(lib, fn)(leaf, dim)
            (y * lib.tensor(w)).sum().backward()
            outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
        _bits_equal(outs[0][0], outs[1][0])
        _bits_equal(outs[0][1], outs[1][1])


def test_glibc_expf_through_scalar_softmax():
    """softmax over dim 1 of (n, 2, 3): every position is left over from whole vectors, so PyTorch runs
    its scalar loop with glibc's expf."""
    _sleef_capability()
    rng = np.random.default_rng(11)
    x = np.concatenate([rng.normal(0, s, (3000, 2, 3)) for s in (0.1, 3, 30)]).astype(F32)
    _bits_equal(gradlab.softmax(gradlab.tensor(x), 1).tolist(), torch.softmax(torch.from_numpy(x), 1))


ELEMENTWISE_SHAPES = [(1,), (3,), (17,), (31,), (32,), (33,), (100,), (64, 256), (300, 200), (100003,)]


@pytest.mark.parametrize("nthreads", [1, 2, 3])
@pytest.mark.parametrize("shape", ELEMENTWISE_SHAPES)
@pytest.mark.parametrize("fn", ["sigmoid", "silu"])
def test_sigmoid_silu(fn, shape, nthreads, threads):
    """sigmoid and silu, forward and gradient (from a weighted sum and from a plain sum): blocks of two
    vectors with SLEEF's expf, the numbers left at the end of each thread's slice with glibc's."""
    _sleef_capability()
    threads(nthreads)
    rng = np.random.default_rng(len(shape) * 7 + shape[0])
    x = rng.normal(0, 4, shape).astype(F32)
    x.reshape(-1)[:: max(x.size // 5, 1)] *= 30                      # far tails: exp under- and overflows
    w = rng.normal(0, 1, shape).astype(F32)
    call = (lambda lib, t: lib.sigmoid(t)) if fn == "sigmoid" else (lambda lib, t: lib.nn.functional.silu(t))
    for weighted in (True, False):
        outs = []
        for lib in (gradlab, torch):
            leaf = lib.tensor(x).requires_grad_()
            y = call(lib, leaf)
            (y * lib.tensor(w) if weighted else y).sum().backward()
            outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
        _bits_equal(outs[0][0], outs[1][0])
        _bits_equal(outs[0][1], outs[1][1])


@pytest.mark.parametrize("view", ["t", "permute"])
def test_sigmoid_of_dense_views(view):
    """A transposed (dense) tensor is walked in memory order, as PyTorch walks it."""
    _sleef_capability()
    x = np.random.default_rng(5).normal(0, 4, (30, 10, 70)).astype(F32)
    pick = (lambda t: t.reshape(300, 70).t()) if view == "t" else (lambda t: t.permute(2, 0, 1))
    _bits_equal(gradlab.sigmoid(pick(gradlab.tensor(x))).tolist(), torch.sigmoid(pick(torch.from_numpy(x))))


GELU_VIEWS = {"0-d": lambda t: t[0, 0], "one number": lambda t: t[:1, 0], "contiguous": lambda t: t,
              "transposed": lambda t: t.t(), "every other column": lambda t: t[:, ::2], "a column": lambda t: t[:, 0]}


@pytest.mark.parametrize("approximate", ["none", "tanh"])
@pytest.mark.parametrize("shape", [(7, 9), (64, 70), (300, 200)])
@pytest.mark.parametrize("view", list(GELU_VIEWS))
def test_gelu_every_path(view, shape, approximate):
    """gelu and its gradient through every kernel PyTorch picks: oneDNN (exact form, contiguous, 2+
    numbers), ATen's vector loop with its own erf or SLEEF's tanhf (dense views), its scalar loop with
    glibc's erff or tanhf (one number, strided views)."""
    _sleef_capability()
    if view == "contiguous" and approximate == "none" and not vectorized.onednn_avx512():
        pytest.skip("oneDNN's AVX-512 gelu does not run on this CPU")
    x = np.random.default_rng(shape[0]).uniform(-6, 6, shape).astype(F32)
    x[0, 0] = 0.3
    outs = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        y = lib.nn.functional.gelu(GELU_VIEWS[view](leaf), approximate=approximate)
        (y * y).sum().backward()
        outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
    _bits_equal(outs[0][0], outs[1][0])
    _bits_equal(outs[0][1], outs[1][1])


def test_glibc_erff_through_gelu():
    """gelu of a strided tensor: PyTorch's scalar loop, x/2 (1 + erff(x/sqrt2)) with glibc's erff."""
    _sleef_capability()
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.uniform(-r, r, 20000) for r in (1e-6, 1e-3, 0.9, 1.3, 3, 6.5, 40)]).astype(F32)
    pair = np.stack([x, x], 1)
    _bits_equal(gradlab.nn.functional.gelu(gradlab.tensor(pair)[:, 0]).tolist(),
                torch.nn.functional.gelu(torch.from_numpy(pair)[:, 0]))


def test_kernel_rechecks_double_rounding():
    """Inside a kernel the fused multiply-adds of small arrays are checked together at the end; a
    double-rounded one (a tiny c lost in the float64 sum of a half-way product) makes the kernel run
    again step by step, so the result is still rounded once."""
    a = np.full(8, 1 + 2 ** -12, F32)
    c = (np.float32(2.0 ** -70) * np.array([1, -1, 2, -2, 0, 1, -1, 4], F32)).astype(F32)
    fused = vectorized._kernel(lambda a, b, c: vectorized._fma(a, b, c))(a, a, c)
    want = [_round_to_float32(Fraction(float(x)) ** 2 + Fraction(float(z))) for x, z in zip(a, c)]
    _bits_equal(fused, np.array(want, F32))
    assert (fused != (a.astype(np.float64) ** 2 + c).astype(F32)).any()      # (plain float64 is wrong here)


def test_tanh_functions_against_gelu_tanh():
    """SLEEF's tanhf (dense: vector loop) and glibc's tanhf / expm1f (strided: scalar loop) over wide
    ranges, through gelu's tanh approximation, whose inner value sweeps tanh's argument."""
    _sleef_capability()
    rng = np.random.default_rng(8)
    x = np.concatenate([rng.uniform(-r, r, 16000) for r in (1e-5, 0.3, 1.2, 3, 8, 30)]).astype(F32)
    pair = np.stack([x, x], 1)
    for pick in (lambda t: t[:, 0], lambda t: t.t()):
        _bits_equal(gradlab.nn.functional.gelu(pick(gradlab.tensor(pair)), approximate="tanh").tolist(),
                    torch.nn.functional.gelu(pick(torch.from_numpy(pair)), approximate="tanh"))


ACTIVATIONS = {"softplus": lambda F, t: F.softplus(t), "softplus(beta=2, threshold=5)": lambda F, t: F.softplus(t, 2.0, 5.0),
               "mish": lambda F, t: F.mish(t), "silu": lambda F, t: F.silu(t), "elu": lambda F, t: F.elu(t),
               "elu(alpha=0.3)": lambda F, t: F.elu(t, 0.3), "logsigmoid": lambda F, t: F.logsigmoid(t)}


@pytest.mark.parametrize("shape", [(7, 9), (64, 70)])
@pytest.mark.parametrize("view", list(GELU_VIEWS))
@pytest.mark.parametrize("name", list(ACTIVATIONS))
def test_log1p_tanh_activations(name, view, shape):
    """softplus and mish (SLEEF's / glibc's expf, log1pf, tanhf) and silu, forward and gradient, on
    every view."""
    _sleef_capability()
    x = np.random.default_rng(shape[1]).uniform(-12, 12, shape).astype(F32)
    x[0, 0] = 21.0                        # past softplus's threshold
    outs = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        y = ACTIVATIONS[name](lib.nn.functional, GELU_VIEWS[view](leaf))
        (y * y).sum().backward()
        outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
    _bits_equal(outs[0][0], outs[1][0])
    _bits_equal(outs[0][1], outs[1][1])


def test_log1p_functions_through_softplus():
    """SLEEF's log1pf (dense view) and glibc's log1pf (strided view) over wide ranges of exp(x)."""
    _sleef_capability()
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.uniform(-r, r, 16000) for r in (1e-6, 0.2, 1, 5, 19.9)]).astype(F32)
    pair = np.stack([x, x], 1)
    for pick in (lambda t: t[:, 0], lambda t: t.t()):
        _bits_equal(gradlab.nn.functional.softplus(pick(gradlab.tensor(pair))).tolist(),
                    torch.nn.functional.softplus(pick(torch.from_numpy(pair))))


MIXED = {"sigmoid": lambda L, t: L.sigmoid(t), "silu": lambda L, t: L.nn.functional.silu(t),
         "gelu": lambda L, t: L.nn.functional.gelu(t), "gelu tanh": lambda L, t: L.nn.functional.gelu(t, approximate="tanh"),
         "mish": lambda L, t: L.nn.functional.mish(t), "softplus": lambda L, t: L.nn.functional.softplus(t),
         "elu": lambda L, t: L.nn.functional.elu(t), "logsigmoid": lambda L, t: L.nn.functional.logsigmoid(t)}


@pytest.mark.parametrize("shape", [(7, 9), (500, 200)])
@pytest.mark.parametrize("name", list(MIXED))
def test_gradient_of_another_layout(name, shape):
    """A transposed input with a contiguous gradient: PyTorch walks the gradient's order, in which the
    input's numbers are not adjacent, so its scalar loop computes every number."""
    _sleef_capability()
    rng = np.random.default_rng(shape[0])
    x = rng.uniform(-8, 8, shape).astype(F32)
    w = rng.normal(0, 1, shape[::-1]).astype(F32)
    outs = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        y = MIXED[name](lib, leaf.t())
        (y * lib.tensor(w)).sum().backward()
        outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
    _bits_equal(outs[0][0], outs[1][0])
    _bits_equal(outs[0][1], outs[1][1])


@pytest.mark.parametrize("nthreads", [1, 2])
@pytest.mark.parametrize("rows", [1, 5])
@pytest.mark.parametrize("n", [3, 16, 17, 33, 100])
def test_softmax_gradient_serial_and_threaded(n, rows, nthreads, threads):
    """softmax's last-dim gradient: the copy of ATen's loop that runs in the caller's thread (one row,
    or one thread) fuses the leftover numbers' multiply-add, the OpenMP copy does not."""
    _sleef_capability()
    threads(nthreads)
    rng = np.random.default_rng(n * 10 + rows)
    x = rng.normal(0, 2, (rows, n)).astype(F32)
    w = rng.normal(0, 1, (rows, n)).astype(F32)
    grads = []
    for lib in (gradlab, torch):
        leaf = lib.tensor(x).requires_grad_()
        (lib.softmax(leaf, -1) * lib.tensor(w)).sum().backward()
        grads.append(np.asarray(leaf.grad.tolist(), F32))
    _bits_equal(grads[0], grads[1])


@pytest.mark.parametrize("name", ["log1p", "expm1"])
def test_log1p_expm1(name):
    """torch.log1p / torch.expm1 are not MKL's (PyTorch's vml keeps its own for these two): SLEEF's
    functions on every number, contiguous or not, forward and gradient."""
    _sleef_capability()
    rng = np.random.default_rng(13)
    x = np.concatenate([rng.uniform(-r, r, 9000) for r in (1e-6, 0.5, 0.99, 20, 80)]).astype(F32)
    if name == "log1p":
        x = np.abs(x) - np.float32(0.5)
    pair = np.stack([x, x], 1)
    for pick in (lambda t: t[:, 0], lambda t: t.t(), lambda t: t[0, 0]):
        outs = []
        for lib in (gradlab, torch):
            leaf = lib.tensor(pair).requires_grad_()
            y = getattr(lib, name)(pick(leaf))
            (y * 3).sum().backward()
            outs.append((np.asarray(y.detach().tolist(), F32), np.asarray(leaf.grad.tolist(), F32)))
        _bits_equal(outs[0][0], outs[1][0])
        _bits_equal(outs[0][1], outs[1][1])


def test_poly_steps_recheck_double_rounding():
    """The float64 Horner steps (_poly) keep their sums for the same check: a double-rounded step
    makes the kernel run again with every step checked."""
    from gradlab.ops.vectorized import core
    a = np.full(8, 1 + 2 ** -12, F32)
    c = (np.float32(2.0 ** -70) * np.array([1, -1, 2, -2, 0, 1, -1, 4], F32)).astype(F32)

    def step(a, c):             # one Horner step per number: a * a + c (c differs per number)
        out = np.empty_like(a)
        for i in range(a.size):
            out[i:i + 1] = core._poly(a[i:i + 1].astype(np.float64), [np.array(c[i], np.float64)],
                                      a[i:i + 1].astype(np.float64))[0]
        return out
    got = vectorized._kernel(step)(a, c)
    want = [_round_to_float32(Fraction(float(x)) ** 2 + Fraction(float(z))) for x, z in zip(a, c)]
    _bits_equal(got, np.array(want, F32))


# --- float64: the same ATen templates on Vectorized<double>, SLEEF's expd/logd (sleef_double.py) -------------

F64 = np.float64


def _bits_equal64(got, want):
    """Equal float64 bit patterns, nans compared as nans."""
    got, want = np.asarray(got, F64), np.asarray(want, F64)
    assert got.shape == want.shape
    same = got.view(np.int64) == want.view(np.int64)
    same |= np.isnan(got) & np.isnan(want)
    if not same.all():
        bad = np.flatnonzero(~same.ravel())[:5]
        raise AssertionError(f"{(~same).sum()} of {same.size} differ, e.g. at {bad.tolist()}: "
                             f"gradlab {got.ravel()[bad].tolist()} torch {want.ravel()[bad].tolist()}")


def _rows64(seed, n, scale):
    x = _rows(seed, n, scale).astype(F64) * (1 + np.random.default_rng(seed).normal(0, 1e-3, (1, n)))
    if n > 2 and x.shape[0] > 5:
        x[-2, :] = np.random.default_rng(seed).uniform(-1100, 0, n)   # exp's subnormal results, and 0 below -1000
    return x


@pytest.mark.parametrize("nthreads", [1, 2])
@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("scale", list(RANGES.values()), ids=list(RANGES))
def test_softmax_family_lastdim_float64(n, scale, nthreads, threads):
    _sleef_capability()
    threads(nthreads)
    x = _rows64(n * 7 + int(scale * 10), n, scale)
    g = np.random.default_rng(n).normal(0, 1, x.shape)
    tx, tg = torch.from_numpy(x), torch.from_numpy(g)
    sm, ls = torch.softmax(tx, -1), torch.log_softmax(tx, -1)
    _bits_equal64(vectorized.softmax_lastdim(x), sm.numpy())
    _bits_equal64(vectorized.log_softmax_lastdim(x), ls.numpy())
    _bits_equal64(vectorized.softmax_backward_lastdim(g, sm.numpy()),
                  torch.ops.aten._softmax_backward_data(tg, sm, -1, torch.float64).numpy())
    _bits_equal64(vectorized.log_softmax_backward_lastdim(g, ls.numpy()),
                  torch.ops.aten._log_softmax_backward_data(tg, ls, -1, torch.float64).numpy())


FLOAT64_CASES = [((3,), -1, False), ((8,), -1, False), ((5, 20), -1, False), ((64, 10), -1, False),
                 ((20, 5), -1, True), ((256, 64), -1, True)] + [(shape, dim, False) for shape, dim in INNER_CASES]


@pytest.mark.parametrize("nthreads", [1, 2, 3])
@pytest.mark.parametrize("shape,dim,transpose", FLOAT64_CASES)
def test_softmax_family_float64_through_autograd(shape, dim, transpose, nthreads, threads):
    """The public functions in float64, forward and gradient of a weighted sum, any dim, contiguous or
    transposed: SLEEF's expd/logd on whole vectors, glibc's exp on the numbers left over."""
    _sleef_capability()
    threads(nthreads)
    rng = np.random.default_rng(abs(dim) * 1000 + sum(shape) + transpose)
    x = rng.normal(0, 3, shape)
    x.reshape(-1)[:: max(x.size // 7, 1)] *= 40
    w = rng.normal(0, 1, shape[::-1] if transpose else shape)
    for fn in ("softmax", "log_softmax"):
        outs = []
        for lib in (gradlab, torch):
            leaf = lib.tensor(x, dtype=lib.float64).requires_grad_()
            inp = leaf.t() if transpose else leaf
            y = getattr(lib, fn)(inp, dim)
            (y * lib.tensor(w, dtype=lib.float64)).sum().backward()
            outs.append((np.asarray(y.detach().tolist(), F64), np.asarray(leaf.grad.tolist(), F64)))
        _bits_equal64(outs[0][0], outs[1][0])
        _bits_equal64(outs[0][1], outs[1][1])


def test_glibc_exp_through_scalar_softmax_float64():
    """softmax over dim 1 of (n, 2, 3) in float64: every position takes PyTorch's scalar loop, glibc's exp."""
    _sleef_capability()
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.normal(0, s, (3000, 2, 3)) for s in (0.1, 3, 30, 300)])
    _bits_equal64(gradlab.softmax(gradlab.tensor(x), 1).tolist(), torch.softmax(torch.from_numpy(x), 1))


def test_sleef_expd_logd_through_log_softmax():
    """Rows of 8 numbers (one AVX-512 vector of doubles; two AVX2 ones) over wide ranges, with the special
    values: exp from -1100 (0 below -1000, subnormals below -708) to 0, log of sums from 1 to 8."""
    _sleef_capability()
    rng = np.random.default_rng(13)
    parts = [rng.uniform(lo, 0, (20000, 8)) for lo in (-1e-6, -1, -40, -745, -1100)]
    x = np.concatenate(parts)
    x[:5] = [[0.0] * 8, [np.inf] + [0.0] * 7, [-np.inf] + [0.0] * 7, [np.nan] + [0.0] * 7, [-0.0] * 8]
    tx = torch.from_numpy(x)
    _bits_equal64(gradlab.softmax(gradlab.tensor(x), -1).tolist(), torch.softmax(tx, -1))
    _bits_equal64(gradlab.log_softmax(gradlab.tensor(x), -1).tolist(), torch.log_softmax(tx, -1))


def test_fma64_is_one_rounding():
    """The float64 fma against exact rational arithmetic, with sums (nearly) half-way between two float64
    numbers: the error-free pieces' check finds every doubtful result (unchecked ones must be right)."""
    from gradlab.ops.vectorized import sleef_double
    rng = np.random.default_rng(4)
    n = 20000
    c = 1.0 + rng.integers(0, 2 ** 20, n) * 2.0 ** -52
    a = np.where(rng.random(n) < 0.5, 1, -1) * 2.0 ** -53 * (1 + rng.integers(-2 ** 10, 2 ** 10, n) * 2.0 ** -52)
    b = 1 + rng.integers(-2 ** 10, 2 ** 10, n) * 2.0 ** -52
    a[:5000] = rng.normal(0, 1, 5000)
    b[:5000] = rng.normal(0, 1, 5000)
    c[:5000] = -a[:5000] * b[:5000]                     # the product's rounding error
    want = np.array([float(Fraction(x) * Fraction(y) + Fraction(z)) for x, y, z in zip(a, b, c)])
    _bits_equal64(sleef_double.fma64(a, b, c), want)
    # unchecked: every result that is not right is among the doubtful ones
    sleef_double._STATE.kept = []
    try:
        with np.errstate(all="ignore"):
            fast = sleef_double.fma(a, b, c)
        doubtful = sleef_double._doubtful(*sleef_double._STATE.kept[0])
    finally:
        sleef_double._STATE.kept = None
    assert doubtful.any() and not ((fast != want) & ~doubtful).any()
    assert (fast != want).any()                          # (the case needs the check)


def test_float64_kernels_do_not_run_twice_on_ordinary_inputs(monkeypatch):
    """The second, fully checked run is for the rare doubtful rounding: ordinary inputs must not need it
    (a kernel that changes a kept piece in place would make every call run twice, slowly but right)."""
    from gradlab.ops.vectorized import sleef_double
    verdicts = []
    check = sleef_double._any_doubtful
    monkeypatch.setattr(sleef_double, "_any_doubtful", lambda kept: verdicts.append(check(kept)) or verdicts[-1])
    x = np.random.default_rng(14).normal(0, 3, (64, 10))
    shifted = x - x.max(1, keepdims=True)
    sleef_double.sleef_expd(shifted)
    sleef_double.sleef_logd(np.exp(shifted).sum(1))
    assert verdicts == [False, False]
