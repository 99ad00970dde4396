"""The nn layers added for PyTorch's teaching material (padding layers and circular padding, interpolation
and Upsample, pixel and channel shuffles, Unfold/Fold, transposed convolutions, ...) against live torch:
generated shapes and arguments; each case compares the printed result (allclose where torch's summation order
differs), dtype, grad_fn name, the inputs' gradients, module reprs and initial weights after manual_seed, and
the exception type and message of bad calls."""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)


def run(lib, code, arrays, dtype):
    """eval(code) with x, y, z the arrays as leaves of `dtype` (requires_grad when floating): the outcome,
    the printed result, its grad_fn's name, the leaves' gradients after backward of a fixed weighting, and the
    warnings' texts."""
    lib.manual_seed(0)
    floating = dtype.startswith("float")
    leaves = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=floating) for a in arrays]
    env = dict(zip("xyz", leaves), torch=lib, nn=lib.nn, F=lib.nn.functional)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = eval(code, env)
        except Exception as e:      # noqa: BLE001 - whatever each library raises is compared
            return {"error": (type(e).__name__, str(e))}
    out = out[0] if isinstance(out, tuple) else out
    if not isinstance(out, lib.Tensor):     # (a module: its repr)
        return {"error": ("ok", repr(out))}
    result = {"repr": repr(out), "value": out.detach().numpy(), "dtype": str(out.dtype), "shape": tuple(out.shape),
              "grad_fn": type(out.grad_fn).__name__ if out.grad_fn is not None else None,
              "warnings": [str(w.message) for w in caught]}
    if out.requires_grad and out.numel():
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(lib.tensor(g, dtype=out.dtype))
        result["grads"] = [x.grad.numpy() if x.grad is not None else None for x in leaves]
    return result


def check(code, arrays=(), dtype="float32", rtol=1e-5, atol=1e-6):
    expected, got = run(torch, code, arrays, dtype), run(gradlab, code, arrays, dtype)
    if "error" in expected or "error" in got:
        assert got.get("error") == expected.get("error"), code
        return
    for key in ("dtype", "shape", "grad_fn", "warnings"):
        assert got[key] == expected[key], (code, key)
    if got["repr"] != expected["repr"]:      # (torch's summation order may differ in the last bit)
        np.testing.assert_allclose(got["value"], expected["value"], rtol=rtol, atol=atol, err_msg=code)
    for a, b in zip(got.get("grads", []), expected.get("grads", [])):
        assert (a is None) == (b is None), code
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=code)


def arrays_of(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def module_check(code, shape, dtype="float32"):
    """The module's repr and state after manual_seed, then its forward and backward on an input of `shape`."""
    states = []
    for lib in (gradlab, torch):
        lib.manual_seed(0)
        m = eval(code, {"nn": lib.nn, "torch": lib})
        states.append((repr(m), {k: v.detach().numpy().copy() for k, v in m.state_dict().items()},
                       lib.rand(2).numpy()))
    assert states[0][0] == states[1][0]
    assert states[0][1].keys() == states[1][1].keys()
    for k in states[0][1]:
        np.testing.assert_array_equal(states[0][1][k], states[1][1][k], err_msg=k)
    np.testing.assert_array_equal(states[0][2], states[1][2])
    check(f"({code})(x)", arrays_of(0, shape), dtype)


# --- padding --------------------------------------------------------------------------------------------

def _pad_cases():
    rnd = random.Random(0)
    cases = []
    for _ in range(150):
        nd = rnd.randint(1, 3)
        batched = rnd.random() < 0.6
        shape = ((2,) if batched else ()) + (rnd.randint(1, 3),) + tuple(rnd.randint(1, 4) for _ in range(nd))
        pad = tuple(rnd.randint(-1, 3) for _ in range(2 * nd))
        # (torch reads memory it never wrote where a border is wider than the part of the dim kept)
        kept = [shape[-1 - i] + min(pad[2 * i], 0) + min(pad[2 * i + 1], 0) for i in range(nd)]
        if all(pad[2 * i] <= kept[i] and pad[2 * i + 1] <= kept[i] for i in range(nd)):
            cases.append((shape, pad))
    return cases


@pytest.mark.parametrize("shape,pad", _pad_cases(), ids=str)
def test_circular_pad(shape, pad):
    check(f"F.pad(x, {pad}, mode='circular')", arrays_of(0, shape))


PAD_MODULES = [(f"nn.{kind}Pad{nd}d({arg}{extra})", nd) for nd in (1, 2, 3)
               for kind, extra in (("Constant", ", 3.5"), ("Zero", ""), ("Reflection", ""), ("Replication", ""),
                                   ("Circular", ""))
               for arg in ("1", "(1, 2)" if nd == 1 else "(1, 0, 2, 1)" if nd == 2 else "(1, 0, 2, 1, 0, 1)")]


@pytest.mark.parametrize("code,nd", PAD_MODULES, ids=str)
@pytest.mark.parametrize("batched", [True, False])
def test_pad_modules(code, nd, batched):
    module_check(code, ((2,) if batched else ()) + (3,) + (4,) * nd)


ERRORS = [
    "F.pad(x, (5, 1), mode='circular')", "F.pad(x, (-3, -2), mode='circular')", "F.pad(x, (1,), mode='circular')",
    "F.pad(x, (1, 1, 1, 1, 1, 1), mode='circular')", "nn.CircularPad2d(1)(x)", "nn.CircularPad1d(1)(x[0, 0])",
    "nn.ReflectionPad1d(4)(x)", "nn.ConstantPad2d(1)",
]


@pytest.mark.parametrize("code", ERRORS)
def test_errors(code):
    check(code, arrays_of(0, (2, 3, 4)))


# --- interpolate and Upsample ---------------------------------------------------------------------------

def _interpolate_cases():
    rnd = random.Random(1)
    cases = []
    for _ in range(120):
        mode = rnd.choice(["nearest", "nearest-exact", "linear", "bilinear", "trilinear"])
        nd = {"linear": 1, "bilinear": 2, "trilinear": 3}.get(mode, rnd.randint(1, 3))
        shape = (rnd.randint(1, 2), rnd.randint(1, 2)) + tuple(rnd.randint(1, 5) for _ in range(nd))
        args = []
        if rnd.random() < 0.5:
            size = tuple(rnd.randint(1, 8) for _ in range(nd))
            args.append(f"size={size if rnd.random() < 0.7 or nd > 1 else size[0]}")
        else:
            scale = tuple(rnd.choice([0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 0.75, 1.7]) for _ in range(nd))
            args.append(f"scale_factor={scale if rnd.random() < 0.6 else scale[0]}")
            if rnd.random() < 0.3:
                args.append("recompute_scale_factor=True")
        if "linear" in mode and rnd.random() < 0.6:
            args.append(f"align_corners={rnd.random() < 0.5}")
        dtype = rnd.choice(["float32", "float32", "float64"])
        cases.append((shape, f"F.interpolate(x, {', '.join(args)}, mode={mode!r})", dtype))
    return cases


@pytest.mark.parametrize("shape,code,dtype", _interpolate_cases(), ids=str)
def test_interpolate(shape, code, dtype):
    check(code, arrays_of(2, shape), dtype)


def test_interpolate_second_order():
    for code in ["F.interpolate(x, scale_factor=1.5, mode='bilinear')", "F.interpolate(x, size=(5, 3))"]:
        grads = []
        for lib in (gradlab, torch):
            x = lib.tensor(arrays_of(3, (1, 2, 3, 4))[0], requires_grad=True)
            y = eval(code, {"F": lib.nn.functional, "x": x})
            (g,) = lib.autograd.grad((y ** 2).sum(), x, create_graph=True)
            (g ** 2).sum().backward()
            grads.append((type(g.grad_fn).__name__, x.grad.numpy()))
        assert grads[0][0] == grads[1][0]
        np.testing.assert_allclose(grads[0][1], grads[1][1], rtol=1e-10)


UPSAMPLE_MODULES = [
    ("nn.Upsample(scale_factor=2)", (1, 2, 3, 4)), ("nn.Upsample(size=5)", (1, 2, 3)),
    ("nn.Upsample(scale_factor=2, mode='bilinear')", (2, 1, 3, 3)),
    ("nn.Upsample(scale_factor=(2, 1.5), mode='bilinear', align_corners=True)", (2, 1, 3, 3)),
    ("nn.Upsample(size=(4, 5, 6), mode='trilinear')", (1, 1, 2, 3, 2)),
    ("nn.UpsamplingNearest2d(scale_factor=3)", (1, 2, 2, 3)), ("nn.UpsamplingNearest2d(size=(3, 7))", (1, 2, 2, 3)),
    ("nn.UpsamplingBilinear2d(scale_factor=2)", (1, 2, 2, 3)), ("nn.UpsamplingBilinear2d((5, 4))", (1, 2, 2, 3)),
]


@pytest.mark.parametrize("code,shape", UPSAMPLE_MODULES, ids=str)
def test_upsample_modules(code, shape):
    module_check(code, shape)


INTERPOLATE_ERRORS = [
    "F.interpolate(x, size=0)", "F.interpolate(x, scale_factor=0.1)", "F.interpolate(x, scale_factor=-1.)",
    "F.interpolate(x, size=3, mode='bilinear')", "F.interpolate(x, size=(2, 2))",
    "F.interpolate(x, scale_factor=(2, 2))", "F.interpolate(x, scale_factor=2, align_corners=True)",
    "F.interpolate(x)", "F.interpolate(x, size=2, scale_factor=2)", "F.interpolate(x, size=3, mode='foo')",
    "F.interpolate(x.long(), size=5)", "F.interpolate(x.long(), size=5, mode='linear')",
    "F.interpolate(x.to(torch.uint8), size=5)", "F.interpolate(x[0], size=3)", "F.upsample(x, size=4)",
    "F.upsample_nearest(x, scale_factor=2)", "F.upsample_bilinear(x[None], scale_factor=2)",
    "F.interpolate(x, size=5, recompute_scale_factor=True)", "F.interpolate(x[:, :0], size=5)",
    "F.interpolate(x[:0], size=5)", "F.interpolate(x[None], size=(2, 0))", "F.interpolate(x, size=(2.5,))",
    "F.interpolate(x, size=4, mode='linear', antialias=True)", "F.interpolate(x[None, None], size=4, mode='linear')",
    "F.interpolate(x[None, None], size=(1, 2, 3), mode='bilinear')",
]


@pytest.mark.parametrize("code", INTERPOLATE_ERRORS)
def test_interpolate_errors(code):
    check(code, arrays_of(0, (2, 3, 4)))


# --- pixel and channel shuffles -------------------------------------------------------------------------

def _shuffle_cases():
    rnd = random.Random(2)
    cases = []
    for _ in range(60):
        r = rnd.randint(1, 3)
        lead = tuple(rnd.randint(1, 2) for _ in range(rnd.randint(0, 2)))
        form = rnd.choice(["F.pixel_shuffle(x, {r})", "torch.pixel_shuffle(x, {r})", "nn.PixelShuffle({r})(x)",
                           "F.pixel_unshuffle(x, {r})", "torch.pixel_unshuffle(x, {r})", "nn.PixelUnshuffle({r})(x)",
                           "F.channel_shuffle(x, {r})", "torch.channel_shuffle(x, {r})", "nn.ChannelShuffle({r})(x)"])
        if "pixel_shuffle" in form or "PixelShuffle" in form:
            shape = lead + (rnd.randint(1, 2) * r * r, rnd.randint(1, 3), rnd.randint(1, 3))
        elif "nshuffle" in form:
            shape = lead + (rnd.randint(1, 2), rnd.randint(1, 2) * r, rnd.randint(1, 2) * r)
        else:
            shape = (rnd.randint(1, 2), rnd.randint(1, 3) * r) + tuple(rnd.randint(1, 3) for _ in range(rnd.randint(1, 2)))
        cases.append((shape, form.format(r=r), rnd.choice(["float32", "float64", "int64"])))
    return cases


@pytest.mark.parametrize("shape,code,dtype", _shuffle_cases(), ids=str)
def test_shuffles(shape, code, dtype):
    check(code, arrays_of(4, shape), dtype)


SHUFFLE_ERRORS = [
    "F.pixel_shuffle(x, 3)", "F.pixel_shuffle(x[0], 2)", "F.pixel_shuffle(x, 0)", "F.pixel_shuffle(x, -2)",
    "F.pixel_unshuffle(x, 2)", "F.pixel_unshuffle(x, 3)", "F.pixel_unshuffle(x[0], 1)", "F.pixel_unshuffle(x, 0)",
    "F.channel_shuffle(x, 3)", "F.channel_shuffle(x, 0)", "F.channel_shuffle(x, -1)", "F.channel_shuffle(x[0, 0], 2)",
    "F.channel_shuffle(x[0], 2)", "F.pixel_shuffle(x, 2.0)", "torch.pixel_shuffle([1.0], 2)",
    "nn.PixelShuffle(2)", "nn.PixelUnshuffle(3)", "nn.ChannelShuffle(4)", "F.pixel_shuffle(x, 1)",
]


@pytest.mark.parametrize("code", SHUFFLE_ERRORS)
def test_shuffle_errors(code):
    check(code, arrays_of(0, (1, 8, 2, 3)))


# --- unfold and fold ------------------------------------------------------------------------------------

def _fold_cases():
    rnd = random.Random(3)
    cases = []
    while len(cases) < 80:
        k = (rnd.randint(1, 3), rnd.randint(1, 3))
        d = (rnd.randint(1, 2), rnd.randint(1, 2))
        p = (rnd.randint(0, 2), rnd.randint(0, 2))
        s = (rnd.randint(1, 3), rnd.randint(1, 3))
        hw = (rnd.randint(1, 6), rnd.randint(1, 6))
        blocks = [(n + 2 * pp - dd * (kk - 1) - 1) // ss + 1 for n, kk, dd, pp, ss in zip(hw, k, d, p, s)]
        if min(blocks) < 1:
            continue
        c = rnd.randint(1, 2)
        batch = rnd.choice([(), (1,), (2,)])
        args = f"{k}, dilation={d}, padding={p}, stride={s}"
        dtype = rnd.choice(["float32", "float64"])
        if rnd.random() < 0.5:
            form = rnd.choice([f"F.unfold(x, {args})", f"nn.Unfold({args})(x)"])
            cases.append((batch + (c, *hw), form, dtype))
        else:
            form = rnd.choice([f"F.fold(x, {hw}, {args})", f"nn.Fold({hw}, {args})(x)"])
            cases.append((batch + (c * k[0] * k[1], blocks[0] * blocks[1]), form, dtype))
    return cases


@pytest.mark.parametrize("shape,code,dtype", _fold_cases(), ids=str)
def test_fold_unfold(shape, code, dtype):
    check(code, arrays_of(5, shape), dtype)


def test_fold_unfold_second_order():
    for code, shape in [("F.unfold(x, 2, padding=1, stride=2)", (1, 2, 4, 5)), ("F.fold(x, (3, 4), 2)", (2, 12, 6))]:
        results = []
        for lib in (gradlab, torch):
            x = lib.tensor(arrays_of(6, shape)[0], requires_grad=True)
            y = eval(code, {"F": lib.nn.functional, "x": x})
            (g,) = lib.autograd.grad((y ** 2).sum(), x, create_graph=True)
            (g ** 3).sum().backward()
            results.append((type(g.grad_fn).__name__, x.grad.numpy()))
        assert results[0][0] == results[1][0]
        np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-10)


FOLD_ERRORS = [
    "F.unfold(x, 2)", "F.unfold(x[0], 2)", "F.unfold(x[0, 0], 2)", "F.unfold(x, 0)", "F.unfold(x, 2, dilation=0)",
    "F.unfold(x, 2, padding=-1)", "F.unfold(x, 2, stride=0)", "F.unfold(x, 6)", "F.unfold(x, (2, 2, 2))",
    "F.unfold(x.long(), 2)", "F.unfold(x.bool(), 2)", "F.unfold(x[:, :0], 2)", "F.unfold(x[:0], 2)",
    "F.unfold(x, 2.5)", "F.unfold(x, 0, padding=-1, stride=0)", "F.unfold(x, 2, padding=-1, stride=0, dilation=0)",
    "F.unfold(x, 2, stride=(1, 2, 3))", "F.unfold(x, 2, padding=(1,))",
    "F.fold(y, (3, 4), 2)", "F.fold(y[0], (3, 4), 2)", "F.fold(y, (3, 4), 3)", "F.fold(y, (3, 5), 2)",
    "F.fold(y, (1, 1), 2)", "F.fold(y, (3, 4), 0)", "F.fold(y, (3, 4), 2, stride=0)", "F.fold(y, (3, 4), 2, padding=-1)",
    "F.fold(y, (3, 4), 2, dilation=0)", "F.fold(x, (3, 4), 2)", "F.fold(y[0, 0], (3, 4), 2)",
    "F.fold(y.long(), (3, 4), 2)", "F.fold(y[:, :, :0], (3, 4), 2)", "F.fold(y[:, :0], (3, 4), 2)",
    "F.fold(y, (3, 4, 5), 2)", "F.fold(y, (3, 4), 0, stride=0, padding=-1, dilation=0)",
    "F.fold(y, (3, 4), 0, padding=-1, dilation=0)", "nn.Fold((3, 4), 2)", "nn.Unfold(2, stride=(1, 2))",
    "F.fold(y[:0], (3, 4), 2)",
]


@pytest.mark.parametrize("code", FOLD_ERRORS)
def test_fold_errors(code):
    check(code, arrays_of(0, (2, 3, 4, 5), (2, 12, 6)))


# --- transposed convolution -----------------------------------------------------------------------------

def _conv_transpose_cases():
    rnd = random.Random(4)
    cases = []
    while len(cases) < 100:
        dim = rnd.randint(1, 2)
        groups = rnd.choice([1, 1, 2, 3])
        cin, cout = groups * rnd.randint(1, 2), groups * rnd.randint(1, 2)
        k = tuple(rnd.randint(1, 3) for _ in range(dim))
        s = tuple(rnd.randint(1, 3) for _ in range(dim))
        d = tuple(rnd.randint(1, 2) for _ in range(dim))
        p = tuple(rnd.randint(0, 2) for _ in range(dim))
        o = tuple(rnd.randint(0, max(ss, dd) - 1) for ss, dd in zip(s, d))
        size = tuple(rnd.randint(1, 5) for _ in range(dim))
        if any((n - 1) * ss - 2 * pp + dd * (kk - 1) + oo + 1 < 1 for n, ss, pp, dd, kk, oo in zip(size, s, p, d, k, o)):
            continue
        batch = rnd.choice([(), (1,), (2,)])
        bias = rnd.random() < 0.7
        shapes = [batch + (cin,) + size, (cin, cout // groups) + k] + ([(cout,)] if bias else [])
        code = (f"F.conv_transpose{dim}d(x, y, {'z' if bias else 'None'}, stride={s}, padding={p}, output_padding={o}, "
                f"groups={groups}, dilation={d})")
        cases.append((shapes, code, rnd.choice(["float32", "float64"])))
    return cases


@pytest.mark.parametrize("shapes,code,dtype", _conv_transpose_cases(), ids=str)
def test_conv_transpose(shapes, code, dtype):
    check(code, arrays_of(7, *shapes), dtype, rtol=1e-4, atol=1e-5)


def test_conv_transpose_second_order():
    rng = np.random.default_rng(0)
    arrays = [rng.standard_normal((2, 2, 3, 4)), rng.standard_normal((2, 3, 3, 2))]
    results = []
    for lib in (gradlab, torch):
        x, w = [lib.tensor(a, requires_grad=True) for a in arrays]
        y = lib.nn.functional.conv_transpose2d(x, w, stride=2, padding=1, output_padding=1)
        gx, gw = lib.autograd.grad((y ** 2).sum(), (x, w), create_graph=True)
        (gx.sum() + (gw ** 2).sum()).backward()
        results.append((type(gx.grad_fn).__name__, type(gw.grad_fn).__name__, x.grad.numpy(), w.grad.numpy()))
    assert results[0][:2] == results[1][:2]
    for a, b in zip(results[0][2:], results[1][2:]):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-8)


CONV_TRANSPOSE_MODULES = [
    ("nn.ConvTranspose2d(4, 3, 3)", (2, 4, 5, 5)), ("nn.ConvTranspose2d(4, 3, 3)", (4, 5, 5)),
    ("nn.ConvTranspose2d(4, 6, (3, 2), stride=2, padding=1, output_padding=1, groups=2, bias=False, dilation=2)",
     (2, 4, 3, 4)),
    ("nn.ConvTranspose1d(2, 3, 3, stride=2)", (2, 2, 5)), ("nn.ConvTranspose1d(4, 4, 2, groups=4, bias=False)", (4, 6)),
    ("nn.ConvTranspose2d(3, 8, 4, stride=2, padding=1, dtype=torch.float64)", (1, 3, 4, 4)),
]


@pytest.mark.parametrize("code,shape", CONV_TRANSPOSE_MODULES, ids=str)
def test_conv_transpose_modules(code, shape):
    module_check(code, shape)


CONV_TRANSPOSE_ERRORS = [
    "F.conv_transpose2d(x, y, stride=2, output_padding=2)", "F.conv_transpose2d(x, y, output_padding=1)",
    "F.conv_transpose2d(x, y, groups=3)", "F.conv_transpose2d(x, torch.randn(3, 3, 3, 3))",
    "F.conv_transpose2d(x, y, torch.randn(4))", "F.conv_transpose2d(x, y, padding=-1)",
    "F.conv_transpose2d(x, y, stride=0)", "F.conv_transpose2d(x, y, padding=5)", "F.conv_transpose2d(x, y, padding=3)",
    "F.conv_transpose2d(x[0, 0], y)", "F.conv_transpose2d(x, y, dilation=0)", "F.conv_transpose2d(x, y, output_padding=-1)",
    "F.conv_transpose2d(x, y, stride=(1, 2, 3))", "F.conv_transpose2d(x.double(), y)", "F.conv_transpose2d(x, y.double())",
    "F.conv_transpose2d(x, y, groups=0)", "F.conv_transpose1d(x[0], y[:, :, 0])",
    "F.conv_transpose1d(x[0, :, 0], y[:, :, 0], stride=2, output_padding=2)",
    "F.conv_transpose1d(x[0, :, 0], y[:, :, 0], output_padding=(1, 1))", "F.conv_transpose1d(x[0, :, 0], y[:, :, 0], dilation=-1)",
    "F.conv_transpose1d(x[0, :, 0], torch.randn(4, 3))", "F.conv_transpose1d(x[0, :, 0], y[:, :, 0], groups=5)",
    "nn.ConvTranspose1d(4, 3, 3, padding_mode='reflect')", "nn.ConvTranspose2d(4, 3, 3, stride=2)(x, output_size=(11, 12))",
    "nn.ConvTranspose2d(4, 3, 3, stride=2)(x, output_size=(13, 12))",
    "nn.ConvTranspose2d(4, 3, 3, stride=2)(x, output_size=(11,))",
    "nn.ConvTranspose2d(4, 3, 3, stride=2)(x, output_size=(1, 2, 11, 12))",
    "nn.ConvTranspose2d(4, 3, 3, stride=2)(x[0], output_size=(3, 11, 12))",
    "nn.ConvTranspose2d(4, 3, 3, groups=2)", "nn.ConvTranspose2d(4, 3, 3)",
]


@pytest.mark.parametrize("code", CONV_TRANSPOSE_ERRORS)
def test_conv_transpose_errors(code):
    check(code, arrays_of(0, (2, 4, 5, 5), (4, 3, 3, 3)), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("code", ["torch.conv_transpose2d(x, y, None, 2, 1, 1)", "torch.conv_transpose1d(x[0], y[:, :, 0])",
                                  "F.conv_transpose2d(x, y, padding='same')", "torch.conv_transpose2d(x, y, stride=1.5)",
                                  "F.conv_transpose1d(x, y, output_padding=[1.0])"])
def test_conv_transpose_torch_forms_and_argument_errors(code):
    check(code, arrays_of(0, (2, 4, 5, 5), (4, 3, 3, 3)), rtol=1e-4, atol=1e-5)


# --- power-average pooling ------------------------------------------------------------------------------

def _lp_pool_cases():
    rnd = random.Random(5)
    cases = []
    for _ in range(40):
        p = rnd.choice([1, 2, 3, 1.5, "float('inf')", "-float('inf')"])
        k = rnd.randint(1, 3)
        s = rnd.choice([None, 1, 2])
        ceil = rnd.random() < 0.3
        if rnd.random() < 0.5:
            shape = (rnd.randint(1, 2), 2, rnd.randint(k, 6))
            code = rnd.choice([f"F.lp_pool1d(x, {p}, {k}, {s}, {ceil})", f"nn.LPPool1d({p}, {k}, {s}, {ceil})(x)"])
        else:
            k2 = (k, rnd.randint(1, 3))
            shape = (rnd.randint(1, 2), 2, rnd.randint(k2[0], 5), rnd.randint(k2[1], 5))
            code = rnd.choice([f"F.lp_pool2d(x, {p}, {k2}, {s}, {ceil})", f"nn.LPPool2d({p}, {k2}, {s}, {ceil})(x)"])
        cases.append((shape, code))
    return cases


@pytest.mark.parametrize("shape,code", _lp_pool_cases(), ids=str)
def test_lp_pool(shape, code):
    # (positive inputs: a fractional power of a negative number is nan in both, and nan's gradient too)
    check(code, [np.abs(a) + 0.1 for a in arrays_of(8, shape)], "float64", rtol=1e-6)


@pytest.mark.parametrize("code", ["nn.LPPool2d(2, 3)", "nn.LPPool1d(1.5, 2, stride=1, ceil_mode=True)"])
def test_lp_pool_repr(code):
    check(code)


# --- bilinear -------------------------------------------------------------------------------------------

def _bilinear_cases():
    rnd = random.Random(6)
    cases = []
    for _ in range(40):
        lead = tuple(rnd.randint(0 if rnd.random() < 0.1 else 1, 3) for _ in range(rnd.randint(0, 2)))
        i, j, o = rnd.randint(1, 4), rnd.randint(1, 4), rnd.randint(1, 3)
        bias = rnd.random() < 0.6
        shapes = [lead + (i,), lead + (j,), (o, i, j)] + ([(o,)] if bias else [])
        args = "x, y, z" + (", torch.tensor(w)" if bias else "")
        code = rnd.choice([f"F.bilinear({args})", f"torch.bilinear({args})"])
        cases.append((shapes, code, rnd.choice(["float32", "float64"])))
    return cases


@pytest.mark.parametrize("shapes,code,dtype", _bilinear_cases(), ids=str)
def test_bilinear(shapes, code, dtype):
    arrays = arrays_of(9, *shapes)
    if len(arrays) == 4:        # (the bias: a constant of the leaves' dtype)
        code = code.replace("torch.tensor(w)", f"torch.tensor({arrays[3].tolist()}, dtype=torch.{dtype})")
    check(code, arrays[:3], dtype, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("args,shapes", [("(3, 4, 5)", [(2, 3), (2, 4)]), ("(3, 4, 5, bias=False)", [(3,), (4,)]),
                                         ("(2, 2, 1, dtype=torch.float64)", [(4, 2), (4, 2)])], ids=str)
def test_bilinear_module(args, shapes):
    states = []
    for lib in (gradlab, torch):
        lib.manual_seed(0)
        m = eval(f"nn.Bilinear{args}", {"nn": lib.nn, "torch": lib})
        states.append((repr(m), [p.detach().numpy().copy() for p in m.parameters()], lib.rand(2).numpy()))
    assert states[0][0] == states[1][0]
    for a, b in zip(states[0][1], states[1][1]):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(states[0][2], states[1][2])
    dtype = "float64" if "float64" in args else "float32"
    check(f"(nn.Bilinear{args})(x, y)", arrays_of(10, *shapes), dtype)


BILINEAR_ERRORS = [
    "F.bilinear(x, y, z[:, :2])", "F.bilinear(x, y[:1], z)", "F.bilinear(x, y, z, torch.randn(4))",
    "F.bilinear(x[0], y[0], z)", "F.bilinear(x, y, z[0])", "F.bilinear(x.double(), y, z)",
    "F.bilinear(x, y, z, torch.randn(5).double())", "F.bilinear(x, y.half(), z)", "F.bilinear(x, y, z.long())",
    "F.bilinear(x.long(), y.long(), z.long())", "F.bilinear(x, y[None], z)", "F.bilinear(x, y, z, torch.tensor(1.))",
    "F.bilinear(x[:, :0], y, z[:, :0])", "F.bilinear(x, y, z[None])", "F.bilinear(x, y, z[0, 0])",
    "F.bilinear(x[0, 0], y[0, 0], z)", "F.bilinear(x.bool(), y.bool(), z.bool())", "F.bilinear(x, 1.0, z)",
]


@pytest.mark.parametrize("code", BILINEAR_ERRORS)
def test_bilinear_errors(code):
    check(code, arrays_of(0, (2, 3), (2, 4), (5, 3, 4)))


# --- what the API fuzzer found ------------------------------------------------------------------------------

@pytest.mark.parametrize("code", [
    "nn.ReflectionPad3d('x')", "nn.ReplicationPad1d(True)(x)", "nn.ZeroPad2d(True)(x)", "F.pad(x, (True, 1))",
    "nn.Unfold(torch.tensor([0]))(x)", "F.unfold(x[None], torch.tensor([2, 2]))", "F.unfold(x[None], torch.tensor(2))",
    "F.unfold(x[None], (True, 2))", "F.max_pool2d(x, (True, 2))", "F.avg_pool2d(x, (True, 2))",
])
def test_fuzzer_findings(code):
    check(code, arrays_of(0, (2, 3, 4)))


# --- scaled dot-product attention -----------------------------------------------------------------------

def _attention_cases():
    rnd = random.Random(7)
    cases = []
    for _ in range(50):
        lead = rnd.choice([(), (2,), (2, 3), (1, 2)])
        length, source, e, ev = rnd.randint(1, 4), rnd.randint(1, 4), rnd.randint(1, 4), rnd.randint(1, 3)
        shapes = [lead + (length, e), lead + (source, e), lead + (source, ev)]
        args = ["x", "y", "z"]
        mask = rnd.choice([None, None, "bool", "float", "causal"])
        if mask == "bool":
            keep = np.random.default_rng(len(cases)).random((length, source)) < 0.7
            args.append(f"attn_mask=torch.tensor({keep.tolist()})")
        elif mask == "float":
            args.append(f"attn_mask=torch.tensor({np.round(np.random.default_rng(len(cases)).standard_normal((length, source)), 2).tolist()}, dtype=torch.{{dtype}})")
        elif mask == "causal":
            args.append("is_causal=True")
        if rnd.random() < 0.3:      # (torch's CPU flash kernel gives nan for a causal mask with a negative scale)
            args.append(f"scale={rnd.choice([0.5, 2.0] + ([] if mask == 'causal' else [-1.0]))}")
        dtype = rnd.choice(["float32", "float64"])
        cases.append((shapes, f"F.scaled_dot_product_attention({', '.join(args)})".replace("{dtype}", dtype), dtype))
    return cases


@pytest.mark.parametrize("shapes,code,dtype", _attention_cases(), ids=str)
def test_scaled_dot_product_attention(shapes, code, dtype):
    check(code, arrays_of(11, *shapes), dtype, rtol=1e-5, atol=1e-6)


ATTENTION_ERRORS = [
    "F.scaled_dot_product_attention(x, y.double(), z)", "F.scaled_dot_product_attention(x, y[..., :4], z)",
    "F.scaled_dot_product_attention(x, y, z[..., :5, :])", "F.scaled_dot_product_attention(x[0, 0, 0], y[0, 0, 0], z[0, 0, 0])",
    "F.scaled_dot_product_attention(x, y, z, attn_mask=torch.ones(4, 5))",
    "F.scaled_dot_product_attention(x, y, z, attn_mask=torch.ones(4, 6).double())",
    "F.scaled_dot_product_attention(x, y, z, attn_mask=torch.ones(4, 6), is_causal=True)",
    "F.scaled_dot_product_attention(x.long(), y.long(), z.long())", "F.scaled_dot_product_attention(x, y[:, :1], z[:, :1])",
    "F.scaled_dot_product_attention(x, y[:, :1], z[:, :1], enable_gqa=True)",
    "F.scaled_dot_product_attention(x, y[:, :2], z[:, :2], enable_gqa=True)",
    "F.scaled_dot_product_attention(x, y, z, dropout_p=1.5)",
    "F.scaled_dot_product_attention(x, y, z, attn_mask=torch.zeros(4, 6, dtype=torch.bool))",
]


@pytest.mark.parametrize("code", ATTENTION_ERRORS)
def test_attention_errors(code):
    check(code, arrays_of(0, (2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7)))


# --- max unpooling --------------------------------------------------------------------------------------

def _unpool_cases():
    rnd = random.Random(8)
    cases = []
    for _ in range(30):
        k, s = rnd.randint(1, 3), rnd.randint(1, 3)
        if rnd.random() < 0.5:
            shape = (rnd.randint(1, 2), 2, rnd.randint(k, 6), rnd.randint(k, 6))
            code = rnd.choice([f"F.max_unpool2d(*F.max_pool2d(x, {k}, {s}, return_indices=True), {k}, {s})",
                               f"nn.MaxUnpool2d({k}, {s})(*nn.MaxPool2d({k}, {s}, return_indices=True)(x))"])
        else:
            shape = (rnd.randint(1, 2), 2, rnd.randint(k, 7))
            code = rnd.choice([f"F.max_unpool1d(*F.max_pool1d(x, {k}, {s}, return_indices=True), {k}, {s})",
                               f"nn.MaxUnpool1d({k}, {s})(*nn.MaxPool1d({k}, {s}, return_indices=True)(x))"])
        cases.append((shape, code))
    return cases


@pytest.mark.parametrize("shape,code", _unpool_cases(), ids=str)
def test_max_unpool(shape, code):
    # (distinct values: no ties for the maximum)
    x = np.random.default_rng(12).permutation(int(np.prod(shape))).reshape(shape) / 7.0
    check(code, [x], "float64")


UNPOOL_ERRORS = [
    "F.max_unpool2d(o, i.float(), 2)", "F.max_unpool2d(o, i[:, :1], 2)", "F.max_unpool2d(o, i + 20, 2)",
    "F.max_unpool2d(o, i, 2, output_size=(5, 5))", "F.max_unpool2d(o, i, 2, output_size=(7, 5))",
    "F.max_unpool2d(o, i, 2, output_size=(1, 2, 5, 5))", "F.max_unpool2d(o, i, 2, output_size=(5,))",
    "F.max_unpool2d(o[0, 0], i[0, 0], 2)", "F.max_unpool2d(o[0], i[0], 2)", "F.max_unpool1d(o[0], i[0], 2)",
    "F.max_unpool2d(o.long(), i, 2)", "nn.MaxUnpool2d(2)", "nn.MaxUnpool1d(3, stride=2, padding=1)",
]


@pytest.mark.parametrize("code", UNPOOL_ERRORS)
def test_unpool_errors(code):
    check(f"(lambda o, i: {code})(*F.max_pool2d(x, 2, return_indices=True))", arrays_of(0, (1, 2, 4, 4)))


@pytest.mark.parametrize("code", ["nn.MaxUnpool2d('x')", "nn.MaxUnpool1d('ab')", "nn.Conv2d(1, 1, 'x')",
                                  "nn.ConvTranspose2d(2, 2, range(2, 4))"])
def test_string_sizes_become_tuples(code):
    check(code)
