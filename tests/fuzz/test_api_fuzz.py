"""Differential API fuzzer: ~48,000 generated calls, each run under gradlab and under PyTorch.

The calls come from tests/fuzz/api_fuzz_cases.py, tests/fuzz/api_fuzz_reach.py, tests/fuzz/api_fuzz_dtidx.py,
tests/fuzz/api_fuzz_more.py and tests/fuzz/api_fuzz_autograd.py (fixed seeds; the second reaches every public name gradlab
shares with torch, with arguments built from torch's own signatures; the third pairs every dtype through operators and
functions, and works through values and indexing; the fourth covers tensor metadata and attribute writes, Python's
conversions, print options, module and grad_fn objects; the fifth writes whole autograd programs: random graphs, saved
tensors and versions, misuse, grad modes, higher order). For each call we compare the outcome:
the printed text of a result, its dtype, shape, requires_grad and grad_fn name, or the exception's
type and whole message, and the warnings (category + text). A result that requires grad is also
backpropagated (`.sum().backward()`) and the leaves' `.grad` compared. A raw numpy/Python internal
error in gradlab (numpy's messages, AxisError, AttributeError on `_data`, numpy RuntimeWarnings)
fails on its own, whatever PyTorch does.

    python tests/fuzz/test_api_fuzz.py --report [path.md] [--seed N]  # agreement per area, mismatches grouped
                                                            # (seed 14 unless given: other seeds reach new inputs)
    python tests/fuzz/test_api_fuzz.py --update-known       # rewrite KNOWN_DIFFERENCES' one-by-one block
    python tests/fuzz/test_api_fuzz.py --coverage [path.md] # shared public names no case calls (or only with errors)

Agreement is required everywhere except the groups listed in KNOWN_DIFFERENCES (each with a reason).
The report also writes `<path>.full.md` with every group, and lists KNOWN_DIFFERENCES entries that no
longer match anything (fixed: remove them).
"""
import collections
import fnmatch
import math
import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import api_fuzz_autograd  # noqa: E402
import api_fuzz_cases  # noqa: E402
import api_fuzz_dtidx  # noqa: E402
import api_fuzz_more  # noqa: E402
import api_fuzz_reach  # noqa: E402

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.torch

import gradlab  # noqa: E402


# What gradlab still does differently, as fnmatch patterns over each case's match_key():
#     "area|call|kinds of difference|torch: <outcome>|gradlab: <outcome>"  ->  one-line reason.
# The first block names causes that span many calls; the second lists the remaining groups one by one.
# Why each remaining group differs (measured; see the closing notes of issue 14):
# - tan_ (float32, second order; the sum prints 763.4074 against gradlab's 763.4075): PyTorch's float32
#   tan (like exp, log, sin, cos, tanh, erf) is Intel MKL's VML (vmsTan, "high accuracy" mode), whose
#   code is not public; gradlab's correctly rounded tan differs in the last bit for ~18% of inputs.
#   (softmax/log_softmax, float32 and float64, and gelu now run PyTorch's own kernels step by step:
#   gradlab/ops/vectorized/.)
KNOWN_DIFFERENCES = {
    # (an internal error is only excused by a pattern that names it: `...|internal:<error> '<text>'|...`)
    # --- the autograd programs (api_fuzz_autograd.py): what is still open, measured ---
    # create_graph: the gradient's own graph is built from gradlab's formulas, op for op as derivatives.yaml's for
    # 238 of 265 ops; the rest are listed with reasons in tests/autograd/test_double_backward_nodes.py (OPEN)
    'autograd|higher:double|print|*':
        'float64 sqrt and exp: PyTorch\'s kernels are not correctly rounded (1.2% and 4% of numbers differ from '
        'numpy\'s in the last bit), which shows in second derivatives that cancel to 1e-17 noise',
    'autograd|higher:functional:jacobian|warnings|*':
        "PyTorch's first forward-mode jacobian in a process imports torch._functorch, whose torch.jit.script "
        "deprecation warnings (18 of them) appear once: an import side effect of PyTorch, not the API's behaviour",
    'nn|compile:*|warnings|*':
        "PyTorch's first torch.compile in a process imports torch._dynamo, whose torch.jit deprecation warning "
        "appears once: an import side effect of PyTorch (a DeprecationWarning Python hides outside __main__)",
    '*|sig:Tensor.const_data_ptr|repr|*':
        "a memory address: never the same in two processes",
    '*:*storage*|warnings|*':
        "TypedStorage's deprecation warning is given once per process by both libraries: whether a case sees it "
        "depends on the cases and tests that ran before it",
    'autograd|graph:*|print|*':
        'float32 matmul/linear/addcmul/sinh: PyTorch\'s MKL kernels round differently (values allclose)',
    # --- remaining groups, one by one (written by `python tests/fuzz/test_api_fuzz.py --update-known`) ---
    'autograd|grad2:tan_|print|*':
        'MKL VML float32 tan: closed code, not reproducible',
    # found after this round's new API (each open, or not reproducible):
    '*|*:Tensor.new|print|*':
        "Tensor.new(size) returns uninitialized memory in PyTorch: its values are whatever was there",
    'autograd|grad2:qr|grad:print|*':
        "float32 qr's second derivative: PyTorch's float32 LAPACK/BLAS kernels round differently, a would-be zero "
        "prints as 2.6e-06 with one sign or the other (the graph and the float64 values are PyTorch's)",
    '*|*corrcoef|print|*':
        "float32 corrcoef: PyTorch's cov is an MKL product and its rounding differs in the last bit (1. or 1.0000)",
    '*|sig:torch.geqrf|value|*':
        "geqrf of a float32 matrix with an inf entry: LAPACK's reflector there is nan in MKL's sgeqrf and inf in "
        "numpy's (the finite matrices agree)",
    # end of KNOWN_DIFFERENCES
}

# Texts that only numpy or gradlab's own internals produce: a failure wherever they appear.
INTERNAL_PATTERNS = [
    r"too many indices for array", r"is out of bounds for axis", r"zero-size array", r"axis \S+ is out of bounds",
    r"numpy", r"ndarray", r"ufunc", r"'_\w+'", r"encountered in", r"Mean of empty slice", r"Degrees of freedom <= 0",
    r"operands could not be broadcast", r"cannot reshape array", r"object arrays are not supported",
    r"Python int too large to convert to C long", r"invalid value", r"setting an array element with a sequence",
    r"only integers, slices \(`:`\)", r"arrays used as indices must be", r"non-broadcastable output operand",
    r"Cannot cast ufunc", r"inhomogeneous", r"data type .* not understood", r"object of type 'NoneType'",
    r"'NoneType' object", r"unhashable type", r"takes \d+ positional arguments? but \d+ (were|was) given",
    r"missing \d+ required positional argument", r"\bnp\.", r"0d arrays?", r"\barrays?\b", r"\.py\b",
    r"local variable", r"referenced before", r"read-only", r"out of bounds for u?int",
    r"cannot convert float \w+ to integer", r"not supported between instances",
    r"cannot be broadcast", r"object is not subscriptable", r"object is not iterable", r"has no len\(\)",
]
_INTERNAL = re.compile("|".join(INTERNAL_PATTERNS))
# Exception types only gradlab's own Python raises (PyTorch's C++ raises none of them for a bad argument)
INTERNAL_TYPES = ("AxisError", "ZeroDivisionError", "RecursionError", "UnboundLocalError", "NameError", "KeyError")


def _norm(text):
    """gradlab names its module `gradlab`; torch's outcome says `torch`. Drop object addresses, and the C++ stack
    trace that some of PyTorch's messages carry after the message itself (unflatten's: "Exception raised from
    maybe_wrap_dim_slow at ...", frames with load addresses of this process): no program can reproduce it."""
    text = text.replace("gradlab", "torch")
    text = re.sub(r"\nException raised from .*", "", text, flags=re.S)
    return re.sub(r" at 0x[0-9a-f]+", " at 0x?", text)


def _try(method):
    try:
        return method()
    except Exception as e:  # noqa: BLE001
        return f"!{type(e).__name__}: {e}"


class _Values:
    """The numbers behind a printed tensor: only used to tell a printing difference from a value one."""

    def __init__(self, array):
        self.array = array

    def __eq__(self, other):
        return isinstance(other, _Values)

    def __repr__(self):
        return "<values>"


def _is_tensor(v):
    return isinstance(v, (torch.Tensor, gradlab.Tensor))


def describe(v, depth=0):
    """A comparable, printable summary of a call's result."""
    if _is_tensor(v):
        gf = v.grad_fn
        d = {"str": _norm(repr(v)), "dtype": _norm(str(v.dtype)), "shape": tuple(v.shape),
             "requires_grad": v.requires_grad, "grad_fn": None if gf is None else type(gf).__name__,
             "is_leaf": v.is_leaf, "contiguous": _try(v.is_contiguous)}
        try:
            d["values"] = _Values(np.asarray(v.detach().tolist(), dtype=np.float64))
        except Exception as e:  # noqa: BLE001
            d["values"] = f"!{type(e).__name__}: {e}"
        return ("Tensor", d)
    if isinstance(v, (torch.Size, gradlab.Size)):
        return ("Size", str(v).replace("gradlab", "torch"))
    if isinstance(v, (torch.dtype, gradlab.dtype)):
        return ("dtype", _norm(str(v)))
    if isinstance(v, (list, tuple)) and depth < 3:
        return (type(v).__name__ if type(v) in (list, tuple) else "namedtuple:" + type(v).__name__,
                tuple(describe(x, depth + 1) for x in v[:64]))
    if isinstance(v, dict) and depth < 3:
        return ("dict", tuple((repr(k), describe(x, depth + 1)) for k, x in v.items()))
    if v is None or isinstance(v, (bool, int, float, str, complex)):
        if isinstance(v, float) and math.isnan(v):
            return ("float", "nan")
        return (type(v).__name__, _norm(repr(v)))
    return (type(v).__name__, _norm(repr(v)))


def _first_grad_tensor(v):
    if _is_tensor(v):
        return v if (v.requires_grad and v.grad_fn is not None) else None
    if isinstance(v, (list, tuple)):
        for x in v:
            t = _first_grad_tensor(x)
            if t is not None:
                return t
    return None


_COMPILED = {}


def _compiled(code):
    if code not in _COMPILED:
        setup, _, last = code.rpartition("\n")
        _COMPILED[code] = (compile(setup, "<case>", "exec") if setup else None, compile(last, "<case>", "eval"))
    return _COMPILED[code]


def _meta(t):
    """What is defined about a tensor of uninitialized memory (torch.empty...)."""
    return t.shape, t.dtype, t.requires_grad


_GRADLAB_DIR = str(Path(gradlab.__file__).resolve().parent)


def _shown_at(lib, w):
    """PyTorch shows its kernels' warnings at the user's line. A gradlab warning shown at a line of gradlab's own
    code gets that file named after its text: a difference (and, through the ".py" pattern, an internal error)."""
    if lib is not gradlab:
        return ""
    if w.filename.startswith("<gradlab"):
        return " [shown at gradlab/_argparse/wrappers.py]"
    path = str(Path(w.filename).resolve())
    return f" [shown at {Path(path).relative_to(Path(_GRADLAB_DIR).parent)}:{w.lineno}]" \
        if path.startswith(_GRADLAB_DIR) else ""


def run(lib, case):
    """Run one case under `lib`; returns (outcome, warnings, leaves' grads after backward, its warnings)."""
    setup, last = _compiled(case.code)
    ns = {"torch": lib, "F": lib.nn.functional, "nn": lib.nn, "np": np, "meta": _meta}
    grads = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if setup is not None:
                exec(setup, ns)
            value = eval(last, ns)
            outcome = ("ok", describe(value))
        except Exception as e:  # noqa: BLE001
            value = None
            outcome = ("raise", type(e).__name__, _norm(str(e)), type(e).__module__.split(".")[0])
        finally:  # leave no global state behind for the next case
            if "set_printoptions" in case.code:
                lib.set_printoptions(profile="default")
            if "set_grad_enabled" in case.code:
                lib.set_grad_enabled(True)
            if "set_default_dtype" in case.code or "set_default_tensor_type" in case.code:
                lib.set_default_dtype(lib.float32)
            if "anomaly" in case.code:
                lib.autograd.set_detect_anomaly(False)
            if "deterministic" in case.code:
                lib.use_deterministic_algorithms(False)
            if "set_default_device" in case.code:  # (torch accepts 'cuda' here and fails every later factory)
                lib.set_default_device(None)
        # each distinct warning once: torch repeats some per element under set_warn_always (a user sees one)
        seen = list(dict.fromkeys((w.category.__name__, _norm(str(w.message)) + _shown_at(lib, w)) for w in caught))
        count = len(caught)
        target = _first_grad_tensor(value) if outcome[0] == "ok" else None
        if target is not None:
            try:
                target.sum().backward()
                leaves = sorted((k, x) for k, x in ns.items() if _is_tensor(x) and x.requires_grad and x.is_leaf)
                leaves += [(f"{k}.{n}", p) for k, m in ns.items() if isinstance(m, lib.nn.Module)
                           for n, p in m.named_parameters()]
                grads = ("ok", ("leaves:" + ",".join(k for k, _ in leaves), tuple(describe(x.grad) for _, x in leaves)))
            except Exception as e:  # noqa: BLE001
                grads = ("raise", type(e).__name__, _norm(str(e)))
        back = list(dict.fromkeys((w.category.__name__, _norm(str(w.message))) for w in caught[count:]))
    return outcome, seen, grads, back


def _internal_text(text, torch_text):
    """numpy/internal wording in gradlab's text that torch's own text does not share (or None)."""
    return next((m.group(0) for m in _INTERNAL.finditer(text) if m.group(0) not in torch_text), None)


def _run_warning_always(lib, case):
    """torch warns only once per process for some messages (TORCH_WARN_ONCE); every case must stand alone."""
    if not hasattr(lib, "set_warn_always"):
        return run(lib, case)
    always = lib.is_warn_always_enabled()
    lib.set_warn_always(True)
    try:
        return run(lib, case)
    finally:
        lib.set_warn_always(always)


def internal_errors(gradlab_result, torch_result):
    """Signs of numpy or gradlab internals in gradlab's outcome."""
    outcome, seen, grads, back = gradlab_result
    torch_text = repr(torch_result)
    found = []
    same_error = outcome[0] == "raise" and torch_result[0][:3] == outcome[:3]  # e.g. both KeyError: 0
    if outcome[0] == "raise" and not same_error:
        if outcome[3] == "numpy" or outcome[1] in INTERNAL_TYPES:
            found.append(f"{outcome[1]} from {outcome[3]}")
        elif _internal_text(outcome[2], torch_text):
            found.append(f"{outcome[1]} '{_internal_text(outcome[2], torch_text)[:30]}'")
    for cat, msg in seen + back:
        if cat == "RuntimeWarning" or _internal_text(msg, torch_text):
            found.append(f"warning {cat} '{msg[:30]}'")
    torch_grads = torch_result[2]
    if grads and grads[0] == "raise" and grads[1] in INTERNAL_TYPES and not (
            torch_grads and torch_grads[:2] == grads[:2]):     # (a ZeroDivisionError in a formula: 0-d softmax)
        found.append(f"backward {grads[1]}")
    elif grads and grads[0] == "raise" and _internal_text(grads[2], torch_text):
        found.append(f"backward {grads[1]} '{_internal_text(grads[2], torch_text)[:30]}'")
    if outcome[0] == "ok" and "'!" in repr(outcome[1]):
        found.append("describe failed: tolist() raised")
    return found


def _close(a, b):
    a, b = getattr(a, "array", None), getattr(b, "array", None)
    if not isinstance(a, np.ndarray) or not isinstance(b, np.ndarray) or a.shape != b.shape:
        return False
    return bool(np.allclose(a, b, rtol=1e-3, atol=1e-5, equal_nan=True))


def _diff_desc(g, t, where):
    """Kinds of difference between two describe() results."""
    if g == t:
        return []
    if g[0] != t[0]:
        return [f"{where}type"]
    if g[0] == "Tensor":
        gd, td = g[1], t[1]
        kinds = [f"{where}{k}" for k in ("dtype", "shape", "requires_grad", "grad_fn", "is_leaf", "contiguous")
                 if gd[k] != td[k]]
        if gd["str"] != td["str"] and not any(k.endswith(("dtype", "shape")) for k in kinds):
            kinds.append(f"{where}print" if _close(gd["values"], td["values"]) else f"{where}value")
        return kinds
    if isinstance(g[1], tuple) and isinstance(t[1], tuple) and len(g[1]) == len(t[1]) and g[0] != "Size":
        kinds = []
        for a, b in zip(g[1], t[1]):
            if g[0] == "dict":
                a, b = a[1], b[1]
            for k in _diff_desc(a, b, where):
                if k not in kinds:
                    kinds.append(k)
        return kinds or [f"{where}other"]
    return [f"{where}repr"]


_WARNED = set()  # the warnings gradlab has given in this process


def _once(torch_warnings, gradlab_warnings):
    """torch's warnings, less those gradlab gives once per process (as torch does without set_warn_always) and
    has given before. Without gradlab.set_warn_always, this is how a once-only warning can be compared."""
    expected = [w for w in torch_warnings if w in gradlab_warnings or w not in _WARNED]
    _WARNED.update(gradlab_warnings)
    return expected


def compare(case):
    """Returns (kinds of difference, internal-error notes, gradlab outcome, torch outcome)."""
    g = _run_warning_always(gradlab, case)
    t = _run_warning_always(torch, case)
    torch.set_flush_denormal(False)     # (a case may switch flushing on: it would change every later torch result)
    internal = internal_errors(g, t)
    kinds = []
    go, to = g[0], t[0]
    if go[0] != to[0]:
        if go[0] == "raise" and "has no attribute" in go[2] and "module 'torch" in go[2]:
            kinds.append("missing-api")
        else:
            kinds.append("gradlab-raises" if go[0] == "raise" else "torch-raises")
    elif go[0] == "raise":
        if go[1] != to[1]:
            kinds.append("exc-type")
        elif go[2] != to[2]:
            kinds.append("exc-message")
    else:
        kinds += _diff_desc(go[1], to[1], "")
    if g[1] != _once(t[1], g[1]):
        kinds.append("warnings")
    if g[2] != t[2]:
        if g[2] is None or t[2] is None:
            kinds.append("backward-availability")
        elif g[2][0] != t[2][0]:
            kinds.append("backward-raises")
        elif g[2][0] == "raise":
            kinds.append("backward-exc")
        else:
            kinds += ["grad:" + k for k in _diff_desc(g[2][1], t[2][1], "")]
    # (a once-per-process warning met again in the backward: compared as the forward's are)
    if g[3] != (_once(t[3], g[3]) if isinstance(t[3], list) and isinstance(g[3], list) else t[3]):
        kinds.append("backward-warnings")
    return kinds, internal, g, t


def signature(case, kinds):
    return f"{case.area}|{case.family}|{'+'.join(kinds)}"


def _short(res):
    """One line for an outcome: the exception, or the result's kind, dtype and shape."""
    o = res[0]
    if o[0] == "raise":
        return f"{o[1]}: {o[2]}".replace("\n", " ")[:200]
    d = o[1]
    if d[0] == "Tensor":
        return f"tensor {d[1]['dtype']} {d[1]['shape']}"
    return d[0]


def match_key(case, kinds, g, t):
    """What KNOWN_DIFFERENCES patterns are matched against: area|call|kinds|torch: ...|gradlab: ..."""
    return f"{case.area}|{case.family}|{'+'.join(kinds)}|torch: {_short(t)}|gradlab: {_short(g)}"


def known(key):
    """The reason a difference is expected, or None. An internal error is only ever excused by a pattern that
    names it (`...|internal:...`), never by a broad one."""
    internal = "|internal:" in key
    for pattern, reason in KNOWN_DIFFERENCES.items():
        if internal == ("|internal:" in pattern) and fnmatch.fnmatchcase(key, pattern):
            _USED.add(pattern)
            return reason
    return None


_USED = set()  # the KNOWN_DIFFERENCES patterns that matched a call (the report lists the others as stale)


def public_names():
    names = {n for n in dir(gradlab) if not n.startswith("_") and hasattr(torch, n)}
    return names


def _fmt_outcome(res):
    outcome, seen, grads, back = res
    if outcome[0] == "raise":
        text = f"raises {outcome[1]}: {outcome[2]}"
    else:
        d = outcome[1]
        if d[0] == "Tensor":
            x = d[1]
            text = f"{x['str']}  [dtype={x['dtype']} shape={x['shape']} rg={x['requires_grad']} fn={x['grad_fn']}]"
        else:
            text = repr(d)
    if seen:
        text += f"\n    warnings: {seen}"
    if grads is not None:
        text += f"\n    backward: {grads!r}"[:1500]
    if back:
        text += f"\n    backward warnings: {back}"
    return text


def make_cases(seed=14):
    """Every generator's cases for one seed (the pytest run uses 14; `--report --seed N` tries others)."""
    public = public_names()
    return (api_fuzz_cases.all_cases(public, seed=seed) + api_fuzz_reach.reach_cases(public, seed=seed)
            + api_fuzz_dtidx.dtidx_cases(seed=seed) + api_fuzz_more.more_cases(public, seed=seed)
            + api_fuzz_autograd.autograd_cases(seed=seed))


def _seed_from_argv():
    """`--seed N` when run as a script; the pytest run always uses seed 14 (its KNOWN_DIFFERENCES were measured
    there)."""
    if __name__ == "__main__" and "--seed" in sys.argv:
        return int(sys.argv[sys.argv.index("--seed") + 1])
    return 14


SEED = _seed_from_argv()
CASES = make_cases(SEED)
CHUNK = 500


def _chunks():
    """One test per area and block of CHUNK cases, so that a failure names its area."""
    by_area = collections.defaultdict(list)
    for case in CASES:
        by_area[case.area].append(case)
    return [pytest.param(cases[i:i + CHUNK], id=f"{area}-{i // CHUNK}")
            for area, cases in by_area.items() for i in range(0, len(cases), CHUNK)]


def _failures(cases):
    out = []
    for case in cases:
        kinds, internal, g, t = compare(case)
        if internal and not known(match_key(case, ["internal:" + internal[0]], g, t)):
            out.append((case, ["internal"] + internal, g, t))
        elif kinds and not internal and not known(match_key(case, kinds, g, t)):
            out.append((case, kinds, g, t))
    return out


@pytest.fixture(scope="module", autouse=True)
def _fresh_process_warnings():
    """gradlab's once-per-process warnings as in a fresh process (other test files ran before this one),
    so that _once sees every warning gradlab gives while the fuzzer runs."""
    modules = sys.modules          # (gradlab.tensor is the factory function; the module is only found here)
    modules["gradlab.tensor"]._WARNED.clear()
    _WARNED.clear()


@pytest.mark.parametrize("cases", _chunks())
def test_api_fuzz(cases):
    failures = _failures(cases)
    if failures:
        lines = [f"{len(failures)} of {len(cases)} cases differ from PyTorch; the first ones:"]
        for case, kinds, g, t in failures[:8]:
            lines += [f"--- [{case.area}] {'+'.join(kinds)}", case.code, f"  torch:   {_fmt_outcome(t)}",
                      f"  gradlab: {_fmt_outcome(g)}"]
        pytest.fail("\n".join(lines), pytrace=False)


def test_every_public_name_is_called():
    """The generators reach every public function and Tensor method that gradlab and torch share."""
    text = "\n".join(c.code for c in CASES)
    funcs = {n for n in public_names() if callable(getattr(gradlab, n)) and not isinstance(getattr(gradlab, n), type)}
    missing = sorted(n for n in funcs if f"torch.{n}(" not in text)
    missing += sorted(n for n in api_fuzz_cases.public_methods(gradlab) if f".{n}(" not in text)
    assert not missing, missing


def test_every_shared_name_is_reached():
    """Every public name gradlab shares with torch (functions, Tensor methods, properties and operators incl.
    reflected and in-place ones, nn.functional, nn modules and Module methods, nn.init, optim, autograd) is
    called by some case's own code (`python tests/fuzz/test_api_fuzz.py --coverage` lists them)."""
    hits, _ = coverage(CASES)
    assert not [label for label, n in hits.items() if not n]


# --- the report ------------------------------------------------------------------------------------

def _collect():
    """Run every case; returns per-area counts and the differing cases grouped by signature."""
    by_area, agree = collections.Counter(), collections.Counter()
    groups, internal_groups, missing = {}, {}, {}
    for case in CASES:
        by_area[case.area] += 1
        try:
            kinds, internal, g, t = compare(case)
        except Exception as e:  # noqa: BLE001  (the fuzzer itself must not stop the report)
            kinds, internal, g, t = [f"harness-error {e!r}"], [], None, None
        if internal:
            key = f"{case.area}|{case.family}|internal:{internal[0]}"
            reason = known(match_key(case, ["internal:" + internal[0]], g, t))
            internal_groups.setdefault(key, []).append((case, internal, g, t, reason))
        elif "missing-api" in kinds:
            missing.setdefault(case.family, []).append((case, kinds, g, t, None))
        elif kinds:
            reason = known(match_key(case, kinds, g, t)) if t is not None else None
            groups.setdefault(signature(case, kinds), []).append((case, kinds, g, t, reason))
        if not kinds and not internal:
            agree[case.area] += 1
    return by_area, agree, groups, internal_groups, missing


def report(path=None, limit=80):
    import time
    started = time.time()
    by_area, agree, groups, internal_groups, missing = _collect()
    elapsed = time.time() - started
    unknown = lambda items: sum(1 for it in items if not it[4])  # noqa: E731
    out = [f"# API fuzz report (seed {SEED}, {len(CASES)} calls, {elapsed:.0f} s, {time.strftime('%H:%M:%S')} UTC)", "",
           "Made by `python tests/fuzz/test_api_fuzz.py --report`. 'agree' counts calls where gradlab and torch agree "
           "on everything; the last column counts differing calls that KNOWN_DIFFERENCES does not list (new "
           "regressions, or differences not yet recorded). Groups not in KNOWN_DIFFERENCES come first below.", "",
           "| area | calls | agree | rate | differ, not in KNOWN_DIFFERENCES |", "|---|---|---|---|---|"]
    for area in by_area:
        open_ = sum(unknown(v) for k, v in list(groups.items()) + list(internal_groups.items())
                    if k.startswith(area + "|"))
        out.append(f"| {area} | {by_area[area]} | {agree[area]} | {100 * agree[area] / by_area[area]:.1f}% | {open_} |")
    total = sum(agree.values())
    out.append(f"| **all** | {len(CASES)} | {total} | {100 * total / len(CASES):.2f}% | |")

    def section(title, gs, n, out):
        out.extend(["", f"## {title} ({len(gs)} groups, {sum(len(v) for v in gs.values())} calls)", ""])
        ordered = sorted(gs.items(), key=lambda kv: (all(it[4] for it in kv[1]), -len(kv[1])))
        for sig, items in ordered[:n]:
            case, kinds, g, t, reason = items[0]
            out.append(f"### {len(items)} × `{sig}`" + (f"  (known: {reason})" if all(it[4] for it in items) else ""))
            out.append("```")
            out.append(case.code)
            if t is not None:
                out.append(f"# torch:   {_fmt_outcome(t)}")
                out.append(f"# gradlab: {_fmt_outcome(g)}")
            else:
                out.append(f"# {kinds}")
            out.append("```")

    by_kind = collections.Counter()
    families = collections.defaultdict(collections.Counter)
    for key, items in internal_groups.items():
        kind = key.split("|internal:", 1)[1]
        by_kind[kind] += len(items)
        families[kind][key.split("|")[1]] += len(items)
    out.extend(["", "## Internal errors by kind, across all calls", "",
                "| calls | kind | where (most frequent calls) |", "|---|---|---|"])
    for kind, n in by_kind.most_common(40):
        where = ", ".join(f"{f} ({c})" for f, c in families[kind].most_common(6))
        out.append(f"| {n} | `{kind}` | {where} |")
    causes, new = collections.Counter(), collections.Counter()
    cause_example = {}
    for sig, items in groups.items():
        for case, kinds, g, t, reason in items:
            if t is None:
                continue
            cause = f"{'+'.join(kinds)} | torch: {_template(_short(t))} | gradlab: {_template(_short(g))}"
            causes[cause] += 1
            new[cause] += not reason
            cause_example.setdefault(cause, case.code.replace("\n", "; ")[:160])
    out.extend(["", "## Mismatches by cause (outcome texts with numbers and names blurred)", "",
                "| calls | not in KNOWN | cause | example |", "|---|---|---|---|"])
    for cause, n in causes.most_common(80):
        out.append(f"| {n} | {new[cause]} | `{cause[:260]}` | `{cause_example[cause]}` |")
    head = list(out)
    for n, target in ((limit, out), (None, head)):  # the short report, then every group in `<path>.full.md`
        section("Internal errors in gradlab (numpy/Python internals showing)", internal_groups, n, target)
        section("Mismatches, grouped by area|call|kind (unknown first)", groups, n, target)
        section("Missing API (gradlab lacks the name)", missing, n and 30, target)
    stale = [p for p in KNOWN_DIFFERENCES if p not in _USED]
    out.extend(["", f"## KNOWN_DIFFERENCES entries that match no call any more ({len(stale)}): fixed, remove them", ""])
    out.extend(f"- `{p}`" for p in stale)
    text = "\n".join(out) + "\n"
    if path:
        Path(path).write_text(text)
        Path(path).with_suffix(".full.md").write_text("\n".join(head) + "\n")
    return text


# --- coverage: which shared public names the cases call -------------------------------------------

# Tensor dunders that are API (operators, conversions, indexing); the rest are object machinery.
OPERATOR_DUNDERS = sorted(
    {f"__{p}{n}__" for n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor")
     for p in ("", "r", "i")} - {"__imatmul__"}
    | {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__pos__", "__abs__", "__invert__",
       "__getitem__", "__setitem__", "__len__", "__iter__", "__contains__", "__bool__", "__float__", "__int__",
       "__index__", "__complex__", "__format__", "__repr__", "__str__", "__array__", "__deepcopy__", "__reduce_ex__",
       "__hash__", "__lshift__", "__rshift__", "__rlshift__", "__rrshift__", "__ilshift__", "__irshift__",
       "__div__", "__rdiv__", "__idiv__"})


def shared_names():
    """Every public name gradlab shares with torch: label -> (owner object, attribute name).
    Labels read as code: `torch.exp`, `Tensor.exp`, `Tensor.__radd__`, `F.relu`, `nn.Linear`, `nn.Module.to`,
    `optim.SGD`, `optim.Optimizer.step`, `autograd.grad`, `nn.init.zeros_`."""
    import inspect
    out = {}

    def add(prefix, g_owner, t_owner, names=None, want=lambda v: callable(v) and not inspect.ismodule(v)):
        for n in names if names is not None else dir(g_owner):
            if (names is None and n.startswith("_")) or not hasattr(t_owner, n) or not hasattr(g_owner, n):
                continue
            v = inspect.getattr_static(g_owner, n) if isinstance(g_owner, type) else getattr(g_owner, n)
            if isinstance(v, (staticmethod, classmethod)):
                v = v.__func__
            if getattr(v, "__module__", "gradlab").split(".")[0] in ("typing", "collections", "abc", "builtins") \
                    and not isinstance(g_owner, type):
                continue  # a helper the module imported (typing.Mapping), not its API
            if want(v) or isinstance(v, property):
                out[f"{prefix}.{n}"] = (g_owner, n)

    add("torch", gradlab, torch)
    add("Tensor", gradlab.Tensor, torch.Tensor)
    add("Tensor", gradlab.Tensor, torch.Tensor, [n for n in OPERATOR_DUNDERS if n in vars(gradlab.Tensor)])
    add("F", gradlab.nn.functional, torch.nn.functional, want=lambda v: inspect.isfunction(v))
    add("nn", gradlab.nn, torch.nn, want=lambda v: isinstance(v, type))
    add("nn.Module", gradlab.nn.Module, torch.nn.Module)
    add("nn.init", gradlab.nn.init, torch.nn.init, want=lambda v: inspect.isfunction(v))
    add("optim", gradlab.optim, torch.optim, want=lambda v: isinstance(v, type))
    add("optim.Optimizer", gradlab.optim.Optimizer, torch.optim.Optimizer)
    add("autograd", gradlab.autograd, torch.autograd, want=lambda v: inspect.isfunction(v) or isinstance(v, type))
    add("autograd.Function", gradlab.autograd.Function, torch.autograd.Function, ["apply"])
    for name in ("Size", "dtype", "device"):  # the small classes' public methods
        g_cls = getattr(gradlab, name)
        if isinstance(g_cls, type):
            add(name, g_cls, getattr(torch, name))
    return out


def coverage(cases):
    """Run every case under gradlab alone with each shared name wrapped; a call counts when it comes from a
    case's own code (not from inside gradlab). Returns {label: calls}. Classes count when constructed."""
    import functools
    import inspect
    import os
    root = os.path.dirname(gradlab.__file__)
    names = shared_names()
    hits = collections.Counter({label: 0 for label in names})
    succeeded = collections.Counter()

    def outside():
        f = sys._getframe(2)
        return not f.f_code.co_filename.startswith(root)

    def wrap(label, fn):
        @functools.wraps(fn)
        def wrapper(*a, **k):
            if not outside():
                return fn(*a, **k)
            hits[label] += 1
            result = fn(*a, **k)
            succeeded[label] += 1
            return result
        return wrapper

    patched, wrapped = [], set()
    for label, (owner, n) in names.items():
        raw = inspect.getattr_static(owner, n) if isinstance(owner, type) else getattr(owner, n)
        own = n in vars(owner) if isinstance(owner, type) or inspect.ismodule(owner) else True
        if isinstance(raw, property):
            new = property(wrap(label, raw.fget) if raw.fget else None, raw.fset, raw.fdel, raw.__doc__)
        elif isinstance(raw, staticmethod):
            new = staticmethod(wrap(label, raw.__func__))
        elif isinstance(raw, classmethod):
            new = classmethod(wrap(label, raw.__func__))
        elif isinstance(raw, type):  # a class: count its construction, leave the class itself alone
            init = raw.__dict__.get("__init__") or raw.__dict__.get("__new__")
            if init is None or not inspect.isfunction(init):
                continue
            owner, n, raw, own = raw, "__init__" if "__init__" in raw.__dict__ else "__new__", init, True
            new = wrap(label, init) if n == "__init__" else staticmethod(wrap(label, init))
            raw = raw if n == "__init__" else staticmethod(init)
        elif callable(raw) and not inspect.isbuiltin(raw) and hasattr(raw, "__code__") or inspect.ismethod(raw):
            new = wrap(label, raw)
        else:
            continue
        patched.append((owner, n, raw, own))
        wrapped.add(label)
        setattr(owner, n, new)
    try:
        for case in cases:
            ns = {"torch": gradlab, "F": gradlab.nn.functional, "nn": gradlab.nn, "np": np, "meta": _meta}
            setup, last = _compiled(case.code)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    if setup is not None:
                        exec(setup, ns)
                    eval(last, ns)
                except Exception:  # noqa: BLE001
                    pass
                finally:
                    gradlab.set_grad_enabled(True)
                    gradlab.set_printoptions(profile="default")
                    if "set_default_device" in case.code:
                        gradlab.set_default_device(None)
    finally:
        for owner, n, raw, own in reversed(patched):
            if own:
                setattr(owner, n, raw)
            else:
                delattr(owner, n)
    text = "\n".join(c.code for c in cases)
    for label, (owner, n) in names.items():  # classes made without a Python __init__ of their own: by the text
        if isinstance(getattr(owner, n), type) and not hits[label]:
            spelled = "torch." + label if label.split(".")[0] in ("optim", "autograd") else label
            hits[label] = succeeded[label] = text.count(spelled + "(") + text.count(spelled + ")")
        elif label not in wrapped or (label.startswith("nn.Module.") and not hits[label]):
            # C methods (tuple's count) and methods every subclass overrides (forward): by the text
            hits[label] = succeeded[label] = text.count(f".{n}(")
    return hits, succeeded


def coverage_report(cases=None):
    hits, succeeded = coverage(CASES if cases is None else cases)
    never = sorted(label for label, n in hits.items() if not n)
    only_errors = sorted(label for label, n in hits.items() if n and not succeeded[label])
    by_kind = collections.Counter(label.rsplit(".", 1)[0] for label in hits)
    missed = collections.Counter(label.rsplit(".", 1)[0] for label in never)
    out = [f"# Coverage of shared public names ({len(hits)} names, {len(hits) - len(never)} called, "
           f"{len(never)} never called)", "", "| kind | names | never called |", "|---|---|---|"]
    out += [f"| {k} | {by_kind[k]} | {missed[k]} |" for k in sorted(by_kind)]
    out += ["", "## never called", "", "| kind | name |", "|---|---|"]
    out += [f"| {label.rsplit('.', 1)[0]} | `{label}` |" for label in never]
    out += ["", f"## called, but every call raised ({len(only_errors)})", ""]
    out += [", ".join(f"`{label}` ({hits[label]})" for label in only_errors)]
    out += ["", "## least called (1-3 calls)", ""]
    out += [", ".join(f"`{label}` ({n})" for label, n in sorted(hits.items()) if 0 < n <= 3)]
    return "\n".join(out) + "\n", never


def _template(text):
    """An outcome text with its specifics blurred, so one cause shows up once."""
    text = re.sub(r"'[^']*'|`[^`]*`|\([^()]*\)", "…", text)
    text = re.sub(r"-?\d+(\.\d+)?", "N", text)
    return text[:120]


def _drop_stale(source, stale):
    """Remove the entries `pattern: reason,` of these patterns from the source text of KNOWN_DIFFERENCES."""
    import ast
    out, skipping = [], False
    for line in source.splitlines(keepends=True):
        stripped = line.strip()
        if line.startswith("    ") and not line.startswith("     ") and stripped.endswith(":") \
                and stripped[0] in "'\"":
            skipping = ast.literal_eval(stripped[:-1]) in stale
        elif not line.startswith("        "):
            skipping = False
        if not skipping:
            out.append(line)
    return "".join(out)


def _escape(text):
    return re.sub(r"([*?\[])", r"[\1]", text)


def suggest_known():
    """KNOWN_DIFFERENCES entries for every group that differs now and is not yet listed."""
    _, _, groups, internal_groups, missing = _collect()
    lines = []
    for gs in (internal_groups, groups, missing):
        for sig, items in sorted(gs.items(), key=lambda kv: -len(kv[1])):
            if all(it[4] for it in items):
                continue
            case, kinds, g, t, _ = items[0]
            if t is None:
                continue
            k = ["internal:" + kinds[0]] if gs is internal_groups else kinds
            pattern = _escape(f"{case.area}|{case.family}|{'+'.join(k)}|") + "*"
            reason = f"torch {_short(t)[:45]} | gradlab {_short(g)[:45]}"
            lines.append(f"    {pattern!r}:\n        {reason!r},")
    return "\n".join(lines)


if __name__ == "__main__":
    if "--suggest" in sys.argv:
        print(suggest_known())
    elif "--update-known" in sys.argv:  # replace the one-by-one block of KNOWN_DIFFERENCES with what differs now
        me = Path(__file__)
        text = me.read_text()
        start = text.index("\n", text.index("    # --- remaining groups, one by one")) + 1
        end = text.index("    # end of KNOWN_DIFFERENCES")
        KNOWN_DIFFERENCES = {k: v for k, v in KNOWN_DIFFERENCES.items() if k in text[:start]}
        entries = suggest_known()
        head = _drop_stale(text[:start], [p for p in KNOWN_DIFFERENCES if p not in _USED])
        me.write_text(head + (entries + "\n" if entries else "") + text[end:])
    elif "--coverage" in sys.argv:  # which shared public names no case calls
        rest = [a for a in sys.argv[1:] if a != "--coverage"]
        text, _ = coverage_report()
        if rest:
            Path(rest[0]).write_text(text)
        print(text)
    elif "--report" in sys.argv:
        rest = [a for a in sys.argv[1:] if a != "--report"]
        if "--seed" in rest:  # `--seed N` chose the cases above; what remains is the path
            i = rest.index("--seed")
            del rest[i:i + 2]
        text = report(rest[0] if rest else None)
        print(text[:6000])
    else:
        print(__doc__)
