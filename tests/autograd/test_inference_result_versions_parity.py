"""The version of an op's result when its inputs are inference tensors, outside inference_mode (the program fuzzer's
seeds 267, 446, 608, 1638, 3338, 3642, 3740, 4068, 4367).

PyTorch runs such an op's kernel without its autograd layer; a kernel that writes its new result through another op
(copy_, fill_, an out= op, sum then div_ for mean) counts those writes on the result, which is an ordinary tensor:
`x.sum()` is at version 1, `x.mean()` at 2, `x + 1` at 0. Generated cases: each expression of the fuzzer's grammar
(its unary ops, reductions, views and copies, binary ops, conversions) on every shape and dtype, the version read
under gradlab and under torch.
"""
import itertools
import sys
import warnings
from pathlib import Path

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

sys.path.insert(0, str(Path(__file__).parents[1] / "fuzz"))
import programs_grammar as G  # noqa: E402

EXPRESSIONS = (
    [f"x.{u}()" for u in G.UNARY] + [f"{u}(x)" for u in G.UNARY_FN] + [f"x.{r}" for r in G.REDUCE]
    + [f"x{v}" for v in G.VIEWS if "%s" not in v] + [f"x {o} 2" for o in G.BINARY_OPS]
    + [f"2 {o} x" for o in G.BINARY_OPS if o != "**"] + [f"x {o} x" for o in G.BINARY_OPS]
    + [f"{f}(x, x)" for f in G.BINARY_FN] + [f"{f}(x, 2)" for f in G.BINARY_FN]
    + ["x.double()", "x.float()", "x.long()", "x.int()", "x.to(torch.float64)", "x.type(torch.int32)", "x.bool()",
       "x.half()", "x.double() @ x.double().t()", "torch.clone(x)", "x.max(0).values", "x.min(-1).indices",
       "torch.zeros_like(x)", "torch.full_like(x, 3.0)", "x.new_zeros(2)", "x.new_ones(2)", "x.masked_fill(x < 0, 0)",
       "x[[0]]", "x[x > 0]", "torch.cat([x, x])", "x.mean(0)", "F.mse_loss(x, x)", "torch.sort(x).values",
       "x.expand(2, -1).clone()", "x.repeat(2)", "torch.where(x > 0, x, 0.)", "x.logical_not()", "x.ceil()",
       "x.amin()", "x.nan_to_num()", "x.aminmax()[0]", "x.norm(dim=0)", "x.t().reshape(-1)", "x.t().contiguous()",
       "x.median(0).values", "x.std(0)", "x.var()"])
SHAPES = [(), (3,), (2, 3), (1, 3), (2, 1)]
DTYPES = ["float32", "float64", "int64", "int32", "bool"]


def versions(module, expression):
    """The result's version for each shape and dtype (or what reading it, or the op, raised)."""
    out = []
    for shape, dtype in itertools.product(SHAPES, DTYPES):
        n = 1
        for size in shape:
            n *= size
        with module.inference_mode():
            x = (module.arange(float(n)).reshape(shape) - 1).to(getattr(module, dtype))
        namespace = {"torch": module, "F": module.nn.functional, "x": x}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                result = eval(expression, namespace)
            except Exception as error:  # noqa: BLE001 - the op refusing a dtype is compared too
                out.append(type(error).__name__)
                continue
            try:
                out.append(tuple(r._version for r in result) if isinstance(result, tuple) else result._version)
            except RuntimeError as error:       # (an inference tensor itself: x.float() of a float32 x)
                out.append(str(error))
    return out


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_result_versions(expression):
    assert versions(gradlab, expression) == versions(torch, expression)


def test_inside_inference_mode_results_have_no_version():
    """(The rule is for results made outside inference_mode: inside, every result is an inference tensor.)"""
    for module in (gradlab, torch):
        with module.inference_mode():
            x = module.ones(2, 3)
            with pytest.raises(RuntimeError, match="Inference tensors do not track version counter"):
                x.sum()._version


def test_normal_inputs_stay_at_version_0():
    """An input that is not an inference tensor: every result at version 0, in both."""
    for expression in ("x.sum()", "x.mean()", "x.clone()", "x.double()", "x.all()", "x.new_zeros(2)"):
        for module in (gradlab, torch):
            x = module.ones(2, 3)
            assert eval(expression, {"x": x})._version == 0, (module.__name__, expression)
