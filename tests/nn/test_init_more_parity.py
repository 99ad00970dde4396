"""nn.init's trunc_normal_, orthogonal_, sparse_, dirac_ and the deprecated names without the underscore, against
live torch: the same draws from the same seed, the version counter, the errors and the warnings.

Cases are generated from seeded loops over shapes, dtypes and arguments (including the out-of-range ones)."""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _outcome(lib, code):
    namespace = {"torch": lib, "init": lib.nn.init}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
            t = namespace["t"]
            result = ("ok", str(t.dtype), tuple(t.shape), t._version, t.requires_grad, t.detach().tolist())
        except Exception as e:  # noqa: BLE001
            result = ("raise", type(e).__name__, str(e))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def _close(a, b, dtype):
    """Equal, but for orthogonal_'s QR: LAPACK builds differ in the last bits (MKL in torch, numpy's here)."""
    if a[:5] != b[:5]:
        return False
    tol = {"torch.float64": 1e-12, "torch.float32": 2e-6, "torch.float16": 2e-3}[dtype]
    return np.allclose(np.array(a[5], dtype=float), np.array(b[5], dtype=float), rtol=tol, atol=tol, equal_nan=True)


def _cases():
    rng = random.Random(2026)
    cases = []
    for _ in range(120):
        dtype = rng.choice(["torch.float32", "torch.float64", "torch.float16"])
        shape = rng.choice([(3, 4), (5, 2), (4, 4), (2, 3, 3), (6,), (0, 3), (4, 2, 3, 3), (3, 1, 5), (2, 2, 2, 2, 2)])
        grad = rng.random() < 0.3
        make = f"torch.manual_seed({rng.randint(0, 999)})\nt = torch.empty({shape}, dtype={dtype}, requires_grad={grad})"
        kind = rng.choice(["trunc", "trunc", "orth", "sparse", "dirac", "old"])
        if kind == "trunc":
            mean, std = rng.choice([0.0, 0.5, -3.0, 10.0]), rng.choice([1.0, 0.02, 2.0])
            a, b = rng.choice([(-2.0, 2.0), (0.0, 1.0), (-0.1, 0.1), (5.0, 6.0), (-1.0, 3.0)])
            call = f"init.trunc_normal_(t, mean={mean}, std={std}, a={a}, b={b})"
        elif kind == "orth":
            call = f"init.orthogonal_(t, gain={rng.choice([1, 0.5, 2.0])})"
        elif kind == "sparse":
            call = f"init.sparse_(t, sparsity={rng.choice([0.1, 0.5, 0.9, 0.0])}, std={rng.choice([0.01, 1.0])})"
        elif kind == "dirac":
            call = f"init.dirac_(t, groups={rng.choice([1, 1, 2, 3])})"
        else:
            name = rng.choice(["uniform", "normal", "constant", "eye", "dirac", "xavier_uniform", "xavier_normal",
                               "kaiming_uniform", "kaiming_normal", "orthogonal", "sparse"])
            extra = {"constant": ", 0.5", "sparse": ", 0.3"}.get(name, "")
            call = f"init.{name}(t{extra})"
        cases.append(pytest.param(make + "\n" + call, dtype, id=f"{kind}-{len(cases)}"))
    return cases


def _assert_same_as_torch(code, dtype):
    (expected, expected_warnings), (got, got_warnings) = _outcome(torch, code), _outcome(gradlab, code)
    assert got_warnings == expected_warnings
    if expected[0] == "ok" and "orthogonal" in code and dtype not in ("torch.int64", "torch.bool"):
        assert _close(got, expected, dtype), (got, expected)
    else:
        assert got == expected


@pytest.mark.parametrize("code, dtype", _cases())
def test_init_matches_torch(code, dtype):
    _assert_same_as_torch(code, dtype)


@pytest.mark.parametrize("name", ["uniform_", "normal_", "trunc_normal_", "xavier_uniform_", "xavier_normal_",
                                  "kaiming_uniform_", "kaiming_normal_", "orthogonal_", "sparse_", "constant_", "eye_",
                                  "dirac_", "zeros_", "ones_", "normal"])
@pytest.mark.parametrize("shape", ["(0, 3)", "(2, 0, 3)", "(3, 4)", "(5,)"])
@pytest.mark.parametrize("dtype", ["torch.int64", "torch.bool", "torch.float16"])
def test_init_of_other_dtypes_and_empty_tensors(name, shape, dtype):
    """Integer, bool and half tensors, empty or not: PyTorch's errors, or its no-op on an empty tensor."""
    extra = {"sparse_": ", 0.5", "constant_": ", 1"}.get(name, "")
    code = f"torch.manual_seed(0)\nt = torch.empty({shape}, dtype={dtype})\ninit.{name}(t{extra})"
    _assert_same_as_torch(code, dtype)
