"""torch.testing.assert_close: passes and fails as PyTorch's, with its message, on generated pairs."""
import itertools

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

BASES = ["torch.tensor([1., 2., 3.])", "torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)",
         "torch.tensor([1, 2, 3])", "torch.tensor([True, False])", "torch.tensor(2.5)", "torch.tensor([0., 1.])"]
CHANGES = ["{b}", "{b} + 1e-6", "{b} + 0.5", "{b} * 1.01", "{b}.double()", "{b}.reshape(-1)[:1]",
           "{b} * 0", "{b}.clone().fill_(float('nan')) if {b}.is_floating_point() else {b}", "[{b}, {b} + 1]"]
OPTIONS = ["", ", rtol=0, atol=0.01", ", equal_nan=True", ", check_dtype=False", ", rtol=0.1"]
NUMBERS = [("1.0", "1.0"), ("1.0", "1.1"), ("1", "2"), ("1", "1.0"), ("[1.0, 2.0]", "[1.0, 2.5]"),
           ("{'a': torch.ones(2)}", "{'a': torch.zeros(2)}"), ("torch.ones(1)", "1.0")]


def _outcome(T, actual, expected, options):
    env = {"torch": T}
    try:
        eval(f"torch.testing.assert_close({actual}, {expected}{options})", env)
        return "ok"
    except Exception as e:
        text = str(e).replace("gradlab.Tensor", "torch.Tensor")
        return f"{type(e).__name__}: {text}"


@pytest.mark.parametrize("base,change,options", list(itertools.product(BASES, CHANGES, OPTIONS)))
def test_tensor_pairs(base, change, options):
    expected = change.format(b=base)
    if expected.startswith("["):
        base = f"[{base}, {base}]"
    assert _outcome(gradlab, base, expected, options) == _outcome(torch, base, expected, options)


@pytest.mark.parametrize("actual,expected", NUMBERS)
def test_numbers_and_containers(actual, expected):
    assert _outcome(gradlab, actual, expected, "") == _outcome(torch, actual, expected, "")
