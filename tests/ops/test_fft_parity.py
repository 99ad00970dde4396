"""torch.fft against live PyTorch: generated cases (every function; 0-d, empty, odd and even sizes; float32,
float64, complex64, complex128, int64 and bool inputs; n / s / dim / norm combinations; transposed and strided
inputs; gradients through each function) run under gradlab and under torch. The outcomes must agree: dtype,
shape, strides, is_conj, the whole graph's node names, the values and gradients, or the exception's type and
message.

Values: PyTorch's CPU build transforms with MKL, gradlab with numpy's pocketfft, so the last bits may differ:
values are compared to 64 units in the last place of the largest value (measured: at most 9 in float64, 5 in
float32, on 300 random transforms of up to 4096 points each), and
the printed text must be the same once rounding noise next to the largest value is set to 0 (MKL gives exact
zeros where pocketfft leaves 1e-17, and the other way round).
"""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _graph(fn):
    """The names of the graph's nodes, depth first (each node once)."""
    names, seen, stack = [], set(), [fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name())
        stack.extend(reversed([n for n, _ in node.next_functions]))
    return names


def _describe(value):
    if isinstance(value, (tuple, list)):
        return [_describe(v) for v in value]
    if isinstance(value, (torch.Tensor, gradlab.Tensor)):
        data = np.array(value.detach().resolve_conj().numpy())
        return {"dtype": str(value.dtype), "shape": tuple(value.shape), "stride": value.stride(),
                "is_conj": value.is_conj(), "requires_grad": value.requires_grad,
                "graph": _graph(value.grad_fn) if value.grad_fn else None, "data": data}
    return repr(value)


def outcome(module, code):
    """What running code under module gives: r described and the warnings, or the exception."""
    namespace = {"torch": module, "np": np}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, namespace)
        except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
            return f"{type(error).__name__}: {error}"
    return _describe(namespace["r"]), [str(w.message) for w in caught]


def _printed(data, noise):
    data = data.copy()
    if data.dtype.kind == "c":
        data.real[np.abs(data.real) <= noise] = 0
        data.imag[np.abs(data.imag) <= noise] = 0
    else:
        data[np.abs(data) <= noise] = 0
    return str(gradlab.from_numpy(data))


def _same(a, b, path="r", converted=False):
    """a and b the same outcome. Of a gradient, PyTorch's conj bit (ConjBackward0's gradient is a conjugate view,
    gradlab's engine conjugates) and, when a real input was converted to complex (`converted`: ToCopyBackward0's
    gradient is PyTorch's at::real view, strided, and gradlab's a copy), its strides are not compared."""
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = a["data"], b["data"]
        skip = {"data"}
        if path.startswith("r[1]"):
            # (and an empty gradient's strides: ConstantPadNdBackward0's of an empty input is PyTorch's slice view)
            skip |= {"is_conj", "stride"} if converted or not da.size else {"is_conj"}
        assert {k: v for k, v in a.items() if k not in skip} == {k: v for k, v in b.items() if k not in skip}, path
        assert da.dtype == db.dtype and da.shape == db.shape, path
        if da.size:
            # 64 units in the last place of the largest value (integers: exact)
            tol = 64 * np.finfo(da.dtype).eps if da.dtype.kind in "fc" else 0
            finite = np.abs(da[np.isfinite(da)])
            scale = max(float(finite.max()) if finite.size else 0.0, 1.0)
            assert np.allclose(da, db, rtol=0, atol=tol * scale, equal_nan=True), (path, np.abs(da - db).max())
            assert _printed(da, tol * scale) == _printed(db, tol * scale), path
        return
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]", converted)
        return
    assert a == b, path


def _grads(inputs):
    """y and the gradients of <linspace, y> (a complex grad_output for a complex y) with respect to inputs."""
    return ("g = torch.linspace(-1.5, 2., y.numel(), dtype=torch.float64).reshape(y.shape); "
            "g = torch.complex(g, g.flip(range(g.dim())).cos()).to(y.dtype) if y.is_complex() else g.to(y.dtype); "
            "r = (y, torch.autograd.grad(y, [t for t in (" + inputs + ",) if t.requires_grad], g) "
            "if y.requires_grad else None)")


_DTYPES = ["float32", "float64", "complex64", "complex128", "int64", "bool"]
_SHAPES = [(), (0,), (1,), (2,), (5,), (8,), (2, 5), (3, 4), (1, 7), (0, 4), (4, 0), (2, 3, 4), (3, 1, 5), (2, 4, 3)]
_ONE_D = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft"]
_N_D = ["fft2", "ifft2", "fftn", "ifftn", "rfft2", "irfft2", "rfftn", "irfftn", "hfft2", "ihfft2", "hfftn", "ihfftn"]
_NORMS = [None, None, "'backward'", "'ortho'", "'forward'"]


def _input(rng, shape, dt, grad):
    numel = int(np.prod(shape))
    base = f"torch.linspace(-2, 3, {2 * numel}, dtype=torch.float64).sin().reshape({(*shape, 2)})"
    if dt.startswith("complex"):
        x = f"torch.view_as_complex({base}).to(torch.{dt})"
    elif dt == "int64":
        x = f"(torch.arange({numel}).reshape({shape}) % 5 - 2)"
    elif dt == "bool":
        x = f"(torch.arange({numel}).reshape({shape}) % 3 == 0)"
    else:
        x = f"{base}[..., 0].to(torch.{dt})"
    if len(shape) >= 2 and rng.random() < 0.3:          # a transposed or a strided input: another layout
        x += rng.choice([".transpose(0, -1)", "[..., ::2]", ".mT"])
    if grad:
        x += ".requires_grad_()"
    return x


def _cases():
    rng = random.Random(2026)
    cases = []
    for i in range(700):
        shape = rng.choice(_SHAPES)
        dt = rng.choice(_DTYPES)
        grad = dt[0] in "fc" and rng.random() < 0.6
        x = _input(rng, shape, dt, grad)
        nd = len(shape)
        args = []
        if rng.random() < 0.5:
            fn = rng.choice(_ONE_D)
            if rng.random() < 0.5:
                args.append(f"n={rng.choice([1, 2, 3, 4, 5, 7, 8, 10, 0, -1])}")
            if rng.random() < 0.5:
                args.append(f"dim={rng.randint(-nd - 1, nd)}")
        else:
            fn = rng.choice(_N_D)
            dims = None
            if rng.random() < 0.5 and nd:
                k = rng.randint(0, nd)
                dims = rng.sample(range(-nd, nd), k) if rng.random() < 0.9 else [0, 0][:max(k, 1)]
                dims = [d for d in dims if True]
                if fn[-1] == "2" and rng.random() < 0.8:
                    dims = dims[:2] if len(dims) >= 2 else dims
                args.append(f"dim={tuple(dims)}")
            if rng.random() < 0.45:
                k = len(dims) if dims is not None and rng.random() < 0.9 else rng.randint(0, max(nd, 1))
                if fn[-1] == "2" and dims is None and rng.random() < 0.8:
                    k = 2
                args.append(f"s={tuple(rng.choice([1, 2, 3, 4, 6, -1, 0]) for _ in range(k))}")
        norm = rng.choice(_NORMS)
        if norm is not None:
            args.append(f"norm={norm}")
        call = f"torch.fft.{fn}(x{', ' if args else ''}{', '.join(args)})"
        cases.append(f"x = {x}; y = {call}; " + _grads("x"))
    return cases


_FIXED = [
    # PyTorch's errors, in its order of checks
    "r = torch.fft.fft(torch.ones(3, 4), norm='bad')",
    "r = torch.fft.fft(torch.ones(3, 4), n=0, norm='bad')",
    "r = torch.fft.rfftn(torch.ones(3, 4), norm='ortho2')",
    "r = torch.fft.fft(torch.ones(3, 4), n=-1)",
    "r = torch.fft.fft(torch.ones(3, 4), dim=5)",
    "r = torch.fft.fft(torch.ones(3, 4), dim=-3)",
    "r = torch.fft.fft(torch.tensor(1.))",
    "r = torch.fft.fftn(torch.tensor(1.))",
    "r = torch.fft.rfftn(torch.tensor(1.))",
    "r = torch.fft.irfftn(torch.tensor(1.))",
    "r = torch.fft.hfftn(torch.tensor(1.))",
    "r = torch.fft.ihfftn(torch.tensor(1.))",
    "r = torch.fft.fft(torch.zeros(0))",
    "r = torch.fft.fft(torch.zeros(0, 4))",
    "r = torch.fft.rfft(torch.zeros(0, 4))",
    "r = torch.fft.irfft(torch.zeros(0, 4, dtype=torch.complex64))",
    "r = torch.fft.fftn(torch.ones(3, 4), dim=(0, 0))",
    "r = torch.fft.fftn(torch.ones(3, 4), dim=(1, -1))",
    "r = torch.fft.fftn(torch.ones(3, 4), s=(2,), dim=(0, 1))",
    "r = torch.fft.fftn(torch.ones(3, 4), s=(2, 2, 2))",
    "r = torch.fft.fftn(torch.ones(3, 4), s=(0, 2))",
    "r = torch.fft.fftn(torch.ones(3, 4), s=(-2, 2))",
    "r = torch.fft.fft2(torch.ones(4))",
    "r = torch.fft.fft(torch.ones(4, dtype=torch.float16))",
    "r = torch.fft.rfft2(torch.ones(4, 4, dtype=torch.float16))",
    "r = torch.fft.hfft(torch.ones(4, dtype=torch.float16))",
    "r = torch.fft.rfft(torch.ones(4, dtype=torch.complex64))",
    "r = torch.fft.ihfft(torch.ones(4, dtype=torch.complex128))",
    "r = torch.fft.rfftn(torch.ones(4, dtype=torch.complex64))",
    "r = torch.fft.rfft2(torch.ones(4, 4, dtype=torch.complex64))",
    "r = torch.fft.ihfftn(torch.ones(4, dtype=torch.complex64))",
    "r = torch.fft.ihfft2(torch.ones(4, 4, dtype=torch.complex64))",
    "r = torch.fft.irfft(torch.ones(1, dtype=torch.complex64))",
    "r = torch.fft.hfft(torch.ones(1, dtype=torch.complex64))",
    "r = torch.fft.irfftn(torch.ones(3, 1, dtype=torch.complex64))",
    "r = torch.fft.rfftn(torch.ones(3, 4), dim=())",
    "r = torch.fft.irfftn(torch.ones(3, 4), dim=())",
    "r = torch.fft.fftshift(torch.tensor(1.))",
    "r = torch.fft.fftshift(torch.ones(3, 4), dim=5)",
    "r = torch.fft.fftfreq(5, dtype=torch.int64)",
    "r = torch.fft.rfftfreq(5, dtype=torch.bool)",
    "r = torch.fft.fftfreq(-1)",
    # PyTorch's argument parser
    "r = torch.fft.fft(torch.ones(3), 2.5)", "r = torch.fft.fft(torch.ones(3), norm=1)", "r = torch.fft.fft()",
    "r = torch.fft.fft([1., 2.])", "r = torch.fft.fftshift(torch.ones(3), 2.5)", "r = torch.fft.fftfreq(2.5)",
    "r = torch.fft.fftn(torch.ones(3, 3), s=2.5)", "r = torch.fft.fft2(torch.ones(3, 3), dim='a')",
    "r = torch.fft.rfftfreq(4, pin_memory=False)", "r = torch.fft.ifft(torch.ones(3), dim=None)",
    # the results that are not generated below
    "r = torch.fft.fftn(torch.ones(3, 4, dtype=torch.float64, requires_grad=True), dim=())",
    "r = torch.fft.fftn(torch.tensor(2., dtype=torch.float64, requires_grad=True))",
    "r = torch.fft.irfftn(torch.ones(3, 4, dtype=torch.complex64), s=(-1, -1))",
    "r = torch.fft.fftn(torch.ones(3, 4), s=3)",
    "r = torch.fft.fftn(torch.ones(3, 4), dim=0)",
    "r = torch.fft.fft(torch.ones(1))",
    "r = torch.fft.hfft(torch.arange(5))",
    "r = torch.fft.fft(torch.arange(6).reshape(2, 3).t(), dim=0)",
    "r = torch.fft.fftn(torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1), dim=(2, 0))",
    "r = torch.fft.rfftn(torch.arange(24.).reshape(2, 3, 4).permute(1, 2, 0), dim=(0, 2))",
    "r = torch.fft.irfftn(torch.arange(24.).reshape(2, 3, 4).permute(1, 2, 0).to(torch.complex128), dim=(2, 0))",
    "r = torch.fft.ihfftn(torch.arange(24.).reshape(2, 3, 4).permute(1, 2, 0), dim=(1, 0, 2))",
    "r = torch.fft.hfftn(torch.arange(24.).reshape(2, 3, 4).permute(1, 2, 0).to(torch.complex64), dim=(1, 2))",
    "r = torch.fft.fft(torch.arange(8.).reshape(2, 4)[:, ::2])",
    # gradients of gradients (create_graph): PyTorch's formulas recorded, zeros with a copy (CopySlices), mul_ of a narrow
    *(f"x = {'torch.complex(torch.linspace(-1, 2, 6, dtype=torch.float64), torch.linspace(0, 1, 6, dtype=torch.float64))' if src else 'torch.linspace(-1, 2, 6, dtype=torch.float64)'}.requires_grad_(); y = torch.fft.{fn}; "
      "g = torch.autograd.grad((y * y.conj()).real.sum() if y.is_complex() else (y * y).sum(), x, create_graph=True)[0]; "
      "r = (g, torch.autograd.grad((g * g).sum(), x))"
      for src, fn in (("", "rfft(x)"), ("", "fft(x)"), ("", "ifft(x, norm='ortho')"), ("", "ihfft2(x.reshape(2, 3))"),
                      ("", "rfftn(x.reshape(2, 3), s=(3, 4))"), ("", "ihfft(x, n=4)"),
                      ("_c", "irfft(x)"), ("_c", "hfft(x, n=7)"),
                      ("_c", "irfftn(x.reshape(2, 3), s=(3, 5))"),
                      ("_c", "hfft2(x.reshape(3, 2))"), ("_c", "fftn(x.reshape(3, 2), s=(4, 1))"))),
    # out=: its kind checked first, PyTorch's autograd error naming the internal function, resized with a warning
    *(f"x = torch.arange(4.); xc = x.to(torch.complex64); r = torch.fft.{call}" for call in (
        "fft(xc, out=torch.empty(4))", "fftn(x, out=torch.empty(4))", "rfftn(x, out=torch.empty(3))",
        "fft2(x.reshape(2, 2), out=torch.empty(2, 2))", "irfft2(xc.reshape(2, 2), out=torch.empty(2, 2, dtype=torch.complex64))",
        "irfftn(xc, out=torch.empty(6, dtype=torch.complex64))", "fft(xc, out=torch.empty(4, dtype=torch.complex128))",
        "irfft(xc.to(torch.complex128), out=torch.empty(6))", "fft(x, out=torch.empty(2, dtype=torch.complex64))",
        "fft(x, n=0, out=torch.empty(2))", "fftn(xc, dim=(), out=torch.empty(4, dtype=torch.complex64))",
        "ihfft2(x.reshape(2, 2).clone().requires_grad_(), out=torch.empty(2, 2, dtype=torch.complex64))",
        "hfft2(xc.reshape(2, 2).clone().requires_grad_(), out=torch.empty(2, 2))",
        "hfft(xc.clone().requires_grad_(), out=torch.empty(6))",
        "fftn(x.clone().requires_grad_(), out=torch.empty(4, dtype=torch.complex64))",
        "fft(x.requires_grad_(), out=torch.empty(4, dtype=torch.complex64))",
        "rfft(x, out=torch.empty(3, dtype=torch.complex64))", "rfft(x, out=torch.empty(3))",
        "ifft(x, out=torch.empty(6))", "fftfreq(5, out=torch.empty(2, dtype=torch.float64))",
        "fftfreq(5, out=torch.empty(2, dtype=torch.int64))", "rfftfreq(5, 0.5, out=torch.empty(3, dtype=torch.float64))",
        "fftshift(x, out=x)")),
    # default float dtype float64: an integer input follows it
    "torch.set_default_dtype(torch.float64)\ntry:\n    r = torch.fft.rfft(torch.arange(6))\nfinally:\n"
    "    torch.set_default_dtype(torch.float32)",
]

_FREQ = [f"r = torch.fft.{fn}({n}{d}{dt}{rg})"
         for fn in ("fftfreq", "rfftfreq")
         for n in (0, 1, 2, 5, 8, 13)
         for d in ("", ", 0.1", ", d=2.5", ", 0", ", -0.3")
         for dt in ("", ", dtype=torch.float64", ", dtype=torch.float16")
         for rg in ("", ", requires_grad=True")] + ["r = torch.fft.rfftfreq(-1)", "r = torch.fft.rfftfreq(-4)"]

_SHIFT = [f"x = torch.arange({np.prod(shape)}{dt}).reshape({shape}){rg}; y = torch.fft.{fn}(x{dim}); "
          + _grads("x")
          for fn in ("fftshift", "ifftshift")
          for shape in ((5,), (4,), (2, 3), (3, 4, 5), (0, 3))
          for dim in ("", ", dim=0", ", dim=-1", ", dim=(0, -1)", ", dim=(0, 0)")
          for dt, rg in (("", ""), (", dtype=torch.float64", ".requires_grad_()"))]


@pytest.mark.parametrize("code", _cases() + _FIXED + _FREQ + _SHIFT)
def test_fft_matches_pytorch(code):
    expected = outcome(torch, code)
    got = outcome(gradlab, code)
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected
    else:
        _same(got[0], expected[0], converted="ToCopyBackward0" in str(expected))
        assert got[1] == expected[1]            # the warnings


def test_the_cases_reach_every_function_and_outcome():
    """The generated cases call every function, raise and succeed, and take gradients."""
    cases = _cases()
    for fn in _ONE_D + _N_D:
        assert any(f"torch.fft.{fn}(" in c for c in cases), fn
    results = [outcome(gradlab, c) for c in cases[:200]]
    assert sum(isinstance(r, str) for r in results) > 10
    assert sum(not isinstance(r, str) and r[0][1] is not None for r in results) > 25


def test_a_wrong_value_is_caught():
    """The comparison is tight enough to fail: one ulp-scale change in 1e-9 is not enough, 1e-6 is."""
    a = _describe(torch.fft.fft(torch.linspace(0, 1, 8, dtype=torch.float64)))
    b = dict(a, data=a["data"] * (1 + 1e-6))
    with pytest.raises(AssertionError):
        _same(b, a)
    _same(dict(a, data=a["data"] * (1 + 1e-15)), a)


def test_no_fft_methods_on_the_tensor():
    """PyTorch's Tensor has no fft methods (torch.fft is a module): gradlab invents none."""
    for name in ("fft", "ifft", "rfft", "irfft", "fftshift"):
        assert hasattr(torch.Tensor, name) == hasattr(gradlab.Tensor, name), name


def test_import_forms():
    """`import torch.fft` and `torch.fft.<name>`: the module is loaded at first use, with PyTorch's functions
    (torch.fft's all: `__all__` and its functions agree)."""
    import gradlab.fft as fft_module
    assert fft_module is gradlab.fft
    assert set(fft_module.__all__) == set(torch.fft.__all__)
    functions = [n for n in dir(torch.fft) if not n.startswith("_") and callable(getattr(torch.fft, n))]
    assert len(functions) == 23         # the 22 functions and Tensor
    assert all(callable(getattr(gradlab.fft, name)) for name in functions)
