"""Every case of torch_repr_cases.json, evaluated with gradlab in place of torch.

The expression (and its setup and print options) runs with the name `torch` bound to
gradlab; `repr`, `str` and `print` of the result must equal the stored text, which torch
2.13 printed, byte for byte. bfloat16 has no numpy counterpart, so those cases are skipped
with a reason (and counted by `test_case_inventory`).
"""
import contextlib
import io
import json
import math
import pathlib

import pytest

import gradlab

# the project's shared references sit beside the repository (../shared), in CI as here
CASES_FILE = pathlib.Path(__file__).resolve().parents[2] / "shared" / "reference" / "torch_repr_cases.json"
if not CASES_FILE.exists():   # fail loudly: a missing reference must not look like a pass
    raise FileNotFoundError(f"{CASES_FILE} is missing: the shared references must sit beside the repository")
CASES = json.loads(CASES_FILE.read_text())["cases"]


def _unrepresentable(case):
    text = case["expr"] + case.get("setup", "")
    if "bfloat16" in text or case["dtype"] == "torch.bfloat16":
        return "bfloat16 is not representable with numpy storage"
    return None


def _needs_missing_module(case):
    if "torch.nn." in case["expr"]:
        try:
            import gradlab.nn  # noqa: F401
        except ImportError:
            return "gradlab.nn is not part of the core package (yet)"
    return None


def _evaluate(case):
    ns = {"torch": gradlab, "math": math}
    if "setup" in case:
        exec(case["setup"], ns)
    return eval(case["expr"], ns)


@pytest.fixture(autouse=True)
def _restore_options():
    old = gradlab.get_printoptions()
    yield
    gradlab.set_printoptions(**old)


@pytest.mark.parametrize("case", CASES, ids=[f"{i}:{c['expr'][:50]}" for i, c in enumerate(CASES)])
def test_case_prints_like_torch(case):
    reason = _unrepresentable(case)
    if reason:
        pytest.skip(reason)
    missing = _needs_missing_module(case)
    if missing:
        pytest.skip(missing)
    result = _evaluate(case)
    with gradlab.printoptions(**case.get("printoptions", {})):
        text = repr(result)
        assert str(result) == text
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            print(result)
    assert text == case["printed"]
    assert out.getvalue() == case["printed"] + "\n"
    assert str(result.dtype) == case["dtype"]


def test_case_inventory():
    skipped = [c for c in CASES if _unrepresentable(c)]
    assert len(CASES) == 133
    assert len(skipped) == 1, [c["expr"] for c in skipped]
