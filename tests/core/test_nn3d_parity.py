"""The 3-d convolutions and poolings, lazy layers, embedding bags, grid sampling, Gumbel-softmax and fractional
max pooling against live torch: generated shapes and arguments (seeded); each case compares the printed result
(allclose where torch's summation order differs), dtype, grad_fn name, the inputs' gradients, warnings, module
reprs and states after manual_seed, random samples bit for bit, and the exception type and message of bad calls."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)


def run(lib, code, arrays, dtype, seed=0):
    """eval(code) with x, y, z the arrays as leaves of `dtype` (requires_grad when floating): the printed
    result(s), dtype, grad_fn name, the leaves' gradients after backward of a fixed weighting, warnings."""
    lib.manual_seed(seed)
    floating = dtype.startswith("float")
    leaves = [lib.tensor(a, dtype=getattr(lib, dtype), requires_grad=floating) for a in arrays]
    env = dict(zip("xyz", leaves), torch=lib, nn=lib.nn, F=lib.nn.functional)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = eval(code, env)
        except Exception as e:      # noqa: BLE001 - whatever each library raises is compared
            return {"error": (type(e).__name__, str(e))}
    outs = out if isinstance(out, tuple) else (out,)
    if not isinstance(outs[0], lib.Tensor):     # (a module: its repr)
        return {"error": ("ok", repr(out))}
    result = {"values": [o.detach().numpy() for o in outs], "reprs": [repr(o) for o in outs],
              "dtypes": [str(o.dtype) for o in outs],
              "grad_fns": [type(o.grad_fn).__name__ if o.grad_fn is not None else None for o in outs],
              "warnings": [str(w.message) for w in caught]}
    out = outs[0]
    if out.requires_grad and out.numel():
        g = np.random.default_rng(1).standard_normal(tuple(out.shape))
        out.backward(lib.tensor(g, dtype=out.dtype))
        result["grads"] = [x.grad.numpy() if x.grad is not None else None for x in leaves]
    return result


def check(code, arrays=(), dtype="float32", rtol=1e-5, atol=1e-6, exact=False, seed=0):
    expected, got = run(torch, code, arrays, dtype, seed), run(gradlab, code, arrays, dtype, seed)
    if "error" in expected or "error" in got:
        assert got.get("error") == expected.get("error"), code
        return
    for key in ("dtypes", "grad_fns", "warnings"):
        assert got[key] == expected[key], (code, key, got[key], expected[key])
    for a, b, ra, rb in zip(got["values"], expected["values"], got["reprs"], expected["reprs"]):
        assert a.shape == b.shape, code
        if exact:
            assert ra == rb, code
            np.testing.assert_array_equal(a, b, err_msg=code)
        elif ra != rb:      # (torch's summation order may differ in the last bit)
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=code)
    for a, b in zip(got.get("grads", []), expected.get("grads", [])):
        assert (a is None) == (b is None), code
        if b is not None:
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=code)


def arrays_of(seed, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def test_the_check_can_fail():
    with pytest.raises(AssertionError):
        check("F.avg_pool3d(x, 2) if torch.__name__ == 'torch' else F.avg_pool3d(x, 2) * 1.01", arrays_of(0, (1, 1, 2, 2, 2)))
    with pytest.raises(AssertionError):
        check("F.max_pool3d(x, 2) if torch.__name__ == 'torch' else F.max_pool3d(x, (2, 2))", arrays_of(0, (1, 1, 2, 2, 2)))


# --- convolutions -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(12))
def test_conv3d_and_its_transpose(seed):
    rng = np.random.default_rng(seed)
    groups = int(rng.choice([1, 2]))
    cin, cout = 2 * groups, 2 * groups
    k = tuple(int(v) for v in rng.integers(1, 3, 3))
    s = tuple(int(v) for v in rng.integers(1, 3, 3))
    p = tuple(int(v) for v in rng.integers(0, 2, 3))
    d = tuple(int(v) for v in rng.integers(1, 3, 3))
    size = tuple(int(v) for v in rng.integers(3, 6, 3))
    batch = [(), (2,)][seed % 2]
    dtype = ["float32", "float64"][seed % 3 == 0]
    x, w, b = arrays_of(seed, batch + (cin,) + size, (cout, cin // groups) + k, (cout,))
    check(f"F.conv3d(x, y, z, {s}, {p}, {d}, {groups})", [x, w, b], dtype, rtol=1e-4, atol=1e-5)
    check(f"torch.conv3d(x, y, None, {s[0]}, 'same' if {s[0]} == 1 else 0, {d}, {groups})", [x, w], dtype,
          rtol=1e-4, atol=1e-5)
    op = tuple(int(min(v, max(ss, dd) - 1)) for v, ss, dd in zip(rng.integers(0, 2, 3), s, d))
    wt = arrays_of(seed + 1, (cin, cout // groups) + k)[0]
    check(f"F.conv_transpose3d(x, y, z, {s}, {p}, {op}, {groups}, {d})", [x, wt, b], dtype, rtol=1e-4, atol=1e-5)
    if batch:
        check(f"torch.convolution(x, y, z, {list(s)}, {list(p)}, {list(d)}, False, [0, 0, 0], {groups})", [x, w, b],
              dtype, rtol=1e-4, atol=1e-5)
        check(f"torch.convolution(x, y, z, {list(s)}, {list(p)}, {list(d)}, True, {list(op)}, {groups})", [x, wt, b],
              dtype, rtol=1e-4, atol=1e-5)


def test_conv3d_double_backward():
    x, w = arrays_of(3, (1, 2, 4, 3, 4), (3, 2, 2, 1, 2))
    results = []
    for lib in (torch, gradlab):
        xt, wt = (lib.tensor(a, requires_grad=True) for a in (x, w))
        y = lib.nn.functional.conv3d(xt, wt, padding=1)
        gx, gw = lib.autograd.grad((y ** 2).sum(), (xt, wt), create_graph=True)
        (gx.sum() + (gw ** 2).sum()).backward()
        results.append((xt.grad.numpy(), wt.grad.numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-9)


CONV_ERRORS = [
    "F.conv3d(x[0, 0], y)", "F.conv3d(x, y, stride=[1, 2])", "F.conv3d(x, y[:1])", "F.conv3d(x, y, groups=2)",
    "F.conv3d(x, y, padding=-1)", "F.conv3d(x, y, stride=0)", "F.conv3d(x, y, padding='full')",
    "F.conv3d(x, y, z[:2])", "F.conv3d(x[..., :1, :1], y, dilation=3)",
    "F.conv_transpose3d(x, y.transpose(0, 1), stride=2, output_padding=2)",
    "F.conv_transpose3d(x, y.transpose(0, 1), output_padding=(0, 1, 0))", "F.conv_transpose3d(x, y)",
    "torch.convolution(x[0], y, None, [1], [0], [1], False, [0], 1)",
    "torch.convolution(x, y, None, [1], [0], [1], False, [0, 0], 1)",
    "torch.convolution(x, y, None, [1], [0], [1], True, [0], 1)", "torch.convolution(x, y, None, 1, [0], [1], False, [0], 1)",
    "torch.conv3d(x, y.double())", "F.conv_transpose1d(x[0, :, 0], y[:, :, 0, 0].transpose(0, 1), stride=2, output_padding=2)",
]


CONV_ERRORS += ["nn.LazyConvTranspose1d()", "nn.LazyConvTranspose3d(2)"]


@pytest.mark.parametrize("code", CONV_ERRORS)
def test_conv_errors(code):
    x, w, b = arrays_of(0, (1, 2, 4, 5, 4), (3, 2, 2, 2, 2), (3,))
    check(code, [x, w, b])


@pytest.mark.parametrize("code", ["nn.Conv3d(2, 4, 2)", "nn.Conv3d(2, 4, (1, 2, 3), stride=2, padding=1, bias=False)",
                                  "nn.Conv3d(2, 4, 3, padding='same', padding_mode='reflect')",
                                  "nn.ConvTranspose3d(2, 4, 2, stride=2, groups=2)", "nn.LazyConv3d(4, 2)",
                                  "nn.LazyConv1d(4, 2)", "nn.LazyConvTranspose1d(4, 3, stride=2)",
                                  "nn.LazyConvTranspose2d(4, 2)", "nn.LazyConvTranspose3d(4, 2, bias=False)"])
def test_conv_modules(code):
    nd = 1 if "1d" in code else 2 if "2d" in code else 3
    x = arrays_of(0, (2, 2) + (5,) * nd)[0].astype(np.float32)
    states = []
    for lib in (gradlab, torch):
        lib.manual_seed(0)
        m = eval(code, {"nn": lib.nn, "torch": lib})
        before = (repr(m), {k: repr(v) for k, v in m.named_parameters()})
        y = m(lib.tensor(x))
        states.append((before, repr(m), type(m).__name__, {k: v.detach().numpy().copy() for k, v in m.state_dict().items()},
                       y.detach().numpy(), type(y.grad_fn).__name__, lib.rand(2).numpy()))
    a, b = states
    assert a[0] == b[0] and a[1] == b[1] and a[2] == b[2] and a[5] == b[5]
    for k in b[3]:
        np.testing.assert_array_equal(a[3][k], b[3][k], err_msg=k)
    np.testing.assert_allclose(a[4], b[4], rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(a[6], b[6])


# --- pooling ------------------------------------------------------------------------------------------------

def _pool_args(rng, seed):
    k = int(rng.integers(1, 4)) if seed % 3 else tuple(int(v) for v in rng.integers(1, 4, 3))
    s = [None, 1, 2, (1, 2, 1)][seed % 4]
    p = [0, 1, (0, 1, 0)][seed % 3]
    return k, s, p


@pytest.mark.parametrize("seed", range(24))
def test_pool3d(seed):
    rng = np.random.default_rng(seed)
    shape = ((2,) if seed % 2 else ()) + (2,) + tuple(int(v) for v in rng.integers(2, 7, 3))
    x = [rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0 - 3]
    k, s, p = _pool_args(rng, seed)
    d = [1, 2, (1, 2, 1)][seed % 5 % 3]
    ceil = bool(seed % 2)
    dtype = ["float32", "float64", "int64"][seed % 3]
    check(f"F.max_pool3d(x, {k}, {s}, {p}, {d}, {ceil}, return_indices=True)", x, dtype)
    check(f"torch.max_pool3d(x, {k}, {s or []}, {p}, {d}, {ceil})", x, dtype)
    check(f"F.avg_pool3d(x, {k}, {s}, {p}, {ceil}, {seed % 2 == 0}, {[None, 3][seed % 5 == 0]})", x, dtype)
    out = [1, 2, (2, 1, 3), (None, 2, 1), (1, 1, 1)][seed % 5]
    check(f"F.adaptive_avg_pool3d(x, {out})", x, dtype)
    check(f"F.adaptive_max_pool3d(x, {out}, True)", x, dtype)
    check(f"F.lp_pool3d(x, {[2, 1.5, float('inf')][seed % 3]}, {k}, {s}, {ceil})", [np.abs(x[0]) + 0.5],
          dtype if dtype != "int64" else "float64")
    check(f"torch.max_pool1d_with_indices(x[0, 0], {k if isinstance(k, int) else k[0]})", x, dtype)
    check(f"torch.adaptive_max_pool1d(x[0, 0], {2 if isinstance(out, int) else 3})", x, dtype)


@pytest.mark.parametrize("seed", range(6))
def test_max_unpool3d(seed):
    rng = np.random.default_rng(seed)
    x = [rng.permutation(2 * 2 * 4 * 6 * 4).reshape(2, 2, 4, 6, 4) / 7.0]
    k = [2, (2, 3, 2)][seed % 2]
    check(f"nn.MaxUnpool3d({k})(*F.max_pool3d(x, {k}, return_indices=True))", x, "float64")
    check(f"F.max_unpool3d(*F.max_pool3d(x, {k}, return_indices=True), {k}, output_size=x.shape)", x, "float32")


POOL_ERRORS = [
    "F.max_pool3d(x, (2, 2))", "F.max_pool3d(x, 2, padding=2)", "F.max_pool3d(x[0, 0], 2)", "F.max_pool3d(x, 5)",
    "F.max_pool3d(x, 2, stride=0)", "F.max_pool3d(x, 2, dilation=0)", "F.max_pool3d(x, 2, stride=(1, 2))",
    "F.max_pool3d(x.new_zeros(1, 0, 3, 3, 3), 2)", "F.max_pool3d(x.bool(), 2)",
    "F.avg_pool3d(x, (2, 2))", "F.avg_pool3d(x, 2, padding=2)", "F.avg_pool3d(x[0, 0], 2)", "F.avg_pool3d(x, 5)",
    "F.avg_pool3d(x, 2, divisor_override=0)", "F.avg_pool3d(x, 2, stride=(1, 2))", "F.avg_pool3d(x, 0)",
    "F.adaptive_avg_pool3d(x, (2, 2))", "F.adaptive_avg_pool3d(x[0, 0], 2)", "F.adaptive_avg_pool3d(x, -1)",
    "F.adaptive_avg_pool3d(x.long(), 2)", "F.adaptive_avg_pool3d(x.long(), 1)", "F.adaptive_avg_pool2d(x[0].long(), 1)",
    "F.adaptive_avg_pool3d(x[0, 0, 0].int(), 1)", "nn.AdaptiveAvgPool3d(-1)(x[0, 0, 0, 0])",
    "F.adaptive_max_pool3d(x, (2, 2))", "F.adaptive_max_pool3d(x[0, 0], 2)", "F.adaptive_max_pool3d(x, -1)",
    "F.adaptive_max_pool3d(x.long(), 2)", "F.adaptive_avg_pool3d(x.new_zeros(1, 0, 3, 3, 3), 2)",
    "F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2, output_size=(1, 2))",
    "F.max_unpool3d(F.max_pool3d(x, 2), F.max_pool3d(x, 2), 2)", "F.max_unpool3d(x[0, 0], x[0, 0].long(), 2)",
    "F.max_unpool3d(*F.max_pool3d(x, 2, return_indices=True), 2, stride=0)",
    "F.max_unpool3d(F.max_pool3d(x, 2), F.max_pool3d(x, 2, return_indices=True)[1] + 1000, 2)",
]


@pytest.mark.parametrize("code", POOL_ERRORS)
def test_pool_errors(code):
    check(code, arrays_of(0, (1, 2, 4, 6, 4)))


@pytest.mark.parametrize("code", ["nn.MaxPool3d(2, return_indices=True)", "nn.AvgPool3d(2, 1, 1)",
                                  "nn.AvgPool3d((1, 2, 2), divisor_override=2)", "nn.AdaptiveAvgPool3d((2, None, 3))",
                                  "nn.AdaptiveMaxPool3d(2)", "nn.LPPool3d(2, 2)", "nn.FractionalMaxPool2d(2, output_ratio=0.5)",
                                  "nn.FractionalMaxPool3d(2, output_size=2, return_indices=True)"])
def test_pool_modules(code):
    nd = 2 if "2d" in code else 3
    check(f"({code})(x)", arrays_of(0, (2, 3) + (6,) * nd))
    check(code)


# --- lazy norms and buffers -----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["LazyBatchNorm1d", "LazyBatchNorm2d", "LazyBatchNorm3d", "LazyInstanceNorm1d",
                                  "LazyInstanceNorm2d", "LazyInstanceNorm3d"])
def test_lazy_norms(name):
    nd = int(name[-2])
    x = arrays_of(0, (2, 3) + (4,) * nd)[0].astype(np.float32)
    seen = []
    for lib in (torch, gradlab):
        m = getattr(lib.nn, name)()
        state = [repr(m), {k: repr(v) for k, v in m.named_buffers()}, {k: repr(v) for k, v in m.named_parameters()},
                 list(m.state_dict())]
        y = m(lib.tensor(x))
        state += [repr(m), type(m).__name__, type(y.grad_fn).__name__, repr(m.running_mean), repr(m.running_var),
                  repr(m.num_batches_tracked), repr(m.weight)]
        try:
            m(lib.tensor(x[0, 0]))
        except Exception as e:      # noqa: BLE001
            state.append(repr(e))
        seen.append((state, y.detach().numpy()))
    assert seen[0][0] == seen[1][0]
    np.testing.assert_allclose(seen[0][1], seen[1][1], rtol=1e-5, atol=1e-6)


def test_buffers():
    seen = []
    for lib in (torch, gradlab):
        m = lib.nn.Module()
        m.a = lib.nn.Buffer(lib.ones(2), persistent=False)
        m.b = lib.nn.Buffer(lib.ones(1, requires_grad=True))
        u = lib.nn.UninitializedBuffer()
        try:
            u.shape
        except RuntimeError as e:
            shape_error = str(e)
        seen.append((list(m._buffers), sorted(m._non_persistent_buffers_set), list(m.state_dict()),
                     isinstance(m.a, lib.nn.Buffer), isinstance(lib.ones(1), lib.nn.Buffer), type(m.a).__name__,
                     m.a.persistent, repr(m.b), repr(u), u.requires_grad, shape_error))
    assert seen[0] == seen[1]


# --- embeddings -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_embedding_bag(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 7))
    idx = rng.integers(0, 6, n).tolist()
    bags = int(rng.integers(1, 4))
    offsets = sorted(int(v) for v in rng.integers(0, n + 1, bags))
    offsets[0] = 0
    mode = ["sum", "mean", "max"][seed % 3]
    pad = [None, 2, -1][seed % 5 % 3]
    last = seed % 4 == 0 and bags > 1
    if last:        # (PyTorch's kernels disagree past the last offset: keep it at the end)
        offsets[-1] = n
    weights = mode == "sum" and seed % 2 == 1
    sg = seed % 7 == 0 and mode != "max"
    dtype = ["float32", "float64"][seed % 2]
    w = arrays_of(seed, (6, 3))
    psw = f", per_sample_weights=y" if weights else ""
    arrays = w + (arrays_of(seed + 1, (n,)) if weights else [])
    check(f"F.embedding_bag(torch.tensor({idx}), x, torch.tensor({offsets}), mode={mode!r}, padding_idx={pad}, "
          f"include_last_offset={last}, scale_grad_by_freq={sg}{psw})", arrays, dtype)
    check(f"torch.embedding_bag(x, torch.tensor({idx}), torch.tensor({offsets}), {sg}, {seed % 3}, False, None, "
          f"{last}, {pad})", w, dtype)
    if n >= 2:
        check(f"F.embedding_bag(torch.tensor({idx[:n // 2 * 2]}).view(-1, 2), x, mode={mode!r})", w, dtype)
        check(f"nn.EmbeddingBag(6, 3, mode={mode!r}, padding_idx={pad})(torch.tensor({idx}), torch.tensor({offsets}))")
    check(f"torch.embedding(x, torch.tensor({idx}), {[-1, 2][seed % 2]}, {sg})", w, dtype)


EMBEDDING_ERRORS = [
    "F.embedding_bag(torch.tensor([0, 1]), x[0], torch.tensor([0]))",
    "F.embedding_bag(torch.tensor([0, 1]), x)", "F.embedding_bag(torch.tensor([0, -1]), x.double(), torch.tensor([0]))",
    "F.embedding_bag(torch.tensor([0, 9]), x, torch.tensor([0]), mode='max')",
    "F.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), mode='min')",
    "F.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), mode='max', scale_grad_by_freq=True)",
    "F.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), per_sample_weights=x[0, :2])",
    "F.embedding_bag(torch.tensor([0.0, 1.0]), x, torch.tensor([0]))",
    "F.embedding_bag(torch.tensor([0, 9]), x, torch.tensor([0]))",
    "F.embedding_bag(torch.tensor([0, 1]), x, torch.tensor([0]), padding_idx=9)",
    "torch.embedding(x, torch.tensor([0.0]))", "torch.embedding(x[0], torch.tensor([0]))",
    "torch.embedding(x, torch.tensor([9]))", "nn.EmbeddingBag(3, 2, padding_idx=5)", "nn.EmbeddingBag(3, 2)",
    "F.embedding_bag(torch.tensor([[3, 8]]), 2.5)", "torch.embedding(x[None].long(), torch.tensor([1.0]))",
    "F.embedding(torch.tensor([1.0]), x[None])",
]


@pytest.mark.parametrize("code", EMBEDDING_ERRORS)
def test_embedding_errors(code):
    check(code, arrays_of(0, (4, 3)))


# --- grid sampling and affine grids --------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(24))
def test_grid_sample(seed):
    rng = np.random.default_rng(seed)
    nd = 2 if seed % 3 else 3
    shape = (2, 3) + tuple(int(v) for v in rng.integers(1, 5, nd))
    grid = rng.uniform(-1.3, 1.3, (2,) + tuple(int(v) for v in rng.integers(1, 4, nd)) + (nd,))
    mode = ["bilinear", "nearest", "bicubic"][seed % 4 // 3 if nd == 3 or seed % 5 else 2]
    padding = ["zeros", "border", "reflection"][seed % 3 if nd == 3 else seed % 5 % 3]
    corners = [True, False, None][seed % 3]
    dtype = ["float32", "float64"][seed % 2]
    x = arrays_of(seed, shape)[0]
    check(f"F.grid_sample(x, y, {mode!r}, {padding!r}, {corners})", [x, grid], dtype, rtol=1e-4, atol=1e-5)
    check(f"torch.grid_sampler(x, y, {['bilinear', 'nearest', 'bicubic'].index(mode)}, "
          f"{['zeros', 'border', 'reflection'].index(padding)}, "
          f"{bool(corners)})", [x, grid], dtype, rtol=1e-4, atol=1e-5)
    size = (2, 3) + tuple(int(v) for v in rng.integers(1, 5, nd))
    theta = arrays_of(seed + 1, (2, nd, nd + 1))
    check(f"F.affine_grid(x, {size}, {corners})", theta, dtype, exact=True)
    check(f"torch.affine_grid_generator(x, {list(size)}, {bool(corners)})", theta, dtype, exact=True)


GRID_ERRORS = [
    "F.grid_sample(x, y, 'cubic')", "F.grid_sample(x, y, padding_mode='wrap')", "F.grid_sample(x, y.double())",
    "F.grid_sample(x, y[:1])", "F.grid_sample(x, y[..., :1])", "F.grid_sample(x[0], y[0])",
    "F.grid_sample(x[..., None], y[..., None, :].expand(2, 3, 4, 1, 3).contiguous(), 'bicubic')",
    "F.grid_sample(x.long(), y.long(), align_corners=False)",
    "F.affine_grid(z, (2, 1, 3, 3), False)", "F.affine_grid(z[:, :1], (2, 1, 3, 3), False)",
    "F.affine_grid(z, (2, 1, 3), False)", "F.affine_grid(z, (2, 1, 0, 3), False)", "F.affine_grid(z.long(), (2, 1, 3, 3))",
    "F.affine_grid(torch.ones(2, 3, 4), (2, 1, 3, 3, 3), False)",
    "torch.grid_sampler(x[0, 0, 0], y[0, 0, :1, 0].half(), 1, 0, False)", "torch.grid_sampler_3d(x[0, 0, 0], z[0, 0, 0], 2, 0, False)",
    "torch.grid_sampler_2d(x[0, 0, 0].bool(), y[0, 0, 0].long(), 2, 2, align_corners=False)",
]


@pytest.mark.parametrize("code", GRID_ERRORS)
def test_grid_errors(code):
    x, grid, theta = arrays_of(0, (2, 1, 4, 5), (2, 3, 4, 2), (2, 2, 3))
    check(code, [x, grid, theta])


# --- random: Gumbel-softmax and fractional max pooling, PyTorch's samples ---------------------------------------

@pytest.mark.parametrize("seed", range(8))
def test_gumbel_softmax(seed):
    dtype = ["float32", "float64"][seed % 2]
    check(f"F.gumbel_softmax(x, tau={[1, 0.5][seed % 2]}, hard={seed % 4 >= 2}, dim={[-1, 0][seed % 3 == 0]})",
          arrays_of(seed, (3, 5)), dtype, exact=True, seed=seed)
    # (a 4-long float32 log is one bit off PyTorch's: gradlab's log, not gumbel_softmax; hence not exact here)
    check("F.gumbel_softmax(x, eps=1e-5)", arrays_of(seed, (4,)), dtype, seed=seed)


@pytest.mark.parametrize("seed", range(16))
def test_fractional_max_pool(seed):
    rng = np.random.default_rng(seed)
    nd = 2 if seed % 2 else 3
    batched = seed % 3 != 0
    shape = ((2,) if batched else ()) + (3,) + tuple(int(v) for v in rng.integers(4, 9, nd))
    k = int(rng.integers(1, 3))
    if seed % 4 == 0:
        size = f"output_ratio={[0.5, 0.7][seed % 8 // 4]}"
    else:
        size = "output_size=" + str(tuple(int(rng.integers(1, n - k + 1)) for n in shape[-nd:]))
    dtype = ["float32", "float64"][seed // 2 % 2]
    x = [rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0]
    check(f"F.fractional_max_pool{nd}d(x, {k}, {size}, return_indices=True)", x, dtype, exact=True, seed=seed)
    check(f"nn.FractionalMaxPool{nd}d({k}, {size})(x)", x, dtype, exact=True, seed=seed)


FRACTIONAL_ERRORS = [
    "F.fractional_max_pool3d(x[0], 2, output_size=2)", "F.fractional_max_pool2d(x[0, 0], 2, output_size=2)",
    "F.fractional_max_pool2d(x, 2)", "F.fractional_max_pool2d(x, 2, output_ratio=2)",
    "F.fractional_max_pool2d(x, (2, 2, 2), output_size=2)", "F.fractional_max_pool2d(x, 2, output_size=6)",
    "F.fractional_max_pool3d(x[None], 1, output_size=(1, 4, 5))",
    "F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=torch.rand(1, 2, 2))",
    "F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=torch.rand(1, 1, 3))",
    "F.fractional_max_pool2d(x, 2, output_size=2, _random_samples=torch.rand(1, 1, 2).double())",
    "nn.FractionalMaxPool2d(2)", "nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5)",
    "nn.FractionalMaxPool3d(2, output_ratio=1.5)", "nn.FractionalMaxPool3d()", "nn.FractionalMaxPool3d(-1)",
]


@pytest.mark.parametrize("code", FRACTIONAL_ERRORS)
def test_fractional_errors(code):
    check(code, arrays_of(0, (1, 1, 4, 5)))


# --- constant_pad_nd ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code", ["torch.constant_pad_nd(x, [1])", "torch.constant_pad_nd(x, [1, 1, 1, 1, 1, 1])",
                                  "torch.constant_pad_nd(x, [-3, 0])", "torch.constant_pad_nd(x, [0, -4])",
                                  "torch.constant_pad_nd(x, [1, 2], 2.5)", "torch.constant_pad_nd(x.long(), [1, 2], 2.5)",
                                  "torch.constant_pad_nd(x.bool(), [1, 2], 2)", "torch.constant_pad_nd(x, [])",
                                  "torch.constant_pad_nd(x, [-1, -2])", "torch.constant_pad_nd(x[0, 0], [1, 1])",
                                  "torch.constant_pad_nd(x, [1, 1], value=1e40)", "torch.constant_pad_nd(x, (2, 1, 0, -1), -1)"])
def test_constant_pad_nd(code):
    check(code, arrays_of(0, (2, 3)))


def test_nn_grad_conv3d():
    x, w, g = arrays_of(5, (1, 2, 4, 3, 4), (3, 2, 2, 1, 2), (1, 3, 3, 2, 3))
    check("nn.grad.conv3d_input(x.shape, y, z, stride=(1, 2, 2), padding=(0, 0, 1))", [x, w, g], "float64")
    check("nn.grad.conv3d_weight(x, y.shape, z, stride=(1, 2, 2), padding=(0, 0, 1))", [x, w, g], "float64")
