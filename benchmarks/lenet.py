"""A LeNet-5 training step, gradlab against PyTorch (issue 17's target: within 2x of PyTorch's time).

    .venv/bin/python benchmarks/lenet.py            # about 20 s
    .venv/bin/python benchmarks/lenet.py --quick    # a few steps: checks that both libraries agree

The step (batch 64, 1x28x28, float32): conv(1, 6, 5) - relu - maxpool 2 - conv(6, 16, 5) - relu -
maxpool 2 - flatten - linear 256 -> 120 -> 84 -> 10 with relus, cross-entropy, backward, SGD step.
Both libraries build the same network from the same seed and train on the same batch, round-robin in
one process (run.py's environment: single-threaded BLAS, torch.set_num_threads(1)). The ratio printed
is the median of the per-round ratios gradlab / torch.
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

import numpy as np  # noqa: E402

import gradlab  # noqa: E402

TARGET = 2.0


def make_step(T, batch=64):
    """One training step of LeNet-5 in library T (gradlab or torch), and a function giving the loss."""
    nn, F = T.nn, T.nn.functional
    T.manual_seed(0)
    net = nn.Sequential(
        nn.Conv2d(1, 6, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(6, 16, 5), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(),
        nn.Linear(256, 120), nn.ReLU(), nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10))
    opt = T.optim.SGD(net.parameters(), lr=0.01)
    rng = np.random.default_rng(0)
    x = T.tensor(rng.standard_normal((batch, 1, 28, 28), dtype=np.float32))
    y = T.tensor(rng.integers(0, 10, batch))
    losses = []

    def step():
        opt.zero_grad()
        loss = F.cross_entropy(net(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return step, losses


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few steps: check that both libraries agree")
    parser.add_argument("--rounds", type=int, default=40)
    args = parser.parse_args()
    torch = run.torch
    if torch is None:
        sys.exit("benchmarks/lenet.py compares with PyTorch, which is not installed")
    steps = {"gradlab": make_step(gradlab), "torch": make_step(torch)}
    for name, (step, _) in steps.items():
        for _ in range(3 if args.quick else 5):
            step()
    g_losses, t_losses = steps["gradlab"][1], steps["torch"][1]
    agree = np.allclose(g_losses, t_losses, rtol=1e-4, atol=1e-5)
    print(f"losses after {len(g_losses)} steps: gradlab {g_losses[-1]:.6f}, torch {t_losses[-1]:.6f} "
          f"({'agree' if agree else 'DIFFER'})")
    if args.quick:
        sys.exit(0 if agree else 1)
    times = {name: [] for name in steps}
    clock = time.perf_counter
    for _ in range(args.rounds):
        for name, (step, _) in steps.items():
            t0 = clock()
            step()
            times[name].append(clock() - t0)
    ratios = [g / t for g, t in zip(times["gradlab"], times["torch"])]
    ratio = statistics.median(ratios)
    print(f"LeNet-5 step, batch 64: gradlab {statistics.median(times['gradlab']) * 1e3:.2f} ms, "
          f"torch {statistics.median(times['torch']) * 1e3:.2f} ms, median ratio {ratio:.2f}x "
          f"(target <= {TARGET}x: {'PASS' if ratio <= TARGET else 'MISS'})")


if __name__ == "__main__":
    main()
