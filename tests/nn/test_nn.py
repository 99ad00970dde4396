"""gradlab.nn against torch.nn: initial weights, printing, forward values, gradients, grad_fn names, errors."""
import warnings
import zlib

import numpy as np
import pytest

import gradlab
import gradlab.nn as gnn
import gradlab.nn.functional as gF

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)   # the machine is shared: torch's thread pool only slows tiny ops down
tnn = torch.nn


def g_from(t):
    """A gradlab tensor holding a copy of a torch tensor's values."""
    return gradlab.tensor(t.detach().numpy().copy(), requires_grad=t.requires_grad)


def copy_weights(gmodel, tmodel):
    gmodel.load_state_dict({k: g_from(v) for k, v in tmodel.state_dict().items()})


def close(g, t, rtol=1e-5, atol=1e-6):
    np.testing.assert_allclose(g.detach().numpy(), t.detach().numpy(), rtol=rtol, atol=atol)


def raised(fn):
    try:
        fn()
    except Exception as e:   # noqa: BLE001 - we compare whatever each library raises
        return type(e).__name__, str(e)
    return None


# --- initialisation ---------------------------------------------------------------------------------------
def test_linear_init_is_bit_identical_to_torch():
    torch.manual_seed(0)
    t = tnn.Linear(3, 2)
    gradlab.manual_seed(0)
    g = gnn.Linear(3, 2)
    assert np.array_equal(g.weight.detach().numpy(), t.weight.detach().numpy())
    assert np.array_equal(g.bias.detach().numpy(), t.bias.detach().numpy())
    assert g.weight.dtype == gradlab.float32


def test_sequential_of_linears_init_is_bit_identical_to_torch():
    torch.manual_seed(7)
    t = tnn.Sequential(tnn.Linear(2, 16), tnn.ReLU(), tnn.Linear(16, 16, bias=False), tnn.Tanh(), tnn.Linear(16, 3))
    gradlab.manual_seed(7)
    g = gnn.Sequential(gnn.Linear(2, 16), gnn.ReLU(), gnn.Linear(16, 16, bias=False), gnn.Tanh(), gnn.Linear(16, 3))
    tsd, gsd = t.state_dict(), g.state_dict()
    assert list(gsd) == list(tsd)
    for k in tsd:
        assert np.array_equal(gsd[k].numpy(), tsd[k].numpy()), k


@pytest.mark.parametrize("name,args", [("uniform_", (-0.5, 2.0)), ("normal_", (0.5, 2.0)), ("constant_", (0.25,)),
                                       ("zeros_", ()), ("ones_", ()), ("kaiming_uniform_", ()),
                                       ("kaiming_normal_", ()), ("xavier_uniform_", ()), ("xavier_normal_", ())])
def test_init_functions_match_torch(name, args):
    torch.manual_seed(3)
    t = torch.empty(5, 4)
    with torch.no_grad():
        rt = getattr(tnn.init, name)(t, *args)
    gradlab.manual_seed(3)
    g = gnn.Parameter(gradlab.zeros(5, 4))
    rg = getattr(gnn.init, name)(g, *args)
    assert rg is g and rt is t
    np.testing.assert_allclose(g.detach().numpy(), t.numpy(), rtol=1e-6, atol=1e-7)
    assert g.is_leaf and g.grad_fn is None


# --- printing -----------------------------------------------------------------------------------------------
def _both(build):
    return build(gnn), build(tnn)


def test_nested_sequential_prints_like_torch():
    def build(nn):
        return nn.Sequential(
            nn.Linear(2, 16), nn.ReLU(),
            nn.Sequential(nn.Linear(16, 16, bias=False), nn.Tanh(), nn.Sequential(nn.Sigmoid(), nn.Dropout())),
            nn.Dropout(0.3, inplace=True), nn.Softmax(dim=1), nn.LogSoftmax(dim=-1), nn.Softmax(), nn.Flatten(),
            nn.Flatten(0, 2), nn.ReLU(inplace=True), nn.MSELoss(), nn.CrossEntropyLoss(), nn.NLLLoss(),
            nn.BCELoss(), nn.BCEWithLogitsLoss(), nn.Sequential())
    g, t = _both(build)
    assert repr(g) == repr(t)
    assert str(g) == str(t)


def test_parameter_prints_like_torch():
    assert repr(gnn.Parameter(gradlab.ones(2))) == repr(tnn.Parameter(torch.ones(2)))
    assert repr(gnn.Parameter(gradlab.ones(2, 2), requires_grad=False)) == \
        repr(tnn.Parameter(torch.ones(2, 2), requires_grad=False))
    p = gnn.Parameter(gradlab.ones(2))
    assert isinstance(p, gradlab.Tensor) and p.is_leaf and p.requires_grad
    assert type(p * 2) is gradlab.Tensor
    assert raised(lambda: gnn.Parameter(gradlab.ones(2).long())) == \
        raised(lambda: tnn.Parameter(torch.ones(2).long()))


def test_custom_module_prints_and_registers_like_torch():
    def build(nn):
        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.hidden = nn.Linear(4, 8)
                self.act = nn.ReLU()
                self.out = nn.Sequential(nn.Linear(8, 3), nn.LogSoftmax(dim=1))
                self.scale = nn.Parameter(torch.ones(1) if nn is tnn else gradlab.ones(1))
                self.plain = 3

            def forward(self, x):
                return self.out(self.act(self.hidden(x))) * self.scale
        return Net()
    g, t = _both(build)
    assert repr(g) == repr(t)
    assert [n for n, _ in g.named_parameters()] == [n for n, _ in t.named_parameters()]
    assert [n for n, _ in g.named_modules()] == [n for n, _ in t.named_modules()]
    assert [n for n, _ in g.named_children()] == [n for n, _ in t.named_children()]
    assert [type(m).__name__ for m in g.modules()] == [type(m).__name__ for m in t.modules()]
    assert [type(m).__name__ for m in g.children()] == [type(m).__name__ for m in t.children()]
    assert len(list(g.parameters())) == len(list(t.parameters())) == 5
    assert list(g.state_dict()) == list(t.state_dict())
    assert g.plain == 3
    assert raised(lambda: g.nothing) == raised(lambda: t.nothing)
    assert raised(lambda: setattr(g.hidden, "weight", gradlab.ones(8, 4))) == \
        raised(lambda: setattr(t.hidden, "weight", torch.ones(8, 4)))


# --- modules: forward, backward, grad_fn ---------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(5, 3), (3,), (2, 4, 3)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_matches_torch(shape, bias):
    t = tnn.Linear(3, 2, bias=bias)
    g = gnn.Linear(3, 2, bias=bias)
    copy_weights(g, t)
    xt = torch.randn(*shape, requires_grad=True)
    xg = g_from(xt)
    yt, yg = t(xt), g(xg)
    close(yg, yt)
    assert type(yg.grad_fn).__name__ == type(yt.grad_fn).__name__
    w = torch.randn(yt.shape)
    (yt * w).sum().backward()
    (yg * g_from(w)).sum().backward()
    close(xg.grad, xt.grad)
    close(g.weight.grad, t.weight.grad)
    if bias:
        close(g.bias.grad, t.bias.grad)


def test_linear_2d_graph_is_addmm_with_transposed_weight():
    g = gnn.Linear(3, 2)
    y = g(gradlab.randn(4, 3))
    assert type(y.grad_fn).__name__ == "AddmmBackward0"
    names = [type(n).__name__ if n is not None else None for n, _ in y.grad_fn.next_functions]
    assert names == ["AccumulateGrad", None, "TBackward0"]
    assert y.grad_fn.next_functions[0][0].variable is g.bias
    assert y.grad_fn.next_functions[2][0].next_functions[0][0].variable is g.weight


@pytest.mark.parametrize("make", [
    lambda nn: nn.ReLU(), lambda nn: nn.Tanh(), lambda nn: nn.Sigmoid(), lambda nn: nn.Softmax(dim=1),
    lambda nn: nn.Softmax(dim=0), lambda nn: nn.LogSoftmax(dim=1), lambda nn: nn.Flatten(),
    lambda nn: nn.Flatten(0, -1), lambda nn: nn.Identity(),
])
def test_activation_modules_match_torch(make):
    xt = torch.randn(4, 3, 2, requires_grad=True)
    xg = g_from(xt)
    yt, yg = make(tnn)(xt), make(gnn)(xg)
    close(yg, yt)
    assert (yg.grad_fn is None) == (yt.grad_fn is None)
    if yt.grad_fn is not None:
        assert type(yg.grad_fn).__name__ == type(yt.grad_fn).__name__
    w = torch.randn(yt.shape)
    (yt * w).sum().backward()
    (yg * g_from(w)).sum().backward()
    close(xg.grad, xt.grad)


def test_softmax_without_dim_warns_and_picks_torchs_dim():
    xt = torch.randn(2, 3)
    with pytest.warns(UserWarning, match="Implicit dimension choice for softmax"):
        yg = gnn.Softmax()(g_from(xt))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yt = tnn.Softmax()(xt)
    close(yg, yt)


def test_dropout_train_and_eval():
    gradlab.manual_seed(0)
    d = gnn.Dropout(0.25)
    x = gradlab.ones(200, 50, requires_grad=True)
    y = d(x)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    vals = np.unique(y.detach().numpy())
    np.testing.assert_allclose(vals, [0.0, 1 / 0.75], rtol=1e-6)
    kept = (y.detach().numpy() != 0).mean()
    assert 0.72 < kept < 0.78
    y.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), y.detach().numpy())   # gradient is the mask
    d.eval()
    assert d(x) is x
    assert d.training is False
    assert repr(d) == repr(tnn.Dropout(0.25))
    assert raised(lambda: gnn.Dropout(1.5)) == raised(lambda: tnn.Dropout(1.5))


def test_mlp_forward_and_parameter_gradients_match_torch():
    torch.manual_seed(1)
    t = tnn.Sequential(tnn.Linear(4, 16), tnn.ReLU(), tnn.Linear(16, 16), tnn.Tanh(), tnn.Linear(16, 3))
    g = gnn.Sequential(gnn.Linear(4, 16), gnn.ReLU(), gnn.Linear(16, 16), gnn.Tanh(), gnn.Linear(16, 3))
    copy_weights(g, t)
    x = torch.randn(10, 4)
    y = torch.randint(0, 3, (10,))
    lt = tnn.CrossEntropyLoss()(t(x), y)
    lg = gnn.CrossEntropyLoss()(g(g_from(x)), g_from(y))
    close(lg, lt)
    lt.backward()
    lg.backward()
    for (n, pg), (_, pt) in zip(g.named_parameters(), t.named_parameters()):
        close(pg.grad, pt.grad, rtol=1e-4, atol=1e-6)


# --- losses -------------------------------------------------------------------------------------------------
REDUCTIONS = ["mean", "sum", "none"]


def _loss_case(name, rng):
    """(input, target, kwargs) for each loss, as torch tensors."""
    x = torch.tensor(rng.standard_normal((6, 4)), dtype=torch.float32)
    if name in ("cross_entropy", "nll_loss"):
        target = torch.tensor(rng.integers(0, 4, 6))
        if name == "nll_loss":
            x = torch.log_softmax(x, 1)
        return x, target
    if name == "cross_entropy_probs":
        return x, torch.softmax(torch.tensor(rng.standard_normal((6, 4)), dtype=torch.float32), 1)
    if name == "mse_loss":
        return x, torch.tensor(rng.standard_normal((6, 4)), dtype=torch.float32)
    if name == "binary_cross_entropy":
        return torch.sigmoid(x), torch.tensor(rng.random((6, 4)), dtype=torch.float32)
    if name == "binary_cross_entropy_with_logits":
        return x, torch.tensor(rng.integers(0, 2, (6, 4)), dtype=torch.float32)
    raise KeyError(name)


LOSSES = [
    ("cross_entropy", {}, "NllLossBackward0"),
    ("cross_entropy", {"weight": [0.5, 1.0, 2.0, 0.25]}, "NllLossBackward0"),
    ("cross_entropy", {"ignore_index": 1}, "NllLossBackward0"),
    ("cross_entropy", {"label_smoothing": 0.1}, "AddBackward0"),
    ("cross_entropy_probs", {}, None),
    ("nll_loss", {}, "NllLossBackward0"),
    ("nll_loss", {"weight": [0.5, 1.0, 2.0, 0.25], "ignore_index": 2}, "NllLossBackward0"),
    ("mse_loss", {}, "MseLossBackward0"),
    ("binary_cross_entropy", {}, "BinaryCrossEntropyBackward0"),
    ("binary_cross_entropy", {"weight": [0.5, 1.0, 2.0, 0.25]}, "BinaryCrossEntropyBackward0"),
    ("binary_cross_entropy_with_logits", {}, "BinaryCrossEntropyWithLogitsBackward0"),
    ("binary_cross_entropy_with_logits", {"weight": [0.5, 1.0, 2.0, 0.25]}, "BinaryCrossEntropyWithLogitsBackward0"),
    ("binary_cross_entropy_with_logits", {"pos_weight": [3.0, 1.0, 0.5, 2.0]},
     "BinaryCrossEntropyWithLogitsBackward0"),
]


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kwargs,node", LOSSES)
def test_functional_losses_match_torch(name, kwargs, node, reduction):
    rng = np.random.default_rng(zlib.crc32(f"{name}-{reduction}".encode()))
    xt, target = _loss_case(name, rng)
    xt = xt.detach().requires_grad_(True)
    xg = g_from(xt)
    fname = "cross_entropy" if name == "cross_entropy_probs" else name
    tk = {k: torch.tensor(v) for k, v in kwargs.items() if isinstance(v, list)}
    tk.update({k: v for k, v in kwargs.items() if not isinstance(v, list)})
    gk = {k: gradlab.tensor(v) for k, v in kwargs.items() if isinstance(v, list)}
    gk.update({k: v for k, v in kwargs.items() if not isinstance(v, list)})
    lt = getattr(torch.nn.functional, fname)(xt, target, reduction=reduction, **tk)
    lg = getattr(gF, fname)(xg, g_from(target), reduction=reduction, **gk)
    close(lg, lt, rtol=1e-5, atol=1e-6)
    assert type(lg.grad_fn).__name__ == type(lt.grad_fn).__name__
    if node is not None and not (name == "cross_entropy" and "label_smoothing" in kwargs and reduction == "none"):
        assert type(lg.grad_fn).__name__ == node
    w = torch.rand(lt.shape)
    (lt * w).sum().backward()
    (lg * g_from(w)).sum().backward()
    close(xg.grad, xt.grad, rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("reduction", REDUCTIONS)
def test_loss_modules_match_torch(reduction):
    rng = np.random.default_rng(5)
    pairs = [("CrossEntropyLoss", "cross_entropy"), ("NLLLoss", "nll_loss"), ("MSELoss", "mse_loss"),
             ("BCELoss", "binary_cross_entropy"), ("BCEWithLogitsLoss", "binary_cross_entropy_with_logits")]
    for cls, name in pairs:
        xt, target = _loss_case(name, rng)
        xt = xt.detach().requires_grad_(True)
        xg = g_from(xt)
        mt, mg = getattr(tnn, cls)(reduction=reduction), getattr(gnn, cls)(reduction=reduction)
        assert repr(mg) == repr(mt)
        lt, lg = mt(xt, target), mg(xg, g_from(target))
        close(lg, lt)
        assert type(lg.grad_fn).__name__ == type(lt.grad_fn).__name__
        lt.sum().backward()
        lg.sum().backward()
        close(xg.grad, xt.grad, rtol=1e-4, atol=1e-6)


def test_mse_target_gradient_and_broadcast_warning():
    xt = torch.randn(3, 1, requires_grad=True)
    yt = torch.randn(3, requires_grad=True)
    xg, yg = g_from(xt), g_from(yt)
    with pytest.warns(UserWarning) as rec_g:
        lg = gF.mse_loss(xg, yg)
    with pytest.warns(UserWarning) as rec_t:
        lt = torch.nn.functional.mse_loss(xt, yt)
    assert str(rec_g[0].message) == str(rec_t[0].message)
    close(lg, lt)
    lt.backward()
    lg.backward()
    close(xg.grad, xt.grad)
    close(yg.grad, yt.grad)


def test_nll_loss_single_sample():
    xt = torch.log_softmax(torch.randn(5), 0).detach().requires_grad_(True)
    xg = g_from(xt)
    lt = torch.nn.functional.nll_loss(xt, torch.tensor(3))
    lg = gF.nll_loss(xg, gradlab.tensor(3))
    close(lg, lt)
    lt.backward()
    lg.backward()
    close(xg.grad, xt.grad)


# --- bad input: torch's exception types and messages -----------------------------------------------------------
def _errors_match(gfn, tfn):
    eg, et = raised(gfn), raised(tfn)
    assert et is not None, "torch accepted this input"
    assert eg == et


@pytest.mark.parametrize("shape", [(4, 5), (5,), (2, 4, 5)])
@pytest.mark.parametrize("bias", [True, False])
def test_linear_shape_mismatch_error(shape, bias):
    _errors_match(lambda: gnn.Linear(3, 2, bias=bias)(gradlab.ones(*shape)),
                  lambda: tnn.Linear(3, 2, bias=bias)(torch.ones(*shape)))


@pytest.mark.parametrize("dtype", ["float64", "int64"])
def test_linear_dtype_mismatch_error(dtype):
    _errors_match(lambda: gnn.Linear(3, 2)(gradlab.ones(2, 3, dtype=getattr(gradlab, dtype))),
                  lambda: tnn.Linear(3, 2)(torch.ones(2, 3, dtype=getattr(torch, dtype))))


@pytest.mark.parametrize("target", [
    np.array([0.0, 1.0, 2.0, 0.0], np.float32),     # class indices given as floats
    np.array([0, 1, 2, 0], np.int32),               # indices of the wrong integer type
    np.ones((4, 2), np.int64),                      # one target per class but a wrong shape
    np.ones((4, 2), np.float32),
    np.array([0, 1, 2], np.int64),                  # batch size mismatch
    np.array([0.0, 1.0, 2.0], np.float32),
    np.array([0, 1, 5, 0], np.int64),               # out of range
    np.array([0, -3, 1, 0], np.int64),
])
@pytest.mark.parametrize("loss", ["CrossEntropyLoss", "NLLLoss"])
def test_class_target_errors(target, loss):
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    _errors_match(lambda: getattr(gnn, loss)()(gradlab.tensor(x), gradlab.tensor(target)),
                  lambda: getattr(tnn, loss)()(torch.tensor(x), torch.tensor(target)))


def test_probability_targets_must_be_floats():
    """CrossEntropyLoss with one target per class (probabilities) refuses integer targets."""
    x = np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32)
    target = np.ones((4, 3), np.int64)
    _errors_match(lambda: gnn.CrossEntropyLoss()(gradlab.tensor(x), gradlab.tensor(target)),
                  lambda: tnn.CrossEntropyLoss()(torch.tensor(x), torch.tensor(target)))


@pytest.mark.parametrize("x,y", [([0.5, 1.5], [0.0, 1.0]), ([0.5, -0.5], [0.0, 1.0]), ([0.5, 0.5], [0.0, 2.0]),
                                 ([0.5, 0.5], [0.0, 1.0, 1.0])])
def test_bce_errors(x, y):
    _errors_match(lambda: gnn.BCELoss()(gradlab.tensor(x), gradlab.tensor(y)),
                  lambda: tnn.BCELoss()(torch.tensor(x), torch.tensor(y)))


def test_bce_target_dtype_and_logits_errors():
    _errors_match(lambda: gnn.BCELoss()(gradlab.tensor([0.5, 0.5]), gradlab.tensor([0, 1])),
                  lambda: tnn.BCELoss()(torch.tensor([0.5, 0.5]), torch.tensor([0, 1])))
    _errors_match(lambda: gnn.BCEWithLogitsLoss()(gradlab.tensor([0.5, 0.5]), gradlab.tensor([0.0, 1.0, 1.0])),
                  lambda: tnn.BCEWithLogitsLoss()(torch.tensor([0.5, 0.5]), torch.tensor([0.0, 1.0, 1.0])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")     # both warn about the size difference first
        _errors_match(lambda: gnn.MSELoss()(gradlab.ones(3), gradlab.ones(4)),
                      lambda: tnn.MSELoss()(torch.ones(3), torch.ones(4)))


def test_invalid_reduction_error():
    _errors_match(lambda: gnn.MSELoss(reduction="avg")(gradlab.ones(2), gradlab.ones(2)),
                  lambda: tnn.MSELoss(reduction="avg")(torch.ones(2), torch.ones(2)))


# --- state_dict ----------------------------------------------------------------------------------------------
def test_state_dict_is_detached_and_shares_storage():
    g = gnn.Sequential(gnn.Linear(2, 3))
    sd = g.state_dict()
    assert list(sd) == ["0.weight", "0.bias"]
    assert not sd["0.weight"].requires_grad and sd["0.weight"].grad_fn is None
    assert type(sd["0.weight"]) is gradlab.Tensor
    np.testing.assert_array_equal(sd["0.bias"].numpy(), g[0].bias.detach().numpy())


def test_load_state_dict_copies_values():
    torch.manual_seed(2)
    t = tnn.Sequential(tnn.Linear(2, 3), tnn.Linear(3, 1))
    g = gnn.Sequential(gnn.Linear(2, 3), gnn.Linear(3, 1))
    w_before = g[0].weight
    result = g.load_state_dict({k: g_from(v) for k, v in t.state_dict().items()})
    assert repr(result) == repr(t.load_state_dict(t.state_dict())) == "<All keys matched successfully>"
    assert g[0].weight is w_before     # the same Parameter, new values
    close(g[1].bias, t[1].bias)


def test_load_state_dict_key_errors_match_torch():
    def bad(lib):
        nn = gnn if lib is gradlab else tnn
        model = nn.Sequential(nn.Linear(2, 3))
        sd = {k: v for k, v in model.state_dict().items() if k != "0.bias"}
        sd["foo"] = lib.ones(1)
        return model, sd
    (gm, gsd), (tm, tsd) = bad(gradlab), bad(torch)
    _errors_match(lambda: gm.load_state_dict(gsd), lambda: tm.load_state_dict(tsd))
    rg, rt = gm.load_state_dict(gsd, strict=False), tm.load_state_dict(tsd, strict=False)
    assert repr(rg) == repr(rt)
    assert rg.missing_keys == rt.missing_keys and rg.unexpected_keys == rt.unexpected_keys


def test_load_state_dict_size_mismatch_error():
    gm, tm = gnn.Sequential(gnn.Linear(2, 3)), tnn.Sequential(tnn.Linear(2, 3))
    gsd, tsd = dict(gm.state_dict()), dict(tm.state_dict())
    gsd["0.weight"], tsd["0.weight"] = gradlab.ones(2, 2), torch.ones(2, 2)
    _errors_match(lambda: gm.load_state_dict(gsd), lambda: tm.load_state_dict(tsd))


# --- Module API ----------------------------------------------------------------------------------------------
def test_zero_grad_train_eval_requires_grad():
    g = gnn.Sequential(gnn.Linear(2, 3), gnn.Dropout(), gnn.Sequential(gnn.Linear(3, 1)))
    g(gradlab.randn(4, 2)).sum().backward()
    assert all(p.grad is not None for p in g.parameters())
    g.zero_grad(set_to_none=False)
    assert all(p.grad is not None and not p.grad.numpy().any() for p in g.parameters())
    g.zero_grad()
    assert all(p.grad is None for p in g.parameters())
    g.eval()
    assert not any(m.training for m in g.modules())
    g.train()
    assert all(m.training for m in g.modules())
    assert raised(lambda: g.train("yes")) == raised(lambda: tnn.Linear(1, 1).train("yes"))
    g.requires_grad_(False)
    assert not any(p.requires_grad for p in g.parameters())


def test_forward_hooks_and_pre_hooks():
    g = gnn.Linear(2, 2)
    seen = []
    h1 = g.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = g.register_forward_hook(lambda m, args, out: seen.append((m, out)) or out + 1)
    y = g(gradlab.ones(1, 2))
    np.testing.assert_allclose(y.detach().numpy(), g.bias.detach().numpy()[None] + 1, rtol=1e-6)
    assert seen[0][0] is g
    h1.remove()
    h2.remove()
    y2 = g(gradlab.ones(1, 2))
    np.testing.assert_allclose(y2.detach().numpy(),
                               g.weight.detach().numpy().sum(1)[None] + g.bias.detach().numpy(), rtol=1e-6)
    assert len(seen) == 1


def test_apply_and_dtype_conversion():
    g = gnn.Sequential(gnn.Linear(2, 3), gnn.ReLU(), gnn.Linear(3, 1))
    names = []
    assert g.apply(lambda m: names.append(type(m).__name__)) is g
    assert names == ["Linear", "ReLU", "Linear", "Sequential"]
    w = g[0].weight
    g.double()
    assert g[0].weight is w and w.dtype == gradlab.float64
    y = g(gradlab.randn(4, 2, dtype=gradlab.float64))
    assert y.dtype == gradlab.float64
    g.to(gradlab.float32)
    assert w.dtype == gradlab.float32
