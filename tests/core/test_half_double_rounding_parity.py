"""A double meeting a float16 tensor, against live torch bit for bit.

PyTorch turns a double into a half through a float (c10::Half is built from a float), so a double just
past the midpoint of two halves, whose float is the midpoint itself, rounds to the even half in PyTorch
and to the nearer one in numpy. The generator makes exactly those doubles (the ones where the two
roundings differ) and a few ordinary ones, and feeds them to every path by which a Python float or a
float64 tensor reaches a float16 tensor: operators, keyword scalars, fills, creation, casts, comparisons."""
import zlib

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _straddling(rng, n):
    """Doubles whose float is a midpoint of two float16 values, but which lie just off it in the direction
    away from the even half: numpy rounds them to the odd half, PyTorch (through float) to the even one."""
    out = []
    while len(out) < n:
        h = np.float16(rng.uniform(-8, 8))
        up = np.nextafter(h, np.float16(np.inf))
        mid = (np.float64(h) + np.float64(up)) / 2          # exact in float32 (one more bit than a half)
        odd_is_up = int(up.view(np.uint16)) & 1
        v = np.nextafter(mid, np.inf if odd_is_up else -np.inf)
        if np.float16(v) != np.float16(np.float32(v)):
            out.append(float(v))
    return out + [float(rng.uniform(-4, 4)) for _ in range(n // 4)]


def _cases(lib, v):
    x = lib.tensor([1.9228515625, -0.5, 3.0, 0.25], dtype=lib.float16)
    s = lib.tensor(v, dtype=lib.float64)
    m = lib.tensor([True, False, True, False])
    F = lib.nn.functional
    return {
        "full": lambda: lib.full((2,), v, dtype=lib.float16),
        "new_full": lambda: x.new_full((2,), v),
        "full_like": lambda: lib.full_like(x, v),
        "tensor": lambda: lib.tensor([v, 1.0], dtype=lib.float16),
        "as_tensor": lambda: lib.as_tensor([v], dtype=lib.float16),
        "half()": lambda: s.half(),
        "to(float16)": lambda: lib.tensor([v, -v], dtype=lib.float64).to(lib.float16),
        "from_numpy": lambda: lib.from_numpy(np.array([v])).half(),
        "add": lambda: x + v,
        "radd": lambda: v + x,
        "sub": lambda: x - v,
        "rsub": lambda: v - x,
        "add_alpha": lambda: x.add(x, alpha=v),
        "sub_0d": lambda: x - s,
        "add_0d_first": lambda: s + x,
        "mul": lambda: x * v,
        "div": lambda: x / v,
        "pow": lambda: x.abs() ** v,
        "rpow": lambda: abs(v) ** x,
        "remainder": lambda: x % v,
        "fill_": lambda: x.clone().fill_(v),
        "setitem": lambda: _set(x.clone(), v),
        "setitem_0d": lambda: _set(x.clone(), s),
        "masked_fill": lambda: x.masked_fill(m, v),
        "masked_fill_0d": lambda: x.masked_fill(m, s),
        "index_fill": lambda: x.index_fill(0, lib.tensor([0, 2]), v),
        "scatter": lambda: x.clone().scatter_(0, lib.tensor([1]), v),
        "where": lambda: lib.where(m, v, x),
        "copy_": lambda: x.clone().copy_(lib.tensor([v] * 4, dtype=lib.float64)),
        "clamp": lambda: x.clamp(min=-abs(v), max=abs(v)),
        "threshold": lambda: F.threshold(x, 0.5, v),
        "hardtanh": lambda: F.hardtanh(x, -abs(v), abs(v)),
        "nan_to_num": lambda: lib.tensor([float("nan"), float("inf")], dtype=lib.float16).nan_to_num(v, abs(v) + 1),
        "eq": lambda: lib.full((1,), v, dtype=lib.float16) == v,
        "lt": lambda: x < v,
        "lerp": lambda: x.lerp(lib.zeros(4, dtype=lib.float16), v),
        "addcmul": lambda: x.addcmul(x, x, value=v),
    }


def _set(t, value):
    t[0] = value
    return t


def _outcome(lib, name, v):
    try:
        r = _cases(lib, v)[name]()
    except Exception as e:                 # noqa: BLE001  (the error itself is compared)
        return type(e).__name__, str(e)
    data = r.detach().numpy()
    return str(r.dtype), data.view(np.uint16).tolist() if data.dtype == np.float16 else data.tolist()


@pytest.mark.parametrize("name", sorted(_cases(gradlab, 1.0)))
def test_double_reaching_half_rounds_as_torch(name):
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for v in _straddling(rng, 24):
        assert _outcome(gradlab, name, v) == _outcome(torch, name, v), v


def test_the_generator_makes_doubles_where_the_roundings_differ():
    # (otherwise the test above would compare nothing numpy and PyTorch disagree on)
    values = _straddling(np.random.default_rng(0), 40)[:40]
    assert all(np.float16(v) != np.float16(np.float32(v)) for v in values)
    assert {torch.tensor(v).half().item() for v in values} != {float(np.float16(v)) for v in values}
