"""Elementwise numbers of every dtype, exactly as PyTorch computes them.

Generated calls run under gradlab and under torch, and must give the same outcome: the printed
result, its dtype, requires_grad and grad_fn name, or the exception's type and whole message, and
the same warnings (recorded with "always", so numpy's RuntimeWarnings cannot hide behind a filter).
Covered: every unary float op (integer, bool and uint8 inputs compute in float32), every operator
with a number on either side, tensor-tensor operators over all dtype pairs, the named arithmetic
methods (alpha, rounding_mode), integer division by zero, integer wrap-around, pow and its
gradients at 0, and float32/float16 values of the transcendental functions on random inputs.
"""
import inspect
import random
import warnings

import numpy as np
import pytest

import gradlab
from gradlab.ops import OPS
from machine import MKL_TAKES_INTELS_PATH, OTHER_CPU_REASON

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DTYPES = ["int8", "int16", "int32", "int64", "uint8", "bool", "float16", "float32", "float64"]
VALUES = {"bool": "[True, False, True]", "uint8": "[0, 7, 200]", "int8": "[-100, 0, 7]"}
FLOATS = "[-2.5, 0.0, 3.0, float('inf'), float('nan')]"


def values(dtype):
    return VALUES.get(dtype, FLOATS if dtype.startswith("float") else "[-5, 0, 7]")


def tensors(dtype):
    """A vector with edge values, a 0-d tensor, an empty one and a non-contiguous view."""
    t = f"torch.tensor({values(dtype)}, dtype=torch.{dtype})"
    return [t, f"torch.tensor({'True' if dtype == 'bool' else 3}, dtype=torch.{dtype})",
            f"torch.tensor([], dtype=torch.{dtype})", f"{t}.repeat(2)[::2]"]


def outcome(module, code):
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec("r = " + code, namespace)
            r = namespace["r"]
            if isinstance(r, (tuple, list)):
                result = [repr(v) for v in r]
            else:
                result = (repr(r), str(r.dtype).split(".")[-1], r.requires_grad,
                          type(r.grad_fn).__name__ if r.grad_fn is not None else None)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(codes):
    bad = []
    for code in codes:
        expected, got = outcome(torch, code), outcome(gradlab, code)
        if expected != got:
            bad.append(f"{code}\n   torch:   {expected}\n   gradlab: {got}")
    assert not bad, f"{len(bad)} of {len(codes)} differ:\n" + "\n".join(bad[:10])


# --- unary math: every float op of the table and every unary method --------------------------------

UNARY = sorted({key for key, op in OPS.items() if op.float_result and op.inputs == ("self",)
                and hasattr(gradlab.Tensor, key) and len(inspect.signature(op.forward).parameters) == 1} |
               {"exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos",
                "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "reciprocal", "neg", "abs", "sign", "round", "floor",
                "ceil", "trunc", "relu", "square", "arcsin", "arccos", "arctan", "negative", "absolute"})
UNARY_CASES = {d: [f"{t}.{u}()" for t in tensors(d) for u in UNARY] for d in DTYPES}


@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_math(dtype):
    check(UNARY_CASES[dtype])


def test_unary_list_covers_the_table():
    assert {"exp", "erf", "sigmoid", "reciprocal", "rsqrt", "tanh"} <= set(UNARY)


# --- operators with a number on either side ---------------------------------------------------------

SCALARS = ["2", "-3", "0", "1000", "2049", "2.5", "-0.5", "0.0", "0.1", "True", "False", "np.int64(2)",
           "np.float32(2.5)", "np.float64(0.5)", "np.bool_(True)", "np.int8(-2)"]
OPERATORS = ["+", "-", "*", "/", "//", "%", "**"]
SCALAR_CASES = {d: [c for t in tensors(d) for s in SCALARS + ["2**70"] for o in OPERATORS + ["<", "==", "&", "^"]
                    for c in (f"{s} {o} {t}", f"{t} {o} {s}")] for d in DTYPES}


@pytest.mark.parametrize("dtype", DTYPES)
def test_operators_with_numbers(dtype):
    check(SCALAR_CASES[dtype])


# --- tensor with tensor: every dtype pair, broadcast ---------------------------------------------------

ALL_OPERATORS = OPERATORS + ["&", "|", "^", "<", "==", ">="]


def tensor_cases(d1):
    cases = []
    for d2 in DTYPES:
        a, b = f"torch.tensor({values(d1)}, dtype=torch.{d1})", f"torch.tensor({values(d2)}, dtype=torch.{d2})"
        b = f"{b}.flip(0)[:3]"
        a = f"{a}[:3]"
        cases += [f"{a} {o} {b}" for o in ALL_OPERATORS]
        cases += [f"{a}[None] {o} {b}[:, None]" for o in ("+", "-", "//", "**")]
        cases += [f"{a} {o} torch.tensor(0, dtype=torch.{d2})" for o in ("/", "//", "%")]
    return cases


@pytest.mark.parametrize("dtype", DTYPES)
def test_operators_between_tensors(dtype):
    check(tensor_cases(dtype))


# --- named arithmetic --------------------------------------------------------------------------------

METHODS = ["add(t2, alpha=2)", "sub(t2, alpha=2)", "add(t2, alpha=1.5)", "add(t2, alpha=True)", "add(3, alpha=-1)",
           "sub(1, alpha=0.5)", "sub(True)", "add(2**64)", "mul(-2**63 - 1)", "div(t2, rounding_mode='trunc')",
           "div(t2, rounding_mode='floor')", "div(2, rounding_mode='trunc')", "div(-3, rounding_mode='floor')",
           "div(0, rounding_mode='trunc')", "div(2.5, rounding_mode='trunc')", "div(t2, rounding_mode='x')",
           "remainder(t2)", "remainder(-3)", "remainder(2.5)", "pow(t2)", "pow(2)", "pow(0.5)", "pow(-1)", "pow(3)",
           "pow(-2.5)", "pow(True)", "square()", "reciprocal()", "true_divide(t2)", "multiply(t2)", "subtract(t2)",
           "divide(t2)", "neg()"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_named_arithmetic(dtype):
    check([f"torch.tensor({values(dtype)}, dtype=torch.{dtype})[:3].{m}".replace(
        "t2", f"torch.tensor({values(d2)}, dtype=torch.{d2}).flip(0)[:3]") for d2 in DTYPES for m in METHODS])


# --- no numpy warning ever, integers wrap around -------------------------------------------------------

SILENT = ["torch.tensor([250, 3], dtype=torch.uint8) + 10", "torch.tensor([250, 3], dtype=torch.uint8) * 100",
          "torch.tensor([100], dtype=torch.int8) * 100", "torch.tensor([3e38]) * 10", "torch.tensor([3e38]) + 3e38",
          "torch.tensor([100.]).exp()", "torch.tensor([0., -1.]).log()", "torch.tensor([0.]) / 0",
          "torch.tensor([float('inf')]) - float('inf')", "torch.tensor([0., 1.]).reciprocal()", "torch.tensor([-1.]).sqrt()",
          "torch.tensor([2.]).asin()", "torch.tensor([1e30]).sinh()", "torch.tensor([1e30]).cosh()",
          "torch.tensor([-1e30, 1e30]).sigmoid()", "torch.tensor([0.]) ** -1", "0 ** torch.tensor([-1.])",
          "torch.tensor([-8.]) ** (1 / 3)", "torch.tensor([1e30], dtype=torch.float16)",
          "torch.tensor([60000.], dtype=torch.float16) * 2", "torch.tensor([0.]).rsqrt()", "torch.tensor([-1.]).log1p()",
          "torch.tensor([5]) // 0", "torch.tensor([5]) % torch.tensor([0])", "5 // torch.tensor([0, 1])",
          "torch.tensor([2**62]) * 4", "torch.tensor([1.]).div(0, rounding_mode='floor')",
          "torch.tensor([0.]).div(0., rounding_mode='trunc')", "torch.tensor([7], dtype=torch.uint8) - 10"]


def test_no_numpy_warnings_and_integer_wrap_around():
    check(SILENT)


# --- pow at 0 and its gradients ----------------------------------------------------------------------

def pow_grad_cases(dtype):
    x = f"torch.tensor([-2.0, -0.5, 0.0, 0.5, 1.0, 3.0], dtype=torch.{dtype}, requires_grad=True)"
    e = f"torch.tensor([2.0, 0.0, 0.0, 0.0, -2.0, 1.5], dtype=torch.{dtype}, requires_grad=True)"
    grad = "(lambda x: ((f(x)).sum().backward(), x.grad)[1])({x})"
    cases = [grad.replace("f(x)", f"x ** {p}").format(x=x)
             for p in ["0", "1", "2", "3", "0.5", "-0.5", "-1", "-2", "2.5", "-1.5", "0.0", "True"]]
    cases += [grad.replace("f(x)", f"{b} ** x").format(x=x) for b in ["0", "2", "-2", "0.5", "1", "2.5", "0.0"]]
    cases += [grad.replace("f(x)", "x ** x").format(x=x)]
    cases += [f"(lambda x, e: ((EXPR).sum().backward(), x.grad, e.grad)[1:])({x}, {e})".replace("EXPR", g)
              for g in ("x ** e", "e ** x", "x / e", "x % e", "e % x")]
    cases += [f"(lambda x: (x.div(2.5, rounding_mode='{m}').sum().backward(), x.grad)[1])({x})" for m in ("trunc", "floor")]
    cases += [f"{x}.div(2.5, rounding_mode='trunc')", f"{x} ** {e}", f"{x} ** 0.5", f"2 ** {x}"]
    return cases


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_pow_and_gradients_at_zero(dtype):
    check(pow_grad_cases(dtype))


# --- float32 and float16 values of the transcendental functions -------------------------------------

ROUNDED = ["exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos",
           "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "reciprocal"]
# ops PyTorch's CPU build computes with MKL's vector math (aten/src/ATen/cpu/vml.h): their last bits
# depend on the CPU vendor MKL sees
MKL_VML = {"exp", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin", "cos", "tan", "asin", "acos", "atan",
           "sinh", "cosh", "tanh", "erf"}
# the share of printed 0-d results that may differ (PyTorch's own kernels are not all correctly rounded:
# measured at most 0.93% for float32, for expm1; 0 for most ops)
TOLERANCE = {"float32": 0.015, "float16": 0.005}


def random_inputs(op, rng, n):
    out = []
    for _ in range(n):
        kind = rng.random()
        v = round(rng.uniform(-20, 20), rng.choice([0, 1, 2])) if kind < 0.4 else \
            rng.gauss(0, 2) if kind < 0.8 else rng.uniform(-100, 100)
        if op in ("log", "log2", "log10", "sqrt", "rsqrt"):
            v = abs(v)
        if op in ("asin", "acos"):
            v = max(-1.0, min(1.0, v / 10))
        out.append(v)
    return out


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("op", ROUNDED)
def test_printed_values_of_random_inputs(op, dtype):
    rng = random.Random(f"{op}-{dtype}")
    inputs = random_inputs(op, rng, 400)
    differ = [v for v in inputs if repr(getattr(torch.tensor(v, dtype=getattr(torch, dtype)), op)()) !=
              repr(getattr(gradlab.tensor(v, dtype=getattr(gradlab, dtype)), op)())]
    assert len(differ) <= TOLERANCE[dtype] * len(inputs), f"{op} {dtype}: {len(differ)} differ, e.g. {differ[:5]}"
    # a vector of 40 (a block of 32 for PyTorch's vectorized loop and 8 for its scalar loop) as well
    x = np.array(inputs[:40], dtype=dtype)
    expected = getattr(torch.from_numpy(x), op)().numpy()
    got = np.asarray(getattr(gradlab.tensor(x), op)())
    same = (expected == got) | (np.isnan(expected) & np.isnan(got))
    if same.mean() < 0.9 and not MKL_TAKES_INTELS_PATH and op in MKL_VML:
        pytest.xfail(OTHER_CPU_REASON)
    assert same.mean() >= 0.9, (op, dtype, x[~same])


ACTIVATIONS = ["gelu", "silu", "softplus", "elu", "sigmoid", "tanh", "relu", "leaky_relu"]


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64"])
@pytest.mark.parametrize("name", ACTIVATIONS)
def test_printed_activations(name, dtype):
    """nn.functional's activations follow PyTorch's formulas, including where they round (gelu(-5.5))."""
    rng = random.Random(f"{name}-{dtype}")
    inputs = random_inputs(name, rng, 300) + [-0.0, -5.5, 25.0, float("inf"), float("-inf"), float("nan")]
    differ = [v for v in inputs
              if repr(getattr(torch.nn.functional, name)(torch.tensor(v, dtype=getattr(torch, dtype)))) !=
              repr(getattr(gradlab.nn.functional, name)(gradlab.tensor(v, dtype=getattr(gradlab, dtype))))]
    assert len(differ) <= 0.01 * len(inputs), f"{name} {dtype}: {len(differ)} differ, e.g. {differ[:5]}"
