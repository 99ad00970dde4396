"""torch.compile and Module.compile against live PyTorch, as generated programs: what a student sees of a
compiled module or function (the OptimizedModule wrapper and its `_orig_mod.` names, outputs' grad_fn
CompiledFunctionBackward and the tensors it reads, gradients, a second backward's error, torch.compile's
argument errors) must be PyTorch's. (The order of the node's next_functions is TorchDynamo's order of its
graph's inputs, not reproduced: they are compared as a sorted list.) Values are compared to 1e-6 (PyTorch's compiled kernels may round
differently from its eager ones) and printed to 4 decimals."""
import random

import pytest

import gradlab
from program_parity import assert_same_shown, run_program

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# (modules defined in the program itself: PyTorch compiles their forward, also in place)
# (torch.compiler.reset: PyTorch gives up compiling a function after 8 recompilations in one process, and this
# file compiles many modules)
_PRELUDE = """
torch.compiler.reset()
nn = torch.nn
class Net(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)
    def forward(self, x):
        return self.fc2(torch.tanh(self.fc1(x)))
class TwoHeads(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.body = nn.Linear(n_in, 4)
        self.a = nn.Linear(4, 2)
        self.b = nn.Linear(4, 1)
    def forward(self, x, scale=1.0):
        h = self.body(x).relu()
        return self.a(h) * scale, self.b(h).sigmoid()
"""

_MODULES = ["nn.Linear({i}, 3)", "nn.Sequential(nn.Linear({i}, 5), nn.ReLU(), nn.Linear(5, 2))",
            "Net({i}, 4, 2)", "TwoHeads({i})", "nn.Sequential(nn.Linear({i}, 4), nn.BatchNorm1d(4), nn.Tanh())"]
_FORMS = ["c = torch.compile(m{kw})", "m.compile({kwonly}); c = m", "c = torch.compile(m{kw}); c.eval(); c.train()"]
_BACKENDS = ["", ", backend='aot_eager'", ", backend='eager'", ", mode='reduce-overhead', backend='aot_eager'"]


def _describe(t):
    return f"{type(t).__name__} {tuple(t.shape)} {t.dtype} {t.requires_grad} {type(t.grad_fn).__name__}"


def _module_cases():
    rng = random.Random(7)
    cases = []
    for module in _MODULES:
        for form in _FORMS:
            for backend in _BACKENDS:
                if rng.random() < 0.45:
                    continue
                n_in = rng.choice([2, 3])
                kw = backend
                code = [_PRELUDE, f"torch.manual_seed({rng.randrange(100)})", f"m = {module.format(i=n_in)}",
                        form.format(kw=kw, kwonly=kw.lstrip(", ")),
                        f"x = torch.randn(6, {n_in}, requires_grad={rng.choice([True, False])})",
                        "out = c(x)", "outs = out if isinstance(out, tuple) else (out,)",
                        "show(type(c).__name__, c, [n for n, _ in c.named_parameters()], list(c.state_dict()))",
                        "show([describe(o) for o in outs])",
                        "show(sorted((type(f).__name__, leaf_shape(f)) for f, _ in outs[0].grad_fn.next_functions) "
                        "if type(outs[0].grad_fn).__name__ == 'CompiledFunctionBackward' else None)",
                        "loss = sum(o.pow(2).mean() for o in outs)", "loss.backward()",
                        "values(*outs, *[p.grad for p in m.parameters()], x.grad)",
                        "try:\n    loss.backward()\nexcept RuntimeError as e:\n    show(str(e)[:60])",
                        "with torch.no_grad():\n    show([describe(o) for o in (c(x) if isinstance(c(x), tuple) else (c(x),))])"]
                cases.append("\n".join(code))
    return cases


def _function_cases():
    rng = random.Random(8)
    cases = []
    bodies = ["return (a * w).sin() + b", "return torch.tanh(a @ W) * b", "return (a - b).pow(2).sum(), a.exp()",
              "h = a @ W\n    return h.relu() + h.sigmoid() - b"]
    for body in bodies:
        for deco in ["@torch.compile", "@torch.compile(backend='aot_eager')", "@torch.compile(mode='max-autotune', backend='aot_eager')",
                     "@torch.compile(backend='eager')"]:
            if rng.random() < 0.4:
                continue
            a_grad = rng.choice([True, False])
            code = [f"torch.manual_seed({rng.randrange(100)})", "w = torch.randn(3, requires_grad=True)",
                    "W = torch.randn(3, 3, requires_grad=True)",
                    f"a = torch.randn(4, 3, requires_grad={a_grad})", "b = torch.randn(4, 3)",
                    f"{deco}\ndef f(a, b):\n    {body}",
                    "out = f(a, b)", "outs = out if isinstance(out, tuple) else (out,)",
                    "show(f.__name__, [describe(o) for o in outs])",
                    "show(sorted((type(n).__name__, leaf_shape(n)) for n, _ in outs[0].grad_fn.next_functions) "
                    "if type(outs[0].grad_fn).__name__ == 'CompiledFunctionBackward' else None)",
                    "sum(o.sum() for o in outs).backward()",
                    "values(*outs, w.grad, W.grad, a.grad)"]
            cases.append("\n".join(code))
    return cases


_ERROR_CASES = [
    "torch.compile(nn.Linear(2, 2), mode='fastest')",
    "torch.compile(nn.Linear(2, 2), mode='default', options={'trace.enabled': True})",
    "torch.compile(nn.Linear(2, 2), backend='nonexistent')",
    "torch.compile(7)",
    "torch.compile(nn.Linear(2, 2), 'inductor')",
    "nn.Linear(2, 2).compile('inductor')",
    "show(torch.compile(nn.Linear(2, 2), disable=True))",
    "show(torch.compiler.is_compiling(), torch.compiler.list_backends())",
    "m = nn.Linear(2, 3); c = torch.compile(m); m2 = nn.Linear(2, 3); m2.load_state_dict(c.state_dict())",
    "m = nn.Linear(2, 3); c = torch.compile(m); c.load_state_dict(m.state_dict())",
    "m = nn.Linear(2, 3); c = torch.compile(m); show(c.weight is m.weight, c.out_features, c._orig_mod is m); "
    "c.extra = 5; show(m.extra)",
]


def _names(lib, show):
    def leaf_shape(node):
        var = getattr(node, "variable", None)
        return None if var is None else tuple(var.shape)
    return {"describe": _describe, "leaf_shape": leaf_shape}


@pytest.mark.parametrize("code", _module_cases() + _function_cases() + _ERROR_CASES)
def test_compile_matches_torch(code):
    code = _PRELUDE + "\n" + code
    assert_same_shown(run_program(gradlab, code, _names), run_program(torch, code, _names), rtol=1e-6)
