"""Build the tutorial notebooks from their sources: `python notebooks_src/build.py [names...]`.

The notebooks are never edited by hand. Each `notebooks_src/NN_name.py` becomes `notebooks/NN_name.ipynb`
(the notebooks folder holds only notebooks): converted, executed with nbclient (outputs and widget state
stored, so graphs and the backward player show in static viewers), then post-processed so that building twice
gives byte-identical files: no timing metadata, cell ids from their position, object addresses replaced by
realistic ones derived from their order, widget model ids derived from their order, error tracebacks cut to
their last line (see make_reproducible). The file is written as JupyterLab saves it (nbformat.writes plus a
final newline, sources as lists of lines) with the kernel's own language_info, so opening a notebook in
JupyterLab (here or on Binder, same Python) and closing it changes nothing.
Names on the command line select sources by stem or prefix (`01`, `06_seeing_the_graph`); none means all.

Source format (a small subset of jupytext's "percent" format, so jupytext can also open the sources):

    # title: Seeing the graph                  <- header: `# key: value` lines before the first cell
    # summary: one sentence for the start page
    # seed: 000_062b1e8a1bc57c72.txt           <- (mirror notebooks) the tutorial in ../shared/seeds it mirrors

    # %% [markdown]
    # A markdown cell: every line starts with "# " (or is a lone "#" for an empty line) ...

    # %% [markdown]
    \"\"\"
    ... or the whole cell is one triple-quoted block (handy for long prose in any language).
    \"\"\"

    # %% tags=["nbval-check-output"]
    x = torch.ones(2)          <- a code cell: everything up to the next `# %%` line

Cell tags are written as jupytext writes them (`# %% tags=[...]`, a JSON list). nbval reads them, so no test
marker shows in a code cell: `nbval-check-output` (compare the output), `raises-exception` (JupyterLab's tag:
Run All goes on past the error; nbval reads it as NBVAL_RAISES_EXCEPTION). Every other code cell gets
`nbval-ignore-output`, so the notebooks pass under both `pytest --nbval` and `--nbval-lax`.

A markdown cell whose text is exactly `{{NOTEBOOK_LIST}}` is replaced by a list of every other notebook in
notebooks_src (scanned at build time, using their `title` and `summary` headers): the start page.
Errors are recorded only in code cells tagged `raises-exception`; an error in any other cell stops the build.
"""
from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SRC = HERE                                  # the sources NN_name.py sit beside this file
NOTEBOOKS = HERE.parent / "notebooks"       # the built notebooks (and the kernel's working directory)
CELL_TIMEOUT = 120  # seconds per cell

KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}
# language_info is left as the kernel reports it (nbclient stores it): JupyterLab replaces it with its
# kernel's when a notebook opens, and a different one (e.g. version "3" against "3.11.7") marks the notebook
# modified. Build in the environment the notebooks are served in (binder/: Python 3.11).
CHECK, IGNORE, RAISES = "nbval-check-output", "nbval-ignore-output", "raises-exception"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# an object address; not inside base64 text (a drawing's data URI may hold "0x" followed by hex digits)
ADDRESS = re.compile(r"(?<![A-Za-z0-9+/])0x[0-9a-fA-F]{6,}")
CELL_MARK = re.compile(r"^# %%(.*)$")
TAGS = re.compile(r"\btags=(\[.*?\])")
HEADER = re.compile(r"^# (\w+): (.*)$")
NOTEBOOK_LIST = "{{NOTEBOOK_LIST}}"


# ---------------------------------------------------------------- source -> cells

def parse_source(text: str) -> tuple[dict, list[tuple[str, str, list[str]]]]:
    """Return (header dict, [(kind, text, tags), ...]) for one percent-format source."""
    header: dict[str, str] = {}
    cells: list[tuple[str, list[str], list[str]]] = []
    for line in text.splitlines():
        mark = CELL_MARK.match(line)
        if mark:
            kind = "markdown" if "[markdown]" in mark.group(1) else "code"
            tags = TAGS.search(mark.group(1))
            cells.append((kind, [], json.loads(tags.group(1)) if tags else []))
        elif cells:
            cells[-1][1].append(line)
        else:
            m = HEADER.match(line)
            if m:
                header[m.group(1)] = m.group(2).strip()
    return header, [(kind, _cell_text(kind, lines), tags) for kind, lines, tags in cells]


def _cell_text(kind: str, lines: list[str]) -> str:
    text = "\n".join(lines).strip("\n")
    if kind == "code":
        return text
    stripped = text.strip()
    if stripped.startswith('"""') and stripped.endswith('"""') and len(stripped) >= 6:
        return stripped[3:-3].strip("\n")
    out = []
    for line in text.splitlines():
        if line == "#":
            out.append("")
        elif line.startswith("# "):
            out.append(line[2:])
        else:
            raise ValueError(f"markdown line without '# ' prefix: {line!r}")
    return "\n".join(out)


def notebook_list(exclude: str) -> str:
    """Markdown list of the notebooks in src/ (the start page's table of contents)."""
    items = []
    for path in sorted(SRC.glob("[0-9][0-9]_*.py")):
        if path.stem == exclude:
            continue
        header, _ = parse_source(path.read_text(encoding="utf-8"))
        title = header.get("title", path.stem)
        summary = header.get("summary", "")
        items.append(f"- [**{path.stem[:2]} · {title}**]({path.stem}.ipynb): {summary}")
    return "\n".join(items)


def make_notebook(path: Path):
    import nbformat

    header, cells = parse_source(path.read_text(encoding="utf-8"))
    nb = nbformat.v4.new_notebook()
    for i, (kind, text, tags) in enumerate(cells):
        if "NBVAL_" in text:
            raise ValueError(f"{path.name}: write nbval markers as cell tags (# %% tags=[...]), not comments")
        if kind == "markdown":
            if text.strip() == NOTEBOOK_LIST:
                text = notebook_list(exclude=path.stem)
            cell = nbformat.v4.new_markdown_cell(text)
        else:
            cell = nbformat.v4.new_code_cell(text)
            if CHECK not in tags:
                tags = tags + [IGNORE]
        if tags:
            cell.metadata["tags"] = list(tags)
        cell["id"] = f"{kind[:2]}-{i:03d}"  # nbformat would draw random ids
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    gradlab_meta = {k: v for k, v in header.items() if k in ("title", "summary", "seed", "language")}
    if gradlab_meta:
        nb.metadata["gradlab"] = gradlab_meta
    return nb


# ---------------------------------------------------------------- execute

def execute(nb) -> None:
    from nbclient import NotebookClient

    # allow_errors: a cell meant to fail must not stop the run (those cells also carry the
    # `raises-exception` tag, for JupyterLab's Run All). Unexpected errors are caught right after.
    client = NotebookClient(nb, timeout=CELL_TIMEOUT, kernel_name="python3", record_timing=False,
                            store_widget_state=True, allow_errors=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    client.execute()
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        errors = [out for out in cell.outputs if out.get("output_type") == "error"]
        expected = RAISES in cell.metadata.get("tags", [])
        if errors and not expected:
            raise RuntimeError(f"cell {i} raised {errors[0]['ename']}: {errors[0]['evalue']}\n{cell.source}")
        if expected and not errors:
            raise RuntimeError(f"cell {i} is tagged raises-exception but raised nothing\n{cell.source}")


# ---------------------------------------------------------------- make the result reproducible

def make_reproducible(nb, stem: str) -> None:
    for cell in nb.cells:
        cell.metadata.pop("execution", None)  # timings (record_timing=False already leaves none)
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                # Only the last traceback line ("NameError: ..."): earlier frames hold paths and line numbers
                # of this machine's files. nbval compares only ename/evalue.
                out["traceback"] = out["traceback"][-1:]
    _coalesce_streams(nb)
    _stable_widget_ids(nb, stem)
    _mask_addresses(nb)


def _coalesce_streams(nb) -> None:
    # The kernel flushes stdout every 0.2 s, so a slow cell's printing arrives in chunks split at
    # random points; join neighbouring chunks of the same stream (as nbconvert's coalesce_streams does).
    for cell in nb.cells:
        merged = []
        for out in cell.get("outputs", []):
            if (merged and out.get("output_type") == "stream" and merged[-1].get("output_type") == "stream"
                    and merged[-1].get("name") == out.get("name")):
                merged[-1]["text"] = merged[-1]["text"] + out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged


def _output_blobs(nb):
    """The outputs of each cell, then the widget state: the parts of a notebook that execution writes."""
    for cell in nb.cells:
        if cell.get("outputs"):
            yield cell, "outputs"
    if WIDGET_STATE in nb.metadata.get("widgets", {}):
        yield nb.metadata["widgets"], WIDGET_STATE


def _rewrite(nb, pattern: re.Pattern, make_new) -> None:
    """Replace every match of `pattern` in outputs and widget state, numbering matches by first appearance."""
    mapping: dict[str, str] = {}
    for owner, key in _output_blobs(nb):
        text = json.dumps(owner[key], ensure_ascii=False)
        for old in pattern.findall(text):
            if old not in mapping:
                mapping[old] = make_new(len(mapping) + 1)
    if not mapping:
        return
    for owner, key in _output_blobs(nb):
        text = json.dumps(owner[key], ensure_ascii=False)
        text = pattern.sub(lambda m: mapping[m.group(0)], text)
        owner[key] = _to_node(json.loads(text))


def _mask_addresses(nb) -> None:
    # Object addresses (`<AddBackward0 object at 0x7f...>`) differ on every run; replace them with
    # realistic ones (what a student sees when running the cell) derived from their order of first
    # appearance. nbval's sanitize file (nbval_sanitize.cfg) masks addresses when it compares.
    _rewrite(nb, ADDRESS, lambda n: f"0x7f{hashlib.sha1(f'address:{n}'.encode()).hexdigest()[:9]}0")


def _stable_widget_ids(nb, stem: str) -> None:
    # ipywidgets gives every model a random uuid4 id. Map each to an id derived from the notebook's name and
    # the model's order of first appearance (view outputs first, then the stored state), everywhere it is
    # used: widget-view outputs, the state's keys and its "IPY_MODEL_<id>" references.
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    ids = set(state)
    for cell in nb.cells:
        for out in cell.get("outputs", []):
            view = out.get("data", {}).get(WIDGET_VIEW)
            if view:
                ids.add(view["model_id"])
    if not ids:
        return
    pattern = re.compile("|".join(sorted(map(re.escape, ids))))
    _rewrite(nb, pattern, lambda n: hashlib.sha1(f"{stem}:{n}".encode()).hexdigest()[:32])


def _to_node(value):
    import nbformat
    return nbformat.from_dict(value)


# ---------------------------------------------------------------- main

def build(path: Path, out_dir: Path = NOTEBOOKS) -> Path:
    """Build one source into out_dir/NN_name.ipynb (the kernel always runs in notebooks/)."""
    import nbformat

    nb = make_notebook(path)
    execute(nb)
    make_reproducible(nb, path.stem)
    nbformat.validate(nb)
    target = Path(out_dir) / f"{path.stem}.ipynb"
    target.write_text(to_text(nb), encoding="utf-8")
    return target


def to_text(nb) -> str:
    """The file as JupyterLab (jupyter_server's nbformat.write) saves it: nbformat.writes, sources and texts
    split into lists of lines, a final newline."""
    import nbformat
    text = nbformat.writes(nb, version=nbformat.NO_CONVERT)
    return text if text.endswith("\n") else text + "\n"


def select(names: list[str]) -> list[Path]:
    sources = sorted(SRC.glob("[0-9][0-9]_*.py"))
    if not names:
        return sources
    chosen = [p for p in sources if any(p.stem == n or p.stem.startswith(n) for n in names)]
    missing = [n for n in names if not any(p.stem == n or p.stem.startswith(n) for p in sources)]
    if missing:
        raise SystemExit(f"no source in {SRC} matches: {', '.join(missing)}")
    return chosen


def main(argv: list[str]) -> int:
    import time
    for path in select(argv):
        start = time.perf_counter()
        target = build(path)
        print(f"built {target} in {time.perf_counter() - start:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
