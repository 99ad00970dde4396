"""What tests/fuzz/api_fuzz_more.py found in tensor metadata and nn.Module state, widened into generated cases:
is_contiguous(memory_format=), is_signed(), .real/.imag/.conj()/.H of complex and real tensors (views, their
strides and storage offsets, their gradients), size(d) of a 0-d tensor, reversed(t), and load_state_dict's
upgrade of a batch norm's state without a version. Each case runs under gradlab and under torch; the outcomes
(printed value, dtype, requires_grad, grad_fn name, or the exception's type and message) must be the same.
"""
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

from test_findings_parity import outcome  # noqa: E402  (the same comparison: value, dtype, grad_fn, or the error)

DTYPES = ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool", "complex64", "complex128"]
# tensors of several layouts: contiguous, transposed, sliced with a step, expanded, 0-d, empty, 4-d
SOURCES = ["torch.ones(2, 3, dtype=torch.{d})", "torch.ones(3, 2, dtype=torch.{d}).t()",
           "torch.ones(4, 3, dtype=torch.{d})[1::2, 1:]", "torch.ones(1, 3, dtype=torch.{d}).expand(2, 3)",
           "torch.ones((), dtype=torch.{d})", "torch.zeros(0, 3, dtype=torch.{d})",
           "torch.ones(2, 3, 4, 5, dtype=torch.{d})", "torch.ones(2, 3, 4, 5, dtype=torch.{d}).permute(0, 2, 3, 1)",
           "torch.ones(2, 5, 4, 3, dtype=torch.{d}).permute(0, 3, 1, 2)", "torch.ones(2, 1, 4, 5, dtype=torch.{d})",
           "torch.ones(2, 3, 1, 1, dtype=torch.{d})", "torch.ones(6, dtype=torch.{d})[2:].view(2, 2)"]
QUERIES = ["a.is_contiguous()", "a.is_contiguous(memory_format=torch.contiguous_format)",
           "a.is_contiguous(memory_format=torch.channels_last)", "a.is_contiguous(memory_format=torch.preserve_format)",
           "a.is_contiguous(torch.channels_last)", "a.is_contiguous(memory_format=None)", "a.is_signed()",
           "a.is_signed(1)", "a.real", "a.imag", "a.real.stride()", "a.imag.stride()", "a.real.storage_offset()",
           "a.imag.storage_offset()", "a.storage_offset()", "a.real.is_contiguous()", "a.conj()", "a.conj().dtype",
           "a.mH", "a.size(0)", "a.size(-1)", "a.size(dim=2)", "a.stride(0)", "reversed(a)", "a.__reversed__()"]
META_CASES = [f"a = {s.format(d=d)}; r = {q}" for s in SOURCES for d in DTYPES for q in QUERIES]

# complex parts and conjugates under autograd: grad_fn names, the graph, gradients, writes through the view
COMPLEX_GRAD_CASES = [f"x = torch.tensor([[1+2j, -3j], [0.5, 2-1j]], dtype=torch.{d}, requires_grad=True); {body}"
                      for d in ("complex64", "complex128") for body in (
                          "r = x.real", "r = x.imag", "r = x.real.grad_fn.next_functions[0][0].name()",
                          "y = x.imag * 3; y.sum().backward(); r = x.grad", "(x.real ** 2).sum().backward(); r = x.grad",
                          "(x.real * x.imag).sum().backward(); r = x.grad", "r = x.conj()", "r = x.H",
                          "r = x.mH.grad_fn.name()", "r = x.t().real", "r = x[1].imag",
                          "r = torch.autograd.grad(x.imag.sum(), x)", "r = x.real.is_leaf")]
COMPLEX_GRAD_CASES += [f"x = torch.tensor([1+2j, 3-4j]); p = x.{part}; p.add_(5); r = (x, p)" for part in ("real", "imag")]
COMPLEX_GRAD_CASES += [f"x = torch.tensor([1., 2.], requires_grad=True); r = x.{q}"
                       for q in ("real", "conj()", "real is x", "conj() is x")]

# BatchNorm's num_batches_tracked: a plain dict has no version, so the module's own count fills it in
BN_NETS = ["nn.Sequential(nn.Linear(2, 3), nn.BatchNorm1d(3))", "nn.ModuleList([nn.BatchNorm2d(2), nn.Linear(1, 1)])",
           "nn.BatchNorm1d(2, track_running_stats=False)", "nn.Sequential(nn.Sequential(nn.BatchNorm1d(2)))"]
BN_LOADS = ["m.load_state_dict({})", "m.load_state_dict({}, strict=False)", "m.load_state_dict(m.state_dict())",
            "m.load_state_dict(dict(m.state_dict()))",
            "sd = m.state_dict(); sd.pop(next(k for k in sd if k.endswith('tracked')), None); m.load_state_dict(sd)",
            "sd = dict(m.state_dict()); sd.pop(next(k for k in sd if k.endswith('tracked')), None); "
            "m.load_state_dict(sd, strict=False)",
            "sd = m.state_dict(); r = m.load_state_dict(sd, strict=False); r = list(sd)",
            "sd = m.state_dict(); r = sorted(sd._metadata.items())"]
BN_CASES = [f"m = {net}; r = {load}" if not load.startswith("sd") else f"m = {net}; {load}" if "r =" in load
            else f"m = {net}; {load.rsplit('; ', 1)[0]}; r = {load.rsplit('; ', 1)[1]}" for net in BN_NETS for load in BN_LOADS]

CASES = META_CASES + COMPLEX_GRAD_CASES + BN_CASES


@pytest.mark.parametrize("code", CASES)
def test_same_outcome_as_torch(code):
    assert outcome(gradlab, code) == outcome(torch, code)


def test_cases_are_distinct():
    assert len(set(CASES)) == len(CASES)
