"""Differential tests (gradlab against PyTorch): Python conversions of tensors, random in-place fills,
factory arguments, nn containers and layers, optimizer state.

Every case is an expression run once with `torch` bound to gradlab and once to PyTorch (same seed); the
outcomes must agree: the repr of the result (with "gradlab" read as "torch"), or the exception type and
message, and the warnings (category and text).
"""
import itertools
import operator
import warnings

import numpy as np
import pytest

import gradlab

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch


def _outcome(module, code):
    ns = {"torch": module, "nn": module.nn, "np": np, "operator": operator}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module.manual_seed(0)
        try:
            *setup, last = code.split("; ")
            for line in setup:
                exec(line, ns)
            result = ("value", repr(eval(last, ns)).replace("gradlab", "torch"))
        except Exception as e:                              # noqa: BLE001 (the error is the outcome)
            result = ("raise", type(e).__name__, str(e).replace("gradlab", "torch"))
    return result, [(w.category.__name__, str(w.message)) for w in caught]


def _check(code):
    torch.set_warn_always(True)             # warnings given once per process: every time, in both
    gradlab.set_warn_always(True)
    try:
        assert _outcome(gradlab, code) == _outcome(torch, code), code
    finally:
        torch.set_warn_always(False)
        gradlab.set_warn_always(False)


# --- Python conversions: float/int/bool/complex/len/iter/format/index/in, every dtype and shape ---------
_DTYPES = ["float32", "float64", "float16", "int64", "int32", "int8", "uint8", "bool", "complex64"]
_VALUES = ["1", "0", "[]", "[1]", "[[1]]", "[1, 0]", "2.5", "float('nan')"]
_CONVERSIONS = ["float({})", "int({})", "bool({})", "complex({})", "len({})", "list({})", "format({}, '.2f')",
                "format({}, '')", "format({}, 'd')", "format({}, '>10')", "{}.__index__()", "{}.tolist()",
                "repr({}.numpy())", "np.asarray({}).dtype", "{}.item()", "1 in {}", "True in {}", "1.5 in {}",
                "None in {}", "[1] in {}", "'a' in {}", "np.array([1]) in {}", "operator.index({})", "[0, 1, 2][{}]",
                "'%.1f' % {}", "np.array({}, dtype=np.float64)", "np.array({})"]
CONVERSION_CASES = [conversion.format(f"torch.tensor({value}, dtype=torch.{dtype})")
                    for dtype, value, conversion in itertools.product(_DTYPES, _VALUES, _CONVERSIONS)
                    if not (value == "float('nan')" and dtype not in ("float32", "float64", "complex64"))
                    and not (value == "2.5" and dtype in ("bool",))]
CONVERSION_CASES += [conversion.format(tensor) for tensor, conversion in itertools.product(
    ["torch.tensor(1.5, requires_grad=True)", "torch.tensor([1.5, 2.0], requires_grad=True)",
     "torch.tensor([], requires_grad=True)", "torch.tensor(1 + 2j)", "torch.tensor(2 + 0j)",
     "torch.tensor(1 + 1j, requires_grad=True)", "torch.zeros(0, 3)", "torch.zeros(2, 0, dtype=torch.uint8)",
     "torch.ones(2, 3)[:, 1]"],
    ["float({})", "int({})", "bool({})", "complex({})", "'%.1f' % {}", "{}.item()", "len({})", "format({}, 'g')"])]


@pytest.mark.parametrize("code", CONVERSION_CASES)
def test_conversions(code):
    _check(code)


# --- random in-place fills and factories refusing what PyTorch refuses -------------------------------
_FILL_ARGS = ["", "1, -1", "1.5, -1", "0, 0", "-1e39, 1e39", "0, float('inf')", "float('nan'), 1", "-1e6, 1e6",
              "-3e38, 3e38", "-1e308, 1e308", "None", "'a'", "True, 2", "to=2.0", "1e-7, -1e20"]
_NORMAL_ARGS = ["", "0, -1", "0, -0.5", "0, 0", "0, float('nan')", "2.0, 3.0", "std=2.0", "mean=1.0", "None",
                "0, 'a'"]
RANDOM_CASES = [f"torch.zeros({shape}, dtype=torch.{dtype}).{fill}"
                for dtype in ["float32", "float64", "float16", "int64", "int32", "uint8", "int8", "bool"]
                for shape in ["2, 3", "0"]
                for fill in [f"uniform_({a})" for a in _FILL_ARGS] + [f"normal_({a})" for a in _NORMAL_ARGS]
                if not (dtype == "float16" and fill in ("uniform_()", "uniform_(0, 0)", "uniform_(to=2.0)",
                                                        "uniform_(True, 2)", "normal_(2.0, 3.0)",
                                                        "normal_(std=2.0)", "normal_(mean=1.0)", "normal_()",
                                                        "normal_(0, 0)") and shape != "0")]
RANDOM_CASES += [f"torch.arange({args})" for args in [
    "1, None", "None", "None, 5", "end=None", "1, None, 1", "1., None", "1, 5, None", "5", "end=5", "1, 5",
    "start=1, end=4", "0, 5, 2", "1, 'a'"]]
RANDOM_CASES += [f"torch.randn({n}, dtype=torch.{dtype})" for n in [1, 5, 15, 16, 32]
                 for dtype in ["float32", "float64", "float16"]]
RANDOM_CASES += [f"torch.tensor([1], dtype=torch.{dtype}).{call}" for dtype in ["int64", "float32", "bool"]
                 for call in ["new_tensor()", "new_tensor([1, 2], torch.float64)", "new_tensor(data=[1])",
                              "new_tensor([1], foo=1)", "new_tensor([1], [2], [3])", "new_zeros(-1)",
                              "new_zeros(0, -1)", "new_zeros((2, -3))", "new_zeros(-1, -3)", "new_ones(2, -1)",
                              "new_empty(-1)", "new_full((-1,), 2)", "new_zeros(2.5)", "new_zeros(None)",
                              "new_ones(2, dtype=int)", "new_full((2,), 2.5)"]]
RANDOM_CASES += [f"torch.{factory}({size})" for factory in ["zeros", "ones", "empty", "randn"]
                 for size in ["-1", "-1, -3", "2, -1", "(2, -3)"]]
RANDOM_CASES += [f"torch.{factory}({array})" for factory in ["from_numpy", "as_tensor", "tensor"]
                 for array in ["np.array(2**63)", "np.array([1], dtype=np.ulonglong)", "np.array([1], dtype=np.uint64)",
                               "np.array([1], dtype=np.longlong)", "np.array([1], dtype=np.uintc)"]]


@pytest.mark.parametrize("code", RANDOM_CASES)
def test_random_fills_and_factories(code):
    _check(code)


# --- nn: module classes, containers, registration, dtype moves ----------------------------------------
_NET = "m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1), nn.Tanh()))"
_LIST = "m = nn.ModuleList([nn.ReLU(), nn.Tanh()])"
_NET_CASES = ["m", "m[1:]", "m[::-1]", "m[-1]", "m[5]", "m[-5]", "m['a']", "m[1.0]", "len(m)",
              "m.append(nn.ReLU())", "m.extend([nn.ReLU()])", "m.insert(1, nn.Tanh())", "m.insert(-1, nn.Tanh())",
              "m.insert(9, nn.Tanh())", "m.insert(0, 3)", "m.pop(1)", "m.pop(-1)", "m.pop(slice(0, 2))", "m.pop(7)",
              "m + m", "m + 3", "m + nn.ModuleList([nn.ReLU()])", "m.__delitem__(-1)", "m.__delitem__(slice(1, None))",
              "list(m.state_dict().keys())", "[n for n, _ in m.named_parameters()]",
              "[n for n, _ in m.named_modules()]", "[n for n, _ in m.named_children()]",
              "len(list(m.parameters(recurse=False)))", "m.requires_grad_(False)[0].weight.requires_grad",
              "m.zero_grad()", "m.apply(lambda x: None)", "m.eval()[2].training",
              "m.add_module('x', nn.ReLU())", "m.add_module(3, nn.Tanh())", "m.add_module('a.b', nn.Tanh())",
              "m.add_module('', nn.Tanh())", "m.add_module('x', 3)", "m.register_buffer('b', torch.ones(1))",
              "m.register_buffer(1, torch.ones(1))", "m.register_buffer('a.b', None)", "m.register_buffer('', None)",
              "m.register_buffer('b', 3)", "m.register_parameter(1, None)", "m.register_parameter('', None)",
              "m.register_parameter('w', nn.Linear(1, 1))", "m.to(float)[0].weight.dtype",
              "m.to(int)", "m.to(bool)", "m.to(dtype=float)[0].bias.dtype", "m.to('cpu', float)[0].bias.dtype",
              "m.to(torch.float16)[0].bias.dtype", "m.to(torch.int64)", "m.double()[0].bias.dtype",
              "m(torch.ones(1, 2)).shape", "m(torch.ones(1, 3))", "type(m)", "type(m[0])", "type(m[1])",
              "type(m.load_state_dict(m.state_dict()))"]
_LIST_CASES = ["m", "m[1:]", "m[::-1]", "m[-1]", "m[3]", "m.append(nn.Sigmoid())", "m.pop(0)",
               "m.extend([nn.Sigmoid()])", "m.extend(3)", "m + [nn.Sigmoid()]", "m + nn.ModuleList([nn.ReLU()])",
               "m.insert(0, nn.Sigmoid())", "m.__setitem__(5, nn.ReLU())", "m.__setitem__(-1, nn.ReLU())",
               "m.__delitem__(slice(None, None, 2))", "m.__delitem__(-3)", "m.__delitem__(0)", "nn.ModuleList([1])",
               "type(m)"]
_LAYER_CASES = ["nn.Linear(2.5, 2)", "nn.Linear(2, 2.5)", "nn.Linear('a', 2)", "nn.Linear(-1, 2)",
                "nn.Linear(2, 2, dtype=torch.int64)", "nn.Linear(2, 3, bias=False)", "type(nn.Linear(2, 2))",
                "type(nn.ReLU())", "type(nn.MSELoss())", "type(nn.Dropout())", "type(nn.Flatten())",
                "type(nn.Identity())", "type(nn.Module())", "nn.Linear(2, 2).to(float).weight.dtype",
                "nn.LeakyReLU(0.2)", "nn.ELU(alpha=2.0, inplace=True)", "nn.GELU('tanh')", "nn.Softmax(dim=1)",
                "nn.Flatten(0, -1)", "nn.MSELoss(reduction='sum')", "nn.CrossEntropyLoss(label_smoothing=0.1)",
                "nn.Softplus(beta=2, threshold=10)", "nn.Sequential(1)", "nn.Sequential()", "nn.ModuleList()"]
NN_CASES = ([f"{_NET}; {case}" for case in _NET_CASES] + [f"{_LIST}; {case}" for case in _LIST_CASES]
            + _LAYER_CASES)


@pytest.mark.parametrize("code", NN_CASES)
def test_modules(code):
    _check(code)


def test_module_files_import():
    """type(layer) names a module that imports (as torch.nn.modules.linear does)."""
    import importlib
    for cls in [gradlab.nn.Linear, gradlab.nn.ReLU, gradlab.nn.Sequential, gradlab.nn.MSELoss, gradlab.nn.Module]:
        assert getattr(importlib.import_module(cls.__module__), cls.__name__) is cls
        twin = getattr(torch.nn, cls.__name__)
        assert cls.__module__.replace("gradlab", "torch") == twin.__module__


# --- optim: loading one optimizer's state into another ------------------------------------------------
_P = "p = [nn.Parameter(torch.ones(2))]"
OPTIM_CASES = [f"{_P}; a = torch.optim.{src}(p, lr=0.1, weight_decay=0.1); b = torch.optim.{dst}(p); "
               f"b.load_state_dict(a.state_dict()); b.param_groups[0]"
               for src, dst in itertools.product(["Adam", "AdamW", "SGD"], ["Adam", "AdamW"]) if src != "SGD"]


@pytest.mark.parametrize("code", OPTIM_CASES)
def test_optimizer_state(code):
    _check(code)


def test_class_names_under_the_torch_alias(tmp_path):
    """`python -m gradlab program.py` runs the program with gradlab as torch: there its classes report torch's
    module names, as the program printed them under PyTorch; imported as gradlab they report gradlab's."""
    import subprocess
    import sys
    program = tmp_path / "types.py"
    program.write_text("import torch\nimport torch.nn as nn\nx = torch.ones(2)\n"
                       "for t in (x, nn.Linear(2, 3), nn.Parameter(x), torch.optim.SGD([nn.Parameter(x)], lr=1),\n"
                       "          x.shape, x.dtype, nn.Sequential()):\n    print(type(t))\n"
                       "class Net(nn.Module):\n    pass\nprint(type(Net()), nn.ReLU.__module__)\n")
    run = [sys.executable, "-m", "gradlab", str(program)]
    aliased = subprocess.run(run, capture_output=True, text=True, check=True).stdout
    real = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, check=True).stdout
    assert aliased == real
    plain = subprocess.run([sys.executable, "-c", "import gradlab as torch; print(type(torch.ones(1)), "
                            "type(torch.nn.Linear(1, 1)))"], capture_output=True, text=True, check=True).stdout
    assert plain == "<class 'gradlab.Tensor'> <class 'gradlab.nn.modules.linear.Linear'>\n"
