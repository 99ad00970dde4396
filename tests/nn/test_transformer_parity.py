"""nn.MultiheadAttention, F.multi_head_attention_forward and the Transformer modules against live PyTorch.

Each case is a function of the library (`lib` is torch or gradlab) run under both with the same seed: the
module is built after lib.manual_seed (so its parameters must be torch's, bit for bit), then called on the
same generated inputs. The outcomes must agree: printed module, state_dict keys, parameters, outputs
(within float rounding), grad_fn names, gradients, warnings, or the exception's type and message."""
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _normal(value):
    """A library's result as plain Python: tensors as (dtype, shape, float64 values, grad_fn name)."""
    if isinstance(value, (torch.Tensor, gradlab.Tensor)):
        grad_fn = type(value.grad_fn).__name__ if value.grad_fn is not None else None
        return ("Tensor", str(value.dtype).split(".")[-1], tuple(value.shape),
                value.detach().numpy().astype(np.float64), grad_fn, value.requires_grad)
    if isinstance(value, (tuple, list)):
        return type(value).__name__, [_normal(v) for v in value]
    if isinstance(value, dict):
        return {k: _normal(v) for k, v in value.items()}
    if isinstance(value, (torch.nn.Module, gradlab.nn.Module)):
        return _normal(_describe(value))
    return value


def outcome(lib, case, seed):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = ("ok", _normal(case(lib, np.random.default_rng(seed))))
        except Exception as e:       # (compared with torch's: type and message)
            result = ("error", type(e).__name__, str(e))
    return result, sorted({(w.category.__name__, str(w.message)) for w in caught})


def _close(mine, theirs, where, exact=False):
    if isinstance(theirs, tuple) and theirs and theirs[0] == "Tensor":
        assert isinstance(mine, tuple) and mine[0] == "Tensor", where
        assert mine[1:3] == theirs[1:3] and mine[4:] == theirs[4:], (where, mine[1:3], theirs[1:3], mine[4:],
                                                                   theirs[4:])
        a, b = mine[3], theirs[3]
        if exact:
            assert np.array_equal(a, b, equal_nan=True), where
        else:
            tol = 1e-4 if theirs[1] in ("float32", "float16") else 1e-10
            assert np.allclose(a, b, rtol=tol, atol=tol, equal_nan=True), (where, np.abs(a - b).max())
        return
    if isinstance(theirs, (tuple, list)):
        assert isinstance(mine, (tuple, list)) and len(mine) == len(theirs), (where, mine, theirs)
        for i, (m, t) in enumerate(zip(mine, theirs)):
            _close(m, t, f"{where}[{i}]", exact)
        return
    if isinstance(theirs, dict):
        assert isinstance(mine, dict) and list(mine) == list(theirs), (where, mine, theirs)
        for k in theirs:
            _close(mine[k], theirs[k], f"{where}.{k}", exact or k == "params")
        return
    assert mine == theirs, (where, mine, theirs)


def compare(case, seed):
    mine, theirs = outcome(gradlab, case, seed), outcome(torch, case, seed)
    _close(mine, theirs, f"seed {seed}")


def _module(lib, cls, *args, **kwargs):
    lib.manual_seed(0)
    return getattr(lib.nn, cls)(*args, **kwargs)


def _describe(m):
    """What a module shows: its text, state_dict keys, parameters (bit for bit)."""
    return {"repr": repr(m), "keys": list(m.state_dict()), "params": [p for _, p in m.named_parameters()]}


def _tensor(lib, rng, shape, dtype="float32", grad=True):
    return lib.tensor(rng.standard_normal(shape).astype(dtype), requires_grad=grad)


def _grads(output, leaves):
    """Gradients of a weighted sum of the output (one backward)."""
    output = output[0] if isinstance(output, tuple) else output
    weights = type(output)(np.cos(np.arange(output.numel())).reshape(tuple(output.shape)).astype(
        str(output.dtype).split(".")[-1]))
    (output * weights).sum().backward()
    return [leaf.grad for leaf in leaves]


def _mask(lib, rng, kind, shape, dtype="float32"):
    if kind is None:
        return None
    keep = rng.random(shape) < 0.7
    keep[..., 0] = True         # (no row wholly masked: PyTorch's softmax would give nan)
    if kind == "bool":
        return lib.tensor(~keep)
    return lib.tensor(np.where(keep, 0.0, -1e9 if kind == "float" else float("-inf")).astype(dtype))


# --- nn.MultiheadAttention ---------------------------------------------------------------------------------

def _mha_options(rng):
    heads = int(rng.choice([1, 2, 3]))
    return dict(embed_dim=heads * int(rng.integers(1, 4)), num_heads=heads, bias=bool(rng.random() < 0.7),
                add_bias_kv=bool(rng.random() < 0.3), add_zero_attn=bool(rng.random() < 0.3),
                kdim=None if rng.random() < 0.6 else int(rng.integers(1, 5)),
                vdim=None if rng.random() < 0.6 else int(rng.integers(1, 5)), batch_first=bool(rng.random() < 0.5),
                dtype=str(rng.choice(["float32", "float64"])))


@pytest.mark.parametrize("seed", range(40))
def test_multihead_attention(seed):
    def case(lib, rng):
        o = _mha_options(rng)
        dtype = o.pop("dtype")
        m = _module(lib, "MultiheadAttention", **o, dtype=getattr(lib, dtype))
        L, S, N, E = (int(v) for v in rng.integers(1, 5, 4))
        batched = rng.random() < 0.75
        shape = (lambda n, d: ((N, n, d) if o["batch_first"] else (n, N, d)) if batched else (n, d))
        query = _tensor(lib, rng, shape(L, o["embed_dim"]), dtype)
        same_kv = o["kdim"] is None and o["vdim"] is None
        if same_kv and rng.random() < 0.4:
            key = value = query                                     # self-attention
        else:
            key = _tensor(lib, rng, shape(S, o["kdim"] or o["embed_dim"]), dtype)
            value = key if o["kdim"] == o["vdim"] and rng.random() < 0.5 else \
                _tensor(lib, rng, shape(S, o["vdim"] or o["embed_dim"]), dtype)
        S = key.shape[-2] if o["batch_first"] and batched else key.shape[0]
        kinds = [None, "bool", "float", "inf"]
        attn_kind, pad_kind = kinds[int(rng.integers(4))], kinds[int(rng.integers(4))]
        attn_mask = _mask(lib, rng, attn_kind, (L, S) if rng.random() < 0.6 else
                          ((N if batched else 1) * o["num_heads"], L, S), dtype)
        key_padding_mask = _mask(lib, rng, pad_kind, (N, S) if batched else (S,), dtype)
        need_weights, average = bool(rng.random() < 0.5), bool(rng.random() < 0.5)
        is_causal = attn_mask is not None and rng.random() < 0.2
        if rng.random() < 0.3:
            m.eval()
        out = m(query, key, value, key_padding_mask=key_padding_mask, need_weights=need_weights,
                attn_mask=attn_mask, average_attn_weights=average, is_causal=is_causal)
        leaves = [t for t in {id(t): t for t in (query, key, value)}.values()] + list(m.parameters())
        return {"module": _describe(m), "out": out, "grads": _grads(out, leaves)}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(10))
def test_multihead_attention_dropout(seed):
    """Dropout on the attention weights in training: the same random stream as torch's."""
    def case(lib, rng):
        m = _module(lib, "MultiheadAttention", 4, 2, dropout=float(rng.choice([0.1, 0.5])))
        x = _tensor(lib, rng, (3, 2, 4))
        lib.manual_seed(seed)
        out = m(x, x, x, need_weights=bool(rng.random() < 0.5))
        return {"out": out, "grads": _grads(out, [x])}
    compare(case, seed)


_MHA_ERRORS = [
    lambda lib: lib.nn.MultiheadAttention(0, 2),
    lambda lib: lib.nn.MultiheadAttention(5, 2),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 4), lib.randn(3, 4)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(1, 3, 2, 4), lib.randn(3, 2, 4),
                                                          lib.randn(3, 2, 4)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 5), lib.randn(3, 2, 5), lib.randn(3, 2, 5)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(4, 2, 4)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          attn_mask=lib.ones(3, 4, dtype=lib.bool)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          attn_mask=lib.zeros(2, 3, 3)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          attn_mask=lib.zeros(3, 3, dtype=lib.int64)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          key_padding_mask=lib.zeros(2, 3, dtype=lib.int64)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          key_padding_mask=lib.zeros(3, 3, dtype=lib.bool)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          key_padding_mask=lib.zeros(2, 3, 1, dtype=lib.bool)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 2, 4), lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                          is_causal=True),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 4), lib.randn(3, 4), lib.randn(3, 4),
                                                          attn_mask=lib.zeros(3, 3, 3)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.randn(3, 4), lib.randn(3, 4), lib.randn(3, 4),
                                                          attn_mask=lib.zeros(3)),
    # a bool padding mask with a float attention mask: PyTorch's deprecation warning, then the result
    lambda lib: _module(lib, "MultiheadAttention", 4, 2)(lib.ones(3, 2, 4), lib.ones(3, 2, 4), lib.ones(3, 2, 4),
                                                          attn_mask=lib.zeros(3, 3),
                                                          key_padding_mask=lib.zeros(2, 3, dtype=lib.bool)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2, kdim=3)(lib.randn(3, 2, 4), lib.randn(3, 2, 4),
                                                                  lib.randn(3, 2, 4)),
    lambda lib: _module(lib, "MultiheadAttention", 4, 2, kdim=3, vdim=2)(lib.randn(3, 2, 4), lib.randn(3, 2, 3),
                                                                          lib.randn(4, 2, 2)),
]


@pytest.mark.parametrize("index", range(len(_MHA_ERRORS)))
def test_multihead_attention_errors(index):
    compare(lambda lib, rng: _MHA_ERRORS[index](lib), index)


@pytest.mark.parametrize("seed", range(15))
def test_multi_head_attention_forward(seed):
    """The function itself: separate projection weights, static keys and values, bias_k/bias_v."""
    def case(lib, rng):
        E, H, L, S, N = 4, 2, int(rng.integers(1, 4)), int(rng.integers(1, 4)), int(rng.integers(1, 3))
        q, k, v = (_tensor(lib, rng, shape) for shape in ((L, N, E), (S, N, E), (S, N, E)))
        w_in, b_in, w_out, b_out = (_tensor(lib, rng, s) for s in ((3 * E, E), (3 * E,), (E, E), (E,)))
        kwargs = {}
        separate = rng.random() < 0.5
        if separate:
            kwargs.update(use_separate_proj_weight=True, q_proj_weight=_tensor(lib, rng, (E, E)),
                          k_proj_weight=_tensor(lib, rng, (E, E)), v_proj_weight=_tensor(lib, rng, (E, E)))
        bias_k = bias_v = None
        if rng.random() < 0.3:
            bias_k, bias_v = _tensor(lib, rng, (1, 1, E)), _tensor(lib, rng, (1, 1, E))
        elif rng.random() < 0.3:
            kwargs.update(static_k=_tensor(lib, rng, (N * H, int(rng.integers(1, 4)), E // H)))
            kwargs.update(static_v=_tensor(lib, rng, (N * H, kwargs["static_k"].shape[1], E // H)))
        out = lib.nn.functional.multi_head_attention_forward(
            q, k, v, E, H, None if separate and rng.random() < 0.5 else w_in, b_in, bias_k, bias_v,
            bool(rng.random() < 0.3), 0.0, w_out, b_out, training=bool(rng.random() < 0.5),
            need_weights=bool(rng.random() < 0.5), average_attn_weights=bool(rng.random() < 0.5), **kwargs)
        return {"out": out, "grads": _grads(out, [q, k, v, w_in, b_in, w_out])}
    compare(case, seed)


# --- the Transformer modules -------------------------------------------------------------------------------

def _layer_options(lib, rng):
    heads = int(rng.choice([1, 2]))
    activation = [None, "relu", "gelu", lib.nn.functional.gelu, lib.nn.GELU(), lib.nn.Tanh(),
                  lib.tanh][int(rng.integers(7))]
    options = dict(d_model=2 * heads * int(rng.integers(1, 3)), nhead=heads, dim_feedforward=int(rng.integers(1, 9)),
                   dropout=0.0, layer_norm_eps=float(rng.choice([1e-5, 1e-3])), batch_first=bool(rng.random() < 0.5),
                   norm_first=bool(rng.random() < 0.5), bias=bool(rng.random() < 0.7))
    if activation is not None:
        options["activation"] = activation
    return options


def _src(lib, rng, options, length, N, batched=True):
    shape = ((N, length) if options["batch_first"] else (length, N)) if batched else (length,)
    return _tensor(lib, rng, shape + (options["d_model"],))


@pytest.mark.parametrize("seed", range(25))
def test_transformer_encoder_layer(seed):
    def case(lib, rng):
        o = _layer_options(lib, rng)
        m = _module(lib, "TransformerEncoderLayer", **o)
        L, N = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        batched = rng.random() < 0.8
        src = _src(lib, rng, o, L, N, batched)
        mask = (lib.nn.Transformer.generate_square_subsequent_mask(L) if rng.random() < 0.5 else
                _mask(lib, rng, "bool", (L, L))) if rng.random() < 0.5 else None
        pad = _mask(lib, rng, ["bool", "inf"][int(rng.integers(2))], (N, L) if batched else (L,)) \
            if rng.random() < 0.4 else None
        out = m(src, src_mask=mask, src_key_padding_mask=pad, is_causal=bool(mask is not None and rng.random() < .3))
        return {"module": _describe(m), "out": out, "grads": _grads(out, [src] + list(m.parameters()))}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(20))
def test_transformer_decoder_layer(seed):
    def case(lib, rng):
        o = _layer_options(lib, rng)
        m = _module(lib, "TransformerDecoderLayer", **o)
        T, S, N = int(rng.integers(1, 5)), int(rng.integers(1, 5)), int(rng.integers(1, 4))
        tgt, memory = _src(lib, rng, o, T, N), _src(lib, rng, o, S, N)
        tgt_mask = lib.nn.Transformer.generate_square_subsequent_mask(T) if rng.random() < 0.5 else None
        memory_pad = _mask(lib, rng, "bool", (N, S)) if rng.random() < 0.4 else None
        out = m(tgt, memory, tgt_mask=tgt_mask, memory_key_padding_mask=memory_pad,
                tgt_is_causal=bool(tgt_mask is not None and rng.random() < 0.5))
        return {"module": _describe(m), "out": out, "grads": _grads(out, [tgt, memory] + list(m.parameters()))}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(20))
def test_transformer_encoder(seed):
    """Clones of one layer, the final norm, the nested-tensor warning, and PyTorch's inference path (zeros
    at the padded positions)."""
    def case(lib, rng):
        o = _layer_options(lib, rng)
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(**o)
        norm = lib.nn.LayerNorm(o["d_model"]) if rng.random() < 0.5 else None
        m = lib.nn.TransformerEncoder(layer, int(rng.integers(1, 4)), norm,
                                      enable_nested_tensor=bool(rng.random() < 0.7))
        L, N = int(rng.integers(1, 5)), int(rng.integers(1, 4))
        src = _src(lib, rng, o, L, N)
        lengths = rng.integers(1, L + 1, N)
        pad = lib.tensor(np.arange(L)[None, :] >= lengths[:, None]) if rng.random() < 0.6 else None
        mask = lib.nn.Transformer.generate_square_subsequent_mask(L) if rng.random() < 0.3 else None
        if rng.random() < 0.5:
            m.eval()
            with lib.no_grad():
                return {"module": _describe(m), "out": m(src, mask=mask, src_key_padding_mask=pad)}
        out = m(src, mask=mask, src_key_padding_mask=pad)
        return {"module": _describe(m), "out": out, "grads": _grads(out, [src] + list(m.parameters()))}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(12))
def test_transformer(seed):
    def case(lib, rng):
        o = _layer_options(lib, rng)
        m = _module(lib, "Transformer", o.pop("d_model"), o.pop("nhead"), int(rng.integers(1, 3)),
                    int(rng.integers(1, 3)), **o)
        o["d_model"] = m.d_model
        S, T, N = int(rng.integers(1, 5)), int(rng.integers(1, 5)), int(rng.integers(1, 3))
        src, tgt = _src(lib, rng, o, S, N), _src(lib, rng, o, T, N)
        out = m(src, tgt, tgt_mask=m.generate_square_subsequent_mask(T))
        return {"module": _describe(m), "out": out, "grads": _grads(out, [src, tgt] + list(m.parameters()))}
    compare(case, seed)


def test_transformer_defaults_and_dropout():
    """The default sizes (512, 8 heads, 6 + 6 layers, 2048) and dropout 0.1 in training."""
    def case(lib, rng):
        m = _module(lib, "Transformer", num_encoder_layers=1, num_decoder_layers=1)
        src, tgt = _tensor(lib, rng, (3, 2, 512)), _tensor(lib, rng, (2, 2, 512))
        lib.manual_seed(1)
        out = m(src, tgt)
        return {"module": _describe(m), "out": out, "grads": _grads(out, [src, tgt])}
    compare(case, 0)


_TRANSFORMER_ERRORS = [
    lambda lib: lib.nn.TransformerEncoderLayer(4, 2, activation="tanh"),
    lambda lib: lib.nn.TransformerDecoderLayer(4, 2, activation="swish"),
    lambda lib: lib.nn.TransformerEncoderLayer(5, 2),
    lambda lib: _module(lib, "Transformer", 4, 2, 1, 1, 8)(lib.randn(3, 2, 4), lib.randn(3, 3, 4)),
    lambda lib: _module(lib, "Transformer", 4, 2, 1, 1, 8, batch_first=True)(lib.randn(2, 3, 4), lib.randn(3, 3, 4)),
    lambda lib: _module(lib, "Transformer", 4, 2, 1, 1, 8)(lib.randn(3, 2, 4), lib.randn(3, 2, 5)),
    lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 1, 8, batch_first=True), 2),
    lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, norm_first=True),
                                          2),
    lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True,
                                                                         activation=lib.tanh), 2),
    lambda lib: lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 2, 8, batch_first=True, bias=False), 1),
    lambda lib: lib.nn.TransformerEncoder(lib.nn.Linear(4, 4), 1),
    lambda lib: lib.nn.Transformer.generate_square_subsequent_mask(3, dtype=lib.float64),
    lambda lib: lib.nn.Transformer.generate_square_subsequent_mask(0),
    lambda lib: _module(lib, "TransformerEncoderLayer", 4, 2, 8)(lib.randn(3, 2, 4),
                                                                 src_mask=lib.zeros(3, 3, dtype=lib.int64)),
    lambda lib: _module(lib, "TransformerEncoderLayer", 4, 2, 8)(lib.randn(3, 2, 4), src_mask=lib.zeros(3, 3),
                                                                 src_key_padding_mask=lib.zeros(2, 3,
                                                                                                dtype=lib.bool)),
]


@pytest.mark.parametrize("index", range(len(_TRANSFORMER_ERRORS)))
def test_transformer_errors_and_warnings(index):
    compare(lambda lib, rng: _TRANSFORMER_ERRORS[index](lib), index)


@pytest.mark.parametrize("seed", range(10))
def test_transformer_encoder_inference_path(seed):
    """Eval mode without gradients, batch_first, an even number of heads, relu/gelu: PyTorch runs the layers
    on a nested tensor of the real tokens, so padded positions come out as zeros (then the final norm)."""
    def case(lib, rng):
        lib.manual_seed(0)
        layer = lib.nn.TransformerEncoderLayer(4, 2, 8, 0.1, ["relu", "gelu"][seed % 2], batch_first=True)
        m = lib.nn.TransformerEncoder(layer, 2, lib.nn.LayerNorm(4) if seed % 3 else None,
                                      mask_check=bool(seed % 4))
        m.eval()
        L, N = int(rng.integers(2, 5)), int(rng.integers(1, 4))
        src = _tensor(lib, rng, (N, L, 4), grad=False)
        lengths = rng.integers(1, L + 1, N)
        padded = np.arange(L)[None, :] >= lengths[:, None]
        if seed % 5 == 0:
            padded[0] = ~padded[0]       # (not left-aligned: PyTorch's mask check refuses the nested path)
        with lib.no_grad():
            return m(src, src_key_padding_mask=lib.tensor(padded))
    compare(case, seed)


# --- torch.lstm, torch.gru, torch.rnn_tanh, torch.rnn_relu and the cells (the modules' C functions) ---------
_RNN_MODULES = {"lstm": "LSTM", "gru": "GRU", "rnn_tanh": "RNN", "rnn_relu": "RNN"}


@pytest.mark.parametrize("seed", range(30))
def test_rnn_functions(seed):
    """Padded and packed forms, layers, directions, biases, batch_first, dropout between layers."""
    def case(lib, rng):
        fn = list(_RNN_MODULES)[seed % 4]
        # (float32 LSTMs run through oneDNN in PyTorch: MkldnnRnnLayerBackward0, not written here)
        dtype = "float64" if fn == "lstm" or rng.random() < 0.5 else "float32"
        layers, bidirectional, bias = int(rng.integers(1, 3)), bool(rng.random() < 0.5), bool(rng.random() < 0.7)
        kwargs = {"nonlinearity": "relu"} if fn == "rnn_relu" else {}
        m = _module(lib, _RNN_MODULES[fn], 3, 4, layers, bias=bias, bidirectional=bidirectional,
                    dtype=getattr(lib, dtype), **kwargs)
        d = 2 if bidirectional else 1
        N = int(rng.integers(1, 4))
        h0 = _tensor(lib, rng, (layers * d, N, 4), dtype)
        hx = [h0, h0 * 0.5] if fn == "lstm" else h0
        dropout, train = float(rng.choice([0.0, 0.3])), bool(rng.random() < 0.5)
        lib.manual_seed(seed)
        if rng.random() < 0.5:
            lengths = sorted(rng.integers(1, 5, N), reverse=True)
            batch_sizes = [sum(1 for n in lengths if n > t) for t in range(lengths[0])]
            x = _tensor(lib, rng, (sum(batch_sizes), 3), dtype)
            out = getattr(lib, fn)(x, lib.tensor(batch_sizes), hx, m._flat_weights, bias, layers, dropout, train,
                                   bidirectional)
        else:
            batch_first = bool(rng.random() < 0.5)
            T = int(rng.integers(1, 5))
            x = _tensor(lib, rng, (N, T, 3) if batch_first else (T, N, 3), dtype)
            out = getattr(lib, fn)(x, hx, m._flat_weights, bias, layers, dropout, train, bidirectional, batch_first)
        return {"out": out, "grads": _grads(out[0] * 1 + out[1].sum(), [x, h0] + list(m.parameters()))}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(16))
def test_rnn_cells(seed):
    def case(lib, rng):
        fn = ["lstm_cell", "gru_cell", "rnn_tanh_cell", "rnn_relu_cell"][seed % 4]
        chunks = {"lstm_cell": 4, "gru_cell": 3}.get(fn, 1)
        dtype = str(rng.choice(["float32", "float64"]))
        N, I, H = (int(v) for v in rng.integers(1, 5, 3))
        x, h = _tensor(lib, rng, (N, I), dtype), _tensor(lib, rng, (N, H), dtype)
        w_ih, w_hh = _tensor(lib, rng, (chunks * H, I), dtype), _tensor(lib, rng, (chunks * H, H), dtype)
        biases = [_tensor(lib, rng, (chunks * H,), dtype) for _ in range(int(rng.integers(0, 3)))]
        hx = (h, h * 2) if fn == "lstm_cell" else h
        out = getattr(lib, fn)(x, hx, w_ih, w_hh, *biases)
        first = out[0] + out[1] if fn == "lstm_cell" else out
        return {"out": out, "grads": _grads(first, [x, h, w_ih, w_hh] + biases)}
    compare(case, seed)


_RNN_ERRORS = [
    lambda lib: lib.lstm_cell(lib.randn(2, 3), lib.zeros(2, 4), lib.randn(16, 3), lib.randn(16, 4)),
    lambda lib: lib.lstm_cell(lib.randn(2, 3), (lib.zeros(2, 4),) * 3, lib.randn(16, 3), lib.randn(16, 4)),
    lambda lib: lib.lstm_cell(lib.randn(2, 3), (lib.zeros(2, 4),) * 2, lib.randn(12, 3), lib.randn(16, 4)),
    lambda lib: lib.gru_cell(lib.randn(2, 3), lib.zeros(3, 4), lib.randn(12, 3), lib.randn(12, 4)),
    lambda lib: lib.gru_cell(lib.randn(2, 3), lib.zeros(2, 4), lib.randn(12, 2), lib.randn(12, 4)),
    lambda lib: lib.rnn_tanh_cell(lib.randn(2, 3), lib.zeros(2, 5), lib.randn(4, 3), lib.randn(4, 4)),
    lambda lib: lib.rnn_relu_cell(lib.randn(2, 3), lib.zeros(2, 4), lib.randn(16, 3), lib.randn(4, 4)),
    lambda lib: lib.rnn_tanh(lib.randn(3, 2, 3), lib.zeros(2, 2, 4), _module(lib, "RNN", 3, 4)._flat_weights,
                             True, 1, 0.0, True, False, False),
    lambda lib: lib.rnn_tanh(lib.randn(3, 2, 3), lib.zeros(1, 2, 4), _module(lib, "RNN", 3, 4)._flat_weights[:3],
                             True, 1, 0.0, True, False, False),
    lambda lib: lib.gru(lib.randn(3, 2, 3), lib.zeros(2, 2, 4), _module(lib, "GRU", 3, 4)._flat_weights,
                        True, 2, 0.0, True, False, False),
    lambda lib: lib.gru(lib.randn(0, 2, 3), lib.zeros(1, 2, 4), _module(lib, "GRU", 3, 4)._flat_weights,
                        True, 1, 0.0, True, False, False),
    lambda lib: lib.lstm(lib.randn(3, 2, 3).double(), [lib.zeros(1, 2, 4).double()],
                         _module(lib, "LSTM", 3, 4).double()._flat_weights, True, 1, 0.0, True, False, False),
    lambda lib: lib.rnn_relu(lib.randn(3, 2, 3), 3, _module(lib, "RNN", 3, 4)._flat_weights, True, 1, 0.0, True,
                             False, False),
    lambda lib: lib.gru(lib.randn(3, 2, 3), lib.zeros(1, 2, 4), _module(lib, "LSTM", 3, 4)._flat_weights,
                        True, 1, 0.0, True, False, False),
]


@pytest.mark.parametrize("index", range(len(_RNN_ERRORS)))
def test_rnn_function_errors(index):
    compare(lambda lib, rng: _RNN_ERRORS[index](lib), index)


# --- the CTC loss ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(40))
def test_ctc_loss(seed):
    """F.ctc_loss, nn.CTCLoss and torch.ctc_loss: padded and concatenated targets, repeated labels (which need
    a blank between them), impossible alignments (inf, or 0 with zero_infinity), lengths as lists or tensors."""
    def case(lib, rng):
        T, N, C = int(rng.integers(1, 8)), int(rng.integers(1, 4)), int(rng.integers(2, 6))
        dtype = str(rng.choice(["float32", "float64"]))
        batched = rng.random() < 0.8
        if not batched:
            N = 1
        blank = int(rng.integers(C))
        logits = _tensor(lib, rng, (T, N, C) if batched else (T, C), dtype)
        log_probs = logits.log_softmax(-1)
        input_lengths = [int(v) for v in rng.integers(0 if rng.random() < 0.2 else 1, T + 1, N)]
        target_lengths = [int(v) for v in rng.integers(0, T + 1, N)]
        labels = [l for l in range(C) if l != blank]
        repeats = rng.random() < 0.4          # (few labels: repeats are likely)
        draw = lambda n: [int(v) for v in rng.choice(labels[:1] if repeats else labels, n)]
        if rng.random() < 0.5:
            width = max(target_lengths) + int(rng.integers(0, 2))
            targets = lib.tensor([draw(width) for _ in range(N)] if batched else draw(width))
        else:
            targets = lib.tensor(draw(sum(target_lengths)), dtype=lib.int64)
        if rng.random() < 0.4:
            input_lengths, target_lengths = lib.tensor(input_lengths), lib.tensor(target_lengths)
        elif not batched and rng.random() < 0.5:
            input_lengths, target_lengths = lib.tensor(input_lengths[0]), lib.tensor(target_lengths[0])
        reduction = str(rng.choice(["mean", "sum", "none"]))
        zero_infinity = bool(rng.random() < 0.4)
        form = int(rng.integers(3))
        if form == 0:
            out = lib.nn.functional.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank, reduction,
                                             zero_infinity)
        elif form == 1:
            module = lib.nn.CTCLoss(blank, reduction, zero_infinity)
            out = module(log_probs, targets, input_lengths, target_lengths)
            out = [repr(module), out]
        else:
            out = lib.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank,
                               {"none": 0, "mean": 1, "sum": 2}[reduction], zero_infinity)
        loss = out[-1] if isinstance(out, list) else out
        return {"out": out, "grads": _grads(loss, [logits])}
    compare(case, seed)


_CTC_ERRORS = [
    lambda lib: lib.nn.functional.ctc_loss(lib.randn(5, 2, 4).log_softmax(2), lib.tensor([[1, 2], [3, 3]]), [5, 4],
                                           [2, 2], reduction="foo"),
    lambda lib: lib.nn.functional.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), 5, 4),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4).half(), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4).int(), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(0, 2, 4), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4, 1), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[[1, 2], [3, 3]]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2, 2], 4),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [5, 4, 1], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [5, 4], [2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [6, -1], [2, -2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [6, 4], [3, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [6, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), [-1, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([1, 2, 3]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2]]), [5, 4], [2, 2]),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), lib.tensor([5., 4.]),
                             lib.tensor([2, 2])),
    lambda lib: lib.ctc_loss(lib.randn(5, 2, 4), lib.tensor([[1, 2], [3, 3]]), lib.tensor([5, 4]),
                             lib.tensor([True, True])),
    lambda lib: lib.nn.CTCLoss(blank=2, zero_infinity=True),
]


@pytest.mark.parametrize("index", range(len(_CTC_ERRORS)))
def test_ctc_loss_errors(index):
    compare(lambda lib, rng: _CTC_ERRORS[index](lib), index)


# --- nn.AdaptiveLogSoftmaxWithLoss -------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_adaptive_log_softmax(seed):
    def case(lib, rng):
        n_classes = int(rng.integers(3, 12))
        k = int(rng.integers(1, min(3, n_classes - 1) + 1))
        cutoffs = sorted(int(c) for c in rng.choice(np.arange(1, n_classes), k, replace=False))
        features = int(rng.integers(1, 9))
        m = _module(lib, "AdaptiveLogSoftmaxWithLoss", features, n_classes, cutoffs,
                    div_value=float(rng.choice([2.0, 4.0])), head_bias=bool(rng.random() < 0.5))
        N = int(rng.integers(1, 6))
        batched = rng.random() < 0.8
        x = _tensor(lib, rng, (N, features) if batched else (features,))
        target = lib.tensor(rng.integers(0, n_classes, N) if batched else int(rng.integers(0, n_classes)))
        out = m(x, target)
        result = {"module": _describe(m), "out": out, "grads": _grads(out.loss, [x] + list(m.parameters()))}
        if batched:
            with lib.no_grad():
                result.update(log_prob=m.log_prob(x), predict=m.predict(x))
        return result
    compare(case, seed)


_ADAPTIVE_ERRORS = [
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(4, 10, []),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [5, 2]),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [2, 10]),
    lambda lib: lib.nn.AdaptiveLogSoftmaxWithLoss(4, 10, [2, 2.5]),
    lambda lib: _module(lib, "AdaptiveLogSoftmaxWithLoss", 4, 10, [2, 5])(lib.randn(3, 4), lib.tensor([1, 2])),
    lambda lib: _module(lib, "AdaptiveLogSoftmaxWithLoss", 4, 10, [2, 5])(lib.randn(3, 4, 1), lib.tensor([1, 2, 3])),
    lambda lib: _module(lib, "AdaptiveLogSoftmaxWithLoss", 4, 10, [2, 5])(lib.randn(3, 4), lib.tensor(1)),
    lambda lib: _module(lib, "AdaptiveLogSoftmaxWithLoss", 4, 10, [2, 5])(lib.randn(3, 4), lib.tensor([[1]])),
    lambda lib: _module(lib, "AdaptiveLogSoftmaxWithLoss", 4, 10, [2, 5])(lib.randn(3, 4), lib.tensor([1, 12, -1])),
]


@pytest.mark.parametrize("index", range(len(_ADAPTIVE_ERRORS)))
def test_adaptive_log_softmax_errors(index):
    compare(lambda lib, rng: _ADAPTIVE_ERRORS[index](lib), index)


# --- F.linear_cross_entropy and nn.LinearCrossEntropyLoss ----------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_linear_cross_entropy(seed):
    def case(lib, rng):
        I, C, N = (int(v) for v in rng.integers(1, 5, 3))
        out_features = () if rng.random() < 0.7 else (int(rng.integers(1, 3)),)
        batched = not out_features and rng.random() < 0.2
        batched = not batched
        x = _tensor(lib, rng, (N, I) if batched else (I,))
        probabilities = rng.random() < 0.2
        tshape = ((N,) if batched else ()) + ((C,) if probabilities else ()) + out_features
        target = (lib.tensor(rng.random(tshape).astype("float32")) if probabilities else
                  lib.tensor(rng.integers(0, C, tshape)))
        kwargs = dict(reduction=str(rng.choice(["mean", "sum", "none"])),
                      label_smoothing=float(rng.choice([0.0, 0.1])))
        if rng.random() < 0.3 and not probabilities:
            kwargs["ignore_index"] = int(rng.integers(C))
        if rng.random() < 0.3:
            kwargs["weight"] = lib.tensor(rng.random(C).astype("float32") + 0.5)
        if rng.random() < 0.5:
            m = _module(lib, "LinearCrossEntropyLoss", I, C, out_features=out_features, bias=bool(rng.random() < 0.5),
                        **kwargs)
            return {"module": _describe(m), "out": m(x, target)}
        w = _tensor(lib, rng, (C, *out_features, I))
        b = _tensor(lib, rng, (C, *out_features)) if rng.random() < 0.5 else None
        out = lib.nn.functional.linear_cross_entropy(x, w, target, linear_bias=b, **kwargs)
        return {"out": out, "grads": _grads(out, [x, w] + ([b] if b is not None else []))}
    compare(case, seed)


_LCE_ERRORS = [
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(2, 3, 4), lib.randn(5, 4), lib.tensor([1, 2])),
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(2, 4), lib.randn(4), lib.tensor([1, 2])),
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(2, 4), lib.randn(5, 3), lib.tensor([1, 2])),
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(2, 4), lib.randn(5, 4), lib.tensor([1, 2]),
                                                       linear_bias=lib.randn(4)),
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(4), lib.randn(5, 2, 4), lib.tensor([1, 2])),
    lambda lib: lib.nn.functional.linear_cross_entropy(lib.randn(2, 4), lib.randn(5, 4), lib.rand(2, 5),
                                                       ignore_index=1),
    lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, weight=lib.ones(4)),
    lambda lib: lib.nn.LinearCrossEntropyLoss(4, 5, label_smoothing=1.5),
]


@pytest.mark.parametrize("index", range(len(_LCE_ERRORS)))
def test_linear_cross_entropy_errors(index):
    compare(lambda lib, rng: _LCE_ERRORS[index](lib), index)


@pytest.mark.parametrize("seed", range(6))
def test_multihead_attention_double_backward(seed):
    """Gradients of gradients: through bmm/softmax (need_weights=True) they exist; through PyTorch's flash
    attention kernel (need_weights=False) the second backward raises its error."""
    def case(lib, rng):
        m = _module(lib, "MultiheadAttention", 4, 2, batch_first=True, add_bias_kv=bool(seed % 2)).double()
        x = _tensor(lib, rng, (2, 3, 4), "float64")
        mask = lib.nn.Transformer.generate_square_subsequent_mask(3, dtype=lib.float64)
        y = m(x, x, x, need_weights=seed < 3, attn_mask=mask)[0]
        g, = lib.autograd.grad(y.pow(2).sum(), x, create_graph=True)
        g.pow(2).sum().backward()
        return {"g": g, "grads": [x.grad] + [p.grad for p in m.parameters()]}
    compare(case, seed)


@pytest.mark.parametrize("seed", range(12))
def test_inference_fast_path_values(seed):
    """Eval mode without gradients: PyTorch's fused kernels (_native_multi_head_attention,
    _transformer_encoder_layer_fwd) give the composition's values."""
    def case(lib, rng):
        m = _module(lib, ["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer"][seed % 3], 4, 2,
                    batch_first=True, **({} if seed % 3 == 0 else {"dim_feedforward": 8}))
        m.eval()
        N, L = int(rng.integers(1, 4)), int(rng.integers(1, 5))
        x = _tensor(lib, rng, (N, L, 4), grad=False)
        pad = _mask(lib, rng, "bool", (N, L)) if rng.random() < 0.5 else None
        with lib.no_grad():
            if seed % 3 == 0:
                return m(x, x, x, key_padding_mask=pad, need_weights=bool(rng.random() < 0.5),
                         average_attn_weights=bool(rng.random() < 0.5))
            if seed % 3 == 1:
                return m(x, src_key_padding_mask=pad)
            return m(x, _tensor(lib, rng, (N, 3, 4), grad=False), tgt_key_padding_mask=pad)
    compare(case, seed)
