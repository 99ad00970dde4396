"""Which gemm to compute a matrix product with: `a @ b`, or the same sum swapped, `(b.T @ a.T).T`.

    .venv/bin/python benchmarks/matmul_kernels.py                 # nn.Linear's forward, float32 (about 40 s)
    .venv/bin/python benchmarks/matmul_kernels.py --case all      # every case below (about 3 min)
    .venv/bin/python benchmarks/matmul_kernels.py --quick         # two shapes: checks that it runs

numpy hands both forms to the same OpenBLAS gemm with the operands swapped: the same sums in the same
order (the script checks that the bits agree), in different times. PyTorch's layouts decide what
the swapped form costs on top: an mm result is row-major, the swapped product column-major, so it
is copied (in addmm, the bias's addition is that copy). Each cell is the time of the swapped form,
copy included, over the direct one: below 1 the swap wins. Cells marked `*` are those
gradlab/ops/linalg.py's rule (`_swap_wins`) swaps. The cases:

  linear  float32 x (n, k) @ W.t() (k, m) + bias: nn.Linear's forward (addmm, mat2 transposed)
  x@W     float32 x (n, k) @ W (k, m) + bias, W row-major (a student's own layout)
  f64     float64, nn.Linear's layout
  wgrad   the weight's gradient, g.t() @ x, row-major like the weight: (x.t() @ g).t() copied
  xgrad   the input's gradient g @ W, row-major: (W.t() @ g.t()).t() copied

Runs in run.py's environment (single-threaded BLAS), interleaved; lower quartiles of the repetitions.
The machine is shared: read a table's pattern, not one cell.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import run  # noqa: E402  (for its clean environment)

if __name__ == "__main__" and run._MARK not in os.environ:
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], run._clean_env())

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from gradlab.ops.linalg import _swap_wins  # noqa: E402

ROWS = (4, 8, 16, 32, 64, 128, 256)
COLS = (16, 64, 128, 256, 512)
DEPTHS = (16, 64, 256, 784)


def _time(fns, reps, budget=0.003):
    """Lower quartile of seconds per call for each function, round-robin."""
    for fn in fns:
        fn()
    inner = []
    for fn in fns:
        t0 = time.perf_counter()
        fn()
        inner.append(max(1, int(budget / max(time.perf_counter() - t0, 1e-7))))
    samples = [[] for _ in fns]
    for _ in range(reps):
        for i, fn in enumerate(fns):
            t0 = time.perf_counter()
            for _ in range(inner[i]):
                fn()
            samples[i].append((time.perf_counter() - t0) / inner[i])
    return [sorted(s)[len(s) // 4] for s in samples]


def _case(name, n, k, m, rng):
    """(direct, swapped, arguments of the rule or None): two functions computing the same array."""
    dtype = np.float64 if name == "f64" else np.float32
    x = rng.standard_normal((n, k)).astype(dtype)
    w = rng.standard_normal((m, k)).astype(dtype)          # nn.Linear's (out, in) weight
    bias = rng.standard_normal(m).astype(dtype)
    if name in ("linear", "f64", "x@W"):
        b = np.ascontiguousarray(w.T) if name == "x@W" else w.T

        def direct():
            out = x @ b
            out += bias
            return out

        def swapped():
            return np.add((b.T @ x.T).T, bias, out=np.empty((n, m), dtype))
        return direct, swapped, (x, b)
    g = rng.standard_normal((n, m)).astype(dtype)
    if name == "wgrad":
        return (lambda: g.T @ x), (lambda: np.ascontiguousarray((x.T @ g).T)), None
    return (lambda: g @ w), (lambda: np.ascontiguousarray((w.T @ g.T).T)), None     # xgrad


def table(name, depths, rows, cols, reps, rng):
    for k in depths:
        print(f"\n{name}, k = {k}: swapped / direct (rows n, columns m)")
        print("| n \\ m | " + " | ".join(str(m) for m in cols) + " |")
        print("|---" * (len(cols) + 1) + "|")
        for n in rows:
            cells = []
            for m in cols:
                direct, swapped, rule = _case(name, n, k, m, rng)
                if not np.array_equal(direct(), swapped()):
                    raise SystemExit(f"{name} {n}x{k}x{m}: the swapped product's bits differ")
                t_direct, t_swapped = _time([direct, swapped], reps)
                mark = "*" if rule is not None and _swap_wins(*rule) else ""
                cells.append(f"{t_swapped / t_direct:.2f}{mark}")
            print(f"| {n} | " + " | ".join(cells) + " |", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=("linear", "x@W", "f64", "wgrad", "xgrad", "all"), default="linear")
    parser.add_argument("--reps", type=int, default=11)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    names = ("linear", "x@W", "f64", "wgrad", "xgrad") if args.case == "all" else (args.case,)
    for name in names:
        if args.quick:
            table(name, (256,), (8, 64), (16, 256), 1, rng)
        else:
            table(name, DEPTHS, ROWS, COLS, args.reps, rng)


if __name__ == "__main__":
    main()
