"""The shortcuts of the recording path (issue 18), checked against real PyTorch on generated cases.

* registry.apply keeps an input saved at version 0 as the tensor itself (no SavedTensor) and a tensor's
  version counter is made on first use: an in-place change after the save, before or after a view
  shares the counter, must still give PyTorch's error, versions and saved values;
* Tensor's +, * and / take a float or a same-shaped tensor straight to the op table;
* `p -= lr * g` (and +=, *=, /=) under no_grad writes into p directly (ops/inplace.py write_untracked);
* the engine looks at a node's hooks only once one was registered (Node._hooked).

Every case runs under both libraries; the outcomes (values, versions, or the exception's type and
message) are compared.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
DTYPES = ("float32", "float64")


def outcome(fn, lib):
    """What fn(lib) gives: its values as nested lists (rounded), or the exception's type and message."""
    try:
        result = fn(lib)
    except Exception as e:          # noqa: BLE001  (the exception itself is the outcome)
        return ("raised", type(e).__name__, str(e))
    return ("gave", _plain(result))


def _plain(x):
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "detach"):
        a = np.asarray(x.detach().numpy())
        if a.dtype.kind == "c":
            return [np.round(a.real, 5).tolist(), np.round(a.imag, 5).tolist()]
        # (nan written as a string: nan != nan would fail equal outcomes, 0 / 0 is a case here)
        return [repr(v) if v != v else v for v in np.round(a.astype(np.float64), 5).reshape(-1).tolist()] + [a.shape]
    return x


def same(fn):
    assert outcome(fn, gradlab) == outcome(fn, torch)


def _data(draw, n):
    return np.array(draw(st.lists(st.floats(-2, 2, width=32), min_size=n, max_size=n)), np.float64)


@SETTINGS
@given(st.data())
def test_saved_input_changed_in_place_after_the_op(data):
    """An input saved at version 0 (kept as itself), changed in place before backward: PyTorch's error."""
    n = data.draw(st.integers(1, 4))
    a0, b0 = _data(data.draw, n), _data(data.draw, n)
    dtype = data.draw(st.sampled_from(DTYPES))
    op = data.draw(st.sampled_from(("mul", "div", "sin", "pow", "exp_input")))
    change = data.draw(st.sampled_from(("none", "self", "view", "before")))

    def case(T):
        w = T.tensor(b0.astype(dtype) + 3, requires_grad=True)
        x = T.tensor(a0.astype(dtype), requires_grad=True)
        h = x * 1.0                              # a non-leaf, at version 0
        if change == "before":
            h.add_(1.0)                          # saved at version 1: a SavedTensor again
        if op == "mul":
            y = h * w
        elif op == "div":
            y = h / w
        elif op == "sin":
            y = h.sin()
        elif op == "pow":
            y = h ** 2
        else:
            y = h.exp() * h
        if change in ("self", "before"):
            h.mul_(2.0)
        elif change == "view":
            h[0:1].add_(1.0)                     # through a view: the counter is shared
        y.sum().backward()
        return [x.grad, w.grad if w.grad is not None else 0, h._version]
    same(case)


@SETTINGS
@given(st.data())
def test_versions_of_views_detach_and_in_place_changes(data):
    """The lazily made version counter: shared by views and detach(), bumped by in-place changes."""
    n = data.draw(st.integers(2, 5))
    a0 = _data(data.draw, n)
    steps = data.draw(st.lists(st.sampled_from(("view", "detach", "add_", "view_add_", "detach_mul_")),
                               max_size=5))

    def case(T):
        x = T.tensor(a0) * 2.0
        others = []
        for s in steps:
            if s == "view":
                others.append(x[1:])
            elif s == "detach":
                others.append(x.detach())
            elif s == "add_":
                x.add_(1.0)
            elif s == "view_add_":
                x[:1].add_(1.0)
            else:
                x.detach().mul_(2.0)
        return [x._version] + [o._version for o in others] + [x]
    same(case)


@SETTINGS
@given(st.data())
def test_operators_fast_paths(data):
    """+, *, / with a float or a same-shaped tensor (the operators' shortcut) and with anything else."""
    n = data.draw(st.integers(1, 4))
    a0, b0 = _data(data.draw, n), _data(data.draw, n) + 3
    dtype = data.draw(st.sampled_from(DTYPES + ("int64", "bool")))
    other = data.draw(st.sampled_from(("float", "int", "tensor", "tensor_row", "complex")))
    operator = data.draw(st.sampled_from(("add", "mul", "div", "radd", "rmul")))

    def case(T):
        x = T.tensor(a0.astype(dtype))
        if dtype in DTYPES:
            x.requires_grad_()
        o = {"float": 0.5, "int": 3, "complex": 1 + 2j, "tensor": T.tensor(b0.astype(dtype)),
             "tensor_row": T.tensor(b0[:1].astype(dtype))}[other]
        y = {"add": lambda: x + o, "mul": lambda: x * o, "div": lambda: x / o, "radd": lambda: o + x,
             "rmul": lambda: o * x}[operator]()
        described = [y, str(y.dtype), y.grad_fn.name() if y.grad_fn is not None else None]
        if y.requires_grad and not y.is_complex():
            y.sum().backward()
            described.append(x.grad)
        return described
    same(case)


@SETTINGS
@given(st.data())
def test_untracked_update_in_place(data):
    """An optimizer's `p -= lr * p.grad` under no_grad, and the cases the shortcut leaves to the general path."""
    n = data.draw(st.integers(1, 4))
    a0, b0 = _data(data.draw, n), _data(data.draw, n) + 3
    dtype = data.draw(st.sampled_from(DTYPES))
    operator = data.draw(st.sampled_from(("-=", "+=", "*=", "/=")))
    other = data.draw(st.sampled_from(("same", "other_dtype", "row", "float", "view_target")))
    grad_on = data.draw(st.booleans())

    def case(T):
        p = T.tensor(a0.astype(dtype), requires_grad=True)
        (p * p).sum().backward()
        target = p[1:] if other == "view_target" else p
        o = {"same": 0.1 * p.grad, "other_dtype": (0.1 * p.grad).double() if dtype == "float32" else
             (0.1 * p.grad).float(), "row": T.tensor(b0[:1].astype(dtype)), "float": 0.25,
             "view_target": 0.1 * p.grad[1:]}[other]
        with T.set_grad_enabled(grad_on):
            if operator == "-=":
                target -= o
            elif operator == "+=":
                target += o
            elif operator == "*=":
                target *= o
            else:
                target /= o
        return [p, p._version, p.requires_grad]
    same(case)


@SETTINGS
@given(st.data())
def test_hooks_once_registered(data):
    """Tensor hooks, retain_grad and node hooks and pre-hooks, registered after other nodes ran without."""
    n = data.draw(st.integers(1, 4))
    a0 = _data(data.draw, n)
    kinds = data.draw(st.lists(st.sampled_from(("tensor_hook", "retain_grad", "node_hook", "node_prehook")),
                               min_size=1, max_size=4))

    def case(T):
        x = T.tensor(a0, requires_grad=True)
        h = x.sin()
        y = h * 3.0
        seen = []
        for k in kinds:
            if k == "tensor_hook":
                h.register_hook(lambda g: g * 2)
            elif k == "retain_grad":
                h.retain_grad()
            elif k == "node_hook":
                y.grad_fn.register_hook(lambda gi, go: seen.append(len(gi)))
            else:
                y.grad_fn.register_prehook(lambda go: (go[0] * 3,))
        y.sum().backward()
        return [x.grad, h.grad if h.retains_grad else 0, seen]
    same(case)
