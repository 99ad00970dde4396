"""The dtypes/values/indexing fuzz families' findings (tests/fuzz/api_fuzz_dtidx.py, issue 14), each widened into
generated cases: every case runs under gradlab and under torch, and the outcomes (value as printed, dtype,
requires_grad, grad_fn name, or the exception's type and message) must be the same.
"""
import itertools

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


CASES = ADD_CASES + ORDER_CASES + COPY_CASES


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)
