"""Stateful differential fuzzer: random beginner programs, run statement by statement under torch and gradlab.

The per-call fuzzer (test_api_fuzz.py) runs one call at a time; the bugs it cannot see need state carried across
statements: a view changed in place and read later, a saved tensor bumped before backward, .grad accumulated by two
backward calls and then zeroed, a hook left registered, an optimizer's momentum after three steps, the generator's
state after manual_seed and two draws. programs_grammar.program(seed) writes a program of 5-20 such statements; we
run it twice, once with `torch` bound to PyTorch and once to gradlab (`import gradlab as torch`), and record each
statement's outcome as a transcript line: the printed text of the result (PyTorch's repr), dtype, shape, strides,
requires_grad, grad_fn name, is_leaf, _version and a leaf's .grad, or the exception's type and message; then what
it printed and the warnings it gave (category and text). At the end, every variable is written out the same way.
The transcripts must agree line for line; the first difference is reported with the program's source.

A numpy or Python internal error in gradlab (numpy's texts, AxisError, KeyError, an attribute named `_...`, a numpy
RuntimeWarning) fails whatever torch does.

    python tests/fuzz/test_program_fuzz.py [--count N] [--start S] [--report path.md]   # many more programs
    python tests/fuzz/test_program_fuzz.py --seed S                                     # one program, both transcripts

float32 matmul/linear is PyTorch's MKL (its rounding is not reproducible): the grammar multiplies in float64 and
builds its modules in float64, so every comparison here is exact.
"""
import argparse
import contextlib
import fnmatch
import io
import json
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import programs_grammar  # noqa: E402

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402
from test_api_fuzz import INTERNAL_TYPES, _INTERNAL, _norm  # noqa: E402

# What is still known to differ, as fnmatch patterns over "family|source of the first differing statement"
# -> the reason. Keep it short: every entry is a bug or an unreproducible kernel, measured.
KNOWN_DIFFERENCES = {
    "grad._version|*":
        "the version of a leaf's .grad counts PyTorch's engine-internal in-place steps: InputBuffer adds two "
        "gradients for one tensor in place when it holds the only reference (version 1 after the take), and "
        "SumBackward0 of a 0-d tensor passes an alias of the root gradient that AccumulateGrad takes without a "
        "copy. gradlab's engine sums numpy arrays that carry no version; it models the copy/take of the first "
        "gradient (clone_obey_contract's copy_ is version 1, the held root gradient is never taken) and the "
        "in-place accumulation of later ones",
    "stride of a size-1 dim|*":
        "the stride PyTorch gives a dimension of size 1 (which reaches no second element) follows TensorIterator's "
        "and the views' own bookkeeping (unsqueeze_ of a float16, an elementwise result of a transposed (2, 1) "
        "input); gradlab's are numpy's. Contiguity and every value agree",
}

# Programs of the pytest range whose first difference is found but not fixed yet (open bugs, found at the end of
# the session that wrote this fuzzer; `python tests/fuzz/test_program_fuzz.py --seed N` shows each). Remove a seed
# once it agrees: the test then checks it again.
OPEN_SEEDS = {
    132: "a split() output changed in place under inference_mode: torch refuses the next op on it (exp2); gradlab "
         "refuses reading its grad_fn and a backward through it, not the op itself (ops read the history's slot)",
    376: "sigmoid_ after unsqueeze_ of a view: PyTorch's own INTERNAL ASSERT (out != nullptr); gradlab computes",
    918: "v.pow_(v.diagonal()): the exponent is a view of the tensor written; PyTorch reads it while its loop "
         "writes (the result depends on its element order), gradlab reads it before",
    # beyond the pytest range (found by sweeping 1000-4499; `--seed N` shows each)
    2051: "a float64 value differs in its last bit (an upstream op's order of summation; not investigated)",
    2078: "the same as 2051", 2721: "the same as 2051", 3236: "the same as 2051", 4048: "the same as 2051",
    4273: "the same as 2051",
    2166: "a leaf's .grad differs in the stride of a size-1 dim and in its version at once (each is a known "
          "difference; the comparison forgives one kind at a time)",
    2666: "rand_like of a transposed tensor: PyTorch keeps the input's layout and draws in memory order, gradlab "
          "draws in C order (same numbers, other places)",
    2958: "v.grad_fn._saved_other of RsubBackward1 (rsub of a number): PyTorch saves nothing (AttributeError), "
          "gradlab exposes the number",
    3075: "the stride of an empty strided slice (x[::2] of a size-0 tensor): PyTorch's (2,), gradlab's (1,)",
    3850: "the same as 3075",
    3474: "a view taken before its base changed in place, then the base given requires_grad: PyTorch's view reads "
          "through it (AsStridedBackward0: its version differs from the view's own record); gradlab's requires grad "
          "with no history (a view would have to remember the version it was made at)",
    3563: "chunk() of a dim of size 0 or uneven: PyTorch's SplitWithSizesBackward0, gradlab's SplitBackward0",
    4108: "float() of a many-element tensor that requires grad: PyTorch raises before its requires_grad warning, "
          "gradlab warns first",
    4307: "autograd.grad's gradient of an expanded input keeps PyTorch's zero stride (stride (_, 0)); gradlab's is "
          "contiguous",
}

COUNT = 1000      # programs in the pytest run
BLOCK = 100       # programs per test


def _is_tensor(v):
    return isinstance(v, (torch.Tensor, gradlab.Tensor))


def _try(fn):
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return f"!{type(e).__name__}: {_norm(str(e))}"


def _strides(v):
    """The strides, those of size-1 dims apart (`stride1=`: no element is reached through them)."""
    strides = _try(v.stride)
    if isinstance(strides, str):
        return f"stride={strides}"
    main = tuple("_" if n == 1 else st for st, n in zip(strides, v.shape))
    return f"stride={main} stride1={tuple(st for st, n in zip(strides, v.shape) if n == 1)}"


def show(v, depth=0, version="version"):
    """One comparable text for a value: PyTorch's printed text and the metadata a program can read."""
    if _is_tensor(v):
        gf = v.grad_fn
        text = (f"T {_norm(repr(v))} | {_norm(str(v.dtype))} {tuple(v.shape)} {_strides(v)} "
                f"rg={v.requires_grad} fn={None if gf is None else type(gf).__name__} leaf={v.is_leaf} "
                f"{version}={_try(lambda: v._version)}")
        if v.is_leaf or v.retains_grad:     # (.grad's own version, named apart: see KNOWN_DIFFERENCES)
            text += f" grad={show(v.grad, depth + 1, 'grad_version')}"
        return text
    if isinstance(v, (torch.Size, gradlab.Size)):
        return _norm(repr(v))
    if isinstance(v, np.ndarray):
        return f"ndarray {v.dtype} {v.tolist()!r}"
    if isinstance(v, (list, tuple)) and depth < 4:
        inner = ", ".join(show(x, depth + 1, version) for x in v)   # (autograd.grad's gradients: their versions)
        name = type(v).__name__
        return f"{name}({inner})" if name not in ("list", "tuple") else f"{name}[{inner}]"
    if isinstance(v, dict) and depth < 4:
        return f"{type(v).__name__}{{" + ", ".join(f"{k!r}: {show(x, depth + 1)}" for k, x in v.items()) + "}"
    if v is None or isinstance(v, (bool, int, float, str, complex)):
        return f"{type(v).__name__} {_norm(repr(v))}"
    if isinstance(v, (torch.nn.Module, gradlab.nn.Module, torch.optim.Optimizer, gradlab.optim.Optimizer,
                      torch.dtype, gradlab.dtype)):
        return f"{type(v).__name__} {_norm(repr(v))}"
    return f"{type(v).__name__}"   # grad_fn nodes, hook handles, generators: their class


def _statement(source):
    """Compiled statement; expression statements are evaluated so that their value is recorded."""
    try:
        return "eval", compile(source, "<program>", "eval")
    except SyntaxError:
        return "exec", compile(source, "<program>", "exec")


def _assigned(source):
    """The name a one-line `name = ...` statement (or a block's last line) assigns, if any."""
    last = source.rsplit("\n", 1)[-1]
    m = re.match(r"(\w+) = ", last)
    return m.group(1) if m else None


def run_statement(ns, source, show_value):
    """One statement of a program, run in the namespace ns: (text, internal-error note or None). The text is the
    value of an expression statement or of the name an assignment sets (show_value(value, source): source is
    None for an assignment), or the exception raised; then what the statement printed and warned."""
    kind, code = _statement(source)
    printed = io.StringIO()
    internal = None
    with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(printed):
        warnings.simplefilter("always")
        try:
            if kind == "eval":
                text = show_value(eval(code, ns), source)
            else:
                exec(code, ns)
                name = _assigned(source)
                text = show_value(ns[name], None) if name else "ok"
        except Exception as e:  # noqa: BLE001
            msg = _norm(str(e))
            text = f"raise {type(e).__name__}: {msg}"
            if type(e).__module__.split(".")[0] == "numpy" or type(e).__name__ in INTERNAL_TYPES:
                internal = f"{type(e).__name__} from {type(e).__module__}"
            elif _INTERNAL.search(msg):
                internal = f"{type(e).__name__} '{_INTERNAL.search(msg).group(0)}'"
    seen = list(dict.fromkeys(f"{w.category.__name__}: {_norm(str(w.message))}" for w in caught))
    for w in seen:
        if w.startswith("RuntimeWarning") or _INTERNAL.search(w.split(": ", 1)[1]):
            internal = internal or f"warning {w[:60]}"
    if printed.getvalue():
        text += "\n  printed: " + _norm(printed.getvalue()).replace("\n", "\n  printed: ")
    if seen:
        text += "\n  warnings: " + " / ".join(seen)
    return text, internal


def _show_statement_value(value, source):
    # (`x.grad...` returns the gradient itself: its version is .grad's)
    grad = source is not None and re.match(r"\w+\.grad\b|torch\.autograd\.grad\(", source)
    return show(value, 0, "grad_version" if grad else "version")


def run(lib, lines):
    """The transcript of a program under `lib`: one entry per statement, then the final state of every variable.
    Each entry: (text, internal-error note or None)."""
    ns = {"torch": lib, "nn": lib.nn, "F": lib.nn.functional}
    out = []
    always = lib.is_warn_always_enabled()
    lib.set_warn_always(True)    # (torch gives some warnings once per process; every program must stand alone)
    lib.manual_seed(0)           # (an unseeded program's random numbers are the same in both: a fresh process's)
    try:
        for _, source in lines:
            out.append(run_statement(ns, source, _show_statement_value))
        for name, value in list(ns.items()):     # the end state: what every variable holds now
            if _is_tensor(value) or isinstance(value, (lib.nn.Module, lib.optim.Optimizer)):
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    try:
                        if isinstance(value, lib.nn.Module):
                            text = "; ".join(f"{n}={show(p)}" for n, p in value.named_parameters())
                        elif isinstance(value, lib.optim.Optimizer):
                            text = show(value.state_dict())
                        else:
                            text = show(value)
                    except Exception as e:  # noqa: BLE001  (a view whose base changed cannot be read)
                        text = f"raise {type(e).__name__}: {_norm(str(e))}"
                out.append((f"end {name}: {text}", None))
    finally:
        lib.set_warn_always(always)
        lib.set_grad_enabled(True)
    return out


def source_of(lines):
    return "\n".join(src for _, src in lines)


def compare(seed):
    """None when the transcripts agree, else (family, statement, torch line, gradlab line, note, program)."""
    lines = programs_grammar.program(seed)
    t = run(torch, lines)
    g = run(gradlab, lines)
    for i, ((tt, _), (gt, internal)) in enumerate(zip(t, g)):
        if tt != gt or (internal and internal.startswith("warning")):   # (both raising NameError is the program's)
            family, src = lines[i] if i < len(lines) else ("end", gt.split(":", 1)[0])
            for pattern, name in ((_GRAD_VERSION, "grad._version"), (_STRIDE1, "stride of a size-1 dim")):
                if pattern.sub("", tt) == pattern.sub("", gt):
                    family = name
            if family in ("grad._version", "stride of a size-1 dim") and known(family, src):
                continue                    # (the rest of the program must still agree)
            return family, src, tt, gt, internal, lines
    return None


_GRAD_VERSION = re.compile(r"grad_version=\d+")
_STRIDE1 = re.compile(r"stride1=\([^)]*\)")


def known(family, src):
    for pattern, reason in KNOWN_DIFFERENCES.items():
        if fnmatch.fnmatchcase(f"{family}|{src}", pattern):
            return reason
    return None


def report_one(seed, diff):
    family, src, tt, gt, internal, lines = diff
    return "\n".join([f"--- seed {seed}: first difference at [{family}] `{src}`"
                      + (f" (gradlab internal error: {internal})" if internal else ""),
                      "program:", "    " + source_of(lines).replace("\n", "\n    "),
                      f"torch:   {tt}", f"gradlab: {gt}"])


@pytest.mark.parametrize("start", range(0, COUNT, BLOCK), ids=lambda s: f"seeds{s}-{s + BLOCK - 1}")
def test_programs_agree(start):
    failures = []
    for seed in range(start, start + BLOCK):
        if seed in OPEN_SEEDS:
            continue
        diff = compare(seed)
        if diff and not known(diff[0], diff[1]):
            failures.append((seed, diff))
    if failures:
        pytest.fail(f"{len(failures)} of {BLOCK} programs differ from PyTorch; the first:\n"
                    + report_one(*failures[0]), pytrace=False)


def test_transcripts_can_fail():
    """The comparison sees a difference: a program whose gradlab value is changed behind its back."""
    lines = [("create:tensor", "v1 = torch.tensor([1.0, 2.0], requires_grad=True)"), ("unary", "v2 = v1 * 2")]
    assert run(torch, lines) == run(gradlab, lines)
    changed = lines + [("inplace", "v2.data[0] = 7.0 if torch is not __import__('torch') else 0.0")]
    assert run(torch, changed) != run(gradlab, changed)


def _sweep(start, count):
    """(seed, statements, diff) for each program, run in a child process: a program that crashes PyTorch
    (a segmentation fault: it has some) is reported as "crash", and the sweep goes on after it."""
    end = start + count
    while start < end:
        child = subprocess.Popen([sys.executable, __file__, "--child", "--start", str(start), "--count",
                                  str(end - start)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        last = start - 1
        for line in child.stdout:
            item = json.loads(line)
            last = item["seed"]
            yield last, item["n"], item["diff"]
        child.wait()
        if last + 1 < end and child.returncode != 0:
            yield last + 1, 0, "crash"
        start = last + 2 if child.returncode != 0 else end


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--report", default="program_fuzz_report.md")
    args = parser.parse_args()
    if args.seed is not None:
        lines = programs_grammar.program(args.seed)
        print(source_of(lines))
        for (tt, _), (gt, internal) in zip(run(torch, lines), run(gradlab, lines)):
            print(("   " if tt == gt and not internal else "!! ") + tt.replace("\n", "\n   "))
            if tt != gt or internal:
                print("   gradlab: " + gt.replace("\n", "\n   ") + (f"  [internal: {internal}]" if internal else ""))
        return
    if args.child:
        for seed in range(args.start, args.start + args.count):
            lines = programs_grammar.program(seed)
            try:
                diff = compare(seed)
            except Exception as e:  # noqa: BLE001  (a harness error must not stop the report)
                diff = ("harness", repr(e), "", "", None, lines)
            print(json.dumps({"seed": seed, "n": len(lines), "diff": diff}), flush=True)
        return
    began = time.time()
    groups, ok, statements, crashes = {}, 0, 0, []
    for seed, n, diff in _sweep(args.start, args.count):
        statements += n
        if diff == "crash":
            crashes.append(seed)
            continue
        if diff is None:
            ok += 1
            continue
        reason = known(diff[0], diff[1]) or OPEN_SEEDS.get(seed)
        key = (diff[0], "internal" if diff[4] else "", reason or "")
        groups.setdefault(key, []).append((seed, diff))
    out = [f"# Program fuzzer: {ok} of {args.count} programs agree ({statements} statements, "
           f"{time.time() - began:.0f} s)", ""]
    if crashes:
        out += [f"PyTorch itself crashed (the process died) on seeds {crashes}: `--seed N` shows each program.", ""]
    for (family, internal, reason), items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        out.append(f"## {family} {internal} — {len(items)} programs" + (f" (known: {reason})" if reason else ""))
        for seed, diff in items[:3]:
            out += ["```", report_one(seed, diff), "```"]
    out += ["", "## Every differing program", "", "| seed | statement | torch | gradlab |", "|---|---|---|---|"]
    for seed, diff in sorted(item for items in groups.values() for item in items):
        cells = [diff[1], diff[2], diff[3]]
        out.append(f"| {seed} | " + " | ".join(c.replace("\n", " ").replace("|", "¦")[:110] for c in cells) + " |")
    Path(args.report).write_text("\n".join(out) + "\n")
    print("\n".join(out[:1]) + f"\nreport: {args.report}")


if __name__ == "__main__":
    main()
