"""Run one generated program under gradlab and under PyTorch, and compare what it showed.

A program calls `show(...)` for text (printed objects, with memory addresses left out) and `values(...)` for
tensors compared to a tolerance; an exception ends it and is shown as `Type: message`. Shared by the parity
tests of whole-program features (torch.compile, torch.utils.checkpoint)."""
import re
import warnings

import numpy as np


def run_program(lib, code, names=None, record_warnings=False):
    """What `code` showed under `lib` (gradlab or torch), with `torch` and `nn` bound to it and `names(lib,
    show)` adding more; with record_warnings, the warnings it raised last, as sorted (category, text) pairs
    (where a warning points differs: PyTorch's Python code warns at its own line, gradlab at the caller's)."""
    shown = []

    def show(*items):
        shown.append(" ".join(re.sub(r" at 0x[0-9a-f]+", "", str(i)) for i in items))

    def values(*tensors):
        shown.append([None if t is None else np.array(t.detach().numpy(), dtype=np.float64) for t in tensors])

    namespace = {"torch": lib, "nn": lib.nn, "show": show, "values": values, **(names(lib, show) if names else {})}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always" if record_warnings else "default")
        try:
            exec(code, namespace)
        except Exception as error:      # noqa: BLE001 (the point: the same exception)
            shown.append(f"{type(error).__name__}: {error}")
    if record_warnings:
        shown.append(sorted({(w.category.__name__, str(w.message)) for w in caught}))
    return shown


def assert_same_shown(mine, theirs, rtol):
    """The same texts, and the same tensors to `rtol` (and 1e-6 absolute)."""
    assert len(mine) == len(theirs), (mine, theirs)
    for a, b in zip(mine, theirs):
        if isinstance(b, list) and b and isinstance(b[0], (np.ndarray, type(None))):
            assert isinstance(a, list) and len(a) == len(b)
            for x, y in zip(a, b):
                assert (x is None) == (y is None)
                if x is not None:
                    np.testing.assert_allclose(x, y, rtol=rtol, atol=1e-6)
        else:
            assert a == b
