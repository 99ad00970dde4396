"""float16 tensors with a 0-d tensor of another dtype as the other operand, against live torch bit for bit.

PyTorch's mul and div kernels (true, floor and trunc division) read a 0-d second operand of a float16 result at
float precision, as they read a Python number: not rounded to float16 first. The other ops (add, sub, pow, ...)
round it; and a 0-d first operand is rounded too. Generated over values, dtypes, both positions, the in-place
forms and the gradients. (Still different, not covered here: the gradients of `0-d / x` and `x ** 0-d` with respect
to the float16 x, in the last bit: PyTorch's formulas meet the 0-d operand in an order not yet reproduced.)"""
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

OPS = {
    "mul": lambda a, b: a * b, "div": lambda a, b: a / b, "floordiv": lambda a, b: a // b,
    "div_floor": lambda a, b: a.div(b, rounding_mode="floor"), "div_trunc": lambda a, b: a.div(b, rounding_mode="trunc"),
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "pow": lambda a, b: a.abs() ** b,
    "mul_": lambda a, b: a.clone().mul_(b), "div_": lambda a, b: a.clone().div_(b),
    "floor_divide_": lambda a, b: a.clone().floor_divide_(b), "rmul": lambda a, b: b * a, "rdiv": lambda a, b: b / a,
}


_VALUE_ONLY = {"pow", "rdiv"}


def _bits(t):
    return t.detach().numpy().view(np.uint16).tolist()


def _outcome(lib, name, a, v, scalar_dtype):
    x = lib.tensor(a, requires_grad=name not in ("floordiv", "div_floor", "div_trunc", "floor_divide_"))
    s = lib.tensor(v, dtype=getattr(lib, scalar_dtype))
    try:
        out = OPS[name](x, s)
    except RuntimeError as e:
        return "raise", str(e)
    grads = None
    if out.requires_grad and name not in _VALUE_ONLY:
        out.sum().backward()
        grads = _bits(x.grad)
    return _bits(out), str(out.dtype), grads


@pytest.mark.parametrize("name", sorted(OPS))
@pytest.mark.parametrize("scalar_dtype", ["float64", "float32", "int64", "bool"])
def test_half_with_0d_operand_matches_torch(name, scalar_dtype):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{scalar_dtype}".encode()))
    for _ in range(40):
        a = (rng.standard_normal(12) * 4).astype(np.float16)
        v = {"float64": rng.random() * 3 + 0.01, "float32": rng.random() * 3 + 0.01,
             "int64": int(rng.integers(1, 3000)), "bool": True}[scalar_dtype]
        expected = _outcome(torch, name, a, v, scalar_dtype)
        assert _outcome(gradlab, name, a, v, scalar_dtype) == expected, (a.tolist(), v)
