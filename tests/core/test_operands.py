"""What a tensor computes with, written with an operator or a method: exactly what PyTorch does.

PyTorch's operators take a Tensor, a Python number or a numpy scalar. Anything else is left to
Python: `t * [1, 2]` fails with Python's (or the list's) TypeError, and `t * np_array` is computed
by numpy (a float64 Tensor back, or "Can't call numpy()" when t requires grad). The named forms
(`t.mul([1, 2])`) raise PyTorch's argument errors. Every case below runs under gradlab and under
torch; the outcome (result dtype, requires_grad and values, or the exception's type and whole
message) must be the same.
"""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

OPERATORS = ["+", "-", "*", "/", "**", "//", "%", "@", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^"]
OPERANDS = ["[1, 2]", "[1., 2.]", "(1, 2)", "np.ones(2)", "np.ones(2, np.float32)", "np.ones(2, np.int64)",
            "np.array(2.0)", "np.float64(2)", "np.bool_(True)", "None", "'a'"]
TENSORS = ["torch.ones(2)", "torch.ones(2, requires_grad=True)", "torch.ones(2, dtype=torch.int64)"]

OPERATOR_CASES = [f"r = {t} {op} {o}" for t in TENSORS for o in OPERANDS for op in OPERATORS] + \
                 [f"r = {o} {op} {t}" for t in TENSORS for o in OPERANDS for op in OPERATORS]

METHODS = ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "pow", "remainder", "matmul",
           "maximum", "minimum", "eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal",
           "not_equal"]
METHOD_CASES = [f"r = t.{m}({o})" for m in METHODS for o in
                ["[1, 2]", "(1., 2)", "np.ones(2)", "None", "'a'", "2", "np.float64(2)", "torch.ones(2)", "[]", "[[1]]"]]

OTHER_CASES = [
    "t += [1., 2.]; r = t", "t *= [1., 2.]; r = t", "t -= (1, 2); r = t", "t /= None; r = t",
    "t += np.ones(2, np.float32); r = t", "t += np.ones(2); r = t",          # numpy computes t + array: a new tensor
    "y = tr * 1; y += np.ones(2, np.float32); r = y", "t **= [2]; r = t", "t += 1; r = t",
    "r = 2 % t", "r = 2.5 % torch.ones(2, dtype=torch.int64)", "r = np.float32(3) - t", "r = np.int64(3) // t",
    "r = sum([t, t])", "r = [t] * 2", "r = t in [t]",
    "r = ~torch.ones(2)", "r = 2 ** torch.ones(2, dtype=torch.int64)", "r = np.int64(2) ** torch.ones(2)",
    "r = torch.ones(2, dtype=torch.int64) % 2.5", "r = torch.ones(2, dtype=torch.int64).remainder(2.5)",
    # no derivative: the graph goes on through a NotImplemented node, and backward fails with PyTorch's words
    "r = tr // 2; r.sum().backward()", "r = 2 % tr; r.sum().backward()", "r = (tr // 2).grad_fn.name()",
    "r = len((tr // t).grad_fn.next_functions)", "r = len((tr // tr).grad_fn.next_functions)",
    "r = tr % (tr + 1); r.sum().backward(); r = tr.grad", "r = (tr % t).grad_fn.name()",
    "r = torch.ones(2, dtype=torch.int64) % torch.tensor([2, 3])",
    # numpy functions on tensors: numpy computes, the result comes back as a Tensor
    "r = np.exp(t)", "r = np.add(t, 1)", "r = np.maximum(t, 0)", "r = np.clip(t, 0, 1)", "r = np.isnan(t)",
    "r = np.exp(torch.tensor(1.))", "r = np.exp(tr)", "r = np.asarray(t)", "r = np.dot(t, t)", "r = np.stack([t, t])",
]


def outcome(module, code):
    namespace = {"torch": module, "np": np, "t": module.ones(2), "tr": module.ones(2, requires_grad=True)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # torch's own __array_wrap__ DeprecationWarning
        try:
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {error}"
    r = namespace["r"]
    if isinstance(r, (torch.Tensor, gradlab.Tensor)):
        return f"{type(r).__name__} {str(r.dtype)} requires_grad={r.requires_grad} {r.tolist()}"
    if isinstance(r, list):
        return f"list of {len(r)}"
    return f"{type(r).__name__} {r!r}"


@pytest.mark.parametrize("code", OPERATOR_CASES + METHOD_CASES + OTHER_CASES)
def test_same_outcome_as_pytorch(code):
    assert outcome(gradlab, code) == outcome(torch, code)
