"""A view reads its base's autograd state, as in PyTorch (the program fuzzer's seeds 110, 164, 375; 504, 1289, 1911).

PyTorch's view of a leaf requires grad when its base does, also when the base was given requires_grad_() after the
view was taken: the view is then a leaf that requires grad with no AccumulateGrad of its own (ops on it record edges
to nothing), its own flag stays separate (requires_grad_(False) on it changes nothing while the base requires grad),
and an in-place op on it is refused with the message of its creation (a view, or a view made under no_grad).

After an untracked change of a leaf that requires grad (under no_grad, through a detached alias, copy_ of itself),
its views made before read through it: PyTorch gives them AsStridedBackward0 the next time it looks at them.

Generated programs: a view made one way, in one grad mode, then the flags of base and view changed in some order,
then probes; each statement runs under gradlab and under torch and its outcome (value, requires_grad, is_leaf,
grad_fn and its next_functions, gradients, or the exception) must be the same.
"""
import itertools
import warnings

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

VIEWS = ["a[1:]", "a[0]", "a.t()", "a.view(6)", "a.unsqueeze(0)", "a.diagonal()", "a.unbind(0)[1]",
         "a.narrow(1, 0, 1)", "a[1:][::2]", "a.expand(2, 3, 2)", "a.split(1)[0]"]
MODES = ["", "with torch.no_grad():\n    "]          # the view taken with grad on, or under no_grad
FLAG_STEPS = [
    ["a.requires_grad_()"],
    ["a.requires_grad = True"],
    ["a.requires_grad_()", "a.requires_grad_(False)"],
    ["a.requires_grad_()", "v.requires_grad_(False)"],
    ["a.requires_grad_()", "v.requires_grad_(True)"],
    ["a.requires_grad_()", "v.requires_grad_(True)", "a.requires_grad_(False)"],
    ["a.requires_grad_()", "v.requires_grad_(True)", "v.requires_grad_(False)"],
    ["v.requires_grad_()", "a.requires_grad_()", "a.requires_grad_(False)"],
]
PROBES = [
    "(v.requires_grad, v.is_leaf, v.grad_fn)",
    "v",
    "w = v * 2; r = (w.requires_grad, w.grad_fn, w.grad_fn and w.grad_fn.next_functions)",
    "w = v[..., :1]; r = (w.requires_grad, w.grad_fn, w.grad_fn and w.grad_fn.next_functions)",
    "(v * v).sum().backward(); r = (a.grad, v.grad)",
    "torch.autograd.grad((v * 3).sum(), v)",
    "torch.autograd.grad((v * 3).sum(), a, allow_unused=True)",
    "v.mul_(2)",
    "v.retain_grad(); r = v.retains_grad",
    "(v.requires_grad, a.requires_grad, v.is_leaf, a._version)",
]


def _describe(value):
    if isinstance(value, (tuple, list)):
        return type(value).__name__, tuple(_describe(v) for v in value)
    if type(value).__name__ in ("Tensor", "Parameter"):
        return ("Tensor", str(value), str(value.dtype), value.requires_grad, value.is_leaf,
                value.grad_fn.name() if value.grad_fn is not None else None)
    if hasattr(value, "next_functions"):           # a node: its name (its address differs)
        return "Node", value.name()
    return type(value).__name__, str(value)


def transcript(module, statements):
    """Each statement's outcome: `r = ...` statements and expressions give their value, the others 'ok'."""
    namespace = {"torch": module}
    out = []
    for statement in statements:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if "r = " in statement:
                    exec(statement, namespace)
                    out.append(_describe(namespace["r"]))
                else:
                    try:
                        code = compile(statement, "<case>", "eval")
                    except SyntaxError:
                        exec(statement, namespace)
                        out.append("ok")
                        continue
                    out.append(_describe(eval(code, namespace)))
            except Exception as error:  # noqa: BLE001 - the point is to compare whatever is raised
                out.append(f"{type(error).__name__}: {error}")
        namespace.pop("r", None)
    return out


def _program(view, mode, steps, probe):
    return ["a = torch.tensor([[1., -2.], [3., 0.5], [-1., 4.]])", f"{mode}v = {view}", *steps, probe,
            "(v.requires_grad, v.is_leaf, v.grad_fn, a.requires_grad)"]


CASES = [_program(view, mode, steps, probe)
         for view, mode, steps, probe in itertools.product(VIEWS, MODES, FLAG_STEPS, PROBES)]


@pytest.mark.parametrize("view", VIEWS)
def test_views_follow_their_base(view):
    """Every mode, order of flag changes and probe for one kind of view: the first differing program is shown."""
    for program in (c for c in CASES if c[1].endswith(f"v = {view}")):
        assert transcript(gradlab, program) == transcript(torch, program), "\n".join(program)


UNTRACKED = ["with torch.no_grad():\n    a.mul_(2)", "with torch.no_grad():\n    v.add_(1)",
             "with torch.no_grad():\n    a[0] = 5.0", "a.detach().zero_()", "a.detach().copy_(a.detach())",
             "with torch.no_grad():\n    a.t().sub_(1)", "d = a.detach(); d.copy_(d)"]
LEAF_PROBES = ["(v.requires_grad, v.is_leaf, v.grad_fn, v._version)",
               "v.sum().backward(); r = a.grad",
               "w = v * 2; r = (w.grad_fn, w.grad_fn.next_functions[0][0])"]
UNTRACKED_CASES = [["a = torch.tensor([[1., -2.], [3., 0.5], [-1., 4.]], requires_grad=True)", f"v = {view}", change,
                    probe] for view, change, probe in itertools.product(VIEWS, UNTRACKED, LEAF_PROBES)
                   if "unbind" not in view and "split" not in view]
# (the outputs of unbind and split refuse to be read after such a change: not modelled yet)


@pytest.mark.parametrize("change", UNTRACKED)
def test_views_of_a_leaf_read_through_it_after_an_untracked_change(change):
    for program in (c for c in UNTRACKED_CASES if c[2] == change):
        assert transcript(gradlab, program) == transcript(torch, program), "\n".join(program)


# A view that may not read through its changed base: made under no_grad from a tensor that requires grad, or an output
# of unbind/split (and views of them). PyTorch refuses to read its grad_fn (so is_leaf and printing raise too).
REFUSED_VIEWS = ["with torch.no_grad():\n    v = a[1:]", "with torch.no_grad():\n    v = a.t()",
                 "with torch.no_grad():\n    v = a.view(6)", "v = a.unbind(0)[1]", "v = a.split(1)[0]",
                 "v = a.split(2)[0].t()", "v = a.unbind(1)[0][1:]", "with torch.no_grad():\n    v = a.unbind(0)[1]"]
REFUSED_CHANGES = ["with torch.no_grad():\n    a.mul_(2)", "with torch.no_grad():\n    v.add_(1)",
                   "a.detach().zero_()", "with torch.no_grad():\n    a[0] = 5.0"]
REFUSED_PROBES = ["v.grad_fn", "v.is_leaf", "repr(v)", "v.requires_grad", "(v * 2).sum().backward()", "v._version"]
REFUSED_CASES = [["b = torch.tensor([[1., -2.], [3., 0.5], [-1., 4.]], requires_grad=True)", "a = b * 1"
                  if "no_grad" not in view else "a = b", view, change, probe]
                 for view, change, probe in itertools.product(REFUSED_VIEWS, REFUSED_CHANGES, REFUSED_PROBES)]


@pytest.mark.parametrize("view", REFUSED_VIEWS)
def test_views_that_may_not_read_through_their_base(view):
    for program in (c for c in REFUSED_CASES if c[2] == view):
        assert transcript(gradlab, program) == transcript(torch, program), "\n".join(program)


def test_the_comparison_can_fail():
    """A view left without its base's flag (what gradlab did) differs from PyTorch."""
    program = _program("a[1:]", "", ["a.requires_grad_()"], "(v.requires_grad, v.is_leaf, v.grad_fn)")
    ours = transcript(gradlab, program)
    assert ours == transcript(torch, program)
    assert ours != transcript(gradlab, program[:2] + program[3:])     # (without requires_grad_: other outcomes)
