"""Wrong argument types after a valid first argument, for every name of the signature table, against PyTorch.

test_argument_errors.py throws random tokens at each name; this file builds, from each overload's own
parameters, a call PyTorch accepts and then puts one wrong-typed value in one later place (an int for a
bool, a bool for an int, a str, a list, None, a float for an int, a Tensor for an int, a dtype, numpy
scalars), by position and by keyword. These are the calls gradlab's functions could accept by accident
(a.amin(0, 1), a.sum(0, keepdim=3)): where PyTorch refuses with a TypeError, gradlab must raise the same
type and message; where PyTorch takes the call, gradlab must not refuse it, and a Tensor result must
have PyTorch's shape and dtype.
"""
import random
import warnings

import numpy as np
import pytest

import gradlab
from gradlab import _argparse, _signatures

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

# a value PyTorch accepts for each parameter type (sizes small, dims in range for a 2x3 tensor)
VALID = {"Tensor": "a", "Scalar": "2", "int64_t": "1", "SymInt": "2", "double": "0.5", "bool": "True",
         "IntArrayRef": "(1,)", "SymIntArrayRef": "(2, 3)", "ScalarType": "torch.float64", "TensorList": "[a, a]",
         "c10::string_view": "'floor'", "std::string": "'floor'", "Device": "'cpu'",
         "MemoryFormat": "torch.contiguous_format", "PyObject*": "[1.0, 2.0]", "complex": "2",
         "ArrayRef<double>": "[0.5]", "c10::List<::std::optional<Tensor>>": "[a]"}
WRONG = ["1", "True", "'x'", "[1, 2]", "None", "1.5", "torch.tensor([0])", "torch.tensor(1)", "torch.float32",
         "np.float64(1.5)", "np.int64(1)", "np.float32(2)", "a", "(0, True)", "[1.5]"]
PER_NAME = 30


def _valid(p):
    return VALID.get(p.type)


def _calls_for(prefix, entry, method):
    """Calls of one name: for each shown overload, its valid call with one value replaced."""
    calls = set()
    for sig in _argparse._overloads(entry):
        if sig.hidden:
            continue
        params = [p for p in sig.params if p.name != "out"]
        positional = [p for p in params if not p.keyword_only]
        base = [_valid(p) for p in positional]
        if any(v is None for v in base):
            continue
        first = 0 if method else 1                               # torch.f(a, ...): a stays
        for i in range(first, len(positional)):
            for token in WRONG:
                args = base[:i] + [token] + [v for p, v in zip(positional[i + 1:], base[i + 1:]) if not p.optional]
                calls.add(f"{prefix}({', '.join(args)})")
        needed = [v for p, v in zip(positional, base) if not p.optional]
        for p in params[first:]:
            for token in WRONG:
                args = [v for q, v in zip(positional, base) if not q.optional and q is not p]
                if p in positional and not p.optional:
                    continue                                     # (a required one by keyword: positional above)
                calls.add(f"{prefix}({', '.join(args + [f'{p.name}={token}'])})")
        calls.add(f"{prefix}({', '.join(needed)})")
    return calls


def _names():
    out = []
    for space, table in (("torch", _signatures.TORCH), ("Tensor", _signatures.TENSOR), ("F", _signatures.NN)):
        for name in sorted(table):
            if not isinstance(table[name], str):
                out.append((space, name))
    return out


def _sources(space, name):
    table = {"torch": _signatures.TORCH, "Tensor": _signatures.TENSOR, "F": _signatures.NN}[space]
    prefix = {"torch": f"torch.{name}", "Tensor": f"a.{name}", "F": f"F.{name}"}[space]
    calls = sorted(_calls_for(prefix, table[name], space == "Tensor"))
    rng = random.Random(prefix)                                  # a name's calls do not depend on the others
    return calls if len(calls) <= PER_NAME else sorted(rng.sample(calls, PER_NAME))


def _outcome(module, source):
    """("TypeError", message), (other exception type, None), or ("ok", shape and dtype of a Tensor result)."""
    ns = {"torch": module, "np": np, "a": module.ones(2, 3), "F": module.nn.functional}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = eval(source, ns)
        except TypeError as error:
            return ("TypeError", str(error))
        except Exception as error:
            return (type(error).__name__, None)
    if isinstance(result, module.Tensor):
        return ("ok", tuple(result.shape), str(result.dtype).replace("gradlab", "torch"))
    return ("ok",)


# Where gradlab's own function lacks what PyTorch has (a keyword, an overload): the parser lets the call
# through, as PyTorch does, and the function then refuses it. Not argument types: features to add.
LACKS = "gradlab's function has no such keyword or overload"
KNOWN_DIFFERENCES = {
    "torch.bmm(a, a, torch.float32)": LACKS, "torch.bmm(a, torch.tensor(1), torch.float64)": LACKS,
    "torch.bmm(a, torch.tensor([0]), torch.float64)": LACKS, "torch.mm(a, a, torch.float32)": LACKS,
    "torch.mm(a, a, torch.float64)": LACKS,                                  # mm(Tensor, Tensor, ScalarType out_dtype)
    "torch.empty_like(a, pin_memory=True)": LACKS, "torch.eye(2, pin_memory=True)": LACKS,
    "torch.logspace(a, 2, 1, pin_memory=True)": LACKS, "torch.logspace(a, a, 1, pin_memory=True)": LACKS,
    "torch.randint_like(a, 2, 2, pin_memory=True)": LACKS, "torch.zeros_like(a, pin_memory=True)": LACKS,
    "a.new_empty((2, 3), pin_memory=True)": LACKS, "a.new_zeros((2, 3), pin_memory=True)": LACKS,
    # addmm/baddbmm(self, mat1, mat2, ScalarType out_dtype): PyTorch's CPU build then raises NotImplementedError
    **{src: LACKS for src in ("torch.addmm(a, a, a, torch.float64)", "torch.addmm(a, a, a, torch.float64, alpha=1)",
                              "torch.addmm(a, a, a, torch.float64, alpha=torch.tensor(1))",
                              "torch.addmm(a, a, a, torch.float64, beta=1)",
                              "torch.addmm(a, a, a, torch.float64, beta=1.5)",
                              "torch.baddbmm(a, a, a, torch.float64, beta=1)",
                              "torch.baddbmm(a, torch.tensor(1), a, torch.float64)")},
}


@pytest.mark.parametrize("space, name", _names())
def test_wrong_type_after_a_valid_first_argument(space, name):
    wrong = []
    for source in _sources(space, name):
        expected, got = _outcome(torch, source), _outcome(gradlab, source)
        if expected[0] == "TypeError" or got[0] == "TypeError":
            agrees = got == expected
        elif expected[0] == "ok":
            agrees = got == expected or got[0] != "ok"           # (a failure that is no TypeError: not ours here)
        else:
            agrees = True
        if source in KNOWN_DIFFERENCES:
            if agrees:
                wrong.append(f"{source} now agrees with PyTorch: remove it from KNOWN_DIFFERENCES")
        elif not agrees:
            wrong.append(f"{source}\n    torch:   {expected}\n    gradlab: {got}")
    assert not wrong, f"{len(wrong)} calls differ:\n" + "\n".join(wrong)


# What the parser does beyond refusing: PyTorch's Python-level norm (torch/functional.py), deprecated
# overloads (their warning, then the current form), values PyTorch reads as ints or Numbers, and
# keywords PyTorch names otherwise than gradlab's function. Compared whole: result, error, warnings.
CALLS = [
    "torch.norm(3)", "torch.norm(np.float32(2))", "torch.norm([1.0])", "a.norm([1, 2])", "a.norm(torch.float64)",
    "torch.zeros(2, 0, dtype=torch.float16).norm(torch.ones(3))", "torch.norm(a, [1, 2])",
    "torch.norm(torch.zeros(2, 0, dtype=torch.bool), (0,))", "a.norm()", "a.norm(1)", "a.norm(2, 1, True)",
    "a.norm(2, 1, 3)", "a.norm(p=1, dim=0)", "torch.norm(a, dim=1)", "a.norm('fro', (0, 1))", "a.norm(None)",
    "a.norm(2, 'x')", "a.norm(2, 1.5)", "a.norm(1, 2, 3, 4, 5)", "torch.norm(a, 1, 2, 3, 4, 5, 6)",
    "a.norm(2, dtype=3)", "a.norm(torch.tensor(2.))", "a.norm(foo=1)", "torch.norm(a, 'fro', 1.5)",
    "u.expand(4, 3).add(0.5, 2)", "u.add(0.5, 2)", "a.clone().add_(0, 1)", "a.clone().sub_(0, 1)", "a.add(2, a)",
    "torch.add(a, 2, a)", "torch.sub(a, 2, a)", "a.sub(2, a)", "torch.add(a, 2, other=a)", "a.clone().copy_(a, True)",
    "a.sum(np.int64(0))", "a.sum((np.int64(0), 1))", "a.sum(torch.tensor([0]))", "a.sum(torch.tensor(1), True)",
    "a.sum(torch.tensor([True]))", "a.sum(torch.tensor([0.]))", "a.amax(torch.tensor([1]))", "a.view(np.int64(6))",
    "a.view(2, torch.tensor(3))", "a.view((2, np.int32(3)))", "a.transpose(np.int64(0), 1)",
    "a.flatten(torch.tensor(0))", "torch.randint(torch.tensor(0), [1, 2])", "torch.zeros(np.int64(2), 3)",
    "a.narrow(0, np.int64(0), torch.tensor(1))",
    "a.sum((0, True))", "a.sum((True, 0))", "F.softplus(a, torch.tensor(2))", "torch.clamp(a, torch.tensor(0.5), 2.0)",
    "a.clone().copy_(other=a)", "a.flatten().dot(tensor=a.flatten())", "torch.dot(x=a.flatten(), tensor=a.flatten())",
    "torch.ones(size=(2, 3), dtype=torch.int32)", "torch.promote_types(type1=torch.int32, type2=torch.float32)",
    "a.swapaxes(axis0=0, axis1=1)", "torch.minimum(a, other=a)", "a.new_empty((2, 3), layout=None).shape",
    "torch.rand_like(a, generator=None).shape", "torch.ones(2, layout=torch.strided)",
    "torch.ones(2, layout=torch.contiguous_format)", "torch.zeros_like(a, memory_format=torch.strided)",
    "a.amin(0, 1)", "torch.max(a, 0, 1)", "a.sum(0, keepdim=3)", "torch.argmin(a, 0, 1)", "a.squeeze(True)",
    "a.clone().pow_(None)", "a.prod(None)", "torch.mean(a, 0, 1)", "a.flatten(torch.tensor([0]))",
    "torch.roll(a, 3, dims='x')", "torch.pow([1.0, 2.0], a)", "a.view(2, 'x')", "torch.zeros((2, 'x'))",
    "a.split('x')", "a.split(1, 'x')", "a.split(True)", "a.split(None)", "a.split(1.5)", "a.split([True, 1])",
    "a.split(np.int64(1))", "a.split(torch.tensor(2))", "a.split(torch.tensor([2, 2]))", "a.split(2, dim=np.int64(1))",
    "a.split((1, 1), dim='x')", "torch.split(a, dim=0)", "torch.split([1, 2], 1)", "a.split(split_size=2)",
    "torch.split(a, split_size_or_sections=2)", "a.split(1, 0, 3)", "a.split()", "torch.split(a, [1, 1])",
    "torch.split(a, 1, 1, 1)", "a.chunk(2, 1)",
    "torch.remainder(np.float64(1.5), torch.tensor(2.))", "u.remainder(np.bool_(True))", "u.add(np.bool_(True))",
    "u.clone().pow_(np.bool_(True))", "u.mul(np.int64(2))", "u.div(np.float32(2))",
    "a.clamp(np.float64(0.5), np.float32(2))",
    "torch.full((2,), np.float64(1.5))", "torch.full((2,), np.int64(1))", "torch.pow(np.float64(2), a)",
]


def _whole(module, source):
    ns = {"torch": module, "np": np, "a": module.ones(2, 3), "F": module.nn.functional,
          "u": module.tensor([0, 1, 2], dtype=module.uint8)}
    always = module.is_warn_always_enabled()
    module.set_warn_always(True)                                 # (PyTorch warns once a process otherwise)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = eval(source, ns)
                outcome = ("ok", str(result).replace("gradlab", "torch"))
            except Exception as error:
                outcome = (type(error).__name__, str(error))
    finally:
        module.set_warn_always(always)
    return outcome, [(w.category.__name__, str(w.message)) for w in caught]


@pytest.mark.parametrize("source", CALLS)
def test_call_as_pytorch_parses_it(source):
    assert _whole(gradlab, source) == _whole(torch, source)
