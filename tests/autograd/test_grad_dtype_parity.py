"""Tensor.grad_dtype (PyTorch 2.13): a leaf's gradient is cast to its grad_dtype before its hooks, its
.grad and autograd.grad see it (None: any dtype is kept), and its setters' errors. Generated programs
(leaf dtype x grad_dtype x program) run under gradlab and under live torch; the outcomes (dtypes, values,
what hooks saw, or the exception's type and message) must be the same.
"""
import itertools
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

LEAF_DTYPES = ["torch.float32", "torch.float64", "torch.float16", "torch.complex64"]
GRAD_DTYPES = ["torch.float64", "torch.float32", "torch.float16", "torch.complex128", "torch.int64", "torch.bool",
               "None", "x.dtype"]

# each program makes a leaf `x` of dtype D with grad_dtype G, and leaves what to compare in `r`
PROGRAMS = [
    "x.grad_dtype = G; (x * 2).sum().abs().backward(); r = x.grad",
    "x.grad_dtype = G; (x * 2).sum().abs().backward(); (x * 3).sum().abs().backward(); r = x.grad",
    "x.grad_dtype = G; r = torch.autograd.grad((x * 2).sum().abs(), x)",
    "x.grad_dtype = G; seen = []; x.register_hook(lambda g: seen.append(g.dtype)); "
    "x.sum().abs().backward(); r = (seen, x.grad)",
    "x.grad_dtype = G; seen = []; x.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.dtype)); "
    "x.sum().abs().backward(); r = (seen, x.grad)",
    "x.grad_dtype = G; (x * x).sum().abs().backward(create_graph=True); r = (x.grad, x.grad.requires_grad)",
    "x.grad_dtype = G; r = torch.autograd.grad((x * x).sum().abs(), x, create_graph=True)[0].grad_fn.name()",
    "x.grad_dtype = G; x.expand(3, 2).sum().abs().backward(); r = x.grad",
    "x.sum().abs().backward(); x.grad_dtype = G; r = x.grad_dtype",
    "x.grad_dtype = G; x.grad = torch.ones(2, dtype=torch.float64); r = x.grad",
    "x.grad_dtype = G; x.grad = torch.ones(2, dtype=D); r = (x.grad, x.grad_dtype)",
    "x.grad_dtype = None; x.grad = torch.ones(2, dtype=torch.float64); x.sum().abs().backward(); "
    "x.grad_dtype = G; r = x.grad",
    "x.grad_dtype = G; x.grad_dtype = None; x.sum().abs().backward(); r = x.grad",
    "x.grad_dtype = G; y = (x * 2); y.retain_grad(); y.sum().abs().backward(); r = (y.grad, x.grad)",
    "x.grad_dtype = G; x.grad = None; torch.autograd.backward([(x * 2).sum().abs()], inputs=[x]); r = x.grad",
]
SETTER_PROGRAMS = [
    "y = x * 2; y.grad_dtype = G",
    "y = x * 2; y.retain_grad(); y.grad_dtype = G",
    "r = (x * 2).grad_dtype",
    "x.grad_dtype = 'float32'",
    "x.grad_dtype = 1",
    "z = x.detach(); z.grad_dtype = G; r = (z.grad_dtype, x.grad_dtype)",
    "x.requires_grad_(False); x.grad_dtype = G; r = x.grad_dtype",
]

CASES = [(p, d, g) for p, d, g in itertools.product(PROGRAMS + SETTER_PROGRAMS, LEAF_DTYPES, GRAD_DTYPES)]


def describe(value):
    if isinstance(value, (tuple, list)):
        return [describe(v) for v in value]
    if hasattr(value, "dtype") and hasattr(value, "shape"):
        return "Tensor", str(value.dtype), tuple(value.shape), value.detach().tolist(), value.requires_grad
    return str(value)


def outcome(module, program, leaf_dtype, grad_dtype):
    namespace = {"torch": module}
    code = (f"D = {leaf_dtype}; x = torch.tensor([1.5, -2.0], dtype=D, requires_grad=True); G = {grad_dtype}; "
            f"r = None; {program}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.set_warn_always(True)         # (the once-a-process warnings each time, whatever ran before)
        try:
            exec(code.replace("; ", "\n"), namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            result = f"{type(error).__name__}: {error}"
        else:
            result = describe(namespace["r"])
        finally:
            module.set_warn_always(False)
    return result, [str(w.message) for w in caught if "create_graph=True" not in str(w.message)]


@pytest.mark.parametrize("program,leaf_dtype,grad_dtype", CASES)
def test_grad_dtype_as_torch(program, leaf_dtype, grad_dtype):
    assert outcome(gradlab, program, leaf_dtype, grad_dtype) == outcome(torch, program, leaf_dtype, grad_dtype)
