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


CASES = ADD_CASES


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)
