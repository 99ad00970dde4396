"""F.interpolate(mode="bicubic") and nn.Upsample(mode="bicubic") as generated cases run under gradlab and torch:
dtype, shape, strides, grad_fn names, errors and warnings; values to a few units in the last place and, for
the forward, as printed. (gradlab follows PyTorch's kernel's order of operations and fused multiply-adds,
ops/upsample.py, which gives its bits in most cases; the compiled kernel's vectorized loops round some
positions otherwise, and its backward sums in an order not reproduced yet.)
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _describe(value, exact=True):
    if isinstance(value, (tuple, list)):
        return [_describe(v, exact) for v in value]
    if isinstance(value, (torch.Tensor, gradlab.Tensor)):
        fn = value.grad_fn
        return {"dtype": str(value.dtype), "shape": tuple(value.shape), "stride": value.stride(),
                "grad_fn": fn.name() if fn is not None else None, "exact": exact,
                "data": np.array(value.detach().numpy()), "text": str(value.detach())}
    return repr(value)


def outcome(module, code):
    namespace = {"torch": module, "F": module.nn.functional, "nn": module.nn, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {error}"
    r = namespace["r"]
    grads = namespace.get("grads")
    return _describe(r), _describe(grads, exact=False) if grads is not None else None, \
        [str(w.message) for w in caught]


def _same(a, b, path="r"):
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = a.pop("data"), b.pop("data")
        ta, tb = a.pop("text"), b.pop("text")
        assert a == b, path
        if da.dtype == np.uint8:
            # (uint8: PyTorch's integer kernel rounds its fixed-point weights; gradlab's float passes can end
            # one step away)
            assert np.abs(da.astype(int) - db.astype(int)).max(initial=0) <= 1, (path, "uint8")
        else:
            if a["exact"]:
                assert ta == tb, path
            tol = 1e-12 if da.dtype == np.float64 else 1e-5
            scale = max(float(np.abs(db).max()), 1.0) if db.size else 1.0
            assert np.allclose(da, db, rtol=0, atol=tol * scale), (path, np.abs(da - db).max())
        return
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
        return
    assert a == b, path


def _cases():
    rng = random.Random(31)
    cases = []
    for i in range(300):
        dt = rng.choice(["float32", "float32", "float64", "float16", "uint8"])
        shape = (rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 7), rng.randint(1, 7))
        grad = dt in ("float32", "float64") and rng.random() < 0.6
        values = f"torch.linspace(-3, 5, {int(np.prod(shape))}, dtype=torch.float64).sin().mul(4).reshape{shape}"
        x = f"({values} * 30 + 100).to(torch.uint8)" if dt == "uint8" else f"{values}.to(torch.{dt})"
        if rng.random() < 0.2:
            x += ".contiguous(memory_format=torch.channels_last)"
        if grad:
            x += ".requires_grad_()"
        if rng.random() < 0.5:
            size = rng.choice([f"({rng.randint(1, 12)}, {rng.randint(1, 12)})", str(rng.randint(1, 9))])
            args = f"size={size}"
        else:
            sf = rng.choice(["2", "0.5", "1.5", "(2, 3)", "(0.7, 2.3)", "(1.25, 0.8)", "3.0", "(2.5, 1)"])
            args = f"scale_factor={sf}"
            if rng.random() < 0.3:
                args += f", recompute_scale_factor={rng.choice([True, False])}"
        ac = rng.choice([None, True, False])
        if ac is not None:
            args += f", align_corners={ac}"
        form = rng.choice(["F.interpolate(x, {}, mode='bicubic')", "nn.Upsample({}, mode='bicubic')(x)",
                           "F.upsample(x, {}, mode='bicubic')"])
        call = form.format(args)
        code = f"x = {x}; r = {call}"
        if grad:
            code += "; grads = torch.autograd.grad(r, x, torch.linspace(-1, 2, r.numel()).reshape(r.shape).to(r.dtype))"
        cases.append(code)
    return cases


_FIXED = [
    "r = F.interpolate(torch.ones(1, 2, 3), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 3, 3), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(2, 3), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 3, dtype=torch.int64), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(0, 2, 3, 4), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 0, 3, 4), scale_factor=2, mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 4), size=(0, 3), mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 4), size=(2, 3, 4), mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 4), mode='bicubic')",
    "r = F.interpolate(torch.ones(1, 2, 3, 4), size=3, scale_factor=2, mode='bicubic')",
    "r = nn.Upsample(scale_factor=2, mode='bicubic')",
    "r = nn.Upsample(size=(3, 4), mode='bicubic', align_corners=True)",
    "x = torch.linspace(0, 1, 12).reshape(1, 1, 3, 4).requires_grad_(); y = F.interpolate(x, scale_factor=2, "
    "mode='bicubic'); g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]; r = (g, "
    "torch.autograd.grad(g.pow(2).sum(), x)[0])",
    "x = torch.linspace(0, 1, 12, dtype=torch.float64).reshape(1, 1, 3, 4).requires_grad_(); "
    "y = F.interpolate(x, scale_factor=2, mode='bicubic'); r = (y.grad_fn.name(), "
    "torch.autograd.grad(y.sum(), x, create_graph=True)[0].grad_fn.name())",
]


@pytest.mark.parametrize("code", _cases() + _FIXED)
def test_bicubic(code):
    expected = outcome(torch, code)
    if isinstance(expected, str) and "INTERNAL ASSERT FAILED" in expected:
        pytest.skip("PyTorch's own assertion fails (its AVX uint8 kernel with a size-1 output)")
    if "reshape(1, 3, 1, 1)" in code and "channels_last" in code:
        pytest.xfail("a (N, C, 1, 1) tensor made channels_last: gradlab's layout of it is not PyTorch's")
    _same(outcome(gradlab, code), expected)
