"""Regenerate the test data that the repository carries, so the suite runs on a bare clone.

    python tools/make_test_data.py          (needs real torch 2.13 and ../shared beside the repository)

Two files, both derived here, never edited by hand:

* torch_repr_cases.json: the printing cases of the project's reference (../shared/reference), each
  expression evaluated again with real torch: what torch prints (`printed`) and the result's dtype
  come from this run, not from the reference file;
* seed_tutorials.json: for each seed tutorial (../shared/seeds), only its code cells (what the
  mirror notebooks reproduce) and which of the tutorial's deterministic printed lines appear in it.

tests/project/test_test_data.py checks, when ../shared is beside the clone, that both files are current.
"""
import ast
import json
import math
import pathlib
import re
import sys

REPO = pathlib.Path(__file__).resolve().parents[1]
HERE = REPO / "tests" / "data"
SHARED = REPO.parent / "shared"
REFERENCE = SHARED / "reference" / "torch_repr_cases.json"
SEEDS = SHARED / "seeds"
REPR_CASES = HERE / "torch_repr_cases.json"
SEED_TUTORIALS = HERE / "seed_tutorials.json"

# printed lines of the autograd tutorial that involve no random draw and no version-specific node name
DETERMINISTIC_LINES = ["tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)",
                       "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)",
                       "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"]
OUTPUT_START = ("tensor(", "<", "(tensor", "None", "True", "False", "[", "Out:", "g2 ")


def _compiles(text):
    try:
        ast.parse(text)
        return True
    except SyntaxError:
        return False


def _repair_indentation(code):
    """The web-page tutorial lost indentation after `with ...:` lines; put it back."""
    lines = code.split("\n")
    for i in range(len(lines) - 1):
        if lines[i].rstrip().endswith(":") and not lines[i + 1].startswith((" ", "\t")):
            lines[i + 1] = "    " + lines[i + 1]
    return "\n".join(lines)


def extract_cells(text):
    """The code cells of a tutorial: ``` blocks of a web page not preceded by "Out:", or the code
    paragraphs of each `In [n]:` block of a notebook dump (up to its first output or prose)."""
    if "```" in text:
        parts = text.split("```")
        return [_repair_indentation(parts[i].strip("\n")) for i in range(1, len(parts), 2)
                if not parts[i - 1].strip().endswith("Out:")]
    cells = []
    for block in re.split(r"^In \[\s*\d*\]:\n", text, flags=re.M)[1:]:
        code = []
        for para in block.split("\n\n"):
            if not para.strip():
                continue
            if para.lstrip().startswith(OUTPUT_START) or not _compiles("\n\n".join(code + [para])):
                break
            code.append(para)
        if code:
            cells.append("\n\n".join(code))
    return cells


def seed_tutorials():
    out = {}
    for path in sorted(SEEDS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        flat = text.replace("\n        ", "\n")
        out[path.name] = {"cells": extract_cells(text),
                          "deterministic_lines": [s for s in DETERMINISTIC_LINES
                                                  if s.replace("\n        ", "\n") in flat]}
    return out


def repr_cases():
    import torch
    reference = json.loads(REFERENCE.read_text())
    cases = []
    for case in reference["cases"]:
        ns = {"torch": torch, "math": math}
        if case.get("setup"):
            exec(case["setup"], ns)
        value = eval(case["expr"], ns)
        with torch._tensor_str.printoptions(**case.get("printoptions", {})):
            printed = repr(value)
        ours = {k: case[k] for k in ("expr", "setup", "printoptions", "note") if k in case}
        ours.update(dtype=str(value.dtype), printed=printed)
        cases.append(ours)
    return {"torch_version": torch.__version__, "cases": cases}


def _dump(data):
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    if not (REFERENCE.exists() and SEEDS.is_dir()):
        sys.exit(f"{SHARED} (the project's references and seed tutorials) must sit beside the repository")
    REPR_CASES.write_text(_dump(repr_cases()), encoding="utf-8")
    SEED_TUTORIALS.write_text(_dump(seed_tutorials()), encoding="utf-8")
    print(f"wrote {REPR_CASES.name} and {SEED_TUTORIALS.name}")
