"""complex32 (torch.chalf, PyTorch's ComplexHalf) against live torch: the dtype object, creation, printing,
conversions, view_as_real/view_as_complex, the few ops with a ComplexHalf kernel (computed in complex64, each part
rounded to float16: compared bit for bit) and PyTorch's refusal, in its words, for the ops without one. (Not
covered, still different: add/sub with an alpha that is not a power of two and addcmul, whose intermediate
products PyTorch rounds to complex32 between steps, in the last bit; and std past float16's range, inf in PyTorch,
whose variance is rounded to float16 before its square root.)

Each case is a line of code run with `torch` bound to PyTorch and then to gradlab, on operands generated from
fixed seeds; the outcome compared is the printed result with its dtype and strides (and, for values, the float16
bits of view_as_real), or the exception's type and message."""
import subprocess
import sys
import warnings
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _outcome(lib, setup, code):
    ns = {"torch": lib}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(setup, ns)
            out = eval(code, ns)
        except Exception as e:          # (the exception is the outcome compared)
            return "raises", type(e).__name__, str(e).split("\n")[0]
    if isinstance(out, lib.Tensor):
        bits = None
        if out.dtype == lib.complex32:
            bits = lib.view_as_real(out.detach().resolve_conj()).view(lib.int16).tolist()
        elif out.dtype == lib.float16:
            bits = out.detach().view(lib.int16).tolist()
        return repr(out), str(out.dtype), tuple(out.stride()), bits
    return repr(out)


def _check(setup, codes):
    bad = []
    for code in codes:
        expected = _outcome(torch, setup, code)
        got = _outcome(gradlab, setup, code)
        if got != expected:
            bad.append((code, expected, got))
    assert not bad, f"{len(bad)} of {len(codes)} differ, first: {bad[0]}"


def _complex_values(rng, n):
    """Complex numbers for complex32: ordinary ones, halves' extremes (past 65504: inf), tiny ones (subnormal
    halves), exact half ties, zeros of both signs, inf and nan."""
    special = [0j, complex(-0.0, 0.0), complex(0.0, -0.0), 65504 + 1j, 65520 - 2j, 1e5j, 1e-7 + 6e-8j,
               1.0009765625 + 0.00048828125j, 1.00048828125 - 2.0009765625j, complex("inf"), complex("nan+1j")]
    out = []
    for _ in range(n):
        k = rng.integers(0, 4)
        if k == 0:
            out.append(special[rng.integers(0, len(special))])
        else:
            scale = 10.0 ** rng.integers(-3, 4)
            out.append(complex(rng.standard_normal() * scale, rng.standard_normal() * scale))
    return out


# --- the dtype objects -----------------------------------------------------------------------------------------

_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex32",
           "complex64", "complex128"]


def test_dtype_objects_match_torch():
    codes = ["torch.complex32", "torch.chalf", "torch.chalf is torch.complex32", "torch.complex32.is_complex",
             "torch.complex32.is_floating_point", "torch.complex32.is_signed", "torch.complex32.itemsize",
             "torch.complex32.to_real()", "torch.complex32.to_complex()", "torch.finfo(torch.complex32)",
             "torch.finfo(torch.chalf).bits", "torch.finfo(torch.complex32) == torch.float16",
             "torch.zeros(2, 3, dtype=torch.chalf).element_size()", "torch.zeros(2, 3, dtype=torch.chalf).nbytes",
             "torch.zeros(2, 3, dtype=torch.chalf).itemsize", "torch.zeros(2, dtype=torch.chalf).is_complex()",
             "torch.zeros(2, dtype=torch.chalf).is_floating_point()", "torch.zeros(2, dtype=torch.chalf).type()"]
    codes += [f"torch.{d}.to_complex()" for d in ("float16", "float32", "float64")]
    for d in _DTYPES:
        codes += [f"torch.promote_types(torch.complex32, torch.{d})", f"torch.promote_types(torch.{d}, torch.complex32)",
                  f"torch.can_cast(torch.complex32, torch.{d})", f"torch.can_cast(torch.{d}, torch.complex32)"]
    _check("", codes)


def test_experimental_warning_once_per_process():
    """PyTorch warns when it first allocates a complex32 tensor (empty_cpu), once per process; a view of a half
    tensor (view_as_complex) allocates nothing."""
    programs = ["x = torch.zeros(2, dtype=torch.complex32); y = torch.ones(3, dtype=torch.chalf)",
                "x = torch.view_as_complex(torch.zeros(2, 2, dtype=torch.float16))",
                "x = torch.zeros(2, dtype=torch.float16).chalf(); y = x + x",
                "x = torch.tensor([], dtype=torch.complex32)"]
    for program in programs:
        seen = []
        for name in ("torch", "gradlab"):
            p = subprocess.run([sys.executable, "-W", "always", "-c", f"import {name} as torch\n{program}"],
                               capture_output=True, text=True)
            seen.append([line for line in p.stderr.splitlines() if "Warning" in line])
        assert seen[0] == seen[1], program


# --- creation and printing -------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_creation_and_printing_match_torch(seed):
    rng = np.random.default_rng(zlib.crc32(f"c32-create-{seed}".encode()))
    codes = []
    for _ in range(12):
        vals = _complex_values(rng, int(rng.integers(1, 7)))
        real = [v.real for v in vals]
        codes += [f"torch.tensor({vals!r}, dtype=torch.complex32)",
                  f"torch.tensor({real!r}, dtype=torch.chalf)",
                  f"torch.tensor({vals[0]!r}, dtype=torch.complex32)",
                  f"torch.full(({len(vals)},), {vals[-1]!r}, dtype=torch.complex32)",
                  f"torch.tensor({vals!r}).to(torch.complex32)",
                  f"torch.tensor({vals!r}, dtype=torch.complex128).chalf()",
                  f"torch.tensor({real!r}, dtype=torch.float64).to(torch.complex32)",
                  f"torch.tensor({vals!r}, dtype=torch.complex32).tolist()",
                  f"torch.tensor({vals!r}, dtype=torch.complex32)[0].item()"]
    shape = tuple(int(n) for n in rng.integers(0, 4, size=rng.integers(1, 3)))
    codes += [f"torch.{f}({shape}, dtype=torch.complex32)" for f in ("zeros", "ones")]
    codes += [f"torch.empty({shape}, dtype=torch.complex32).stride()"]         # (its values: whatever memory held)
    codes += [f"torch.{f}(torch.zeros({shape}, dtype=torch.complex32))" for f in ("zeros_like", "ones_like")]
    codes += [f"torch.full_like(torch.zeros({shape}, dtype=torch.complex32), 2.5)",
              f"torch.zeros({shape}).new_ones({shape}, dtype=torch.chalf)",
              f"[torch.manual_seed({seed}), torch.randn({shape}, dtype=torch.complex32)][1]",
              f"[torch.manual_seed({seed}), torch.rand(5, dtype=torch.complex32)][1]",
              f"[torch.manual_seed({seed}), torch.randn_like(torch.zeros(3, dtype=torch.chalf))][1]",
              "torch.zeros(2, 3, dtype=torch.complex32, requires_grad=True)",
              "torch.arange(3, dtype=torch.complex32)", "torch.linspace(0, 1, 3, dtype=torch.complex32)",
              "torch.eye(2, dtype=torch.complex32)", "torch.randint(0, 3, (2,), dtype=torch.complex32)",
              "torch.tensor([1 + 2j], dtype=torch.complex32).numpy()"]
    _check("", codes)


# --- conversions and views -------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_conversions_and_views_match_torch(seed):
    rng = np.random.default_rng(zlib.crc32(f"c32-convert-{seed}".encode()))
    vals = [v for v in _complex_values(rng, 6)]
    setup = (f"x = torch.tensor({vals!r}, dtype=torch.complex32); m = x.reshape(2, 3); "
             f"h = torch.tensor({[v.real for v in vals]!r}, dtype=torch.float16).reshape(3, 2)")
    codes = [f"x.to(torch.{d})" for d in _DTYPES] + [f"x.{m}()" for m in (
        "half", "float", "double", "cfloat", "cdouble", "chalf", "bool", "long", "int", "clone", "contiguous",
        "conj", "resolve_conj", "conj_physical", "detach")]
    codes += ["torch.view_as_real(x)", "torch.view_as_real(m).stride()", "torch.view_as_real(m.t())",
              "torch.view_as_complex(h)", "torch.view_as_complex(h).stride()", "torch.view_as_complex(h[1:])",
              "torch.view_as_real(torch.view_as_complex(h))", "torch.view_as_complex(h.t())",
              "torch.view_as_real(x.conj())", "x.real", "x.imag", "m.t().real", "m.imag.stride()",
              "x.view(torch.float16)", "x.view(torch.int32)", "h.view(torch.complex32)", "m.t()", "m[:, 1]",
              "m[1]", "m[::-1] if False else m[:, ::2]", "m.reshape(3, 2)", "m.view(6)", "m.t().contiguous().stride()",
              "m.t().clone().stride()", "m.unsqueeze(0)", "m.expand(2, 2, 3)", "m.repeat(1, 2)", "m.permute(1, 0)",
              "x[torch.tensor([2, 0])]", "x[x.abs() > 1]", "m.index_select(1, torch.tensor([0, 2]))", "m.tril()",
              "m.diagonal()", "torch.cat([x, x])", "torch.stack([x, x], 1)", "torch.cat([x, h.reshape(6)])",
              "torch.cat([x, torch.ones(6)])", "torch.where(x.abs() > 1, x, 0)", "x.masked_fill(x.abs() > 1, 2.5)",
              "x.unbind(0)[1]", "m.split(1)[1]", "x.roll(1)", "x.chunk(2)[0]", "x.clone().fill_(1.3 - 2j)",
              "x.clone().zero_()", "x.clone().copy_(torch.ones(6) * 1.2345678)", "x.isnan()", "x.isinf()",
              "x.isfinite()", "x.isreal()", "x.nonzero()", "x.any()", "x.all()", "x == x", "x != 0", "x == 1",
              "m.eq(m.t().t())", "torch.complex(h, h)", "torch.complex(h, h).stride()"]
    _check(setup, codes)


# --- arithmetic with a ComplexHalf kernel ----------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_arithmetic_matches_torch_bitwise(seed):
    rng = np.random.default_rng(zlib.crc32(f"c32-arith-{seed}".encode()))
    a, b = _complex_values(rng, 8), _complex_values(rng, 8)
    r = [float(np.float32(rng.standard_normal() * 3)) for _ in range(8)]
    s, z = complex(round(rng.standard_normal(), 3), round(rng.standard_normal(), 3)), round(rng.standard_normal() * 5, 4)
    setup = (f"a = torch.tensor({a!r}, dtype=torch.complex32); b = torch.tensor({b!r}, dtype=torch.complex32); "
             f"h = torch.tensor({r!r}, dtype=torch.float16); f = torch.tensor({r!r}); "
             f"i = torch.tensor([1, -2, 3, 0, 5, 6, -7, 8]); c = torch.tensor({b!r}, dtype=torch.complex64)")
    codes = ["a + b", "a - b", "a * b", "-a", "a.abs()", "a.sgn()", "a.conj_physical()", "a + h", "h * a",
             "a * f", "a + c", "a * i", f"a * {z}", f"a + {s!r}", f"{z} - a", f"a * {s!r}", "h * 1j", f"h + {s!r}",
             "a.add(b, alpha=2)", "a.sub(b, alpha=-0.5)", "a.mul(h)",
             "a + torch.tensor(1.5, dtype=torch.float64)", "a + torch.tensor(1j)", "h + torch.tensor(1j)",
             "a.clone().add_(b)", "a.clone().mul_(f)", "a.clone().sub_(c)", "a.clone().mul_(2.5)", "f.clone().add_(a)",
             "a[a.abs() < 100].std()", "a.var()", "a.norm()", "a.dist(b)", "a.reshape(2, 4).var(0)", "torch.isclose(a, b)",
             "torch.isclose(a, a)", "torch.allclose(a, a)", "a == b", "a != b", "torch.result_type(a, 1.0)",
             "h < 1j", "a < b"]
    _check(setup, codes)


# --- the ops without a ComplexHalf kernel: PyTorch's error, in its words ---------------------------------------

_REFUSED = ["sum", "mean", "prod", "exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt", "rsqrt", "reciprocal",
            "square", "angle", "exp2", "expm1", "log1p", "log2", "log10", "asin", "acos", "atan", "sinh", "cosh",
            "asinh", "acosh", "atanh", "erf", "erfc", "erfinv", "digamma", "lgamma", "sinc", "logit", "frac", "round",
            "ceil", "floor", "trunc", "sign", "relu", "cumsum(0)", "cumprod(0)", "logcumsumexp(0)", "sum(0)",
            "mean(0)", "amax()", "amin()", "max()", "min()", "max(0)", "min(0)", "argmax()", "argmin()", "median()",
            "mode()", "sort()", "argsort()", "topk(1)", "nansum()", "softmax(0)", "log_softmax(0)", "logsumexp(0)",
            "clamp(min=1)", "clamp_min(1)", "clamp_max(1)", "pow(2)", "__pow__(2)", "__rpow__(2)", "div(2)",
            "__truediv__(x)", "__rtruediv__(2)", "fmod(2)", "remainder(2)", "floor_divide(x)", "atan2(x)",
            "hypot(x)", "maximum(x)", "minimum(x)", "fmax(x)", "fmin(x)", "lerp(x, 0.5)", "addcdiv(x, x)",
            "dot(x)", "vdot(x)", "copysign(1)", "nan_to_num()", "exp_()", "sin_()", "abs_()", "div_(2)",
            "rad2deg()", "deg2rad()", "signbit()", "isposinf()", "isneginf()", "gather(0, torch.tensor([0]))",
            "take(torch.tensor([0]))", "cummax(0)", "cummin(0)", "kthvalue(1)", "frexp()", "i0()", "hardshrink()",
            "xlogy(x)", "logaddexp(x)", "nextafter(x)", "igamma(x)", "heaviside(x)", "ge(x)", "lt(1)", "gt(x)",
            "le(x)", "logical_not()", "logical_and(x)", "bitwise_not()", "matmul(x)", "outer(x) if False else x.mv(x)",
            "pow(0)", "pow(1)", "pow(1.0)", "pow(0.5)", "pow(-1)", "pow(-0.5)", "__rpow__(1)", "__rpow__(2)",
            "div(2, rounding_mode='trunc')", "div(x, rounding_mode='floor')", "reshape(3, 1).softmax(0)",
            "reshape(3, 1).log_softmax(1)", "inverse()", "det()", "logdet()", "svd()", "qr()", "matrix_exp()",
            "unique()", "histc()", "random_()", "equal(x)", "nan_to_num_()", "count_nonzero(0)", "float_power(2)",
            "eq_(x)", "ne_(1)", "conj_physical_()", "hash_tensor()", "bitwise_left_shift(x)", "gcd(x)",
            "fill_diagonal_(2.5) if False else x.reshape(3, 1).fill_diagonal_(2.5)", "xlogy_(2)"]


@pytest.mark.parametrize("start", range(0, len(_REFUSED), 40))
def test_refusals_match_torch(start):
    setup = "x = torch.tensor([1 + 2j, 3 - 4j, 0.5j], dtype=torch.complex32)"
    _check(setup, [f"x.{m}" if m.endswith(")") else f"x.{m}()" for m in _REFUSED[start:start + 40]])


# --- autograd on complex32 -------------------------------------------------------------------------------------

def test_autograd_matches_torch():
    setup = "x = torch.tensor([1 + 2j, 3 - 4j], dtype=torch.complex32, requires_grad=True)"
    codes = ["x * 2", "x + x", "x.abs()", "x.sgn()", "-x", "x.conj()", "x[0]", "x[1:]", "x.clone()",
             "x.to(torch.complex64)", "x.real", "x.imag", "torch.view_as_real(x)", "x.exp()", "x.sum()", "x.detach()",
             "x.norm()",
             "[(x * 2).abs().backward(torch.ones(2, dtype=torch.float16)), x.grad][1]",
             "[(x + x).backward(torch.ones(2, dtype=torch.complex32)), x.grad][1]",
             "[(x * x).backward(torch.ones(2, dtype=torch.complex32)), x.grad][1]",
             "[x.abs().backward(torch.ones(2, dtype=torch.float16)), x.grad][1]",
             "[x.to(torch.complex64).abs().sum().backward(), x.grad][1]",
             "[torch.view_as_real(x).backward(torch.ones(2, 2, dtype=torch.float16)), x.grad][1]",
             "[x.real.backward(torch.ones(2, dtype=torch.float16)), x.grad][1]",
             "[(x * 3).sub(x).backward(torch.ones(2, dtype=torch.complex32)), x.grad][1]",
             "[x.clone().backward(torch.ones(2, dtype=torch.complex32)), x.grad][1]",
             "[x[0].backward(torch.tensor(1 + 1j, dtype=torch.complex32)), x.grad][1]",
             "torch.autograd.grad(x * 2, x, torch.ones(2, dtype=torch.complex32))"]
    _check(setup, codes)


# --- complex numbers meeting float16: complex32 results ----------------------------------------------------------

def test_half_with_complex_gives_complex32():
    setup = ("h = torch.tensor([1.0009765625, -2.5, 0.0, 65504.0], dtype=torch.float16); "
             "c = torch.tensor([1 + 2j, -0.5j, 3, 1e-7j], dtype=torch.complex32)")
    codes = ["h * 1j", "1j * h", "h - 2j", "h + torch.tensor(1j)", "h * torch.tensor(2j, dtype=torch.complex128)",
             "h.mul(1.5 + 0.5j)", "h == 1j", "h < 1j", "torch.where(h > 0, h, 1j)", "torch.tensor([True]) * c",
             "torch.tensor([1, 2, 3, 4], dtype=torch.int8) + c", "h + c", "h.float() + c", "h.double() * c",
             "torch.result_type(h, 1j)", "torch.promote_types(torch.float16, torch.complex64)"]
    _check(setup, codes)
    # under a float16 default dtype a Python complex number is complex32 (but torch.full's fill is complex64)
    codes = ["torch.tensor(1.5 + 2j)", "torch.tensor([1j, 2])", "torch.full((2,), 1j)", "torch.ones(2) * 1j",
             "torch.tensor([1, 2]) * 1j", "torch.tensor(2) + 1.5j", "torch.arange(3) * (1 + 1j)"]
    for lib in (torch, gradlab):
        lib.set_default_dtype(lib.float16)
    try:
        _check("", codes)
    finally:
        for lib in (torch, gradlab):
            lib.set_default_dtype(lib.float32)


@pytest.mark.parametrize("dtype", ["complex32", "complex64", "complex128"])
def test_complex_refusals_of_functions(dtype):
    """Functions that refuse any complex operand (gradlab computed kl_div of complex64 tensors, silently)."""
    setup = f"x = torch.tensor([[1 + 2j, 0.5], [3, -1j]], dtype=torch.{dtype}); r = x.real.float()"
    _check(setup, ["torch.kl_div(x, x)", "torch.kl_div(r, x)", "torch.kl_div(x, r)", "torch.normal(r, x)",
                   "torch.nn.functional.kl_div(x, x)", "torch.normal(r, x.abs().to(x.dtype))"])
