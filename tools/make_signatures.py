"""Write gradlab/_signatures/ (one file per table): PyTorch's overload signatures for gradlab's public names.

    .venv/bin/python tools/make_signatures.py

Run it with the PyTorch that gradlab follows installed (it is the oracle; gradlab never imports it).
The signatures are the strings PyTorch's argument parser reads, made the way PyTorch's build makes
them: torchgen's gen_python_functions over the shipped native_functions.yaml (plus deprecated.yaml),
grouped and sorted as in python_variable_methods.cpp / python_torch_functions.cpp. The few functions
written by hand in PyTorch's C++ (Tensor.to, Tensor.half, torch.tensor, ...) are not in the yaml: their
strings are read from libtorch_python.so. A function that takes no arguments at all is a C
METH_NOARGS function, whose errors are CPython's: it is stored as the name those errors print
("TensorBase.abs"), with "/1" for one taking exactly one argument. Every entry is then checked against the message real PyTorch gives for a call
with 40 arguments; a mismatch stops the script.
"""
import inspect
import os
import pprint
import re
import sys
import types

import torch
import torchgen
from torchgen.gen import parse_native_yaml
from torchgen.packaged.autograd import gen_python_functions as gpf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
import gradlab  # noqa: E402
import gradlab.nn.functional as GF  # noqa: E402
from gradlab import _argparse  # noqa: E402


# PyTorch functions written in Python call these C functions, whose parser gives their errors: torch.norm
# and Tensor.norm (torch/functional.py, torch/_tensor.py) call linalg's, Tensor.split and torch.stft call torch._VF's
CALLED_FROM_PYTHON = {"linalg": ("linalg_vector_norm", "linalg_matrix_norm"),
                      "torch": ("split", "split_with_sizes", "stft", "dropout", "dropout_", "embedding_renorm_", "einsum",
                                "meshgrid"),
                      "nn": ("cross_entropy_loss", "softplus")}


def torchgen_groups():
    """{"torch"|"Tensor"|"nn"|"linalg": {name: [signature strings] or "noargs"}} from native_functions.yaml."""
    base = os.path.join(os.path.dirname(torchgen.__file__), "packaged")
    native = parse_native_yaml(os.path.join(base, "ATen/native/native_functions.yaml"),
                               os.path.join(base, "ATen/native/tags.yaml")).native_functions
    native = [f for f in native if gpf.should_generate_py_binding(f)]
    deprecated = os.path.join(base, "autograd/deprecated.yaml")
    out = {}
    for space, method, pred in (("Tensor", True, gpf.is_py_variable_method),
                                ("torch", False, gpf.is_py_torch_function),
                                ("nn", False, gpf.is_py_nn_function),
                                ("linalg", False, gpf.is_py_linalg_function),
                                ("special", False, gpf.is_py_special_function),
                                ("fft", False, gpf.is_py_fft_function)):
        pairs = gpf.load_signatures(native, deprecated, method=method)
        table = {}
        for name, overloads in gpf.group_filter_overloads(pairs, pred).items():
            if method and gpf.is_noarg(overloads):
                table[str(name)] = "noargs"
                continue
            groups = gpf.group_overloads(overloads, symint=True)
            table[str(name)] = [str(g.signature.signature_str(symint=True)) for g in groups]
        out[space] = table
    return out


def binary_strings():
    """Runs of argument-parser strings in libtorch_python.so, by function name."""
    path = os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_python.so")
    with open(path, "rb") as f:
        data = f.read()
    runs, run, last = {}, [], None
    pattern = re.compile(rb"^([a-z_][a-z0-9_]*)\((.*)\)(\|deprecated|\|hidden)?$")
    for raw in re.findall(rb"[\x20-\x7e]{4,}", data):
        m = pattern.match(raw)
        name = m.group(1).decode() if m else None
        if name != last and run:
            runs.setdefault(last, []).append(run)
            run = []
        if m:
            run.append(raw.decode())
        last = name
    return runs


def torch_message(fn, args, kwargs=None):
    try:
        fn(*args, **(kwargs or {}))
    except TypeError as e:
        return str(e)
    except Exception:
        return None
    return None


def probe_calls():
    """Calls whose PyTorch message pins a signature list: too many arguments, one argument, one keyword."""
    many = (object(),) * 40
    return [(many, {}), ((object(),), {}), ((), {"zz_unknown": 1})]


def gradlab_names():
    names = {"torch": [], "Tensor": [], "nn": [], "special": [], "fft": [], "linalg": []}
    for n in sorted(dir(gradlab)):
        t = getattr(torch, n, None)
        if not n.startswith("_") and isinstance(t, types.BuiltinFunctionType) and callable(getattr(gradlab, n)):
            names["torch"].append(n)
    for n in sorted(vars(gradlab.Tensor)):
        t = inspect.getattr_static(torch.Tensor, n, None)
        if n.startswith("_") or not callable(inspect.getattr_static(gradlab.Tensor, n)):
            continue
        if type(t).__name__ == "method_descriptor":
            names["Tensor"].append(n)
    for n in sorted(dir(gradlab.special)):         # (torch.special.entr is the C function special_entr)
        t = getattr(torch.special, n, None)
        if not n.startswith("_") and isinstance(t, types.BuiltinFunctionType):
            names["special"].append(n)
    for n in sorted(gradlab.fft._FUNCTIONS):           # (torch.fft.fft is the C function fft_fft)
        if isinstance(getattr(torch.fft, n, None), types.BuiltinFunctionType):
            names["fft"].append(n)
    for n in sorted(gradlab.linalg.__all__):           # (torch.linalg.inv is the C function linalg_inv)
        if isinstance(getattr(torch.linalg, n, None), types.BuiltinFunctionType):
            names["linalg"].append(n)
    for n in sorted(dir(GF)):
        t = getattr(torch.nn.functional, n, None)
        if not n.startswith("_") and isinstance(t, types.BuiltinFunctionType):
            names["nn"].append(n)
    return names


def main():
    generated, runs = torchgen_groups(), binary_strings()
    sample = torch.ones(2, 3)
    table = {"torch": {}, "Tensor": {}, "nn": {}, "special": {}, "fft": {}, "linalg": {}}
    unresolved = []
    table["called"] = {name: tuple(generated[space][name]) for space, names in CALLED_FROM_PYTHON.items()
                       for name in names}
    for space, names in gradlab_names().items():
        for name in names:
            if space == "Tensor":                             # a.abs(1) syntax: CPython names it "TensorBase.abs"
                fn = eval(f"lambda *a, **k: sample.{name}(*a, **k)", {"sample": sample})
            elif space == "nn":
                fn = getattr(torch.nn.functional, name)
            elif space == "special":
                fn = getattr(torch.special, name)
            elif space == "fft":
                fn = getattr(torch.fft, name)
            elif space == "linalg":
                fn = getattr(torch.linalg, name)
            else:
                fn = getattr(torch, name)
            lead, ours = ((sample,), (gradlab.ones(2, 3),)) if space != "Tensor" else ((), ())
            one = torch_message(fn, (object(),))
            if space == "Tensor":                                # method-call syntax, as users write it
                one = torch_message(eval(f"lambda o: sample.{name}(o)", {"sample": sample}), (object(),))
            if one and one.endswith("takes no arguments (1 given)"):
                table[space][name] = one[:-len("() takes no arguments (1 given)")]
                continue
            two = torch_message(fn, (object(), object()))
            if two and two.endswith("() takes exactly one argument (2 given)"):   # METH_O
                table[space][name] = two[:-len("() takes exactly one argument (2 given)")] + "/1"
                continue
            candidates = []
            found = generated[space].get(space + "_" + name if space in ("special", "fft", "linalg") else name)
            if found and found != "noargs":
                candidates.append(found)
            candidates += runs.get(name, [])
            for sigs in candidates:
                entry = tuple(sigs)
                ok = True
                for (args, kwargs), mine in [(c, c[0]) for c in probe_calls()] + [
                        ((lead + a, k), ours + a) for a, k in probe_calls()[1:]]:
                    expect = torch_message(fn, args, kwargs)
                    if expect is None:
                        continue
                    try:
                        got = _argparse.check(entry, mine, kwargs)
                    except Exception:
                        got = None
                    if got is None or str(got) != expect:
                        ok = False
                        break
                if ok:
                    table[space][name] = entry
                    break
            else:
                unresolved.append(f"{space}.{name}")
    # one file per table (the tables are long; each file stays short enough to read)
    out = os.path.join(ROOT, "gradlab", "_signatures")
    os.makedirs(out, exist_ok=True)
    for space, title, module in TABLES:
        with open(os.path.join(out, module + ".py"), "w") as f:
            f.write(HEADER.format(version=torch.__version__, what=title))
            f.write(f"\n{title} = ")
            f.write(pprint.pformat(table[space], width=118, sort_dicts=True))
            f.write("\n")
    with open(os.path.join(out, "__init__.py"), "w") as f:
        f.write(PACKAGE.format(version=torch.__version__))
        for _, title, module in TABLES:
            f.write(f"from .{module} import {title}  # noqa: F401\n")
    print(f"wrote {out}: " + ", ".join(f"{k} {len(v)}" for k, v in table.items()))
    if unresolved:
        print("left unwrapped (no signature reproduces PyTorch's messages):", " ".join(unresolved))


TABLES = [("torch", "TORCH", "torch_functions"), ("Tensor", "TENSOR", "tensor_methods"),
          ("nn", "NN", "nn_functional"), ("special", "SPECIAL", "special_functions"), ("fft", "FFT", "fft_functions"),
          ("linalg", "LINALG", "linalg_functions"), ("called", "CALLED", "called")]

PACKAGE = '''"""PyTorch's overload signatures for gradlab's public functions and methods (facts, no code).

GENERATED by tools/make_signatures.py from torch {version} (torchgen's native_functions.yaml, and
libtorch_python.so for the functions PyTorch writes by hand); do not edit, run the script again.
Each value is either the signature strings PyTorch's argument parser reads, in its order, or, for a
C function that takes no arguments, the name CPython's messages print for it ("/1" appended if it
takes exactly one). Read by _argparse.
TORCH: gradlab.<name>; TENSOR: Tensor.<name>; NN: gradlab.nn.functional.<name>; SPECIAL:
gradlab.special.<name> (PyTorch's C function special_<name>); FFT: gradlab.fft.<name> (fft_<name>); LINALG:
gradlab.linalg.<name> (linalg_<name>); CALLED: the C functions PyTorch's Python functions call (torch.norm:
linalg_vector_norm; Tensor.split: split; F.dropout: dropout).
"""
'''

HEADER = '''"""{what}: PyTorch's overload signatures (see __init__.py). GENERATED by tools/make_signatures.py
from torch {version}; do not edit, run the script again."""
'''

if __name__ == "__main__":
    main()
