"""An integer or bool tensor written with a value that requires grad (fill_, masked_fill_, index_fill_, and
`a[idx] = v` through them): PyTorch records the write (FillBackward3, CopySlices, IndexPutBackward0, ...), the
tensor then requires grad, differentiable ops refuse it ("Autograd not support dtype"), casts take it, in-place
ops go on recording, and the engine asserts on its gradient. Generated cases under gradlab and torch.
"""
import itertools
import re

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def outcome(lib, code):
    ns = {"torch": lib}
    try:
        exec(code, ns)
        r = ns["r"]
        if isinstance(r, (lib.Tensor,)):
            return (repr(r).replace("gradlab", "torch"), r.requires_grad, r.is_leaf,
                    None if r.grad_fn is None else type(r.grad_fn).__name__)
        return re.sub(r" at 0x[0-9a-f]+", "", repr(r).replace("gradlab", "torch"))
    except Exception as e:  # noqa: BLE001
        return (type(e).__name__, str(e).replace("gradlab", "torch"))


DTYPES = ["torch.int64", "torch.uint8", "torch.bool", "torch.int32"]
WRITES = ["a.fill_(v)", "a[0] = v", "a[...] = v", "a[0, 1] = v", "a[:, 1] = v", "a[torch.tensor(1)] = v",
          "a[None] = v", "a[True] = v", "a[torch.tensor([True, False])] = v", "a[:100:1, 1] = v", "a[0].fill_(v)",
          "a.masked_fill_(torch.tensor([True, False]).unsqueeze(1), v)", "a.index_fill_(0, torch.tensor([1]), v)",
          "a[0] = torch.tensor([3., 4., 5.], requires_grad=True)", "a[[0]] = v", "a.copy_(torch.ones(2, 3, requires_grad=True))"]
AFTER = ["r = a", "r = a.sum()", "a.sum().backward(); r = v.grad", "a.backward(torch.ones_like(a)); r = v.grad",
         "r = torch.autograd.grad(a, v, torch.ones_like(a))", "r = a.float()", "r = a * 2", "r = a + 0.5",
         "r = a.grad_fn.next_functions", "(a.float() * 1).sum().backward(); r = v.grad", "r = a.requires_grad_(False)",
         "r = a.detach()", "r = a > 0", "r = a.argmax()", "r = a.long()", "r = a.to(torch.int16)", "r = a.clone()",
         "r = a[0]", "r = a.t()", "r = a.max(0)", "r = a.cumsum(0)", "r = a.add_(1)", "r = a.zero_()",
         "r = a.copy_(torch.ones(2, 3))", "r = a.masked_fill_(a.bool(), 1)", "r = a.sum(dtype=torch.float32)"]


@pytest.mark.parametrize("dtype,write,after", list(itertools.product(DTYPES, WRITES, AFTER)))
def test_integer_history(dtype, write, after):
    code = f"a = torch.zeros(2, 3, dtype={dtype}); v = torch.tensor(3., requires_grad=True)\n{write}\n{after}\n"
    assert outcome(gradlab, code) == outcome(torch, code), code
