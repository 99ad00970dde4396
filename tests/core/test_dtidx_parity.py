"""The dtypes/values/indexing fuzz families' findings (tests/fuzz/api_fuzz_dtidx.py, issue 14), each widened into
generated cases: every case runs under gradlab and under torch, and the outcomes (value as printed, dtype,
requires_grad, grad_fn name, or the exception's type and message) must be the same.
"""
import itertools

import numpy as np  # noqa: F401  (the cases' code reads np)
import pytest

import gradlab
from test_findings_parity import outcome

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

SPECIAL_COMPLEX = ["complex(-float('inf'), 0)", "complex(0, float('inf'))", "complex(float('inf'), float('inf'))",
                   "complex(float('nan'), 1)", "1.5-2j"]

# complex add/sub: PyTorch's kernel is self + alpha * other, a complex product even for alpha = 1
ADD_CASES = [f"a = torch.tensor([1 + 0j, -2j], dtype={d}); b = torch.tensor([{x}, {y}], dtype={e}); r = {expr}"
             for d, e in (("torch.complex64", "torch.complex64"), ("torch.complex128", "torch.float32"),
                          ("torch.float64", "torch.complex64"))
             for x, y in itertools.combinations(SPECIAL_COMPLEX, 2)
             for expr in ("a + b", "b + a", "a - b", "torch.add(a, b, alpha=2)", "a.sub(b, alpha=-1)",
                          f"a + {x}", f"{x} + a", f"a - {y}", "a.clone().add_(b)")
             if not (e == "torch.float32" and "j" in x + y)]

# complex operands where values are ordered or rounded: PyTorch's refusals, on either side and in every form
_REAL_AND_COMPLEX = {"c": "torch.tensor([1 + 1j, 2j, 3])", "f": "torch.tensor([1., -2., 3.])",
                     "i": "torch.tensor([1, -2, 3])", "h": "torch.tensor([0.5, 2., -1.], dtype=torch.float16)"}
_SETUP = "; ".join(f"{k} = {v}" for k, v in _REAL_AND_COMPLEX.items()) + "; "
ORDER_CASES = [_SETUP + f"r = {x} {op} {y}" for x, y in (("c", "f"), ("f", "c"), ("c", "1"), ("2", "c"), ("f", "1j"),
                                                          ("c", "True"), ("np.float32(1)", "c"), ("i", "c[0]"))
               for op in ("<", "<=", ">", ">=", "==")]
ORDER_CASES += [_SETUP + f"r = {call}" for x, y in (("c", "f"), ("f", "c"), ("i", "c"), ("c", "c"), ("h", "c"))
                for call in (f"torch.maximum({x}, {y})", f"torch.min({x}, {y})", f"{x}.atan2({y})", f"torch.hypot({x}, {y})",
                             f"{x}.clone().atan2_({y})", f"{x}.clone().hypot_({y})", f"torch.dist({x}, {y})",
                             f"{x}.clamp({y})", f"{x}.clamp(max={y})", f"{x}.clamp({y}, {y})", f"{x}.clamp_min({y})",
                             f"{x}.clamp_max({y})", f"{x}.clone().clamp_({y})", f"{x}.clone().clamp_min_({y})",
                             f"{x}.clamp({y}[0].item())", f"{x}.clamp_min({y}[0].item())",
                             f"{x}.clone().clamp_max_({y}[0].item())", f"{x}.clone().clamp_({y}[0].item())")]
ORDER_CASES += [_SETUP + f"r = {x}.{m}" for x in ("c", "c.double()", "f") for m in (
    "max()", "max(0)", "min()", "min(dim=0, keepdim=True)", "argmax()", "argmin(0)", "amax()", "amin(0)", "aminmax()",
    "topk(1)", "kthvalue(1)", "mode()", "cummax(0)", "cummin(0)", "unique()", "sign()", "floor()", "ceil()",
    "trunc()", "round()", "frac()", "relu()", "abs()", "var()", "std(0)", "var(correction=0)", "norm()",
    "norm(p=0)", "norm(p=1)", "norm(p=float('inf'))", "nansum()", "nanmean()",
    "nan_to_num()", "sort()", "median()")]
ORDER_CASES += [f"c = torch.tensor([complex(float('nan'), 1), complex(float('inf'), -float('inf')), 1j]); r = c.nan_to_num({a})"
                for a in ("", "1.5", "0, 2, -3")]

# a complex value copied into a real tensor: its real part (the warning is checked by the fuzzer), or PyTorch's refusal
COPY_CASES = [f"t = torch.tensor([1, 2, 3], dtype={d}); c = torch.tensor([1.5 + 1j, 2j, -3 + 0j]); {w}; r = t"
              for d in ("torch.float32", "torch.int64", "torch.uint8", "torch.bool", "torch.float16")
              for w in ("t.copy_(c)", "t[0] = c[0]", "t[:] = c", "t[...] = c[1]", "t[1:] = c[:2]", "t[t > 0] = c[0]",
                        "t[t > 0] = c[2]", "t[[0, 1]] = c[:2]", "t.fill_(c[0])", "t.masked_fill_(t > 0, c[0])",
                        "t.masked_fill_(t > 0, c[2])", "t[0] = 1j", "t = c.to(t.dtype)", "t = c.type(t.dtype)",
                        "t = torch.tensor(c, dtype=t.dtype)", "t = c.sum(dtype=t.dtype)")]

# torch.result_type / can_cast over every pair of dtypes and operand kinds
_DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64", "complex64",
           "complex128"]
_OPERANDS = [f"torch.ones(2, dtype=torch.{d})" for d in _DTYPES] + [f"torch.tensor(1, dtype=torch.{d})" for d in _DTYPES] \
    + ["True", "2", "2.5", "1j", "np.float32(1)", "np.int64(2)", "np.bool_(True)"]
PROMOTION_CASES = [f"r = torch.can_cast(torch.{a}, torch.{b})" for a in _DTYPES for b in _DTYPES]
PROMOTION_CASES += [f"r = torch.result_type({a}, {b})" for a, b in itertools.product(_OPERANDS, repeat=2)
                    if ((a + b).count("torch.ones") < 2 or a.split("dtype")[1][:12] < b.split("dtype")[1][:12])
                    # (float16 with complex is complex32 in PyTorch, a dtype gradlab does not have: numpy has none)
                    and not ("float16" in a + b and ("complex" in a + b or "1j" in a + b))]
PROMOTION_CASES += ["r = torch.result_type(None, torch.ones(1))", "r = torch.can_cast(torch.float32, 1)",
                    "r = torch.result_type(torch.ones(1), 'x')"]

# put_/put, index_put_/index_put (accumulate too), take_along_dim: values, grad_fn, gradients, PyTorch's checks
_A = "a = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True); "
INDEX_FN_CASES = [_A + f"r = {call}; r = (r, torch.autograd.grad(r.sum(), a, allow_unused=True))"
                  for call in ("a.put(torch.tensor([0, -1]), torch.tensor([9., 8.]))",
                               "a.put(torch.tensor([[5], [5]]), torch.tensor([1., 2.]), accumulate=True)",
                               "a.clone().put_(torch.tensor([1, 2]), torch.tensor([7., 7.]))",
                               "a.index_put((torch.tensor([1, 1]),), torch.tensor([1., 2., 3.]), accumulate=True)",
                               "a.index_put((torch.tensor([0, 1]), torch.tensor([2, 2])), torch.tensor(5.))",
                               "torch.index_put(a, (torch.tensor([True, False]),), torch.tensor(0.))",
                               "a.clone().index_put_((torch.tensor([-1]),), torch.tensor([[4., 4., 4.]]), True)",
                               "torch.take_along_dim(a, torch.tensor([[2, 0]]), 1)",
                               "torch.take_along_dim(a, torch.tensor([[1], [0]]), 0)",
                               "torch.take_along_dim(a, torch.tensor([5, 0, 5]))",
                               "a.take_along_dim(torch.tensor([[0]]), dim=-1)")]
_B = "b = torch.tensor([[1, 2], [3, 4]], dtype={d}); "
INDEX_FN_CASES += [_B.format(d=d) + f"r = {call}" for d in ("torch.int64", "torch.float32", "torch.bool", "torch.uint8")
                   for call in ("b.put(torch.tensor([0]), torch.tensor([1], dtype=b.dtype))",
                                "b.put(torch.tensor([0], dtype=torch.int32), torch.tensor([1], dtype=b.dtype))",
                                "b.put(torch.tensor([0, 1]), torch.tensor([1.5]))",
                                "b.put(torch.tensor([4]), torch.tensor([1], dtype=b.dtype))",
                                "b.put(torch.tensor([0, 0]), torch.tensor([1, 1], dtype=b.dtype), accumulate=True)",
                                "torch.tensor(3, dtype=b.dtype).put(torch.tensor([0, 0]), torch.ones(2, dtype=b.dtype), True)",
                                "b[:0].put(torch.tensor([0]), torch.ones(1, dtype=b.dtype))",
                                "b.index_put((torch.tensor([0]),), torch.tensor(1.5))",
                                "b.index_put((torch.tensor([True, False]),), torch.tensor(1))",
                                "b.index_put((torch.tensor([0, 0]),), torch.ones(2, dtype=b.dtype), accumulate=True)",
                                "b.index_put((torch.tensor([0]), None), torch.tensor(1))",
                                "b.index_put(([0],), torch.tensor(1))",
                                "b.index_put((torch.tensor([2]),), torch.ones(1, dtype=b.dtype), accumulate=True)",
                                "b.index_put((torch.tensor([0.]),), torch.ones(1, dtype=b.dtype))",
                                "b.index_put((torch.tensor([0]),) * 3, torch.ones(1, dtype=b.dtype))",
                                "b.index_put((torch.tensor([0, 1]),), torch.ones(3, dtype=b.dtype), accumulate=True)",
                                "torch.take_along_dim(b, torch.tensor([[1]]), 0)",
                                "torch.take_along_dim(b, torch.tensor([[1]], dtype=torch.int32), 0)",
                                "torch.take_along_dim(b, torch.tensor([1]), 0)",
                                "torch.take_along_dim(b, torch.tensor([[0], [1], [0]]), 1)",
                                "torch.take_along_dim(b[0, 0], torch.tensor(0), 0)",
                                "torch.argwhere(b)", "b.argwhere()")]

# creation helpers: cartesian_prod, tril/triu_indices, atleast_nd
BUILD_CASES = [f"r = torch.{f}({r}, {c}, {o}{dt})" for f in ("tril_indices", "triu_indices")
               for r, c in ((3, 3), (2, 4), (4, 2), (0, 3), (-1, 2), (2, -3)) for o in (0, 1, -1, 5, -5)
               for dt in ("", ", dtype=torch.int32", ", dtype=torch.float32", ", dtype=torch.int16")]
BUILD_CASES += [f"v = torch.tensor([1., 2.], requires_grad=True); w = torch.tensor([3., 4., 5.]); r = torch.cartesian_prod({a})"
                for a in ("v, w", "w, v, w", "v", "v, w.int()", "v.reshape(2, 1), w", "torch.tensor(1.), w")]
BUILD_CASES += [f"r = torch.{f}({a})" for f in ("atleast_1d", "atleast_2d", "atleast_3d")
                for a in ("torch.tensor(1.)", "torch.ones(2)", "torch.ones(2, 3)", "torch.ones(1, 2, 3, 1)",
                          "torch.ones(2), torch.tensor(3)", "[torch.tensor(1.), torch.ones(2, 2)]")]

# indexing: slices skipped as PyTorch skips them (numbers as written), overlapping values refused, the other fixes
_X = "x = torch.arange(6.).reshape(3, 2).requires_grad_(); e = torch.zeros(0, 2, requires_grad=True); "
INDEXING_CASES = [_X + f"r = {t}[{k}]; r = (r, r.grad_fn.name(), [f[0] and f[0].name() for f in r.grad_fn.next_functions])"
                  for t in ("x", "e") for k in ("0:3, 0", "0:100, 0", "-3:, 0", ":, 0", "::1, 0", "-100:, 0", "0:-0, 0",
                                                "1:-1, 0", "0:0, 0", "5:, 0", ":5, 0", "-1:, 0", "0:3", "0:3, :",
                                                ":, 0:2", ":, :100", "None:2, 1", "0:torch.tensor(9), 0")]
INDEXING_CASES += [f"a = torch.arange(24.).reshape(2, 3, 4); b = torch.arange(6).reshape(2, 3); {w}; r = (a, b)"
                   for w in ("a[a > 0] = a[0]", "a[:100:2] = a[0]", "a[0] = a[0]", "a[1] = a[0]", "a[...] = a",
                             "a[0:1] = a[0]", "a[torch.tensor([0])] = a[0]", "a[torch.tensor([1])] = a[0]",
                             "a[:, 0] = a[:, 1]", "a[0, torch.tensor([0, 1])] = a[1, 0]", "b[b > 2] = b[b > 2]",
                             "b[0] = b[0, 0]", "b[[0]] = b[0, 0]", "b[:, 0] = b[0, :2]", "b[1:] = b[:1]",
                             "b.copy_(b.t().t())", "b[0] = b[0].clone()")]
INDEXING_CASES += [f"a = torch.tensor([[1., -2., 3.], [0., 5., -6.]]); i = torch.tensor([0, 3], dtype=torch.int32); r = {c}"
                   for c in ("torch.where(a)", "torch.where(a > 0)", "torch.where(a.int())", "torch.where(a[0, 0])",
                             "torch.where(torch.tensor(0))", "torch.where(torch.tensor(2.5))",
                             "a.clamp_min(torch.tensor([0., 1.]))", "a.clamp_max(torch.tensor([0., 1., 2.]))",
                             "a.clamp(torch.zeros(4), None)", "a.clone().clamp_max_(torch.zeros(2, 1))",
                             "a.index_add(0, i, a)", "a.index_add(0, i.long(), a)",
                             "a.index_copy(1, torch.tensor([0, 0, 1]), torch.zeros(2, 3, 1))",
                             "torch.zeros(2, 2, 3).index_copy(0, torch.tensor([0]), torch.zeros(1, 2, 2))",
                             "torch.take_along_dim(a[0, 0], torch.tensor(0), -1)",
                             "torch.take_along_dim(a[0, 0], torch.tensor(0), 1)")]
# numpy's complex64 is no Python complex (complex128 is): PyTorch reads it through float()
NUMPY_COMPLEX_CASES = [f"a = torch.tensor([[1., 2.], [3., 4.]]); i = torch.tensor([1, 2], dtype=torch.int32); r = {c}"
                       for n in ("np.complex64(1j)", "np.complex64(2 - 1j)", "np.complex128(2 - 1j)")
                       for c in (f"torch.full((2,), {n})", f"torch.result_type(i, {n})", f"a + {n}", f"{n} * a",
                                 f"torch.where(a > 2, a, {n})", f"a.clamp({n})", f"a.masked_fill(a > 2, {n})",
                                 f"i ^ {n}", f"a % {n}", f"a.clone().div_({n})", f"a > {n}", f"torch.tensor([{n}])",
                                 f"a.add({n})", f"i.fill_({n})")]
NUMPY_COMPLEX_CASES += [f"r = torch.{f}([{d}], dtype=torch.{t})" for f in ("tensor", "as_tensor")
                        for d in ("np.complex64(1j)", "np.complex128(2 + 1j), 1", "1, 1j", "torch.tensor(True), np.complex128(2j)")
                        for t in ("float32", "float16", "int64", "bool")]

# integer ranges from Python ints computed exactly (no trip through double); 0-d index_fill/index_select's checks
INDEXING_CASES += [f"r = torch.arange({a})" for a in ("2 ** 60, 2 ** 60 + 3", "0, 2 ** 60, 2 ** 58", "2 ** 62, 2 ** 62 + 7, 2",
                                                   "-2 ** 63, -2 ** 63 + 3", "2 ** 60, 2 ** 60 + 3, dtype=torch.int32",
                                                   "1.5, 5, 1, dtype=torch.int64", "np.int64(2 ** 60), 2 ** 60 + 2",
                                                   "torch.tensor(2 ** 60), 2 ** 60 + 2", "2 ** 53 + 1, 2 ** 53 + 4, dtype=torch.float64")]
INDEXING_CASES += [f"a = torch.tensor(1.); r = {c}" for c in (
    "a.index_fill(0, torch.tensor([], dtype=torch.long), torch.tensor(3.))", "a.index_fill(0, torch.tensor([0]), 3)",
    "a.clone().index_fill_(0, torch.tensor([], dtype=torch.long), 3)", "a.index_fill(0, torch.tensor(0), 3)",
    "a.index_select(0, torch.tensor([[0, 0]]))", "a.index_select(0, torch.tensor([[0, 0.]]))",
    "torch.zeros(2).index_select(0, torch.tensor([[0.]]))", "a.index_select(0, torch.tensor([0, 0], dtype=torch.float32))",
    "torch.zeros(2).index_select(0, torch.tensor([0.]))", "a.index_select(0, torch.tensor([], dtype=torch.long))")]


# a mask naming several dims, then a 0-d bool (a new dim of size 1 or 0) or None: numpy's key needs the mask counted
# as many dims as it has (it had one slot, and numpy read one index too many)
MASK_THEN_BOOL_CASES = [f"a = torch.arange({n * m}.).reshape({n}, {m}); r = {target}"
                        for n, m in ((3, 4), (3, 0), (2, 3), (1, 1))
                        for key in ("a > 2, torch.tensor({b})", "torch.tensor({b}), a > 2", "a > 2, {b}",
                                    "a > 2, None, torch.tensor({b})", "a > 2, ..., {b}", "..., a > 2, {b}",
                                    "(a > 2)[0], 1, {b}", "0, (a > 2)[0], {b}")
                        for b in ("True", "False")
                        for target in (f"a[{key.format(b=b)}]", f"a.clone().__setitem__(({key.format(b=b)}), 7.)")]

CASES = (MASK_THEN_BOOL_CASES + ADD_CASES + ORDER_CASES + COPY_CASES + PROMOTION_CASES + INDEX_FN_CASES + BUILD_CASES + INDEXING_CASES
         + NUMPY_COMPLEX_CASES)


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)
