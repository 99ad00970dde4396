"""BatchNorm, LayerNorm, GroupNorm, Embedding, RNN/LSTM/GRU and their cells against PyTorch: initial
parameters after manual_seed, values, gradients, running statistics, grad_fn names, reprs and errors.

Each case is one function of the library (`T` is torch or gradlab) run on both; what it returns
(tensors, strings, nested tuples) is compared."""
import itertools
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


def _plain(x):
    """Tensors as (numpy array, dtype name, requires_grad); containers walked."""
    if isinstance(x, (torch.Tensor, gradlab.Tensor)):
        a = x.detach().numpy() if isinstance(x, torch.Tensor) else x._data
        return ("tensor", np.array(a), str(x.dtype).split(".")[-1])
    if isinstance(x, (list, tuple)):
        return type(x).__name__, [_plain(v) for v in x]
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    return x


def _compare(got, expected, rtol, atol, path="out"):
    if isinstance(expected, tuple) and expected and expected[0] == "tensor":
        assert isinstance(got, tuple) and got[0] == "tensor", path
        assert got[2] == expected[2], f"{path}: dtype {got[2]} != {expected[2]}"
        assert got[1].shape == expected[1].shape, f"{path}: shape {got[1].shape} != {expected[1].shape}"
        np.testing.assert_allclose(got[1], expected[1], rtol=rtol, atol=atol, err_msg=path)
    elif isinstance(expected, tuple) and len(expected) == 2 and isinstance(expected[1], list):
        assert len(got[1]) == len(expected[1]), path
        for i, (g, e) in enumerate(zip(got[1], expected[1])):
            _compare(g, e, rtol, atol, f"{path}[{i}]")
    elif isinstance(expected, dict):
        assert list(got) == list(expected), path
        for k in expected:
            _compare(got[k], expected[k], rtol, atol, f"{path}.{k}")
    else:
        assert got == expected, f"{path}: {got!r} != {expected!r}"


def same(fn, rtol=1e-5, atol=1e-6):
    """fn(torch) and fn(gradlab) give the same values (or raise the same error)."""
    results = []
    for T in (torch, gradlab):
        try:
            results.append(("ok", _plain(fn(T))))
        except Exception as e:      # noqa: BLE001  (the error is what is compared)
            results.append(("error", type(e).__name__, str(e)))
    expected, got = results
    if expected[0] == "error" or got[0] == "error":
        assert got == expected
    else:
        _compare(got[1], expected[1], rtol, atol)


def names(*tensors):
    return [type(t.grad_fn).__name__ if t.grad_fn is not None else None for t in tensors]


# --- batch norm ------------------------------------------------------------------------------------
BN_CASES = list(itertools.product(
    [(1, (4, 3)), (1, (5, 2, 3)), (2, (3, 2, 2, 3)), (1, (40, 5))],     # (dims of BatchNormNd, input shape)
    [0.1, None], [True, False], [True, False]))


@pytest.mark.parametrize("shape,momentum,affine,track", BN_CASES)
def test_batch_norm_train_then_eval(shape, momentum, affine, track):
    nd, shp = shape

    def run(T):
        T.manual_seed(0)
        bn = getattr(T.nn, f"BatchNorm{nd}d")(shp[1], momentum=momentum, affine=affine, track_running_stats=track)
        out = []
        for step in range(3):
            x = (T.randn(*shp) * (step + 1) + step).requires_grad_()
            y = bn(x)
            (y * T.arange(y.numel()).reshape(y.shape).float()).sum().backward()
            out += [y, x.grad, names(y), [b for b in bn.buffers()]]
        out += [[p.grad for p in bn.parameters()], repr(bn), list(bn.state_dict())]
        bn.eval()
        x = T.randn(*shp, requires_grad=True)
        y = bn(x)
        y.pow(2).sum().backward()
        return out + [y, x.grad, names(y), [p.grad for p in bn.parameters()]]
    same(run, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("channels", [3, 7, 16])
def test_batch_norm_statistics_bits(dtype, channels):
    """The running statistics, output and gradients, bit for bit on float32 (N, C) input (torch's
    channels-last kernel, its fused multiply-adds and its threads' partial sums)."""
    inputs = [np.random.default_rng(n).normal(1.0, 3.0, (n, channels)) for n in (2, 3, 16, 33, 64)]

    def run(T):
        bn = T.nn.BatchNorm1d(channels, momentum=0.3).to(getattr(T, dtype))
        with T.no_grad():
            bn.weight.copy_(T.linspace(0.5, 2.0, channels))
            bn.bias.copy_(T.linspace(-1.0, 1.0, channels))
        outs = []
        for a in inputs:
            x = T.tensor(a, dtype=getattr(T, dtype), requires_grad=True)
            y = bn(x)
            (y * y).sum().backward()
            outs += [y, x.grad, bn.running_mean.clone(), bn.running_var.clone()]
        return outs + [bn.num_batches_tracked, bn.weight.grad, bn.bias.grad]
    if dtype == "float32":
        same(run, rtol=0, atol=0)
    else:
        same(run, rtol=1e-13, atol=1e-13)


def test_functional_batch_norm_errors():
    def case(fn):
        return lambda T: fn(T, T.nn.functional)
    x = lambda T: T.randn(4, 3)  # noqa: E731
    cases = [
        lambda T, F: F.batch_norm(x(T), T.zeros(3), T.ones(3), T.ones(4), training=True),
        lambda T, F: F.batch_norm(x(T), T.zeros(3), T.ones(3), None, T.ones(4), training=True),
        lambda T, F: F.batch_norm(x(T), T.zeros(4), T.ones(3), T.ones(4), training=True),
        lambda T, F: F.batch_norm(x(T), None, None, training=False),
        lambda T, F: F.batch_norm(x(T), T.zeros(3), None, training=False),
        lambda T, F: F.batch_norm(x(T), None, None, training=True),
        lambda T, F: F.batch_norm(x(T), T.zeros(3), T.ones(3), training=True, eps=0),
        lambda T, F: F.batch_norm(x(T), T.zeros(3), T.ones(3), training=False, eps=-1.0),
        lambda T, F: F.batch_norm(T.randn(1, 3), T.zeros(3), T.ones(3), training=True),
        lambda T, F: F.batch_norm(T.randn(1, 3), T.zeros(3), T.ones(3), training=False),
        lambda T, F: F.batch_norm(x(T), T.zeros(3).double(), T.ones(3), training=True),
        lambda T, F: F.batch_norm(x(T).double(), T.zeros(3), T.ones(3), training=True),
        lambda T, F: F.batch_norm(x(T).long(), T.zeros(3), T.ones(3), training=True),
        lambda T, F: T.nn.BatchNorm1d(3)(T.randn(3)),
        lambda T, F: T.nn.BatchNorm2d(3)(T.randn(2, 3, 4)),
        lambda T, F: T.nn.BatchNorm2d(3)(T.randn(2, 4, 2, 2)),
        lambda T, F: T.nn.BatchNorm1d(3).eval()(T.randn(1, 3)),
    ]
    for fn in cases:
        same(case(fn))


# --- layer norm, group norm ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape,normalized,affine,bias", [
    ((4, 3), 3, True, True), ((2, 5, 4), (5, 4), True, False), ((3, 8), [8], False, True),
    ((2, 3, 2, 2), (2, 2), True, True), ((6,), 6, True, True)])
def test_layer_norm(shape, normalized, affine, bias):
    def run(T):
        T.manual_seed(0)
        ln = T.nn.LayerNorm(normalized, elementwise_affine=affine, bias=bias)
        if affine:
            with T.no_grad():
                ln.weight.uniform_(0.5, 1.5)
        x = (T.randn(*shape) * 4 + 2).requires_grad_()
        y = ln(x)
        (y * T.arange(y.numel()).reshape(y.shape).float()).sum().backward()
        return [y, x.grad, names(y), [p.grad for p in ln.parameters()], repr(ln), list(ln.state_dict())]
    same(run, rtol=1e-4, atol=1e-4)


def test_layer_norm_errors():
    x = lambda T: T.randn(4, 3)  # noqa: E731
    for fn in [
        lambda T: T.nn.LayerNorm(4)(x(T)),
        lambda T: T.nn.LayerNorm((2, 3))(x(T)),
        lambda T: T.nn.LayerNorm(3)(x(T).long()),
        lambda T: T.nn.LayerNorm(3)(x(T).double()),
        lambda T: T.nn.functional.layer_norm(x(T), (3,), T.ones(4)),
        lambda T: T.nn.functional.layer_norm(x(T), (3,), None, T.ones(4)),
        lambda T: T.nn.functional.layer_norm(x(T), (3,), T.ones(3).double()),
        lambda T: T.nn.functional.layer_norm(x(T), []),
        lambda T: T.nn.functional.layer_norm(x(T), 3),
    ]:
        same(fn)


@pytest.mark.parametrize("groups,channels,shape", [(2, 4, (2, 4, 3)), (1, 3, (3, 3)), (3, 6, (2, 6, 2, 2))])
def test_group_norm(groups, channels, shape):
    def run(T):
        gn = T.nn.GroupNorm(groups, channels)
        with T.no_grad():
            gn.weight.copy_(T.linspace(0.5, 1.5, channels))
        x = T.linspace(-3, 5, int(np.prod(shape))).reshape(shape).pow(2).requires_grad_()
        y = gn(x)
        (y * T.arange(y.numel()).reshape(y.shape).float()).sum().backward()
        return [y, x.grad, names(y), gn.weight.grad, gn.bias.grad, repr(gn)]
    same(run, rtol=1e-4, atol=1e-4)
    for fn in [lambda T: T.nn.GroupNorm(3, 4), lambda T: T.nn.GroupNorm(2, 4)(T.randn(2, 3, 5)),
               lambda T: T.nn.functional.group_norm(T.randn(1, 4), 4),
               lambda T: T.nn.functional.group_norm(T.randn(2, 4, 3), 2, T.ones(3))]:
        same(fn)


# --- embedding -------------------------------------------------------------------------------------
@pytest.mark.parametrize("padding_idx,max_norm,scale", [(None, None, False), (0, None, False), (-1, None, True),
                                                        (None, 1.0, False), (2, 1.5, True)])
def test_embedding(padding_idx, max_norm, scale):
    def run(T):
        T.manual_seed(0)
        emb = T.nn.Embedding(6, 3, padding_idx=padding_idx, max_norm=max_norm, scale_grad_by_freq=scale)
        initial = emb.weight.clone()
        idx = T.tensor([[0, 2, 2], [5, 4, 0]])
        y = emb(idx)
        (y * T.arange(y.numel()).reshape(y.shape).float()).sum().backward()
        return [initial, y, emb.weight, emb.weight.grad, names(y), repr(emb)]
    same(run)


def test_embedding_from_pretrained_and_errors():
    def run(T):
        pre = T.nn.Embedding.from_pretrained(T.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        open_ = T.nn.Embedding.from_pretrained(T.tensor([[1.0, 2.0], [3.0, 4.0]]), freeze=False, padding_idx=1)
        return [pre(T.tensor([2, 0])), pre.weight.requires_grad, repr(pre), open_(T.tensor(1)),
                open_.weight.requires_grad, repr(open_)]
    same(run)
    for fn in [lambda T: T.nn.Embedding(5, 2)(T.tensor([5])), lambda T: T.nn.Embedding(5, 2)(T.tensor([-1])),
               lambda T: T.nn.Embedding(5, 2)(T.tensor([1.0])), lambda T: T.nn.Embedding(5, 2)([1]),
               lambda T: T.nn.Embedding(5, 2)(T.tensor([1], dtype=T.int32)),
               lambda T: T.nn.Embedding(5, 2, padding_idx=5), lambda T: T.nn.Embedding(5, 2, padding_idx=-6),
               lambda T: T.nn.functional.embedding(T.tensor([1]), T.randn(5)),
               lambda T: T.nn.Embedding.from_pretrained(T.ones(3))]:
        same(fn)


def test_normalize():
    for fn in [lambda T: T.nn.functional.normalize(T.tensor([[3.0, 4.0], [0.0, 0.0]])),
               lambda T: T.nn.functional.normalize(T.tensor([3.0, 4.0]), dim=0),
               lambda T: T.nn.functional.normalize(T.tensor([[1.0, -2.0, 2.0]]), p=1, dim=1),
               lambda T: T.nn.functional.normalize(T.tensor([3.0, 4.0]))]:
        same(fn)

    def grad(T):
        x = T.tensor([[3.0, 4.0], [1.0, 2.0]], requires_grad=True)
        y = T.nn.functional.normalize(x, dim=1)
        y[:, 0].sum().backward()
        return [y, x.grad, names(y)]
    same(grad)


# --- recurrent layers ------------------------------------------------------------------------------
RNN_CASES = [
    ("RNN", dict()), ("RNN", dict(nonlinearity="relu", num_layers=2)), ("RNN", dict(bidirectional=True)),
    ("RNN", dict(batch_first=True, bias=False)), ("GRU", dict()), ("GRU", dict(num_layers=2, batch_first=True)),
    ("GRU", dict(bidirectional=True, num_layers=2)), ("LSTM", dict()), ("LSTM", dict(num_layers=2)),
    ("LSTM", dict(bidirectional=True, batch_first=True)), ("LSTM", dict(bias=False)),
    ("LSTM", dict(proj_size=2)),
]


@pytest.mark.parametrize("kind,options", RNN_CASES)
@pytest.mark.parametrize("batched,with_hx", [(True, False), (True, True), (False, False)])
def test_recurrent_layer(kind, options, batched, with_hx):
    def run(T):
        T.manual_seed(0)
        layer = getattr(T.nn, kind)(3, 4, **options)
        params = [(n, p.clone()) for n, p in layer.named_parameters()]
        batch_first = options.get("batch_first", False)
        shape = ((2, 5, 3) if batch_first else (5, 2, 3)) if batched else (5, 3)
        x = T.randn(*shape, requires_grad=True)
        args = [x]
        if with_hx:
            d = (2 if options.get("bidirectional") else 1) * options.get("num_layers", 1)
            h = T.randn(d, 2, options.get("proj_size") or 4, requires_grad=True)
            args.append((h, T.randn(d, 2, 4)) if kind == "LSTM" else h)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out, hidden = layer(*args)
        hs = list(hidden) if kind == "LSTM" else [hidden]
        loss = (out * T.arange(out.numel()).reshape(out.shape).float().cos()).sum() + sum(h.sum() for h in hs)
        loss.backward()
        graph = names(*hs) if kind == "LSTM" else names(out, *hs)     # (torch's LSTM output: oneDNN's node)
        return [params, repr(layer), out, hs, x.grad, [(n, p.grad) for n, p in layer.named_parameters()], graph]
    same(run, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("kind,options", [("RNNCell", {}), ("RNNCell", dict(nonlinearity="relu", bias=False)),
                                          ("LSTMCell", {}), ("GRUCell", {}), ("GRUCell", dict(bias=False))])
@pytest.mark.parametrize("batched", [True, False])
def test_cells(kind, options, batched):
    def run(T):
        T.manual_seed(0)
        cell = getattr(T.nn, kind)(3, 4, **options)
        x = T.randn(*((2, 3) if batched else (3,)), requires_grad=True)
        hidden = None
        outs = []
        for _ in range(3):
            hidden = cell(x, hidden)
            outs.append(hidden)
        hs = list(hidden) if kind == "LSTMCell" else [hidden]
        sum(h.sum() for h in hs).backward()
        return [repr(cell), outs, x.grad, [(n, p.grad) for n, p in cell.named_parameters()], names(*hs)]
    same(run, rtol=1e-4, atol=1e-5)


def test_recurrent_errors():
    for fn in [
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 2, 5)),
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 3, 3), T.randn(1, 2, 4)),
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 3, 3, 1)),
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 3, 3).double()),
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 3), T.randn(1, 2, 4)),
        lambda T: T.nn.RNN(3, 4)(T.randn(2, 3, 3), T.randn(2, 4)),
        lambda T: T.nn.RNN(3, 4)(T.randn(0, 3, 3)),
        lambda T: T.nn.GRU(3, 4)(T.randn(2, 3, 3, 1)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(2, 3, 3, 1)),
        lambda T: T.nn.LSTM(3, 4)(T.randn(2, 3, 3), (T.randn(1, 2, 4), T.randn(1, 3, 4))),
        lambda T: T.nn.LSTM(3, 4)(T.randn(2, 3, 3), (T.randn(1, 3, 4), T.randn(1, 2, 4))),
        lambda T: T.nn.LSTM(3, 4)(T.randn(2, 3), (T.randn(1, 3, 4), T.randn(1, 3, 4))),
        lambda T: T.nn.RNNCell(3, 4)(T.randn(2, 5)),
        lambda T: T.nn.RNNCell(3, 4)(T.randn(2, 3), T.randn(3, 4)),
        lambda T: T.nn.RNNCell(3, 4)(T.randn(2, 3), T.randn(2, 5)),
        lambda T: T.nn.RNNCell(3, 4)(T.randn(2, 3, 3)),
        lambda T: T.nn.LSTMCell(3, 4)(T.randn(2, 3), (T.randn(2, 4), T.randn(3, 4))),
        lambda T: T.nn.GRUCell(3, 4)(T.randn(2, 3), T.randn(2, 2, 4)),
        lambda T: T.nn.RNN(3, 4, nonlinearity="foo"),
        lambda T: T.nn.RNN(3, 4, dropout=2),
        lambda T: T.nn.RNN(3, 0),
        lambda T: T.nn.RNN(3, 4, num_layers=0),
        lambda T: T.nn.GRU(3, 4, proj_size=2),
        lambda T: T.nn.LSTM(3, 4, proj_size=4),
        lambda T: T.nn.RNN(3.0, 4),
    ]:
        same(fn)


def test_recurrent_dropout_between_layers():
    def run(T):
        T.manual_seed(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            layer = T.nn.GRU(3, 4, num_layers=3, dropout=0.5)
        x = T.randn(4, 2, 3)
        train = layer(x)
        layer.eval()
        return [train, layer(x), repr(layer), T.rand(2)]
    same(run, rtol=1e-4, atol=1e-5)
