"""ModuleDict, ParameterList, ParameterDict, Unflatten, the losses and distances of nn/_functional/loss.py,
the newer activations, one_hot, nn.utils and Module's API, against torch: generated calls over dtypes,
shapes, options, and the printed text and errors."""
import itertools
import warnings

import numpy as np
import pytest

import gradlab
import gradlab.nn as gnn
import gradlab.nn.functional as GF

torch = pytest.importorskip("torch")
import torch.nn.functional as TF  # noqa: E402

pytestmark = pytest.mark.torch


def raised(fn):
    try:
        fn()
    except Exception as e:   # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def outcome(fn):
    """(value or error, warnings) of fn, comparable across the two libraries."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
        except Exception as e:   # noqa: BLE001
            result = (type(e).__name__, str(e))
    return result, [f"{w.category.__name__}: {w.message}" for w in caught]


def both(seed, *shapes, dtype="float32", grad=True):
    rng = np.random.default_rng(seed)
    arrays = [rng.standard_normal(s).astype(dtype) for s in shapes]
    t = [torch.tensor(a, requires_grad=grad) for a in arrays]
    g = [gradlab.tensor(a, requires_grad=grad) for a in arrays]
    return t, g


def same(tout, gout, tin=(), gin=(), rtol=1e-5, atol=1e-6):
    assert type(gout.grad_fn).__name__ == type(tout.grad_fn).__name__
    assert str(gout.dtype) == str(tout.dtype) and tuple(gout.shape) == tuple(tout.shape)
    np.testing.assert_allclose(gout.detach().numpy(), tout.detach().numpy(), rtol=rtol, atol=atol)
    assert str(gout) == str(tout) or rtol > 1e-5
    if tout.requires_grad and tin:
        tg = torch.autograd.grad(tout.sum(), tin, allow_unused=True)
        gg = gradlab.autograd.grad(gout.sum(), gin, allow_unused=True)
        for a, b in zip(gg, tg):
            assert (a is None) == (b is None)
            if b is not None:
                np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=rtol, atol=atol)


# --- losses ---------------------------------------------------------------------------------------------
SHAPES = [((4, 3), (4, 3)), ((5,), (5,)), ((), ()), ((2, 3, 2), (2, 3, 2)), ((3, 1), (3, 4))]
REDUCTIONS = ["mean", "sum", "none"]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes", SHAPES)
@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("name,kw", [("huber_loss", {}), ("huber_loss", dict(delta=0.3)),
                                     ("smooth_l1_loss", {}), ("smooth_l1_loss", dict(beta=0.4)),
                                     ("smooth_l1_loss", dict(beta=0.0))])
def test_regression_losses_match_torch(name, kw, reduction, shapes, dtype):
    (ta, tb), (ga, gb) = both(7, *shapes, dtype=dtype)
    t, tw = outcome(lambda: getattr(TF, name)(ta, tb, reduction=reduction, **kw))
    g, gw = outcome(lambda: getattr(GF, name)(ga, gb, reduction=reduction, **kw))
    assert gw == tw
    same(t, g, (ta, tb), (ga, gb))


@pytest.mark.parametrize("log_target", [False, True])
@pytest.mark.parametrize("reduction", REDUCTIONS + ["batchmean"])
@pytest.mark.parametrize("shape", [(4, 5), (3,), (2, 3, 4)])
def test_kl_div_matches_torch(shape, reduction, log_target):
    (ta, tb), (ga, gb) = both(3, shape, shape)
    ta_, ga_ = ta.log_softmax(-1), ga.log_softmax(-1)
    tb_, gb_ = (tb.log_softmax(-1), gb.log_softmax(-1)) if log_target else (tb.softmax(-1), gb.softmax(-1))
    t, tw = outcome(lambda: TF.kl_div(ta_, tb_, reduction=reduction, log_target=log_target))
    g, gw = outcome(lambda: GF.kl_div(ga_, gb_, reduction=reduction, log_target=log_target))
    assert gw == tw
    same(t, g, (ta, tb), (ga, gb))
    tm = torch.nn.KLDivLoss(reduction=reduction, log_target=log_target)
    gm = gnn.KLDivLoss(reduction=reduction, log_target=log_target)
    assert repr(gm) == repr(tm)
    assert outcome(lambda: gm(ga_, gb_))[1] == outcome(lambda: tm(ta_, tb_))[1]


def test_kl_div_with_zero_targets_matches_torch():
    t = torch.tensor([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]])
    g = gradlab.tensor([[0.0, 0.5, 0.5], [1.0, 0.0, 0.0]])
    (ta,), (ga,) = both(1, (2, 3))
    same(TF.kl_div(ta.log_softmax(1), t, reduction="batchmean"),
         GF.kl_div(ga.log_softmax(1), g, reduction="batchmean"), (ta,), (ga,))


@pytest.mark.parametrize("call", [
    lambda F, a, b: F.huber_loss(a, b, reduction="avg"),
    lambda F, a, b: F.huber_loss(a, b[:2]),
    lambda F, a, b: F.huber_loss(a, b, delta=-1.0),
    lambda F, a, b: F.smooth_l1_loss(a, b, beta=-1.0),
    lambda F, a, b: F.smooth_l1_loss(a, [1, 2]),
    lambda F, a, b: F.kl_div(a, b, reduction="avg"),
    lambda F, a, b: F.cosine_similarity(a, b[:2]),
    lambda F, a, b: F.pairwise_distance(a, b[:2]),
    lambda F, a, b: F.huber_loss(a.long(), b.long()),
    lambda F, a, b: F.one_hot(a),
])
def test_loss_errors_match_torch(call):
    (ta, tb), (ga, gb) = both(0, (3, 4), (3, 4))
    expected = outcome(lambda: call(TF, ta, tb))
    assert isinstance(expected[0], tuple)
    assert outcome(lambda: call(GF, ga, gb)) == expected


@pytest.mark.parametrize("reduction", REDUCTIONS)
@pytest.mark.parametrize("margin", [0.0, 0.3])
def test_margin_losses_match_torch(margin, reduction):
    (ta, tb), (ga, gb) = both(5, (6, 3), (6, 3))
    y = np.array([1, -1, 1, 1, -1, -1], np.float32)
    same(TF.cosine_embedding_loss(ta, tb, torch.tensor(y), margin=margin, reduction=reduction),
         GF.cosine_embedding_loss(ga, gb, gradlab.tensor(y), margin=margin, reduction=reduction), (ta, tb), (ga, gb))
    same(TF.margin_ranking_loss(ta[:, 0], tb[:, 0], torch.tensor(y), margin=margin, reduction=reduction),
         GF.margin_ranking_loss(ga[:, 0], gb[:, 0], gradlab.tensor(y), margin=margin, reduction=reduction),
         (ta, tb), (ga, gb))


# --- distances ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shapes,dim", [(((4, 5), (4, 5)), 1), (((4, 5), (4, 5)), 0), (((4, 5), (5,)), -1),
                                        (((2, 3, 4), (2, 3, 4)), 2), (((3,), (3,)), 0), (((2, 1, 4), (3, 4)), -1)])
def test_cosine_similarity_matches_torch(shapes, dim, dtype):
    (ta, tb), (ga, gb) = both(11, *shapes, dtype=dtype)
    same(TF.cosine_similarity(ta, tb, dim=dim), GF.cosine_similarity(ga, gb, dim=dim), (ta, tb), (ga, gb))
    same(torch.nn.CosineSimilarity(dim, 1e-6)(ta, tb), gnn.CosineSimilarity(dim, 1e-6)(ga, gb))


@pytest.mark.parametrize("p,keepdim", list(itertools.product([2.0, 1.0, 3.0, float("inf")], [False, True])))
@pytest.mark.parametrize("shapes", [((4, 5), (4, 5)), ((5,), (5,)), ((4, 5), (5,)), ((2, 3, 4), (2, 3, 4))])
def test_pairwise_distance_matches_torch(shapes, p, keepdim):
    (ta, tb), (ga, gb) = both(13, *shapes)
    same(TF.pairwise_distance(ta, tb, p=p, keepdim=keepdim), GF.pairwise_distance(ga, gb, p=p, keepdim=keepdim),
         (ta, tb), (ga, gb), rtol=2e-5)
    assert repr(gnn.PairwiseDistance(p, keepdim=keepdim)) == repr(torch.nn.PairwiseDistance(p, keepdim=keepdim))


def test_cosine_similarity_of_zero_vectors_and_ints_matches_torch():
    for a, b in [([[0.0, 0.0]], [[1.0, 2.0]]), ([1, 2, 3], [3, 2, 1]), ([1, 2, 3], [3.0, 2, 1])]:
        t = outcome(lambda: TF.cosine_similarity(torch.tensor(a), torch.tensor(b), dim=-1))
        g = outcome(lambda: GF.cosine_similarity(gradlab.tensor(a), gradlab.tensor(b), dim=-1))
        assert (str(g[0]), g[1]) == (str(t[0]), t[1])


# --- one_hot --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("values,num_classes", [
    ([0, 2, 1], -1), ([0, 2, 1], 5), ([[1, 0], [3, 3]], -1), (3, 4), ([], 3), ([], -1), ([0, 3], 3),
    ([-1, 2], -1), ([0, 1], 0), ([[0]], 1)])
def test_one_hot_matches_torch(values, num_classes):
    t = outcome(lambda: TF.one_hot(torch.tensor(values, dtype=torch.long), num_classes))
    g = outcome(lambda: GF.one_hot(gradlab.tensor(values, dtype=gradlab.long), num_classes))
    if isinstance(t[0], tuple):
        assert g == t
    else:
        assert str(g[0]) == str(t[0]) and g[0].dtype == gradlab.int64


@pytest.mark.parametrize("arg", [[1, 2], "x"])
def test_one_hot_argument_errors_match_torch(arg):
    assert outcome(lambda: GF.one_hot(arg)) == outcome(lambda: TF.one_hot(arg))


def test_one_hot_of_int_and_float_tensors_refused_like_torch():
    for dtype in ("int32", "float32", "uint8"):
        assert outcome(lambda: GF.one_hot(gradlab.tensor([1, 2], dtype=getattr(gradlab, dtype)))) == \
            outcome(lambda: TF.one_hot(torch.tensor([1, 2], dtype=getattr(torch, dtype))))


# --- activations ----------------------------------------------------------------------------------------
ACTS = [("Hardtanh", (), "hardtanh"), ("Hardtanh", (-2.0, 0.5), "hardtanh"), ("ReLU6", (), "relu6"),
        ("Softsign", (), "softsign"), ("Mish", (), "mish"), ("Hardswish", (), "hardswish"),
        ("Hardsigmoid", (), "hardsigmoid"), ("LogSigmoid", (), "logsigmoid")]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("cls,args,fn", ACTS)
def test_activations_match_torch(cls, args, fn, dtype):
    (ta,), (ga,) = both(17, (3, 7), dtype=dtype)
    tm, gm = getattr(torch.nn, cls)(*args), getattr(gnn, cls)(*args)
    assert repr(gm) == repr(tm)
    same(tm(ta * 4), gm(ga * 4), (ta,), (ga,))
    same(getattr(TF, fn)(ta * 4), getattr(GF, fn)(ga * 4), (ta,), (ga,))


def test_activation_reprs_and_inplace_match_torch():
    for cls, args in [("Hardtanh", (-2, 2, True)), ("ReLU6", (True,)), ("Mish", (True,)), ("Hardswish", (True,)),
                      ("PReLU", ()), ("PReLU", (3, 0.1)), ("Hardsigmoid", (True,))]:
        assert repr(getattr(gnn, cls)(*args)) == repr(getattr(torch.nn, cls)(*args))
    assert raised(lambda: gnn.Hardtanh(1, 0)) == raised(lambda: torch.nn.Hardtanh(1, 0))


@pytest.mark.parametrize("shape,channels", [((4, 3), 3), ((4, 3), 1), ((2, 3, 5), 3), ((2, 3, 2, 2), 3),
                                            ((5,), 1), ((2, 3, 2, 2), 2)])
def test_prelu_matches_torch(shape, channels):
    (ta,), (ga,) = both(19, shape)
    tm, gm = torch.nn.PReLU(channels, 0.2), gnn.PReLU(channels, 0.2)
    assert str(gm.weight) == str(tm.weight)
    t, g = outcome(lambda: tm(ta)), outcome(lambda: gm(ga))
    if isinstance(t[0], tuple):
        assert g == t
        return
    same(t[0], g[0], (ta, tm.weight), (ga, gm.weight))


# --- containers -----------------------------------------------------------------------------------------
def _container_pairs():
    for lib in (torch, gradlab):
        nn = lib.nn
        lib.manual_seed(0)
        yield [
            nn.ModuleDict({"lin": nn.Linear(2, 3), "act": nn.Tanh()}),
            nn.ModuleDict([("b", nn.ReLU()), ("a", nn.Sequential(nn.Linear(1, 1), nn.Sigmoid()))]),
            nn.ModuleDict(),
            nn.ParameterList([nn.Parameter(lib.ones(2, 3)), lib.zeros(4, dtype=lib.float64), "text", 3]),
            nn.ParameterList(),
            nn.ParameterDict({"w": nn.Parameter(lib.ones(2)), "a": lib.zeros(1, 2, dtype=lib.float64), "z": 5}),
            nn.ParameterDict([("y", lib.ones(3)), ("x", lib.ones(1))]),
            nn.Sequential(nn.Linear(2, 2), nn.ModuleDict({"x": nn.ReLU()}), nn.ParameterList([lib.ones(1)])),
            nn.Unflatten(1, (2, 3)), nn.Unflatten(-1, [4, 1]),
        ]


def test_container_reprs_and_state_dicts_match_torch():
    tlist, glist = _container_pairs()
    for t, g in zip(tlist, glist):
        assert repr(g) == repr(t)
        assert list(g.state_dict()) == list(t.state_dict())
        assert [n for n, _ in g.named_parameters()] == [n for n, _ in t.named_parameters()]
        assert [n for n, _ in g.named_modules()] == [n for n, _ in t.named_modules()]


def test_container_operations_match_torch():
    def run(lib):
        nn = lib.nn
        out = []
        md = nn.ModuleDict({"a": nn.ReLU()})
        md["b"] = nn.Tanh()
        md.update([("c", nn.Sigmoid())])
        out += [list(md), len(md), "b" in md, repr(md.pop("a")), list(md.keys()), repr(list(md.values()))]
        out.append(raised(lambda: md["zz"]))
        out.append(raised(lambda: md.update(3)))
        out.append(raised(lambda: md.update([nn.ReLU()])))
        out.append(raised(lambda: md.update(["abc"])))
        md.clear()
        out.append(len(md))
        pl = nn.ParameterList([lib.ones(2)])
        pl.append(lib.zeros(1))
        pl += [nn.Parameter(lib.ones(3))]
        out += [len(pl), [tuple(p.shape) for p in pl], type(pl[1]).__name__, repr(pl[-1]), len(pl[0:2])]
        pl[0] = lib.full((2,), 7.0)
        out += [str(pl[0]), raised(lambda: pl[5]), raised(lambda: pl.extend(lib.ones(2))), raised(lambda: pl())]
        out.append(len(list(pl.parameters())))
        pd = nn.ParameterDict({"b": lib.ones(1), "a": lib.zeros(1)})
        pd["c"] = nn.Parameter(lib.ones(2))
        out += [list(pd), list(pd.keys()), len(pd), "a" in pd, repr(pd.get("zz", 3)), repr(pd.setdefault("d"))]
        out += [repr(pd.pop("b")), list(pd), repr(pd.popitem()), list(pd), raised(lambda: pd[1]), raised(lambda: pd["q"])]
        out += [repr(pd.copy()), repr(pd | nn.ParameterDict({"z": lib.ones(1)})), raised(lambda: pd(1))]
        out += [sorted(n for n, _ in pd.named_parameters()), repr(pd.fromkeys(["k", "j"]))]
        out.append(raised(lambda: nn.ParameterDict(3)))
        u = nn.Unflatten(1, (2, 3))
        out += [tuple(u(lib.zeros(4, 6)).shape), raised(lambda: nn.Unflatten(1, 6)),
                raised(lambda: nn.Unflatten(1, (2, 3.0))), raised(lambda: u(lib.zeros(4, 5)))]
        return out
    g, t = run(gradlab), run(torch)
    for a, b in zip(g, t):
        assert a == b


# --- Module API -----------------------------------------------------------------------------------------
def test_module_api_matches_torch():
    def run(lib):
        nn = lib.nn
        lib.manual_seed(1)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
                self.head = nn.ModuleDict({"out": nn.Linear(2, 1)})
                self.register_buffer("steps", lib.zeros(1))
                self.register_buffer("scratch", lib.ones(2), persistent=False)

            def forward(self, x):
                return self.head["out"](self.body(x))

            def extra_repr(self):
                return "custom=1"

        net = Net()
        out = [repr(net), list(net.state_dict()), [n for n, _ in net.named_modules()],
               [n for n, _ in net.named_children()], [n for n, _ in net.named_buffers()],
               len(list(net.parameters())), len(list(net.parameters(recurse=False))),
               repr(net.get_submodule("body.2")), raised(lambda: net.get_submodule("body.9")),
               [type(m).__name__ for m in net.modules()], [type(m).__name__ for m in net.children()]]
        net.eval()
        out.append([m.training for m in net.modules()])
        net.train()
        out.append(all(m.training for m in net.modules()))
        out.append(raised(lambda: net.train("yes")))
        visited = []
        net.apply(lambda m: visited.append(type(m).__name__))
        out.append(visited)
        sd = net.state_dict()
        out.append(repr(net.load_state_dict(sd)))
        bad = dict(sd)
        bad.pop("steps")
        bad["extra.w"] = lib.zeros(1)
        out.append(raised(lambda: net.load_state_dict(bad)))
        out.append(repr(net.load_state_dict(bad, strict=False)))
        shaped = dict(sd)
        shaped["body.0.bias"] = lib.zeros(5)
        out.append(raised(lambda: net.load_state_dict(shaped)))
        out.append(raised(lambda: net.load_state_dict([1])))
        out.append(raised(lambda: net.register_buffer("steps2", [1])))
        out.append(raised(lambda: net.register_buffer("a.b", lib.ones(1))))
        out.append(raised(lambda: net.add_module("x", 3)))
        net.add_module("extra", nn.Identity())
        out.append(repr(net))
        net.requires_grad_(False)
        out.append([p.requires_grad for p in net.parameters()])
        net.double()
        out.append(sorted({str(t.dtype) for t in net.state_dict().values()}))
        net.float()
        out.append(sorted({str(t.dtype) for t in net.state_dict().values()}))
        x = lib.ones(2, 3)
        net.requires_grad_()
        net(x).sum().backward()
        net.zero_grad()
        out.append([p.grad for p in net.parameters()])
        return out
    g, t = run(gradlab), run(torch)
    assert len(g) == len(t)
    for a, b in zip(g, t):
        assert a == b


# --- nn.utils -------------------------------------------------------------------------------------------
def _model_with_grads(lib, scale=1.0, dtype="float32"):
    lib.manual_seed(3)
    m = lib.nn.Sequential(lib.nn.Linear(4, 5), lib.nn.Tanh(), lib.nn.Linear(5, 2))
    m.to(getattr(lib, dtype))
    x = lib.randn(6, 4, dtype=getattr(lib, dtype))
    (m(x) * scale).pow(2).sum().backward()
    return m


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("max_norm,norm_type,scale", [(1.0, 2.0, 1.0), (100.0, 2.0, 1.0), (0.5, 1, 3.0),
                                                      (0.2, float("inf"), 1.0), (2.0, 3.0, 10.0), (1, "inf", 1.0)])
def test_clip_grad_norm_matches_torch(max_norm, norm_type, scale, dtype):
    tm, gm = _model_with_grads(torch, scale, dtype), _model_with_grads(gradlab, scale, dtype)
    tn = torch.nn.utils.clip_grad_norm_(tm.parameters(), max_norm, norm_type)
    gn = gradlab.nn.utils.clip_grad_norm_(gm.parameters(), max_norm, norm_type)
    assert str(gn) == str(tn) and gn.dtype == getattr(gradlab, dtype)
    for pg, pt in zip(gm.parameters(), tm.parameters()):
        np.testing.assert_allclose(pg.grad.numpy(), pt.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_clip_grad_details_match_torch():
    def run(lib):
        out = []
        m = _model_with_grads(lib)
        lib.nn.utils.clip_grad_value_(m.parameters(), 0.05)
        out.append([str(p.grad) for p in m.parameters()])
        out.append(str(lib.nn.utils.clip_grad_norm_(m[0].weight, 0.1)))
        out.append(outcome(lambda: str(lib.nn.utils.clip_grad_norm_((p for p in []), 1.0))))
        out.append(outcome(lambda: str(lib.nn.utils.clip_grad_norm_([], 1.0))))
        fresh = lib.nn.Linear(2, 2)          # (no gradients yet: torch's grouping of an empty list refuses it)
        out.append(outcome(lambda: lib.nn.utils.clip_grad_value_(fresh.parameters(), 0.1)))
        out.append(outcome(lambda: lib.nn.utils.clip_grad_value_([], 0.1)))
        m[0].weight.grad[0, 0] = float("nan")
        out.append(outcome(lambda: lib.nn.utils.clip_grad_norm_(m.parameters(), 1.0, error_if_nonfinite=True)))
        v = lib.nn.utils.parameters_to_vector(m.parameters())
        out += [tuple(v.shape), type(v.grad_fn).__name__, str(v[:5])]
        lib.nn.utils.vector_to_parameters(lib.arange(float(v.numel())), m.parameters())
        out += [str(m[2].bias), raised(lambda: lib.nn.utils.vector_to_parameters([1.0], m.parameters()))]
        return out
    g, t = run(gradlab), run(torch)
    for a, b in zip(g, t):
        assert a == b
