"""The functions issue 14's dtidx fuzz families found missing (heaviside, rot90, vander, block_diag, combinations,
scatter_reduce, index_reduce) and its open indexing differences, as generated cases: each runs under gradlab
and under torch, and the outcomes must be the same: values bit for bit (their bytes), dtype, shape, strides,
requires_grad, grad_fn and its next functions, gradients, or the exception's type and message, and warnings.
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(value):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_describe(v) for v in value]
    if isinstance(value, (torch.Tensor, gradlab.Tensor)):
        fn = value.grad_fn
        data = np.array(value.detach().numpy())
        if data.dtype.kind in "fc":     # (a nan's sign and payload bits are not compared: numpy's and C's differ)
            data[np.isnan(data)] = np.nan
        return ("Tensor", str(value.dtype), tuple(value.shape), value.stride(), value.requires_grad,
                fn.name() if fn is not None else None,
                [n.name() if n is not None else None for n, _ in fn.next_functions] if fn is not None else None,
                data.tobytes().hex(), str(value.detach()))
    return type(value).__name__, str(value)


def outcome(module, code):
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {str(error)}"
    return _describe(namespace["r"]), [str(w.message) for w in caught]


def _grads(inputs):
    """code giving r = (y, the gradients of (y * weights).sum() for the inputs that require grad)."""
    return ("r = (y, torch.autograd.grad(y, [t for t in (" + inputs + ",) if t.requires_grad], "
            "torch.linspace(-1.5, 2., y.numel()).reshape(y.shape).to(y.dtype)) if y.requires_grad else None)")


_DTYPES = ["float32", "float64", "float16", "int64", "int32", "uint8", "bool", "complex64"]
_VALUES = "[[0., -1.5, 2., 0.5], [3., -0., 1., -2.], [float('nan'), 4., -3., 0.]]"


def _x(dt, shape_code="", grad=False):
    g = ", requires_grad=True" if grad else ""
    return f"torch.tensor({_VALUES}, dtype=torch.{dt}{g}){shape_code}"


# --- 1. heaviside, rot90, vander, block_diag, combinations ------------------------------------------

def _item1_cases():
    rng = random.Random(14)
    cases = []
    for dt in _DTYPES:
        for vdt in (dt, rng.choice(_DTYPES)):
            for vshape in ("[1:2]", "[:, :1]", "[0, 0]", ".t()", "[:2]"):
                grad = dt[0] == "f" and dt != "float16" and rng.random() < 0.5
                form = rng.choice(["torch.heaviside(x, w)", "x.heaviside(w)", "torch.heaviside(input=x, values=w)"])
                pre = "x = x * 1; " if grad else ""
                cases.append(f"x = {_x(dt, '', grad)}; {pre}w = {_x(vdt)}{vshape}; y = {form}; " + _grads("x"))
                cases.append(f"x = {_x(dt)}; y = x; w = {_x(vdt)}{vshape}; x.heaviside_(w); r = (x, x is y)")
        cases.append(f"r = torch.heaviside({_x(dt)}, torch.tensor(2.5).to(torch.{dt}), "
                     f"out=torch.empty(3, 4, dtype=torch.{dt}))")
    cases += ["r = torch.heaviside(torch.ones(2), 1.)", "r = torch.ones(2).heaviside([1.])",
              "r = torch.heaviside(torch.tensor([0., 1.], requires_grad=True), torch.ones(2)).sum().backward()",
              "x = torch.tensor([0., 1.], requires_grad=True); r = x.heaviside_(torch.ones(2))",
              "x = torch.tensor([0., 1.], requires_grad=True) * 1; x.heaviside_(torch.ones(2)); r = x",
              "x = torch.ones(1).expand(3); r = x.heaviside_(torch.ones(3))"]
    for dt in _DTYPES:
        for shape_code in ("", ".t()", "[:, ::2]", ".reshape(2, 3, 2)", ".reshape(2, 1, 6)", "[0]", "[0, 0]",
                           "[:0]"):
            for k in (0, 1, 2, 3, -1, 5, -6):
                dims = rng.choice(["", ", [0, 1]", ", [1, 0]", ", (-1, 0)", ", [0, -1]", ", [2, 1]", ", [0]",
                                   ", [0, 1, 2]", ", [1, 1]", ", [0, 2]", ", [0, 3]", ", [-3, 1]"])
                grad = dt in ("float32", "float64") and rng.random() < 0.6
                form = rng.choice([f"torch.rot90(x, {k}{dims})", f"x.rot90({k}{dims})",
                                   f"torch.rot90(x, k={k}{dims.replace(', ', ', dims=')})"])
                cases.append(f"x = {_x(dt, '', grad)}{shape_code}; y = {form}; r = (y, y.stride(), "
                             f"y.is_contiguous()) if not y.requires_grad else (y.stride(), {_grads('x')[4:]})")
    cases += ["r = torch.rot90(torch.ones(2, 3))", "r = torch.ones(2, 3).rot90()", "r = torch.rot90(torch.ones(2, 3), 1.5)",
              "r = torch.rot90(torch.ones(2, 3), 1, 0)", "r = torch.rot90([[1., 2.]])",
              "x = torch.ones(2, 3, requires_grad=True); y = torch.rot90(x, 1).rot90(1); "
              "r = torch.autograd.grad(y.sum(), x, create_graph=True)[0].grad_fn.name()"]
    for dt in _DTYPES:
        for vals in ("[1.5, -2., 0., 3.]", "[2.]", "[]", "[[1., 2.]]", "3.", "[0.5, 0.25, 4.]"):
            for args in ("", ", 0", ", 1", ", 3", ", 6", ", -1", ", None", ", increasing=True", ", 3, True",
                         ", N=2, increasing=False", ", 2.5"):
                grad = dt in ("float32", "float64") and vals not in ("3.", "[]") and rng.random() < 0.6
                g = ", requires_grad=True" if grad else ""
                cases.append(f"x = torch.tensor({vals}, dtype=torch.{dt}{g}); y = torch.vander(x{args}); "
                             + _grads("x"))
    cases += ["r = torch.vander([1, 2])", "r = torch.vander(x=torch.tensor([1, 2]), N=3)"]
    parts = ["torch.tensor([[1.5, -2.], [0., 3.]], dtype=torch.{}{})", "torch.tensor([4., 5., 6.], dtype=torch.{}{})",
             "torch.tensor(7., dtype=torch.{}{})", "torch.tensor([[1., 2., 3.]], dtype=torch.{}{}).t()",
             "torch.zeros(0, dtype=torch.{}{})", "torch.zeros(2, 0, dtype=torch.{}{})",
             "torch.zeros(2, 2, 2, dtype=torch.{}{})"]
    for _ in range(120):
        chosen = rng.sample(range(len(parts)), rng.randint(1, 4))
        dts = [rng.choice(_DTYPES[:4] + ["int64", "bool", "complex64"]) for _ in chosen]
        # (an empty 2-d input's gradient from a complex result is a real view whose strides numpy does not keep)
        grads = [dt in ("float32", "float64") and rng.random() < 0.6 and i != 5 for i, dt in zip(chosen, dts)]
        made = ", ".join(parts[i].format(dt, ", requires_grad=True" if g else "") for i, dt, g in zip(chosen, dts, grads))
        cases.append(f"ts = [{made}]; y = torch.block_diag(*ts); "
                     + _grads("*ts").replace("(*ts,)", "ts"))
    cases += ["r = torch.block_diag()", "r = torch.block_diag(torch.ones(2), 3)", "r = torch.block_diag([torch.ones(2)])",
              "x = torch.ones(2, 2, requires_grad=True); y = torch.block_diag(x, x); "
              "r = torch.autograd.grad(y.sum(), x, create_graph=True)[0].grad_fn.name()"]
    for dt in _DTYPES:
        for vals in ("[1.5, -2., 0., 3.]", "[2.]", "[]", "[[1., 2.]]", "3.", "[0.5, 0.25, 4.]"):
            for args in ("", ", 0", ", 1", ", 3", ", 5", ", -1", ", with_replacement=True", ", 3, True",
                         ", r=2, with_replacement=False", ", 2.5"):
                grad = dt in ("float32", "float64") and vals not in ("3.", "[]") and rng.random() < 0.6
                g = ", requires_grad=True" if grad else ""
                form = rng.choice([f"torch.combinations(x{args})", f"torch.combinations(input=x{args})"])
                cases.append(f"x = torch.tensor({vals}, dtype=torch.{dt}{g}); y = {form}; " + _grads("x"))
    cases += ["r = torch.combinations([1, 2])"]
    return cases


ITEM1_CASES = _item1_cases()


@pytest.mark.parametrize("code", ITEM1_CASES)
def test_heaviside_rot90_vander_block_diag_combinations(code):
    assert outcome(gradlab, code) == outcome(torch, code)
