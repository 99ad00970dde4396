"""Shared by the whole suite: the folders whose helper modules other folders' tests import.

The op samples (tests/ops/op_samples.py) drive the op-table tests in ops/ and the autograd rules in
autograd/; the hand-written graphs of tests/autograd/test_autograd_rules.py are reused by core/."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in ("ops", "autograd"):
    if str(HERE / folder) not in sys.path:
        sys.path.insert(0, str(HERE / folder))


import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def _fresh_global_state():
    """Each test starts with the global switches at their defaults, in gradlab and in PyTorch (a test that
    turns on anomaly mode or a float64 default dtype must not change the messages of the tests after it)."""
    # Some of PyTorch's float sums add one partial sum per thread, and gradlab follows its thread count. Test
    # files that set torch's pool to one thread at import (for speed on a shared machine) would leave the two
    # libraries disagreeing: torch is the oracle, so gradlab takes its count. (The default counts themselves
    # are compared in fresh processes by tests/core/test_parallel.py.)
    if hasattr(sys.modules.get("torch"), "get_num_threads") and "gradlab" in sys.modules:
        sys.modules["gradlab"].set_num_threads(sys.modules["torch"].get_num_threads())
    threads = {name: sys.modules[name].get_num_threads() for name in ("gradlab", "torch")
               if hasattr(sys.modules.get(name), "get_num_threads")}
    yield
    for name, n in threads.items():          # (float32 partial sums depend on the thread count)
        sys.modules[name].set_num_threads(n)
    for name in ("gradlab", "torch"):
        lib = sys.modules.get(name)
        if lib is None or not hasattr(lib, "set_default_dtype"):
            continue
        lib.set_default_dtype(lib.float32)
        lib.autograd.set_detect_anomaly(False)
        lib.use_deterministic_algorithms(False)
        lib.set_grad_enabled(True)
