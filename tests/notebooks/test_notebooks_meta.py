"""The tutorial notebooks as files: built from their sources, faithful to the tutorials they mirror,
mostly output-checked by nbval, and reproducible.

nbval itself (run with `--nbval-lax notebooks/`) checks that every notebook still runs and prints what
is stored. These tests check the rest:

* every notebooks/NN_name.ipynb comes from notebooks_src/NN_name.py and is up to date with it, and the
  notebooks folder holds nothing but notebooks;
* each seed tutorial (its code cells in tests/data) has a mirror notebook that performs the tutorial's operations in
  the tutorial's order;
* nbval's markers are cell tags, never comments in the code: at least 80% of the code cells carry
  `nbval-check-output`, and no cell that shows a rendered graph is checked;
* the printed outputs are what PyTorch prints for the same code;
* notebooks_src/build.py gives byte-identical files when run twice, written as JupyterLab writes them.
"""
from __future__ import annotations

import ast
import contextlib
import importlib.util
import io
import json
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
SOURCE_DIR = REPO / "notebooks_src"
# the seed tutorials' code cells (tools/make_test_data.py extracts them from the seed tutorials)
SEED_CELLS = {name: data["cells"] for name, data in
              json.loads((REPO / "tests" / "data" / "seed_tutorials.json").read_text(encoding="utf-8")).items()}
CHECK, IGNORE, RAISES = "nbval-check-output", "nbval-ignore-output", "raises-exception"


def load_build():
    spec = importlib.util.spec_from_file_location("notebooks_build", SOURCE_DIR / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = load_build()
SOURCES = sorted(SOURCE_DIR.glob("[0-9][0-9]_*.py"))


def notebook(stem: str) -> dict:
    """The stored notebook, its multi-line strings (stored as lists of lines, as JupyterLab writes them) joined."""
    import nbformat
    return nbformat.reads((NOTEBOOKS / f"{stem}.ipynb").read_text(encoding="utf-8"), as_version=4)


def code_cells(nb: dict) -> list[dict]:
    return [c for c in nb["cells"] if c["cell_type"] == "code"]


def source_of(cell: dict) -> str:
    s = cell["source"]
    return s if isinstance(s, str) else "".join(s)


def tags(cell: dict) -> list:
    return cell.get("metadata", {}).get("tags", [])


# ---------------------------------------------------------------- files and sources

def test_every_notebook_has_a_source_and_is_up_to_date():
    assert SOURCES, "no sources in notebooks_src"
    built = sorted(p.stem for p in NOTEBOOKS.glob("*.ipynb"))
    assert built == [p.stem for p in SOURCES], "run `python notebooks_src/build.py`"
    for path in SOURCES:
        expected = build.make_notebook(path)
        stored = notebook(path.stem)
        assert [(c["cell_type"], source_of(c), tags(c)) for c in stored["cells"]] == \
               [(c["cell_type"], c["source"], c.metadata.get("tags", [])) for c in expected.cells], \
               f"{path.stem}.ipynb is older than its source: run `python notebooks_src/build.py {path.stem}`"
        assert stored["metadata"]["kernelspec"]["name"] == "python3"
        assert stored["nbformat"] == 4


def test_outputs_are_stored_and_no_cell_failed_unexpectedly():
    for path in SOURCES:
        for cell in code_cells(notebook(path.stem)):
            errors = [o for o in cell["outputs"] if o["output_type"] == "error"]
            assert bool(errors) == (RAISES in tags(cell)), (path.stem, source_of(cell))
            assert cell["execution_count"] is not None, (path.stem, source_of(cell))


def test_start_page_links_every_notebook_and_has_the_binder_badge():
    start = "".join(source_of(c) for c in notebook("00_start_here")["cells"])
    assert "https://mybinder.org/badge_logo.svg" in start
    assert "labpath=notebooks%2F00_start_here.ipynb" in start
    for path in SOURCES[1:]:
        assert f"]({path.stem}.ipynb)" in start, path.stem


# ---------------------------------------------------------------- nbval markers

def test_notebooks_folder_holds_only_notebooks():
    assert sorted(p.name for p in NOTEBOOKS.iterdir() if p.name not in (".ipynb_checkpoints", "__pycache__")) == \
        sorted(f"{p.stem}.ipynb" for p in SOURCES)


def test_no_code_cell_shows_an_nbval_marker():
    for path in SOURCES:
        assert "NBVAL" not in path.read_text(encoding="utf-8"), path.name
        for cell in code_cells(notebook(path.stem)):
            assert "NBVAL" not in source_of(cell).upper(), (path.stem, source_of(cell))
            assert tags(cell), (path.stem, source_of(cell))


def test_nbval_reads_the_tags():
    """nbval 0.11 maps these tags to its markers (in --nbval-lax mode too: tags override the default)."""
    from nbval.plugin import find_metadata_tags
    assert dict(find_metadata_tags({"tags": [CHECK]})) == {"check": True}
    assert dict(find_metadata_tags({"tags": [IGNORE]})) == {"check": False}
    assert dict(find_metadata_tags({"tags": ["nbval-raises-exception"]})) == {"check_exception": True}
    # JupyterLab's own tag (Run All goes on past the error) means the same to nbval; both tags on one cell
    # would make nbval warn about conflicting tags, so the notebooks use only `raises-exception`.
    assert dict(find_metadata_tags({"tags": [CHECK, RAISES]})) == {"check": True, "check_exception": True}


def test_at_least_80_percent_of_code_cells_are_output_checked():
    cells = [c for p in SOURCES for c in code_cells(notebook(p.stem))]
    checked = [c for c in cells if CHECK in tags(c)]
    assert len(checked) >= 0.8 * len(cells), f"{len(checked)} of {len(cells)} code cells checked"


def _shows_rendered_graph(cell: dict) -> bool:
    for out in cell["outputs"]:
        data = out.get("data", {})
        if "image/svg+xml" in data or "application/vnd.jupyter.widget-view+json" in data:
            return True
        html = data.get("text/html", "")
        if ("<svg" in html or "data:image/svg+xml" in html) and 'class="gradlab-graph"' in html[:400]:
            return True
    return False


def test_markers_are_used_as_intended():
    for path in SOURCES:
        for cell in code_cells(notebook(path.stem)):
            src, marks = source_of(cell), tags(cell)
            assert (CHECK in marks) != (IGNORE in marks), (path.stem, src)
            if _shows_rendered_graph(cell):
                assert CHECK not in marks, f"{path.stem}: a drawing or a player is compared by nbval:\n{src}"
            if RAISES in marks:
                assert CHECK in marks, (path.stem, src)


def test_sanitize_file_masks_addresses_and_svg():
    patterns = re.findall(r"^regex: (.*)$\n^replace: (.*)$", (SOURCE_DIR / "nbval_sanitize.cfg").read_text(),
                          flags=re.MULTILINE)

    def sanitize(s):
        for regex, replace in patterns:
            s = re.sub(regex, replace, s)
        return s
    assert sanitize("<AddBackward0 object at 0x7f82b901b748>") == sanitize("<AddBackward0 object at 0x1a39f3>")
    assert sanitize('<div><svg width="1pt">\n<g/></svg></div>') == sanitize("<div><svg>\n</svg></div>")
    assert sanitize('<img src="data:image/svg+xml;base64,PHN2Zy0xAB+/=" alt="g">') == \
        sanitize('<img src="data:image/svg+xml;base64,PHN2Zz4=" alt="g">')
    assert sanitize("tensor([1., 2.])") == "tensor([1., 2.])"


# ---------------------------------------------------------------- the seed tutorials

def _parse(code: str) -> ast.Module | None:
    """Parse a code cell; repairs a block whose indentation the web page lost (`with ...:` + flush line)."""
    try:
        return ast.parse(code)
    except SyntaxError:
        pass
    lines, fixed, indent = code.splitlines(), [], False
    for line in lines:
        stripped = line.split("#")[0].rstrip()
        fixed.append(("    " + line) if indent and line and not line.startswith((" ", "\t")) else line)
        indent = indent or stripped.endswith(":")
    try:
        return ast.parse("\n".join(fixed))
    except SyntaxError:
        return None


BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.MatMult: "@",
          ast.FloorDiv: "//", ast.Mod: "%"}
CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!=", ast.Is: "is",
          ast.IsNot: "is not", ast.In: "in", ast.NotIn: "not in"}


def operations(code: str) -> list[str]:
    """The calls (by function or method name: `torch.ones(...)` -> `ones`, `x.sum()` -> `sum`) and the
    operators of a code cell, in evaluation order. `print` and imports are ignored, as are comments."""
    tree = _parse(code)
    assert tree is not None, f"cannot parse:\n{code}"
    ops: list[str] = []

    def visit(node):
        for child in ast.iter_child_nodes(node):
            visit(child)
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else "?"
            if name != "print":
                ops.append(name + "()")
        elif isinstance(node, ast.BinOp):
            ops.append(BINOPS[type(node.op)])
        elif isinstance(node, ast.AugAssign):
            ops.append(BINOPS[type(node.op)] + "=")
        elif isinstance(node, ast.Compare):
            ops.extend(CMPOPS[type(o)] for o in node.ops)
        elif isinstance(node, ast.Assign):
            ops.extend(t.attr + "=" for t in node.targets if isinstance(t, ast.Attribute))
    visit(tree)
    return ops


def is_subsequence(needle: list, haystack: list) -> bool:
    it = iter(haystack)
    return all(any(h == n for h in it) for n in needle)


def _mirrors() -> dict[str, str]:
    """seed file name -> mirror notebook stem (from each source's `# seed:` header)."""
    found = {}
    for path in SOURCES:
        header, _ = build.parse_source(path.read_text(encoding="utf-8"))
        if "seed" in header:
            found[header["seed"]] = path.stem
    return found


def test_operations_extraction_on_a_known_cell():
    assert operations("a = torch.randn(2, 2)\na = ((a * 3) / (a - 1))\nprint(a.requires_grad)\n"
                      "a.requires_grad = True\nb = (a * a).sum()") == \
        ["randn()", "*", "-", "/", "requires_grad=", "*", "sum()"]
    assert operations("with torch.no_grad():\nprint((x ** 2).requires_grad)") == ["no_grad()", "**"]
    assert is_subsequence([1, 3], [1, 2, 3]) and not is_subsequence([3, 1], [1, 2, 3])


def test_every_seed_tutorial_has_a_mirror_notebook():
    mirrors = _mirrors()
    assert sorted(mirrors) == sorted(SEED_CELLS)
    languages = sorted(build.parse_source((SOURCE_DIR / f"{stem}.py").read_text(encoding="utf-8"))[0]
                       ["language"] for stem in mirrors.values())
    assert languages == ["en", "en", "ko", "zh", "zh"]


@pytest.mark.parametrize("seed_name", sorted(SEED_CELLS))
def test_mirror_performs_the_tutorials_operations_in_order(seed_name):
    cells = SEED_CELLS[seed_name]
    assert len(cells) >= 8, f"{seed_name}: found only {len(cells)} code cells"
    wanted = [op for cell in cells for op in operations(cell)]
    stem = _mirrors()[seed_name]
    nb_cells = code_cells(notebook(stem))
    done = [op for cell in nb_cells for op in operations(source_of(cell))]
    assert is_subsequence(wanted, done), f"{stem} does not perform {seed_name}'s operations in order"
    # each tutorial cell's operations also appear together, cell by cell, in order
    position = 0
    for cell in cells:
        ops = operations(cell)
        if not ops:
            continue
        while position < len(nb_cells) and not is_subsequence(ops, operations(source_of(nb_cells[position]))):
            position += 1
        assert position < len(nb_cells), f"{stem}: no cell (in order) performs\n{cell}"
        position += 1
    # and the mirror reads like the tutorial: `import gradlab as torch`, never the real torch
    sources = "\n".join(source_of(c) for c in nb_cells)
    assert "import gradlab as torch" in sources and not re.search(r"^import torch", sources, re.MULTILINE)


# ---------------------------------------------------------------- PyTorch prints the same

def _expected_text(output: dict) -> str | None:
    if output["output_type"] == "stream" and output["name"] == "stdout":
        return output["text"]
    if output["output_type"] == "execute_result":
        return output["data"]["text/plain"] + "\n"
    return None


class _WithoutViz(ast.NodeTransformer):
    """gradlab.viz has no torch counterpart: drop drawings, and replace the player by the backward it runs."""

    def visit_ImportFrom(self, node):
        if node.module != "gradlab":
            return node
        node.module = "torch"                                   # from gradlab import nn -> from torch import nn
        node.names = [a for a in node.names if a.name != "viz"]
        return node if node.names else None

    def visit_Expr(self, node):
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "viz"):
            return node
        if call.func.attr != "animate_backward":
            return None
        return ast.copy_location(ast.Expr(self._backward(call)), node)

    def visit_Assign(self, node):
        """`frames = viz.record_backward(out, ...)`: the backward it runs, and no frames."""
        call = node.value
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
                and isinstance(call.func.value, ast.Name) and call.func.value.id == "viz"
                and call.func.attr == "record_backward"):
            return node
        return [ast.copy_location(ast.Expr(self._backward(call)), node),
                ast.copy_location(ast.Assign(node.targets, ast.List([], ast.Load())), node)]

    @staticmethod
    def _backward(call):
        keywords = [k for k in call.keywords if k.arg in ("gradient", "retain_graph")]
        return ast.Call(ast.Attribute(call.args[0], "backward", ast.Load()), call.args[1:3], keywords)


@pytest.mark.torch
def test_printed_outputs_are_what_pytorch_prints():
    """Run every notebook with the real torch and compare what each output-checked cell prints or displays
    with the stored outputs (addresses masked). Cells using gradlab.viz run without it and are not compared."""
    pytest.importorskip("torch")
    from IPython.lib.pretty import pretty
    mask = re.compile(r"0x[0-9a-fA-F]+")
    for path in SOURCES:
        namespace: dict = {}
        for cell in code_cells(notebook(path.stem)):
            src = source_of(cell)
            tree = _WithoutViz().visit(ast.parse(src.replace("import gradlab as torch", "import torch")))
            ast.fix_missing_locations(tree)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            buffer = io.StringIO()
            with contextlib.redirect_stdout(buffer):
                try:
                    exec(compile(tree, path.stem, "exec"), namespace)
                    if last is not None:
                        value = eval(compile(ast.Expression(last.value), path.stem, "eval"), namespace)
                        if value is not None:
                            print(pretty(value))
                except Exception as error:
                    if RAISES not in tags(cell):
                        raise
                    stored = [o for o in cell["outputs"] if o["output_type"] == "error"][0]
                    assert (type(error).__name__, str(error)) == (stored["ename"], stored["evalue"]), path.stem
            if CHECK not in tags(cell) or "viz." in src or RAISES in tags(cell):
                continue
            stored = "".join(t for t in map(_expected_text, cell["outputs"]) if t is not None)
            assert mask.sub("0x", buffer.getvalue()) == mask.sub("0x", stored), f"{path.stem}:\n{src}"


# ---------------------------------------------------------------- build.py

def test_post_processing_makes_ids_and_addresses_deterministic():
    import nbformat
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="<A object at 0x7f00aa11bb22> <B object at 0x55aa00ff>\n"),
        nbformat.v4.new_output("execute_result", execution_count=1, data={
            "text/plain": "<A object at 0x7f00aa11bb22>",
            build.WIDGET_VIEW: {"model_id": "f" * 32, "version_major": 2, "version_minor": 0}}),
    ]
    cell.metadata["execution"] = {"iopub.execute_input": "2026-01-01T00:00:00Z"}
    nb.cells.append(cell)
    nb.metadata["widgets"] = {build.WIDGET_STATE: {"version_major": 2, "version_minor": 0, "state": {
        "0" * 32: {"model_name": "LayoutModel", "state": {}},
        "f" * 32: {"model_name": "VBoxModel", "state": {"children": ["IPY_MODEL_" + "0" * 32],
                                                          "layout": "IPY_MODEL_" + "0" * 32}}}}}
    nb.metadata["language_info"] = {"name": "python", "version": "3.11.7"}
    build.make_reproducible(nb, "99_test")
    text = json.dumps(nb)
    assert "0x7f00aa11bb22" not in text and "0x55aa00ff" not in text
    outs = nb.cells[0].outputs
    first_address, second_address = re.findall(r"0x[0-9a-f]+", outs[0].text)
    assert first_address != second_address and re.fullmatch(r"0x7f[0-9a-f]{10}", first_address)   # realistic
    assert outs[1].data["text/plain"] == f"<A object at {first_address}>"
    first, second = (build.hashlib.sha1(f"99_test:{n}".encode()).hexdigest()[:32] for n in (1, 2))
    assert outs[1].data[build.WIDGET_VIEW]["model_id"] == first           # the view output comes first
    state = nb.metadata["widgets"][build.WIDGET_STATE]["state"]
    assert set(state) == {first, second}
    assert state[first]["state"]["children"] == ["IPY_MODEL_" + second]
    assert "execution" not in nb.cells[0].metadata
    assert nb.metadata["language_info"] == {"name": "python", "version": "3.11.7"}    # the kernel's, kept


def test_addresses_inside_a_drawing_are_left_alone():
    import nbformat
    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x")
    image = '<img src="data:image/svg+xml;base64,AB0x12345678CD+0x9abcdef0">'
    cell.outputs = [nbformat.v4.new_output("display_data", data={"text/html": image, "text/plain": "g"})]
    nb.cells.append(cell)
    build.make_reproducible(nb, "99_test")
    assert nb.cells[0].outputs[0].data["text/html"] == image


def test_files_are_written_as_jupyterlab_writes_them():
    """jupyter_server saves with nbformat.write: nbformat.writes (sources as lists of lines) + a final newline;
    language_info is the kernel's, with the Python version Binder serves (binder/runtime.txt)."""
    import nbformat
    runtime = (REPO / "binder" / "runtime.txt").read_text().strip().removeprefix("python-")
    for path in SOURCES:
        text = (NOTEBOOKS / f"{path.stem}.ipynb").read_text(encoding="utf-8")
        nb = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        assert text == nbformat.writes(nb) + "\n", path.stem
        info = nb.metadata["language_info"]
        assert info["name"] == "python" and info["version"].startswith(runtime + "."), (path.stem, info)
        assert info == nb_first()["metadata"]["language_info"], "all notebooks built by the same kernel"
        for cell in json.loads(text)["cells"]:
            assert isinstance(cell["source"], list), (path.stem, cell["source"])    # as JupyterLab saves it


def nb_first() -> dict:
    return notebook(SOURCES[0].stem)


def test_build_twice_gives_identical_files(tmp_path):
    """Execute one notebook with addresses, a drawing and a player twice: byte-identical results."""
    source = SOURCE_DIR / "01_autograd_basics_en.py"
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    first = build.build(source, one).read_bytes()
    second = build.build(source, two).read_bytes()
    assert first == second
    nb = json.loads(first)
    assert build.WIDGET_STATE in nb["metadata"].get("widgets", {}), "the player's widget state is stored"
    assert not re.search(rb'"execution": \{', first)
