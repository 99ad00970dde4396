"""Programs written here in the style of PyTorch's teaching material (cases/*.py) print exactly what
they print under PyTorch when `torch` is gradlab: their stdout, the exception that ends them, and their
warnings. Both sides run once per session, each in its own process (run_programs.py)."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from machine import MKL_TAKES_INTELS_PATH, OTHER_CPU_REASON

HERE = Path(__file__).resolve().parent
CASES = sorted(p.stem for p in (HERE / "cases").glob("*.py"))
pytestmark = pytest.mark.torch


def _run(library):
    done = subprocess.run([sys.executable, str(HERE / "run_programs.py"), library], capture_output=True,
                          text=True, timeout=900, cwd=HERE.parent.parent)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def outputs():
    pytest.importorskip("torch")
    return _run("torch"), _run("gradlab")


def _no_addresses(text):
    """`<AddBackward0 object at 0x7f...>`: an address differs from run to run, in PyTorch too."""
    return re.sub(r" at 0x[0-9a-f]+>", " at 0x...>", text)


# Programs whose output still differs, each for a measured reason (strict: each fails once it agrees).
KNOWN_DIFFERENCES = {
    "nnopt_containers": "float32 nn.Linear(6, 8)'s product (MKL's sgemm) differs in the last bit for 7 of 32 "
                        "numbers, and then one row of exp(log_softmax(...)).sum(1) prints 1.0000 for torch's 1. "
                        "(it agreed while gradlab's randn was an ulp off: other inputs)",
}


# Programs whose last digits depend on the kernels MKL picks for the CPU (tests/machine.py). The first agrees
# with PyTorch on Intel CPUs (CI's), where agreement is required, and differs on AMD's; the second differs
# on AMD's (measured) and has not been run on an Intel CPU yet: either outcome passes.
DIFFER_ON_OTHER_CPUS = {
    "linalg_matrix_basics": "float32 inverse of a 3x3 matrix: one entry differs from MKL's in its last bit "
                            "(1.4444445372 against 1.4444446564), which shows in A_inv @ b",
}
MAY_DIFFER = {
    **{name: "agrees here (AMD); its means of batched matrix products (X @ w, nn.Linear's addmm, K=2-3) round as "
             "MKL's AMD path does, and MKL takes another path on Intel CPUs: not yet run there"
       for name in ("lead_linreg_scratch", "lead_concise_regression", "d2l_linreg_scratch_zh",
                    "d2l_timer_accumulator_zh", "textbook_zh_concise_linear", "data_tensordataset_training")},
    "nograd_eval_accuracy": "the 6th decimal of a float32 loss after Linear (addmm, K=4) and tanh (MKL's closed "
                            "vector tanh: 99.8% agreement)",
}


@pytest.mark.parametrize("name", CASES)
def test_program_prints_what_pytorch_prints(outputs, name):
    if name in DIFFER_ON_OTHER_CPUS and not MKL_TAKES_INTELS_PATH and _differs(outputs, name):
        pytest.xfail(f"{DIFFER_ON_OTHER_CPUS[name]}: {OTHER_CPU_REASON}")
    if name in MAY_DIFFER and _differs(outputs, name):
        pytest.xfail(MAY_DIFFER[name])
    if name in KNOWN_DIFFERENCES:
        pytest.xfail(KNOWN_DIFFERENCES[name]) if _differs(outputs, name) else pytest.fail(
            f"{name} agrees now: remove it from KNOWN_DIFFERENCES")
    expected, got = outputs[0][name], outputs[1][name]
    assert _no_addresses(got["stdout"]) == _no_addresses(expected["stdout"])
    assert got["error"] == expected["error"]
    assert got["warnings"] == expected["warnings"]


def test_programs_are_there():
    assert len(CASES) >= 1


def _differs(outputs, name):
    expected, got = outputs[0][name], outputs[1][name]
    return (_no_addresses(got["stdout"]), got["error"], got["warnings"]) != (
        _no_addresses(expected["stdout"]), expected["error"], expected["warnings"])
