"""grad_fn._raw_saved_*: PyTorch's torch._C._autograd.SavedTensor (its repr, data, unpack(), unpack_hook,
register_hooks and their errors), generated over savers, saved names, states (changed in place, hooked, freed)
and calls, run under gradlab and under torch: the outcomes must be the same.
"""
import itertools
import re

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(v):
    if isinstance(v, (torch.Tensor, gradlab.Tensor)):
        gf = v.grad_fn
        return ("T", repr(v).replace("gradlab", "torch"), v.requires_grad, None if gf is None else type(gf).__name__)
    if isinstance(v, (list, tuple)):
        return tuple(_describe(x) for x in v)
    if callable(v):
        return "callable"
    return re.sub(r" at 0x[0-9a-f]+", "", repr(v).replace("gradlab", "torch"))


def outcome(lib, code):
    ns = {"torch": lib}
    try:
        exec(code, ns)
        return _describe(ns["r"])
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, re.sub(r" at 0x[0-9a-f]+", "", str(e).replace("gradlab", "torch")))


# (program, the saved name): an input that is a leaf, a non-leaf input, the node's own output
SAVERS = [("z = x.sin()", "self"), ("z = x.pow(3)", "self"), ("y = x * 2; z = y.exp() * y", "self"),
          ("z = x.exp()", "result"), ("z = x.tanh()", "result"), ("y = x + 1; z = y.sigmoid()", "result"),
          ("z = x * torch.ones(2, 3)", "other"), ("z = x.pow(torch.tensor(2.0))", "exponent")]
STATES = ["", "with torch.no_grad(): x.add_(1)", "s.register_hooks(lambda t: t * 10, lambda t: t + 100)",
          "s.register_hooks(lambda t: 'packed', lambda t: torch.ones(2, 3))", "z.sum().backward()",
          "z.sum().backward(retain_graph=True)"]
CALLS = ["r = repr(s)", "s.unpack_hook = 1", "r = type(s).__name__", "r = s.data", "r = s.unpack()", "r = s.unpack_hook",
         "r = s.register_hooks(lambda t: t, lambda t: t)", "r = s.unpack(1)", "r = s.register_hooks(1, 2)",
         "r = s.register_hooks(lambda t: t)", "r = type(s)()", "s.foo = 1", "s.data = 1",
         "r = sorted(a for a in dir(s) if not a.startswith('_'))"]


@pytest.mark.parametrize("saver,name", SAVERS)
@pytest.mark.parametrize("state,call", list(itertools.product(STATES, CALLS)))
def test_saved_tensor(saver, name, state, call):
    code = (f"x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.25]], requires_grad=True); {saver}\n"
            f"s = z.grad_fn._raw_saved_{name}\n{state}\n{call}\n")
    assert outcome(gradlab, code) == outcome(torch, code), code
