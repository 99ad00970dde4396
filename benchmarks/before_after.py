"""This checkout's gradlab against gradlab at another commit, interleaved in one process.

    python benchmarks/before_after.py REV [--only tutorial] [--reps 21]

Prints, per workload, the medians of both versions, numpy and torch (when installed), their ratios,
and how far the now/before ratio of single rounds spreads (the noise of this run).

A change's cost or gain is a ratio of two numbers taken under the same load: the machine is
shared, so timing two runs one after the other says little. The commit's `gradlab/` is exported
into a temporary folder as the package `gradlab_before` (gradlab imports itself only relatively,
so both versions live side by side), and each workload runs round-robin: before, now, numpy.
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

if __name__ == "__main__" and "GRADLAB_BENCH_CLEAN_ENV" not in os.environ:
    import run      # re-executes in run.py's environment (single-threaded BLAS), then comes back here
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], run._clean_env())

import argparse  # noqa: E402
import importlib  # noqa: E402
import shutil  # noqa: E402
import time  # noqa: E402

sys.path[:0] = [ROOT, HERE]
import run  # noqa: E402
import workloads  # noqa: E402


def export(rev, into, name="gradlab_before"):
    """`git archive` of rev's gradlab/ unpacked as into/<name> (rev None: a copy of this checkout's)."""
    if rev is None:
        shutil.copytree(os.path.join(ROOT, "gradlab"), os.path.join(into, name),
                        ignore=shutil.ignore_patterns("__pycache__"))
    else:
        archive = subprocess.run(["git", "-C", ROOT, "archive", rev, "gradlab"], check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
        os.rename(os.path.join(into, "gradlab"), os.path.join(into, name))
    # Commits before 2026-11-23 wrapped "gradlab" by absolute import in _argparse.install(), so their
    # copy would wrap this checkout's package and stay unwrapped itself: make it wrap itself.
    parser = os.path.join(into, name, "_argparse.py")
    if os.path.exists(parser):
        with open(parser, encoding="utf-8") as f:
            text = f.read()
        with open(parser, "w", encoding="utf-8") as f:
            f.write(text.replace("\n    import gradlab\n", "\n    gradlab = sys.modules[__package__]\n"))
    sys.path.insert(0, into)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("rev", help="the commit to compare with (e.g. HEAD~3 or a hash)")
    parser.add_argument("--only", action="append", choices=run.FLOOR_WORKLOADS)
    parser.add_argument("--reps", type=int, default=21)
    parser.add_argument("--cpu-time", action="store_true", help="time with this thread's CPU time, not wall time")
    parser.add_argument("--control", action="store_true",
                        help="also time a copy of this checkout's gradlab/ exported like REV's (gradlab_control): "
                             "control/before compares two exported packages, and now/control shows what being "
                             "the imported `gradlab` itself is worth (it should be 1.00x)")
    args = parser.parse_args()
    if args.cpu_time:
        run.CLOCK[0] = time.thread_time
    with tempfile.TemporaryDirectory() as tmp:
        export(args.rev, tmp)
        exported = {"before": importlib.import_module("gradlab_before")}
        if args.control:
            export(None, tmp, "gradlab_control")
            exported["control"] = importlib.import_module("gradlab_control")
        module, functional = workloads._lib_module, workloads.functional_api
        workloads._lib_module = lambda lib: exported[lib] if lib in exported else module(lib)
        workloads.functional_api = lambda lib: exported[lib].nn.functional if lib in exported else functional(lib)
        libs = ("before", "gradlab", "numpy") + (("torch",) if run.torch is not None else ())
        libs += ("control",) if args.control else ()
        head = ["workload", f"before ({args.rev})", "now", "numpy"] + (["torch"] if "torch" in libs else [])
        head += ["now/before", "before/numpy", "now/numpy"] + (["before/torch", "now/torch"] if "torch" in libs else [])
        head += ["now/before per round (min-max)"]
        head += ["control", "control/before", "now/control"] if args.control else []
        print("| " + " | ".join(head) + " |")
        print("|---" * len(head) + "|")
        for name in args.only or run.FLOOR_WORKLOADS:
            make = workloads.TIMED[name]
            steps = {lib: make(lib)[0] for lib in libs}
            rounds = {}
            t = run.time_interleaved(steps, args.reps, rounds=rounds)
            cells = [name] + [run._fmt(t[lib], "time") for lib in ("before",) + libs[1:] if lib != "control"]
            cells += [f"{t['gradlab'] / t['before']:.2f}x", f"{t['before'] / t['numpy']:.2f}x",
                      f"{t['gradlab'] / t['numpy']:.2f}x"]
            if "torch" in libs:
                cells += [f"{t['before'] / t['torch']:.2f}x", f"{t['gradlab'] / t['torch']:.2f}x"]
            # the noise: the same ratio taken in each round alone (each round times every library once)
            per_round = sorted(a / b for a, b in zip(rounds["gradlab"], rounds["before"]))
            cells.append(f"{per_round[0]:.2f}-{per_round[-1]:.2f}x")
            if args.control:
                cells += [run._fmt(t["control"], "time"), f"{t['control'] / t['before']:.2f}x",
                          f"{t['gradlab'] / t['control']:.2f}x"]
            print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
