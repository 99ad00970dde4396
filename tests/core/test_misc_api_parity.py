"""Tensor methods and torch functions gradlab lacked (cfloat, cdouble, is_pinned, pin_memory, share_memory_,
is_shared, storage, untyped_storage, const_data_ptr, is_set_to, set_, dim_order, apply_, map_, map2_, resize,
resize_as, volatile, reinforce, to_dense, nonzero_static, name, grad_dtype; torch.is_signed, get_device, typename,
put, index_put_, nonzero_static, resize_as_, set_flush_denormal), as generated cases: each runs under gradlab
and under torch, and the outcomes must be the same: values bit for bit, dtype, shape, strides, requires_grad,
grad_fn and its next functions, gradients, or the exception's type and message, and warnings.
"""
import random

import pytest

import gradlab
from test_missing_ops import _grads, outcome

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_TENSORS = {
    "f": "torch.tensor([[1.5, -2., 0.], [3., 0.25, -1.]])",
    "d": "torch.tensor([[1.5, -2., 0.], [3., 0.25, -1.]], dtype=torch.float64)",
    "i": "torch.tensor([[1, -2, 0], [3, 0, 7]])",
    "u": "torch.tensor([[1, 2, 0], [3, 0, 7]], dtype=torch.uint8)",
    "b": "torch.tensor([[True, False, True], [False, False, True]])",
    "h": "torch.tensor([[1.5, -2., 0.], [3., 0.25, -1.]], dtype=torch.float16)",
    "c": "torch.tensor([[1.5 + 1j, -2., 0.], [3., 0.25j, -1.]])",
    "t": "torch.tensor([[1.5, -2., 0.], [3., 0.25, -1.]]).t()",
    "e": "torch.zeros(0, 3)",
    "s": "torch.tensor(2.5)",
}


def _cases():
    rng = random.Random(3)
    cases = []
    for key, x in _TENSORS.items():
        for code in (
                "r = x.cfloat()", "r = x.cdouble()", "r = x.is_pinned()", "r = x.pin_memory()",
                "r = (x.is_shared(), x.share_memory_() is x, x.is_shared(), x.detach().is_shared())",
                "r = (x.const_data_ptr() == x.data_ptr(),)", "r = x.dim_order()",
                "r = x.dim_order(ambiguity_check=True)", "r = x.dim_order(ambiguity_check=[torch.contiguous_format])",
                "r = x.dim_order(ambiguity_check='no')", "r = x.to_dense()", "r = x.to_dense() is x",
                "r = x.nonzero_static(size=4)", "r = x.nonzero_static(size=1, fill_value=-7)",
                "r = torch.nonzero_static(x, size=6)", "r = x.nonzero_static(size=-1)",
                "r = (x.is_set_to(x), x.is_set_to(x.detach()), x.is_set_to(x.clone()))",
                "r = x.resize(6)", "r = x.resize(2, 3)", "r = x.resize(4)", "r = x.resize_as(torch.ones(3, 2))",
                "r = (x.volatile, x.name)", "r = x.reinforce(1)", "r = torch.is_signed(x)",
                "r = (torch.get_device(x), x.get_device())", "r = torch.typename(x)",
                "r = x.untyped_storage().size()", "r = x.untyped_storage().nbytes()", "r = len(x.storage())",
                "r = x.storage().tolist()", "r = str(x.untyped_storage())", "r = x.storage()[0]",
                "r = x.untyped_storage()[1]", "y = x.clone(); r = (y.set_(), y)",
                "y = torch.empty(0, dtype=x.dtype); r = (y.set_(x), y.is_set_to(x))",
                "y = x.clone(); r = y.apply_(lambda v: v * 2)", "y = x.clone(); r = y.apply_(3)",
                "y = x.clone(); r = y.map_(x, lambda a, b: a + b)",
                "y = x.clone(); r = y.map_(x.new_ones(3), lambda a, b: a * b)",
                "y = x.clone(); r = y.map2_(x, x, lambda a, b, c: a - b + c)",
                "y = x.clone(); r = y.map_(x.new_ones(4), lambda a, b: a)"):
            cases.append(f"x = {x}; {code}")
    for x in ("torch.tensor([[1.5, -2., 0.], [3., 0.25, -1.]], requires_grad=True)",
              "torch.tensor([1., 2., 3., 4.], dtype=torch.float64, requires_grad=True)"):
        for code in ("r = x.cfloat()", "r = x.cdouble().grad_fn.name()",
                     "y = x.resize(x.numel()); " + _grads("x"), "y = (x * 2).resize(2, -1 + x.numel() // 2 + 1); r = y",
                     "y = x.resize_as(torch.ones(x.numel())); " + _grads("x"),
                     "r = x.apply_(lambda v: v)", "r = x.map_(x, lambda a, b: a)", "r = x.to_dense()",
                     "r = x.grad_dtype", "r = (x * 2).grad_dtype", "x.grad_dtype = torch.float64; r = x.grad_dtype",
                     "x.grad_dtype = None; r = x.grad_dtype", "x.grad_dtype = 3", "r = x.detach().set_(x.detach())"):
            cases.append(f"x = {x}; {code}")
    for code in ("r = torch.typename(1)", "r = torch.typename(torch.nn.Linear(1, 1))", "r = torch.typename('a')",
                 "r = torch.set_flush_denormal(False)", "r = torch.set_flush_denormal(1)",
                 "r = torch.put(torch.zeros(2, 2), torch.tensor([0, 3]), torch.tensor([1., 2.]))",
                 "r = torch.put(torch.zeros(2, 2), torch.tensor([0, 0]), torch.tensor([1., 2.]), accumulate=True)",
                 "a = torch.zeros(3); r = (torch.index_put_(a, (torch.tensor([0, 2]),), torch.tensor(5.)), a)",
                 "a = torch.zeros(3); r = torch.index_put_(a, (torch.tensor([0, 0]),), torch.tensor([1., 2.]), True)",
                 "a = torch.ones(2); r = (torch.resize_as_(a, torch.ones(2, 2)).shape,)",
                 "r = torch.nonzero_static(torch.tensor([0, 1, 2]), size=2, fill_value=9)",
                 "r = torch.is_signed(torch.tensor([1], dtype=torch.uint8))",
                 "r = torch.is_signed(torch.tensor([True]))"):
        cases.append(code)
    rng.shuffle(cases)
    return cases


@pytest.mark.parametrize("code", _cases())
def test_misc_api_matches_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)
