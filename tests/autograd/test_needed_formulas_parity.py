"""A gradient formula runs only for an input whose gradient the backward needs (PyTorch's
task_should_compute_output): an op whose derivative for one input is not implemented (zeta's for x,
igamma's for a) raises only when that input's gradient is asked for, by autograd.grad or backward(inputs=);
a plain backward needs every input's, and raises. Generated cases (op x which gradients are asked for x
how) run under gradlab and under live torch; the outcomes (gradients, or the exception's type and
message) must be the same.
"""
import itertools
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# f(a, b, c): a, b are float64 leaves that require grad, c a third one; an op whose derivative for one input is
# not implemented, alone or inside a larger graph (the unneeded input then also reached by another path)
OPS = {
    "zeta": "torch.special.zeta(a, b + 1)",
    "zeta_swapped": "torch.special.zeta(b + 2, a)",
    "zeta_in_graph": "torch.special.zeta(a * c, b + 1) * c + a.sin()",
    "igamma": "torch.igamma(a, b)",
    "igammac": "torch.igammac(a, b)",
    "gammainc": "torch.special.gammainc(a, b)",
    "gammaincc": "torch.special.gammaincc(a, b)",
    "gammainc_method": "a.igamma(b * c)",
    "igamma_twice": "torch.igamma(a, b) + torch.igammac(a, c)",
    "xlogy": "torch.xlogy(a, b)",
    "atan2": "torch.atan2(a, b)",
}
MODES = {
    "grad_a": "r = torch.autograd.grad(out, a)",
    "grad_b": "r = torch.autograd.grad(out, b)",
    "grad_c": "r = torch.autograd.grad(out, c, allow_unused=True)",
    "grad_bc": "r = torch.autograd.grad(out, (b, c), allow_unused=True)",
    "grad_ab": "r = torch.autograd.grad(out, (a, b))",
    "grad_b_graph": "r = torch.autograd.grad(out, b, create_graph=True)",
    "inputs_a": "out.backward(inputs=[a]); r = (a.grad, b.grad, c.grad)",
    "inputs_b": "out.backward(inputs=[b]); r = (a.grad, b.grad, c.grad)",
    "inputs_bc": "out.backward(inputs=[b, c]); r = (a.grad, b.grad, c.grad)",
    "backward": "out.backward(); r = (a.grad, b.grad, c.grad)",
    "a_frozen": "a.requires_grad_(False); out = OUT; out.backward(); r = (a.grad, b.grad, c.grad)",
}
CASES = list(itertools.product(OPS, MODES))


def outcome(module, op, mode):
    rng = np.random.default_rng(zlib.crc32(f"{op} {mode}".encode()))
    a, b, c = (module.tensor(rng.uniform(lo, hi, 4), requires_grad=True) for lo, hi in ((1.5, 2.5), (0.1, 0.9),
                                                                                       (0.5, 1.5)))
    namespace = {"torch": module, "a": a, "b": b, "c": c}
    code = MODES[mode].replace("OUT", OPS[op] + ".sum()")
    try:
        if "OUT" not in MODES[mode]:
            namespace["out"] = eval(OPS[op] + ".sum()", namespace)
        exec(code, namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {error}"
    return [None if t is None else (np.round(t.detach().numpy(), 10).tolist(), t.requires_grad)
            for t in namespace["r"]]


@pytest.mark.parametrize("op,mode", CASES)
def test_formulas_run_only_when_needed(op, mode):
    assert outcome(gradlab, op, mode) == outcome(torch, op, mode)


def test_the_issues_case():
    x = gradlab.tensor([2.5, 3.0], dtype=gradlab.float64, requires_grad=True)
    q = gradlab.tensor([1.5, 2.0], dtype=gradlab.float64, requires_grad=True)
    (gq,) = gradlab.autograd.grad(gradlab.special.zeta(x, q).sum(), q)
    (expected,) = torch.autograd.grad(torch.special.zeta(torch.tensor([2.5, 3.0], dtype=torch.float64,
                                                                       requires_grad=True),
                                                          tq := torch.tensor([1.5, 2.0], dtype=torch.float64,
                                                                             requires_grad=True)).sum(), tq)
    assert np.allclose(gq.numpy(), expected.numpy(), rtol=1e-12)
    with pytest.raises(NotImplementedError, match="the derivative for 'zeta' is not implemented."):
        gradlab.autograd.grad(gradlab.special.zeta(x, q).sum(), x)
