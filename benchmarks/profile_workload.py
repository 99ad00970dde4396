"""Where gradlab's time goes in one workload: cProfile over many steps, sorted by own time.

    python benchmarks/profile_workload.py tutorial [--steps 2000] [--top 30]
    python benchmarks/profile_workload.py chain --steps 20 --sort cumulative

(For a call tree, `pip install pyinstrument` and run `python -m pyinstrument benchmarks/profile_workload.py
chain --no-cprofile`.)
"""
import argparse
import cProfile
import os
import pstats
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]

import workloads  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("workload", choices=sorted(workloads.TIMED))
    parser.add_argument("--steps", type=int, default=None)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--sort", default="tottime")
    parser.add_argument("--no-cprofile", action="store_true", help="just run (under an outside profiler)")
    args = parser.parse_args()
    steps = args.steps or {"tutorial": 3000, "chain": 10, "mlp_small": 1000}.get(args.workload, 50)
    step, _ = workloads.TIMED[args.workload]("gradlab")
    step()
    if args.no_cprofile:
        for _ in range(steps):
            step()
        return
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(steps):
        step()
    profile.disable()
    stats = pstats.Stats(profile)
    stats.sort_stats(args.sort).print_stats(args.top)


if __name__ == "__main__":
    main()
