"""What the autograd programs of the fuzzer (tests/fuzz/api_fuzz_autograd.py) found, each widened into generated
cases run under gradlab and under torch: the outcome (printed value, dtype, requires_grad, grad_fn name, gradients,
or the exception's type and message, and the warnings) must be the same.
"""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(v):
    if isinstance(v, (torch.Tensor, gradlab.Tensor)):
        gf = v.grad_fn
        return ("T", repr(v).replace("gradlab", "torch"), str(v.dtype).replace("gradlab", "torch"), v.requires_grad,
                None if gf is None else type(gf).__name__)
    if isinstance(v, (list, tuple)):
        return tuple(_describe(x) for x in v)
    if v is not None and type(v).__module__ not in ("builtins",):
        return type(v).__name__
    return repr(v).replace("gradlab", "torch")


def outcome(lib, code):
    """Run `code` (which sets `r`) with `torch` bound to lib: r described, or the exception; and the warnings."""
    ns = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
            result = _describe(ns["r"])
        except Exception as e:  # noqa: BLE001
            result = (type(e).__name__, str(e).replace("gradlab", "torch"))
        finally:
            lib.set_grad_enabled(True)
    return result, [(w.category.__name__, str(w.message).split(" (Triggered internally")[0]) for w in caught]


def check(code):
    assert outcome(gradlab, code) == outcome(torch, code), code


# --- in-place changes of saved tensors: the node's name in the message, and every saved tensor checked -------

# a non-leaf changed in place after an op saved it; the message names its (new) node as PyTorch does:
# AddBackward0 -> Add, ClampBackward1 -> Clamp1, TBackward1 -> T1
INPLACE = ["add_(1)", "mul_(2)", "clamp_(max=0.5)", "clamp_(0, 1)", "clamp_min_(0)", "t_()", "relu_()", "zero_()",
           "exp_()", "sigmoid_()", "pow_(2)", "copy_(torch.ones(2, 3))", "fill_(1)", "div_(2, rounding_mode='floor')",
           "masked_fill_(torch.ones(2, 3, dtype=torch.bool), 0)", "unsqueeze_(0)", "squeeze_()", "lerp_(torch.ones(2, 3), 0.5)"]
SAVERS = ["y = x1.sin()", "y = x1 * x1", "y = x1.pow(3)", "y = F.mse_loss(x1, torch.zeros(2, 3))", "y = x1.softmax(0)"]


@pytest.mark.parametrize("change", INPLACE)
@pytest.mark.parametrize("saver", SAVERS)
def test_version_error_names_the_node(saver, change):
    check(f"x = torch.tensor([[1., -2, 3], [0.5, 2, -1]], requires_grad=True)\nx1 = x * 1\n{saver}\n"
          f"x1.{change}\ny.sum().backward()\nr = x.grad")


# PyTorch saves the indices that max(dim), sort, topk, ... return, and aminmax's / std_mean's / svd's / slogdet's
# results: changing one in place (under no_grad too) before the backward raises; gradlab computed with them.
MULTI = ["torch.var_mean(t, 0)", "torch.std_mean(t, 0)", "torch.aminmax(t, dim=0)", "torch.slogdet(t)",
         "torch.linalg.svd(t)", "t.max(0)", "t.min(1, keepdim=True)", "t.sort(0)", "t.topk(2, 0)", "t.kthvalue(1, 0)",
         "t.median(0)", "t.mode(0)", "t.cummax(0)", "t.cummin(1)", "t.nanmedian(0)", "torch.max(t, 1, True)",
         "torch.sort(t, descending=True)", "t.sort(stable=True)"]


@pytest.mark.parametrize("k", [0, 1, 2])
@pytest.mark.parametrize("grad_mode", [True, False])
@pytest.mark.parametrize("call", MULTI)
def test_saved_outputs_are_checked(call, grad_mode, k):
    change = f"outs[{k}].add_(0)" if grad_mode else f"with torch.no_grad():\n    outs[{k}].add_(0)"
    check(f"x = torch.tensor([[1., 2, 3], [3, 1, 2.5], [0.5, 2, 1]], requires_grad=True)\nt = x * 1\n"
          f"outs = {call}\nr = None\nif {k} < len(outs) and outs[{k}].dtype == torch.int64 or {grad_mode} is False:\n"
          f"    {change.replace(chr(10), chr(10) + '    ')}\n"
          f"    sum(o.sum() for o in outs if o.requires_grad).backward()\n    r = x.grad")
