"""torch.autograd.functional.jacobian and hessian in every mode (row by row, vectorize=True, strategy='forward-mode',
create_graph, strict, tuple inputs and outputs), generated over functions and input shapes, run under gradlab and
under torch: the results' dtype, shape, strides, requires_grad and values (or the exception) must be the same.

PyTorch's vectorized and forward modes lay their results out as vmap leaves them (a batch dimension moved last in
forward mode, expanded zeros for an output that does not depend on an input, the output's dtype in forward mode).
"""
import itertools

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

FUNCTIONS = ["lambda t: t.exp()", "lambda t: (t * t).sum()", "lambda t: t.sin() * t", "lambda t: t.softmax(-1)",
             "lambda t: (t ** 3).sum()", "lambda t: t.norm()", "lambda t: t @ t.t() if t.dim() == 2 else t * t",
             "lambda t: t.cumsum(-1)", "lambda t: (t.tanh(), t.sum())", "lambda t: t.detach()",
             "lambda t: torch.ones(2)", "lambda t: t.logsumexp(-1).sum()", "lambda t: t.prod()",
             "lambda t: t.t() if t.dim() == 2 else t * 2", "lambda t: t.reshape(-1)[0].exp()",
             "lambda t: t.expand(2, *t.shape)", "lambda t: (t.detach(), t * 3)", "lambda t: t.float()"]
JACOBIAN = ["jacobian(f, x0)", "jacobian(f, x0, create_graph=True)", "jacobian(f, x0, strict=True)",
            "jacobian(f, (x0,))", "jacobian(f, x0, vectorize=True)", "jacobian(f, (x0,), vectorize=True)",
            "jacobian(f, x0, vectorize=True, create_graph=True)", "jacobian(f, x0, vectorize=True, strict=True)",
            "jacobian(f, x0, strategy='forward-mode', vectorize=True)",
            "jacobian(f, (x0,), strategy='forward-mode', vectorize=True)",
            "jacobian(f, x0, strategy='forward-mode')", "jacobian(f, x0, strategy='forward-mode', strict=True)",
            "jacobian(f, x0, strategy='forward-mode', create_graph=True, vectorize=True)",
            "jacobian(f, x0, strategy='sideways')"]
HESSIAN = ["hessian(g, x0)", "hessian(g, x0, vectorize=True)", "hessian(g, x0, create_graph=True)",
           "hessian(g, x0, vectorize=True, create_graph=True)", "hessian(g, x0, strict=True)",
           "hessian(g, x0, vectorize=True, outer_jacobian_strategy='forward-mode')",
           "hessian(g, x0, outer_jacobian_strategy='forward-mode')", "hessian(g, x0, outer_jacobian_strategy='up')"]
TWO = ["jacobian(lambda a, b: (a * b, a.sum()), (x0, x0 + 1){})", "jacobian(lambda a, b: a * 2, (x0, x0 + 1){})",
       "jacobian(lambda a, b: torch.ones(3), (x0, x0 + 1){})", "hessian(lambda a, b: (a * b).sum(), (x0, x0 + 1){})"]
MODES = ["", ", vectorize=True", ", vectorize=True, strategy='forward-mode'", ", create_graph=True",
         ", vectorize=True, create_graph=True"]
SHAPES = [(2, 3), (2, 2), (3,), ()]


def _describe(r, forward_hessian):
    if isinstance(r, (list, tuple)):
        return (type(r).__name__, tuple(_describe(x, forward_hessian) for x in r))
    # (PyTorch's forward-mode hessian keeps a graph from its inner create_graph jacobian: its results require
    # grad; gradlab's are plain tensors. Everything else about them is compared)
    rg = None if forward_hessian else r.requires_grad
    return (str(r.dtype).replace("gradlab", "torch"), tuple(r.shape), r.stride(), r.is_contiguous(), rg,
            np.round(r.detach().numpy().astype(np.float64), 6).tolist())


def outcome(lib, code, shape):
    ns = {"torch": lib, "F": lib.autograd.functional}
    n = int(np.prod(shape))
    ns["x0"] = lib.linspace(-1, 1.3, max(n, 1), dtype=lib.float64).reshape(shape)
    try:
        exec(code, ns)
        return _describe(ns["r"], "forward-mode" in code and "hessian" in code)
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e).replace("gradlab", "torch"))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fn,call", list(itertools.product(FUNCTIONS, JACOBIAN + HESSIAN)))
def test_functional_layout(fn, call, shape):
    code = (f"f = {fn}\ng = lambda t: f(t).sum() if torch.is_tensor(f(t)) else f(t)[1]\n"
            f"r = F.{call}\n")
    assert outcome(gradlab, code, shape) == outcome(torch, code, shape), code


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("call,mode", list(itertools.product(TWO, MODES)))
def test_functional_layout_two_inputs(call, mode, shape):
    if call.startswith("hessian"):
        mode = mode.replace("strategy=", "outer_jacobian_strategy=")
    code = f"r = F.{call.format(mode)}\n"
    assert outcome(gradlab, code, shape) == outcome(torch, code, shape), code
