"""Shape mistakes get PyTorch's exception and message, word for word; valid calls get its shapes.

6,000 random calls (a random op from the list below, on random shapes of up to 3 dims with sizes
1-3, with random dims and sizes, most of them wrong) run under gradlab and under torch. The
outcome (the result's shape, dtype and grad_fn, or the exception's type and first line) must be
the same. Seeds are fixed.

known_difference names what does not match yet: `expand(-1, ...)` of a 0-d tensor (ON_0D).
"""
import random

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::RuntimeWarning")]


def _shape(rnd):
    return tuple(rnd.choice([1, 2, 3]) for _ in range(rnd.choice([0, 1, 2, 3])))


def case(seed):
    rnd = random.Random(seed)
    a, b = _shape(rnd), _shape(rnd)
    d = rnd.choice([-4, -3, -2, -1, 0, 1, 2, 3])
    d2 = rnd.choice([-2, -1, 0, 1, 2])
    n = rnd.choice([-1, 1, 2, 3, 4, 6, 12])
    expressions = [
        "a + b", "a * b", "a @ b", "a.mm(b)", "a.bmm(b)", "a.mv(b)", "a.dot(b)", "a.matmul(b)",
        f"a.view({n})", f"a.view({n}, -1)", f"a.reshape({n}, 2)", f"a.sum({d})", f"a.mean({d})",
        f"a.sum(({d}, {d2}))", "a.t()", f"a.transpose({d}, {d2})", f"torch.cat([a, b], {d})",
        f"torch.stack([a, b], {d})", f"a.expand({n}, {n})", f"a.squeeze({d})", f"a.unsqueeze({d})",
        f"a.permute({d}, {d2})", f"a[{d}]", f"a[:, {d}]", f"a.max({d})", f"a.argmax({d})", f"a.softmax({d})",
        f"a.log_softmax({d})", f"a.flatten({d}, {d2})", f"a.split({n}, {d})", f"a.chunk({n}, {d})",
        f"a.narrow({d}, 0, {n})", f"a.select({d}, {d2})", f"a.repeat({n}, 1)", f"a.flip({d})", f"a.roll(1, {d})",
        f"a.cumsum({d})", f"a.std({d})", f"a.var({d})", f"a.norm(dim={d})", f"a.prod({d})", f"a.logsumexp({d})",
        f"a.amax({d})", "torch.where(a > 0, a, b)", "a.masked_fill(b > 0, 1.0)",
        f"a.gather({d}, torch.zeros_like(b, dtype=torch.long))", f"a.index_select({d}, torch.tensor([0]))",
        f"a.clamp({d2}, {d})", "a.expand_as(b)", "a.view_as(b)", f"a.unbind({d})", "a.trace()",
        "torch.outer(a, b)",
    ]
    return a, b, rnd.choice(expressions)


# expand(-1, ...) of a 0-d tensor: PyTorch fails in its size arithmetic ("numel: integer multiplication
# overflow"), gradlab with the message of a -1 in a new leading dim
ON_0D = ("a.expand(-1",)


def known_difference(a, b, expression):
    return a == () and expression.startswith(ON_0D)


def outcome(module, a, b, expression):
    rng = np.random.default_rng(0)
    A = module.tensor(rng.standard_normal(a).astype(np.float32), requires_grad=True)
    B = module.tensor(rng.standard_normal(b).astype(np.float32))
    try:
        r = eval(expression, {"torch": module, "a": A, "b": B})
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
    if isinstance(r, (tuple, list)):
        return "tuple " + str([tuple(x.shape) for x in r])
    return f"{tuple(r.shape)} {r.dtype} {type(r.grad_fn).__name__ if r.grad_fn is not None else None}"


CASES = [case(seed) for seed in range(6000)]


@pytest.mark.parametrize("a, b, expression", [c for c in CASES if not known_difference(*c)],
                         ids=[f"{c[2]}-{c[0]}-{c[1]}" for c in CASES if not known_difference(*c)])
def test_same_as_pytorch(a, b, expression):
    assert outcome(gradlab, a, b, expression) == outcome(torch, a, b, expression)


def test_the_known_differences_are_few():
    """What is left out above stays a short, named list (it must shrink, not grow)."""
    assert sum(known_difference(*c) for c in CASES) <= 1
