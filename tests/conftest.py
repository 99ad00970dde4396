"""Shared by the whole suite: the folders whose helper modules other folders' tests import.

The op samples (tests/ops/op_samples.py) drive the op-table tests in ops/ and the autograd rules in
autograd/; the hand-written graphs of tests/autograd/test_autograd_rules.py are reused by core/."""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in ("ops", "autograd"):
    if str(HERE / folder) not in sys.path:
        sys.path.insert(0, str(HERE / folder))
