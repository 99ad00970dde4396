"""torch.utils.checkpoint against live PyTorch, as generated programs: both ways (use_reentrant True, False, or
not given: PyTorch's warning), checkpoint_sequential, dropout under preserve_rng_state, functions reading
parameters they are not given, a second backward with retain_graph, and the argument errors. Compared:
printed tensors, grad_fn and next_functions names, gradients, the generator's state after, warnings (text
and category) and exceptions. torch.fork_rng too."""
import random

import pytest

import gradlab
from program_parity import assert_same_shown, run_program

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_MODELS = ["nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))",
           "nn.Sequential(nn.Linear(3, 5), nn.ReLU(), nn.Dropout(0.4), nn.Linear(5, 3), nn.Sigmoid())",
           "nn.Sequential(nn.Linear(3, 3), nn.BatchNorm1d(3), nn.Tanh(), nn.Linear(3, 2), nn.Softplus())"]
_CALLS = ["checkpoint(m, x{kw})", "checkpoint_sequential(m, {segments}, x{kw})",
          "checkpoint(lambda t: m(t).sin() * w, x{kw})", "checkpoint(lambda t, s: m(t * s), x, 2.0{kw})"]
_KWS = ["", ", use_reentrant=True", ", use_reentrant=False", ", use_reentrant=False, preserve_rng_state=False",
        ", use_reentrant=True, preserve_rng_state=False", ", use_reentrant=False, early_stop=False"]


def _cases():
    rng = random.Random(5)
    cases = []
    for model in _MODELS:
        for call in _CALLS:
            for kw in _KWS:
                if rng.random() < 0.5:
                    continue
                if "sequential" in call and ("early_stop" in kw or "preserve_rng_state" in kw):
                    kw = kw.split(", preserve")[0].split(", early")[0]
                x_grad = rng.choice([True, True, False])
                code = [f"torch.manual_seed({rng.randrange(50)})", f"m = {model}",
                        "w = torch.linspace(-1, 1, 2 if m[-1].__class__.__name__ != 'Sigmoid' else 3, requires_grad=True)",
                        f"x = torch.randn(6, 3, requires_grad={x_grad})",
                        f"y = {call.format(kw=kw, segments=rng.choice([1, 2, 3]))}",
                        "show(y, type(y.grad_fn).__name__, [type(n).__name__ for n, _ in y.grad_fn.next_functions] if y.grad_fn else None)",
                        "y.pow(2).sum().backward(retain_graph=True)" if rng.random() < 0.3 else "None",
                        "y.pow(2).sum().backward()",
                        "values(x.grad, w.grad, *[p.grad for p in m.parameters()])",
                        "show(torch.rand(2))"]
                cases.append("\n".join(code))
    return cases


_ERRORS = [
    "checkpoint(nn.Linear(2, 2), torch.ones(2), use_reentrant=True, scale=3)",
    "checkpoint(nn.Linear(2, 2), torch.ones(2), use_reentrant=True, debug=True)",
    "checkpoint_sequential(nn.Sequential(nn.Linear(2, 2)), 1, torch.ones(2), use_reentrant=True, other=1)",
    "y = checkpoint(nn.Linear(2, 2), torch.ones(2), use_reentrant=True); show(y.requires_grad, y.grad_fn)",
    "y = checkpoint(nn.Linear(2, 2), torch.ones(2), use_reentrant=False); show(y.requires_grad, type(y.grad_fn).__name__)",
    "torch.utils.checkpoint.detach_variable([torch.ones(1)])",
    "a = torch.ones(2, requires_grad=True); show(torch.utils.checkpoint.detach_variable((a, 3))[0].requires_grad)",
    "torch.manual_seed(3)\nwith torch.random.fork_rng():\n    show(torch.rand(2))\nshow(torch.rand(2))",
    "torch.manual_seed(3)\nwith torch.random.fork_rng(enabled=False):\n    show(torch.rand(2))\nshow(torch.rand(2))",
]


def _names(lib, show):
    return {"checkpoint": lib.utils.checkpoint.checkpoint, "checkpoint_sequential": lib.utils.checkpoint.checkpoint_sequential}


@pytest.mark.parametrize("code", _cases() + _ERRORS)
def test_checkpoint_matches_torch(code):
    assert_same_shown(run_program(gradlab, code, _names, record_warnings=True),
                      run_program(torch, code, _names, record_warnings=True), rtol=1e-5)
