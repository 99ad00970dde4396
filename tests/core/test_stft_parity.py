"""torch.stft and torch.istft (and Tensor.stft, Tensor.istft) as generated cases run under gradlab and under torch:
the outcomes must agree: dtype, shape, strides, printed text, the whole graph's node names, gradients, or the
exception's type and message, and the warnings (with set_warn_always, so the once-only ones show every time).

Values: PyTorch's CPU build transforms with MKL, gradlab with numpy's pocketfft, so the last bits may differ:
values are compared to a few units in the last place (float64 1e-12, float32 1e-5 of the largest value), and
float64's printed text must be the same.
"""
import random

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
        data = np.array(value.detach().numpy())
        return {"dtype": str(value.dtype), "shape": tuple(value.shape), "stride": value.stride(),
                "requires_grad": value.requires_grad, "graph": _graph(value.grad_fn) if value.grad_fn else None,
                "data": data}
    return repr(value)


def outcome(module, code):
    namespace = {"torch": module, "np": np}
    module.set_warn_always(True)
    try:
        with __import__("warnings").catch_warnings(record=True) as caught:
            __import__("warnings").simplefilter("always")
            try:
                exec(code, namespace)
            except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
                return f"{type(error).__name__}: {error}"
        return _describe(namespace["r"]), [str(w.message) for w in caught]
    finally:
        module.set_warn_always(False)


def _same(a, b, path="r"):
    if isinstance(a, dict) and isinstance(b, dict):
        da, db = a["data"], b["data"]
        assert {k: v for k, v in a.items() if k != "data"} == {k: v for k, v in b.items() if k != "data"}, path
        assert da.dtype == db.dtype and da.shape == db.shape, path
        if da.size:
            tol = 1e-12 if da.dtype in (np.float64, np.complex128) else 1e-5
            scale = max(float(np.nanmax(np.abs(da))), 1.0)
            assert np.allclose(da, db, rtol=0, atol=tol * scale, equal_nan=True), (path, np.abs(da - db).max())
            # float64: printed the same once what is rounding noise next to the largest value is set to 0 (MKL's
            # transform gives exact zeros, or -0., where pocketfft's leaves 1e-17, and the other way round). (In
            # float32 the two FFTs' rounding, ~1e-7 of the largest value, shows in the 5 digits of a small entry.)
            if da.dtype in (np.float64, np.complex128):
                assert _printed(da, tol * scale) == _printed(db, tol * scale), path
        return
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{path}[{i}]")
        return
    assert a == b, path


def _printed(data, noise):
    data = data.copy()
    if data.dtype.kind == "c":
        data.real[np.abs(data.real) <= noise] = 0
        data.imag[np.abs(data.imag) <= noise] = 0
    else:
        data[np.abs(data) <= noise] = 0
    return str(gradlab.from_numpy(data))


def _grads(inputs):
    return ("r = (y, torch.autograd.grad(y, [t for t in (" + inputs + ",) if t.requires_grad], "
            "torch.linspace(-1.5, 2., y.numel()).reshape(y.shape).to(y.dtype)) if y.requires_grad else None)")


_WINDOWS = ["None", "torch.hann_window({w}, dtype=torch.{dt})", "torch.hamming_window({w}, dtype=torch.{dt})",
            "torch.ones({w}, dtype=torch.{dt})", "torch.linspace(0.5, 1.5, {w}, dtype=torch.{dt})"]


def _stft_cases():
    rng = random.Random(2024)
    cases = []
    for i in range(260):
        dt = rng.choice(["float32", "float64", "complex64", "complex128"])
        batched = rng.random() < 0.35
        length = rng.randint(6, 40)
        n_fft = rng.choice([2, 3, 4, 5, 7, 8, 9, 12, 16])
        hop = rng.choice([None, 1, 2, 3, n_fft])
        win = rng.choice([None, n_fft, max(1, n_fft - 1), max(1, n_fft // 2)])
        wdt = rng.choice(["float32", "float64"]) if dt.startswith("float") else rng.choice(["float64", "complex64"])
        w = win if win is not None else n_fft
        window = rng.choice(_WINDOWS).format(w=w, dt=wdt)
        center = rng.random() < 0.6
        pad_mode = rng.choice(["'reflect'", "'constant'", "'replicate'", "'circular'"])
        normalized = rng.random() < 0.3
        onesided = rng.choice([None, None, True, False])
        return_complex = rng.choice([True, True, True, False, None])
        align = rng.choice([None, None, False, True]) if not center else None
        grad = rng.random() < 0.5
        shape = f"({rng.randint(1, 3)}, {length})" if batched else f"({length},)"
        layout = rng.choice(["", "", ".flip(-1)", "[..., ::2]"]) if not grad else ""
        x = (f"torch.linspace(-2, 3, {np.prod(eval(shape))}, dtype=torch.float64).sin().reshape{shape}"
             f".to(torch.{dt}){layout}")
        if grad:
            x += ".requires_grad_()"
        args = [f"n_fft={n_fft}"] if rng.random() < 0.5 else [str(n_fft)]
        for name, value in (("hop_length", hop), ("win_length", win), ("window", window), ("center", center),
                            ("pad_mode", pad_mode), ("normalized", normalized), ("onesided", onesided),
                            ("return_complex", return_complex), ("align_to_window", align)):
            if value is not None and value != "None" and rng.random() < 0.8:
                args.append(f"{name}={value}")
        call = rng.choice(["torch.stft(x, {})", "x.stft({})"]).format(", ".join(args))
        cases.append(f"x = {x}; y = {call}; " + _grads("x"))
    return cases


def _istft_cases():
    rng = random.Random(7)
    cases = []
    for i in range(200):
        dt = rng.choice(["float32", "float64"])
        batched = rng.random() < 0.35
        length = rng.randint(10, 40)
        n_fft = rng.choice([4, 5, 8, 9, 12, 16])
        hop = rng.choice([None, 1, 2, 3, n_fft // 2])
        win = rng.choice([None, n_fft, n_fft - 1, n_fft // 2 + 1])
        w = win if win is not None else n_fft
        window = rng.choice(_WINDOWS[1:] + ["None"]).format(w=w, dt=dt)
        center = rng.random() < 0.7
        normalized = rng.random() < 0.3
        onesided_in = rng.random() < 0.7
        shape = f"({rng.randint(1, 3)}, {length})" if batched else f"({length},)"
        x = f"torch.linspace(-2, 3, {np.prod(eval(shape))}, dtype=torch.{dt}).cos().reshape{shape}"
        if not onesided_in:
            x += ".to(torch.complex64 if torch.float32 == torch." + dt + " else torch.complex128)"
        common = [f"hop_length={hop}" if hop else "", f"win_length={win}" if win else "",
                  f"window={window}" if window != "None" else "", f"center={center}", f"normalized={normalized}"]
        common = [c for c in common if c]
        spec = f"torch.stft({x}, {n_fft}, {', '.join(common)}, return_complex=True)"
        args = [str(n_fft)] + common
        length_arg = rng.choice([None, None, length, length - 3, length + 5])
        if length_arg is not None:
            args.append(f"length={length_arg}")
        if rng.random() < 0.3:
            args.append(f"onesided={rng.choice([True, False])}")
        if not onesided_in and rng.random() < 0.5:
            args.append("return_complex=True")
        grad = rng.random() < 0.6
        pre = "s = s.detach().requires_grad_(); " if grad else ""
        call = rng.choice(["torch.istft(s, {})", "s.istft({})"]).format(", ".join(args))
        cases.append(f"s = {spec}; {pre}y = {call}; " + _grads("s"))
    return cases


_FIXED = [
    # errors and warnings, in PyTorch's order
    "r = torch.stft(torch.ones(20, dtype=torch.float64), 8, window=torch.hann_window(8, dtype=torch.float64))",
    "r = torch.stft(torch.ones(20), 8)",
    "r = torch.stft(torch.ones(20), 8, return_complex=False)",
    "r = torch.stft(torch.arange(20), 8, return_complex=True)",
    "r = torch.stft(torch.ones(2, 2, 9), 4, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(2, 2, 9, dtype=torch.complex64), 4, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(20), 30, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(20), 30, win_length=5, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(20), 0, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(20), -8, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, hop_length=0, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, win_length=9, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, win_length=0, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, window=torch.ones(5), return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, window=torch.ones(2, 4), win_length=4, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, window=torch.ones(3, dtype=torch.complex64), return_complex=True)",
    "r = torch.stft(torch.ones(20, dtype=torch.complex64), 8, return_complex=True, onesided=True)",
    "r = torch.stft(torch.ones(20), 8, return_complex=True, pad_mode='bogus')",
    "r = torch.stft(torch.ones(20), 8, return_complex=True, align_to_window=True)",
    "r = torch.stft(torch.ones(20), 8, return_complex=True, align_to_window=False)",
    "r = torch.stft(torch.ones(20), 8, hop_length=1, win_length=5, return_complex=True, center=False, "
    "align_to_window=True)",
    "r = torch.stft(torch.ones(5), 8, return_complex=True)",
    "r = torch.stft(torch.ones(4), 8, return_complex=True)",
    "r = torch.stft(torch.ones(0), 8, return_complex=True)",
    "r = torch.stft(torch.tensor(1.), 8, return_complex=True)",
    "r = torch.stft(torch.tensor(1.), 8, return_complex=True, center=False)",
    "r = torch.stft(torch.ones(20, dtype=torch.float16), 8, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8.0, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, window=torch.ones(8, dtype=torch.complex64))",
    "r = torch.stft(torch.ones(20), 8, window=torch.ones(8, dtype=torch.complex64), return_complex=False)",
    "r = torch.stft(torch.ones(20), 8, hop_length=2.5, return_complex=True)",
    "r = torch.stft(torch.ones(20), 8, return_complex=True, window=[1.] * 8)",
    "r = torch.ones(20).stft(8, 2, return_complex=True)",
    "r = torch.ones(3, 20).stft(8, 2, 6, torch.ones(6), False, 'reflect', True, False, True)",
    "r = torch.stft([1., 2.], 8, return_complex=True)",
    "r = torch.istft(torch.ones(20), 8)",
    "r = torch.istft(torch.ones(5, 0, dtype=torch.complex64), 8)",
    "r = torch.istft(torch.ones(1, 1, 5, 3, dtype=torch.complex64), 8)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 10)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, onesided=False)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, hop_length=9)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, win_length=9)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, window=torch.ones(5))",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, window=torch.ones(8), center=False)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, return_complex=True)",
    "r = torch.istft(torch.ones(8, 3, dtype=torch.complex64), 8, window=torch.ones(8, dtype=torch.complex64))",
    "r = torch.istft(torch.ones(8, 3, dtype=torch.complex64), 8, window=torch.ones(8, dtype=torch.complex64), "
    "return_complex=True)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, window=torch.hann_window(8), length=40)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8.5)",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64), 8, length='a')",
    "r = torch.istft(torch.ones(5, 3, dtype=torch.complex64).conj(), 8, window=torch.hann_window(8))",
    "r = torch.ones(5, 3, dtype=torch.complex128).istft(8, 2, 8, torch.hann_window(8, dtype=torch.float64), True, "
    "False, None, 9)",
    # a round trip
    "x = torch.linspace(-1, 1, 64, dtype=torch.float64).exp(); w = torch.hann_window(16, dtype=torch.float64); "
    "r = torch.istft(torch.stft(x, 16, 4, window=w, return_complex=True), 16, 4, window=w, length=64)",
    "x = torch.linspace(-1, 1, 64, dtype=torch.float64, requires_grad=True); w = torch.hann_window(16, "
    "dtype=torch.float64); y = torch.istft(torch.stft(x, 16, 4, window=w, return_complex=True), 16, 4, window=w); "
    + _grads("x"),
    # a window that requires grad
    "x = torch.linspace(-1, 1, 30); w = torch.hann_window(6).requires_grad_(); "
    "y = torch.stft(x, 8, 2, 6, window=w, return_complex=True); " + _grads("w"),
    "x = torch.linspace(-1, 1, 30); w = torch.hann_window(8).requires_grad_(); "
    "y = torch.istft(torch.stft(x, 8, 2, window=w.detach(), return_complex=True), 8, 2, window=w); " + _grads("w"),
]


@pytest.mark.parametrize("code", _stft_cases() + _istft_cases() + _FIXED)
def test_stft_istft(code):
    expected = outcome(torch, code)
    got = outcome(gradlab, code)
    _same(got, expected)
