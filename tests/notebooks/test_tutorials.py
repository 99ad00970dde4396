"""The five seed tutorials (their code cells carried in tests/data) run with gradlab in place of torch.

Their code cells are extracted in order and run in one process the way a notebook does (the
value of a cell's last expression is displayed with IPython's pretty printer). The oracle is real
torch running the same cells: outputs must agree line for line, with object addresses
normalised. Both runs start from manual_seed(0), and gradlab draws the same random numbers as
torch, so printed random tensors match too. (The tutorials' own recorded outputs come from old
torch versions - `ViewBackward`, `MeanBackward1` - and unseeded draws, so torch 2.13 is the
more honest reference.)
"""
import functools
import json
import pathlib
import re
import subprocess
import sys

import pytest

# the tutorials' code cells (tools/make_test_data.py extracts them from the seed tutorials)
SEED_DATA = pathlib.Path(__file__).resolve().parents[1] / "data" / "seed_tutorials.json"
TUTORIALS = json.loads(SEED_DATA.read_text(encoding="utf-8"))
SEEDS = sorted(TUTORIALS)
ADDRESS = re.compile(r"0x[0-9a-fA-F]+")


RUNNER = r"""
import ast, sys, warnings
warnings.simplefilter("ignore")
from IPython.lib.pretty import pretty
import {module} as torch
sys.modules["torch"] = torch           # the tutorials' own `import torch`
for cells in {tutorials!r}:
    print("== tutorial ==")
    torch.manual_seed(0)
    ns = {{"__name__": "__main__"}}
    for cell in cells:
        tree = ast.parse(cell)
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        body = tree.body[:-1] if last is not None else tree.body
        try:
            exec(compile(ast.Module(body, []), "<cell>", "exec"), ns)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), ns)
                if value is not None:
                    print(pretty(value))
        except Exception as e:
            print(f"{{type(e).__name__}}: {{e}}")
        print("-- end of cell --")
"""


@functools.lru_cache(maxsize=None)
def run_tutorials(module):
    """Output of every tutorial (one process per module: importing torch is slow), as lists of lines."""
    tutorials = [TUTORIALS[name]["cells"] for name in SEEDS]
    code = RUNNER.format(module=module, tutorials=tutorials)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    chunks = ADDRESS.sub("0x…", proc.stdout).split("== tutorial ==\n")[1:]
    assert len(chunks) == len(SEEDS)
    return {p: chunk.splitlines() for p, chunk in zip(SEEDS, chunks)}


@pytest.mark.parametrize("name", SEEDS)
def test_cells_are_found(name):
    cells = TUTORIALS[name]["cells"]
    assert len(cells) >= 5 and all(compile(c, name, "exec") for c in cells)
    assert any("backward" in c for c in cells)


@pytest.mark.torch
@pytest.mark.parametrize("name", SEEDS)
def test_tutorial_prints_what_torch_prints(name):
    pytest.importorskip("torch")
    assert run_tutorials("gradlab")[name] == run_tutorials("torch")[name]


@pytest.mark.parametrize("name", SEEDS)
def test_deterministic_tutorial_lines_appear(name):
    """Without torch: the tutorial's own printed tensors that involve no random draw and no
    version-specific node name appear in gradlab's output."""
    ours = "\n".join(run_tutorials("gradlab")[name])
    for line in TUTORIALS[name]["deterministic_lines"]:
        assert line in ours, line
