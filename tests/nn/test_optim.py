"""gradlab.optim against torch.optim: 50 training steps, printing, state_dict, errors."""
import numpy as np
import pytest

import gradlab
import gradlab.nn as gnn
import gradlab.optim as goptim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)   # the machine is shared: torch's thread pool only slows tiny ops down


def g_from(t):
    return gradlab.tensor(t.detach().numpy().copy(), requires_grad=t.requires_grad)


def raised(fn):
    try:
        fn()
    except Exception as e:   # noqa: BLE001
        return type(e).__name__, str(e)
    return None


def make_pair(seed=0):
    torch.manual_seed(seed)
    t = torch.nn.Sequential(torch.nn.Linear(4, 16), torch.nn.Tanh(), torch.nn.Linear(16, 3))
    g = gnn.Sequential(gnn.Linear(4, 16), gnn.Tanh(), gnn.Linear(16, 3))
    g.load_state_dict({k: g_from(v) for k, v in t.state_dict().items()})
    x = torch.randn(32, 4)
    y = torch.randint(0, 3, (32,))
    return t, g, x, y


def train(model, opt, x, y, loss_fn, steps):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.05, momentum=0.9)),
    ("SGD", dict(lr=0.05, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.9, dampening=0.1, weight_decay=0.01)),
    ("SGD", dict(lr=0.05, momentum=0.5, nesterov=True, weight_decay=0.05, maximize=False)),
    ("Adam", dict(lr=0.01)),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.01)),
    ("Adam", dict(lr=0.01, amsgrad=True)),
    ("AdamW", dict(lr=0.01)),
    ("AdamW", dict(lr=0.01, weight_decay=0.1, amsgrad=True)),
]


@pytest.mark.parametrize("name,kwargs", CONFIGS)
def test_fifty_steps_match_torch(name, kwargs):
    t, g, x, y = make_pair()
    topt = getattr(torch.optim, name)(t.parameters(), **kwargs)
    gopt = getattr(goptim, name)(g.parameters(), **kwargs)
    lt = train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 50)
    lg = train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 50)
    np.testing.assert_allclose(lg, lt, atol=5e-5)
    assert lg[-1] < lg[0]
    for (n, pg), (_, pt) in zip(g.named_parameters(), t.named_parameters()):
        np.testing.assert_allclose(pg.detach().numpy(), pt.detach().numpy(), atol=2e-4, err_msg=n)


def test_maximize_ascends_like_torch():
    t, g, x, y = make_pair(1)
    neg = lambda loss_fn: (lambda out, target: -loss_fn(out, target))   # noqa: E731
    lt = train(t, torch.optim.SGD(t.parameters(), lr=0.05, momentum=0.9, maximize=True), x, y,
               neg(torch.nn.CrossEntropyLoss()), 20)
    lg = train(g, goptim.SGD(g.parameters(), lr=0.05, momentum=0.9, maximize=True), g_from(x), g_from(y),
               neg(gnn.CrossEntropyLoss()), 20)
    np.testing.assert_allclose(lg, lt, atol=5e-5)


def test_mse_regression_with_adam_matches_torch():
    torch.manual_seed(4)
    t = torch.nn.Linear(3, 1)
    g = gnn.Linear(3, 1)
    g.load_state_dict({k: g_from(v) for k, v in t.state_dict().items()})
    x, y = torch.randn(20, 3), torch.randn(20, 1)
    lt = train(t, torch.optim.Adam(t.parameters(), lr=0.05), x, y, torch.nn.MSELoss(), 50)
    lg = train(g, goptim.Adam(g.parameters(), lr=0.05), g_from(x), g_from(y), gnn.MSELoss(), 50)
    np.testing.assert_allclose(lg, lt, atol=5e-5)


@pytest.mark.parametrize("name,kwargs", [("SGD", dict(lr=0.1)), ("SGD", dict(lr=0.1, momentum=0.9)),
                                         ("Adam", {}), ("AdamW", {}), ("Adam", dict(amsgrad=True))])
def test_repr_matches_torch(name, kwargs):
    tp = [torch.nn.Parameter(torch.ones(2))]
    gp = [gnn.Parameter(gradlab.ones(2))]
    assert repr(getattr(goptim, name)(gp, **kwargs)) == repr(getattr(torch.optim, name)(tp, **kwargs))


def test_param_groups_repr_and_keys_match_torch():
    tp = [torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(1))]
    gp = [gnn.Parameter(gradlab.ones(2)), gnn.Parameter(gradlab.ones(1))]
    topt = torch.optim.SGD([{"params": [tp[0]]}, {"params": [tp[1]], "lr": 0.5}], lr=0.1, momentum=0.9)
    gopt = goptim.SGD([{"params": [gp[0]]}, {"params": [gp[1]], "lr": 0.5}], lr=0.1, momentum=0.9)
    assert repr(gopt) == repr(topt)
    assert [list(g) for g in gopt.param_groups] == [list(g) for g in topt.param_groups]
    assert gopt.param_groups[1]["params"][0] is gp[1]
    assert raised(lambda: gopt.add_param_group({"params": [gp[0]]})) == \
        raised(lambda: topt.add_param_group({"params": [tp[0]]}))


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW"])
def test_state_dict_matches_torch(name):
    kwargs = dict(lr=0.1, momentum=0.9) if name == "SGD" else {}
    t, g, x, y = make_pair(2)
    topt = getattr(torch.optim, name)(t.parameters(), **kwargs)
    gopt = getattr(goptim, name)(g.parameters(), **kwargs)
    train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 3)
    train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 3)
    ts, gs = topt.state_dict(), gopt.state_dict()
    assert gs["param_groups"] == ts["param_groups"]
    assert list(gs["state"]) == list(ts["state"])
    for i in ts["state"]:
        assert list(gs["state"][i]) == list(ts["state"][i])
        for k, v in ts["state"][i].items():
            assert gs["state"][i][k].shape == tuple(v.shape)
            np.testing.assert_allclose(gs["state"][i][k].numpy(), v.numpy(), rtol=1e-4, atol=1e-6)


def test_load_state_dict_resumes_training():
    _, g, x, y = make_pair(3)
    xg, yg = g_from(x), g_from(y)
    opt = goptim.Adam(g.parameters(), lr=0.01)
    train(g, opt, xg, yg, gnn.CrossEntropyLoss(), 5)
    model_sd = {k: v.clone() for k, v in g.state_dict().items()}
    opt_sd = opt.state_dict()
    import copy
    opt_sd = copy.deepcopy(opt_sd)
    expected = train(g, opt, xg, yg, gnn.CrossEntropyLoss(), 5)
    _, g2, _, _ = make_pair(3)
    g2.load_state_dict(model_sd)
    opt2 = goptim.Adam(g2.parameters(), lr=0.5)
    opt2.load_state_dict(opt_sd)
    assert opt2.param_groups[0]["lr"] == 0.01
    assert opt2.param_groups[0]["params"][0] is g2[0].weight
    np.testing.assert_allclose(train(g2, opt2, xg, yg, gnn.CrossEntropyLoss(), 5), expected, rtol=1e-6)


def test_zero_grad_and_step_details():
    p = gnn.Parameter(gradlab.tensor([1.0, 2.0]))
    q = gnn.Parameter(gradlab.tensor([3.0]))
    opt = goptim.SGD([p, q], lr=0.5)
    (p * p).sum().backward()
    version = p._version
    opt.step()                       # q has no gradient: skipped
    np.testing.assert_allclose(p.detach().numpy(), [0.0, 0.0])
    np.testing.assert_allclose(q.detach().numpy(), [3.0])
    assert p._version == version + 1 and p.is_leaf and p.grad_fn is None
    opt.zero_grad(set_to_none=False)
    assert p.grad is not None and not p.grad.numpy().any()
    opt.zero_grad()
    assert p.grad is None
    calls = []

    def closure():
        calls.append(gradlab.is_grad_enabled())
        opt.zero_grad()
        loss = (q * q).sum()
        loss.backward()
        return loss
    with gradlab.no_grad():
        loss = opt.step(closure)
    assert calls == [True] and loss.item() == 9.0
    np.testing.assert_allclose(q.detach().numpy(), [0.0])


@pytest.mark.parametrize("call", [
    lambda lib, p: lib.optim.SGD(p, lr=-1),
    lambda lib, p: lib.optim.SGD(p, lr=0.1, momentum=-1),
    lambda lib, p: lib.optim.SGD(p, lr=0.1, weight_decay=-1),
    lambda lib, p: lib.optim.SGD(p, lr=0.1, nesterov=True),
    lambda lib, p: lib.optim.SGD([], lr=0.1),
    lambda lib, p: lib.optim.SGD(p[0], lr=0.1),
    lambda lib, p: lib.optim.Adam(p, betas=(1.0, 0.9)),
    lambda lib, p: lib.optim.Adam(p, betas=(0.9, 1.5)),
    lambda lib, p: lib.optim.Adam(p, eps=-1),
    lambda lib, p: lib.optim.Adam(p, weight_decay=-1),
    lambda lib, p: lib.optim.AdamW(p, lr=-0.5),
])
def test_constructor_errors_match_torch(call):
    assert raised(lambda: call(gradlab, [gnn.Parameter(gradlab.ones(2))])) == \
        raised(lambda: call(torch, [torch.nn.Parameter(torch.ones(2))]))
    assert raised(lambda: call(torch, [torch.nn.Parameter(torch.ones(2))])) is not None


def test_nonleaf_parameter_error_matches_torch():
    a = gradlab.ones(2, requires_grad=True) * 2
    b = torch.ones(2, requires_grad=True) * 2
    assert raised(lambda: goptim.SGD([a], lr=0.1)) == raised(lambda: torch.optim.SGD([b], lr=0.1))
