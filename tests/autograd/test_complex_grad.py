"""Gradients of complex tensors, generated programs against live torch.

PyTorch's convention for a complex input z is the conjugate Wirtinger one: the gradient it passes
back is conj(dL/dz) scaled, so the formulas carry complex conjugates (derivatives.yaml: mul's
`grad * other.conj()`, exp's `grad * result.conj()`, mm's `grad @ mat2.mH`). Without them a complex
gradient is silently wrong. A real leaf used with a complex one gets the real part of its gradient,
as PyTorch returns it (handle_r_to_c).

Each seed makes one small program over complex64/complex128 leaves (and sometimes a real leaf of
the matching precision), ending in a real loss (`.abs().sum()`, or a plain `.sum()` of a real result)
or in `backward(gradient=...)` with a complex gradient. Every leaf's `.grad` (None-ness, dtype,
values) must be torch's. Seeds are fixed: a failure names its program.
"""
import random

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

# statements over {a} (and {b}): every one complex-safe in both libraries
UNARY = ["-{a}", "{a}.exp()", "({a} * 0.5).exp()", "{a}.log()", "{a}.sqrt()", "{a}.reciprocal()", "{a}.sin()",
         "{a}.cos()", "{a}.abs()", "{a} ** 2", "{a} ** 3", "{a} ** 0.5", "{a} ** -1", "{a} ** 2.5", "{a}.pow(1.5)",
         "{a} * (1 - 2j)", "{a} * 2", "{a} + 2", "2 - {a}", "{a} / 3j", "{a} / 2", "2 / {a}", "(1 + 1j) / {a}",
         "{a}.sum(0)", "{a}.sum()", "{a}.mean()", "{a}.mean(1, keepdim=True)", "{a}.sum(-1)",
         "{a}.reshape(-1)", "{a}.view(-1)", "{a}[0]", "{a}[:, 1:]", "{a}.t()", "{a}.exp().log()",
         "{a}.sgn()", "{a}.square()", "{a}.rsqrt()", "{a}.expm1()", "{a}.log1p()", "{a}.log2()", "{a}.log10()",
         "{a}.sinh()", "{a}.cosh()", "{a}.tan()", "{a}.tanh()", "{a}.sigmoid()", "({a} * 0.5).asin()",
         "({a} * 0.5).acos()", "{a}.atan()", "{a}.prod()", "{a}.prod(1)", "{a}.cumsum(0)",
         "{a}.cumprod(1)", "{a}.logsumexp(1)", "torch.lerp({a}, {a} * 2j, 0.3)", "2 ** {a}", "(1 + 1j) ** {a}",
         "(0.5 - 2j) ** {a}"]
BINARY = ["{a} + {b}", "{a} - {b}", "{a} * {b}", "{a} / {b}", "{a} ** {b}", "{a}.add({b}, alpha=2)",
          "{a}.sub({b}, alpha=3)", "torch.mul({a}, {b})", "torch.div({a}, {b})",
          "{a}.add({b}, alpha=1 - 2j)", "{a}.sub({b}, alpha=2j)", "torch.addcmul({a}, {a}, {b}, value=2)",
          "torch.addcdiv({a}, {a}, {b}, value=0.5)", "torch.addcmul({a}, {b}, {b}, value=1 + 1j)",
          "torch.lerp({a}, {b}, {b})", "torch.lerp({a}, {b}, 0.75)"]


def _values(rnd, shape, dtype):
    """Moderate values away from 0 and from the negative real axis (log's and sqrt's branch cut)."""
    n = int(np.prod(shape))
    re = [rnd.uniform(0.4, 1.6) for _ in range(n)]
    if dtype.startswith("complex"):
        im = [rnd.uniform(-1.0, 1.0) for _ in range(n)]
        return np.array([complex(r, i) for r, i in zip(re, im)]).reshape(shape)
    return np.array(re).reshape(shape)


def program(seed):
    """(leaves: [(name, dtype, values)], statements, how the loss is taken)."""
    rnd = random.Random(seed)
    complex_dtype = rnd.choice(["complex64", "complex128"])
    real_dtype = "float32" if complex_dtype == "complex64" else "float64"
    leaves = [("x", complex_dtype, _values(rnd, (2, 3), complex_dtype)),
              ("y", complex_dtype, _values(rnd, (2, 3), complex_dtype))]
    if rnd.random() < 0.5:       # a real leaf mixed in: its gradient is the real part
        leaves.append(("r", real_dtype, _values(rnd, (2, 3), real_dtype)))
    names = [name for name, _, _ in leaves]
    lines = []
    for step in range(rnd.randint(2, 4)):
        a, b = rnd.choice(names), rnd.choice(names)
        name = f"v{step}"
        if rnd.random() < 0.5:
            lines.append(f"{name} = " + rnd.choice(BINARY).format(a=a, b=b))
        else:
            lines.append(f"{name} = " + rnd.choice(UNARY).format(a=a))
        names.append(name)
    last = names[-1]
    loss = rnd.choice(["abs", "gradient"])
    return leaves, lines, last, loss


def _leaf(lib, name, dtype, values):
    return lib.tensor(values, dtype=getattr(lib, dtype), requires_grad=True)


def run(lib, seed):
    leaves, lines, last, loss = program(seed)
    env = {"torch": lib}
    for name, dtype, values in leaves:
        env[name] = _leaf(lib, name, dtype, values)
    try:
        for line in lines:
            exec(line, env)
    except (RuntimeError, IndexError) as error:      # (shapes that do not broadcast: both must refuse)
        return error
    out = env[last]
    if not out.requires_grad:
        return None
    if loss == "gradient" and out.is_complex():
        rnd = np.random.default_rng(seed)
        gradient = rnd.normal(size=tuple(out.shape)) + 1j * rnd.normal(size=tuple(out.shape))
        out.backward(gradient=lib.tensor(gradient, dtype=out.dtype))
    else:
        (out.abs() if out.is_complex() else out).sum().backward()
    return {name: env[name].grad for name, _, _ in leaves}


def _array(t):
    """A gradient's values (a ZeroTensor's too: sgn's gradient of a real input is one)."""
    if getattr(t, "_is_zerotensor", lambda: False)():
        return np.zeros(tuple(t.shape))
    return np.array(t.tolist())


def _text(seed):
    leaves, lines, last, loss = program(seed)
    return "; ".join([f"{n}: {d}" for n, d, _ in leaves] + lines + [f"loss: {loss} of {last}"])


@pytest.mark.parametrize("seed", range(300))
def test_generated_program_gradients_match_torch(seed):
    expected = run(torch, seed)
    got = run(gradlab, seed)
    if isinstance(expected, Exception):
        assert type(got) is type(expected), f"{_text(seed)}: torch raised {expected!r}, gradlab gave {got!r}"
        return
    if expected is None:
        assert got is None, _text(seed)
        return
    for name, want in expected.items():
        have = got[name]
        assert (have is None) == (want is None), f"{_text(seed)}: {name}.grad is {have}, torch {want}"
        if want is None:
            continue
        assert str(have.dtype) == str(want.dtype), f"{_text(seed)}: {name}.grad dtype {have.dtype}, torch {want.dtype}"
        single = want.dtype in (torch.complex64, torch.float32)
        np.testing.assert_allclose(_array(have), _array(want), rtol=2e-4 if single else 1e-9,
                                   atol=1e-5 if single else 1e-12, err_msg=_text(seed))


# --- the matrix products: grad @ mat2.mH, self.mH @ grad, ... ---------------------------------------

MATRIX = [("mm", "torch.mm(a, b)", (2, 3), (3, 4)), ("matmul", "a @ b", (2, 3), (3, 4)),
          ("matmul_batched", "a @ b", (2, 2, 3), (3, 4)), ("bmm", "torch.bmm(a, b)", (2, 2, 3), (2, 3, 4)),
          ("mv", "torch.mv(a, b)", (2, 3), (3,)), ("matmul_mv", "a @ b", (2, 3), (3,)),
          ("vm", "a @ b", (3,), (3, 4)), ("dot", "torch.dot(a, b)", (3,), (3,)),
          ("matmul_dot", "a @ b", (3,), (3,)), ("addmm", "torch.addmm(a.sum(), a, b)", (2, 3), (3, 4))]


# (addmm's self and mat1 are the same tensor here, so it has one kind: both complex)
MATRIX_CASES = [(*m, precision, kinds) for m in MATRIX for precision in ("single", "double")
                for kinds in (("cc",) if m[0] == "addmm" else ("cc", "cr", "rc"))]


@pytest.mark.parametrize("name,expr,shape_a,shape_b,precision,kinds", MATRIX_CASES,
                         ids=[f"{c[0]}-{c[4]}-{c[5]}" for c in MATRIX_CASES])
def test_matrix_product_gradients_match_torch(name, expr, shape_a, shape_b, precision, kinds):
    dtypes = {"c": "complex64" if precision == "single" else "complex128",
              "r": "float32" if precision == "single" else "float64"}
    rnd = random.Random(f"{name}{precision}{kinds}")
    values = [_values(rnd, shape_a, dtypes[kinds[0]]), _values(rnd, shape_b, dtypes[kinds[1]])]
    results = []
    for lib in (torch, gradlab):
        a = lib.tensor(values[0], dtype=getattr(lib, dtypes[kinds[0]]), requires_grad=True)
        b = lib.tensor(values[1], dtype=getattr(lib, dtypes[kinds[1]]), requires_grad=True)
        if kinds != "cc":     # (the products refuse mixed dtypes: cast first; the real leaf gets the real part)
            env = {"torch": lib, "a": a.to(getattr(lib, dtypes["c"])), "b": b.to(getattr(lib, dtypes["c"]))}
        else:
            env = {"torch": lib, "a": a, "b": b}
        out = eval(expr, env)
        out.abs().sum().backward()
        results.append((a.grad, b.grad))
    for want, have in zip(results[0], results[1]):
        assert str(have.dtype) == str(want.dtype)
        np.testing.assert_allclose(_array(have), _array(want), rtol=2e-4 if precision == "single" else 1e-9,
                                   atol=1e-5 if precision == "single" else 1e-12)


# --- second order: the conjugates are recorded too ----------------------------------------------------

@pytest.mark.parametrize("expr", ["x * y", "x / y", "x.exp()", "x ** 2", "x.log()", "x.sin()", "(x @ y.t()).sum()",
                                  "x.tanh() * y", "x.sigmoid() * y", "x.sgn() * y", "x.abs() * y", "x.reciprocal()",
                                  "x.sqrt()", "x ** y", "torch.mv(x, y[0])", "x.angle() * y", "x.conj() * y"])
def test_create_graph_gradients_match_torch(expr):
    rnd = random.Random(expr)
    values = [_values(rnd, (2, 3), "complex128"), _values(rnd, (2, 3), "complex128")]
    results = []
    for lib in (torch, gradlab):
        x = lib.tensor(values[0], dtype=lib.complex128, requires_grad=True)
        y = lib.tensor(values[1], dtype=lib.complex128, requires_grad=True)
        out = eval(expr, {"x": x, "y": y, "torch": lib})
        (gx,) = lib.autograd.grad(out.abs().sum(), x, create_graph=True)
        gx.abs().sum().backward()
        results.append((gx.detach(), x.grad, y.grad))
    for want, have in zip(results[0], results[1]):
        assert (have is None) == (want is None)
        if want is not None:
            np.testing.assert_allclose(_array(have), _array(want), rtol=1e-9, atol=1e-12)


# --- backward() of a complex output --------------------------------------------------------------------

@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_backward_of_a_complex_scalar_needs_a_gradient(dtype):
    messages = []
    for lib in (torch, gradlab):
        x = lib.tensor([1 + 2j, 3 - 1j], dtype=getattr(lib, dtype), requires_grad=True)
        with pytest.raises(RuntimeError) as info:
            (x * x).sum().backward()
        messages.append(str(info.value))
    assert messages[0] == messages[1]
