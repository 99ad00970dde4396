"""nn's activations, dropouts, losses and normalizations that gradlab lacked (celu, selu, the shrinks, threshold,
rrelu, glu, alpha/feature dropouts, the margin losses, rms_norm, instance_norm, local_response_norm, ...) and their
modules, as generated cases: each runs under gradlab and under torch (seeded alike), and the outcomes must be the
same: values bit for bit where `exact` (else as printed), dtype, shape, strides, grad_fn and its next functions,
gradients, warnings, or the exception's type and message."""
import random

import pytest

import gradlab
from test_missing_ops import _grads, _without_bits, outcome   # (the same comparison as the other op files)

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_VALUES = "[[0.5, -1.25, 2., -0.3], [0., -2.5, 0.2, 3.], [-0.05, 0.7, -4., 1.1]]"


def _x(dt, grad, shape=None):
    g = ", requires_grad=True" if grad else ""
    base = f"torch.tensor({_VALUES}, dtype=torch.{dt}{g})"
    return base if shape is None else f"torch.linspace(-3, 2.5, {_numel(shape)}, dtype=torch.{dt}).reshape{shape}" \
        + (".requires_grad_()" if grad else "")


def _numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


def _compare(code, exact=True):
    mine, theirs = outcome(gradlab, code), outcome(torch, code)
    if not exact and isinstance(mine, tuple) and isinstance(theirs, tuple):
        mine, theirs = (_without_bits(mine[0]), mine[1]), (_without_bits(theirs[0]), theirs[1])
    assert mine == theirs, code


# --- activations ---------------------------------------------------------------------------------------
def _activation_cases():
    rng = random.Random(14)
    calls = ["F.celu(x)", "F.celu(x, 0.5)", "F.celu(x, alpha=2.)", "torch.celu(x, 1.5)", "F.selu(x)", "torch.selu(x)",
             "F.tanhshrink(x)", "F.hardshrink(x)", "F.hardshrink(x, 1.)", "torch.hardshrink(x, 0.3)",
             "x.hardshrink()", "F.softshrink(x)", "F.softshrink(x, 1.)", "F.softshrink(x, -1.)",
             "F.threshold(x, 0.1, 20.)", "F.threshold(x, 0., -1.)", "torch.threshold(x, 1, 0)",
             "F.glu(x)", "F.glu(x, 0)", "F.glu(x, dim=-1)", "F.glu(x, 1)", "F.glu(x, 2)", "F.glu(x.t(), 1)",
             "F.rrelu(x)", "F.rrelu(x, 0.1, 0.3)", "F.rrelu(x, training=True)", "F.rrelu(x, 0.2, 0.2, True)",
             "F.rrelu(x, 0.5, 0.1, True)", "torch.rrelu(x)", "torch.rrelu(x, 0.1, 0.5, True)",
             "F.elu(x, 0.5)", "F.leaky_relu(x, 0.2)", "F.relu(x)"]
    inplace = ["F.celu(x, 0.5, inplace=True)", "torch.celu_(x)", "F.selu(x, inplace=True)", "torch.selu_(x)",
               "F.threshold(x, 0.1, 20., inplace=True)", "F.threshold_(x, 0.5, -1.)", "torch.threshold_(x, 0., 2.)",
               "F.rrelu(x, inplace=True)", "F.rrelu(x, training=True, inplace=True)", "F.rrelu_(x, 0.1, 0.4, True)",
               "torch.rrelu_(x)", "F.elu_(x)", "F.elu_(x, 2.)", "F.leaky_relu_(x)", "F.leaky_relu_(x, 0.3)",
               "F.relu_(x)"]
    cases = []
    for call in calls:
        for dt in ("float32", "float64", "float16", "int64"):
            grad = dt != "int64" and dt != "float16" or rng.random() < 0.3
            y = call.replace("x", "x_")
            cases.append(f"torch.manual_seed(3); F = torch.nn.functional; x_ = {_x(dt, grad)}; y = {y}; "
                         + _grads("x_"))
    for call in inplace:
        for dt in ("float32", "float64"):
            y = call.replace("(x", "(h")
            cases.append(f"torch.manual_seed(5); F = torch.nn.functional; x_ = {_x(dt, True)}; h = x_ * 1; "
                         f"v = h._version; y = {y}; y = (y, h._version - v); " + _grads("x_").replace("(y,", "(y[0],")
                         .replace("y.requires_grad", "y[0].requires_grad").replace("y.numel()", "y[0].numel()")
                         .replace("reshape(y.shape).to(y.dtype)", "reshape(y[0].shape).to(y[0].dtype)")
                         .replace("autograd.grad(y,", "autograd.grad(y[0],"))
    # shapes: 0-d, empty, 3-d, a transposed input
    for call in ("F.celu(x, 0.7)", "F.selu(x)", "F.hardshrink(x)", "F.softshrink(x, 0.4)", "F.threshold(x, 0.5, 9.)",
                 "F.rrelu(x, training=True)", "F.tanhshrink(x)"):
        for shape in ("(())", "((0, 3))", "((2, 3, 4))"):
            src = f"torch.linspace(-3, 2.5, {max(_numel(eval(shape)), 1) if shape != '((0, 3))' else 0})"
            cases.append(f"torch.manual_seed(7); F = torch.nn.functional; x_ = {src}.reshape{shape}.requires_grad_(); "
                         f"y = {call.replace('x', 'x_')}; " + _grads("x_"))
        cases.append(f"torch.manual_seed(7); F = torch.nn.functional; x_ = {_x('float32', True)}; "
                     f"y = {call.replace('x', 'x_.t()')}; " + _grads("x_"))
    # second order: create_graph through each gradient op
    for call in ("F.celu(x, 0.5)", "F.selu(x)", "F.hardshrink(x)", "F.softshrink(x)", "F.threshold(x, 0.1, 2.)",
                 "F.glu(x)", "F.rrelu(x)", "F.rrelu(x, training=True)", "F.glu(x, 0)"):
        cases.append(f"torch.manual_seed(9); F = torch.nn.functional; x = {_x('float64', True, (4, 6))}; "
                     f"y = {call}; g, = torch.autograd.grad(y, x, torch.linspace(-1, 2, y.numel(), dtype=y.dtype)"
                     f".reshape(y.shape), create_graph=True); gg, = torch.autograd.grad((g * g).sum(), x, "
                     f"allow_unused=True); r = (y, g, gg)")
    # argument errors
    for call in ("F.celu(x, 'a')", "F.celu(x, 0.)", "F.selu([1.])", "F.hardshrink(x, None)", "F.softshrink(x, 'b')",
                 "F.threshold(x, None, 1.)", "F.threshold(x.bool(), 0, 1)", "F.glu(x, 5)", "F.glu(x[:, :3])",
                 "F.glu(torch.tensor(1.))", "F.rrelu(x, 'a')", "torch.rrelu(x, 0.3, 0.1, True)", "F.glu(x, 1.5)",
                 "torch.threshold(x, 1.)", "torch.hardshrink(x, lambd=[1])"):
        cases.append(f"F = torch.nn.functional; x = {_x('float32', False)}; r = {call}")
    return cases


@pytest.mark.parametrize("code", _activation_cases())
def test_activations(code):
    _compare(code)
