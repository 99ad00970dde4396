"""Tensor methods and torch functions gradlab lacked (cfloat, cdouble, is_pinned, pin_memory, share_memory_,
is_shared, storage, untyped_storage, const_data_ptr, is_set_to, set_, dim_order, apply_, map_, map2_, resize,
resize_as, volatile, reinforce, to_dense, nonzero_static, name, grad_dtype; torch.is_signed, get_device, typename,
put, index_put_, nonzero_static, resize_as_, set_flush_denormal), as generated cases: each runs under gradlab
and under torch, and the outcomes must be the same: values bit for bit, dtype, shape, strides, requires_grad,
grad_fn and its next functions, gradients, or the exception's type and message, and warnings.
Then the native_* functions (native_layer_norm, native_batch_norm, native_group_norm, native_dropout,
norm_except_dim): their extra outputs, grad_fns and gradients, compared as printed where they go through
gradlab's normalizations and norms, whose float bits are not all ATen's.
"""
import random

import pytest

import gradlab
from test_missing_ops import _grads, _without_bits, outcome

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
                 "r = torch.set_flush_denormal(False)",
                 # (flushing is switched off again: it would change every later torch result in the process)
                 "r = torch.set_flush_denormal(1); torch.set_flush_denormal(False)",
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


_X = "(torch.arange(60.).reshape(4, 3, 5) * 0.37).sin()"
_NATIVE = [
    f"x = {_X}.requires_grad_(); w = torch.linspace(0.5, 1.5, 5, requires_grad=True); b = torch.ones(5, "
    "requires_grad=True); y, m, s = torch.native_layer_norm(x, [5], w, b, 1e-5); "
    "r = (y, m, s, [t.shape for t in torch.autograd.grad((y * y).sum(), [x, w, b])])",
    f"x = {_X}.double(); r = torch.native_layer_norm(x, [3, 5], None, None, 1e-5)",
    "r = torch.native_layer_norm(torch.ones(2, 3), [4], None, None, 1e-5)",
    f"x = {_X}.requires_grad_(); w = torch.linspace(0.5, 1.5, 3, requires_grad=True); rm, rv = torch.zeros(3), "
    "torch.ones(3); y, a, b = torch.native_batch_norm(x, w, None, rm, rv, True, 0.1, 1e-5); "
    "r = (y, a, b, rm, rv, [t.shape for t in torch.autograd.grad((y * y).sum(), [x, w])])",
    f"x = {_X}.requires_grad_(); rm, rv = torch.zeros(3), torch.ones(3); "
    "r = torch.native_batch_norm(x, None, None, rm, rv, False, 0.1, 1e-5)",
    "x = (torch.arange(120.).reshape(4, 6, 5) * 0.37).sin().requires_grad_(); w = torch.linspace(0.5, 1.5, 6, "
    "requires_grad=True); y, a, b = torch.native_group_norm(x, w, None, 4, 6, 5, 3, 1e-5); "
    "r = (y, a, b, [t.shape for t in torch.autograd.grad((y * y).sum(), [x, w])])",
    "x = (torch.arange(120.).reshape(4, 6, 5) * 0.37).sin(); r = torch.native_group_norm(x, None, None, 4, 6, 5, 2, 1e-5)",
]
for p, train in (("0.3", "True"), ("0.3", "False"), ("0.5", "None"), ("1.0", "True"), ("0.", "True"), ("1.5", "True")):
    _NATIVE.append(f"torch.manual_seed(3); x = torch.linspace(-2, 3, 20).reshape(5, 4).requires_grad_(); "
                   f"y, m = torch.native_dropout(x, {p}, {train}); r = (y, m, torch.autograd.grad(y.sum(), x), "
                   "torch.rand(2))")
for p, dim in (("2", "0"), ("2", "-1"), ("2", "1"), ("1", "2"), ("2", "2")):
    _NATIVE.append("x = torch.linspace(-2, 3, 24).reshape(2, 3, 4).requires_grad_(); "
                   f"y = torch.norm_except_dim(x, {p}, {dim}); r = (y, torch.autograd.grad(y.sum(), x))")


@pytest.mark.parametrize("code", _NATIVE)
def test_native_functions_match_torch(code):
    ours, theirs = outcome(gradlab, code), outcome(torch, code)
    if "dropout" not in code:
        ours, theirs = _without_bits(ours), _without_bits(theirs)
    assert ours == theirs


# --- torch.vmap (a loop in gradlab: same values, shapes and errors; its results' grad_fn is the stack) ---
_VMAP = [
    "r = torch.vmap(lambda a, b: a * b)(x, torch.ones(3))",
    "r = torch.vmap(lambda a, b: a * b, in_dims=(0, None))(x, y)",
    "r = torch.vmap(lambda a, b: a * b, in_dims=(1, 0))(x, y)",
    "r = torch.vmap(lambda a: a.sum(), in_dims=5)(x)",
    "r = torch.vmap(lambda a, n: a * n)(x, 2)",
    "r = torch.vmap(lambda a, n: a * n, in_dims=(0, None))(x, 2)",
    "r = torch.vmap(lambda a: 3)(x)",
    "r = torch.vmap(lambda a: (a, a.sum()), out_dims=(1, 0))(x)",
    "r = torch.vmap(lambda a: a, out_dims=2)(x)",
    "r = torch.vmap(lambda a: a, in_dims=None)(x)",
    "r = torch.vmap(lambda a: a)(torch.tensor(1.))",
    "r = torch.vmap(lambda a: a, in_dims='a')(x)",
    "r = torch.vmap(lambda a: a, out_dims='a')(x)",
    "r = torch.vmap(lambda a: a)()",
    "r = torch.vmap(lambda a: a, in_dims=-1)(x)",
    "r = torch.vmap(lambda a: a * 1, randomness='x')(x)",
    "r = torch.vmap(lambda a: {'k': a})(x)",
    "r = torch.vmap(lambda a: [a, a + 1])(x)",
    "r = torch.vmap(lambda a: None)(x)",
    "r = torch.vmap(lambda a, b: a + b, in_dims=(0, 0))(x, torch.ones(3, 3))",
    "r = torch.vmap(torch.sum, chunk_size=0)(x)",
    "r = torch.vmap(lambda a: a.sum())(torch.ones(0, 3))",
    "r = torch.vmap(torch.dot)(x, x)",
    "r = torch.vmap(torch.vmap(torch.mul))(x, x)",
    "r = torch.vmap(lambda a: a @ a, in_dims=1)(x)",
    "x.requires_grad_(); y = torch.vmap(lambda a: (a * a).sum())(x); r = torch.autograd.grad(y.sum(), x)",
]


# (an in_dim other than 0: PyTorch's result keeps the input's physical layout, gradlab's stack is contiguous)
_VMAP_STRIDES = ("in_dims=(1, 0))(x, y)", "in_dims=-1)(x)")


@pytest.mark.parametrize("code", [c if not c.endswith(_VMAP_STRIDES) else
                                  pytest.param(c, marks=pytest.mark.xfail(strict=True)) for c in _VMAP])
def test_vmap_matches_torch(code):
    code = "x = torch.arange(6.).reshape(2, 3); y = torch.arange(3.); " + code
    assert outcome(gradlab, code) == outcome(torch, code)


# --- DLPack, the sparse accessors of a strided tensor, hash_tensor ----------------------------------
_MORE = [
    "a = np.arange(3.); t = torch.from_dlpack(a); a[0] = 5; r = t",
    "r = torch.from_dlpack(3)",
    "x = torch.ones(2, 3); r = (type(torch.to_dlpack(x)).__name__, torch.from_dlpack(torch.to_dlpack(x)))",
    "r = torch.to_dlpack(3)",
    "r = torch.from_dlpack(torch.ones(2, requires_grad=True))",
    "r = torch.from_dlpack(torch.arange(6.).reshape(2, 3).t())",
    "r = torch.ones(2).__dlpack_device__()",
    "r = torch.hash_tensor(torch.tensor([1., 2.]))",
    "r = torch.hash_tensor(torch.tensor([[1, 2], [3, 4]]), 1)",
    "r = torch.hash_tensor(torch.tensor([[1, 2], [3, 4]]), 0, keepdim=True)",
    "r = torch.hash_tensor(torch.tensor([True, False]))",
    "r = torch.hash_tensor(torch.tensor(2.5))",
    "r = torch.hash_tensor(torch.zeros(0))",
    "r = torch.hash_tensor(torch.tensor([1., 2.]), mode=1)",
    "r = torch.tensor([1., 2.], dtype=torch.float16).hash_tensor()",
    "r = torch.tensor([[1., 2.], [3., 4.]]).hash_tensor([0])",
    "x = torch.arange(24.).reshape(2, 4, 3).requires_grad_(); y = torch.native_channel_shuffle(x, 2); "
    "r = (y, y.grad_fn.name(), y.grad_fn.next_functions[0][0].name())",
    "x = torch.arange(24.).reshape(2, 4, 3).requires_grad_(); r = torch.native_channel_shuffle(x, 2).sum().backward()",
    "r = torch.native_channel_shuffle(torch.ones(2, 4), 2)",
    "r = torch.native_channel_shuffle(torch.ones(2, 4, 3), 0)",
    "r = torch.native_channel_shuffle(torch.ones(2, 4, 3), 3)",
    "r = torch.native_channel_shuffle(torch.arange(24).reshape(2, 4, 3).transpose(0, 2), 2)",
] + [f"r = torch.{name}(torch.ones(2, 3))" for name in (
    "values_copy", "indices_copy", "crow_indices_copy", "col_indices_copy", "ccol_indices_copy", "row_indices_copy")]


@pytest.mark.parametrize("code", _MORE)
def test_dlpack_hash_and_sparse_accessors_match_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)
