"""RMSprop, Adagrad, Adadelta and optim.lr_scheduler against torch: training runs over generated option
combinations, parameter groups, state_dict, repr, errors and the scheduler warnings."""
import copy
import itertools
import warnings

import numpy as np
import pytest

import gradlab
import gradlab.nn as gnn
import gradlab.optim as goptim

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch
torch.set_num_threads(1)


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
    t = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 3))
    g = gnn.Sequential(gnn.Linear(4, 8), gnn.Tanh(), gnn.Linear(8, 3))
    g.load_state_dict({k: g_from(v) for k, v in t.state_dict().items()})
    return t, g, torch.randn(16, 4), torch.randint(0, 3, (16,))


def train(model, opt, x, y, loss_fn, steps, sched=None):
    losses = []
    for _ in range(steps):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.item())
    return losses


def _combos(base, options):
    keys = list(options)
    for values in itertools.product(*(options[k] for k in keys)):
        yield dict(base, **dict(zip(keys, values)))


CONFIGS = ([("RMSprop", kw) for kw in _combos(dict(lr=0.01), dict(momentum=[0, 0.9], centered=[False, True],
                                                                      weight_decay=[0, 0.1], maximize=[False]))]
           + [("RMSprop", dict(lr=0.005, alpha=0.9, eps=1e-6))]
           + [("Adagrad", kw) for kw in _combos(dict(lr=0.1), dict(lr_decay=[0, 0.01], weight_decay=[0, 0.05],
                                                                      initial_accumulator_value=[0, 0.1]))]
           + [("Adadelta", kw) for kw in _combos(dict(), dict(lr=[1.0, 0.5], rho=[0.9, 0.5],
                                                                weight_decay=[0, 0.1]))]
           + [("Adadelta", dict(eps=1e-4))])


@pytest.mark.parametrize("name,kwargs", CONFIGS, ids=[f"{n}-{k}" for n, k in CONFIGS])
def test_thirty_steps_match_torch(name, kwargs):
    t, g, x, y = make_pair()
    topt = getattr(torch.optim, name)(t.parameters(), **kwargs)
    gopt = getattr(goptim, name)(g.parameters(), **kwargs)
    lt = train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 30)
    lg = train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 30)
    np.testing.assert_allclose(lg, lt, atol=2e-5)
    for (n, pg), (_, pt) in zip(g.named_parameters(), t.named_parameters()):
        np.testing.assert_allclose(pg.detach().numpy(), pt.detach().numpy(), atol=1e-4, err_msg=n)
    ts, gs = topt.state_dict(), gopt.state_dict()
    assert gs["param_groups"] == ts["param_groups"]
    for i in ts["state"]:
        assert list(gs["state"][i]) == list(ts["state"][i])
        for k, v in ts["state"][i].items():
            assert gs["state"][i][k].dtype == getattr(gradlab, str(v.dtype).split(".")[1])
            np.testing.assert_allclose(gs["state"][i][k].numpy(), v.numpy(), rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "Adadelta"])
def test_maximize_matches_torch(name):
    t, g, x, y = make_pair(1)
    topt = getattr(torch.optim, name)(t.parameters(), lr=0.01, maximize=True)
    gopt = getattr(goptim, name)(g.parameters(), lr=0.01, maximize=True)
    lt = train(t, topt, x, y, lambda o, yy: -torch.nn.functional.cross_entropy(o, yy), 10)
    lg = train(g, gopt, g_from(x), g_from(y), lambda o, yy: -gnn.functional.cross_entropy(o, yy), 10)
    np.testing.assert_allclose(lg, lt, atol=2e-5)


@pytest.mark.parametrize("name,kwargs", [("RMSprop", {}), ("RMSprop", dict(momentum=0.9, centered=True)),
                                         ("Adagrad", {}), ("Adagrad", dict(lr_decay=0.1)), ("Adadelta", {}),
                                         ("Adadelta", dict(rho=0.5, weight_decay=0.1))])
def test_repr_matches_torch(name, kwargs):
    tp = [torch.nn.Parameter(torch.ones(2))]
    gp = [gnn.Parameter(gradlab.ones(2))]
    assert repr(getattr(goptim, name)(gp, **kwargs)) == repr(getattr(torch.optim, name)(tp, **kwargs))


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "Adadelta", "SGD", "Adam"])
def test_param_groups_with_own_lr_match_torch(name):
    t, g, x, y = make_pair(2)
    topt = getattr(torch.optim, name)([{"params": t[0].parameters()},
                                       {"params": t[2].parameters(), "lr": 0.05}], lr=0.01)
    gopt = getattr(goptim, name)([{"params": g[0].parameters()},
                                  {"params": g[2].parameters(), "lr": 0.05}], lr=0.01)
    assert repr(gopt) == repr(topt)
    lt = train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 10)
    lg = train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 10)
    np.testing.assert_allclose(lg, lt, atol=2e-5)


def test_add_param_group_later_matches_torch():
    t, g, x, y = make_pair(3)
    topt = torch.optim.Adagrad(t[0].parameters(), lr=0.1)
    gopt = goptim.Adagrad(g[0].parameters(), lr=0.1)
    topt.add_param_group({"params": t[2].parameters(), "lr": 0.01})
    gopt.add_param_group({"params": g[2].parameters(), "lr": 0.01})
    assert repr(gopt) == repr(topt)
    np.testing.assert_allclose(train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 5),
                               train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 5), atol=2e-5)


@pytest.mark.parametrize("name", ["RMSprop", "Adagrad", "Adadelta"])
def test_state_dict_round_trip_resumes(name):
    _, g, x, y = make_pair(4)
    xg, yg = g_from(x), g_from(y)
    opt = getattr(goptim, name)(g.parameters(), lr=0.01)
    train(g, opt, xg, yg, gnn.CrossEntropyLoss(), 3)
    model_sd = {k: v.clone() for k, v in g.state_dict().items()}
    opt_sd = copy.deepcopy(opt.state_dict())      # (its tensors are the live state, as in torch)
    expected = train(g, opt, xg, yg, gnn.CrossEntropyLoss(), 3)
    _, g2, _, _ = make_pair(4)
    g2.load_state_dict(model_sd)
    opt2 = getattr(goptim, name)(g2.parameters(), lr=0.5)
    opt2.load_state_dict(opt_sd)
    assert opt2.param_groups[0]["lr"] == 0.01
    np.testing.assert_allclose(train(g2, opt2, xg, yg, gnn.CrossEntropyLoss(), 3), expected, rtol=1e-6)


@pytest.mark.parametrize("call", [
    lambda lib, p: lib.optim.RMSprop(p, lr=-1),
    lambda lib, p: lib.optim.RMSprop(p, alpha=-1),
    lambda lib, p: lib.optim.RMSprop(p, eps=-1),
    lambda lib, p: lib.optim.RMSprop(p, momentum=-0.5),
    lambda lib, p: lib.optim.RMSprop(p, weight_decay=-1),
    lambda lib, p: lib.optim.Adagrad(p, lr=-1),
    lambda lib, p: lib.optim.Adagrad(p, lr_decay=-1),
    lambda lib, p: lib.optim.Adagrad(p, initial_accumulator_value=-1),
    lambda lib, p: lib.optim.Adagrad(p, eps=-1),
    lambda lib, p: lib.optim.Adadelta(p, rho=1.5),
    lambda lib, p: lib.optim.Adadelta(p, lr=-1),
    lambda lib, p: lib.optim.Adadelta(p, weight_decay=-1),
    lambda lib, p: lib.optim.RMSprop([], lr=0.1),
])
def test_constructor_errors_match_torch(call):
    expected = raised(lambda: call(torch, [torch.nn.Parameter(torch.ones(2))]))
    assert expected is not None
    assert raised(lambda: call(gradlab, [gnn.Parameter(gradlab.ones(2))])) == expected


# --- lr_scheduler --------------------------------------------------------------------------------------------
SCHEDULERS = [
    ("StepLR", dict(step_size=3)), ("StepLR", dict(step_size=2, gamma=0.5)),
    ("MultiStepLR", dict(milestones=[2, 5, 5, 8])), ("MultiStepLR", dict(milestones=[3], gamma=0.3)),
    ("ExponentialLR", dict(gamma=0.9)),
    ("CosineAnnealingLR", dict(T_max=5)), ("CosineAnnealingLR", dict(T_max=4, eta_min=0.01)),
    ("LambdaLR", dict(lr_lambda=lambda e: 0.95 ** e)),
    ("MultiplicativeLR", dict(lr_lambda=lambda e: 0.9)),
    ("LinearLR", dict(start_factor=0.25, total_iters=4)), ("LinearLR", dict(end_factor=0.5)),
    ("ConstantLR", dict(factor=0.5, total_iters=3)),
    ("OneCycleLR", dict(max_lr=0.5, total_steps=13)),
    ("PolynomialLR", dict(total_iters=6, power=2.0)),
    ("CosineAnnealingWarmRestarts", dict(T_0=3)), ("CosineAnnealingWarmRestarts", dict(T_0=2, T_mult=2, eta_min=0.01)),
    ("OneCycleLR", dict(max_lr=0.3, epochs=3, steps_per_epoch=4, anneal_strategy="linear", three_phase=True)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=3)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.2, step_size_up=2, step_size_down=4, mode="triangular2")),
    ("CyclicLR", dict(base_lr=[0.02], max_lr=0.1, step_size_up=3, mode="exp_range", gamma=0.9)),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2, scale_fn=lambda x: 0.5, scale_mode="iterations")),
    ("CyclicLR", dict(base_lr=0.01, max_lr=0.1, step_size_up=2, cycle_momentum=False)),
]


@pytest.mark.parametrize("opt_name", ["SGD", "Adam"])
@pytest.mark.parametrize("name,kwargs", SCHEDULERS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(SCHEDULERS)])
def test_scheduler_lrs_match_torch(opt_name, name, kwargs):
    t, g, x, y = make_pair(5)
    okw = dict(lr=0.1, momentum=0.9) if opt_name == "SGD" else dict(lr=0.1)
    topt = getattr(torch.optim, opt_name)(t.parameters(), **okw)
    gopt = getattr(goptim, opt_name)(g.parameters(), **okw)
    ts = getattr(torch.optim.lr_scheduler, name)(topt, **kwargs)
    gs = getattr(goptim.lr_scheduler, name)(gopt, **kwargs)
    tl, gl = [], []
    for _ in range(12):
        tl.append((ts.get_last_lr(), dict((k, v) for k, v in topt.param_groups[0].items() if k != "params")))
        gl.append((gs.get_last_lr(), dict((k, v) for k, v in gopt.param_groups[0].items() if k != "params")))
        train(t, topt, x, y, torch.nn.CrossEntropyLoss(), 1, ts)
        train(g, gopt, g_from(x), g_from(y), gnn.CrossEntropyLoss(), 1, gs)
    assert gl == tl
    assert repr(gopt) == repr(topt)
    tsd, gsd = ts.state_dict(), gs.state_dict()
    assert sorted(gsd) == sorted(tsd)
    for k in tsd:
        if k not in ("lr_lambdas",):
            assert gsd[k] == tsd[k], k


@pytest.mark.parametrize("combine", ["SequentialLR", "ChainedScheduler"])
def test_combined_schedulers_match_torch(combine):
    def run(lib):
        p = [lib.nn.Parameter(lib.ones(2))]
        opt = lib.optim.SGD(p, lr=0.1)
        sch = lib.optim.lr_scheduler
        first = sch.LinearLR(opt, start_factor=0.1, total_iters=3)
        second = sch.ExponentialLR(opt, gamma=0.8)
        if combine == "SequentialLR":
            s = sch.SequentialLR(opt, [first, second], milestones=[3])
        else:
            s = sch.ChainedScheduler([first, second])
        lrs = []
        for _ in range(8):
            opt.step()
            s.step()
            lrs.append(s.get_last_lr())
        state = s.state_dict()
        return lrs, sorted(state), [sorted(x) for x in state["_schedulers"]]
    assert run(gradlab) == run(torch)


@pytest.mark.parametrize("kwargs", [dict(), dict(mode="max", factor=0.5, patience=1),
                                    dict(patience=0, cooldown=2, min_lr=0.02, threshold_mode="abs", threshold=0.1)])
def test_reduce_lr_on_plateau_matches_torch(kwargs):
    metrics = [1.0, 0.9, 0.95, 0.95, 0.95, 0.8, 0.8, 0.8, 0.8, 0.85, 0.9, 0.9, 0.7] * 2
    tp, gp = [torch.nn.Parameter(torch.ones(2))], [gnn.Parameter(gradlab.ones(2))]
    topt, gopt = torch.optim.SGD(tp, lr=0.1), goptim.SGD(gp, lr=0.1)
    ts = torch.optim.lr_scheduler.ReduceLROnPlateau(topt, **kwargs)
    gs = goptim.lr_scheduler.ReduceLROnPlateau(gopt, **kwargs)
    for m in metrics:
        ts.step(m)
        gs.step(m)
        assert gs.get_last_lr() == ts.get_last_lr()
        assert (gs.num_bad_epochs, gs.best, gs.cooldown_counter) == (ts.num_bad_epochs, ts.best, ts.cooldown_counter)


def _warnings_of(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fn()
    return [f"{w.category.__name__}: {w.message}" for w in caught]


def test_scheduler_step_before_optimizer_step_warns_like_torch():
    def run(lib, params):
        opt = lib.optim.SGD(params, lr=0.1)
        sched = lib.optim.lr_scheduler.StepLR(opt, 1)
        sched.step()
        sched.get_lr()
        sched.step(3)
        return sched.get_last_lr()
    tp, gp = [torch.nn.Parameter(torch.ones(2))], [gnn.Parameter(gradlab.ones(2))]
    got = _warnings_of(lambda: run(gradlab, gp))
    assert got == _warnings_of(lambda: run(torch, tp))
    assert len(got) == 3


def test_scheduler_errors_match_torch():
    tp, gp = [torch.nn.Parameter(torch.ones(2))], [gnn.Parameter(gradlab.ones(2))]
    for lib, p in ((torch, tp), (gradlab, gp)):
        p.append(lib.optim.SGD(p[:1], lr=0.1))
    cases = [
        lambda lib, o: lib.optim.lr_scheduler.StepLR("opt", 2),
        lambda lib, o: lib.optim.lr_scheduler.StepLR(o, 2, last_epoch=3),
        lambda lib, o: lib.optim.lr_scheduler.LambdaLR(o, [lambda e: 1, lambda e: 2]),
        lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, factor=1.5),
        lambda lib, o: lib.optim.lr_scheduler.ReduceLROnPlateau(o, mode="up"),
        lambda lib, o: lib.optim.lr_scheduler.LinearLR(o, start_factor=0),
        lambda lib, o: lib.optim.lr_scheduler.OneCycleLR(o, 0.1),
    ]
    for case in cases:
        expected = raised(lambda: case(torch, tp[1]))
        assert expected is not None
        assert raised(lambda: case(gradlab, gp[1])) == expected
