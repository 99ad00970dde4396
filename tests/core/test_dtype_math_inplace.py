"""In-place operators and the remaining elementwise differences, exactly as PyTorch.

An in-place op writes its result into the target, so the result type must cast to the target's
dtype by PyTorch's rule (no float into an integer tensor, nothing but bool into a bool tensor) and
the broadcast shape must be the target's. Generated statements run under gradlab and under torch;
the outcome compared is the target's printed value, dtype, requires_grad and grad_fn name, or the
exception's type and whole message, and the warnings.
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DTYPES = ["int8", "int16", "int64", "uint8", "bool", "float16", "float32", "float64"]
VALUES = {"bool": "[True, False, True]", "uint8": "[0, 7, 200]", "int8": "[-100, 1, 7]",
          "float16": "[-2.5, 1.0, 3.0]", "float32": "[-2.5, 1.0, 3.0]", "float64": "[-2.5, 1.0, 3.0]"}


def vector(dtype):
    return f"torch.tensor({VALUES.get(dtype, '[-5, 1, 7]')}, dtype=torch.{dtype})"


def outcome(module, code, name="a"):
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            r = namespace[name]
            result = (repr(r), str(r.dtype).split(".")[-1], r.requires_grad,
                      type(r.grad_fn).__name__ if r.grad_fn is not None else None)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(codes, name="a"):
    bad = []
    for code in codes:
        expected, got = outcome(torch, code, name), outcome(gradlab, code, name)
        if expected != got:
            bad.append(f"{code}\n   torch:   {expected}\n   gradlab: {got}")
    assert not bad, f"{len(bad)} of {len(codes)} differ:\n" + "\n".join(bad[:10])


# --- in-place operators: result type and shape -----------------------------------------------------

OPERATORS = ["+=", "-=", "*=", "/=", "**=", "//=", "%=", "&=", "|=", "^="]
METHODS = ["add_", "sub_", "mul_", "div_", "pow_"]


def others(dtype):
    """Numbers of each kind, tensors of each dtype (same shape, 0-d, [1] and a shape that grows the target)."""
    out = ["2", "-1", "1.5", "True", "0"]
    out += [vector(dtype)]
    out += [f"torch.tensor(2, dtype=torch.{dtype})", f"torch.tensor([2], dtype=torch.{dtype})",
            f"torch.ones(2, 3, dtype=torch.{dtype})"]
    return out


def inplace_cases(d1):
    codes = []
    for d2 in DTYPES:
        for other in others(d2):
            if d2 != d1 and not other.startswith("torch."):
                continue                               # numbers once per target dtype
            for op in OPERATORS:
                codes.append(f"a = {vector(d1)}; a {op} {other}")
                codes.append(f"a = torch.tensor(3, dtype=torch.{d1}); a {op} {other}")
            for m in METHODS:
                codes.append(f"a = {vector(d1)}; a.{m}({other})")
    return codes


@pytest.mark.parametrize("dtype", DTYPES)
def test_inplace_result_type_and_shape(dtype):
    check(inplace_cases(dtype))


def neighbour_cases():
    """Numpy scalars, huge ints, views, autograd targets (the leaf check comes first) and alpha."""
    codes = []
    for d in DTYPES:
        t = vector(d)
        for other in ["np.float64(1.5)", "np.int64(2)", "np.bool_(True)", "2**63", "-2**63", "2**64", "300",
                      "float('inf')", "[1, 2, 3]", "None", "'x'"]:
            for op in ["+=", "-=", "*=", "/=", "**=", "//=", "%=", "&=", "|="]:
                codes.append(f"a = {t}; a {op} {other}")
        for m in METHODS:
            codes.append(f"a = {t}.repeat(2)[::2]; a.{m}(2)")
            codes.append(f"a = {t}.t() if False else {t}.expand(2, 3); a.{m}(2)")
            codes.append(f"a = {t}; a.{m}(torch.tensor([[1], [2]], dtype=torch.{d}))")
        if d.startswith("float"):
            for op in ["+=", "*=", "/=", "%=", "//="]:
                codes.append(f"x = {t}.requires_grad_(); a = x * 1; a {op} torch.tensor([2, 3, 4], dtype=torch.{d})")
                codes.append(f"a = {t}.requires_grad_(); a {op} torch.ones(2, 3, dtype=torch.{d})")
                codes.append(f"a = {t}.requires_grad_(); a {op} 2")
                codes.append(f"x = {t}.requires_grad_(); a = x * 1; a {op} torch.ones(2, 3)")
        for alpha in ["2", "1.5", "True"]:
            codes.append(f"a = {t}; a.add_(torch.tensor([1, 1, 1], dtype=torch.{d}), alpha={alpha})")
            codes.append(f"a = {t}; a.sub_(1, alpha={alpha})")
    return codes


def test_inplace_neighbours():
    check(neighbour_cases())


# --- an explicit rounding_mode=None, huge Python ints ----------------------------------------------

def division_cases():
    codes = []
    for d1 in DTYPES:
        for d2 in DTYPES:
            for form in ["a = x.div(y, rounding_mode=None)", "a = torch.div(x, y, rounding_mode=None)",
                         "a = x.divide(y, rounding_mode=None)", "a = x.div(y)"]:
                codes.append(f"x = {vector(d1)}; y = {vector(d2)}; {form}")
        for other in ["2", "2.5", "True", "torch.tensor(2.)"]:
            codes.append(f"x = {vector(d1)}; a = x.div({other}, rounding_mode=None)")
        if d1.startswith("float"):
            for other in ["2", "2.5", f"torch.tensor([2, 4, 8], dtype=torch.{d1}, requires_grad=True)"]:
                codes.append(f"x = {vector(d1)}.requires_grad_(); a = x.div({other}, rounding_mode=None)")
                codes.append(f"x = {vector(d1)}.requires_grad_(); y = x.div({other}, rounding_mode=None); "
                             f"y.sum().backward(); a = x.grad")
                codes.append(f"x = {vector(d1)}.requires_grad_(); y = {other}; "
                             f"z = x.div(y, rounding_mode=None) if True else 0; "
                             f"z.sum().backward(); a = y.grad if isinstance(y, torch.Tensor) else x.grad")
        for big in ["2**63", "-2**63", "2**64", "2**63 - 1"]:
            for op in ["+", "-", "*", "/"]:
                codes.append(f"x = {vector(d1)}; a = x {op} ({big})")
                codes.append(f"x = {vector(d1)}; a = ({big}) {op} x")
    return codes


def test_division_overloads_and_huge_ints():
    check(division_cases())


# --- fmod: C's remainder (the dividend's sign), FmodBackward0/1 ------------------------------------

def fmod_cases():
    codes = []
    for d1 in DTYPES:
        x = vector(d1)
        for d2 in DTYPES:
            codes.append(f"a = {x}.fmod({vector(d2)})")
            codes.append(f"a = torch.fmod({x}, torch.tensor(0, dtype=torch.{d2}))")
        for other in ["2", "-3", "2.5", "0", "0.0", "True", "300", "2**64", "float('inf')", "'x'", "None", "[2]"]:
            codes.append(f"a = {x}.fmod({other})")
            codes.append(f"a = torch.fmod({x}, {other})")
        codes.append(f"a = torch.fmod(2, {x})")
        codes.append(f"a = {x}.fmod(torch.ones(2, 1, dtype=torch.{d1}))")
        if d1.startswith("float"):
            y = f"torch.tensor([2., -1.5, 2.], dtype=torch.{d1}, requires_grad=True)"
            codes.append(f"x = {x}.requires_grad_(); a = x.fmod(1.5)")
            codes.append(f"x = {x}.requires_grad_(); y = {y}; a = torch.fmod(x, y)")
            codes.append(f"x = {x}.requires_grad_(); y = {y}; torch.fmod(x, y).sum().backward(); a = y.grad")
            codes.append(f"x = {x}.requires_grad_(); y = {y}; torch.fmod(x, y).sum().backward(); a = x.grad")
    return codes


def test_fmod():
    check(fmod_cases())


# --- float16 gradients: fused kernels (tanh_backward) and float constants in float32 ---------------

GRAD_OPS = ["tanh", "sigmoid", "erf", "log2", "log10", "rsqrt", "reciprocal", "exp", "sqrt", "log"]


def grad_cases(op, dtype):
    rng = random.Random(op)
    positive = op in ("log2", "log10", "rsqrt", "sqrt", "log")
    xs = [round(rng.uniform(0.05 if positive else -3, 3), 3) for _ in range(40)]
    ws = [round(rng.uniform(-2, 2), 2) for _ in range(40)]
    x = f"x = torch.tensor({xs}, dtype=torch.{dtype}, requires_grad=True)"
    w = f"torch.tensor({ws}, dtype=torch.{dtype})"
    call = {"rpow": "2 ** x", "rpow2.5": "2.5 ** x", "rdiv": "3 / x"}.get(op, f"x.{op}()")
    return [f"{x}; {call}.sum().backward(); a = x.grad", f"{x}; ({call} * {w}).sum().backward(); a = x.grad"]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", GRAD_OPS + ["rpow", "rpow2.5", "rdiv"])
def test_gradients_rounded_as_pytorch(op, dtype):
    check(grad_cases(op, dtype))


# --- operators: shapes are checked before dtypes; unary plus ---------------------------------------

def operator_shape_cases():
    codes = []
    for d1 in DTYPES:
        for d2 in DTYPES:
            for op in ["&", "|", "^", "+", "-", "*", "/", "//", "%", "**"]:
                codes.append(f"a = {vector(d1)} {op} torch.ones(4, dtype=torch.{d2})")
            for op in ["%=", "//=", "&=", "+=", "/="]:
                codes.append(f"a = {vector(d1)}; a {op} torch.ones(4, dtype=torch.{d2})")
            codes.append(f"a = torch.zeros(1, 0, dtype=torch.{d1}).expand(2, 0); a = a.divide(torch.ones(3))")
            codes.append(f"a = torch.zeros(1, 0, dtype=torch.{d1}).expand(2, 0).clone(); a &= torch.ones(1, dtype=torch.{d2})")
            codes.append(f"a = torch.zeros(1, 0, dtype=torch.{d1}).expand(2, 0).clone(); a /= torch.ones(1, dtype=torch.{d2})")
        codes.append(f"a = +{vector(d1)}")
        codes.append(f"a = +torch.zeros(0, dtype=torch.{d1})")
    return codes


def test_operator_shapes_before_dtypes():
    check(operator_shape_cases())


# --- lerp: PyTorch's two-sided formula (inf inputs, weight 1 exact), fused in float32 --------------

def lerp_cases():
    rng = random.Random(3)
    codes = []
    for d in ["float16", "float32", "float64"]:
        # (float64: weights whose products are exact, as PyTorch's fused multiply-add is not emulated there)
        weights = ["0.5", "0.25", "1.0", "0.0", "2.0", "-1.0"] + ([] if d == "float64" else ["0.7", "-0.6", "0.3"])
        for _ in range(40):
            xs = [rng.choice([round(rng.uniform(-5, 5), 4), float("inf"), -float("inf"), 0.0]) for _ in range(6)]
            es = [round(rng.uniform(-5, 5), 4) for _ in range(6)]
            w = rng.choice(weights)
            x = f"torch.tensor({xs}, dtype=torch.{d})".replace("inf", "float('inf')")
            e = f"torch.tensor({es}, dtype=torch.{d})"
            codes.append(f"a = torch.lerp({x}, {e}, {w})")
            codes.append(f"a = torch.lerp({x}, torch.ones_like({x}), {w})")
            codes.append(f"a = {x}.lerp({e}, torch.full((6,), {w}, dtype=torch.{d}))")
            codes.append(f"a = {x}.lerp({e}, torch.tensor({w}, dtype=torch.{d}))")
            codes.append(f"x = {x}.requires_grad_(); a = torch.lerp(x, {e}, {w})")
    return codes


def test_lerp():
    check(lerp_cases())


# --- clamp_'s bounds, empty expanded targets, a number on the left of bitwise ops -------------------

def clamp_and_empty_cases():
    cases = []
    for d in DTYPES:
        for bounds in ("2.5", "0, 2.5", "2", "None, 1", "-1, 2", "True", "0.5, 1"):
            cases.append(f"a = {vector(d)}\na.clamp_({bounds})")
            cases.append(f"a = {vector(d)}[:1].expand(3)\na.clamp_({bounds})")
            cases.append(f"a = {vector(d)}\na = torch.clamp_(a, {bounds})")
            cases.append(f"a = {vector(d)}.clamp({bounds})")
        for bound in ("300", "-300", "-1", "255", "-128", "True"):
            cases += [f"a = {vector(d)}.clamp_min({bound})", f"a = {vector(d)}.clamp_max({bound})",
                      f"a = {vector(d)}.clamp({bound}, None)"]
        for op in ("exp_()", "log10_()", "add_(1.5)", "mul_(2)", "clamp_(0.5)", "abs_()", "zero_()"):
            cases.append(f"a = torch.zeros(1, 0, dtype=torch.{d}).expand(2, 0)\na.{op}")
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        for left, right in (("3", "torch.tensor([1, 2])"), ("np.int64(3)", "torch.tensor([1., 2.])"),
                            ("True", "torch.tensor([True, False])"), ("2", "torch.tensor([5], dtype=torch.int8)")):
            cases.append(f"a = torch.{name}(self={left}, other={right})")
            cases.append(f"a = torch.{name}({left}, {right})")
    return cases


def test_clamp_bounds_empty_expanded_targets_and_bitwise_scalar_left():
    check(clamp_and_empty_cases())
