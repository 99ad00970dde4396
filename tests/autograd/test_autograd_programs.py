"""Random little programs of ops, views and in-place changes, run under gradlab and under torch.

Each seed makes one program of about a dozen steps on 2x3 tensors: out-of-place ops, views
(`t()`, `[0]`, `[:, 1]`, `view(-1)`, `[1:]`), and in-place changes of tensors and of views
(`mul_`, `add_`, `zero_`, item assignment), then `backward()` of a sum over everything. The
values of every tensor, the leaf's gradient, or the error raised must agree with torch. Seeds are
fixed: a failure names the program, and the same program fails again.
"""
import random

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
# exp of exp overflows to inf in both libraries; gradlab silences numpy's warnings itself, but
# pytest resets warning filters inside tests
pytestmark = [pytest.mark.torch, pytest.mark.filterwarnings("ignore::RuntimeWarning")]

UNARY = ["{a}.sin()", "{a} * 2", "{a} + 1", "{a}.tanh()", "({a} * 0.5).exp()", "{a}.relu()"]
BINARY = ["{a} + {b}", "{a} * {b}", "{a} - {b}"]
VIEWS_2D = ["{a}.t()", "{a}[0]", "{a}[:, 1]", "{a}.view(-1)", "{a}[1:]", "{a}[:, None]"]
VIEWS_1D = ["{a}[1:]", "{a}[0]", "{a}.unsqueeze(0)", "{a}[:]"]
IN_PLACE = ["{a}.mul_(2)", "{a}.add_(1)", "{a}.zero_()", "{a}.exp_()", "{a}.mul_({b})", "{a}.add_({b})",
            "{a}[0] = 3.0", "{a}.sin_()"]


def program(seed):
    """A list of statements over variables v0, v1, ... (v0 is the leaf x)."""
    rnd = random.Random(seed)
    lines = ["v0 = x", "v1 = x * 1.5"]
    dims = {"v0": 2, "v1": 2}
    for step in range(2, 14):
        name = f"v{step}"
        kind = rnd.random()
        a = rnd.choice(sorted(dims))
        if kind < 0.3:
            lines.append(f"{name} = " + rnd.choice(UNARY).format(a=a))
            dims[name] = dims[a]
        elif kind < 0.45:
            same = [v for v in sorted(dims) if dims[v] == dims[a]]
            lines.append(f"{name} = " + rnd.choice(BINARY).format(a=a, b=rnd.choice(same)))
            dims[name] = dims[a]
        elif kind < 0.7:
            views = VIEWS_2D if dims[a] == 2 else VIEWS_1D
            expr = rnd.choice(views)
            lines.append(f"{name} = " + expr.format(a=a))
            dims[name] = {"[0]": dims[a] - 1, "[:, 1]": 1, "view(-1)": 1, "[:, None]": 3,
                          "unsqueeze(0)": 2}.get(next((k for k in ("[0]", "[:, 1]", "view(-1)", "[:, None]",
                                                             "unsqueeze(0)") if k in expr), ""), dims[a])
            if dims[name] > 2 or dims[name] < 1:
                lines.pop()
                del dims[name]
                continue
        else:
            target = rnd.choice([v for v in sorted(dims) if v != "v0"])
            same = [v for v in sorted(dims) if dims[v] <= dims[target]]
            lines.append(rnd.choice(IN_PLACE).format(a=target, b=rnd.choice(same)))
    lines.append("loss = sum((v * 1).sum() for v in [" + ", ".join(sorted(dims)) + "])")
    lines.append("loss.backward()")
    return lines


def outcome(module, lines):
    """The error (type, line, start of the message), or every tensor's values and x.grad."""
    x = module.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    namespace = {"x": x}
    try:
        for line in lines:
            exec(line, namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__} at `{line}`: {str(error).split(':')[0][:60]}"
    values = {k: np.array(v.tolist(), dtype=float) for k, v in sorted(namespace.items())
              if k.startswith("v") and hasattr(v, "tolist")}
    values["x.grad"] = np.array(x.grad.tolist(), dtype=float)
    return values


def assert_same(mine, theirs, lines):
    """The same error, or the same named arrays (None where torch has None)."""
    listing = "\n".join(lines)
    if isinstance(theirs, str) or isinstance(mine, str):
        assert mine == theirs, listing
        return
    assert sorted(mine) == sorted(theirs), listing
    for name in theirs:
        assert (mine[name] is None) == (theirs[name] is None), f"{name}\n{listing}"
        if theirs[name] is not None:       # float32 through exp and products: compare relatively
            np.testing.assert_allclose(mine[name], theirs[name], rtol=1e-4, atol=1e-5, err_msg=f"{name}\n{listing}")


@pytest.mark.parametrize("seed", range(3000))
def test_same_as_pytorch(seed):
    lines = program(seed)
    assert_same(outcome(gradlab, lines), outcome(torch, lines), lines)


# --- second family: broadcasting, reductions, matmul, detach, no_grad, hooks, retain_grad ---------

def graph_program(seed):
    """Statements over leaves x (2, 3) and w (3,); every var's shape is tracked to keep ops valid."""
    rnd = random.Random(seed)
    lines = ["v0 = x * 1", "v1 = w + 0"]
    shapes = {"v0": (2, 3), "v1": (3,)}
    retained, hooked = [], []
    for step in range(2, 12):
        name = f"v{step}"
        a = rnd.choice(sorted(shapes))
        sa = shapes[a]
        kind = rnd.randrange(9)
        if kind == 0:
            lines.append(f"{name} = " + rnd.choice(UNARY).format(a=a))
            shapes[name] = sa
        elif kind == 1:
            partners = [v for v in sorted(shapes) if _broadcasts(sa, shapes[v])]
            b = rnd.choice(partners)
            lines.append(f"{name} = " + rnd.choice(BINARY).format(a=a, b=b))
            shapes[name] = np.broadcast_shapes(sa, shapes[b])
        elif kind == 2 and len(sa) == 2:
            dim = rnd.randrange(2)
            keep = rnd.random() < 0.5
            lines.append(f"{name} = {a}.sum({dim}, keepdim={keep})")
            shapes[name] = tuple(1 if (i == dim) else s for i, s in enumerate(sa)) if keep else \
                tuple(s for i, s in enumerate(sa) if i != dim)
        elif kind == 3:
            lines.append(f"{name} = {a}.mean()" if rnd.random() < 0.5 else f"{name} = {a}.sum() * 0.1")
            shapes[name] = ()
        elif kind == 4 and sa == (2, 3):
            other = rnd.choice([v for v in sorted(shapes) if shapes[v] in ((3,), (2, 3))])
            if shapes[other] == (3,):
                lines.append(f"{name} = {a} @ {other}")
                shapes[name] = (2,)
            else:
                lines.append(f"{name} = {a} @ {other}.t()")
                shapes[name] = (2, 2)
        elif kind == 5:
            lines.append(f"{name} = {a}.detach() * 2" if rnd.random() < 0.5 else
                         f"with torch.no_grad():\n    {name} = {a} * 3")
            shapes[name] = sa
        elif kind == 6 and a not in ("v0", "v1"):
            lines.append(f"{a}.retain_grad()")
            retained.append(a)
        elif kind == 7 and a not in hooked:
            lines.append(f"_ = {a}.register_hook(lambda g: g * 2) if {a}.requires_grad else None")
            hooked.append(a)
        elif kind == 8 and a not in ("v0", "v1"):
            partners = [v for v in sorted(shapes) if _broadcasts_into(shapes[v], sa)]
            lines.append(rnd.choice(["{a}.mul_(2)", "{a}.add_({b})", "{a}.sin_()"]).format(a=a, b=rnd.choice(partners)))
    terms = [f"({v} * 1).sum()" for v in sorted(shapes)]
    lines.append("loss = " + " + ".join(terms))
    lines.append("loss.backward(retain_graph=True)")
    if rnd.random() < 0.3:
        lines.append("loss.backward()")
    lines.append("grads = [x.grad, w.grad] + [" + ", ".join(f"{v}.grad" for v in retained) + "]")
    return lines


def _broadcasts(a, b):
    try:
        np.broadcast_shapes(a, b)
        return True
    except ValueError:
        return False


def _broadcasts_into(src, dst):
    return _broadcasts(src, dst) and np.broadcast_shapes(src, dst) == tuple(dst)


def graph_outcome(module, lines):
    namespace = {"torch": module, "x": module.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True),
                 "w": module.tensor([0.3, -0.6, 0.9], requires_grad=True)}
    try:
        exec("\n".join(lines), namespace)
    except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
        return f"{type(error).__name__}: {str(error).split(':')[0][:60]}"
    out = {k: np.array(v.tolist(), dtype=float) for k, v in sorted(namespace.items())
           if k.startswith("v") and hasattr(v, "tolist")}
    for i, g in enumerate(namespace["grads"]):
        out[f"grad{i}"] = None if g is None else np.array(g.tolist(), dtype=float)
    return out


@pytest.mark.parametrize("seed", range(1500))
def test_graph_programs_same_as_pytorch(seed):
    lines = graph_program(seed)
    assert_same(graph_outcome(gradlab, lines), graph_outcome(torch, lines), lines)


# --- the first family again, differentiated twice: the gradient formulas' own graphs ------------------

@pytest.mark.parametrize("seed", range(1000))
def test_double_backward_programs_same_as_pytorch(seed):
    lines = program(seed)[:-1] + ["g, = torch.autograd.grad(loss, x, create_graph=True)",
                                  "(g * g).sum().backward()"]
    results = []
    for module in (gradlab, torch):
        x = module.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
        namespace = {"x": x, "torch": module}
        try:
            exec("\n".join(lines), namespace)
            results.append((np.array(namespace["g"].tolist()), np.array(x.grad.tolist())))
        except Exception as error:  # noqa: BLE001
            results.append(f"{type(error).__name__}: {str(error).split(':')[0][:60]}")
    mine, theirs = results
    listing = "\n".join(lines)
    if isinstance(mine, str) or isinstance(theirs, str):
        assert mine == theirs, listing
        return
    for a, b, what in zip(mine, theirs, ("first gradient", "x.grad after the second backward")):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4, err_msg=f"{what}\n{listing}")
