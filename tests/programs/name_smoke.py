"""Look up every name of common_names.NAMES under one library and call it cheaply; print the answers as JSON.

    python tests/programs/name_smoke.py torch      # real PyTorch
    python tests/programs/name_smoke.py gradlab    # gradlab, aliased as `torch`

For each name: its kind ("class", "function", "attribute", or None when the lookup fails) and a smoke
answer, the text of what a cheap call gives: a function of torch.* called with one small tensor, a class
constructed with no arguments, a Tensor method called with none on a fresh tensor, a Module method on a
fresh nn.Linear(2, 2), an Optimizer method on SGD over it, an attribute's repr. An exception is recorded as
`TypeName: message`. Each call starts from manual_seed(0) and a fresh tensor. Names whose call would
change process-wide state or touch files are only looked up (NO_CALL).
"""
import inspect
import json
import re
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common_names import NAMES  # noqa: E402

# Calling these with a tensor (or nothing) would change global state or the file system of the run.
NO_CALL = {"torch.set_default_device", "torch.set_default_tensor_type", "torch.set_default_dtype",
           "torch.manual_seed", "torch.cuda.manual_seed", "torch.save", "torch.load", "torch.set_grad_enabled",
           "torch.autograd.set_detect_anomaly", "torch.set_printoptions"}


def kind(obj, name):
    if inspect.isclass(obj):
        return "class"
    if name.startswith("Tensor.") and (isinstance(obj, property) or type(obj).__name__ == "getset_descriptor"):
        return "attribute"
    return "function" if callable(obj) else "attribute"


def text(value):
    if isinstance(value, (str, int, float, bool, type(None))) or type(value).__name__ in (
            "Tensor", "Parameter", "dtype", "device", "Size", "OrderedDict", "ndarray") or isinstance(value, tuple):
        s = repr(value)
    elif type(value).__name__ in ("generator", "method"):
        s = type(value).__name__
    else:
        s = f"{type(value).__name__}: {value!r}"
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", s)


def smoke(torch, name):
    root, *rest = name.split(".")
    torch.manual_seed(0)
    t = torch.tensor([[1.0, -2.0], [3.0, 0.5]])
    linear = torch.nn.Linear(2, 2)
    owner = {"torch": torch, "Tensor": t, "Module": linear,
             "Optimizer": torch.optim.SGD(linear.parameters(), lr=0.1)}[root]
    cls = {"torch": torch, "Tensor": torch.Tensor, "Module": torch.nn.Module, "Optimizer": torch.optim.Optimizer}[root]
    obj = cls
    for part in rest:
        obj = getattr(obj, part)
    k = kind(obj, name)
    if name in NO_CALL or name == "torch.__version__":
        return k, None
    try:
        if root != "torch":
            value = getattr(owner, rest[-1])
            value = value() if callable(value) else value
        elif k == "class":
            value = obj()
        elif k == "function":
            value = obj(t)
        else:
            value = obj
        answer = text(value)
    except Exception as e:       # noqa: BLE001  (the exception is the answer compared)
        answer = f"{type(e).__name__}: {e}"
    return k, answer


def main(library):
    if library == "gradlab":
        from gradlab._alias import alias_torch
        alias_torch()
    import torch
    out = {}
    for name, *_ in NAMES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                out[name] = smoke(torch, name)
            except Exception as e:   # noqa: BLE001  (a failed lookup: the name is missing)
                out[name] = (None, f"{type(e).__name__}: {e}")
    sys.stdout.write(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
