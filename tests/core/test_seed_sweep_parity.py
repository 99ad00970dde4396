"""What the API fuzzer found on seeds it was not tuned on (`python tests/fuzz/test_api_fuzz.py --report --seed N`,
N = 15, 16, 17; issue 14), each cause widened into generated cases: every case runs under gradlab and under live
torch, and the outcomes (value as printed, dtype, shape, requires_grad, grad_fn name, or the exception's type and
message) must be the same. Nothing here knows an answer.
"""
import itertools

import numpy as np  # noqa: F401  (the cases' code reads np)
import pytest

import gradlab
from test_findings_parity import outcome

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

INT_DTYPES = ["torch.uint8", "torch.int8", "torch.int16", "torch.int32", "torch.int64"]
FLOAT_DTYPES = ["torch.float16", "torch.float32", "torch.float64"]
ALL_DTYPES = ["torch.bool"] + INT_DTYPES + FLOAT_DTYPES

# a tensor compared with a tensor of another dtype: PyTorch compares in their common dtype (uint8 >= tensor(-3)
# is uint8 >= 253), on either side, by operator and by name
COMPARE_CASES = [f"a = torch.tensor([0, 1, 10, 200, 5], dtype={d}); b = torch.tensor({v}, dtype={e}); r = {expr}"
                 for d, e in itertools.product(ALL_DTYPES, ALL_DTYPES) if d != e
                 for v in ("-3", "253", "0.1", "[300, -1, 0.5, 200, 5]")
                 if not (e == "torch.bool" and v != "253") and not (e in INT_DTYPES + ["torch.bool"] and "." in v)
                 for expr in ("a >= b", "b < a", "a == b", "torch.le(a, b)", "a.ne(b)", "torch.gt(b, a)")]

# MmBackward0 keeps both inputs' sizes (`_saved_self_sym_sizes`, `_saved_mat2_sym_sizes`), also after backward
MM_SIZES_CASES = [f"x = torch.ones({n}, {k}, requires_grad={gx}); y = torch.ones({m}, {k}, requires_grad={gy}); "
                  f"z = {expr}; g = z.grad_fn; {back}r = (g._saved_self_sym_sizes, g._saved_mat2_sym_sizes)"
                  for n, k, m in ((2, 3, 4), (3, 3, 3), (1, 2, 1), (2, 2, 3))
                  for gx, gy in ((True, False), (False, True), (True, True))
                  for expr in ("x.mm(y.t())", "x @ y.t()", "y.matmul(x.t())")
                  for back in ("", "z.sum().backward(retain_graph=True); ")]

CASES = COMPARE_CASES + MM_SIZES_CASES


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)
