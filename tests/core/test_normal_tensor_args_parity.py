"""torch.normal with tensor mean and/or std against live torch: values from the same seed, dtype, the node
recorded (NormalBackward1/2/3, with zero gradients), broadcasting, and the errors of integer, bool and negative
arguments. Cases come from a seeded generator."""
import random
import warnings

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

DTYPES = ["float32", "float64", "float16", "int64", "bool"]
SHAPES = ["()", "(3,)", "(2, 1)", "(2, 3)", "(0,)", "(17,)", "(4, 5)"]


def _arg(rng, name):
    if rng.random() < 0.3:
        return rng.choice(["0.0", "1.5", "-2.0", "3"]) if name == "mean" else rng.choice(["1.0", "0.5", "0.0", "-1.0"])
    dtype = rng.choice(DTYPES[:3] * 3 + DTYPES[3:])
    grad = dtype.startswith("float") and rng.random() < 0.4
    fill = "torch.rand" if name == "std" and rng.random() < 0.8 else "torch.randn"
    make = f"{fill}({rng.choice(SHAPES)}, generator=g).to(torch.{dtype})"
    return f"{make}.requires_grad_()" if grad else make


def _cases():
    rng = random.Random(7)
    cases = []
    while len(cases) < 300:
        mean, std = _arg(rng, "mean"), _arg(rng, "std")
        if "torch" not in mean + std:
            continue
        cases.append(f"g = torch.Generator().manual_seed({rng.randint(0, 99)})\nm = {mean}\ns = {std}\n"
                     f"torch.manual_seed({rng.randint(0, 99)})\nr = torch.normal(m, s)")
    return cases


def _run(lib, code):
    ns = {"torch": lib}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, ns)
        except Exception as e:  # noqa: BLE001
            return "raise", type(e).__name__, str(e)
    r = ns["r"]
    out = [str(r), str(r.dtype), r.requires_grad, type(r.grad_fn).__name__ if r.grad_fn is not None else None,
           [str(w.message) for w in caught]]
    if r.requires_grad:
        r.sum().backward()
        out += [str(ns[k].grad) for k in ("m", "s") if isinstance(ns[k], lib.Tensor)]
    return out


@pytest.mark.parametrize("code", _cases())
def test_normal_of_tensors_matches_torch(code):
    assert _run(gradlab, code) == _run(torch, code)
