"""torch.special's functions that gradlab lacked (entr, erfcx, i0e, i1e, ndtr, ndtri, log_ndtr, xlog1py, xlogy,
zeta, gammainc, gammaincc, the Bessel and modified Bessel functions, airy_ai, spherical_bessel_j0, the
Chebyshev, Hermite, Laguerre and Legendre polynomials), as generated cases: each runs under gradlab and under
torch, and the outcomes must be the same: values bit for bit (their bytes), dtype, shape, strides,
requires_grad, grad_fn and its next functions, gradients and second gradients, or the exception's type and
message, and warnings. Then each kernel's float32 and float64 bits on thousands of random numbers.
"""
import random

import numpy as np
import pytest

import gradlab
from test_missing_ops import _grads, _without_bits, outcome

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

_DTYPES = ["float32", "float64", "float16", "int64", "uint8", "bool", "complex64"]
_VALUES = {
    "default": "[[0.5, 1.5, -2.5], [0., -0., 3.], [float('nan'), 10., -7.25]]",
    "ndtri": "[[0.5, 0.01, 0.99], [0., 1., 0.3], [float('nan'), 1e-20, 1.5]]",
    "wide": "[[0.5, 1.5, -2.5], [0., 60., 3.], [float('nan'), 1e8, -30.]]",
}
_DIFFERENTIABLE = {"entr": "default", "erfcx": "wide", "i0e": "default", "i1e": "default", "ndtr": "default",
                   "ndtri": "ndtri", "log_ndtr": "wide"}
_NO_GRADIENT = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0", "modified_bessel_i1",
                "modified_bessel_k0", "modified_bessel_k1", "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
                "spherical_bessel_j0", "airy_ai"]
_POLYNOMIALS = ["chebyshev_polynomial_t", "chebyshev_polynomial_u", "chebyshev_polynomial_v",
                "chebyshev_polynomial_w", "shifted_chebyshev_polynomial_t", "shifted_chebyshev_polynomial_u",
                "shifted_chebyshev_polynomial_v", "shifted_chebyshev_polynomial_w", "hermite_polynomial_h",
                "hermite_polynomial_he", "laguerre_polynomial_l", "legendre_polynomial_p"]
_BINARY = ["xlog1py", "xlogy", "zeta", "gammainc", "gammaincc"]


def _unary_cases():
    rng = random.Random(5)
    cases = []
    for name, values in list(_DIFFERENTIABLE.items()) + [(n, "wide") for n in _NO_GRADIENT]:
        for dt in _DTYPES:
            grad = dt in ("float32", "float64") and rng.random() < 0.8
            g = ", requires_grad=True" if grad else ""
            cases.append(f"x = torch.tensor({_VALUES[values]}, dtype=torch.{dt}{g}); y = torch.special.{name}(x); "
                         + _grads("x"))
        # second order, 0-d, empty, transposed, out=, a list, keyword
        cases.append(f"x = torch.tensor([0.3, 0.7, 2.5], dtype=torch.float64, requires_grad=True); "
                     f"y = torch.special.{name}(x); g, = torch.autograd.grad(y.sum(), x, create_graph=True) "
                     f"if y.requires_grad else (y,); r = (y, g, torch.autograd.grad(g.sum(), x) if g.requires_grad "
                     "else None)")
        cases.append(f"r = torch.special.{name}(torch.tensor(0.75))")
        cases.append(f"r = torch.special.{name}(torch.zeros(0, 3))")
        cases.append(f"r = torch.special.{name}(torch.linspace(0.1, 0.9, 6).reshape(2, 3).t())")
        cases.append(f"o = torch.zeros(3); r = (torch.special.{name}(torch.tensor([0.2, 0.5, 0.9]), out=o), o)")
        cases.append(f"o = torch.zeros(3, dtype=torch.int64); r = torch.special.{name}(torch.tensor([0.2, 0.5, 0.9]), "
                     "out=o)")
        cases.append(f"r = torch.special.{name}(input=torch.tensor([0.2, 0.5]))")
        cases.append(f"r = torch.special.{name}([0.2, 0.5])")
        cases.append(f"r = torch.special.{name}(torch.tensor([0.2]), 1)")
        cases.append(f"x = torch.tensor([0.2, 0.5], requires_grad=True); r = torch.special.{name}(x, out=torch.zeros(2))")
    return cases


def _binary_cases():
    rng = random.Random(6)
    values = {"x": "[1.5, 0., 2.5, -1., 3.]", "q": "[0.5, 2., 3., -0.5, -1.]"}
    cases = []
    for name in _BINARY:
        for dx in ("float32", "float64", "float16", "int64", "bool"):
            for dq in ("float32", "float64", "int64"):
                grad = rng.random() < 0.7
                gx = ", requires_grad=True" if grad and dx in ("float32", "float64") else ""
                gq = ", requires_grad=True" if grad and dq in ("float32", "float64") else ""
                cases.append(f"x = torch.tensor({values['x']}, dtype=torch.{dx}{gx}); "
                             f"q = torch.tensor({values['q']}, dtype=torch.{dq}{gq}); y = torch.special.{name}(x, q); "
                             + _grads("x, q"))
        for a, b in (("x", "2.0"), ("x", "2"), ("2.5", "q"), ("3", "q"), ("x", "True"), ("2.", "3."), ("x", "'a'"),
                     ("x", "torch.tensor(2.)"), ("torch.tensor(2.)", "q")):
            cases.append(f"x = torch.tensor({values['x']}, dtype=torch.float64, requires_grad=True); "
                         f"q = torch.tensor({values['q']}, dtype=torch.float64, requires_grad=True); "
                         f"y = torch.special.{name}({a}, {b}); " + _grads("x, q"))
        cases.append(f"x = torch.tensor([[1.5], [2.5]], dtype=torch.float64, requires_grad=True); "
                     f"q = torch.tensor([0.5, 2.], dtype=torch.float64); y = torch.special.{name}(x, q); "
                     "r = (y, torch.autograd.grad(y.sum(), x, create_graph=True) if y.requires_grad else None)")
        cases.append(f"r = torch.special.{name}(torch.tensor([1j]), torch.tensor([1.]))")
        cases.append(f"r = torch.special.{name}(torch.ones(2), torch.ones(3))")
        cases.append(f"o = torch.zeros(2); r = (torch.special.{name}(torch.tensor([1.5, 2.]), torch.tensor([2., 3.]), "
                     "out=o), o)")
    return cases


def _polynomial_cases():
    rng = random.Random(7)
    xs = "[[0.3, -0.7, 1.], [-1., 0., 1.5], [2.5, -3., 0.5]]"
    ns = ["2", "0", "1", "-1", "7", "12", "3.7", "torch.tensor([[2, 5, 9], [0, 1, 12], [3, 20, -2]])",
          "torch.tensor([2., 5.5, 30.])", "torch.tensor(4)", "True"]
    cases = []
    for name in _POLYNOMIALS:
        for dt in ("float32", "float64", "int64", "float16", "complex64"):
            for n in rng.sample(ns, 6):
                cases.append(f"x = torch.tensor({xs}, dtype=torch.{dt}); r = torch.special.{name}(x, {n})")
        cases.append(f"r = torch.special.{name}(0.5, torch.tensor([0, 1, 2, 3, 8, 15]))")
        cases.append(f"r = torch.special.{name}(0.5, 3)")
        cases.append(f"r = torch.special.{name}(torch.tensor([0.5]), 'a')")
        cases.append(f"x = torch.tensor([0.5, 1.5], requires_grad=True); y = torch.special.{name}(x, 3); "
                     "r = (y, y.requires_grad)")
        cases.append(f"x = torch.linspace(-1, 1, 6).reshape(2, 3).t(); r = torch.special.{name}(x, 4)")
        cases.append(f"o = torch.zeros(2); r = (torch.special.{name}(torch.tensor([0.5, 0.2]), 5, out=o), o)")
        cases.append(f"r = torch.special.{name}(x=torch.tensor([0.5, 0.2]), n=5)")
    return cases


# gammainc and gammaincc are torch.igamma and torch.igammac, whose float bits gradlab does not reproduce (it
# computes them in float64), and ndtr's second derivative goes through erf's: those are compared as printed
_AS_PRINTED = ("gammainc", "ndtr(x); g, =")


# (torch.special.ndtr(x, out=o) of an x that requires grad: PyTorch's composite out= form records a CopyBackwards
# into o; gradlab refuses autograd with out=, as PyTorch's other functions do)
_KNOWN = {"x = torch.tensor([0.2, 0.5], requires_grad=True); r = torch.special.ndtr(x, out=torch.zeros(2))"}


@pytest.mark.parametrize("code", [c if c not in _KNOWN else pytest.param(c, marks=pytest.mark.xfail(strict=True))
                                  for c in _unary_cases() + _binary_cases() + _polynomial_cases()])
def test_special_matches_torch(code):
    ours, theirs = outcome(gradlab, code), outcome(torch, code)
    if any(name in code for name in _AS_PRINTED):
        ours, theirs = _without_bits(ours), _without_bits(theirs)
    assert ours == theirs


# --- the kernels bit for bit on random numbers ----------------------------------------------------

def _numbers(dtype, seed):
    rng = np.random.default_rng(seed)
    return np.concatenate([rng.normal(0, 3, 1500), rng.uniform(-60, 60, 500), rng.uniform(0, 1, 500),
                           10 ** rng.uniform(-8, 3, 500),
                           [0, -0., 1, -1, 2, 5, 8, -8, 0.5, np.inf, -np.inf, np.nan, 50, -6.1, -26.7, 2.09, -2.09]]
                          ).astype(dtype)


# the share of numbers ATen's bits were measured to match when written (1.0: every one); erfcx's float32
# continued fraction beyond 50 and ndtr (made of gradlab's erf) are a bit off
_SHARE = {("erfcx", "float32"): 0.99, ("ndtr", "float32"): 0.99, ("ndtr", "float64"): 0.98, ("ndtr", "float16"): 0.99}


# (ATen has half kernels for these four only: the others refuse float16, checked in the error tests)
_BITS_CASES = [(name, dtype) for name in list(_DIFFERENTIABLE) + _NO_GRADIENT for dtype in ("float32", "float64", "float16")
               if dtype != "float16" or name in ("entr", "i0e", "i1e", "ndtr")]


@pytest.mark.parametrize("name,dtype", _BITS_CASES)
def test_special_bits(name, dtype):
    x = _numbers(dtype, 11)
    if name == "ndtri":
        x = np.abs(x) % 1.2
    expected = getattr(torch.special, name)(torch.from_numpy(x)).numpy()
    got = getattr(gradlab.special, name)(gradlab.tensor(x)).numpy()
    same = (expected == got) | (np.isnan(expected) & np.isnan(got))
    assert same.mean() >= _SHARE.get((name, dtype), 1.0), x[~same][:10]


@pytest.mark.parametrize("name", _POLYNOMIALS + ["zeta", "xlog1py"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_special_binary_bits(name, dtype):
    rng = np.random.default_rng(12)
    # (not nan x: ATen's polynomials then return an uninitialized variable for most n)
    x = np.concatenate([rng.uniform(-1.5, 1.5, 1500), rng.choice([-1., 0., 1., 0.5, np.inf], 100),
                        rng.uniform(-20, 20, 300)]).astype(dtype)
    n = np.concatenate([rng.integers(-2, 14, 1000), rng.integers(0, 200, 800),
                        rng.choice([np.nan, np.inf, -np.inf, 2.5, 1e20], 100)]).astype(dtype)
    if name == "zeta":
        x = np.abs(x) + 1
    expected = getattr(torch.special, name)(torch.from_numpy(x), torch.from_numpy(n)).numpy()
    got = getattr(gradlab.special, name)(gradlab.tensor(x), gradlab.tensor(n)).numpy()
    same = (expected == got) | (np.isnan(expected) & np.isnan(got))
    assert same.all(), list(zip(x[~same][:5], n[~same][:5]))
