"""Sample inputs of the norm ops (registered into op_samples.SAMPLES; see op_samples.py)."""
from op_samples import Case, sample, shape, uniform  # noqa: F401
from hypothesis import strategies as st  # noqa: E402

from op_samples import F, const, pick, rng  # noqa: E402


def _channels(draw):
    """An (N, C, ...) shape with more than one value per channel."""
    n, c = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    return (n, c) + draw(st.sampled_from([(), (3,), (2, 2)]))


@sample("native_batch_norm")
def _batch_norm(draw):
    shp = _channels(draw)
    c = shp[1]
    rm, rv = rng(draw).uniform(-0.5, 0.5, c), rng(draw).uniform(0.5, 2.0, c)
    fn = pick(draw, [
        lambda T, x, w, b: F(T).batch_norm(x, None, None, w, b, training=True),
        lambda T, x, w, b: F(T).batch_norm(x, const(T, rm, x), const(T, rv, x), w, b, training=True, momentum=0.3),
        lambda T, x, w, b: F(T).batch_norm(x, const(T, rm, x), const(T, rv, x), w, b, training=False),
        lambda T, x, w, b: F(T).batch_norm(x * w.sum(), None, None, training=True) + b.sum(),
    ])
    return Case(fn, [uniform(draw, shp), uniform(draw, (c,), 0.5, 2.0), uniform(draw, (c,))])


@sample("native_batch_norm_backward", graph_names=False)
def _batch_norm_backward(draw):
    # batch norm's gradient as an op of its own (create_graph: NativeBatchNormBackwardBackward0), with the
    # incoming gradient requiring grad too, so that every input slot of the backward op is differentiated
    shp = _channels(draw)
    c = shp[1]
    rm, rv = rng(draw).uniform(-0.5, 0.5, c), rng(draw).uniform(0.5, 2.0, c)
    training = draw(st.booleans())
    affine = draw(st.sampled_from(["weight and bias", "weight", "none"]))

    def fn(T, x, w, b, g):
        # (in float64: this op's values are batch norm's first-order gradients, compared in float32 by
        # native_batch_norm's sample at a gradient's tolerance)
        x, w, b, g = x.double(), w.double(), b.double(), g.double()
        weight = w if affine != "none" else None
        bias = b if affine == "weight and bias" else None
        y = F(T).batch_norm(x, const(T, rm, x), const(T, rv, x), weight, bias, training=training)
        wrt = [x] + [t for t in (weight, bias) if t is not None]
        return T.autograd.grad(y, wrt, g, create_graph=True)
    return Case(fn, [uniform(draw, shp), uniform(draw, (c,), 0.5, 2.0), uniform(draw, (c,)), uniform(draw, shp)])


@sample("native_layer_norm")
def _layer_norm(draw):
    lead = draw(st.sampled_from([(), (2,), (3, 2)]))
    norm = draw(st.sampled_from([(3,), (2, 3), (4,)]))
    fn = pick(draw, [
        lambda T, x, w, b: F(T).layer_norm(x, norm, w, b),
        lambda T, x, w, b: F(T).layer_norm(x, norm, w, None) + b.sum(),
        lambda T, x, w, b: F(T).layer_norm(x, norm, eps=1e-3) * w + b,
    ])
    return Case(fn, [uniform(draw, lead + norm), uniform(draw, norm, 0.5, 2.0), uniform(draw, norm)])


@sample("native_layer_norm_backward", graph_names=False)
def _layer_norm_backward(draw):
    # layer norm's gradient as an op of its own (create_graph: NativeLayerNormBackwardBackward0), with the
    # incoming gradient requiring grad too, so that every input slot of the backward op is differentiated
    lead = draw(st.sampled_from([(), (2,), (3, 2)]))
    norm = draw(st.sampled_from([(3,), (2, 3), (4,)]))
    affine = draw(st.sampled_from(["weight and bias", "weight", "none"]))

    def fn(T, x, w, b, g):
        # (in float64: this op's values are layer norm's first-order gradients, whose float32 last bits are
        # native_layer_norm's matter, compared there at a gradient's tolerance)
        x, w, b, g = x.double(), w.double(), b.double(), g.double()
        weight = w if affine != "none" else None
        bias = b if affine == "weight and bias" else None
        y = F(T).layer_norm(x, norm, weight, bias)
        wrt = [x] + [t for t in (weight, bias) if t is not None]
        return T.autograd.grad(y, wrt, g, create_graph=True)
    shp = lead + norm
    return Case(fn, [uniform(draw, shp), uniform(draw, norm, 0.5, 2.0), uniform(draw, norm), uniform(draw, shp)])


@sample("native_group_norm")
def _group_norm(draw):
    n, groups, per = draw(st.integers(1, 3)), draw(st.integers(1, 2)), draw(st.integers(1, 2))
    c = groups * per
    shp = (n, c) + draw(st.sampled_from([(3,), (2, 2)]))
    fn = pick(draw, [
        lambda T, x, w, b: F(T).group_norm(x, groups, w, b),
        lambda T, x, w, b: F(T).group_norm(x, groups) * w.sum() + b.sum(),
    ])
    return Case(fn, [uniform(draw, shp), uniform(draw, (c,), 0.5, 2.0), uniform(draw, (c,))])


@sample("embedding")
def _embedding(draw):
    rows, dim = draw(st.integers(2, 5)), draw(st.integers(1, 3))
    pad = draw(st.sampled_from([None, 0, -1]))
    # (the padding row is never picked: its zero gradient is no derivative; tests/nn/test_norm_rnn.py has it)
    low, high = (1, rows) if pad == 0 else (0, rows - 1) if pad == -1 else (0, rows)
    idx = rng(draw).integers(low, high, draw(st.sampled_from([(3,), (2, 3), ()])))
    fn = pick(draw, [
        lambda T, w: F(T).embedding(T.tensor(idx), w),
        lambda T, w: F(T).embedding(T.tensor(idx), w, padding_idx=pad),
    ])     # (scale_grad_by_freq's gradient is no derivative: tests/nn/test_norm_rnn.py compares it)
    return Case(fn, [uniform(draw, (rows, dim))])


@sample("embedding_dense_backward", graph_names=False)
def _embedding_dense_backward(draw):
    rows, dim = draw(st.integers(2, 4)), draw(st.integers(1, 3))
    pad = draw(st.sampled_from([None, 1]))
    idx = rng(draw).integers(0, rows, (4,))

    def fn(T, w, g):
        y = F(T).embedding(T.tensor(idx), w, padding_idx=pad)
        return T.autograd.grad(y, w, g, create_graph=True)[0]
    return Case(fn, [uniform(draw, (rows, dim)), uniform(draw, (4, dim))])


@sample("unsafe_split")
def _unsafe_split(draw):
    # torch's RNN cells split their gates with unsafe_chunk (UnsafeSplitBackward0)
    kind = draw(st.sampled_from(["GRUCell", "LSTMCell"]))
    batch = draw(st.integers(1, 3))

    def fn(T, x, h):
        T.manual_seed(0)
        cell = getattr(T.nn, kind)(3, 2).to(x.dtype)
        out = cell(x, h if kind == "GRUCell" else (h, h * 2))
        return out if kind == "GRUCell" else out[0] + out[1]
    return Case(fn, [uniform(draw, (batch, 3)), uniform(draw, (batch, 2))])
