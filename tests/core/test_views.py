"""Views and in-place changes: a view shares its base's storage, so a change through either is a
change of both, and gradients must follow (PyTorch's CopySlices and AsStridedBackward0).

Each snippet runs under gradlab and under torch (bound to `torch`, with a leaf `x`); what it
prints must be the same: values, grad_fn names, next_functions, gradients, or the error.
"""
import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def describe(t):
    """A tensor's values and where its gradient goes, two levels deep."""
    values = np.round(np.array(t.tolist(), dtype=float), 3).tolist()      # (numpy's exp and torch's differ in the last bit)
    if t.grad_fn is None:
        return f"{values} no grad_fn"
    nexts = [(f.name() if f is not None else None) for f, _ in t.grad_fn.next_functions]
    return f"{values} {t.grad_fn.name()} -> {nexts}"


SNIPPETS = [
    # a view read after its base changed in place
    "y = x * 2; v = y[0]; y.mul_(3); show(v); v.sum().backward(); show(x.grad)",
    "y = x * 2; v = y.view(-1); y.add_(1); show(v); (v * v).sum().backward(); show(x.grad)",
    "y = x * 2; v = y.t(); y.exp_(); show(v); v.sum().backward(); show(x.grad)",
    "y = x * 2; v = y[:, 1]; w = y[1]; y.mul_(y); show(v); show(w); (v * w).sum().backward(); show(x.grad)",
    "y = x * 2; v = y[1:]; y[0] = 5; show(v); v.sum().backward(); show(x.grad)",
    "y = x * 2; v = y[:1]; y[0] = 5; show(v); v.sum().backward(); show(x.grad)",
    # written through a view: the base's history becomes CopySlices
    "y = x * 2; v = y[0]; v.mul_(3); show(y); show(v); y.sum().backward(); show(x.grad)",
    "y = x * 2; c = y[:, 1]; c.zero_(); show(y); show(c); (y * y).sum().backward(); show(x.grad)",
    "y = x * 2; t = y.t(); t.add_(1); show(y); show(t); y.sum().backward(); show(x.grad)",
    "y = x * 2; v = y.view(-1); v[1:3].mul_(2); show(y); show(v); (y * y).sum().backward(); show(x.grad)",
    "y = x * 2; v = y[0]; w = y[:, 0]; v.mul_(3); show(w); (w * w).sum().backward(); show(x.grad)",
    "y = x * 2; v = y[1]; v[0] = 7; show(y); show(v); y.sum().backward(); show(x.grad)",
    "y = x * 2; v = y[0]; v.mul_(x[1]); show(y); y.sum().backward(); show(x.grad)",
    "y = x * 2; v = y[0]; v.exp_(); show(y); y.sum().backward(); show(x.grad)",
    "y = x * 2; y[0].add_(1); y[1].mul_(2); show(y); y.sum().backward(); show(x.grad)",
    "y = x * 2; v = y[0]; v.mul_(2); v.add_(1); show(y); show(v); (y * 3).sum().backward(); show(x.grad)",
    # a base that did not require grad gets a history from what is written into its view
    "y = torch.zeros(2, 2); v = y[0]; v.add_(x[0]); show(y); show(v); y.sum().backward(); show(x.grad)",
    "y = torch.zeros(2, 2); v = y[1]; y.add_(x); show(v); v.sum().backward(); show(x.grad)",
    # freeing, retain_graph, create_graph
    "y = x * 2; v = y[0]; v.mul_(y[1]); l = y.sum(); l.backward(); l.backward()",
    "y = x * 2; v = y[0]; v.mul_(y[1]); l = y.sum(); l.backward(retain_graph=True); l.backward(); show(x.grad)",
    "y = x * 2; v = y[0]; v.mul_(v); g, = torch.autograd.grad(y.sum(), x, create_graph=True); show(g); "
    "g.sum().backward(); show(x.grad)",
    # still errors, as in PyTorch
    "v = x[0]; v.mul_(2)",
    "v = x.t(); v.zero_()",
    "y = x * 2; v = y.expand(2, 2, 2); v.add_(1)",
    "with torch.no_grad():\n    v = x[0]\n    v.mul_(2)\nshow(x)",
    # retain_grad follows the tensor to its new history; hooks fire as in PyTorch
    "y = x * 2; y.retain_grad(); y.mul_(3); y.sum().backward(); show(y.grad); show(x.grad)",
    "y = x * 2; v = y[0]; v.retain_grad(); y.mul_(3); v.sum().backward(); show(v.grad); show(x.grad)",
    "y = x * 2; h = y.register_hook(lambda g: g * 10); y.mul_(3); y.sum().backward(); show(x.grad)",
    # a 0-d tensor that receives three gradients
    "s = x.sum() * 1; (s * 2 + s * 3 + s * 4).backward(); show(x.grad)",
    # indexing records PyTorch's nodes
    "y = x * 2; show(y[:]); show(y[...]); show(y[:, :]); show(y[0:2]); show(y[1][:]); show(y[0, ...])",
]


def run(module, code):
    lines = []
    namespace = {"torch": module, "x": module.tensor([[1., 2.], [3., 4.]], requires_grad=True),
                 "show": lambda t: lines.append(describe(t))}
    try:
        exec(code, namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        lines.append(f"{type(error).__name__}: {str(error).splitlines()[0]}")
    return lines


@pytest.mark.parametrize("code", SNIPPETS)
def test_same_as_pytorch(code):
    assert run(gradlab, code) == run(torch, code)


def test_a_view_of_a_zero_dim_result_shares_memory():
    """y[0] of a 1-d tensor is a 0-d view (numpy would give a copy): writing y shows through it."""
    y = gradlab.tensor([1., 2.]) * 1
    v = y[0]
    y.mul_(3)
    assert v.item() == 3.0


def test_views_nobody_holds_are_forgotten():
    """The base keeps weak references to its views, and drops dead ones as it goes."""
    y = gradlab.ones(4) * 1
    for _ in range(200):
        y[1:3].sum()
    assert len(y._views) <= 32
