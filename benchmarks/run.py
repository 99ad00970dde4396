"""gradlab's benchmarks against hand-written numpy (the limit) and PyTorch.

    python benchmarks/run.py             # full run: prints the table, writes benchmarks/RESULTS.md
    python benchmarks/run.py --quick     # correctness of every workload against numpy (CI), no RESULTS.md
    python benchmarks/run.py --only mlp  # one workload (repeatable; the table is printed, not written)

All libraries run in one process, interleaved (gradlab, numpy, torch, gradlab, numpy, torch, ...),
so a ratio compares numbers taken under the same load. BLAS is single-threaded, and the
process re-executes itself with OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE removed from its
environment (they may be set on this machine and slow numpy down), before numpy is imported.
"""
import os
import sys

_THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")
_REMOVED_VARS = ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")
_MARK = "GRADLAB_BENCH_CLEAN_ENV"


def _clean_env():
    """The environment the benchmark runs in: single-threaded BLAS, no OpenBLAS overrides."""
    env = dict(os.environ)
    removed = [f"{k}={env.pop(k)}" for k in _REMOVED_VARS if k in env]
    for k in _THREAD_VARS:
        env[k] = "1"
    env[_MARK] = ";".join(removed) or "none"
    return env


if __name__ == "__main__" and _MARK not in os.environ:   # re-exec once, before numpy is imported
    os.execve(sys.executable, [sys.executable, os.path.abspath(__file__), *sys.argv[1:]], _clean_env())

import argparse  # noqa: E402
import datetime  # noqa: E402
import gc  # noqa: E402
import platform  # noqa: E402
import random  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import weakref  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [ROOT, HERE]           # benchmark this checkout's gradlab

import numpy as np  # noqa: E402

import workloads  # noqa: E402

try:
    import torch
    torch.set_num_threads(1)
except ImportError:
    torch = None

LIBS = ("gradlab", "numpy", "torch") if torch is not None else ("gradlab", "numpy")
# benchmarks/minimal_autograd.py, the smallest Python autograd that runs these workloads: how close
# any Python engine can come, so that a missed target can be told apart from an unreachable one
FLOOR = "minimal"
FLOOR_WORKLOADS = ("tutorial", "chain", "mlp_small", "mlp")


def libs_for(name):
    return LIBS + (FLOOR,) if name in FLOOR_WORKLOADS else LIBS
MIB = 1024 * 1024

# Targets from issue 18 (and 3-6 for the extra rows): (kind, number, text)
TARGETS = {
    "tutorial": ("torch", 1.0, "<= 1.0x torch"),
    "chain": ("torch", 0.8, "<= 0.8x torch"),
    "mlp_small": ("torch", 1.0, "<= 1.0x torch"),
    "mlp": ("numpy", 1.10, "<= 1.10x numpy"),
    "randn": ("numpy", 3.0, "<= 3x numpy"),
}


# --- timing -----------------------------------------------------------------------------------------

# What a repetition is timed with. Wall time by default; `--cpu-time` takes this thread's CPU time
# instead (time.thread_time), which leaves out the time other processes hold the core: on a shared,
# loaded machine the round-robin's per-round ratios then spread far less. (Single-threaded BLAS and
# torch.set_num_threads(1) keep all the work on this thread; cache and memory contention remain.)
CLOCK = [time.perf_counter]


def _calibrate(step, budget):
    """How many calls of step() make one repetition of about `budget` seconds."""
    t0 = time.perf_counter()
    step()
    one = time.perf_counter() - t0
    return max(1, min(10_000, int(budget / max(one, 1e-7))))


def time_interleaved(steps, reps, budget=0.02, rounds=None):
    """Median seconds per call for each step function, measured round-robin (rounds: a dict that
    receives every round's time per step function, to show the noise).

    Each round runs the steps in a new order (a fixed-seed shuffle): in a fixed order each step
    always follows the same one, and what that one leaves in the caches biased the ratios. Timing
    gradlab against an identical copy of itself (before_after.py HEAD) gave 0.93-0.96x in a fixed
    order, where it must give 1.00x."""
    for step in steps.values():       # warm-up (caches, lazy imports, allocator)
        step()
        step()
    inner = {name: _calibrate(step, budget) for name, step in steps.items()}
    samples = {name: [] for name in steps}
    clock = CLOCK[0]
    order = list(steps.items())
    shuffle = random.Random(0).shuffle
    for _ in range(reps):
        shuffle(order)
        for name, step in order:
            n = inner[name]
            t0 = clock()
            for _ in range(n):
                step()
            samples[name].append((clock() - t0) / n)
    if rounds is not None:
        rounds.update(samples)
    return {name: statistics.median(s) for name, s in samples.items()}


# --- correctness ------------------------------------------------------------------------------------

def check_timed(name):
    """Run each library's workload once from the same start and compare with numpy's result."""
    make = workloads.TIMED[name]
    results = {}
    for lib in libs_for(name):
        step, result = make(lib, quick=True)
        step()
        results[lib] = result()
    tol = {"chain": dict(rtol=1e-3, atol=1e-4)}.get(name, {})
    problems = []
    for lib in libs_for(name):
        if lib != "numpy":
            problems += workloads.compare(f"{name}[{lib}]", results[lib], results["numpy"], **tol)
    return problems


# --- rows of the table ------------------------------------------------------------------------------

class Row:
    def __init__(self, name, times=None, unit="time", target="", verdict="", note=""):
        self.name, self.times, self.unit = name, times or {}, unit
        self.target, self.verdict, self.note = target, verdict, note


def _verdict(ok):
    return "PASS" if ok else "MISS"


def run_timed(name, reps):
    steps = {lib: workloads.TIMED[name](lib)[0] for lib in libs_for(name)}
    rounds = {}
    times = time_interleaved(steps, reps, rounds=rounds)
    kind, limit, text = TARGETS[name]
    verdict = ""
    notes = []
    if kind in times:
        verdict = _verdict(times["gradlab"] / times[kind] <= limit)
        # the noise: the target's ratio taken in each round alone
        per_round = sorted(a / b for a, b in zip(rounds["gradlab"], rounds[kind]))
        notes.append(f"gradlab/{kind} per round {per_round[0]:.2f}-{per_round[-1]:.2f}x")
    if name.startswith("mlp"):
        notes.append("F.linear, F.nll_loss" if workloads.functional_api("gradlab") else "core ops (no gradlab.nn yet)")
    return Row(name, times, target=text, verdict=verdict, note="; ".join(notes))


def _child_import(code):
    """Wall time, CPU time (user + system) and peak RSS (MiB) of `python -c code` in a fresh process,
    measured by a fresh wrapper process (ru_maxrss of RUSAGE_CHILDREN is a maximum over all children
    ever waited for)."""
    wrapper = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        "subprocess.run([sys.executable, '-c', sys.argv[1]], check=True)\n"
        "wall = time.perf_counter() - t\n"
        "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", wrapper, code], cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024      # ru_maxrss is in KiB on Linux


IMPORTS = {"gradlab": "import gradlab", "numpy": "import numpy", "torch": "import torch"}


def run_import(reps):
    # gradlab's bytecode as an installed package has it (pip compiles it): a checkout run with
    # PYTHONDONTWRITEBYTECODE would otherwise recompile every changed module at each import
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(ROOT, "gradlab")], check=True,
                   capture_output=True)
    walls = {lib: [] for lib in LIBS}
    peaks = {lib: [] for lib in LIBS}
    for _ in range(reps):
        for lib in LIBS:
            wall, cpu, peak = _child_import(IMPORTS[lib])
            # with --cpu-time, the child's CPU time: what the import costs, without the other processes' share
            walls[lib].append(cpu if CLOCK[0] is time.thread_time else wall)
            peaks[lib].append(peak)
    wall = {lib: statistics.median(v) for lib, v in walls.items()}
    peak = {lib: statistics.median(v) for lib, v in peaks.items()}
    return [
        # issue #18's target: at most 1.5 times the time of `import numpy` alone (numpy is imported by gradlab)
        Row("import (CPU)" if CLOCK[0] is time.thread_time else "import (wall)", wall, target="<= 1.5x numpy", verdict=_verdict(wall["gradlab"] <= 1.5 * wall["numpy"])),
        Row("import (peak RSS)", peak, unit="MiB", target="<= 50 MiB", verdict=_verdict(peak["gradlab"] <= 50)),
    ]


def check_import():
    """`import gradlab` works in a fresh process and pulls in none of the heavy optional packages."""
    code = ("import sys, gradlab; print(' '.join(m for m in ('torch', 'graphviz', 'ipywidgets', 'matplotlib', "
            "'IPython') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        return [f"import: python -c 'import gradlab' failed:\n{out.stderr}"]
    heavy = out.stdout.split()
    return [f"import: `import gradlab` also imported {heavy}"] if heavy else []


# --- memory: 2,000 training steps, leaks, and when saved arrays die -------------------------------------

def _rss_mib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / MIB


def _graph_nodes(root):
    seen, stack = [], [root]
    ids = set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in ids:
            continue
        ids.add(id(node))
        seen.append(node)
        stack.extend(child for child, _ in node.next_functions)
    return seen


def saved_arrays_freed_on_time():
    """One instrumented mlp step with gc disabled. Every array a node saved for backward (other than
    a leaf's data) must be gone when the last node that saved it has finished, and every node must be
    gone once the loss is dropped. Returns a list of problems."""
    import gradlab
    from gradlab.autograd import events

    x0, y0, p0 = workloads.mlp_data(64, (784, 256, 10))
    x, y, index = gradlab.tensor(x0), gradlab.tensor(y0), gradlab.arange(64)
    F = workloads.functional_api("gradlab")
    params = [gradlab.tensor(workloads.layout(p, F), requires_grad=True) for p in p0]
    problems = []
    gc.disable()
    try:
        loss = workloads.mlp_loss(gradlab, F, x, y, params, index)
        nodes = _graph_nodes(loss.grad_fn)
        pending = {}               # id(array) -> [weakref to the array, ids of nodes that saved it]
        for node in nodes:
            for _, saved in node.saved_tensors_info:
                if saved.is_output:
                    array = saved.data
                elif saved.tensor.grad_fn is not None:
                    array = saved.tensor._data
                else:
                    continue       # a leaf's or a constant's data: the user holds it
                entry = pending.setdefault(id(array), [weakref.ref(array), set()])
                entry[1].add(id(node))
        del array, saved
        node_refs = [weakref.ref(n) for n in nodes]
        names = {id(n): n.name() for n in nodes}
        del nodes, node
        if not pending:
            problems.append("memory: found no saved intermediate arrays to watch")
        watched = len(pending)
        finished = set()

        def on_event(event):
            if type(event).__name__ != "NodeFinished":
                return
            finished.add(id(event.node))
            for key, (ref, savers) in list(pending.items()):
                if savers <= finished:
                    if ref() is not None:
                        who = ", ".join(sorted(names[s] for s in savers))
                        problems.append(f"memory: an array saved by {who} outlived backward through it")
                    del pending[key]

        with events.observe(on_event):
            loss.backward()
        del loss, on_event
        alive = [r for r in node_refs if r() is not None]
        if alive:
            problems.append(f"memory: {len(alive)} graph node(s) still alive after the loss was dropped "
                            f"(gc disabled): {sorted({r().name() for r in alive})}")
    finally:
        gc.enable()
    return problems, watched


def run_memory(steps, warmup):
    """Train the mlp for `steps` steps with gc disabled; RSS must stay flat and graphs die at once."""
    import gradlab
    x0, y0, p0 = workloads.mlp_data(64, (784, 256, 10))
    x, y, index = gradlab.tensor(x0), gradlab.tensor(y0), gradlab.arange(64)
    F = workloads.functional_api("gradlab")
    params = [gradlab.tensor(workloads.layout(p, F), requires_grad=True) for p in p0]
    numpy_params = [p.copy() for p in p0]
    onehot = np.zeros((64, 10), np.float32)
    onehot[np.arange(64), y0] = 1
    problems = []
    leaked = 0
    rss_start = None
    gc.collect()
    gc.disable()
    try:
        for i in range(steps):
            loss = workloads.mlp_loss(gradlab, F, x, y, params, index)
            node = weakref.ref(loss.grad_fn)
            loss.backward()
            with gradlab.no_grad():
                for p in params:
                    p -= workloads.LR * p.grad
                    p.grad = None
            del loss
            leaked += node() is not None
            workloads._numpy_mlp_step(x0, y0, numpy_params, onehot)
            if i + 1 == warmup:
                rss_start = _rss_mib()
        rss_end = _rss_mib()
        cycles = gc.collect()      # objects only the cycle collector could free
    finally:
        gc.enable()
    if leaked:
        problems.append(f"memory: {leaked} of {steps} graphs outlived their step (gc disabled)")
    if cycles:
        problems.append(f"memory: gc.collect() found {cycles} unreachable objects after training")
    problems += workloads.compare("memory[gradlab params]",
                        {f"p{i}": workloads.layout(p.detach().numpy(), F) for i, p in enumerate(params)},
                        {f"p{i}": p for i, p in enumerate(numpy_params)}, rtol=1e-3, atol=1e-4)
    found, watched = saved_arrays_freed_on_time()
    problems += found
    growth = rss_end - rss_start if rss_start is not None else 0.0
    note = (f"RSS {rss_start:.1f} -> {rss_end:.1f} MiB over steps {warmup}..{steps}, gc disabled; "
            f"{watched} saved arrays freed right after their node ran") if rss_start else ""
    row = Row(f"memory ({steps} mlp steps)", {"gradlab": growth}, unit="MiB growth", target="<= 2 MiB",
              verdict=_verdict(growth <= 2 and not problems), note=note)
    return row, problems


# --- gradlab.viz (issues 4 and 5) and notebooks (issue 6): absolute times -------------------------------

def _viz():
    try:
        import gradlab.viz as viz
    except ImportError:
        return None
    return viz


def _unary_chain(n_nodes, lib_tensor):
    """A graph with n_nodes function nodes: a leaf (AccumulateGrad) and n_nodes - 1 unary ops."""
    h = lib_tensor
    for i in range(n_nodes - 1):
        h = h.tanh() if i % 2 else h * 0.9
    return h


def run_viz(reps, quick):
    """DOT text for a 1,000-node graph, its SVG through dot, all frames of a 50-node animation."""
    import gradlab
    viz = _viz()
    if viz is None:
        return [Row("viz", note="skipped: gradlab.viz does not exist yet")], []
    rows, problems = [], []

    def big():
        return _unary_chain(1000, gradlab.ones(4, requires_grad=True)).sum()

    def timed(name, fn, limit, target):
        try:
            fn()                              # warm-up and error check
            t = statistics.median(_once(fn) for _ in range(1 if quick else reps))
            rows.append(Row(name, {"gradlab": t}, target=target, verdict=_verdict(t <= limit)))
        except Exception as exc:              # the API is still being written by another helper
            problems.append(f"{name}: {type(exc).__name__}: {exc}")
            rows.append(Row(name, note=f"error: {type(exc).__name__}"))

    if hasattr(viz, "draw"):
        graph = big()
        # max_nodes above the default (400), or the drawing would be summarized
        timed("viz: DOT, 1,000 nodes", lambda: viz.draw(graph, max_nodes=1500).source, 0.2, "<= 0.2 s")
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "graph.svg")
            timed("viz: SVG via dot, 1,000 nodes", lambda: viz.draw(graph, max_nodes=1500).save(path), 3.0,
                  "<= 3 s")
    else:
        rows.append(Row("viz: DOT / SVG", note="skipped: gradlab.viz.draw does not exist yet"))
    if hasattr(viz, "animate_backward"):
        def animate():
            out = _unary_chain(50, gradlab.ones(2, requires_grad=True)).sum()
            return viz.animate_backward(out)
        timed("viz: all frames, 50 nodes", animate, 3.0, "<= 3 s")
    else:
        rows.append(Row("viz: animation", note="skipped: gradlab.viz.animate_backward does not exist yet"))
    return rows, problems


def _once(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def run_notebooks():
    notebooks = os.path.join(ROOT, "notebooks")
    if not any(f.endswith(".ipynb") for f in os.listdir(notebooks)) if os.path.isdir(notebooks) else True:
        return Row("notebooks (nbval)", note="skipped: no notebooks yet")
    cmd = [sys.executable, "-m", "pytest", "-q", "--nbval-lax", "--nbval-current-env", "-p", "no:cacheprovider"]
    sanitize = os.path.join(ROOT, "notebooks_src", "nbval_sanitize.cfg")
    if os.path.exists(sanitize):
        cmd += ["--nbval-sanitize-with", sanitize]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd + [notebooks], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    status = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else f"exit {proc.returncode}"
    return Row("notebooks (nbval)", {"gradlab": wall}, target="< 120 s, all pass",
               verdict=_verdict(wall < 120 and proc.returncode == 0), note=status)


# --- the machine and the table ------------------------------------------------------------------------

def machine():
    cpu = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info = {
        "CPU": cpu,
        "cores (os.cpu_count)": str(os.cpu_count()),
        "Python": platform.python_version(),
        "numpy": np.__version__,
        "torch": torch.__version__ if torch is not None else "not installed",
        "BLAS threads": ", ".join(f"{k}={os.environ.get(k)}" for k in _THREAD_VARS)
        + (f", torch.get_num_threads()={torch.get_num_threads()}" if torch is not None else ""),
        "removed from the environment": os.environ.get(_MARK, "none"),
    }
    try:
        from threadpoolctl import threadpool_info
        pools = [f"{p.get('internal_api')} {p.get('version')} ({p.get('architecture', '?')} kernel, "
                 f"{p.get('num_threads')} thread(s), {os.path.basename(p.get('filepath', ''))})"
                 for p in threadpool_info()]
        info["BLAS libraries (threadpoolctl)"] = "; ".join(pools) or "none found"
    except ImportError:
        info["BLAS libraries (threadpoolctl)"] = "unknown (pip install threadpoolctl to record it)"
    info["date"] = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    return info


def _fmt(value, unit):
    if value is None:
        return "-"
    if unit != "time":
        return f"{value:.1f}"
    for scale, suffix in ((1, "s"), (1e-3, "ms"), (1e-6, "us")):
        if value >= scale:
            return f"{value / scale:.3g} {suffix}"
    return f"{value / 1e-6:.3g} us"


def table(rows):
    header = ["workload", "gradlab", "numpy", "torch", "gradlab/numpy", "gradlab/torch", "target", "result",
              "minimal engine", "minimal/numpy", "minimal/torch", "note"]
    lines = [header]
    for r in rows:
        t = r.times
        cells = [r.name]
        for lib in ("gradlab", "numpy", "torch"):
            v = t.get(lib)
            cells.append(_fmt(v, r.unit) + ("" if v is None or r.unit == "time" else f" {r.unit}"))
        cells += [_ratio(t, "gradlab", "numpy"), _ratio(t, "gradlab", "torch"), r.target or "-", r.verdict or "-",
                  _fmt(t.get(FLOOR), r.unit), _ratio(t, FLOOR, "numpy"), _ratio(t, FLOOR, "torch"), r.note]
        lines.append(cells)
    return lines


def _ratio(times, lib, reference):
    a, b = times.get(lib), times.get(reference)
    return f"{a / b:.2f}x" if a is not None and b else "-"


def markdown(lines):
    out = ["| " + " | ".join(lines[0]) + " |", "|" + "---|" * len(lines[0])]
    out += ["| " + " | ".join(c.replace("|", "/") for c in row) + " |" for row in lines[1:]]
    return "\n".join(out)


def plain(lines):
    widths = [max(len(row[i]) for row in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in lines)


def write_results(lines, info, command, path):
    text = [
        "# gradlab benchmark results",
        "",
        f"Written by `{command}` (one process; gradlab, numpy and torch interleaved round-robin; "
        "medians per call). numpy is the same computation with its backward written by hand: the limit.",
        "The *minimal engine* (`benchmarks/minimal_autograd.py`) is the smallest Python autograd that runs the "
        "same workloads, with none of PyTorch's behaviour (no dtype rules, version counters, hooks, grad_fn "
        "names, freeing of saved values or error checks): a floor for any Python engine, timed in the same "
        "round-robin.",
        "The machine is shared, so absolute times are noisy; the ratios come from one run. Clock: "
        + ("this thread's CPU time (`--cpu-time`: the time other processes hold the core left out)"
           if CLOCK[0] is time.thread_time else "wall time") + "; the note gives the spread of the target's "
        "ratio over single rounds.",
        "",
        markdown(lines),
        "",
        "## Machine",
        "",
        *[f"- {k}: {v}" for k, v in info.items()],
        "",
    ]
    with open(path, "w") as f:
        f.write("\n".join(text))


# --- main -------------------------------------------------------------------------------------------

ALL = ("tutorial", "chain", "mlp_small", "mlp", "import", "memory", "randn", "viz", "notebooks")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="check every workload's result against numpy")
    parser.add_argument("--only", action="append", choices=ALL, help="run only this workload (repeatable)")
    parser.add_argument("--reps", type=int, default=21, help="round-robin repetitions per timed workload")
    parser.add_argument("--output", default=os.path.join(HERE, "RESULTS.md"))
    parser.add_argument("--cpu-time", action="store_true", help="time with this thread's CPU time, not wall time")
    args = parser.parse_args(argv)
    if args.cpu_time:
        CLOCK[0] = time.thread_time
    chosen = args.only or ALL
    print(f"libraries: {', '.join(LIBS)}; BLAS threads 1; removed from env: {os.environ.get(_MARK)}", flush=True)

    rows, problems = [], []
    for name in chosen:
        started = time.perf_counter()
        if name in workloads.TIMED:
            problems += check_timed(name)
            if not args.quick:
                rows.append(run_timed(name, args.reps))
        elif name == "import":
            problems += check_import()
            if not args.quick:
                rows += run_import(max(3, args.reps // 3))
        elif name == "memory":
            row, found = run_memory(*((30, 10) if args.quick else (2000, 200)))
            problems += found
            rows.append(row)
        elif name == "viz":
            found_rows, found = run_viz(max(3, args.reps // 5), args.quick)
            problems += found
            rows += found_rows
        elif name == "notebooks" and not args.quick:
            rows.append(run_notebooks())
        print(f"  {name}: {time.perf_counter() - started:.1f} s", flush=True)

    lines = table(rows)
    if rows:
        print()
        print(plain(lines))
    if not args.quick and not args.only:
        info = machine()
        write_results(lines, info, "python benchmarks/run.py" + (" --cpu-time" if args.cpu_time else ""), args.output)
        print(f"\nwrote {os.path.relpath(args.output, ROOT)}")
        for k, v in info.items():
            print(f"  {k}: {v}")
    if problems:
        print("\nPROBLEMS:")
        print("\n".join(f"  {p}" for p in problems))
        return 1
    print("\nall workload results match numpy's" + (" (quick mode: no timing)" if args.quick else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
