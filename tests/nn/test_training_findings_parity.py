"""What the training-program fuzzer (tests/fuzz/test_training_fuzz.py) found, as generated cases against live torch:
float64 batch norm's output bit for bit (PyTorch's kernel: fused multiply-adds, its per-channel running sums), the
optimizers' 'step' counter in PyTorch's scalar dtype, and the optimizer's message for a module passed as params."""
import random

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


def _bn_cases(count=120):
    r = random.Random(14)
    cases = []
    while len(cases) < count:
        nd = r.choice([2, 3, 4])
        shape = [r.randint(1, 5), r.randint(1, 5)] + [r.randint(1, 4) for _ in range(nd - 2)]
        if shape[0] * int(np.prod(shape[2:])) < 2:
            continue
        cases.append((len(cases), tuple(shape), r.random() < 0.7, r.random() < 0.8, r.random() < 0.8))
    return cases


# Open cases (none now: the ~2 % of (N, C, L) inputs whose invstd differed in the last bit were the odd image sizes,
# where PyTorch's variance loop adds each row's last element with a fused multiply-add).
OPEN_BN_CASES = set()


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.xfail(strict=True, reason="open: invstd last bit"))
                                  if c[0] in OPEN_BN_CASES else c for c in _bn_cases()],
                         ids=lambda c: f"{c[0]}-{c[1]}-train{c[2]}-affine{c[3]}-track{c[4]}")
def test_float64_batch_norm_forward_bits(case):
    _, shape, train, affine, track = case
    name = "BatchNorm2d" if len(shape) == 4 else "BatchNorm1d"
    torch.manual_seed(case[0])
    tb = getattr(torch.nn, name)(shape[1], affine=affine, track_running_stats=track, dtype=torch.float64)
    gb = getattr(gradlab.nn, name)(shape[1], affine=affine, track_running_stats=track, dtype=gradlab.float64)
    with torch.no_grad():
        if affine:
            tb.weight.normal_()
            tb.bias.normal_()
        if track:
            tb.running_mean.normal_()
            tb.running_var.uniform_(0.5, 2.0)
    gb.load_state_dict({k: gradlab.tensor(v.numpy()) for k, v in tb.state_dict().items()})
    if not train:
        tb.eval()
        gb.eval()
    x = torch.randn(*shape, dtype=torch.float64)
    expected = tb(x).detach().numpy()
    got = gb(gradlab.tensor(x.numpy())).detach().numpy()
    assert got.tobytes() == expected.tobytes(), np.abs(got - expected).max()
    for key, value in tb.state_dict().items():
        assert gb.state_dict()[key].numpy().tobytes() == value.numpy().tobytes(), key


@pytest.mark.parametrize("default", ["float32", "float64"])
@pytest.mark.parametrize("name", ["Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta"])
def test_optimizer_step_counter_dtype(name, default):
    states = []
    for lib in (torch, gradlab):
        lib.set_default_dtype(getattr(lib, default))
        try:
            p = lib.nn.Parameter(lib.ones(2, dtype=lib.float64))
            opt = getattr(lib.optim, name)([p], lr=0.1)
            p.grad = lib.full((2,), 0.5, dtype=lib.float64)
            opt.step()
            states.append(repr(opt.state_dict()["state"][0]["step"]).replace("gradlab", "torch"))
        finally:
            lib.set_default_dtype(lib.float32)
    assert states[0] == states[1]


def test_module_given_as_params_names_its_class():
    messages = []
    for lib in (torch, gradlab):
        with pytest.raises(TypeError) as info:
            lib.optim.SGD(lib.nn.Sequential(lib.nn.Linear(2, 2)), lr=0.1)
        messages.append(str(info.value).replace("gradlab", "torch"))
    assert messages[0] == messages[1]


@pytest.mark.parametrize("seed", range(60))
def test_float64_batch_norm_backward_bits_2d(seed):
    """(N, C) in training: the input's gradient fuses a multiply-add over whole vectors of 4 channels, as PyTorch's
    channels-last kernel. (N, C, ...) inputs are still open: see test_training_fuzz.py's OPEN_SEEDS."""
    r = random.Random(seed)
    n, c = r.randint(2, 6), r.randint(1, 12)
    torch.manual_seed(seed)
    x, w, b, g = (torch.randn(*s, dtype=torch.float64) for s in ((n, c), (c,), (c,), (n, c)))
    leaves = [t.clone().requires_grad_() for t in (x, w, b)]
    torch.nn.functional.batch_norm(leaves[0], None, None, leaves[1], leaves[2], True).backward(g)
    ours = [gradlab.tensor(t.numpy(), requires_grad=True) for t in (x, w, b)]
    gradlab.nn.functional.batch_norm(ours[0], None, None, ours[1], ours[2], True).backward(gradlab.tensor(g.numpy()))
    for name, theirs, mine in zip(("input", "weight", "bias"), leaves, ours):
        assert mine.grad.numpy().tobytes() == theirs.grad.numpy().tobytes(), name
