"""Off the tutorial paths: indexing, reductions, shape ops and matrix products behave as in PyTorch.

Each case is an expression run under gradlab and under torch on the same inputs (built by a setup
line). The outcome must be the same: the printed result, dtype, requires_grad and grad_fn name, or
the exception's type and message, and the warnings (category and message). Cases are generated:
ops x dtypes x shapes (0-d, empty, non-contiguous) x dims (in and out of range) x argument kinds.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_INTERNAL = ("AxisError", "numpy", "_data", "ndarray", "tuple index out of range", "too many indices for array")


def _describe(r):
    if isinstance(r, (torch.Tensor, gradlab.Tensor)):
        grad_fn = type(r.grad_fn).__name__ if r.grad_fn is not None else None
        return ("tensor", repr(r), str(r.dtype), r.requires_grad, grad_fn)
    if isinstance(r, (tuple, list)):
        return (type(r).__name__ if type(r) in (tuple, list) else "tuple",) + tuple(_describe(x) for x in r)
    return ("value", repr(r))


def outcome(module, setup, expression):
    env = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        exec(setup, env)
        try:
            result = ("ok", _describe(eval(expression, env)))
        except Exception as e:    # noqa: BLE001 (the exception is the outcome)
            result = ("error", type(e).__name__, str(e).split("\n")[0])
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def check(setup, expression):
    expected = outcome(torch, setup, expression)
    got = outcome(gradlab, setup, expression)
    if got != expected and got[0][0] == "error":      # numpy's own words are a failure of their own
        assert not any(s in got[0][1] + got[0][2] for s in _INTERNAL), got
    assert got == expected


def _ids(cases):
    return [f"{s} :: {e}" for s, e in cases]


# --- 1. indexing ------------------------------------------------------------------------------------

_INDEX_TENSORS = ["x"]
_KEYS = [
    "1.5", "0, 1.5", "np.float64(1.0)", "{1: 2}", "'ab'", "True", "False", "0, True", "..., True", "None, ..., None",
    "1, 5", "5", "-5", "1, 2, 3, 4", "..., 1, 2, 3, 4", "::-1", ":, ::-1", "::0", "1:, ::2", "2:1", "10:",
    "[0, 5]", "[0, 1], [0, 1, 2]", "[[0, 1], [1, 0]]", "[True, False]", "[]", "[0.5]", "[0, None]", "[0, 1.5]",
    "range(2)", "[0] * 40", "np.array([0, 1])", "np.array([[0, 1], [1, 0]])", "np.array([1, 0], dtype=np.uint8)",
    "np.array([True, False])", "torch.tensor([1., 0.])", "torch.tensor(1.)", "torch.tensor(1)", "torch.tensor(5)",
    "torch.tensor(True)", "torch.tensor(False)", "torch.tensor([0, 5])", "torch.tensor([[0, 1], [1, 0]])",
    "torch.tensor([1, 0], dtype=torch.uint8)", "torch.tensor([1, 0], dtype=torch.int32)",
    "torch.tensor([1, 0], dtype=torch.int8)", "torch.tensor([1, 0], dtype=torch.int16)",
    "torch.tensor([], dtype=torch.long)", "torch.tensor([])", "torch.tensor([True, False, True])",
    "torch.tensor([[True, False, True]])", ":, torch.tensor([True, False])", ":, :, torch.tensor([True, False])",
    ":, torch.tensor([0, 3])", ":, :, torch.tensor([0, 4])", "torch.tensor([0, 1]), :, torch.tensor([0, 4])",
    "0, torch.tensor([0, 3])", "1:, [0, 1]", ":, 1:, [0, 1]", "None, 1, :, torch.tensor([True, False, True, True])",
    "1:2, None, torch.tensor([0]), ..., 1", "[[0, 1]], [[0], [1]]", "torch.tensor([[True] * 3] * 2), 0, 0",
    "x > 5", "x[0] > 5", "[torch.tensor(1), torch.tensor(0)]", "1, True, 2", "-1, -1, -1", ":, None, 1:3",
]
_INDEX_SETUPS = ["x = torch.arange(24.).reshape(2, 3, 4)", "x = torch.arange(6.).reshape(2, 3)",
                 "x = torch.arange(24.).reshape(2, 3, 4).requires_grad_()",
                 "x = (torch.arange(24.).reshape(2, 3, 4).requires_grad_() * 1).transpose(0, 2)",
                 "x = torch.arange(6).reshape(3, 2)", "x = torch.tensor(2.)", "x = torch.zeros(0, 3)"]
INDEX_CASES = [(s, f"x[{k}]") for s in _INDEX_SETUPS for k in _KEYS]

_VALUES = ["[1., 2., 3.]", "(1., 2., 3.)", "np.array([1., 2., 3.])", "'a'", "None", "np.float64(2.)",
           "np.int64(2)", "True", "complex(1, 2)", "1 + 0j", "torch.ones(2)", "torch.ones(3)", "torch.ones(1, 3)",
           "torch.ones(2, 3)", "torch.ones(1, 1, 3)", "torch.ones(3, 2)", "torch.tensor(5)", "torch.ones(2, 1)"]
_SET_KEYS = ["0", "(0, 0)", "slice(None, None, -1)", "slice(None, None, 0)", "1.5", "(1, 5)", "(1, 1, 1)",
             "torch.tensor([0, 2])", "torch.tensor([0., 1.])", "torch.tensor([True, False, True])", "[0, 1]",
             "(slice(None), [0, 1])", "(0, torch.tensor([0, 1]))", "...", "None", "True", "False",
             "torch.tensor([True, False])"]
SETITEM_CASES = [("x = torch.arange(6.).reshape(2, 3)", f"(x.__setitem__({k}, {v}), x)[1]")
                 for k in _SET_KEYS for v in _VALUES]
SETITEM_CASES += [("x = torch.arange(6.).reshape(2, 3).requires_grad_() * 1", f"(x.__setitem__({k}, {v}), x)[1]")
                  for k in _SET_KEYS for v in ("torch.ones(3)", "2.", "torch.ones(2, 1, requires_grad=True)")]


@pytest.mark.parametrize("setup, expression", INDEX_CASES + SETITEM_CASES, ids=_ids(INDEX_CASES + SETITEM_CASES))
def test_indexing(setup, expression):
    check(setup, expression)


# --- 2. reductions on empty, 0-d, integer, bool tensors ------------------------------------------------

_REDUCTION_SETUPS = [
    "x = torch.tensor(2.)", "x = torch.tensor(3)", "x = torch.zeros(0)", "x = torch.zeros(0, 3)", "x = torch.zeros(2, 0)",
    "x = torch.tensor([[1, 2], [3, 4]])", "x = torch.tensor([[True, False], [True, True]])",
    "x = torch.tensor([[1, 2], [3, 4]], dtype=torch.uint8)", "x = torch.tensor([[1., 2.], [3., 4.]], dtype=torch.float64)",
    "x = torch.tensor([3.])", "x = torch.arange(6.).reshape(2, 3).t()", "x = torch.arange(6.).reshape(2, 3).requires_grad_()",
]
_REDUCTIONS = [
    "x.sum()", "x.sum(0)", "x.sum(dim=None)", "x.sum(5)", "x.sum(-1, keepdim=True)", "x.sum((0, 1))", "x.sum(())",
    "x.mean()", "x.mean(0)", "x.mean(5)", "x.mean(dim=None)", "x.max()", "x.max(0)", "x.max(5)", "x.min()",
    "x.min(0)", "x.min(dim=-1)", "x.max(dim=0, keepdim=True)", "x.amax()", "x.amax(0)", "x.amin()", "x.amin(-1)",
    "x.amax((0, -1))", "x.argmax()", "x.argmax(0)", "x.argmax(-1)", "x.argmax(5)", "x.argmin()",
    "x.argmin(0, keepdim=True)", "x.argmax(keepdim=True)", "x.prod()", "x.prod(0)", "x.prod(5)", "x.var()", "x.var(0)",
    "x.std()", "x.std(0)", "x.std(unbiased=False)", "x.var(correction=0)", "x.var(correction=3)", "x.std(0, True)",
    "x.norm()", "x.norm(dim=0)", "x.norm(p=1)", "x.norm(p=float('inf'))", "x.norm(p=float('-inf'))", "x.norm(5)",
    "x.logsumexp(0)", "x.logsumexp(5)", "x.logsumexp(dim=(0,))", "x.cumsum(0)", "x.cumsum(5)", "x.softmax(0)",
    "x.softmax(-1)", "x.softmax(5)", "x.log_softmax(dim=0)", "x.any()", "x.any(0)", "x.any(5)", "x.all()", "x.all(5)",
    "x.all(0, keepdim=True)", "x.nonzero()", "x.nonzero(as_tuple=True)", "x.isnan()", "x.isinf()", "x.isfinite()",
    "x.equal(x)", "x.allclose(x)", "x.equal(1)", "x.allclose(2.)", "torch.sum(x)", "torch.mean(x, 0)",
    "torch.argmax(x)", "torch.max(x, 0)", "torch.nonzero(x)", "torch.std(x)", "torch.all(x, 5)", "x.split(0)",
    "x.split(1)", "x.split(2, 5)", "x.chunk(2)", "x.chunk(3)", "x.unbind()",
]
REDUCTION_CASES = [(s, e) for s in _REDUCTION_SETUPS for e in _REDUCTIONS]


@pytest.mark.parametrize("setup, expression", REDUCTION_CASES, ids=_ids(REDUCTION_CASES))
def test_reductions(setup, expression):
    check(setup, expression)


# gradients of the reductions, compared after backward
_GRAD_SETUPS = ["x = torch.tensor([[1., 5., 5.], [2., 0., -3.]], requires_grad=True)",
                "x = torch.tensor(2., requires_grad=True)", "x = torch.tensor([[0., 2.]]).t().requires_grad_()"]
_GRAD_EXPRESSIONS = ["x.sum(dim=None)", "x.mean(dim=None)", "x.sum(())", "x.max()", "x.max(0)[0].sum()",
                     "x.amax(0).sum()", "x.prod()", "x.prod(0).sum()", "x.var()", "x.std(0).sum()", "x.norm()",
                     "x.logsumexp(0).sum()", "x.cumsum(0).sum()", "x.softmax(0)[0].sum()", "x.norm(p=1, dim=0).sum()"]
GRAD_CASES = [(s, f"(({e}).backward(), x.grad)[1]") for s in _GRAD_SETUPS for e in _GRAD_EXPRESSIONS]


@pytest.mark.parametrize("setup, expression", GRAD_CASES, ids=_ids(GRAD_CASES))
def test_reduction_gradients(setup, expression):
    check(setup, expression)
