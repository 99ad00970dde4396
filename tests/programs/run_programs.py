"""Run every program in cases/ under one library and print what each printed, as JSON.

    python tests/programs/run_programs.py torch      # real PyTorch
    python tests/programs/run_programs.py gradlab    # gradlab, aliased as `torch` (python -m gradlab's alias)

Each program runs in a fresh namespace, after manual_seed(0) (so that the order does not matter), with
its stdout captured; an exception ends it and its last line is recorded as PyTorch would print it
(`TypeName: message`). Warnings are recorded as `Category: message` lines in the order they came (but the
DeprecationWarnings the library's own files raise, which Python's default filters hide).
"""
import contextlib
import io
import json
import pickle
import runpy
import sys
import traceback
import warnings
from pathlib import Path

CASES = Path(__file__).resolve().parent / "cases"


def run_one(path, torch):
    out = io.StringIO()
    torch.manual_seed(0)
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            runpy.run_path(str(path), run_name="__main__")
            error = None
        except SystemExit:
            error = None
        except BaseException as e:     # noqa: BLE001  (the program's own exception is its output)
            error = f"{type(e).__name__}: {e}"
            if "gradlab" in sys.modules and not isinstance(e, (RuntimeError, TypeError, ValueError, IndexError,
                                                                  KeyError, NotImplementedError, AssertionError,
                                                                  AttributeError, StopIteration,
                                                                  pickle.UnpicklingError)):
                error += "\n" + traceback.format_exc(limit=-3)
    # (a DeprecationWarning raised inside the library's own files is hidden by Python's default filters: a
    # student never sees it; PyTorch's first torch.compile or forward AD imports modules that give 18 of them)
    package = str(Path(torch.__file__).resolve().parent)
    shown = [w for w in caught if not (issubclass(w.category, DeprecationWarning)
                                       and str(Path(w.filename).resolve()).startswith(package))]
    return {"stdout": out.getvalue(), "error": error,
            "warnings": [f"{w.category.__name__}: {w.message}" for w in shown]}


def main(library, names=None):
    if library == "gradlab":
        from gradlab._alias import alias_torch
        alias_torch()
    import torch
    paths = sorted(CASES.glob("*.py"))
    if names:
        paths = [p for p in paths if p.stem in names]
    results = {p.stem: run_one(p, torch) for p in paths}
    sys.stdout.write(json.dumps(results))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
