"""The benchmark harness cannot rot: `benchmarks/run.py --quick` runs every workload once for
gradlab, hand-written numpy and torch (when installed) and compares each result with numpy's.
Speed is not checked here (the full run writes benchmarks/RESULTS.md)."""
import importlib.util
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKLOADS = ("tutorial", "chain", "mlp_small", "mlp", "import", "memory", "randn", "viz", "notebooks")


def _load_workloads():
    """benchmarks/workloads.py under a unique module name (it imports only numpy)."""
    spec = importlib.util.spec_from_file_location("gradlab_benchmark_workloads",
                                                  os.path.join(ROOT, "benchmarks", "workloads.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


workloads = _load_workloads()


def test_quick_run_checks_every_workload_against_numpy():
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "run.py"), "--quick"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all workload results match numpy's" in proc.stdout
    for name in WORKLOADS:                      # every workload ran
        assert f"  {name}:" in proc.stdout, proc.stdout
    # the benchmark runs in its own cleaned environment, with single-threaded BLAS
    assert "BLAS threads 1" in proc.stdout


def test_compare_reports_a_wrong_result():
    good = {"loss": np.array(1.0), "w": np.ones(3, np.float32)}
    assert workloads.compare("x", good, good) == []
    bad = {"loss": np.array(1.0), "w": np.array([1, 1, 1.01], np.float32)}
    assert workloads.compare("x", bad, good)
    assert workloads.compare("x", {"loss": np.array(1.0)}, good)


def test_hand_written_numpy_backward_matches_finite_differences():
    """The numpy limit is itself right: its chain gradient agrees with a central difference."""
    step, result = workloads.chain("numpy")
    step()
    grad = result()["x.grad"]
    x0, w0 = workloads._chain_data()

    def forward(x):
        h = x.astype(np.float64)
        for i in range(2000):
            kind = workloads.CHAIN_OPS[i % 4]
            h = h * w0 if kind == "mul" else h + 0.1 if kind == "add" else np.tanh(h) if kind == "tanh" else np.sin(h)
        return h.sum()
    eps = 1e-6
    for i in (0, 7):
        e = np.zeros(10)
        e[i] = eps
        numeric = (forward(x0 + e) - forward(x0 - e)) / (2 * eps)
        assert np.isclose(grad[i], numeric, rtol=1e-2, atol=1e-4)


def test_op_cost_script_runs():
    """benchmarks/op_cost.py (what one recorded op and one backward node cost) keeps working."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "op_cost.py"), "--quick"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    for label in ("np.multiply(a, b), the work itself", "h * w, recorded (result kept)",
                  "backward, per MulBackward0 node"):
        assert label in proc.stdout, proc.stdout
    times = [float(line.split()[-2]) for line in proc.stdout.splitlines() if line.endswith(" us")]
    assert times and all(t > 0 for t in times), proc.stdout


def test_mlp_layout_script_runs():
    """benchmarks/mlp_layout.py (how much of the large MLP's gap is nn.Linear's weight layout) keeps working,
    and its two minimal-engine layouts compute the same loss (it asserts that itself)."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "mlp_layout.py"), "--quick"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line.endswith("x numpy")]
    assert len(rows) == 5, proc.stdout
    assert rows[0].split()[-2] == "1.00x"


def test_matmul_kernels_script_runs():
    """benchmarks/matmul_kernels.py (the measurements behind gradlab/ops/linalg.py's `_swap_wins`) keeps
    working; it exits with an error when a swapped product's bits differ from the direct one's."""
    proc = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "matmul_kernels.py"), "--quick",
                           "--case", "all"], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.count("swapped / direct") == 5, proc.stdout
    assert "*" in proc.stdout, proc.stdout          # the rule swaps some of nn.Linear's shapes
