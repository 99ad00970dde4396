"""optim.LBFGS against live torch on generated problems: the losses step() returns, the evaluation and iteration
counts, the parameters, the state's keys, the printed optimizer, errors and warnings.

The numbers are compared to a tolerance, not bit for bit: PyTorch's dot products and matrix-vector products are
MKL's, whose summation order differs from numpy's BLAS in the last bit, and L-BFGS's iterations amplify that
(float64: to 1e-6 after up to 60 iterations; float32, a few iterations only: to 1e-4)."""
import random
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _program(seed):
    rng = random.Random(seed)
    dtype = rng.choice(["float64", "float64", "float32"])
    kind = rng.choice(["least_squares", "mlp", "rosenbrock"])
    options = dict(lr=rng.choice([1, 0.5, 0.1]), max_iter=rng.choice([3, 5, 20]),
                   history_size=rng.choice([2, 5, 100]), line_search_fn=rng.choice([None, "strong_wolfe"]))
    if rng.random() < 0.3:
        options["tolerance_grad"] = rng.choice([1e-3, 1e-5])
    steps = rng.choice([1, 2, 3])
    if dtype == "float32":       # (few iterations: float32's last bits grow with each)
        steps, options["max_iter"] = 1, rng.choice([2, 3])
    return seed, dtype, kind, options, steps


def _run(lib, seed, dtype, kind, options, steps):
    dt = getattr(lib, dtype)
    lib.manual_seed(seed)
    if kind == "least_squares":
        A, b = lib.randn(6, 3, dtype=dt), lib.randn(6, dtype=dt)
        params = [lib.zeros(3, dtype=dt, requires_grad=True)]
        loss_fn = lambda: ((A @ params[0] - b) ** 2).sum()  # noqa: E731
    elif kind == "rosenbrock":
        params = [lib.tensor([-1.5, 2.0], dtype=dt, requires_grad=True)]
        loss_fn = lambda: (1 - params[0][0]) ** 2 + 100 * (params[0][1] - params[0][0] ** 2) ** 2  # noqa: E731
    else:
        x = lib.linspace(-1, 1, 12, dtype=dt).unsqueeze(1)
        y = lib.sin(3 * x)
        model = lib.nn.Sequential(lib.nn.Linear(1, 4), lib.nn.Tanh(), lib.nn.Linear(4, 1)).to(dt)
        params = list(model.parameters())
        loss_fn = lambda: ((model(x) - y) ** 2).mean()  # noqa: E731
    opt = lib.optim.LBFGS(params, **options)

    def closure():
        opt.zero_grad()
        loss = loss_fn()
        loss.backward()
        return loss

    record = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for _ in range(steps):
            loss = opt.step(closure)
            state = opt.state[params[0]]
            record.append((loss.item(), state["func_evals"], state["n_iter"]))
    record.append(sorted(opt.state_dict()["state"][0]))
    record.append(repr(opt))
    record.append([(w.category.__name__, str(w.message)) for w in caught])
    return record, [p.detach().numpy().copy() for p in params]


@pytest.mark.parametrize("program", [_program(s) for s in range(40)], ids=lambda p: f"seed{p[0]}-{p[1]}-{p[2]}")
def test_lbfgs_matches_torch(program):
    (expected, expected_params), (got, got_params) = _run(torch, *program), _run(gradlab, *program)
    tol = dict(rtol=1e-6, atol=1e-9) if program[1] == "float64" else dict(rtol=1e-4, atol=1e-6)
    assert got[-3:] == expected[-3:]                                         # keys, printed optimizer, warnings
    assert [r[1:] for r in got[:-3]] == [r[1:] for r in expected[:-3]]       # evaluations, iterations
    np.testing.assert_allclose([r[0] for r in got[:-3]], [r[0] for r in expected[:-3]], **tol)
    for a, b in zip(got_params, expected_params):
        np.testing.assert_allclose(a, b, **tol)


def _outcome(fn):
    try:
        return "ok", repr(fn())
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e)


@pytest.mark.parametrize("call", [
    "LBFGS([p], lr=-1)", "LBFGS([{'params': [p]}, {'params': [q]}])", "LBFGS([p], lr=torch.ones(2))",
    "LBFGS([p], line_search_fn='wolfe').step(lambda: (p * p).sum())", "LBFGS([], lr=1)",
    "LBFGS([p], max_iter=4).defaults",
])
def test_lbfgs_errors_match_torch(call):
    def run(lib):
        p, q = lib.ones(2, requires_grad=True), lib.ones(3, requires_grad=True)
        namespace = {"torch": lib, "p": p, "q": q, "LBFGS": lib.optim.LBFGS}
        return _outcome(lambda: eval(call, namespace))
    assert run(gradlab) == run(torch)


@pytest.mark.parametrize("mode", ["enable_grad", "no_grad", "inference_mode"])
def test_scalar_conversion_warns_only_with_grad_mode_on(mode):
    """float() of a tensor that requires grad warns under grad mode only (LBFGS reads its loss so, under no_grad)."""
    def run(lib):
        lib.set_warn_always(True)
        try:
            x = lib.ones(1, requires_grad=True) * 2
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                with getattr(lib, mode)():
                    float(x), x.item(), bool(x)
            return [str(w.message) for w in caught]
        finally:
            lib.set_warn_always(False)
    assert run(gradlab) == run(torch)
