"""How much of the 784-256-10 training step's gap to numpy is nn.Linear's weight layout.

    .venv/bin/python benchmarks/mlp_layout.py            # about 30 s
    .venv/bin/python benchmarks/mlp_layout.py --quick    # a few steps: checks that it runs

nn.Linear keeps its weight as (out_features, in_features), as PyTorch does, so its forward is
`x @ W.T`; the hand-written numpy step of run.py keeps (in, out) and computes `x @ W`. The same
multiplication through OpenBLAS's transposed kernel is slower here. This script times, in one
round-robin: the numpy step, the minimal engine (benchmarks/minimal_autograd.py) with PyTorch's
layout (and with gradlab's swapped forward gemm, `(W @ x.T).T`: see matmul_kernels.py), the same
engine with numpy's layout, and gradlab. The minimal engine's two rows separate
the layout's cost from the cost of recording and running a graph in Python at all.
Run it through run.py's environment (single-threaded BLAS) for numbers comparable with RESULTS.md:
it re-executes itself the same way.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import run  # noqa: E402  (for its clean environment)

if __name__ == "__main__" and run._MARK not in os.environ:
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], run._clean_env())

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from types import SimpleNamespace  # noqa: E402

import numpy as np  # noqa: E402

import minimal_autograd as M  # noqa: E402
import workloads as W  # noqa: E402


def _linear_in_out(x, weight, bias):
    """The minimal engine's linear with the weight stored (in, out): x @ W, as the numpy step does."""
    a, w = x.data, weight.data
    return x._result(a @ w + bias.data, (x, weight, bias),
                     lambda g: (g @ w.T if x.requires_grad else None, a.T @ g, g.sum(axis=0)))


def _linear_direct(x, weight, bias):
    """nn.Linear's layout computed directly, x @ W.T (the minimal engine's own linear runs the swapped
    gemm, (W @ x.T).T, where gradlab does: see matmul_kernels.py)."""
    a, w = x.data, weight.data
    return x._result(a @ w.T + bias.data, (x, weight, bias),
                     lambda g: (g @ w if x.requires_grad else None, g.T @ a, g.sum(axis=0)))


def minimal_step(in_out_layout, swapped=False):
    x0, y0, p0 = W.mlp_data(64, (784, 256, 10))
    F = M.functional
    if in_out_layout:
        F = SimpleNamespace(linear=_linear_in_out, log_softmax=F.log_softmax, nll_loss=F.nll_loss)
    elif not swapped:
        F = SimpleNamespace(linear=_linear_direct, log_softmax=F.log_softmax, nll_loss=F.nll_loss)
    x, y = M.tensor(x0), M.tensor(y0)
    params = [M.tensor(p if in_out_layout else W.layout(p, F), requires_grad=True) for p in p0]

    def step():
        loss = W.mlp_loss(M, F, x, y, params, None)
        loss.backward()
        with M.no_grad():
            for p in params:
                p -= W.LR * p.grad
                p.grad = None
        return loss
    return step, params


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cpu-time", action="store_true", help="time with this thread's CPU time (see run.py)")
    args = parser.parse_args()
    clock = time.thread_time if args.cpu_time else time.perf_counter
    steps = {
        "numpy, weights (in, out)": W.mlp("numpy")[0],
        "minimal engine, weights (out, in) like nn.Linear": minimal_step(False)[0],
        "minimal engine, (out, in), swapped forward gemm": minimal_step(False, swapped=True)[0],
        "minimal engine, weights (in, out) like numpy": minimal_step(True)[0],
        "gradlab (nn.functional.linear)": W.mlp("gradlab")[0],
    }
    # both minimal layouts compute the same loss
    (a, _), (b, _) = minimal_step(False), minimal_step(True)
    assert np.allclose(a().data, b().data, rtol=1e-5), "the two layouts disagree"
    rounds, inner = (2, 1) if args.quick else (21, 10)
    times = {name: [] for name in steps}
    for _ in range(rounds):
        for name, step in steps.items():
            t0 = clock()
            for _ in range(inner):
                step()
            times[name].append((clock() - t0) / inner)
    numpy_time = statistics.median(times["numpy, weights (in, out)"])
    width = max(map(len, steps))
    for name, samples in times.items():
        t = statistics.median(samples)
        print(f"{name:<{width}}  {t * 1e6:8.1f} us  {t / numpy_time:5.2f}x numpy")


if __name__ == "__main__":
    main()
