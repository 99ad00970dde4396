"""gradlab's warnings are shown at the student's line, as PyTorch's kernel warnings are.

Python prints a warning with the file and line it is attributed to. PyTorch's C++ kernels warn at the Python line
that called them; gradlab's warnings come from Python a few calls deep (argument wrappers, nn.Module.__call__, op
kernels), so each goes through gradlab/_warnings.py, which finds the first frame outside gradlab. The API fuzzer
(tests/fuzz/test_api_fuzz.py) checks the location of every warning its 48,000 calls give; this file checks the rule
on the code itself and on calls from deep inside a student's own functions and modules.
"""
import ast
import warnings
from pathlib import Path

import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

PACKAGE = Path(gradlab.__file__).resolve().parent


def test_gradlab_never_calls_warnings_warn_directly():
    """A direct warnings.warn has a fixed stacklevel, which points into gradlab when the call depth changes."""
    direct = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "_warnings.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "warn"
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "warnings"):
                direct.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    assert direct == []


# Each program warns (in torch from C++, so at the student's line); the line marked `# here` must be the one shown.
PROGRAMS = [
    "x = torch.ones(2, 3, 4)\ny = x.T  # here",
    "torch.ones(1).std()  # here",
    "torch.cross(torch.ones(3, 3), torch.ones(3, 3))  # here",
    "a = torch.ones(2, requires_grad=True) * 2\na.grad  # here",
    "torch.tensor(torch.ones(2))  # here",
    "x = torch.ones(4, requires_grad=True)\nfloat((x * 2).sum())  # here",
    # from inside the student's own function and module: the student's line inside them
    "def f(t):\n    return t.std()  # here\nf(torch.ones(1))",
    "class M(nn.Module):\n    def forward(self, t):\n        return torch.cross(t, t)  # here\nM()(torch.ones(3, 3))",
    "m = nn.Sequential(nn.Linear(2, 2))\nh = m.register_forward_hook(lambda mod, i, o: o.std(dim=0) if o.shape[0] == 1 "
    "else None)  # here\nm(torch.ones(1, 2))",
    # through the argument wrappers: a numpy complex scalar read as a float (numpy's ComplexWarning)
    "import numpy as np\ntorch.ones(2) + np.complex64(1j)  # here",
]


def _shown(lib, source):
    code = compile(source, "<student>", "exec")
    always = lib.is_warn_always_enabled()
    lib.set_warn_always(True)          # (the once-per-process warnings too, whatever ran before)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            exec(code, {"torch": lib, "nn": lib.nn})
        finally:
            lib.set_warn_always(always)
    return [(w.category.__name__, str(w.message), w.filename, w.lineno) for w in caught]


@pytest.mark.parametrize("source", PROGRAMS)
def test_warning_shown_at_the_students_line(source):
    line = next(i for i, text in enumerate(source.splitlines(), 1) if text.endswith("# here"))
    expected = _shown(torch, source)
    shown = _shown(gradlab, source)
    assert expected, "the program must warn under torch"
    assert [w[:2] for w in shown] == [w[:2] for w in expected]
    assert [w[2:] for w in expected] == [("<student>", line)] * len(expected)    # (the rule, as torch has it)
    assert [w[2:] for w in shown] == [("<student>", line)] * len(shown)


# PyTorch's TORCH_WARN_ONCE warnings: once a process, every time under torch.set_warn_always(True).
ONCE_ONLY = [
    "torch.cross(torch.ones(3, 3), torch.ones(3, 3))",
    "nn.functional.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 2), padding='same')",
    "x = torch.ones(2, requires_grad=True)\n(x * x).sum().backward(create_graph=True)",
    "import numpy as np\ntorch.tensor([np.ones(2), np.ones(2)])",
    "torch.asarray(torch.ones(2, requires_grad=True))",
    "nn.LSTM(4, 4, proj_size=2)(torch.ones(1, 4))",
    "float(torch.ones(1, requires_grad=True) * 2)",
]


def _counts(lib, source, always):
    before = lib.is_warn_always_enabled()
    lib.set_warn_always(always)
    try:
        counts = []
        for _ in range(2):
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                exec(source, {"torch": lib, "nn": lib.nn})
            counts.append(len(caught))
        return counts
    finally:
        lib.set_warn_always(before)


@pytest.mark.parametrize("source", ONCE_ONLY)
def test_once_only_warnings_follow_set_warn_always(source):
    always = _counts(torch, source, True)
    assert always[1] > 0 and _counts(gradlab, source, True) == always
    assert _counts(gradlab, source, False)[1] == _counts(torch, source, False)[1] == 0


# PyTorch warns about numpy arrays inside a sequence when its store reaches each one (and each row of one),
# with or without a dtype, and not when an element before it raised first.
ARRAY_LISTS = [
    "[np.ones(2), np.ones(2)]", "([np.ones(2), np.ones(2)], dict(dtype=torch.float32))", "[[1+2j, 2], np.ones(2)]",
    "[np.ones(2), [1+2j, 2]]", "[[1, torch.tensor([1., 2.])], np.ones(2)]", "[np.ones((2, 2)), np.ones((2, 2))]",
    "[[np.ones(2), np.ones(2)], [np.ones(2), np.ones(2)]]", "[np.array(1.0), np.array(2.0)]", "np.ones((2, 3))",
    "[np.ones((2, 3)).T]", "([[-2**63 - 1, torch.tensor(2.), np.int64(3)], np.array([1, 2, 3])], dict(dtype=torch.uint8))",
]


@pytest.mark.parametrize("data", ARRAY_LISTS)
def test_arrays_in_lists_warn_as_torch(data):
    import numpy as np

    def run(lib):
        before = lib.is_warn_always_enabled()
        lib.set_warn_always(True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                value = eval(data, {"torch": lib, "np": np})
                args, kwargs = value if isinstance(value, tuple) else (value, {})
                try:
                    result = lib.tensor(args, **kwargs).tolist()
                except Exception as e:  # noqa: BLE001
                    result = type(e).__name__
            return result, [str(w.message) for w in caught]
        finally:
            lib.set_warn_always(before)
    assert run(gradlab) == run(torch)
